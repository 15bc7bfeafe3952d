#!/usr/bin/env bash
# testbed/reproduce.sh -- the paper's Figures 4..8 as screens (testbed/screen.sh): its
# algorithms and the project's, its grids, 200 s per run, resumable, locally or on Slurm.
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh" # die, bad, log; REPO, PROG

usage() {
	cat <<EOF
Usage: testbed/$PROG FIGURE... [options]

FIGURE: fig4 fig5 fig6 fig7 fig8 or all. Each runs one screen, DIR/<figure>/ (see
testbed/screen.sh: a job per congestion control, scenario and seed, stored under its key; a
re-run does only what is missing), over the paper's grid (100 Mbit/s):
  fig4  utilisation vs random loss 0/1/3/6 %, 10 vs 50 ms, 1 and 5 BDP
  fig5  throughput over time, 10 vs 50 ms, 0.5 and 5 BDP (the runs' throughput.csv)
  fig6  Jain, 10 vs 50 ms, buffer 0.1 .. 100 BDP (14 points)
  fig7  Jain, 10 ms vs 10 .. 100 ms, 5 BDP (10 points)
  fig8  retransmission rate, N = 1 .. 100 flows of 10 ms, 0.1 and 1 BDP (14 points), without
        the module's gain trace (--trace off)

  --ccs LIST       congestion controls (default bbr,bbq,da_bbr,bbr_a,bbr_a_fair,cubic); an
                   item A+B runs A's flows in the first RTT class and B's in the second
                   (rtt_fairness.sh --cc), at the scenarios with two classes only
  --seeds LIST     seeds (default 1,2,3,4,5)
  --points LIST    only these points of the figures' grids, by scenario name (b50,b100):
                   re-runs a few jobs without making the others of the screen stale
  --duration S     seconds per run (default 200, the paper's; docs/results/convergence-uml
                   shows 30 s runs do not give bbr's 200 s statistic)
  --out DIR        results (default docs/results/reproduce: .gitignore keeps each job's
                   summary.json and job.key and drops its raw run, so committing that
                   directory as jobs finish lets a re-run in any clone skip them)
  --dry-run        print each figure's jobs and whether each is done; run nothing
  --backend, --jobs, --slurm, --slurm-opts, --client
                   passed to screen.sh (default backend uml, client auto)
EOF
}

# The paper's grids, as screen.sh scenarios NAME:RTTS:BDP[:LOSS[:FLOWS]].
scenarios() {
	local x out=()
	case $1 in
	fig4) for b in 1 5; do for l in 0 1 3 6; do out+=("l$l-b$b:10+50:$b:$l"); done; done ;;
	fig5) out=(b0.5:10+50:0.5 b5:10+50:5) ;;
	fig6) for x in 0.1 0.2 0.5 1 2 3 4 5 6 8 10 20 50 100; do out+=("b$x:10+50:$x"); done ;;
	fig7) for x in 10 20 30 40 50 60 70 80 90 100; do out+=("r$x:10+$x:5"); done ;;
	fig8) for b in 0.1 1; do for x in 1 2 5 10 20 50 100; do out+=("n$x-b$b:10:$b::$x"); done; done ;;
	esac
	if [[ -n $POINTS ]]; then # only the named points, in the grid's order
		local keep=()
		for x in "${out[@]}"; do [[ ,$POINTS, == *",${x%%:*},"* ]] && keep+=("$x"); done
		out=("${keep[@]}")
	fi
	local IFS=,
	echo "${out[*]}"
}

FIGS=() CCS=bbr,bbq,da_bbr,bbr_a,bbr_a_fair,cubic SEEDS=1,2,3,4,5 DUR=200 OUT=$REPO/docs/results/reproduce
PASS=() DRY=0 POINTS=''
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	fig4 | fig5 | fig6 | fig7 | fig8) FIGS+=("$1"); shift ;;
	all) FIGS+=(fig4 fig5 fig6 fig7 fig8); shift ;;
	--dry-run) DRY=1; shift ;;
	--slurm) PASS+=(--slurm); shift ;;
	--ccs | --seeds | --duration | --out | --backend | --jobs | --slurm-opts | --client | --points)
		[[ $# -ge 2 ]] || bad "$1 needs a value"
		case $1 in
		--ccs) CCS=$2 ;; --seeds) SEEDS=$2 ;; --duration) DUR=$2 ;; --out) OUT=$2 ;; --points) POINTS=$2 ;;
		*) PASS+=("$1" "$2") ;;
		esac
		shift 2 ;;
	*) bad "unknown argument '$1'" ;;
	esac
done
((${#FIGS[@]})) || bad "name a figure: fig4 fig5 fig6 fig7 fig8 or all"
[[ $CCS =~ ^[a-z0-9_]+([+,][a-z0-9_]+)*$ ]] ||
	bad "--ccs: '$CCS' is not a comma separated list of names (or of '+' items: bbr_a_fair+cubic)"
[[ $DUR =~ ^[1-9][0-9]*$ ]] || bad "--duration: '$DUR' is not a whole number of seconds"
[[ -z $POINTS || $POINTS =~ ^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$ ]] ||
	bad "--points: '$POINTS' is not a comma separated list of scenario names"
for f in "${FIGS[@]}"; do
	[[ -n $(scenarios "$f") ]] || bad "--points: $f has none of $POINTS (its points: $(POINTS='' scenarios "$f" | sed -E 's/:[^,]*//g'))"
done

results_dir "$OUT" || die "cannot create $OUT"
configs=$OUT/configs.txt
tr ',' '\n' <<<"$CCS" | awk '{ print $1, $1 }' >"$configs"
for f in "${FIGS[@]}"; do
	log "$f: $(scenarios "$f" | tr ',' '\n' | wc -l) scenarios x $(tr ',' '\n' <<<"$CCS" | wc -l) ccs x $(tr ',' '\n' <<<"$SEEDS" | wc -l) seeds, ${DUR} s each -> $OUT/$f"
	args=(--configs "$configs" --out "$OUT/$f" --scenarios "$(scenarios "$f")" --seeds "$SEEDS"
		--duration "$DUR" "${PASS[@]}")
	((DRY)) && args+=(--dry-run)
	# Fig. 8's 100 flows would fill the 32 MB trace buffer several times over and leave
	# ~100 MB of text per run; its statistic is the retransmission rate
	[[ $f == fig8 ]] && args+=(--trace off)
	"$REPO/testbed/screen.sh" "${args[@]}" || die "$f: screen.sh failed (a re-run does only what is missing)"
done
((DRY)) || log "done: $OUT (screen.csv per figure)"
exit
}
