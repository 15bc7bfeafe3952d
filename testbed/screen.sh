#!/usr/bin/env bash
# testbed/screen.sh -- resumable screen of congestion-control configurations over scenarios
# and seeds: one rtt_fairness.sh run per job, each stored under a key of its parameters, so
# an interrupted screen re-run does only the missing jobs. Runs the jobs here, or with --slurm
# as one Slurm job array (testbed/lib/slurm.sh). Ends with testbed/analyze.py --screen (mean
# and 95 % confidence interval per configuration and scenario).
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh" # die, bad, log, run_child; REPO
# shellcheck source=scripts/lib/module.sh
source "$REPO/scripts/lib/module.sh" # module_source_hash, testbed_source_hash
# shellcheck source=testbed/lib/slurm.sh
source "$REPO/testbed/lib/slurm.sh" # slurm_run
# shellcheck source=testbed/lib/screen_usage.sh
source "$REPO/testbed/lib/screen_usage.sh" # usage
# shellcheck source=testbed/lib/screen_keys.sh
source "$REPO/testbed/lib/screen_keys.sh" # hashes, key_line, job_common, job_key, job_state
# shellcheck source=testbed/lib/screen_jobs.sh
source "$REPO/testbed/lib/screen_jobs.sh" # run_job, list_jobs, run_local
# shellcheck source=testbed/lib/module_src.sh
source "$REPO/testbed/lib/module_src.sh" # modsrc_hash

# The progress lines of parallel jobs carry the time of day.
log() { printf '%s: %s %s\n' "$PROG" "$(date +%H:%M:%S)" "$*" >&2; }

MSRC='' # --module-src: a user's module (absolute), its hash in the job keys (lib/screen_keys.sh)
if [[ ${1:-} == --run-job ]]; then
	[[ $# -eq 3 && $3 =~ ^[1-9][0-9]*$ ]] || bad "--run-job needs DIR and a line number K"
	OUT=$2
	line=$(sed -n "$3p" "$OUT/slurm/jobs.txt") || die "cannot read $OUT/slurm/jobs.txt"
	[[ -n $line ]] || die "$OUT/slurm/jobs.txt has no line $3"
	[[ $line =~ --backend\ ([a-z]+) ]] || die "$OUT/slurm/jobs.txt line $3 has no --backend"
	backend=${BASH_REMATCH[1]}
	[[ ! $line =~ --module-src\ ([^ ]+) ]] || MSRC=${BASH_REMATCH[1]}
	hashes "$backend"
	read -r key args <<<"$line"
	log "task $3: $key"
	# shellcheck disable=SC2086
	run_job "$key" $args
	exit
fi

CONFIGS='' OUT='' SCEN=b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5
SEEDS=1,2,3 DUR=30 RATE=100 FPR=1 BACKEND=uml JOBS='' SAMPLE=0 DRY=0 SLURM=0 SLURM_OPTS='' CLIENT=auto TRACE=on
WARMUP='' HOSTS='' SJIT='' FGIVEN=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) DRY=1; shift; continue ;;
	--slurm) SLURM=1; shift; continue ;;
	--configs | --out | --scenarios | --seeds | --duration | --rate | --flows-per-rtt | --backend | \
		--jobs | --sample-ms | --slurm-opts | --client | --trace | --warmup | --hosts-per-class | --module-src | \
		--start-jitter)
		[[ $# -ge 2 ]] || bad "$1 needs a value" ;;
	*) bad "unknown option '$1'" ;;
	esac
	case $1 in
	--configs) CONFIGS=$2 ;; --out) OUT=$2 ;; --scenarios) SCEN=$2 ;; --seeds) SEEDS=$2 ;;
	--duration) DUR=$2 ;; --rate) RATE=$2 ;; --flows-per-rtt) FPR=$2 ;; --backend) BACKEND=$2 ;;
	--jobs) JOBS=$2 ;; --sample-ms) SAMPLE=$2 ;; --slurm-opts) SLURM_OPTS=$2 ;; --client) CLIENT=$2 ;;
	esac
	case $1 in # what a scenario file's jobs take from here only when given
	--duration | --rate | --flows-per-rtt | --sample-ms) FGIVEN+=("$1" "$2") ;;
	--trace) TRACE=$2 ;; --warmup) WARMUP=$2 ;; --hosts-per-class) HOSTS=$2 ;; --module-src) MSRC=$2 ;;
	--start-jitter) SJIT=$2 ;;
	esac
	shift 2
