#!/usr/bin/env bash
# Fetch stock Debian kernels (image + kbuild headers) into the cache, for QEMU guests
# and for building the module against them. Nothing is installed on the host.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=scripts/lib/debian.sh
source "$REPO/scripts/lib/debian.sh"
# shellcheck source=scripts/lib/kernel_fetch.sh
source "$REPO/scripts/lib/kernel_fetch.sh" # fetch_headers, fetch

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
