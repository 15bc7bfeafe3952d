#!/usr/bin/env bash
# The stress and fault suite (tests/guest/stress.py) in a User-Mode Linux guest: every
# transfer must deliver its bytes intact and the kernel log stay clean, under loss up to
# 50 %, reordering, duplication, corruption, jitter, rate steps, 1000 flows, app-limited,
# idle and rwnd-limited flows, parameter writes, rmmod attempts and load/unload cycles.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/../scripts/lib/common.sh"

usage() {
	cat <<EOF
Usage: $PROG [--quick|--long] [--variant sanitize] [--seed N] [--only CASE,...] [--out DIR]
             [--timeout SEC]
Runs tests/guest/stress.py in UML (time travel: deterministic, a seed gives the same run)
and prints its report; DIR/summary.json has every case's flows, bytes and errors, the
kernel log's findings and the totals, with this command, the wall time and the kernel and
module it ran. Exit status 0 when every case passed and the kernel reported nothing.
  --quick           the test suite's form: loss, parameter writes, rmmod attempts and two
                    load/unload cycles, briefly (about a minute)
  --long            the long form: more values, flows, time and cycles (about 15 minutes)
  --variant V       the UML kernel variant: sanitize = KASAN, UBSAN (on the module), lockdep
                    and kmemleak (scripts/uml/sanitize.fragment; built once, ~20 minutes)
  --seed N          the guest's random seed (default 1)
  --only CASE,...   these cases only (stress.py's list; loss = every loss case)
  --out DIR         where summary.json, dmesg.txt and console.log go (default: a temp dir)
  --timeout SEC     wall-clock limit of the guest run (default 1800, --long 7200)
Without --quick or --long, the short form: every case, about 5 minutes on 2 busy cores (more
with --variant sanitize). tests/guest/test_uml_stress.py runs --quick.
EOF
}

form='' variant='' seed=1 only='' out='' timeout=''
while (($#)); do
	case $1 in
	--long | --quick) [[ -z $form || $form == "$1" ]] || DIE_RC=2 die "--quick or --long, not both"
		form=$1; shift ;;
	--variant) variant=${2:?--variant needs a name}; shift 2 ;;
	--seed) seed=${2:?--seed needs a number}; shift 2 ;;
	--only) only=${2:?--only needs cases}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; DIE_RC=2 die "unknown argument '$1'" ;;
	esac
done
[[ $seed =~ ^[0-9]+$ ]] || DIE_RC=2 die "--seed needs a non-negative integer"
: "${timeout:=$([[ $form == --long ]] && echo 7200 || echo 1800)}"
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/bbr_a_stress.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
export BBR_A_UML_VARIANT=$variant

"$REPO/scripts/uml.sh" build >/dev/null || die "cannot build the UML kernel${variant:+ ($variant)}"
kernel_id=$("$REPO/scripts/uml.sh" id)
args=(python3 tests/guest/stress.py run ${form:+"$form"} ${only:+--only "$only"})
t0=$(date +%s)
rc=0
"$REPO/scripts/uml.sh" run --seed "$seed" --timeout "$timeout" --out "$out" -- "${args[@]}" || rc=$?
wall=$(($(date +%s) - t0))
[[ -f $out/summary.json ]] || die "the guest wrote no summary (uml.sh exit status $rc; console: $out/console.log)"

# What ran it, for whoever reads the summary later: the command, the wall time, the kernel
# build and the module's source hash (scripts/lib/module.sh), the commit if any.
# shellcheck source=scripts/lib/module.sh
source "$REPO/scripts/lib/module.sh"
cmd="tests/stress.sh${form:+ $form}${variant:+ --variant $variant} --seed $seed${only:+ --only $only}"
commit=$(git -C "$REPO" rev-parse --short=12 HEAD 2>/dev/null || echo none)
dirty=$(git -C "$REPO" status --porcelain -- bbr_a_core.c Kbuild dkms.conf include algos tests/guest/stress.py 2>/dev/null | head -c1)
/usr/bin/python3 - "$out/summary.json" "$cmd" "$wall" "$kernel_id" \
	"$(module_source_hash "$REPO")" "$commit${dirty:+ (with local changes)}" <<'EOF'
import json, sys
path, cmd, wall, kid, mod, commit = sys.argv[1:]
with open(path) as f:
    s = json.load(f)
s.update(command=cmd, wall_s=int(wall), uml_kernel=kid, module_hash=mod, commit=commit)
with open(path, "w") as f:
    json.dump(s, f, indent=1)
t = s["totals"]
print(f"{cmd}: {t['cases']} cases, {t['cases_failed']} failed; {t['flows']} flows "
      f"({t['flows_failed']} failed); {t['bytes']} bytes; {t['findings']} kernel findings; "
      f"{wall} s wall; sanitizers: {', '.join(s['sanitizers']) or 'none'}; known (kmemleak at "
      f"insmod, no module frame): {t.get('known_load_reports', 0)}; kmemleak suspects without a "
      f"module frame: {t.get('kmemleak_other', 0)}")
EOF
log "summary: $out/summary.json"
exit "$rc"