done
[[ -n $CONFIGS && -n $OUT ]] || bad "--configs and --out are required"
[[ -r $CONFIGS ]] || bad "cannot read $CONFIGS"
[[ -z $JOBS || $JOBS =~ ^[1-9][0-9]*$ ]] || bad "--jobs: '$JOBS' is not a positive integer"
[[ $SEEDS =~ ^[0-9]+(,[0-9]+)*$ ]] || bad "--seeds: '$SEEDS' is not a comma separated list of integers"
[[ -z $SJIT || $SJIT =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "--start-jitter: '$SJIT' is not a number of seconds"
if [[ -n $MSRC ]]; then # absolute, in the job lines (split at blanks) and the keys
	[[ -d $MSRC ]] || bad "--module-src: '$MSRC' is not a directory"
	MSRC=$(cd "$MSRC" && pwd)
	[[ $MSRC != *[[:space:]]* ]] || bad "--module-src: '$MSRC' has a blank in its path"
fi

list_jobs # JOBLIST, CHECKS (lib/screen_jobs.sh)
common=(--backend "$BACKEND" --duration "$DUR" --rate "$RATE" --flows-per-rtt "$FPR"
	--sample-ms "$SAMPLE" --client "$CLIENT")
# only when off: the job keys of runs with the trace (the default) stay what they were
[[ $TRACE == on ]] || common+=(--trace "$TRACE")
# only when given: the job keys of runs with the default warm-up stay what they were
[[ -z $WARMUP ]] || common+=(--warmup "$WARMUP")
# only when not 1: the job keys of runs with one host per class stay what they were
[[ -z $HOSTS || $HOSTS == 1 ]] || common+=(--hosts-per-class "$HOSTS")
# only when given: the job keys of runs whose flows start on time stay what they were
[[ -z $SJIT ]] || common+=(--jitter "$SJIT")
# only when given: a user's module, its sources' hash in the key (key_line)
[[ -z $MSRC ]] || common+=(--module-src "$MSRC")

# a scenario file's jobs: the options above that shape a run only when given here (a job's
# are job_common's, lib/screen_keys.sh)
fcommon=(--backend "$BACKEND" --client "$CLIENT" "${FGIVEN[@]}")
[[ $TRACE == on ]] || fcommon+=(--trace "$TRACE")
[[ -z $WARMUP ]] || fcommon+=(--warmup "$WARMUP")
[[ -z $HOSTS ]] || fcommon+=(--hosts-per-class "$HOSTS") # given here: over the file's
[[ -z $SJIT ]] || fcommon+=(--jitter "$SJIT")
[[ -z $MSRC ]] || fcommon+=(--module-src "$MSRC")

hashes "$BACKEND"
if ((!DRY)); then # one screen.sh at a time on DIR (a second would rewrite its jobs)
	results_dir "$OUT" || die "cannot create $OUT"
	exec {lockfd}>"$OUT/.screen.lock"
	flock -n "$lockfd" || die "another screen.sh is running on $OUT"
fi
todo=()
for j in "${JOBLIST[@]}"; do
	read -r key args <<<"$j"
	# shellcheck disable=SC2086
	state=$(job_state "$key" $args)
	if ((DRY)); then
		printf '%s %s\n' "$state" "$j"
	elif [[ $state == stale ]]; then
		log "$key: unfinished or made with other options or sources, runs again ($key.stale)"
		rm -rf "$OUT/$key.stale"
		mv "$OUT/$key" "$OUT/$key.stale"
	fi
	# shellcheck disable=SC2086
	job_common $args
	[[ $state == "done" ]] || todo+=("$key ${JC[*]} $args")
done
if ((DRY)); then
	((SLURM == 0 || ${#todo[@]} == 0)) || slurm_run "$OUT" "$JOBS" "$SLURM_OPTS" 1 "${todo[@]}"
	exit 0
fi
# validate the options through rtt_fairness.sh (exit 2 on bad values): every configuration
# (its cc item and module parameters) and every scenario once
for j in "${CHECKS[@]}"; do
	read -r _ args <<<"$j"
	# shellcheck disable=SC2086
	job_common $args
	# shellcheck disable=SC2086 # all it says when it fails, its warnings otherwise
	said=$("$REPO/testbed/rtt_fairness.sh" "${JC[@]}" $args --out "$OUT/.validate" --dry-run 2>&1 >/dev/null) ||
		{ printf '%s\n' "$said" >&2; exit 2; }
	grep 'warning' <<<"$said" >&2 || true
done
rm -rf "$OUT/.validate"
done_n=$((${#JOBLIST[@]} - ${#todo[@]})) failed=0
if ((SLURM)); then
	log "${#JOBLIST[@]} jobs, $done_n done already, ${#todo[@]} to run as a Slurm job array"
	if ((${#todo[@]})); then
		slurm_run "$OUT" "$JOBS" "$SLURM_OPTS" 0 "${todo[@]}" || failed=$?
	fi
else
	run_local
fi
/usr/bin/python3 "$REPO/testbed/analyze.py" --screen "$OUT" --screen-csv "$OUT/screen.csv" ||
	die "analysis failed"
((failed == 0)) || die "$failed job(s) failed"
exit
}
