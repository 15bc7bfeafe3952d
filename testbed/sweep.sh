#!/usr/bin/env bash
# testbed/sweep.sh -- the paper's four sweeps, one rtt_fairness.sh run per point and cc,
# one CSV per sweep (testbed/analyze.py --sweep-csv), optional plots (plots/plot.py).
set -euo pipefail
# One compound command: the shell reads the whole script before running it, so editing
# the file during a run cannot change the run.
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh" # die, bad, log; REPO, PROG

usage() {
	cat <<EOF
Usage: testbed/$PROG [options]

Sweeps (default grid = reduced; --full = the paper's grid):
  buffer  Jain index, 10 ms vs 50 ms flow, buffer in BDP of the 50 ms path
          reduced: 0.5 1 5 20      full: 0.1 0.2 0.5 1 2 3 4 5 6 8 10 20 50 100
  ratio   Jain index, 10 ms vs R ms flow at 5 BDP (of R)
          reduced: R = 10 20 50 100          full: R = 10 20 30 40 50 60 70 80 90 100
  loss    utilisation, 10 ms vs 50 ms flow, random loss % at 1 and 5 BDP
          reduced: 0 1 6                    full: 0 1 3 6
  flows   retransmission rate, N flows of 10 ms, at 0.1 and 1 BDP (of 10 ms)
          reduced: N = 1 5 20               full: N = 1 2 5 10 20 50 100

  --sweeps LIST      which sweeps, comma separated (default buffer,ratio,loss,flows)
  --full             the paper's grid (long: hours of emulation)
  --cc LIST          congestion controls (default bbr_a,bbr,cubic)
  --rate MBIT        bottleneck rate (default 100)
  --duration S       seconds per run (default 20; the paper ran 200 s)
  --warmup S         seconds excluded at the start (default 5)
  --repeat N         runs per point and cc (default 1)
  --seed N           first seed (default 1)
  --out DIR          results (default results/sweep-<timestamp>); sweep CSVs: DIR/<sweep>.csv
  --resume           skip points already complete in DIR (rerun incomplete ones)
  --jobs N           run N points at once, each logging to DIR/<sweep>/<point>.log (default:
                     one per core with --backend qemu or uml, whose guests run in virtual
                     time; otherwise 1, since runs on the host share the real machine)
  --backend, --kernel, --module-param, --sample-ms, --mem, --cooldown, --streams
                     passed to rtt_fairness.sh
  --plot             run plots/plot.py on the CSVs at the end
  --dry-run          print the points; run nothing
EOF
}

SWEEPS=buffer,ratio,loss,flows FULL=0 CCS=bbr_a,bbr,cubic RATE=100 DUR=20 WARMUP=5 REPEAT=1
SEED=1 OUT='' RESUME=0 PLOT=0 DRY=0 JOBS=''
PASS=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--full) FULL=1; shift ;;
	--resume) RESUME=1; shift ;;
	--plot) PLOT=1; shift ;;
	--dry-run) DRY=1; shift ;;
	--sweeps | --cc | --rate | --duration | --warmup | --repeat | --seed | --out | --backend | \
		--kernel | --module-param | --sample-ms | --mem | --cooldown | --streams | --jobs)
		[[ $# -ge 2 ]] || bad "$1 needs a value"
		case $1 in
		--sweeps) SWEEPS=$2 ;; --cc) CCS=$2 ;; --rate) RATE=$2 ;; --duration) DUR=$2 ;;
		--warmup) WARMUP=$2 ;; --repeat) REPEAT=$2 ;; --seed) SEED=$2 ;; --out) OUT=$2 ;;
		--jobs) JOBS=$2 ;;
		*) PASS+=("$1" "$2") ;;
		esac
		shift 2 ;;
	*) bad "unknown option '$1'" ;;
	esac
done
IFS=, read -r -a SW <<<"$SWEEPS"
for s in "${SW[@]}"; do
	case $s in buffer | ratio | loss | flows) ;; *) bad "--sweeps: unknown sweep '$s'" ;; esac
done
[[ -n $OUT ]] || OUT=$REPO/results/sweep-$(date +%Y%m%d-%H%M%S)
if [[ -z $JOBS ]]; then
	JOBS=1
	[[ " ${PASS[*]} " =~ " --backend "(qemu|uml)" " ]] && JOBS=$(nproc)
fi
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || bad "--jobs: '$JOBS' is not a positive integer"

if ((FULL)); then
	G_BUFFER="0.1 0.2 0.5 1 2 3 4 5 6 8 10 20 50 100"
	G_RATIO="10 20 30 40 50 60 70 80 90 100"
	G_LOSS="0 1 3 6"
	G_FLOWS="1 2 5 10 20 50 100"
