#!/usr/bin/env bash
# Fetch stock Debian kernels (image + kbuild headers) into the cache, for QEMU guests
# and for building the module against them. Nothing is installed on the host.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=scripts/lib/debian.sh
source "$REPO/scripts/lib/debian.sh"

usage() {
	cat <<EOF
Usage: $PROG series [SERIES]
           without SERIES: every series Debian's archive offers, one a line, as
           "SERIES RELEASE SUITE COMPILER" (what resolve would take); with SERIES: its
           name (newest/oldest -> the series they stand for)
       $PROG resolve SERIES
           the Debian kernel release SERIES builds and boots
       $PROG fetch SERIES
           download + unpack image and headers into the cache (once), print its directory
       $PROG kdir SERIES
           only the headers (no image); print the kbuild dir for 'make -C KDIR M=...'
       $PROG matrix
           the build matrix (Markdown): every series, where it comes from, its compiler
           and build environment, what the tests do with it
       $PROG update
           refresh the private package lists now

SERIES is MAJOR.MINOR (5.10, 6.1, 6.12, 7.3 ...), or newest / oldest: the highest / lowest
series in the lists. A series' release is its Debian release's own kernel where it has one
(X.Y.0-NN-amd64: 5.10 from bullseye, 6.1 from bookworm), else the newest X.Y.Z+debNN-amd64 of
the oldest Debian release that ships the series (6.12+deb12 from bookworm, 7.x+deb13 from
trixie-backports before sid's +deb14). Release candidates (experimental) are not used.
Package lists: $CACHE/apt, refreshed when older than ${DEB_LISTS_MAX_AGE_H} h (BBR_A_APT_MAX_AGE_H);
without them, cached kernels are used. Suites (BBR_A_APT_SUITES): $(echo $DEB_SUITES)

The kernel directory (\$CACHE/kernels/<release>/) holds the unpacked debs (boot/, lib/modules/
with depmod run, usr/src/linux-headers-*), an uncompressed 'vmlinux' that QEMU boots (PVH),
and .suite: the suite the kernel came from (scripts/lib/buildenv.sh builds in that release's
toolchain when it is not the host's).
Cache: $CACHE  (set BBR_A_CACHE to move it)
Pin a release with BBR_A_KVER_<SERIES with _ for .>, e.g. BBR_A_KVER_6_1=6.1.0-NN-amd64,
BBR_A_KVER_7_3=7.3.N+deb13-amd64 (newest/oldest name the series they resolve to).
EOF
}

# Every usable release in the lists and the cache, "SERIES RELEASE" per series
# (deb_choose_releases): linux-headers and an image must both be there.
choose_releases() {
	{
		deb_apt_cache search --names-only '^linux-headers-[0-9]+\.[0-9]+\.[0-9].*-amd64$' 2>/dev/null |
			sed -E 's/^linux-headers-([^ ]+) .*/H \1/' || true
		deb_apt_cache search --names-only '^linux-image-[0-9]+\.[0-9]+\.[0-9].*-amd64(-unsigned)?$' 2>/dev/null |
			sed -E 's/^linux-image-([^ ]+) .*/I \1/; s/-unsigned$//' || true
		# the cached ones too: a kernel fetched earlier stays usable without the lists
		if [[ -d $CACHE/kernels ]]; then
			find "$CACHE/kernels" -mindepth 2 -maxdepth 2 \( -name .complete -o -name .headers \) \
				-printf 'H %h\n' | sed 's|H .*/|H |'
			find "$CACHE/kernels" -mindepth 2 -maxdepth 2 -name .complete -printf 'I %h\n' |
				sed 's|I .*/|I |'
		fi
	} | deb_choose_releases
}

# series_name SERIES: SERIES, or the series newest/oldest stands for.
series_name() {
	local s=$1 all
	case $s in
	newest | oldest)
		deb_update
		all=$(choose_releases | cut -d' ' -f1)
		[[ -n $all ]] || die "no Debian kernel series in the package lists or the cache"
		if [[ $s == newest ]]; then tail -n1 <<<"$all"; else head -n1 <<<"$all"; fi ;;
	*) echo "$s" ;;
	esac
}

# Newest release of the series (see usage), or the pinned one.
resolve() {
	local series pin rel
	series=$(series_name "$1")
	pin="BBR_A_KVER_${series//./_}"
	if [[ -n "${!pin:-}" ]]; then echo "${!pin}"; return; fi
	deb_update
	rel=$(choose_releases | awk -v s="$series" '$1 == s { print $2 }')
	[[ -n $rel ]] || die "no Debian kernel of series $series in the package lists ($DEB_APT_DIR) or the cache" \
		"(series offered: $(choose_releases | cut -d' ' -f1 | tr '\n' ' '))"
	echo "$rel"
}

# The packages a release's headers or image consist of: the named package and those of its
# dependencies that belong to the kernel (the -common headers, linux-kbuild, and since 7.x the
# split image: linux-base-, linux-binary-, linux-modules-<release>).
kernel_packages() {
	local pkg=$1 rel=$2
	echo "$pkg"
	deb_apt_cache depends "$pkg" 2>/dev/null |
		sed -nE 's/^ *Depends: (linux-headers-[^ ]+-common|linux-kbuild-[^ ]+|linux-(base|binary|modules)-'"${rel//+/\\+}"')$/\1/p' |
		sort -u
}

