#!/usr/bin/env bash
# scripts/guest_soak.sh -- how often does a guest die under the main job? Runs
# testbed/rtt_fairness.sh (with the options after --) again and again and records the outcome
# of every guest run; resumable: a re-run skips the iterations it already has.
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=scripts/lib/console.sh
source "$REPO/scripts/lib/console.sh" # console_fault

usage() {
	cat <<EOF
Usage: scripts/$PROG --out DIR [--runs N] [--fresh-clone] [-- RTT_FAIRNESS_OPTIONS...]
       scripts/$PROG --summary DIR

Runs \`testbed/rtt_fairness.sh --no-analysis --out DIR/iK/run OPTIONS\` for K = 1..N
(default 30), each iteration's log in DIR/iK/log and its exit status in DIR/iK/outcome;
iterations that have an outcome are skipped, so an interrupted soak resumes where it
stopped. --fresh-clone runs the README's main job instead, as a new user would: a git
clone of this repository's HEAD in DIR/iK/clone, then \`scripts/setup.sh &&
testbed/rtt_fairness.sh --out DIR/iK/run OPTIONS\` in it (with the analysis); the outcome
also says whether the run ended with its table and named an existing PNG. Then (and with --summary) writes DIR/outcomes.csv, one line per guest run:
iteration, congestion control, outcome (ok, fault: a panic/Oops/BUG, timeout, failed),
whether tcp_bbr_a's code was on the faulting stack, wall seconds and the fault's first line.
A guest fault that rtt_fairness.sh retried counts as a run of its own.
EOF
}

RUNS=30 OUT='' SUMMARY_ONLY=0 FRESH=0
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || bad "--runs needs a positive integer"; RUNS=$2; shift 2 ;;
	--fresh-clone) FRESH=1; shift ;;
	--out) [[ -n ${2:-} ]] || bad "--out needs a directory"; OUT=$2; shift 2 ;;
	--summary) [[ -d ${2:-} ]] || bad "--summary needs an existing soak directory"; OUT=$2; SUMMARY_ONLY=1; shift 2 ;;
	--) shift; break ;;
	*) bad "unknown option '$1' (rtt_fairness.sh's options go after --)" ;;
	esac
done
[[ -n $OUT ]] || bad "--out DIR is required"

# guest_line ITER CC DIR CONSOLE: one outcomes.csv line for the guest run whose console is
# CONSOLE, ending with its iteration's exit status and (--fresh-clone) table and PNG.
guest_line() {
	local fault kind=failed mod='' first='' wall=''
	[[ -f $3/run.env ]] && wall=$(sed -n 's/^wall_s=//p' "$3/run.env")
	fault=$(console_fault "$4")
	if [[ -n $fault ]]; then
		read -r kind mod first <<<"$fault"
	elif [[ -f $3/run.env && $4 == "$3/console.log" ]]; then
		kind=ok
	elif grep -q 'timeout: the' "$3/../../../log" 2>/dev/null; then
		kind=timeout
	fi
	local rc table png
	read -r rc _ table png <"$3/../../../outcome"
	printf '%s,%s,%s,%s,%s,"%s",%s,%s,%s\n' "$1" "$2" "$kind" "$mod" "$wall" "${first//\"/\'}" \
		"${rc#rc=}" "${table#table=}" "${png#png=}"
}

# main_job DIR OPTIONS...: the README's first command in a fresh clone of HEAD.
main_job() {
	local d=$1
	shift
	git clone -q "$REPO" "$d/clone" && git -C "$d/clone" checkout -q "$(git -C "$REPO" rev-parse HEAD)" || return
	(cd "$d/clone" && scripts/setup.sh && testbed/rtt_fairness.sh --out "$d/run" "$@")
	local rc=$?
	rm -rf "$d/clone"
	return "$rc"
}
# main_job_ends DIR: " table=yes|no png=yes|no" from what the main job printed and left.
main_job_ends() {
	local png table=no ok=no
	grep -qE '^ *cc +run ' "$1/log" && table=yes
	png=$(sed -n 's/^rtt_fairness.sh: picture: //p' "$1/log" | tail -n1)
	[[ -n $png && -s $png ]] && ok=yes
	echo " table=$table png=$ok"
}

summary() {
	local it cc rd con n=0
	echo "iteration,cc,outcome,module_on_stack,wall_s,fault,iteration_rc,table,png"
	for it in "$OUT"/i*/; do
		[[ -f $it/outcome ]] || continue
		for rd in "$it"run/*/run1; do
			[[ -d $rd ]] || continue
			cc=$(basename "$(dirname "$rd")")
			for con in "$rd"/fault*-console.log "$rd/console.log"; do
				[[ -f $con ]] && guest_line "$(basename "$it")" "$cc" "$rd" "$con"
			done
		done
		n=$((n + 1))
	done
	log "$n iterations summarised"
}

results_dir "$OUT" || die "cannot create $OUT"
if ((!SUMMARY_ONLY)); then
	trap 'log "interrupted (finished iterations are kept; re-run to resume)"; exit 130' INT TERM
	for ((i = 1; i <= RUNS; i++)); do
		d=$OUT/i$i
		[[ -f $d/outcome ]] && continue
		rm -rf "$d" && mkdir -p "$d"
		t0=$(date +%s) rc=0
		log "iteration $i/$RUNS ($(date -u +%H:%M:%S))"
		if ((FRESH)); then
			main_job "$d" "$@" >"$d/log" 2>&1 || rc=$?
		else
			"$REPO/testbed/rtt_fairness.sh" --no-analysis --out "$d/run" "$@" >"$d/log" 2>&1 || rc=$?
		fi
		echo "rc=$rc wall_s=$(($(date +%s) - t0))$( ((FRESH)) && main_job_ends "$d")" >"$d/outcome"
		log "iteration $i: exit status $rc"
	done
fi
summary >"$OUT/outcomes.csv"
awk -F, 'NR > 1 { n[$3]++ } END { for (k in n) printf "%s %d\n", k, n[k] }' "$OUT/outcomes.csv" | sort
}
