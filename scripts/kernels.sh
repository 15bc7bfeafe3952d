#!/usr/bin/env bash
# Fetch stock Debian kernels (image + kbuild headers) into the cache, for QEMU guests
# and for building the module against them. Nothing is installed on the host.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<EOF
Usage: $PROG resolve SERIES   print the newest Debian kernel release of SERIES (6.1 or 6.12)
       $PROG fetch SERIES     download + unpack it into the cache (once), print its directory
       $PROG kdir SERIES      like fetch, but print the kbuild dir for 'make -C KDIR M=...'

The kernel directory (\$CACHE/kernels/<release>/) holds the unpacked debs (boot/, lib/modules/
with depmod run, usr/src/linux-headers-*) and an uncompressed 'vmlinux' that QEMU boots (PVH).
Cache: $CACHE  (set BBR_A_CACHE to move it)
Pin a release with BBR_A_KVER_6_1=6.1.0-NN-amd64 / BBR_A_KVER_6_12=6.12.MMM+deb12-amd64.
EOF
}

# Newest release in apt's lists that has both an image and headers; else newest cached one.
resolve() {
	local series=$1 pin re rel
	pin="BBR_A_KVER_${series//./_}"
	if [[ -n "${!pin:-}" ]]; then echo "${!pin}"; return; fi
	case $series in
	6.1) re='6\.1\.0-[0-9]+-amd64' ;;
	6.12) re='6\.12\.[0-9]+\+deb[0-9]+-amd64' ;;
	esac
	rel=$(apt-cache search --names-only "^linux-headers-$re\$" 2>/dev/null |
		sed -E 's/^linux-headers-([^ ]+) .*/\1/' | sort -V | tail -n1)
	if [[ -z $rel ]]; then
		rel=$(find "$CACHE/kernels" -maxdepth 2 -name .complete -printf '%h\n' 2>/dev/null |
			xargs -r -n1 basename | grep -E "^$re\$" | sort -V | tail -n1 || true)
		[[ -n $rel ]] && log "apt-cache knows no $series kernel; using cached $rel"
	fi
	[[ -n $rel ]] || die "no linux-headers for $series in apt's lists (run 'apt-get update' as root)"
	echo "$rel"
}

# Depends of the headers package: the -common headers and the linux-kbuild package.
header_deps() {
	apt-cache depends "linux-headers-$1" 2>/dev/null |
		sed -nE 's/^ *Depends: (linux-headers-[^ ]+-common|linux-kbuild-[^ ]+)$/\1/p' | sort -u
}

# Uncompressed ELF vmlinux from a bzImage (Debian: xz payload for 6.1, zstd for 6.12).
extract_vmlinux() {
	local bz=$1 out=$2 magic unz off
	for magic in '\xfd7zXZ\x00:xz -dc --single-stream' '\x28\xb5\x2f\xfd:zstd -dcq'; do
		unz=${magic#*:}
		for off in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$bz" | cut -d: -f1); do
			tail -c +$((off + 1)) "$bz" | $unz >"$out" 2>/dev/null || true
			[[ $(head -c4 "$out" | od -An -c | tr -d ' ') == '177ELF' ]] && return 0
		done
	done
	die "no xz/zstd-compressed ELF kernel found in $bz"
}

fetch() {
	local series=$1 rel dir debs tmp pkg ver img hdr used=()
	rel=$(resolve "$series")
	dir=$CACHE/kernels/$rel
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi
	lock "kernel-$rel"
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi # another run unpacked it
	need apt-get apt-cache dpkg depmod xz zstd
	log "fetching Debian kernel $rel (about 100-200 MB, once)"
	img=linux-image-$rel-unsigned
	apt-cache show "$img" >/dev/null 2>&1 || img=linux-image-$rel
	hdr=$(header_deps "$rel")
	[[ -n $hdr ]] || die "cannot resolve the dependencies of linux-headers-$rel"
	debs=$CACHE/debs
	mkdir -p "$debs" "$CACHE/kernels"
	tmp=$(mktemp -d "$CACHE/kernels/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	for pkg in "$img" "linux-headers-$rel" $hdr; do
		ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
		[[ -n $ver ]] || die "package $pkg not found in apt's lists (run 'apt-get update')"
		if ! compgen -G "$debs/${pkg}_${ver//:/%3a}_*.deb" >/dev/null; then
			# root: apt's _apt sandbox user may not write to the cache; download as root
			(cd "$debs" && apt-get -q -o APT::Sandbox::User="$(id -un)" download "$pkg=$ver" >&2) ||
				die "apt-get download $pkg=$ver failed"
		fi
		used+=("$debs/${pkg}_${ver//:/%3a}_"*.deb)
		dpkg -x "${used[-1]}" "$tmp"
	done
	# The headers refer to themselves by absolute /usr/... paths: make them relative.
	local kb=$tmp/usr/src/linux-headers-$rel mod
	sed -i -E 's|^include /usr/src/([^/]+)/Makefile$|include $(dir $(lastword $(MAKEFILE_LIST)))../\1/Makefile|' \
		"$kb/Makefile"
	mod=$tmp/lib/modules/$rel
	[[ -d $mod ]] || die "no lib/modules/$rel in $img"
	ln -sfn "../../../usr/src/linux-headers-$rel" "$mod/build"
	rm -f "$mod/source"
	depmod -b "$tmp" "$rel"
	extract_vmlinux "$tmp/boot/vmlinuz-$rel" "$tmp/vmlinux"
	touch "$tmp/.complete"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT INT TERM
	rm -f "${used[@]}" # the unpacked tree is all we need
	echo "$dir"
}

cmd=${1:-}
case $cmd in
-h | --help) usage; exit 0 ;;
resolve | fetch | kdir) [[ $# -eq 2 ]] || { usage >&2; exit 2; } ;;
*) usage >&2; exit 2 ;;
esac
check_series "$2"
case $cmd in
resolve) resolve "$2" ;;
fetch) fetch "$2" ;;
kdir) dir=$(fetch "$2") && echo "$dir/usr/src/linux-headers-$(basename "$dir")" ;;
esac