# download_unpack DEST PKG...: apt-get download each package (the version apt would take) into
# $CACHE/debs and unpack it into DEST; the debs are removed once all are unpacked. On a
# failure the lists are refreshed and the download tried once more.
download_unpack() {
	local dest=$1 pkg ver deb used=() try
	shift
	mkdir -p "$CACHE/debs"
	for pkg in "$@"; do
		for try in 1 2; do
			ver=$(deb_candidate "$pkg" | cut -d' ' -f1)
			if [[ -n $ver ]]; then
				deb=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1) || true
				[[ -n $deb ]] && break
				(cd "$CACHE/debs" && deb_apt_get -q download "$pkg=$ver" >&2) &&
					deb=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1) && break
			fi
			[[ $try == 2 ]] && die "cannot download $pkg${ver:+=$ver} (package lists: $DEB_APT_DIR)"
			log "$pkg${ver:+=$ver} not found or not downloadable: refreshing the package lists"
			deb_update force
		done
		used+=("$deb")
		dpkg -x "$deb" "$dest"
	done
	rm -f "${used[@]}" # the unpacked tree is all we need
}

# Uncompressed ELF vmlinux from a bzImage (Debian: xz payload for 5.10 and 6.1, zstd later).
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

# fetch_headers RELEASE: the kbuild headers unpacked into $CACHE/kernels/RELEASE (marker
# .headers; .complete, of a full fetch, implies it); prints the directory.
fetch_headers() {
	local rel=$1 dir=$CACHE/kernels/$1 kb suite pkgs pkg
	if [[ -f $dir/.headers || -f $dir/.complete ]]; then echo "$dir"; return; fi
	lock "kernel-$rel"
	if [[ -f $dir/.headers || -f $dir/.complete ]]; then echo "$dir"; return; fi
	need apt-get apt-cache dpkg
	deb_update
	suite=$(deb_candidate "linux-headers-$rel" | cut -d' ' -f2)
	[[ -n $suite ]] || die "linux-headers-$rel is not in the package lists ($DEB_APT_DIR)"
	mapfile -t pkgs < <(kernel_packages "linux-headers-$rel" "$rel")
	[[ ${#pkgs[@]} -gt 1 ]] || die "cannot resolve the dependencies of linux-headers-$rel"
	log "fetching the headers of Debian kernel $rel from $suite (${pkgs[*]}, once)"
	mkdir -p "$CACHE/kernels"
	tmp=$(mktemp -d "$CACHE/kernels/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	download_unpack "$tmp" "${pkgs[@]}"
	# The headers refer to themselves by absolute /usr/... paths: make them relative.
	kb=$tmp/usr/src/linux-headers-$rel
	[[ -f $kb/Makefile ]] || die "no usr/src/linux-headers-$rel/Makefile in the headers of $rel"
	# (since 7.x also KBUILD_OUTPUT, which is the headers' own directory)
	sed -i -E -e 's|^include /usr/src/([^/]+)/Makefile$|include $(dir $(lastword $(MAKEFILE_LIST)))../\1/Makefile|' \
		-e 's|^KBUILD_OUTPUT *= */usr/src/[^/]+$|KBUILD_OUTPUT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))|' \
		"$kb/Makefile"
	! grep -q '/usr/src' "$kb/Makefile" || die "$kb/Makefile still names /usr/src: $(cat "$kb/Makefile")"
	echo "$suite" >"$tmp/.suite"
	# what else the headers and kbuild tools depend on (the compiler, the tools' libraries):
	# what a build environment of the kernel's release must hold (scripts/lib/buildenv.sh)
	for pkg in "${pkgs[@]}"; do
		[[ $pkg == linux-headers-"$rel" || $pkg == linux-kbuild-* ]] || continue
		deb_apt_cache depends "$pkg" 2>/dev/null | sed -nE 's/^ *Depends: ([^< ]+)$/\1/p'
	done | { grep -vE '^linux-(headers|kbuild|base|binary|modules|image)' || true; } | sort -u |
		paste -sd' ' - >"$tmp/.build-depends"
	touch "$tmp/.headers"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT INT TERM
	unlock
	echo "$dir"
}

# fetch RELEASE: headers, image and modules (depmod run) and the uncompressed vmlinux.
fetch() {
	local rel=$1 dir img mod pkgs bz
	dir=$(fetch_headers "$rel")
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi
	lock "kernel-$rel"
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi # another run unpacked it
	need apt-get apt-cache dpkg depmod xz zstd
	deb_update
	img=linux-image-$rel-unsigned
	[[ -n $(deb_candidate "$img") ]] || img=linux-image-$rel
	mapfile -t pkgs < <(kernel_packages "$img" "$rel")
	log "fetching Debian kernel $rel (${pkgs[*]}, about 100-200 MB, once)"
	tmp=$(mktemp -d "$CACHE/kernels/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	download_unpack "$tmp" "${pkgs[@]}"
	# Debian 13 on install modules under /usr/lib/modules (merged /usr): one place for all
	if [[ -d $tmp/usr/lib/modules/$rel && ! -e $tmp/lib/modules/$rel ]]; then
		mkdir -p "$tmp/lib/modules"
		mv "$tmp/usr/lib/modules/$rel" "$tmp/lib/modules/"
	fi
	mod=$tmp/lib/modules/$rel
	[[ -d $mod ]] || die "no lib/modules/$rel in ${pkgs[*]}"
	ln -sfn "../../../usr/src/linux-headers-$rel" "$mod/build"
	rm -f "$mod/source"
	# /boot/vmlinuz-RELEASE, or since 7.x's split packages /usr/lib/modules/RELEASE/vmlinuz
	bz=$tmp/boot/vmlinuz-$rel
	[[ -f $bz ]] || bz=$mod/vmlinuz
	[[ -f $bz ]] || die "no boot/vmlinuz-$rel or lib/modules/$rel/vmlinuz in ${pkgs[*]}"
	depmod -b "$tmp" "$rel"
	extract_vmlinux "$bz" "$tmp/vmlinux"
	# into the kernel directory beside the headers (hard links: same file system)
	cp -alf "$tmp/." "$dir/"
	rm -rf "$tmp"
	trap - EXIT INT TERM
	touch "$dir/.complete"
	unlock
	echo "$dir"
}

# One line per series: SERIES RELEASE SUITE COMPILER (the suite and compiler the apt lists
# give, or the cache's for a kernel fetched earlier).
series_table() {
	local s rel suite cc dir
	deb_update
	choose_releases | while read -r s rel; do
		dir=$CACHE/kernels/$rel
		suite=$(cat "$dir/.suite" 2>/dev/null || deb_candidate "linux-headers-$rel" | cut -d' ' -f2)
		cc=$(deb_apt_cache depends "linux-headers-$rel" 2>/dev/null |
			sed -nE 's/^ *Depends: (linux-compiler-)?(gcc-[0-9]+)(-x86|-for-host)?$/\2/p' | head -n1)
		[[ -n $cc ]] || cc=$(sed -nE 's/^CONFIG_CC_VERSION_TEXT="([^ ]*-)?(gcc-[0-9]+).*/\2/p' \
			"$dir/usr/src/linux-headers-$rel/.config" 2>/dev/null)
		echo "$s $rel ${suite:-?} ${cc:-?}"
	done
}

# The build matrix as a Markdown table, from the lists and the test suite's defaults
# (STATIC_SERIES, GUEST_SERIES): where each series comes from, what builds it, and what the
# test suite does with it.
matrix() {
	local table oldest newest s rel suite cc dist env role static guest x
	table=$(series_table)
	oldest=$(head -n1 <<<"$table" | cut -d' ' -f1)
	newest=$(tail -n1 <<<"$table" | cut -d' ' -f1)
	in_list() { # in_list SERIES LIST: LIST (with newest/oldest) names SERIES
		for x in $2; do
			[[ $x == "$1" || ($x == newest && $1 == "$newest") || ($x == oldest && $1 == "$oldest") ]] &&
				return 0
		done
		return 1
	}
	echo "| series | release | suite | compiler | built in | tests/static_checks.sh | tests/guest/test_integration.py |"
	echo "|---|---|---|---|---|---|---|"
	while read -r s rel suite cc; do
		dist=$(deb_base_suite "$suite")
		if [[ $dist == "$(deb_host_codename)" ]]; then env="host ($dist)"; else env="$dist chroot"; fi
		role=''
		[[ $s == "$oldest" ]] && role=' (oldest)'
		[[ $s == "$newest" ]] && role=' (newest)'
		static=-; in_list "$s" "$STATIC_SERIES" && static='W=1 + sparse'
		guest=-; in_list "$s" "$GUEST_SERIES" && guest='booted (QEMU), all checks'
		[[ $s == "$newest" ]] && guest+='; a module without the TX-start hook must fail'
		echo "| $s$role | $rel | $suite | $cc | $env | $static | $guest |"
	done <<<"$table"
}

cmd=${1:-}
case $cmd in
-h | --help) usage; exit 0 ;;
matrix) [[ $# -eq 1 ]] || { usage >&2; exit 2; }; matrix; exit ;;
update) [[ $# -eq 1 ]] || { usage >&2; exit 2; }; deb_update force; exit ;;
series) [[ $# -le 2 ]] || { usage >&2; exit 2; }
	if [[ $# -eq 1 ]]; then series_table; exit; fi ;;
resolve | fetch | kdir) [[ $# -eq 2 ]] || { usage >&2; exit 2; } ;;
*) usage >&2; exit 2 ;;
esac
check_series "$2"
case $cmd in
series) series_name "$2" ;;
resolve) resolve "$2" ;;
fetch) rel=$(resolve "$2") && fetch "$rel" ;;
kdir) rel=$(resolve "$2") && dir=$(fetch_headers "$rel") && echo "$dir/usr/src/linux-headers-$rel" ;;
esac
