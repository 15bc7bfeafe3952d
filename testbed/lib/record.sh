# testbed/lib/record.sh -- what a run records besides its flows: params.env, counters before
# and after, ss/tc samples, the module's gain trace.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh; defines functions only. Writes into SCRATCH; uses
# scenario.sh's log, the checked options, lib/module.sh and topology.sh's tb_* functions.
{

param() { printf '%s=%s\n' "$1" "$2" >> "$PARAMS_FILE"; }

# record_params: the first lines of params.env: the kernel, the module, the options
record_params() {
	: > "$PARAMS_FILE"
	module_record
	param kernel "$(uname -r)"
	param kernel_series "${BBR_A_KERNEL:-host}"
	param module_version "$MODULE_VERSION"
	# shellcheck disable=SC2086 # joins the words with single spaces
	param module_params "$(echo $MODULE_PARAMS)"
	# shellcheck disable=SC2086
	param cc "$(echo $CCS)"
	# shellcheck disable=SC2086
	param rtts_ms "$(echo $RTTS)"
	param flows_per_rtt "$FLOWS_PER_RTT"
	param rate_mbit "$RATE"
	param buffer_bytes "$BUFFER"
	param loss_pct "$LOSS"
	param duration_s "$DURATION"
	param warmup_s "$WARMUP"
	param stagger_s "$STAGGER"
	param starts_s "$STARTS"
	param jitter_s "$JITTER"
	param seed "$SEED"
	param interval_s "$INTERVAL"
	param sample_ms "$SAMPLE_MS"
	param available_cc "$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
	# bbr3 is the kernel's bbr (lib/module.sh), recorded only where a run asked for it
	[ -z "${bbr_version:-}" ] || param bbr3_kernel_cc "bbr (tcp_bbr version $bbr_version)"
	# what runs before these options did not have is recorded only when given, so their
	# params.env stays as it was
	[ "$QDISC" = bfifo ] || param qdisc "$QDISC"
	[ -z "$QDISC_OPTS" ] || param qdisc_opts "$QDISC_OPTS"
	[ -z "$RATE_SCHEDULE" ] || param rate_schedule "$RATE_SCHEDULE"
	[ -z "$DELAY_SCHEDULE" ] || param delay_schedule "$DELAY_SCHEDULE"
	[ -z "$DELAY_JITTER" ] || param delay_jitter "$DELAY_JITTER"
	[ -z "$ACK_AGGREGATION" ] || param ack_aggregation "$ACK_AGGREGATION"
	[ "$OFFLOADS" = off ] || param offloads "$OFFLOADS"
	[ "$HOSTS_PER_CLASS" = 1 ] || param hosts_per_class "$HOSTS_PER_CLASS"
	[ -z "$REVERSE" ] || param reverse "$REVERSE"
	[ -z "$RATE_TRACE" ] || { param rate_trace "$RATE_TRACE"; param rate_trace_changes "$RATE_TRACE_CHANGES"; }
	[ -z "$SIZES" ] || { param sizes "$SIZES"; param gap_s "$GAP"; }
	[ -z "$ENDS" ] || param ends_s "$ENDS"
}

# Samplers write raw snapshots, each after a line "@ <uptime seconds>"; their pids go to
# SAMPLER_PIDS. With BBR_A_SAMPLER (testbed/sampler.c; the UML runner provides it) one
# process samples every namespace over netlink and writes the same files; otherwise a shell
# loop per namespace starts ss or tc for every sample.
start_samplers() {
	[ "$SAMPLE_MS" -gt 0 ] || return 0
	nsdir=/run/netns
	[ -d $nsdir ] || nsdir=/var/run/netns
	if [ -x "${BBR_A_SAMPLER:-}" ]; then
		set --
		sender_hosts # every sender namespace (lib/hosts.sh): s1..sK with one host per class
		for h in $SENDER_HOSTS; do set -- "$@" tcp "$nsdir/$(tb_ns "$h")" "$SCRATCH/ss_$h.txt"; done
		"$BBR_A_SAMPLER" "$SAMPLE_MS" $((DURATION + 600)) "$TB_RCV_ADDR" "$@" \
			qdisc "$nsdir/$(tb_ns r)" to_rcv "$SCRATCH/tc.txt" 2> "$SCRATCH/sampler.err" &
		SAMPLER_PIDS="$SAMPLER_PIDS $!"
		param sampler netlink
		return
	fi
	param sampler ss-tc
	period_s=$(awk -v m="$SAMPLE_MS" 'BEGIN { print m / 1000 }')
	loop='while :; do read -r up _ < /proc/uptime; echo "@ $up"; "$@"; sleep '$period_s'; done'
	sender_hosts
	for h in $SENDER_HOSTS; do
		tb_exec "$h" sh -c "$loop" sampler "$TB_SS" -tinH dst "$TB_RCV_ADDR" > "$SCRATCH/ss_$h.txt" 2>&1 &
		SAMPLER_PIDS="$SAMPLER_PIDS $!"
	done
	tb_exec r sh -c "$loop" sampler "$TB_TC" -s -j qdisc show dev to_rcv > "$SCRATCH/tc.txt" 2>&1 &
	SAMPLER_PIDS="$SAMPLER_PIDS $!"
}

# The module's tracepoint bbr_a:bbr_a_gain, one event per round (or change of gain reason)
# per flow of the module's ccs, kept in the kernel's ring buffer and read once, after the flows
# (stop_trace). A live trace_pipe reader woke at each event, and with a receiver that read
# per 64 KB that moved UML's clock: a bbr_a adaptive=0 run no longer equalled the bbr run.
# Set up in every run where the module is loaded (bbr runs of a comparison too) and with
# --trace off, which only leaves the event disabled: the same processes either way.
# TRACING=1 from here to stop_trace.
TRACEFS=/sys/kernel/tracing
TRACE_BUF_KB=32768 # per CPU: a few 100k events; when full, the oldest are overwritten
start_trace() {
	[ -d "$MODULE_DIR" ] || return 0
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	if [ ! -d $TRACEFS/events/bbr_a ]; then
		log "warning: no tracefs event bbr_a/bbr_a_gain: no gain trace (kernel without tracing?)"
		return 0
	fi
	echo $TRACE_BUF_KB > $TRACEFS/buffer_size_kb 2>/dev/null ||
		log "warning: cannot size the trace buffer; the gain trace may lose its first events"
	echo > $TRACEFS/trace
	# Events carry their time as t_us (TCP's clock, CLOCK_MONOTONIC); the "counter" clock
	# reads no clock, and on UML every clock read in a process moves the guest's time.
	echo counter > $TRACEFS/trace_clock
	trace_clock_offset
	[ "$TRACE" = off ] || echo 1 > $TRACEFS/events/bbr_a/bbr_a_gain/enable
	TRACING=1
}
# trace_clock_offset: param trace_offset_cs, what to add to an event's t_us (CLOCK_MONOTONIC)
# to put it on /proc/uptime's clock (CLOCK_BOOTTIME), in 1/100 s: the time the machine has
# spent suspended, 0 on a server or a guest. Shell builtins only (no process to start).
trace_clock_offset() {
	read -r up _ < /proc/uptime
	mono=
	while read -r a b ns _; do
		[ "$a $b" = "now at" ] && { mono=$ns; break; }
	done < /proc/timer_list
	if [ -z "$mono" ]; then
		log "warning: no 'now at' in /proc/timer_list: the gain trace is put on the uptime clock unshifted"
		param trace_offset_cs 0
		return 0
	fi
	cs=${up#*.}
	cs=${cs#0} # "07" is not octal 7 to $(( ))
	param trace_offset_cs $((${up%.*} * 100 + cs - mono / 10000000))
}
# stop_trace: disable the event and write the buffer to trace.txt; say if events were lost.
stop_trace() {
	[ "$TRACING" = 1 ] || return 0
	TRACING=0
	echo 0 > $TRACEFS/events/bbr_a/bbr_a_gain/enable
	cat $TRACEFS/trace > "$SCRATCH/trace.txt"
	lost=$(cat $TRACEFS/per_cpu/cpu*/stats 2>/dev/null | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	[ "$lost" = 0 ] || log "warning: the gain trace lost its first $lost events (buffer $TRACE_BUF_KB KB per CPU)"
	echo > $TRACEFS/trace
}

# record_counters start|end: the senders' /proc/net/snmp (each sender host's) and the softnet
# counters; at the end also every end host's /proc/net/netstat (TcpExt: memory pressure,
# pruned receive queues; a new namespace's counters start at 0), read after the flows so
# that the runs' random streams stay as they were
record_counters() {
	[ "$1" = end ] || cat /proc/net/softnet_stat > "$SCRATCH/softnet_start.txt" 2>/dev/null
	sender_hosts
	for h in $SENDER_HOSTS; do tb_exec "$h" cat /proc/net/snmp > "$SCRATCH/snmp_${h}_$1.txt"; done
	[ "$1" = start ] && return
	cat /proc/net/softnet_stat > "$SCRATCH/softnet_end.txt" 2>/dev/null
	param tcp_mem "$(tr "\t" " " < /proc/sys/net/ipv4/tcp_mem)" # the limit the run had (topology.sh)
	for n in d $(k=1; while [ $k -le "$NCLASS" ]; do echo "s$k"; k=$((k + 1)); done); do
		tb_exec "$n" cat /proc/net/netstat > "$SCRATCH/netstat_${n}_end.txt" 2>/dev/null
	done
	# the other hosts of each class (--hosts-per-class): no process with one host per class
	for h in $SENDER_HOSTS; do
		case $h in *h*) tb_exec "$h" cat /proc/net/netstat > "$SCRATCH/netstat_${h}_end.txt" 2>/dev/null ;; esac
	done
}

# record_final: the qdiscs' and links' counters, the counters, the end of the kernel log
record_final() {
	for n in r l ${REVERSE:+d}; do
		[ -e "/run/netns/$(tb_ns $n)" ] || [ -e "/var/run/netns/$(tb_ns $n)" ] || continue
		{ echo "### namespace $n"; tb_tcn $n -s qdisc show; tb_ipn $n -s link show; } >> "$SCRATCH/tc_final.txt" 2>&1
	done
	record_counters end
	# --offloads on: what the end hosts' interfaces had (a process only with the option)
	[ "$OFFLOADS" = off ] || for n in s1 d; do
		{ echo "### namespace $n"; tb_exec $n "$TB_ETHTOOL" -k eth0; } >> "$SCRATCH/offloads.txt" 2>&1
	done
	dmesg 2>/dev/null | tail -n 40 > "$SCRATCH/dmesg_tail.txt"
}
}
