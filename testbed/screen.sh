#!/usr/bin/env bash
# testbed/screen.sh -- resumable screen of congestion-control configurations over scenarios
# and seeds: one rtt_fairness.sh run per job, each stored under a key of its parameters, so
# an interrupted screen re-run does only the missing jobs. Ends with testbed/analyze.py
# --screen (mean and 95 % confidence interval per configuration and scenario).
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh" # die, bad, log; REPO, PROG
# shellcheck source=scripts/lib/module.sh
source "$REPO/scripts/lib/module.sh" # module_source_hash

usage() {
	cat <<EOF
Usage: testbed/$PROG --configs FILE --out DIR [options]

  --configs FILE   one configuration per line: NAME CC [MODULE_PARAM=VALUE ...]
                   (# comments and blank lines ignored; NAME: letters, digits, - _ .)
  --out DIR        results; job results in DIR/<NAME>/<SCENARIO>/seed<N>/; DIR/screen.csv
  --scenarios LIST comma separated NAME:RTTS:BDP, RTTS joined by '+' (default
                   b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5)
  --seeds LIST     comma separated seeds (default 1,2,3)
  --duration S     seconds per run (default 30)
  --rate MBIT      bottleneck rate (default 100)
  --flows-per-rtt N  flows per RTT class (default 1)
  --backend B      rtt_fairness.sh backend (default uml)
  --jobs N         jobs at once (default: number of cores)
  --sample-ms MS   ss/tc sampling (default 0: off; the module's gain trace is always kept)
  --dry-run        list the jobs and whether each is done (done, todo or stale)

A job is done when DIR/<NAME>/<SCENARIO>/seed<N>/summary.json exists and its job.key (the
job's rtt_fairness.sh arguments and a hash of the module sources) matches this call; a
result made with other options or another tcp_bbr_a.c is stale: moved to seed<N>.stale
and run again.
EOF
}
# The progress lines of parallel jobs carry the time of day.
log() { printf '%s: %s %s\n' "$PROG" "$(date +%H:%M:%S)" "$*" >&2; }

CONFIGS='' OUT='' SCEN=b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5
SEEDS=1,2,3 DUR=30 RATE=100 FPR=1 BACKEND=uml JOBS=$(nproc) SAMPLE=0 DRY=0
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) DRY=1; shift; continue ;;
	--configs | --out | --scenarios | --seeds | --duration | --rate | --flows-per-rtt | --backend | \
		--jobs | --sample-ms) [[ $# -ge 2 ]] || bad "$1 needs a value" ;;
	*) bad "unknown option '$1'" ;;
	esac
	case $1 in
	--configs) CONFIGS=$2 ;; --out) OUT=$2 ;; --scenarios) SCEN=$2 ;; --seeds) SEEDS=$2 ;;
	--duration) DUR=$2 ;; --rate) RATE=$2 ;; --flows-per-rtt) FPR=$2 ;; --backend) BACKEND=$2 ;;
	--jobs) JOBS=$2 ;; --sample-ms) SAMPLE=$2 ;;
	esac
	shift 2
done
[[ -n $CONFIGS && -n $OUT ]] || bad "--configs and --out are required"
[[ -r $CONFIGS ]] || bad "cannot read $CONFIGS"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || bad "--jobs: '$JOBS' is not a positive integer"
[[ $SEEDS =~ ^[0-9]+(,[0-9]+)*$ ]] || bad "--seeds: '$SEEDS' is not a comma separated list of integers"

