# Shared helpers for the host-side scripts (sourced, not executed).
# shellcheck shell=bash

CACHE="${BBR_A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp_bbr_a}"
# shellcheck disable=SC2034 # used by the scripts that source this file
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROG="$(basename "$0")"
PATH="$PATH:/usr/sbin:/sbin" # depmod, ip, tc for non-root users

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit "${DIE_RC:-1}"; }

# need TOOL... : fail with a hint to scripts/setup.sh if a command is missing.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' not found; install the project's packages with: sudo scripts/setup.sh"
	done
}

# check_series SERIES : only the QEMU kernel series are handled by these scripts.
check_series() {
	case "${1:-}" in
	6.1 | 6.12) ;;
	"") die "missing kernel series (6.1 or 6.12)" ;;
	*) die "unknown kernel series '$1' (expected 6.1 or 6.12)" ;;
	esac
}

# lock NAME: hold an exclusive lock on $CACHE/.lock.NAME until the script exits (parallel runs
# must not unpack or build into the same cache directory at once).
lock() {
	mkdir -p "$CACHE"
	exec {_lockfd}>"$CACHE/.lock.$1"
	flock -w 1800 "$_lockfd" || die "timed out waiting for $CACHE/.lock.$1"
}
