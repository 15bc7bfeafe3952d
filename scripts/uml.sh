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
# run is going on cannot change that run (the libraries below are read at the start too).
{

usage() {
	cat <<'EOF'
usage: scripts/uml.sh build     build (once, cached) the UML kernel and helpers; print the kbuild dir
       scripts/uml.sh module    build tcp_bbr_a.ko against UML (cached by content); print its path
       scripts/uml.sh id        print the kernel's identity, building nothing: the version of
                                linux-source-6.1 and a hash of the patches and config
                                (6.1.192-2-10c4e557b052; part of testbed/screen.sh's job keys)
       scripts/uml.sh run [--kernel uml] [--virtual-time] [--timeout SEC] [--out HOSTDIR]
                          [--seed N] [--mem MB] [--smp 1] [--ko FILE] [--file FILE]...
                          [--real-time] [--net SPEC]... -- COMMAND [ARGS...]

run boots UML (root = the host's / over hostfs, read-only; /run /tmp /var/tmp /root /dev/shm
are tmpfs) and runs COMMAND with /bin/sh -c semantics. In the guest: BBR_A_SRC (the project
tree as on disk, less .git, docs/, results/ and build products; read-only), BBR_A_KO
(tcp_bbr_a.ko, not loaded), BBR_A_OUT (copied back to HOSTDIR), BBR_A_KERNEL=uml,
BBR_A_SEED, BBR_A_SAMPLER (testbed/sampler.c, built static). Time travel is on (--virtual-time
is implied) unless --real-time. Default seed 1.
--ko FILE: use this tcp_bbr_a.ko (built for UML) instead of building the repository's.
--file FILE: copy FILE into the guest's read-only directory BBR_A_FILES (repeatable).
--real-time: no time travel: the guest runs on the host's clock (runs do not repeat; for
guests that talk to each other: scripts/separate_kernels.sh).
--net SPEC: a network interface vecN (N = 0, 1, ... in the order given): UML's vector
driver with SPEC, e.g. transport=tap,ifname=TAP,mac=02:00:00:00:00:01 (a host tap that
exists); needs the kernel with the driver, BBR_A_UML_VARIANT=net (repeatable).
HOSTDIR receives BBR_A_OUT's contents when the command ends (not on timeout or crash) and
console.log (the guest kernel's console, warnings and errors only).
Exit status: COMMAND's, or 124 timeout, 125 guest crash/panic (no status reported),
123 setup failure (build, bad module, init could not start the command), 2 usage.
Env: BBR_A_CACHE (cache dir), BBR_A_UML_JOBS (make -j, default 2),
     BBR_A_UML_KEEP=1 (keep the run dir for debugging),
     BBR_A_UML_SOURCE=VERSION (build from this Debian revision of linux-source-6.1, e.g.
     6.1.192-2, fetched once into the cache, rather than the installed one: a run repeats
     byte for byte only on the revision it ran on, its job key's kernel=),
     BBR_A_UML_PATCH=FILE (every command: a peer kernel, Debian's linux-source-6.12 pinned
     to 6.12.117-1~deb12u1 unless BBR_A_UML_SOURCE names another, fetched once into the
     cache, with scripts/uml/6.12/'s patches and then FILE, your BBRv3 patch for Linux 6.12,
     which the project does not ship; cached by FILE's sha256, its id
     6.12.117-1~deb12u1-bbr3-<hash>; docs/backends.md),
     BBR_A_UML_SERIES=6.12 (every command: that peer kernel without a patch, its bbr
     BBRv1, cached apart as 6.12.117-1~deb12u1-<hash>; 6.1 or empty: the default kernel;
     refused beside BBR_A_UML_PATCH),
     BBR_A_UML_VARIANT=sanitize (every command: the kernel with KASAN, UBSAN, lockdep and
     kmemleak of scripts/uml/sanitize.fragment, built and cached apart, and the module
     built for it with UBSAN's checks; about 3 times slower to run).
EOF
}

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=scripts/lib/module.sh
source "$REPO/scripts/lib/module.sh"
# shellcheck source=scripts/lib/uml_kernel.sh
source "$REPO/scripts/lib/uml_kernel.sh"

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
	# a second signal (the process group's and the caller's) must not cut this short
	trap '' INT TERM HUP
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
	local timeout=900 out='' seed=1 mem=1024 kdir poweroff sampler ko='' ko_arg='' cmdline rc finished
	local files=() f nets=() realtime=0
	DIE_RC=2 # usage errors
	while (($#)); do
		case $1 in
		--kernel) [[ ${2-} == uml ]] || die "uml.sh runs only --kernel uml"; shift 2 ;;
		--virtual-time) shift ;;
		--timeout) [[ ${2-} =~ ^[0-9]+$ && $2 -gt 0 ]] || die "--timeout needs seconds"; timeout=$2; shift 2 ;;
		--out) [[ -n ${2-} ]] || die "--out needs a directory"; out=$2; shift 2 ;;
		--seed) [[ ${2-} =~ ^[0-9]{1,18}$ ]] || die "--seed needs a non-negative integer"; seed=$((10#$2)); shift 2 ;;
		--mem) [[ ${2-} =~ ^[0-9]+$ && $2 -ge 128 ]] || die "--mem needs MB (>= 128)"; mem=$2; shift 2 ;;
		--smp) [[ ${2-} =~ ^[0-9]+$ ]] || die "--smp needs a number"
			[[ $2 == 1 ]] || log "warning: UML is uniprocessor, ignoring --smp $2"; shift 2 ;;
		--ko) [[ -f ${2-} ]] || die "--ko: no such file '${2-}'"; ko_arg=$2; shift 2 ;;
		--file) [[ -f ${2-} ]] || die "--file: no such file '${2-}'"; files+=("$2"); shift 2 ;;
		--real-time) realtime=1; shift ;;
		--net) [[ ${2-} =~ ^[A-Za-z0-9=,:._-]+$ ]] || die "--net needs a vector driver spec (transport=tap,ifname=TAP)"
			[[ $UML_VARIANT == net ]] || die "--net needs the kernel with the network driver (BBR_A_UML_VARIANT=net)"
			nets+=("$2"); shift 2 ;;
		--) shift; break ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; die "unknown option '$1'" ;;
		esac
	done
	(($#)) || { usage >&2; die "no COMMAND given (put it after --)"; }
	DIE_RC=123 # setup failures, from here on
	need setsid pkill tail sha256sum tar

	kdir=$(build_kernel) || exit 123
	poweroff=$(build_helper "$UML_FILES/poweroff.c" uml-poweroff) || exit 123
	sampler=$(build_helper "$REPO/testbed/sampler.c" sampler) || exit 123
	if [[ -n $ko_arg ]]; then
		ko=$(realpath "$ko_arg")
	else
		ko=$(uml_module "$kdir") || exit 123
	fi

	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM HUP
	mkdir -p "$CACHE/uml-run"
	RUN_DIR=$(mktemp -d "$CACHE/uml-run/run.XXXXXXXX")
	mkdir -p "$RUN_DIR/src" "$RUN_DIR/out" "$RUN_DIR/home" "$RUN_DIR/files"
	copy_tree "$RUN_DIR/src" || die "cannot copy the project tree into $RUN_DIR/src"
	[[ -n $ko ]] && cp "$ko" "$RUN_DIR/tcp_bbr_a.ko"
	for f in "${files[@]}"; do cp "$f" "$RUN_DIR/files/"; done
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
	# The sanitizer kernel's reports (kmemleak's stack dump at every module load) overflow
	# the default ring buffer, from which the stress suite reads each case's reports by
	# marker lines; the default kernel keeps its command line (runs repeat byte for byte).
	if [[ $UML_VARIANT == sanitize ]]; then
		cmdline=(log_buf_len=16M "${cmdline[@]}")
	fi
	# the options of guests on the host's clock, joined by host taps (empty otherwise)
	if ((realtime)); then
		for f in "${!cmdline[@]}"; do [[ ${cmdline[f]} != time-travel* ]] || unset 'cmdline[f]'; done
	fi
	for f in "${!nets[@]}"; do cmdline=("vec$f:${nets[f]}" "${cmdline[@]}"); done
	: >"$RUN_DIR/console.out"
	: >"$RUN_DIR/console.err"
	(cd "$RUN_DIR" && HOME=$RUN_DIR/home exec setsid setarch "$(uname -m)" -R "$kdir/tree/linux" "${cmdline[@]}" \
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
module) shift; kdir=$(build_kernel); uml_module "$kdir" ;;
id) shift; kdir=$(kernel_dir) && basename "$kdir" ;;
run) shift; cmd_run "$@" ;;
-h | --help | help) usage ;;
*) usage >&2; exit 2 ;;
esac
exit
}
