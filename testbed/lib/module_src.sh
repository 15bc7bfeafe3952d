# testbed/lib/module_src.sh -- a user's congestion-control module (rtt_fairness.sh --module-src
# DIR): its checks, its cc names, the hash of its sources, its build for the runs' kernel.
# shellcheck shell=bash
# Sourced by rtt_fairness.sh and screen.sh; defines functions only. Uses die, log, lock_file,
# unlock, REPO, CACHE, BACKEND, KERNEL, cc_source_names and CCS_RECIPE (testbed/lib/ccs.sh);
# sets MODSRC, MODSRC_NAMES, MODSRC_HASH and MODSRC_KOS.
{
# shellcheck disable=SC2034 # read by lib/ccs.sh and lib/rtt_fairness_runs.sh
MODSRC='' MODSRC_NAMES='' MODSRC_HASH='' MODSRC_KOS=()
# modsrc_files DIR: the files of DIR a build reads (its top level's C sources and headers,
# Kbuild, Makefile; no build products), sorted, one a line.
modsrc_files() {
	(cd "$1" && find . -maxdepth 1 -type f \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) \
		! -name '*.mod.c' -printf '%f\n' | LC_ALL=C sort)
}

# modsrc_hash DIR: 12 hex digits of those files' names and contents (run.env, screen job keys).
modsrc_hash() {
	local files
	mapfile -t files < <(modsrc_files "$1")
	(cd "$1" && sha256sum -- "${files[@]}") | sha256sum | cut -c1-12
}

# modsrc_check DIR: DIR holds a cc module's source, a .c and a Kbuild (or a Makefile with
# obj-m), with a struct tcp_congestion_ops that names its cc; else one line and exit status 2.
# Sets MODSRC (absolute), MODSRC_NAMES (its ccs) and MODSRC_HASH.
modsrc_check() {
	local cs=()
	[[ -d $1 ]] || DIE_RC=2 die "--module-src: '$1' is not a directory"
	MODSRC=$(cd "$1" && pwd)
	mapfile -t cs < <(modsrc_files "$MODSRC" | sed -n "s#^\(.*\.c\)\$#$MODSRC/\1#p")
	((${#cs[@]})) || DIE_RC=2 die "--module-src: no .c file in $MODSRC (a congestion control's source, beside its Kbuild)"
	[[ -f $MODSRC/Kbuild ]] || grep -qs '^[[:space:]]*obj-m' "$MODSRC/Makefile" ||
		DIE_RC=2 die "--module-src: $MODSRC has no Kbuild and no Makefile with obj-m"
	MODSRC_NAMES=$(cc_source_names "${cs[@]}" | sort -u | paste -sd ' ')
	[[ -n $MODSRC_NAMES ]] ||
		DIE_RC=2 die "--module-src: no struct tcp_congestion_ops with a .name (of 1 to 15 characters a-z0-9_) in $MODSRC/*.c"
	MODSRC_HASH=$(modsrc_hash "$MODSRC")
}

# modsrc_kdir: "KDIR TAG MAKE-ARGS..." of the kernel the runs boot, as tcp_bbr_a is built for
# it: the UML kernel's tree (ARCH=um), the Debian kernel's headers (qemu), the running
# kernel's build dir (host).
modsrc_kdir() {
	local k
	case $BACKEND in
	uml) k=$("$REPO/scripts/uml.sh" build) || die "the UML kernel could not be built"
		echo "$k uml-$(basename "$(dirname "$k")") ARCH=um" ;;
	qemu) k=$("$REPO/scripts/kernels.sh" kdir "$KERNEL") || die "cannot fetch the $KERNEL kernel's headers"
		echo "$k ${k##*/linux-headers-}" ;;
	host) echo "/lib/modules/$(uname -r)/build host-$(uname -r)" ;;
	esac
}

# modsrc_make KDIR TAG ARGS DIR: MODSRC's sources built in DIR against KDIR (make ARGS)
modsrc_make() {
	local f
	while read -r f; do cp "$MODSRC/$f" "$4/"; done < <(modsrc_files "$MODSRC")
	# shellcheck disable=SC2086 # ARCH=um or nothing
	buildenv_run "$1" "$4" make -C "$1" M="$4" $3 modules >"$4/build.log" 2>&1 || {
		tail -n 12 "$4/build.log" >&2
		die "--module-src: building $MODSRC against $2 failed (above: the build's last lines; log: $4/build.log)"
	}
}

# modsrc_build: MODSRC built against the runs' kernel (modsrc_kdir) in its build environment
# (scripts/lib/buildenv.sh, as scripts/lib/module.sh builds tcp_bbr_a), cached in
# $CACHE/cc_src by the sources, the kernel and the environment; sets MODSRC_KOS, its .ko files.
# A build that fails ends the run here with the compiler's last lines.
modsrc_build() {
	local kdir tag args key dir n
	read -r kdir tag args <<<"$(modsrc_kdir)"
	[[ -f $kdir/Makefile ]] || die "--module-src: no kernel build tree at $kdir"
	if [[ $(type -t buildenv_prepare) != function ]]; then
		# shellcheck source=scripts/lib/debian.sh
		source "$REPO/scripts/lib/debian.sh"
		# shellcheck source=scripts/lib/buildenv.sh
		source "$REPO/scripts/lib/buildenv.sh"
	fi
	buildenv_prepare "$kdir"
	key=$(printf '%s\n' "recipe $CCS_RECIPE" "kdir $kdir $args" "env $BUILDENV_ID" "src $MODSRC_HASH" |
		sha256sum | cut -c1-12)
	dir=$CACHE/cc_src/$tag-$key
	build_once "$dir" "$MODSRC for $tag" modsrc_make "$kdir" "$tag" "$args"
	mapfile -t MODSRC_KOS < <(find "$dir" -maxdepth 1 -name '*.ko' | LC_ALL=C sort)
	((${#MODSRC_KOS[@]})) || die "--module-src: building $MODSRC made no .ko (log: $dir/build.log)"
	for n in $MODSRC_NAMES; do
		grep -qaF -- "$n" "${MODSRC_KOS[@]}" || die "--module-src: no module built from $MODSRC holds the name '$n'"
	done
	grep -E '(warning|error):' "$dir/build.log" >&2 || true
}
}
