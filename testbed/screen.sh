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

usage() {
	cat <<EOF
Usage: testbed/$PROG --configs FILE --out DIR [options]

  --configs FILE   one configuration per line: NAME CC [MODULE_PARAM=VALUE ...]
                   (# comments and blank lines ignored; NAME: letters, digits, - _ . +);
                   CC is an rtt_fairness.sh --cc item: a cc, or one per RTT class joined
                   by '+' (bbr_a_fair+cubic), which runs only at the scenarios with that
                   many RTT classes (the others are skipped); its harm to the incumbent
                   (the last cc) needs reference configurations, the incumbent alone and
                   against itself (testbed/README.md, "Mixed congestion controls and harm")
  --out DIR        results; job results in DIR/<NAME>/<SCENARIO>/seed<N>/; DIR/screen.csv
  --scenarios LIST comma separated NAME:RTTS:BDP[:LOSS[:FLOWS]], RTTS joined by '+';
                   LOSS percent random loss, FLOWS flows per RTT class, or a count per class
                   joined by '+' (1+4) (both: rtt_fairness.sh's --loss and --flows-per-rtt,
                   for this scenario) (default
                   b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5);
                   or @FILE[:POINT+POINT...], a scenario file (testbed/scenarios/*.ini):
                   one scenario per point of it (or per point named), named after the
                   point (the file's name without .ini when it has none); its jobs take --duration, --rate, --flows-per-rtt and
                   --sample-ms from this command line only when they are given here, and
                   their keys hold a hash of the file
  --seeds LIST     comma separated seeds (default 1,2,3)
  --duration S     seconds per run (default 30)
  --rate MBIT      bottleneck rate (default 100)
  --flows-per-rtt N  flows per RTT class, or a comma separated count per class (default 1)
  --backend B      rtt_fairness.sh backend (default uml)
  --jobs N         jobs at once (default: number of cores; with --slurm: as Slurm allows)
  --sample-ms MS   ss/tc sampling (default 0: off; the module's gain trace is always kept)
  --client C       rtt_fairness.sh --client: auto (default), tcpflow or iperf3; part of the
                   job key (results from before the option, made with iperf3, are stale)
  --trace on|off   rtt_fairness.sh --trace: the module's gain trace (default on; off is part
                   of the job key)
  --warmup S       rtt_fairness.sh --warmup: seconds left out of the statistics at the start
                   (default: rtt_fairness.sh's, 5; another value is part of the job key)
  --hosts-per-class N  rtt_fairness.sh --hosts-per-class: each class's flows from N sender
                   hosts (default 1; another value is part of the job key; a scenario
                   file's hosts_per_class otherwise)
  --slurm          run the jobs to do as one Slurm job array (sbatch --wait --array=1-N)
                   instead of here; task K runs line K of DIR/slurm/jobs.txt, its log is
                   DIR/slurm/task-K.log; results land where a local run puts them
  --slurm-opts S   more sbatch options, split at blanks (e.g. "--partition=p --time=1:00:00");
                   sbatch also reads its SBATCH_* environment variables
  --dry-run        list the jobs and whether each is done (done, todo or stale); with
                   --slurm also the sbatch command
  --run-job DIR K  run job line K of DIR/slurm/jobs.txt (what each Slurm array task runs)

A job is done when DIR/<NAME>/<SCENARIO>/seed<N>/ has summary.json and a job.key (the job's
rtt_fairness.sh arguments, hashes of the module sources and of the testbed's guest side, and
the kernel: scripts/uml.sh id on UML) that matches this call; a key from before keys named
the kernel matches when the rest does and summary.json's kernel is this one's release.
Anything else there (other options, another tcp_bbr_a.c, tcpflow.py or kernel, a job
stopped before its end) is stale: moved to seed<N>.stale and run again.
A finished run that is not a result (testbed/analyze.py --check: a traffic client that
failed or stopped early, a flow that did not last the run, a delivery far below the link
that no loss explains, TCP memory pressure) runs once more, except on UML (it would repeat
byte for byte); if it is still not one, it is kept and named, and the tables leave it out.
EOF
}
# The progress lines of parallel jobs carry the time of day.
log() { printf '%s: %s %s\n' "$PROG" "$(date +%H:%M:%S)" "$*" >&2; }

# kernel_id BACKEND: the kernel the jobs of BACKEND run on, as exactly as it is known without
# building or booting anything: UML's build (linux-source-6.1's version and a hash of the
# patches and config), the QEMU backend's newest 6.12 (rtt_fairness.sh's default), the host's
# release; "unknown" where it cannot be told (no kernel sources yet).
kernel_id() {
	case $1 in
	uml) "$REPO/scripts/uml.sh" id 2>/dev/null || echo unknown ;;
	qemu) "$REPO/scripts/kernels.sh" resolve 6.12 2>/dev/null || echo qemu-6.12 ;;
	host) uname -r ;;
	*) echo "$1" ;;
	esac
}
# hashes BACKEND: MODHASH, TBHASH and KERNELID, what a job's result depends on besides its
# arguments.
hashes() {
	MODHASH=$(module_source_hash "$REPO") || die "cannot hash the module sources"
	TBHASH=$(testbed_source_hash "$REPO") || die "cannot hash the testbed sources"
	KERNELID=$(kernel_id "$1")
}
# key_line ARGS: a job's job.key: its whole rtt_fairness.sh arguments, the hashes of the
# module and testbed sources and the kernel (what the result depends on), and for a
# scenario file's job (--scenario FILE) a hash of the file.
key_line() {
	local a prev='' shash=''
	for a; do
		[[ $prev != --scenario ]] || shash=" scenario=$(scenario_hash "$a")"
		prev=$a
	done
	printf '%s module=%s testbed=%s kernel=%s%s\n' "$*" "$MODHASH" "$TBHASH" "$KERNELID" "$shash"
}
# scenario_path FILE: FILE as rtt_fairness.sh --scenario finds it (here, else in the
# repository); scenario_hash FILE: 12 hex digits of its contents.
scenario_path() { if [[ -f $1 || $1 == /* ]]; then echo "$1"; else echo "$REPO/$1"; fi; }
scenario_hash() { sha256sum <"$(scenario_path "$1")" | cut -c1-12; }
# old_key_holds DIR KEY: a job.key written before keys named the kernel (all up to 0.5.0's
# committed results) is KEY without its kernel=, and still holds when the kernel its
# summary.json records (uname -r in the guest: 6.1.192) is the one KERNELID names
# (6.1.192-2-10c4e557b052: that release's build); the build's own patches it cannot tell.
old_key_holds() {
	local have k
	have=$(<"$1/job.key")
	[[ $have == "${2% kernel=*}" ]] || return 1
	k=$(grep -m1 -o '"kernel": "[^"]*"' "$1/summary.json") || return 1
	k=${k#*: \"} k=${k%\"}
	[[ -n $k && ($KERNELID == "$k" || $KERNELID == "$k"-*) ]]
}
# run_job KEY ARGS...: the one place a job runs, here or as a Slurm array task:
# rtt_fairness.sh ARGS into OUT/KEY (its output in OUT/KEY.log), then job.key, written last:
# a job is done only with it. A run that is not a result (analyze.py --check: a client that
# failed, flows that did not last the run, a delivery nothing on the path explains, TCP
# memory pressure) runs once more (its first log kept as KEY.log.1), but not on UML, whose
# runs repeat byte for byte; still not a result, it is kept with its key, so the screen does
# not run it again, and the analysis leaves it out of the tables and names it.
run_job() {
	local key=$1 dir=$OUT/$1 try why
	shift
	# a TERM (screen.sh's stop_jobs, scancel) stops the run this job started, then the job
	trap 'stop_child; exit 143' TERM
	for try in 1 2; do
		rm -rf "$dir"
		mkdir -p "$(dirname "$dir")"
		if ! run_child "$REPO/testbed/rtt_fairness.sh" "$@" --out "$dir" >"$dir.log" 2>&1; then
			log "$key FAILED: $(grep -m1 -E 'error:' "$dir.log" || tail -n1 "$dir.log") (see $dir.log)"
			return 1
		fi
		why=$(/usr/bin/python3 "$REPO/testbed/analyze.py" --check "$dir" 2>&1) && break
		why=${why//$'\n'/; }
		if ((try == 1)) && [[ " $* " != *" --backend uml "* ]]; then
			log "$key: not a result, runs once more: $why"
			mv "$dir.log" "$dir.log.1"
			continue
		fi
		((try == 2)) || why="$why (not run again: a UML run repeats byte for byte)"
		log "$key: NOT A RESULT, kept and left out of the tables: $why"
		break
	done
	key_line "$@" >"$dir/job.key.tmp" && mv "$dir/job.key.tmp" "$dir/job.key"
}

if [[ ${1:-} == --run-job ]]; then
	[[ $# -eq 3 && $3 =~ ^[1-9][0-9]*$ ]] || bad "--run-job needs DIR and a line number K"
	OUT=$2
	line=$(sed -n "$3p" "$OUT/slurm/jobs.txt") || die "cannot read $OUT/slurm/jobs.txt"
	[[ -n $line ]] || die "$OUT/slurm/jobs.txt has no line $3"
	[[ $line =~ --backend\ ([a-z]+) ]] || die "$OUT/slurm/jobs.txt line $3 has no --backend"
	hashes "${BASH_REMATCH[1]}"
	read -r key args <<<"$line"
	log "task $3: $key"
	# shellcheck disable=SC2086
	run_job "$key" $args
	exit
fi

CONFIGS='' OUT='' SCEN=b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5
SEEDS=1,2,3 DUR=30 RATE=100 FPR=1 BACKEND=uml JOBS='' SAMPLE=0 DRY=0 SLURM=0 SLURM_OPTS='' CLIENT=auto TRACE=on
WARMUP='' HOSTS='' FGIVEN=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) DRY=1; shift; continue ;;
	--slurm) SLURM=1; shift; continue ;;
	--configs | --out | --scenarios | --seeds | --duration | --rate | --flows-per-rtt | --backend | \
		--jobs | --sample-ms | --slurm-opts | --client | --trace | --warmup | --hosts-per-class)
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
	--trace) TRACE=$2 ;; --warmup) WARMUP=$2 ;; --hosts-per-class) HOSTS=$2 ;;
	esac
	shift 2
done
[[ -n $CONFIGS && -n $OUT ]] || bad "--configs and --out are required"
[[ -r $CONFIGS ]] || bad "cannot read $CONFIGS"
[[ -z $JOBS || $JOBS =~ ^[1-9][0-9]*$ ]] || bad "--jobs: '$JOBS' is not a positive integer"
[[ $SEEDS =~ ^[0-9]+(,[0-9]+)*$ ]] || bad "--seeds: '$SEEDS' is not a comma separated list of integers"

# jobs: "KEY DIR rtt_fairness-args..."; CHECKS: the first job of each configuration and of
# each scenario, which rtt_fairness.sh --dry-run checks before anything runs
JOBLIST=() CHECKS=() SKIPPED=0 nconfigs=0
declare -A checked=()
IFS=, read -r -a scenarios <<<"$SCEN"
IFS=, read -r -a seeds <<<"$SEEDS"
while read -r name cc params; do
	[[ -z $name || $name == \#* ]] && continue
	[[ $name =~ ^[A-Za-z0-9._+-]+$ ]] || bad "$CONFIGS: bad configuration name '$name'"
	[[ -n $cc ]] || bad "$CONFIGS: configuration $name has no congestion control"
	nconfigs=$((nconfigs + 1))
	margs=()
	for p in $params; do margs+=(--module-param "$p"); done
	parts=${cc//[!+]/}
	for sc in "${scenarios[@]}"; do
		if [[ $sc == @* ]]; then # a scenario file: a scenario per point, checked by rtt_fairness.sh
			f=${sc#@} want=''
			[[ $f != *:* ]] || { want=${f##*:} && f=${f%:*}; }
			[[ -f $(scenario_path "$f") ]] || bad "--scenarios: no scenario file '$f'"
			# in the repository: its path from there, so that the job keys name no machine
			[[ $f != "$REPO"/* ]] || f=${f#"$REPO"/}
			pts=$(/usr/bin/python3 "$REPO/testbed/scenario_file.py" points "$(scenario_path "$f")" 2>&1) ||
				bad "--scenarios: ${pts#scenario_file.py: error: }"
			if [[ -n $want ]]; then
				for pt in ${want//+/ }; do
					[[ $'\n'$pts$'\n' == *$'\n'$pt$'\n'* ]] || bad "--scenarios: $f has no point '$pt' (it has: $(echo $pts))"
				done
				pts=${want//+/ }
			fi
			[[ -n $pts ]] || { pts=${f##*/} && pts=-${pts%.ini}; }
			for pt in $pts; do
				sname=${pt#-} sargs="--scenario $f"
				[[ $pt == -* ]] || sargs+=" --point $pt"
				[[ $sname =~ ^[A-Za-z0-9._+-]+$ ]] || bad "$f: point '$sname' is not a name for a directory"
				for s in "${seeds[@]}"; do
					JOBLIST+=("$name/$sname/seed$s --cc $cc $sargs --seed $s ${margs[*]}")
				done
				for k in "config $name" "scenario $sname"; do
					[[ -n ${checked[$k]:-} ]] || { checked[$k]=1; CHECKS+=("${JOBLIST[-1]}"); }
				done
			done
			continue
		fi
		IFS=: read -r sname rtts bdp loss flows extra <<<"$sc"
		[[ -n $sname && -n $rtts && -n $bdp && -z $extra ]] ||
			bad "--scenarios: bad item '$sc' (NAME:RTTS:BDP[:LOSS[:FLOWS_PER_RTT]])"
		# a cc per RTT class: only where the scenario has that many classes
		if [[ -n $parts && ${rtts//[!+]/} != "$parts" ]]; then
			SKIPPED=$((SKIPPED + ${#seeds[@]}))
			continue
		fi
		sargs="--rtt ${rtts//+/,} --buffer-bdp $bdp${loss:+ --loss $loss}${flows:+ --flows-per-rtt ${flows//+/,}}"
		for s in "${seeds[@]}"; do
			JOBLIST+=("$name/$sname/seed$s --cc $cc $sargs --seed $s ${margs[*]}")
		done
		for k in "config $name" "scenario $sname"; do
			[[ -n ${checked[$k]:-} ]] || { checked[$k]=1; CHECKS+=("${JOBLIST[-1]}"); }
		done
	done
done <"$CONFIGS"
((nconfigs)) || bad "$CONFIGS: no configurations"
[[ ${#JOBLIST[@]} -gt 0 ]] ||
	bad "no jobs: each configuration names a cc per RTT class ('+') for scenarios with another number of classes"
((SKIPPED == 0)) || log "$SKIPPED job(s) skipped: a configuration's '+' item names another number of ccs than the scenario has RTT classes"
common=(--backend "$BACKEND" --duration "$DUR" --rate "$RATE" --flows-per-rtt "$FPR"
	--sample-ms "$SAMPLE" --client "$CLIENT")
# only when off: the job keys of runs with the trace (the default) stay what they were
[[ $TRACE == on ]] || common+=(--trace "$TRACE")
# only when given: the job keys of runs with the default warm-up stay what they were
[[ -z $WARMUP ]] || common+=(--warmup "$WARMUP")
# only when not 1: the job keys of runs with one host per class stay what they were
[[ -z $HOSTS || $HOSTS == 1 ]] || common+=(--hosts-per-class "$HOSTS")

# a scenario file's jobs: the options above that shape a run only when given here
fcommon=(--backend "$BACKEND" --client "$CLIENT" "${FGIVEN[@]}")
[[ $TRACE == on ]] || fcommon+=(--trace "$TRACE")
[[ -z $WARMUP ]] || fcommon+=(--warmup "$WARMUP")
[[ -z $HOSTS ]] || fcommon+=(--hosts-per-class "$HOSTS") # given here: over the file's
# job_common ARGS: JC, the common options of the job with these arguments
job_common() { if [[ " $* " == *" --scenario "* ]]; then JC=("${fcommon[@]}"); else JC=("${common[@]}"); fi; }

hashes "$BACKEND"
# job_key ARGS: the job.key of the job with these arguments (besides the common ones).
job_key() { job_common "$@"; key_line "${JC[@]}" "$@"; }
# job_state KEY ARGS: done (a result with this job key, or with the same key from before keys
# named the kernel, made on this kernel), stale (a result without it: another key, or none,
# as a job stopped before its end or made before job keys existed) or todo.
job_state() {
	local d=$OUT/$1 want
	shift
	want=$(job_key "$@")
	if [[ ! -d $d ]]; then
		echo todo
	elif [[ -f $d/summary.json && -f $d/job.key ]] &&
		{ [[ $(<"$d/job.key") == "$want" ]] || old_key_holds "$d" "$want"; }; then
		echo "done"
	else
		echo stale
	fi
}
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
	JOBS=${JOBS:-$(nproc)}
	log "${#JOBLIST[@]} jobs, $done_n done already, ${#todo[@]} to run, $JOBS at once"
	started=$(date +%s) finished=0 running=0
	# On INT or TERM every running job gets a TERM; its run_job stops the run it started
	# (rtt_fairness.sh stops its guest) and ends, and all are waited for.
	stop_jobs() {
		local p
		for p in $(jobs -pr); do
			kill -TERM "$p" 2>/dev/null || true
		done
		wait || true
	}
	trap 'stop_jobs; exit 130' INT TERM
	reap() {
		wait -n || failed=$((failed + 1))
		finished=$((finished + 1)) running=$((running - 1))
		local el=$(($(date +%s) - started))
		log "$finished/${#todo[@]} jobs finished, $failed failed, ${el}s elapsed, ~$((el * (${#todo[@]} - finished) / finished))s left"
	}
	for j in "${todo[@]}"; do
		while ((running >= JOBS)); do reap; done
		# Two failures and no success yet: the setup, not the jobs (a missing package, no
		# kernel sources); running the rest would only fail them all the same way.
		if ((failed >= 2 && failed == finished)); then
			while ((running > 0)); do reap; done
			((failed < finished)) || die "the first $failed jobs failed and none succeeded: no more started (the cause is in the lines above; fix it and run the same command again, which does only what is missing)"
		fi
		# shellcheck disable=SC2086
		run_job $j &
		running=$((running + 1))
	done
	while ((running > 0)); do reap; done
fi
/usr/bin/python3 "$REPO/testbed/analyze.py" --screen "$OUT" --screen-csv "$OUT/screen.csv" ||
	die "analysis failed"
((failed == 0)) || die "$failed job(s) failed"
exit
}
