#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the project needs,
# then runs the static checks (checkpatch; W=1 and sparse on the oldest and newest Debian
# kernel series and on 6.1 and 6.12), the
# host unit tests, and the guest integration tests (module loaded in stock
# Debian 6.1, 6.12 and newest-series kernels under QEMU, testbed run, UML determinism).
# Usage: sudo tests/run_all.sh [PYTEST ARGS...]   e.g. -k unit, -x
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || { echo "run_all.sh: error: run as root (installs packages, boots guests)" >&2; exit 1; }

scripts/setup.sh
echo "== static checks"
tests/static_checks.sh
echo "== unit and integration tests"
exec /usr/bin/python3 -m pytest -v -p no:cacheprovider --durations=30 tests/unit tests/guest "$@"
