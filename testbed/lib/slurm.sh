# testbed/lib/slurm.sh -- a screen's jobs as one Slurm job array (testbed/screen.sh --slurm).
# shellcheck shell=bash
# Sourced by screen.sh after scripts/lib/common.sh; defines functions only. Uses die, log,
# REPO. Each array task runs `screen.sh --run-job DIR K`, the code a local job runs.

# slurm_run DIR THROTTLE OPTS DRY JOB...: JOB is "KEY ARGS..." (ARGS: all of its
# rtt_fairness.sh arguments). Writes DIR/slurm/jobs.txt (line K: the job of array task K) and
# DIR/slurm/array.sh, submits them as one `sbatch --wait --array=1-N[%THROTTLE] OPTS` (OPTS
# split at blanks; THROTTLE '' = as many tasks at once as Slurm gives) and returns when the
# array has ended: 0 when every job has its result, else the number of jobs without one (at
# most 255), after naming them and their logs. DRY=1: print the sbatch command, do nothing.
slurm_run() {
	local out=$1 throttle=$2 opts=$3 dry=$4
	shift 4
	local sd=$out/slurm n=$# extra=() rc=0 k=0 key failed=0
	read -r -a extra <<<"$opts"
	[[ $out == /* ]] || out=$PWD/$out sd=$PWD/$sd # a task may start in another directory
	SLURM_NAME=screen:${out##*/}
	SLURM_CMD=(sbatch --wait --parsable --array="1-$n${throttle:+%$throttle}"
		--job-name="$SLURM_NAME" --output="$sd/task-%a.log" "${extra[@]}" "$sd/array.sh")
	if ((dry)); then
		log "would submit: ${SLURM_CMD[*]}"
		return 0
	fi
	command -v sbatch >/dev/null ||
		die "--slurm: sbatch not found (run on a host that submits Slurm jobs, or without --slurm)"
	mkdir -p "$sd"
	rm -f "$sd"/task-*.log "$sd/sbatch.out"
	printf '%s\n' "$@" >"$sd/jobs.txt"
	{
		printf '#!/usr/bin/env bash\n# Slurm array task K: job line K of jobs.txt beside this file.\n'
		printf 'exec %q --run-job %q "$SLURM_ARRAY_TASK_ID"\n' "$REPO/testbed/screen.sh" "$out"
	} >"$sd/array.sh"
	log "submitting: ${SLURM_CMD[*]}"
	# In the background, so that a signal reaches the trap (which cancels the array) at once.
	"${SLURM_CMD[@]}" >"$sd/sbatch.out" &
	SLURM_PID=$! SLURM_DIR=$sd
	trap slurm_cancel INT TERM
	wait "$SLURM_PID" || rc=$?
	trap - INT TERM
	[[ -s $sd/sbatch.out ]] ||
		die "--slurm: submission failed (sbatch exit status $rc; its message is above)"
	log "Slurm job $(<"$sd/sbatch.out") ended (sbatch exit status $rc)"
	while read -r key _; do
		k=$((k + 1))
		[[ -f $out/$key/summary.json && -f $out/$key/job.key ]] && continue
		log "task $k ($key) FAILED (see $sd/task-$k.log and $out/$key.log)"
		failed=$((failed + 1))
	done <"$sd/jobs.txt"
	return $((failed > 255 ? 255 : failed))
}

# slurm_cancel: on INT/TERM while the array runs: cancel it, stop sbatch, exit 130.
slurm_cancel() {
	local id
	id=$(cat "$SLURM_DIR/sbatch.out" 2>/dev/null) || true
	log "interrupted: cancelling Slurm job ${id:-(id not known yet; by name)}"
	if [[ -n $id ]]; then
		scancel "${id%%;*}"
	else
		scancel --name="$SLURM_NAME" --user="$(id -un)"
	fi
	kill "$SLURM_PID" 2>/dev/null
	exit 130
}
