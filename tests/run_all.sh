#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the project needs,
# then runs the static checks (checkpatch; W=1 and sparse on the oldest and newest Debian
# kernel series and on 6.1 and 6.12), the
# host unit tests, and the guest integration tests (module loaded in stock
# Debian 6.1, 6.12 and newest-series kernels under QEMU, testbed run, UML determinism); the
# UML kernel is built before the tests (cached outside the repository).
# The tests run in BBR_A_TEST_WORKERS pytest-xdist workers (default 2), a test file per
# worker at a time: each guest is one busy host thread, and the builds they share are
# locked (scripts/lib/common.sh). BBR_A_TEST_WORKERS=0 runs them in this process.
# Usage: sudo tests/run_all.sh [PYTEST ARGS...]   e.g. -k unit, -x
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || { echo "run_all.sh: error: run as root (installs packages, boots guests)" >&2; exit 1; }
workers=${BBR_A_TEST_WORKERS:-2}
[[ $workers =~ ^[0-9]+$ ]] || { echo "run_all.sh: error: BBR_A_TEST_WORKERS must be a number, not '$workers'" >&2; exit 2; }

scripts/setup.sh
echo "== static checks"
tests/static_checks.sh
# The UML kernel (cached; 3 to 10 minutes on 2 cores when it is not): built here, once, so
# that on a fresh machine no test's own time limit has to hold the build
echo "== UML kernel"
scripts/uml.sh build >/dev/null
echo "== unit and integration tests"
xdist=()
((workers == 0)) || xdist=(-n "$workers" --dist loadfile)
exec /usr/bin/python3 -m pytest -v -p no:cacheprovider --durations=30 "${xdist[@]}" \
	tests/unit tests/guest "$@"
