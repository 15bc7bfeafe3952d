#!/usr/bin/env bash
# Build tcp_bbr_a.ko for a Debian kernel in the cache (outside the source tree).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=scripts/lib/module.sh
source "$REPO/scripts/lib/module.sh"

usage() {
	cat <<EOF
Usage: $PROG [--src DIR] [--tag NAME] [--out DIR] SERIES [MAKE ARGS...]
Builds the module sources (Makefile Kbuild *.c include/) with 'make KDIR=<kbuild dir>
[MAKE ARGS]' for the Debian kernel of SERIES (MAJOR.MINOR, newest or oldest: see
scripts/kernels.sh series) and prints the path of tcp_bbr_a.ko. A kernel of another Debian
release than the host's is built in a chroot of its release, with the compiler it was built
with (scripts/lib/buildenv.sh; root needed). The build is cached in
\$CACHE/module/<kernel release>[-NAME]-<hash>/, the hash being that of the sources, the make
arguments and the build environment: an unchanged tree is not rebuilt. make's output is in
build.log beside the .ko; its warnings go to stderr every time.
  --src DIR   module sources (default: the repository, $REPO)
  --tag NAME  name the build dir, e.g. for variants built with KCFLAGS=-D...
  --out DIR   build in DIR instead (new or empty; not cached): a real compile every time
Env: BBR_A_CACHE (cache dir), BBR_A_MODULE_KEEP (cached builds kept, default 20).
Examples: $PROG 6.12 W=1      $PROG newest C=2      $PROG --tag broken 6.1 KCFLAGS=-DBBR_A_TEST_BROKEN
EOF
}

src=$REPO tag='' out=''
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--src) src=${2:?--src needs a directory}; shift 2 ;;
	--tag) tag=-${2:?--tag needs a name}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	-*) usage >&2; die "unknown option $1" ;;
	*) break ;;
	esac
done
check_series "${1:-}"
series=$1; shift
[[ -d $src ]] || die "--src $src: no such directory"
src=$(cd "$src" && pwd)

kdir=$("$REPO/scripts/kernels.sh" kdir "$series")
if [[ -z $out ]]; then
	module_build "${kdir##*/linux-headers-}$tag" "$src" "$kdir" "$@"
	exit
fi
[[ ! -e $out || -z $(ls -A "$out") ]] || die "--out $out is not empty"
module_check "$src" "$kdir"
mkdir -p "$out"
out=$(cd "$out" && pwd)
module_compile "$src" "$out" "$kdir" "$@" ||
	{ cat "$out/build.log" >&2; die "module build for $series failed (log: $out/build.log)"; }
module_warnings "$out"
echo "$out/tcp_bbr_a.ko"
