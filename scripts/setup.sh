#!/usr/bin/env bash
# Install every Debian package the project needs (idempotent; fast when all are present).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh" # die, log, CACHE (debian.sh's helpers use them)
# shellcheck source=scripts/lib/debian.sh
source "$REPO/scripts/lib/debian.sh" # deb_nonfree_stanza

PACKAGES=(
	# guest runner: QEMU, guest userland, initramfs and kernel unpacking
	qemu-system-x86 busybox-static iperf3 iproute2 iputils-ping ethtool kmod cpio xz-utils zstd
	# building the module against Debian's kbuild headers (+ pahole for 6.12's module BTF)
	gcc make bc flex bison libelf-dev libssl-dev dwarves sparse
	# kernels of other Debian releases (5.10, 7.x) build in a chroot of their release
	mmdebstrap
	# the DKMS install test (tests/guest/test_dkms.py; on demand)
	dkms
	# static checks of the shell scripts
	shellcheck
	# User-Mode Linux build (+ its static poweroff helper and patches) and checkpatch.pl
	linux-source-6.1 libc6-dev patch
	# host tests and plots (run with /usr/bin/python3)
	python3 python3-matplotlib python3-pytest python3-pytest-xdist
	# flent's tests (testbed/flent.sh) and their traffic; netperf is in non-free (below)
	flent netperf
)
# Packages of Debian's non-free component (Ubuntu: multiverse), which a machine's apt setup
# often leaves out: when one of them has no candidate, NONFREE_LIST gets an entry for that
# component of the host's release, with the URIs of its existing entry (deb_nonfree_stanza).
NONFREE=(netperf)
NONFREE_LIST=${BBR_A_NONFREE_LIST:-/etc/apt/sources.list.d/tcp_bbr_a-non-free.sources}

usage() {
	cat <<EOF
Usage: sudo $PROG [--check]
Installs with apt-get (non-interactive, --no-install-recommends) the Debian packages:
  ${PACKAGES[*]}
${NONFREE[*]} is in Debian's non-free component: when apt has no candidate for it, $NONFREE_LIST
is written, an entry for non-free of the host's release with the URIs and keyring of the
machine's own Debian entry, and the package lists are updated.
--check   only list the missing packages (exit 1 if any); does not need root.
EOF
}

missing() {
	local p
	for p in "${PACKAGES[@]}"; do
		[[ $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) == installed ]] || echo "$p"
	done
}

check=0
case "${1:-}" in
"") ;;
--check) check=1 ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 2 ;;
esac

mapfile -t todo < <(missing)
if [[ ${#todo[@]} -eq 0 ]]; then
	echo "$PROG: all ${#PACKAGES[@]} packages are installed"
	exit 0
fi
if [[ $check -eq 1 ]]; then
	echo "$PROG: missing: ${todo[*]}"
	exit 1
fi
[[ $(id -u) -eq 0 ]] || { echo "$PROG: error: must run as root (sudo $0) to install: ${todo[*]}" >&2; exit 1; }

export DEBIAN_FRONTEND=noninteractive
candidate() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }
# apt-get update only if some package has no installation candidate (e.g. empty lists).
for p in "${todo[@]}"; do
	if ! candidate "$p"; then
		echo "$PROG: package lists lack $p: running apt-get update"
		apt-get update -q
		break
	fi
done
# still none for a non-free package: the component is not in the machine's apt setup
for p in "${todo[@]}"; do
	[[ " ${NONFREE[*]} " == *" $p "* ]] && ! candidate "$p" || continue
	[[ ! -e $NONFREE_LIST ]] || die "$p has no candidate although $NONFREE_LIST exists"
	stanza=$(deb_nonfree_stanza) || exit
	echo "$PROG: $p is in the non-free component, which apt does not use here: writing $NONFREE_LIST"
	printf '%s\n' "$stanza" >"$NONFREE_LIST"
	apt-get update -q
	break
done
echo "$PROG: installing: ${todo[*]}"
apt-get install -y -q --no-install-recommends "${todo[@]}"
mapfile -t still < <(missing)
[[ ${#still[@]} -eq 0 ]] || { echo "$PROG: error: still missing: ${still[*]}" >&2; exit 1; }
echo "$PROG: done"
