# The User-Mode Linux kernel, its static helpers and the module built for it, all cached;
# sourced by scripts/uml.sh after common.sh and module.sh.
# shellcheck shell=bash

UML_FILES=$REPO/scripts/uml
SRC_PKG=linux-source-6.1
SRC_TARBALL=/usr/src/$SRC_PKG.tar.xz
JOBS=${BBR_A_UML_JOBS:-2}
# Bump when the build recipe below changes in a way that changes the kernel (part of the key).
RECIPE=2
# Fixed build identity: uname -v is mixed into the guest's RNG, so two builds of the same
# sources give the same runs (on other machines too).
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" KBUILD_BUILD_USER=tcp_bbr_a \
	KBUILD_BUILD_HOST=uml KBUILD_BUILD_VERSION=1

hash_of() { { echo "recipe $RECIPE"; cat "$@"; } | sha256sum | cut -c1-12; }

# A variant of the kernel (BBR_A_UML_VARIANT): more configuration on top of config.fragment,
# from scripts/uml/VARIANT.fragment, built and cached apart (its directory is named and keyed
# by it), and make arguments for the module built for it. "sanitize": KASAN, UBSAN, lockdep
# and kmemleak, the module compiled with UBSAN's checks. "net": UML's vector network driver
# (scripts/separate_kernels.sh).
UML_VARIANT=${BBR_A_UML_VARIANT:-}
UML_FRAGMENTS=("$UML_FILES/config.fragment")
UML_MODULE_ARGS=()
case $UML_VARIANT in
"") ;;
sanitize) UML_FRAGMENTS+=("$UML_FILES/sanitize.fragment"); UML_MODULE_ARGS=(UBSAN_SANITIZE=y) ;;
net) UML_FRAGMENTS+=("$UML_FILES/net.fragment") ;;
*) die "unknown UML kernel variant '$UML_VARIANT' (BBR_A_UML_VARIANT: sanitize, net, or empty)" ;;
esac

