#!/usr/bin/env bash
# User-Mode Linux backend of the guest runner (scripts/guest.sh --kernel uml).
#
# UML is built from Debian's linux-source-6.1 with time travel and two small patches
# (scripts/uml/det-random.patch, scripts/uml/xstate-size.patch), so a run is deterministic:
# virtual time starts at 0 and advances only when the guest idles (time-travel=inf-cpu), and
# the guest's randomness comes from det-random=<seed>. Same seed + same command =>
# byte-identical results, whatever the host's speed or load.
set -euo pipefail
# One compound command: bash reads all of it before running, so editing this file while a
# run is going on cannot change that run.
{

usage() {
	cat <<'EOF'
usage: scripts/uml.sh build     build (once, cached) the UML kernel and helpers; print the kbuild dir
       scripts/uml.sh module    build tcp_bbr_a.ko against UML; print its path
       scripts/uml.sh run [--kernel uml] [--virtual-time] [--timeout SEC] [--out HOSTDIR]
                          [--seed N] [--mem MB] [--smp 1] [--ko FILE] -- COMMAND [ARGS...]

run boots UML (root = the host's / over hostfs, read-only; /run /tmp /var/tmp /root /dev/shm
are tmpfs) and runs COMMAND with
/bin/sh -c semantics. In the guest: BBR_A_SRC (copy of the project tree), BBR_A_KO
(tcp_bbr_a.ko, not loaded), BBR_A_OUT (copied back to HOSTDIR), BBR_A_KERNEL=uml,
BBR_A_SEED, BBR_A_SAMPLER (testbed/sampler.c, built static). Time travel is always on (--virtual-time is implied). Default seed 1.
--ko FILE: use this tcp_bbr_a.ko (built for UML) instead of building the repository's.
HOSTDIR receives BBR_A_OUT's contents when the command ends (not on timeout or crash) and
console.log (the guest kernel's console, warnings and errors only).
Exit status: COMMAND's, or 124 timeout, 125 guest crash/panic (no status reported),
123 setup failure (build, bad module, init could not start the command), 2 usage.
Env: BBR_A_CACHE (cache dir), BBR_A_UML_JOBS (make -j, default 2),
     BBR_A_UML_KEEP=1 (keep the run dir for debugging).
EOF
}

die() { echo "uml.sh: error: $*" >&2; exit "${DIE_CODE:-1}"; }
log() { echo "uml.sh: $*" >&2; }

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UML_FILES=$REPO/scripts/uml
CACHE="${BBR_A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp_bbr_a}"
SRC_PKG=linux-source-6.1
SRC_TARBALL=/usr/src/$SRC_PKG.tar.xz
JOBS=${BBR_A_UML_JOBS:-2}
# Bump when the build recipe below changes in a way that changes the kernel (part of the key).
RECIPE=2
# Fixed build identity: uname -v is mixed into the guest's RNG, so two builds of the same
# sources give the same runs (on other machines too).
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" KBUILD_BUILD_USER=tcp_bbr_a \
	KBUILD_BUILD_HOST=uml KBUILD_BUILD_VERSION=1

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || die "'$t' not found (run scripts/setup.sh)"
	done
}

hash_of() { { echo "recipe $RECIPE"; cat "$@"; } | sha256sum | cut -c1-12; }

# ---------------------------------------------------------------- build
kernel_dir() {
	local ver
	[[ -r $SRC_TARBALL ]] ||
		die "$SRC_TARBALL missing: apt-get install --no-install-recommends $SRC_PKG"
	ver=$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null) ||
		die "cannot read the version of $SRC_PKG (dpkg-query)"
	echo "$CACHE/uml/$ver-$(hash_of "$UML_FILES/config.fragment" "$UML_FILES"/*.patch)"
}

# Every line of the fragment must hold in the final .config ("is not set" = absent or unset).
check_config() {
	local config=$1 fragment=$2 line sym bad=0
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)= ]]; then
			grep -qxF -- "$line" "$config" || { log "config: want $line, got: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$config" || echo absent)"; bad=1; }
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			if grep -qE "^$sym=" "$config"; then
				log "config: want $sym off, got: $(grep -E "^$sym=" "$config")"
				bad=1
			fi
		fi
	done <"$fragment"
	return "$bad"
}

