# Build tcp_bbr_a.ko for one kernel: the one way the scripts do it (sourced after common.sh).
# shellcheck shell=bash

# Bump when module_compile changes in a way that changes its output (part of the cache key).
MODULE_RECIPE=2
# Cached builds kept in $CACHE/module: each is ~2 MB and every source change adds one, so the
# least recently used beyond this many are removed.
MODULE_KEEP=${BBR_A_MODULE_KEEP:-20}

# module_inputs SRC: the top-level entries of SRC a build reads (Kbuild decides which of the
# .c files are compiled), one per line.
module_inputs() {
	local f
	for f in Makefile Kbuild dkms.conf "$1"/*.c include algos; do
		f=${f#"$1"/}
		[[ -e $1/$f ]] && echo "$f"
	done
	return 0
}

# module_source_hash SRC: 12 hex digits of the module sources' contents alone (no kernel, no
# compiler): what results made with "this module" are keyed by.
module_source_hash() {
	local inputs
	mapfile -t inputs < <(module_inputs "$1")
	# Kbuild computes the same hash (modinfo's srchash); *.mod.c is modpost's output, and
	# under include/ and algos/ only the sources count (a build in place leaves objects there)
	(cd "$1" && find "${inputs[@]}" -type f \( -name '*.[ch]' -o ! -path '*/*' \) \
		! -name '*.mod.c' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum |
		cut -c1-12
}

# testbed_source_hash SRC: 12 hex digits of the testbed's guest side, what a run executes and
# records there (topology, traffic, samplers, gain trace): a change to it changes results as
# much as a module change does (testbed/screen.sh keys its jobs by both).
testbed_source_hash() {
	(
		set -o pipefail
		cd "$1" && cat testbed/scenario.sh testbed/topology.sh testbed/tcpflow.py \
			testbed/tcpflow_fct.py testbed/sampler.c testbed/lib/flows.sh testbed/lib/module.sh testbed/lib/options.sh \
			testbed/lib/record.sh testbed/lib/traffic.sh testbed/lib/flent.sh testbed/lib/paths.sh \
			testbed/lib/hosts.sh testbed/lib/bottleneck.sh | sha256sum | cut -c1-12
	)
}

# module_key SRC KDIR [MAKE ARGS...]: 12 hex digits that change with whatever a build here
# depends on and can change between calls: the sources' contents, the kernel build dir (its
# path names the kernel release, or the UML build key), the make arguments and the build
# environment with its compiler (module_check sets BUILDENV_ID).
module_key() {
	local src=$1 kdir=$2
	shift 2
	{
		echo "recipe $MODULE_RECIPE"
		echo "kdir $kdir"
		printf 'arg %s\n' "$@"
		echo "env $BUILDENV_ID"
		echo "sources $(module_source_hash "$src")"
	} | sha256sum | cut -c1-12
}

# module_compile SRC DIR KDIR [MAKE ARGS...]: copy the sources into DIR (emptied first) and run
# 'make KDIR=KDIR [MAKE ARGS]' there, in the kernel's build environment (module_check): the
# project's Makefile calls kbuild with M=DIR, and command-line variables such as ARCH=um
# reach kbuild too. make's output goes to DIR/build.log, after a line naming the build
# environment and the compiler. Fails unless DIR/tcp_bbr_a.ko was made.
module_compile() {
	local src=$1 dir=$2 kdir=$3 f
	shift 3
	rm -rf "$dir"
	mkdir -p "$dir"
	while read -r f; do cp -R "$src/$f" "$dir/"; done < <(module_inputs "$src")
	echo "# built in: $BUILDENV_ID" >"$dir/build.log"
	# Kernels since 6.13 run scripts/checker-valid.sh for C=1/C=2 and skip sparse without it,
	# and Debian's linux-kbuild packages leave that script out: there the level goes in as
	# KBUILD_CHECKSRC, which the kernel's Makefile cannot then turn off.
	local args=() a
	for a in "$@"; do
		if [[ $a =~ ^C=[12]$ && ! -e $kdir/scripts/checker-valid.sh ]] &&
			grep -qs checker-valid "$kdir/Makefile" "$kdir"/../linux-headers-*-common/Makefile; then
			echo "# $a given as KBUILD_CHECKSRC=${a#C=}: this kbuild has no scripts/checker-valid.sh" \
				"(make's 'sparse is not available' line is about that)" >>"$dir/build.log"
			a=KBUILD_CHECKSRC=${a#C=}
		fi
		args+=("$a")
	done
	buildenv_run "$kdir" "$dir" make -C "$dir" KDIR="$kdir" "${args[@]}" >>"$dir/build.log" 2>&1 &&
		[[ -f $dir/tcp_bbr_a.ko ]]
}

# module_check SRC KDIR: die unless both look usable (before anything is hashed or copied),
# and choose the build environment for KDIR: the host, or a chroot of the kernel's Debian
# release, made if missing (scripts/lib/buildenv.sh; sets BUILDENV_ROOT and BUILDENV_ID).
module_check() {
	[[ -f $1/Makefile && -f $1/Kbuild ]] || die "no Makefile and Kbuild in $1 (module sources expected)"
	[[ -f $2/Makefile ]] || die "no kernel build tree at $2 (a kbuild dir with a Makefile)"
	need make gcc sha256sum flock
	if [[ $(type -t buildenv_prepare) != function ]]; then
		# shellcheck source=scripts/lib/debian.sh
		source "$REPO/scripts/lib/debian.sh"
		# shellcheck source=scripts/lib/buildenv.sh
		source "$REPO/scripts/lib/buildenv.sh"
	fi
	buildenv_prepare "$2"
}

# module_warnings DIR: show the compiler's warnings of DIR/build.log on stderr (on every call,
# so a cached build does not hide them).
module_warnings() { grep -E '(warning|error):' "$1/build.log" >&2 || true; }

# module_build NAME SRC KDIR [MAKE ARGS...]: tcp_bbr_a.ko from the sources in SRC for the
# kernel build dir KDIR (see module_compile); prints its path. Cached by content in
# $CACHE/module/NAME-<module_key>/ (NAME says which kernel, for people reading the cache), so
# an unchanged tree is not rebuilt, any change is, and going back to earlier sources finds
# their build again. Built under a lock: parallel runs build each key once.
module_build() {
	local name=$1 src=$2 kdir=$3 key dir
	shift 3
	module_check "$src" "$kdir"
	key=$(module_key "$src" "$kdir" "$@") || die "cannot hash the module sources in $src"
	dir=$CACHE/module/$name-$key
	# .complete, not the .ko: the linker writes the .ko in place, a reader could see half
	if [[ ! -f $dir/.complete ]]; then
		lock_file "$dir.lock"
		if [[ ! -f $dir/.complete ]]; then
			log "building tcp_bbr_a.ko for $name in $dir"
			module_compile "$src" "$dir" "$kdir" "$@" ||
				{ cat "$dir/build.log" >&2; die "module build for $name failed (log: $dir/build.log)"; }
			touch "$dir/.complete"
			module_prune
		fi
		unlock
	fi
	touch "$dir" # most recently used: pruned last
	module_warnings "$dir"
	echo "$dir/tcp_bbr_a.ko"
}

# module_prune: remove all but the MODULE_KEEP most recently used builds (and their locks).
module_prune() {
	local old
	find "$CACHE/module" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn |
		tail -n +$((MODULE_KEEP + 1)) | while read -r _ old; do rm -rf "$old" "$old.lock"; done
}