else
	G_BUFFER="0.5 1 5 20"
	G_RATIO="10 20 50 100"
	G_LOSS="0 1 6"
	G_FLOWS="1 5 20"
fi

# points: "sweep point-name rtt_fairness-args..."
POINTS=()
for s in "${SW[@]}"; do
	case $s in
	buffer) for b in $G_BUFFER; do POINTS+=("buffer bdp$b --rtt 10,50 --buffer-bdp $b"); done ;;
	ratio) for r in $G_RATIO; do POINTS+=("ratio rtt$r --rtt 10,$r --buffer-bdp 5"); done ;;
	loss) for b in 1 5; do for l in $G_LOSS; do
		POINTS+=("loss bdp$b-loss$l --rtt 10,50 --buffer-bdp $b --loss $l"); done; done ;;
	flows) for b in 0.1 1; do for n in $G_FLOWS; do
		POINTS+=("flows bdp$b-n$n --rtt 10 --flows-per-rtt $n --buffer-bdp $b"); done; done ;;
	esac
done

common=(--cc "$CCS" --rate "$RATE" --duration "$DUR" --warmup "$WARMUP" --repeat "$REPEAT"
	--seed "$SEED" --no-analysis "${PASS[@]}")
# validate the common options once, through rtt_fairness.sh itself (exits 2 on bad values)
"$REPO/testbed/rtt_fairness.sh" "${common[@]}" --out "$OUT/.validate" --dry-run >/dev/null 2>&1 ||
	{ "$REPO/testbed/rtt_fairness.sh" "${common[@]}" --out "$OUT/.validate" --dry-run >/dev/null; exit 2; }

complete() { # complete DIR: every cc has all its runs
	local c r
	IFS=, read -r -a cl <<<"$CCS"
	for c in "${cl[@]}"; do
		for ((r = 1; r <= REPEAT; r++)); do [[ -f $1/$c/run$r/run.env ]] || return 1; done
	done
}

log "${#POINTS[@]} point(s) x cc {$CCS} x $REPEAT, ${DUR} s each, $JOBS at once, out $OUT"
if ((DRY)); then
	for p in "${POINTS[@]}"; do read -r s name args <<<"$p"; echo "  $s/$name: $args"; done
	exit 0
fi
mkdir -p "$OUT"
failed=0 running=0
# Reap one finished background point; its status says whether it failed.
reap() {
	wait -n || failed=$((failed + 1))
	running=$((running - 1))
}
for p in "${POINTS[@]}"; do
	read -r s name args <<<"$p"
	dir=$OUT/$s/$name
	if [[ -d $dir ]]; then
		if ((RESUME)) && complete "$dir"; then log "$s/$name: complete, skipped"; continue; fi
		((RESUME)) || die "$dir exists (use --resume or another --out)"
		rm -rf "$dir"
	fi
	if ((JOBS > 1)); then
		while ((running >= JOBS)); do reap; done
		mkdir -p "$OUT/$s"
		log "$s/$name started (log: $dir.log)"
		# shellcheck disable=SC2086
		{ "$REPO/testbed/rtt_fairness.sh" "${common[@]}" $args --out "$dir" >"$dir.log" 2>&1 ||
			{ log "$s/$name FAILED (see $dir.log)"; exit 1; }; } &
		running=$((running + 1))
		continue
	fi
	log "$s/$name"
	# shellcheck disable=SC2086
	if ! "$REPO/testbed/rtt_fairness.sh" "${common[@]}" $args --out "$dir"; then
		log "$s/$name FAILED (continuing)"
		failed=$((failed + 1))
	fi
done
while ((running > 0)); do reap; done

csvs=()
for s in "${SW[@]}"; do
	[[ -d $OUT/$s ]] || continue
	/usr/bin/python3 "$REPO/testbed/analyze.py" --sweep-csv "$OUT/$s.csv" --sweep "$s" "$OUT/$s" &&
		csvs+=("$OUT/$s.csv") && log "wrote $OUT/$s.csv" || { log "analysis of sweep $s failed"; failed=$((failed + 1)); }
done
if ((PLOT)) && [[ ${#csvs[@]} -gt 0 ]]; then
	/usr/bin/python3 "$REPO/plots/plot.py" --sweep "${csvs[@]}" --outdir "$OUT/plots" ||
		{ log "plotting failed"; failed=$((failed + 1)); }
fi
((failed == 0)) || die "$failed step(s) failed"
log "done: $OUT"
exit
}