build_kernel() {
	local kdir tree start lockfd p
	kdir=$(kernel_dir)
	tree=$kdir/tree
	[[ -f $kdir/.complete ]] && { echo "$kdir"; return; }
	need make gcc flex bison bc patch xz tar flock nice
	mkdir -p "$CACHE/uml"
	exec {lockfd}>"$CACHE/uml/.build.lock"
	if ! flock -n "$lockfd"; then
		log "waiting for another UML build to finish"
		flock "$lockfd"
	fi
	if [[ ! -f $kdir/.complete ]]; then
		start=$(date +%s)
		rm -rf "$kdir"
		mkdir -p "$kdir"
		log "building UML kernel in $kdir (takes ~10 min on 2 cores; log: $kdir/build.log)"
		{
			tar -xJf "$SRC_TARBALL" -C "$kdir"
			mv "$kdir/$SRC_PKG" "$tree"
			for p in "$UML_FILES"/*.patch; do
				patch -d "$tree" -p1 --forward <"$p"
			done
			make -C "$tree" ARCH=um defconfig
			"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" "$tree/.config" \
				"$UML_FILES/config.fragment"
			make -C "$tree" ARCH=um olddefconfig
		} >>"$kdir/build.log" 2>&1 || { tail -n 30 "$kdir/build.log" >&2; die "UML configuration failed"; }
		check_config "$tree/.config" "$UML_FILES/config.fragment" ||
			die "UML .config does not match scripts/uml/config.fragment (see above)"
		nice -n 10 make -C "$tree" ARCH=um -j"$JOBS" linux modules >>"$kdir/build.log" 2>&1 ||
			{ tail -n 40 "$kdir/build.log" >&2; die "UML kernel build failed (log: $kdir/build.log)"; }
		echo $(($(date +%s) - start)) >"$kdir/build-seconds"
		touch "$kdir/.complete"
		log "UML kernel built in $(cat "$kdir/build-seconds") s"
	fi
	exec {lockfd}>&-
	echo "$kdir"
}

# build_helper SOURCE NAME: a static binary of one C file, cached by the file's hash; prints
# its path. The guest gets it from the run dir (it needs no libraries of the host's).
build_helper() {
	local dir
	dir=$CACHE/uml/tools-$(hash_of "$1")
	if [[ ! -x $dir/$2 ]]; then
		need gcc
		mkdir -p "$dir"
		gcc -static -O2 -Wall -o "$dir/$2.tmp.$$" "$1" ||
			die "cannot build the static helper $2 from $1 (libc6-dev with libc.a needed)"
		mv "$dir/$2.tmp.$$" "$dir/$2"
	fi
	echo "$dir/$2"
}

# Copies the module sources to $CACHE/uml-build/<kernel>-<sources hash>/ and builds there.
# Prints the .ko path, or nothing when the project has no module source (yet).
build_module() {
	local kdir=$1 files=() f dir lockfd
	[[ -f $REPO/tcp_bbr_a.c ]] || { log "warning: $REPO/tcp_bbr_a.c missing: no module (BBR_A_KO empty)"; return 0; }
	for f in Makefile Kbuild "$REPO"/*.c include; do
		f=${f#"$REPO"/}
		[[ -e $REPO/$f ]] && files+=("$f")
	done
	dir=$CACHE/uml-build/$(basename "$kdir")-$(cd "$REPO" && find "${files[@]}" -type f -print0 |
		sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)
	if [[ ! -f $dir/tcp_bbr_a.ko ]]; then
		mkdir -p "$CACHE/uml-build"
		exec {lockfd}>"$dir.lock"
		flock "$lockfd"
		if [[ ! -f $dir/tcp_bbr_a.ko ]]; then
			rm -rf "$dir"
			mkdir -p "$dir"
			(cd "$REPO" && cp -R "${files[@]}" "$dir/")
			make -C "$kdir/tree" ARCH=um M="$dir" modules >"$dir/build.log" 2>&1 ||
				{ cat "$dir/build.log" >&2; rm -f "$dir/tcp_bbr_a.ko"; DIE_CODE=123 die "module build against UML failed"; }
			[[ -f $dir/tcp_bbr_a.ko ]] || DIE_CODE=123 die "module build produced no tcp_bbr_a.ko (see $dir/build.log)"
		fi
		exec {lockfd}>&-
	fi
	echo "$dir/tcp_bbr_a.ko"
}

# ---------------------------------------------------------------- run
# Quote a string for POSIX sh (the guest's init sources the params file with /bin/sh).
shquote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

RUN_DIR=
UML_PID=
TAIL_PIDS=()
SLEEP_PID=

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local p
	if [[ -n $UML_PID ]]; then
		# UML forks one host process per guest process plus helpers, all in its session
		kill -KILL -- "-$UML_PID" 2>/dev/null || true
		wait "$UML_PID" 2>/dev/null || true
		pkill -KILL -s "$UML_PID" 2>/dev/null || true
	fi
	for p in "${TAIL_PIDS[@]}" $SLEEP_PID; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [[ -n $RUN_DIR && ${BBR_A_UML_KEEP:-0} != 1 ]]; then
		rm -rf "$RUN_DIR"
	elif [[ -n $RUN_DIR ]]; then
		log "run dir kept: $RUN_DIR"
	fi
}

save_console() {
	[[ -z $1 ]] && return 0
	mkdir -p "$1"
	cp "$RUN_DIR/kernel.log" "$1/console.log"
}

console_tail() {
	echo "---- UML kernel console (last 40 lines) ----" >&2
	tail -n 40 "$RUN_DIR/kernel.log" >&2 || true
	echo "--------------------------------------------" >&2
}

cmd_run() {
	local timeout=900 out='' seed=1 mem=1024 kdir poweroff sampler ko='' ko_arg='' cmdline rc finished f
	while (($#)); do
		case $1 in
		--kernel) [[ ${2-} == uml ]] || DIE_CODE=2 die "uml.sh runs only --kernel uml"; shift 2 ;;
		--virtual-time) shift ;;
		--timeout) [[ ${2-} =~ ^[0-9]+$ && $2 -gt 0 ]] || DIE_CODE=2 die "--timeout needs seconds"; timeout=$2; shift 2 ;;
		--out) [[ -n ${2-} ]] || DIE_CODE=2 die "--out needs a directory"; out=$2; shift 2 ;;
		--seed) [[ ${2-} =~ ^[0-9]{1,18}$ ]] || DIE_CODE=2 die "--seed needs a non-negative integer"; seed=$((10#$2)); shift 2 ;;
		--mem) [[ ${2-} =~ ^[0-9]+$ && $2 -ge 128 ]] || DIE_CODE=2 die "--mem needs MB (>= 128)"; mem=$2; shift 2 ;;
		--smp) [[ ${2-} =~ ^[0-9]+$ ]] || DIE_CODE=2 die "--smp needs a number"
			[[ $2 == 1 ]] || log "warning: UML is uniprocessor, ignoring --smp $2"; shift 2 ;;
		--ko) [[ -f ${2-} ]] || DIE_CODE=2 die "--ko: no such file '${2-}'"; ko_arg=$2; shift 2 ;;
		--) shift; break ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; DIE_CODE=2 die "unknown option '$1'" ;;
		esac
	done
	(($#)) || { usage >&2; DIE_CODE=2 die "no COMMAND given (put it after --)"; }
	need setsid pkill tail sha256sum

	kdir=$(DIE_CODE=123 build_kernel) || exit 123
	poweroff=$(DIE_CODE=123 build_helper "$UML_FILES/poweroff.c" uml-poweroff) || exit 123
	sampler=$(DIE_CODE=123 build_helper "$REPO/testbed/sampler.c" sampler) || exit 123
	if [[ -n $ko_arg ]]; then
		ko=$(realpath "$ko_arg")
	else
		ko=$(build_module "$kdir") || exit 123
	fi

	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM HUP
	mkdir -p "$CACHE/uml-run"
	RUN_DIR=$(mktemp -d "$CACHE/uml-run/run.XXXXXXXX")
	mkdir -p "$RUN_DIR/src" "$RUN_DIR/out" "$RUN_DIR/home"
	# A copy of the project tree (fixed layout only: no .git, no results)
	for f in Makefile Kbuild tcp_bbr_a.c include scripts testbed tests plots README.md LICENSE .ci; do
		[[ -e $REPO/$f ]] && cp -R "$REPO/$f" "$RUN_DIR/src/"
	done
	[[ -n $ko ]] && cp "$ko" "$RUN_DIR/tcp_bbr_a.ko"
	cp "$poweroff" "$RUN_DIR/poweroff"
	cp "$sampler" "$RUN_DIR/sampler"
	cp "$UML_FILES/init.sh" "$RUN_DIR/init"
	cp "$kdir/tree/modules.builtin" "$kdir/tree/modules.builtin.modinfo" "$kdir/tree/modules.order" "$RUN_DIR/"
	{
		echo "BBR_A_SEED=$seed"
		echo "BBR_A_HAVE_KO=$([[ -n $ko ]] && echo 1 || echo 0)"
		echo "BBR_A_CMD=$(shquote "$*")"
	} >"$RUN_DIR/params"

	# The command line must not change between runs with the same seed (it seeds the
	# guest's RNG too): the guest finds its run dir as the cwd of the UML process
	# (/proc/self/cwd of the host, read through hostfs) instead of a path here.
	# Kernel console (tty0) -> fd 3 = kernel.log; the command's stdout and stderr use tty1
	# and tty2 -> fds 1 and 2 = files streamed by tail (UML makes its fds non-blocking,
	# so it must not share ours).
	# shellcheck disable=SC2054 # the commas belong to UML's channel syntax
	cmdline=(mem="${mem}M" rootfstype=hostfs rootflags=/ ro quiet loglevel=5
		con=null con0=null,fd:3 con1=null,fd:1 con2=null,fd:2
		time-travel=inf-cpu time-travel-start=0 det-random="$seed"
		init=/bin/sh -- /proc/self/cwd/init)
	: >"$RUN_DIR/console.out"
	: >"$RUN_DIR/console.err"
	(cd "$RUN_DIR" && HOME=$RUN_DIR/home exec setsid "$kdir/tree/linux" "${cmdline[@]}" \
		</dev/null >console.out 2>console.err 3>kernel.log) &
	UML_PID=$!
	tail -n +1 -s 0.1 --pid="$UML_PID" -F "$RUN_DIR/console.out" 2>/dev/null &
	TAIL_PIDS+=($!)
	tail -n +1 -s 0.1 --pid="$UML_PID" -F "$RUN_DIR/console.err" >&2 2>/dev/null &
	TAIL_PIDS+=($!)
	sleep "$timeout" &
	SLEEP_PID=$!

	wait -n -p finished "$UML_PID" "$SLEEP_PID" || true
	if [[ ${finished-} == "$SLEEP_PID" ]]; then
		SLEEP_PID=
		kill -KILL -- "-$UML_PID" 2>/dev/null || true
		wait "$UML_PID" 2>/dev/null || true
		UML_PID=
		wait "${TAIL_PIDS[@]}" 2>/dev/null || true
		log "timeout: guest still running after $timeout s (wall clock), killed"
		save_console "$out"
		console_tail
		exit 124
	fi
	wait "$UML_PID" && rc=0 || rc=$?
	kill -KILL -- "-$UML_PID" 2>/dev/null || true # leftovers of this session
	UML_PID=
	wait "${TAIL_PIDS[@]}" 2>/dev/null || true
	TAIL_PIDS=()

	save_console "$out"
	if [[ -f $RUN_DIR/status ]]; then
		rc=$(cat "$RUN_DIR/status")
		[[ -z $out ]] || cp -R "$RUN_DIR/out/." "$out/"
		if [[ $rc == setup:* ]]; then
			log "guest setup failed: ${rc#setup:}"
			console_tail
			exit 123
		fi
		exit "$rc"
	fi
	if grep -q "Kernel panic" "$RUN_DIR/kernel.log"; then
		log "kernel panic in the UML guest (linux exit status $rc)"
	else
		log "UML guest stopped without reporting the command's status (linux exit status $rc)"
	fi
	console_tail
	exit 125
}

case ${1-} in
build) shift; kdir=$(build_kernel); build_helper "$UML_FILES/poweroff.c" uml-poweroff >/dev/null
	echo "$kdir/tree" ;;
module) shift; kdir=$(build_kernel); build_module "$kdir" ;;
run) shift; cmd_run "$@" ;;
-h | --help | help) usage ;;
*) usage >&2; exit 2 ;;
esac
exit
}