# The Debian revision of linux-source-6.1 to build from (BBR_A_UML_SOURCE): empty for the
# installed package's. A time-travel run repeats byte for byte only on the same revision,
# and apt installs the newest; a pinned one is fetched once into the cache (fetch_source).
UML_SOURCE=${BBR_A_UML_SOURCE:-}
[[ -z $UML_SOURCE || $UML_SOURCE =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] ||
	die "BBR_A_UML_SOURCE='$UML_SOURCE' is not a Debian version (e.g. 6.1.192-2)"

# The project's patches for the kernel series built (applied in this order), and the user's.
UML_PATCHES=("$UML_FILES"/*.patch)
# A peer kernel (BBR_A_UML_PATCH=FILE): Debian's linux-source-6.12 (pinned: PEER_SOURCE
# unless BBR_A_UML_SOURCE says), the project's patches for 6.12 (scripts/uml/6.12/X.patch
# replaces scripts/uml/X.patch, det-random.patch applies as it is) and then FILE, the user's
# own patch: BBRv3 (docs/backends.md), which the project never ships. Named "bbr3" and keyed
# by FILE's sha256 besides the rest; the default 6.1 kernel, its inputs and key stay as they
# are without it.
# The plain peer kernel (BBR_A_UML_SERIES=6.12): the same 6.12 source and project patches
# without a user's patch, the control for the kernel move (its bbr is BBRv1, named bbr);
# cached apart by its version and a hash like the 6.1 kernel's, <ver>-<hash>. The series is
# 6.1 (the default, also when empty) or 6.12; with BBR_A_UML_PATCH (whose kernel is 6.12
# and whose bbr is BBRv3) it is refused, so no kernel is ever ambiguous about its bbr.
PEER_SERIES=6.12
PEER_SOURCE=6.12.117-1~deb12u1
UML_SERIES=${BBR_A_UML_SERIES:-}
case $UML_SERIES in
"" | 6.1 | "$PEER_SERIES") ;;
*) die "BBR_A_UML_SERIES='$UML_SERIES' is not a kernel series the UML backend builds (6.1, the default, or $PEER_SERIES)" ;;
esac
UML_PATCH=${BBR_A_UML_PATCH:-}
[[ -z $UML_PATCH || -z $UML_SERIES ]] ||
	die "BBR_A_UML_PATCH and BBR_A_UML_SERIES=$UML_SERIES exclude each other (the patch's kernel is always $PEER_SERIES, its bbr BBRv3; BBR_A_UML_SERIES=$PEER_SERIES is that kernel without the patch)"
[[ $UML_SERIES != 6.1 ]] || UML_SERIES=
UML_PATCH_SHA=
if [[ -n $UML_PATCH ]]; then
	[[ -f $UML_PATCH && -r $UML_PATCH ]] ||
		die "BBR_A_UML_PATCH='$UML_PATCH' is not a readable file (a BBRv3 patch for Linux $PEER_SERIES, see docs/backends.md)"
	UML_PATCH=$(realpath "$UML_PATCH")
	UML_PATCH_SHA=$(sha256sum <"$UML_PATCH") || die "cannot read BBR_A_UML_PATCH='$UML_PATCH'"
	UML_PATCH_SHA=${UML_PATCH_SHA%% *}
fi
if [[ -n $UML_PATCH || -n $UML_SERIES ]]; then
	SRC_PKG=linux-source-$PEER_SERIES
	SRC_TARBALL=/usr/src/$SRC_PKG.tar.xz
	UML_SOURCE=${UML_SOURCE:-$PEER_SOURCE}
	UML_PATCHES=()
	for p in "$UML_FILES"/*.patch; do
		[[ -f $UML_FILES/$PEER_SERIES/${p##*/} ]] || UML_PATCHES+=("$p")
	done
	UML_PATCHES+=("$UML_FILES/$PEER_SERIES"/*.patch)
	unset p
fi

kernel_dir() {
	local ver=$UML_SOURCE
	if [[ -z $ver ]]; then
		[[ -r $SRC_TARBALL ]] ||
			die "$SRC_TARBALL missing: apt-get install --no-install-recommends $SRC_PKG"
		ver=$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null) ||
			die "cannot read the version of $SRC_PKG (dpkg-query)"
	fi
	if [[ -n $UML_PATCH ]]; then
		# the user's patch by its hash, and which of the project's files are where
		echo "$CACHE/uml/$ver-bbr3-${UML_VARIANT:+$UML_VARIANT-}$({ echo "recipe $RECIPE"
			echo "patch $UML_PATCH_SHA"
			printf 'file %s\n' "${UML_FRAGMENTS[@]#"$UML_FILES"/}" "${UML_PATCHES[@]#"$UML_FILES"/}"
			cat "${UML_FRAGMENTS[@]}" "${UML_PATCHES[@]}"; } | sha256sum | cut -c1-12)"
		return
	fi
	# 6.1 and plain 6.12 alike: the version, and a hash of the config and the patches applied
	echo "$CACHE/uml/$ver-${UML_VARIANT:+$UML_VARIANT-}$(hash_of "${UML_FRAGMENTS[@]}" "${UML_PATCHES[@]}")"
}

# fetch_source: the source tarball to build from: the installed package's, or that of the
# pinned revision, downloaded (apt-get download, no root needed) and unpacked once into
# $CACHE/uml/src/VERSION.
fetch_source() {
	local dir=$CACHE/uml/src/$UML_SOURCE
	[[ -n $UML_SOURCE ]] || { echo "$SRC_TARBALL"; return; }
	if [[ ! -f $dir/.complete ]]; then
		need apt-get dpkg-deb
		# under build_kernel's lock: a part left by an interrupted fetch is removed here
		rm -rf "$dir" "$dir.part"
		mkdir -p "$dir.part"
		(cd "$dir.part" && apt-get download -q "$SRC_PKG=$UML_SOURCE" >&2) || {
			rm -rf "$dir.part"
			die "cannot download $SRC_PKG=$UML_SOURCE (apt-cache madison $SRC_PKG lists what apt serves)"
		}
		dpkg-deb -x "$dir.part"/*.deb "$dir.part/x" ||
			{ rm -rf "$dir.part"; die "cannot unpack $SRC_PKG=$UML_SOURCE"; }
		mkdir -p "$dir"
		mv "$dir.part/x/usr/src/$SRC_PKG.tar.xz" "$dir/"
		rm -rf "$dir.part"
		touch "$dir/.complete"
	fi
	echo "$dir/$SRC_PKG.tar.xz"
}

# Every line of the fragment must hold in the final .config ("is not set" = absent or unset),
# except those of symbols a later fragment names (OVERRIDDEN: " SYM SYM ... ").
check_config() {
	local config=$1 fragment=$2 line sym bad=0
	while IFS= read -r line; do
		[[ ! $line =~ (CONFIG_[A-Za-z0-9_]+) || " ${OVERRIDDEN:-} " != *" ${BASH_REMATCH[1]} "* ]] || continue
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

# apply_user_patch KDIR: BBR_A_UML_PATCH onto KDIR/tree, or KDIR removed and one line that
# says where the patch failed.
apply_user_patch() {
	local said first
	if ! said=$(patch -d "$1/tree" -p1 --forward --dry-run <"$UML_PATCH" 2>&1); then
		first=$(grep -m1 -E "FAILED|can't find file|malformed|garbage|Reversed|[Ee]rror" <<<"$said" || true)
		rm -rf "$1"
		BUILDING_KDIR=
		die "BBR_A_UML_PATCH='$UML_PATCH' does not apply to $SRC_PKG $UML_SOURCE (patch -p1: ${first:-$(tail -n 1 <<<"$said")})"
	fi
	patch -d "$1/tree" -p1 --forward <"$UML_PATCH" >>"$1/build.log" 2>&1 ||
		{ rm -rf "$1"; BUILDING_KDIR=; die "BBR_A_UML_PATCH='$UML_PATCH': patch -p1 failed after its dry run"; }
}

# build_kernel: build the UML kernel once (cached by the source version and our patches and
# config); prints its dir, whose tree/ is the kbuild dir.
build_kernel() {
	local kdir tree start p i tarball OVERRIDDEN
	# errexit is off in $(...): stop here rather than build into "/tree"
	kdir=$(kernel_dir) || exit
	tree=$kdir/tree
	[[ -f $kdir/.complete ]] && { echo "$kdir"; return; }
	need make gcc flex bison bc patch xz tar flock nice
	lock_file "$CACHE/uml/.build.lock" 7200
	if [[ ! -f $kdir/.complete ]]; then
		start=$(date +%s)
		tarball=$(fetch_source) || exit
		rm -rf "$kdir"
		# interrupted, the half-built tree goes (a failed build keeps it for its log, below)
		BUILDING_KDIR=$kdir
		trap '[[ -z $BUILDING_KDIR ]] || rm -rf "$BUILDING_KDIR"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM HUP
		mkdir -p "$kdir"
		log "building the UML kernel${UML_VARIANT:+ ($UML_VARIANT variant)} once, before anything runs:" \
			"3 to 10 minutes on 2 cores${UML_VARIANT:+, more for a variant} (log: $kdir/build.log)"
		{
			tar -xJf "$tarball" -C "$kdir"
			mv "$kdir/$SRC_PKG" "$tree"
			for p in "${UML_PATCHES[@]}"; do
				patch -d "$tree" -p1 --forward <"$p"
			done
		} >>"$kdir/build.log" 2>&1 || { tail -n 30 "$kdir/build.log" >&2; BUILDING_KDIR=; die "UML configuration failed"; }
		[[ -z $UML_PATCH ]] || apply_user_patch "$kdir"
		{
			make -C "$tree" ARCH=um defconfig
			"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" "$tree/.config" \
				"${UML_FRAGMENTS[@]}"
			make -C "$tree" ARCH=um olddefconfig
		} >>"$kdir/build.log" 2>&1 || { tail -n 30 "$kdir/build.log" >&2; BUILDING_KDIR=; die "UML configuration failed"; }
		for i in "${!UML_FRAGMENTS[@]}"; do
			p=${UML_FRAGMENTS[i]}
			# the symbols the fragments after this one set (a variant's overrides)
			OVERRIDDEN=$(cat "${UML_FRAGMENTS[@]:i+1}" </dev/null | grep -oE '^(# )?CONFIG_[A-Za-z0-9_]+' |
				sed 's/^# //' | tr '\n' ' ') || true
			check_config "$tree/.config" "$p" || {
				BUILDING_KDIR=
				die "UML .config does not match scripts/uml/${p##*/} (see above)"
			}
		done
		nice -n 10 make -C "$tree" ARCH=um -j"$JOBS" linux modules >>"$kdir/build.log" 2>&1 ||
			{ tail -n 40 "$kdir/build.log" >&2; BUILDING_KDIR=; die "UML kernel build failed (log: $kdir/build.log)"; }
		echo $(($(date +%s) - start)) >"$kdir/build-seconds"
		touch "$kdir/.complete"
		BUILDING_KDIR=
		trap - EXIT INT TERM HUP
		log "UML kernel built in $(cat "$kdir/build-seconds") s"
	fi
	unlock
	echo "$kdir"
}

# uml_module KDIR: the repository's tcp_bbr_a.ko for the UML kernel in KDIR, built the one way
# (module_build: cached by content, ARCH=um reaches kbuild through the project's Makefile);
# prints its path, or nothing when the project has no module source (yet). Exit 123 on failure.
uml_module() {
	[[ -f $REPO/bbr_a_core.c ]] || { log "warning: $REPO/bbr_a_core.c missing: no module (BBR_A_KO empty)"; return 0; }
	DIE_RC=123 module_build "uml-${1##*/}" "$REPO" "$1/tree" ARCH=um "${UML_MODULE_ARGS[@]}"
}
