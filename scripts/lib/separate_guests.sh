# scripts/lib/separate_guests.sh -- scripts/separate_kernels.sh's guests: one UML guest of
# the net variant, and one run's guests (the router, then a sender per class), merged into
# a testbed run directory.
# shellcheck shell=bash
# Sourced by separate_kernels.sh; defines functions only. Uses its log, REPO, the options'
# variables, what it derives from them (RTT_LIST, BUFFER, BDP, P, TIMEOUT) and GUEST_PIDS and
# CPU_PID, which its cleanup stops.
{
# guest NAME DIR SEED LOG NETS... -- ARGS...: a UML guest of the net variant in real time,
# running scripts/separate_kernels/guest.sh ARGS, in the background (GUEST_PIDS)
guest() {
	local name=$1 dir=$2 seed=$3 nets=() sched=()
	shift 3
	((RT_PRIO == 0)) || sched=(chrt -f "$RT_PRIO")
	while [[ $1 != -- ]]; do nets+=(--net "$1"); shift; done
	shift
	# shellcheck disable=SC2016 # the guest's variable
	"${sched[@]}" "$REPO/scripts/uml.sh" run --real-time --seed "$seed" --mem "$MEM" --timeout "$TIMEOUT" \
		--out "$dir/$name" "${nets[@]}" -- sh '"$BBR_A_SRC"/scripts/separate_kernels/guest.sh' "$*" \
		>"$dir/$name.log" 2>&1 &
	GUEST_PIDS+=($!)
}

# one_run DIR SEED INDEX CCS... : the guests of one run (router, then s1..sK with the ccs of
# the classes), waited for; their outputs merged into DIR. INDEX: the cc item's position and
# the run's for it ("1 2"), rtt_fairness.sh's cc_index and repeat_index.
one_run() {
	local dir=$1 seed=$2 index=$3 k rc=0 start nets=() p d delays waited boots=()
	shift 3
	local ccs=("$@") n=$# rtts=("${RTT_LIST[@]:0:$#}")
	mkdir -p "$dir/guests"
	start=$(date +%s)
	/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" cpu "$dir/guests/cpu.csv" "$P" &
	CPU_PID=$!
	for ((k = 1; k <= n; k++)); do nets+=("transport=tap,ifname=${P}r$k,mac=02:00:00:00:0$k:01"); done
	guest router "$dir/guests" "$seed" "${nets[@]}" -- router "$RATE" "$BUFFER" "$SAMPLE_MS" "$DURATION" \
		"$FLOWS" "${rtts[@]}"
	# the senders' boots, each a random delay after the router's (drawn from the seed), in
	# order of delay
	# and their wall clocks' offsets from the host's, -OFFSET..+OFFSET ms (drawn after them)
	delays=$(awk -v s="$seed" -v n="$n" -v m="$STAGGER" -v o="$OFFSET" 'BEGIN { srand(s)
		for (k = 1; k <= n; k++) d[k] = rand() * m
		for (k = 1; k <= n; k++) printf "%.3f %d %d\n", d[k], k, int((2 * rand() - 1) * o)
	}' | sort -g)
	waited=0
	while read -r d k off; do
		sleep "$(awk -v d="$d" -v w="$waited" 'BEGIN { print d - w }')"
		waited=$d
		boots+=("boot_delay_s$k=$d" "clock_offset_ms_s$k=$off")
		guest "s$k" "$dir/guests" "$((seed * 10 + k))" "transport=tap,ifname=${P}s$k,mac=02:00:00:00:0$k:02" -- \
			sender "$k" "${ccs[k - 1]}" "$SAMPLE_MS" "$DURATION" "$FLOWS" "$off" "${MODULE_PARAMS[@]}"
	done <<<"$delays"
	for p in "${GUEST_PIDS[@]}"; do wait "$p" || rc=1; done
	GUEST_PIDS=()
	sleep 1
	kill "$CPU_PID" 2>/dev/null || true
	wait "$CPU_PID" 2>/dev/null || true
	CPU_PID=''
	if ((rc)); then
		for p in "$dir"/guests/*.log; do log "${p##*/}: $(tail -n 3 "$p" | tr '\n' ' ')"; done
		return 1
	fi
	/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" run "$dir/guests" "$dir" \
		rtts="${rtts[*]}" ccs="${ccs[*]}" flows="$FLOWS" rate="$RATE" buffer="$BUFFER" \
		buffer_bdp="$BUFFER_BDP" bdp="$BDP" duration="$DURATION" warmup="$WARMUP" cooldown=1 \
		seed="$seed" sample_ms="$SAMPLE_MS" wall_s=$(($(date +%s) - start)) rt_prio="$RT_PRIO" \
		cc_index="${index% *}" repeat_index="${index#* }" cpu="$dir/guests/cpu.csv" "${boots[@]}"
}
}
