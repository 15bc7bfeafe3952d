#!/usr/bin/env bash
# Build tcp_bbr_a.ko for a Debian kernel in the cache (outside the source tree).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<EOF
Usage: $PROG [--src DIR] [--tag NAME] SERIES [MAKE ARGS...]
Copies the module sources (Makefile Kbuild tcp_bbr_a.c include/) to
\$CACHE/build/<kernel release>[-NAME]/, runs 'make KDIR=<kbuild dir> [MAKE ARGS]' there and
prints the path of tcp_bbr_a.ko. SERIES: 6.1 or 6.12. Build output goes to stderr.
  --src DIR   module sources (default: the repository, $REPO)
  --tag NAME  separate build dir, e.g. for variants built with KCFLAGS=-D...
Examples: $PROG 6.12 W=1      $PROG 6.1 C=2      $PROG --tag broken 6.1 KCFLAGS=-DBBR_A_TEST_BROKEN
EOF
}

src=$REPO tag=
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--src) src=${2:?--src needs a directory}; shift 2 ;;
	--tag) tag=-${2:?--tag needs a name}; shift 2 ;;
	-*) usage >&2; die "unknown option $1" ;;
	*) break ;;
	esac
done
check_series "${1:-}"
series=$1; shift
need make gcc
for f in Makefile Kbuild tcp_bbr_a.c; do
	[[ -f $src/$f ]] || die "$src/$f not found (module sources)"
done

kdir=$("$REPO/scripts/kernels.sh" kdir "$series")
build=$CACHE/build/${kdir##*/linux-headers-}$tag
lock "build-${build##*/}"
mkdir -p "$build"
# -p keeps mtimes so make rebuilds exactly when a source changed; stale files are dropped.
rm -rf "$build/include"
cp -p "$src/Makefile" "$src/Kbuild" "$src/tcp_bbr_a.c" "$build/"
[[ -d $src/include ]] && cp -pr "$src/include" "$build/"
make -C "$build" KDIR="$kdir" "$@" >&2 || die "module build for $series failed (in $build)"
[[ -f $build/tcp_bbr_a.ko ]] || die "make succeeded but $build/tcp_bbr_a.ko is missing"
echo "$build/tcp_bbr_a.ko"