# jobs: "KEY DIR rtt_fairness-args..."
JOBLIST=()
IFS=, read -r -a scenarios <<<"$SCEN"
IFS=, read -r -a seeds <<<"$SEEDS"
while read -r name cc params; do
	[[ -z $name || $name == \#* ]] && continue
	[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || bad "$CONFIGS: bad configuration name '$name'"
	[[ -n $cc ]] || bad "$CONFIGS: configuration $name has no congestion control"
	margs=()
	for p in $params; do margs+=(--module-param "$p"); done
	for sc in "${scenarios[@]}"; do
		IFS=: read -r sname rtts bdp <<<"$sc"
		[[ -n $sname && -n $rtts && -n $bdp ]] || bad "--scenarios: bad item '$sc' (NAME:RTTS:BDP)"
		for s in "${seeds[@]}"; do
			JOBLIST+=("$name/$sname/seed$s --cc $cc --rtt ${rtts//+/,} --buffer-bdp $bdp --seed $s ${margs[*]}")
		done
	done
done <"$CONFIGS"
[[ ${#JOBLIST[@]} -gt 0 ]] || bad "$CONFIGS: no configurations"
common=(--backend "$BACKEND" --duration "$DUR" --rate "$RATE" --flows-per-rtt "$FPR"
	--sample-ms "$SAMPLE")

MODHASH=$(module_source_hash "$REPO") || die "cannot hash the module sources"
# job_key ARGS: what a job's result depends on, stored beside it as job.key.
job_key() { printf '%s module=%s\n' "${common[*]} $*" "$MODHASH"; }
# job_state KEY ARGS: done (a result with this job key; a result from before job keys
# existed counts as done), stale (a result with another job key) or todo.
job_state() {
	local d=$OUT/$1
	shift
	if [[ ! -f $d/summary.json ]]; then
		echo todo
	elif [[ ! -f $d/job.key || $(<"$d/job.key") == "$(job_key "$@")" ]]; then
		echo "done"
	else
		echo stale
	fi
}
todo=()
for j in "${JOBLIST[@]}"; do
	read -r key args <<<"$j"
	# shellcheck disable=SC2086
	state=$(job_state "$key" $args)
	if ((DRY)); then
		printf '%s %s\n' "$state" "$j"
	elif [[ $state != "done" ]]; then
		if [[ $state == stale ]]; then
			log "$key: made with other options or module sources, runs again ($key.stale)"
			rm -rf "$OUT/$key.stale"
			mv "$OUT/$key" "$OUT/$key.stale"
		fi
		todo+=("$j")
	fi
done
((DRY)) && exit 0
mkdir -p "$OUT"
# validate the options once through rtt_fairness.sh (exit 2 on bad values)
read -r _ args <<<"${JOBLIST[0]}"
# shellcheck disable=SC2086
"$REPO/testbed/rtt_fairness.sh" "${common[@]}" $args --out "$OUT/.validate" --dry-run >/dev/null ||
	exit 2
rm -rf "$OUT/.validate"
log "${#JOBLIST[@]} jobs, $((${#JOBLIST[@]} - ${#todo[@]})) done already, ${#todo[@]} to run, $JOBS at once"

pids=() failed=0 started=$(date +%s) finished=0
trap 'kill "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
reap() {
	wait -n || failed=$((failed + 1))
	finished=$((finished + 1))
	local el=$(($(date +%s) - started))
	log "$finished/${#todo[@]} jobs finished, $failed failed, ${el}s elapsed, ~$((el * (${#todo[@]} - finished) / finished))s left"
}
running=0
for j in "${todo[@]}"; do
	read -r key args <<<"$j"
	while ((running >= JOBS)); do reap; running=$((running - 1)); done
	dir=$OUT/$key
	rm -rf "$dir.partial"
	mkdir -p "$(dirname "$dir")"
	# shellcheck disable=SC2086
	{ "$REPO/testbed/rtt_fairness.sh" "${common[@]}" $args --out "$dir.partial" \
		>"$dir.log" 2>&1 && job_key $args >"$dir.partial/job.key" &&
		mv "$dir.partial" "$dir" ||
		{ log "$key FAILED (see $dir.log)"; exit 1; }; } &
	pids+=($!)
	running=$((running + 1))
done
while ((running > 0)); do reap; running=$((running - 1)); done
/usr/bin/python3 "$REPO/testbed/analyze.py" --screen "$OUT" --screen-csv "$OUT/screen.csv" ||
	die "analysis failed"
((failed == 0)) || die "$failed job(s) failed"
exit
}
