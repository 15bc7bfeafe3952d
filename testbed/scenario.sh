#!/bin/sh
# testbed/scenario.sh -- one RTT-fairness run on the dumbbell of topology.sh.
# POSIX sh: runs under busybox ash in the QEMU guest, under dash/bash as root on a host.
# Writes raw outputs only (no analysis: that is testbed/analyze.py, on the host).
# The pieces are in testbed/lib/: options.sh (the checks), flows.sh (the flow table),
# module.sh (the ccs and tcp_bbr_a), record.sh (params.env, counters, samplers, trace),
# traffic.sh (receivers and clients), paths.sh (the paths' options: jitter, route changes),
# hosts.sh (--hosts-per-class: several sender hosts per class), bottleneck.sh (another
# qdisc, rate changes, the reverse bottleneck), usage.sh (--help).
set -u
# One compound command: the shell reads the whole script before running it, so editing
# the file during a run cannot change the run. The libraries are sourced before anything
# runs, and each is one compound command too.
{

die() { echo "scenario: $*" >&2; exit 1; }
bad() { echo "scenario: error: $*" >&2; exit 2; }
log() { echo "scenario: $*" >&2; }
warn() { echo "scenario: warning: $*" >&2; }

CC=bbr RTTS='' FLOWS_PER_RTT=1 RATE='' BUFFER='' LOSS=0 DURATION='' WARMUP=5 STAGGER=0
STARTS='' JITTER=0 SEED=1 INTERVAL=1 SAMPLE_MS=100 MODULE_PARAMS='' LOAD='' PORT_BASE=5201
STREAMS=128 OUT='' MODE=run CLIENT=auto TRACE=on QDISC=bfifo QDISC_OPTS='' RATE_SCHEDULE=''
DELAY_SCHEDULE='' DELAY_JITTER='' ACK_AGGREGATION='' OFFLOADS=off RATE_TRACE='' REVERSE=''
SIZES='' ENDS='' GAP=0.1 FLENT='' HOSTS_PER_CLASS=1 INSMOD=''
# The libraries, found without starting a process (see TB_DIR below)
case $0 in */*) TB_SRC=${0%/*} ;; *) TB_SRC=. ;; esac
while [ $# -gt 0 ]; do
	# shellcheck source=testbed/lib/usage.sh
	case $1 in
	--plan) MODE=plan; shift; continue ;;
	--check) MODE=check; shift; continue ;;
	-h | --help) . "$TB_SRC/lib/usage.sh"; usage; exit 0 ;;
	esac
	[ $# -ge 2 ] || bad "$1 needs a value"
	case $1 in
	--cc) CC=$2 ;; --rtt) RTTS=$2 ;; --flows-per-rtt) FLOWS_PER_RTT=$2 ;; --rate) RATE=$2 ;;
	--buffer) BUFFER=$2 ;; --loss) LOSS=$2 ;; --duration) DURATION=$2 ;; --warmup) WARMUP=$2 ;;
	--stagger) STAGGER=$2 ;; --starts) STARTS=$2 ;; --jitter) JITTER=$2 ;; --seed) SEED=$2 ;;
	--interval) INTERVAL=$2 ;; --sample-ms) SAMPLE_MS=$2 ;; --port-base) PORT_BASE=$2 ;;
	--out) OUT=$2 ;; --streams) STREAMS=$2 ;; --module-param) MODULE_PARAMS="$MODULE_PARAMS $2" ;;
	--load) LOAD=$2 ;; --client) CLIENT=$2 ;; --trace) TRACE=$2 ;;
	--qdisc) QDISC=$2 ;; --qdisc-opts) QDISC_OPTS=$2 ;; --rate-schedule) RATE_SCHEDULE=$2 ;;
	--sizes) SIZES=$2 ;; --ends) ENDS=$2 ;; --gap) GAP=$2 ;; --flent) FLENT=$2 ;;
	--delay-schedule) DELAY_SCHEDULE=$2 ;; --delay-jitter) DELAY_JITTER=$2 ;;
	--ack-aggregation) ACK_AGGREGATION=$2 ;; --offloads) OFFLOADS=$2 ;; --rate-trace) RATE_TRACE=$2 ;;
	--reverse) REVERSE=$2 ;; --hosts-per-class) HOSTS_PER_CLASS=$2 ;; --insmod) INSMOD=$2 ;;
	*) bad "unknown option $1 (see --help)" ;;
	esac
	shift 2
done

# shellcheck source=testbed/lib/options.sh
. "$TB_SRC/lib/options.sh"
# shellcheck source=testbed/lib/paths.sh
. "$TB_SRC/lib/paths.sh"
# shellcheck source=testbed/lib/flows.sh
. "$TB_SRC/lib/flows.sh"
# shellcheck source=testbed/lib/hosts.sh
. "$TB_SRC/lib/hosts.sh"
# shellcheck source=testbed/lib/module.sh
. "$TB_SRC/lib/module.sh"
# shellcheck source=testbed/lib/record.sh
. "$TB_SRC/lib/record.sh"
# shellcheck source=testbed/lib/traffic.sh
. "$TB_SRC/lib/traffic.sh"
# shellcheck source=testbed/topology.sh
. "$TB_SRC/topology.sh"
# the bottleneck beyond a bfifo, only for the runs that change it: others read no more
# shellcheck source=testbed/lib/bottleneck.sh
[ -z "$RATE_SCHEDULE$RATE_TRACE$REVERSE$QDISC_OPTS" ] && [ "$QDISC" = bfifo ] || . "$TB_SRC/lib/bottleneck.sh"
# only with --flent: other runs read no more than they did
# shellcheck source=testbed/lib/flent.sh
[ -z "$FLENT" ] || . "$TB_SRC/lib/flent.sh"

check_options
[ "$MODE" != check ] || exit 0
if [ "$MODE" = plan ]; then
	t=$(mktemp -d) || die "mktemp failed"
	flow_table "$t/flows" "$t/groups" "$t/hosts" && echo "# flows: index class rtt_ms cc port start_s run_s group stream" &&
		cat "$t/flows" && echo "# iperf3 clients: group class cc port start_s run_s flows" && cat "$t/groups" &&
		{ [ "$TB_HOSTS" = 1 ] || { echo "# hosts: index class host namespace address" && cat "$t/hosts"; }; }
	rc=$?
	rm -rf "$t"
	exit $rc
fi
[ "$(id -u)" = 0 ] || die "must run as root (network namespaces, qdiscs)"

# Appended, not prepended: a guest may put its own tools first (UML's modprobe wrapper, which
# knows the kernel's built-in modules).
export PATH="$PATH:/sbin:/usr/sbin:/bin:/usr/bin"
# The absolute directory, for tcp_bbr_a.ko's default place, found here after the checks with
# the processes it always took here: on the UML backend each process draws from the seeded
# RNG in turn, and the same processes in another order (this before the checks) gave a
# staggered run other ports.
TB_DIR=$(cd "$(dirname "$0")" && pwd)
tb_find_tools || exit 1
if [ -n "$FLENT" ]; then flent_tools; else traffic_tools; fi
for t in awk timeout; do command -v $t >/dev/null 2>&1 || die "$t is required"; done
PING=ping
command -v ping >/dev/null 2>&1 || { command -v busybox >/dev/null 2>&1 && PING="busybox ping"; } ||
	die "ping is required (iputils-ping or busybox)"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
# Raw files are written to a scratch directory in local memory (in the guest, $OUT is a
# 9p share; per-line writes there would cost emulated time) and copied to $OUT on exit.
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/bbra-scen.XXXXXX") || die "mktemp failed"
PARAMS_FILE=$SCRATCH/params.env

SAMPLER_PIDS='' CLIENT_PIDS='' SERVER_PIDS='' SCHEDULE_PID='' TRACING=0
cleanup() {
	rc=$?
	# a second signal (the process group's and the caller's) must not cut this short
	trap '' INT TERM HUP
	trap - EXIT
	# shellcheck disable=SC2086
	[ -z "$SAMPLER_PIDS$CLIENT_PIDS$SERVER_PIDS$SCHEDULE_PID" ] ||
		kill $SAMPLER_PIDS $CLIENT_PIDS $SERVER_PIDS $SCHEDULE_PID 2>/dev/null
	stop_trace
	tb_teardown
	module_cleanup
	cp -r "$SCRATCH/." "$OUT/" && rm -rf "$SCRATCH" || echo "scenario: raw outputs left in $SCRATCH" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- congestion controls, the ones of --load first (see lib/module.sh) -------------------------
prepare=
for c in $LOAD $CCS ${REVERSE:+$REVERSE_CC}; do case " $prepare " in *" $c "*) ;; *) prepare="$prepare $c" ;; esac; done
module_insmod "$INSMOD"
# shellcheck disable=SC2086
module_prepare $prepare
# ss needs tcp_diag for tcp_info (cwnd, rtt, pacing rate, bbr state)
modprobe tcp_diag 2>/dev/null || [ -d /sys/module/tcp_diag ] ||
	log "warning: tcp_diag is not available: ss snapshots will lack tcp_info (cwnd, rtt, bbr)"

record_params
flow_table "$SCRATCH/flows.txt" "$SCRATCH/groups.txt" "$SCRATCH/hosts.txt" || exit 2
NFLOWS=$(wc -l < "$SCRATCH/flows.txt")
NGROUPS=$(wc -l < "$SCRATCH/groups.txt")
param flows "$NFLOWS"
param iperf3_clients "$NGROUPS"
param streams_per_client_max "$STREAMS"
[ -z "$FLENT" ] || CLIENT=flent
param client "$CLIENT"
param flow_table "index class rtt_ms cc port start_s run_s group stream (file flows.txt)"

# ---- topology --------------------------------------------------------------------------------
# shellcheck disable=SC2034 # read by tb_setup (topology.sh)
TB_RTTS=$RTTS TB_RATE=$RATE TB_BUF=$BUFFER TB_LOSS=$LOSS TB_QDISC=$QDISC TB_QDISC_OPTS=$QDISC_OPTS
tb_setup || die "topology setup failed"
param ns_prefix "$TB_PREFIX"
param sockbuf_bytes "$TB_SOCKBUF"
said='' said_hosts=''
[ "$QDISC" = bfifo ] || said=", $QDISC"
[ "$TB_HOSTS" = 1 ] || said_hosts=" x $TB_HOSTS hosts"
log "dumbbell up: $NCLASS sender class(es)$said_hosts, rtt {$RTTS} ms, $RATE Mbit/s, buffer $BUFFER B, loss $LOSS %${RATE_SCHEDULE:+, rate schedule $RATE_SCHEDULE}${DELAY_SCHEDULE:+, delay schedule $DELAY_SCHEDULE}${DELAY_JITTER:+, delay jitter $DELAY_JITTER}${ACK_AGGREGATION:+, ACK aggregation $ACK_AGGREGATION}${RATE_TRACE:+, rate trace $RATE_TRACE}$said"
[ "$OFFLOADS" = off ] || log "offloads: GSO and GRO on at the end hosts (TSO off)"

# base_ping HOST OUT: five replies from the receiver, for up to 30 s. Under heavy random
# loss (--loss 30) five requests alone can all be lost, and so can neighbour discovery's
# probes: ping then counts its "unreachable" errors towards -c and stops within seconds,
# so it is run again until the 30 s are up, or the run would stop before it started. The
# replies of a try that waited for discovery come late (170 ms and more on a 100 ms path),
# so after a failed try the RTT is taken from the try after the first that succeeds (or
# from that one, if none follows in time). A first try that succeeds is the only one.
base_ping() {
	tb_exec "$1" $PING -c 5 -w 30 -i 0.2 -q "$TB_RCV_ADDR" > "$2" 2>&1 && return 0
	bp_end=$(($(date +%s) + 30)) bp_ok=0
	while bp_left=$((bp_end - $(date +%s))) && [ "$bp_left" -gt 0 ]; do
		if tb_exec "$1" $PING -c 5 -w "$bp_left" -i 0.2 -q "$TB_RCV_ADDR" > "$2.try" 2>&1; then
			mv "$2.try" "$2"
			[ "$bp_ok" = 1 ] && return 0
			bp_ok=1
		fi
	done
	rm -f "$2.try"
	[ "$bp_ok" = 1 ]
}

k=1
for rtt in $RTTS; do
	tb_hosts $k
	for h in $TB_HOST_NAMES; do
		ping_out=$SCRATCH/ping_$h.txt
		base_ping "$h" "$ping_out" || die "ping from $h failed: $(tail -n 2 "$ping_out")"
		min=$(awk -F'= ' '/min\/avg\/max/ { split($2, a, "/"); print a[1] }' "$ping_out")
		[ -n "$min" ] || die "cannot parse ping output of $h"
		param "base_rtt_ms_$h" "$min"
		log "base RTT $h: $min ms (asked $rtt ms)"
	done
	k=$((k + 1))
done
record_counters start

# ---- receivers, samplers -----------------------------------------------------------------------
[ -n "$FLENT" ] || { start_receivers; start_reverse_receivers; }
start_samplers
start_trace

# ---- flows -----------------------------------------------------------------------------------
# The cc is each sender namespace's default, not iperf3 -C: -C sends the cc's name over the
# control connection while other flows run, so a bbr vs bbr_a run would differ by those bytes.
while read -r group class cc _; do
	kernel_cc "$cc" # bbr3 runs as the kernel's bbr (lib/module.sh)
	group_host "$group" "$class" # HOST: s<class>, or the group's host (lib/hosts.sh)
	"$TB_IP" netns exec "$(tb_ns "$HOST")" sh -c \
		"echo $KCC > /proc/sys/net/ipv4/tcp_congestion_control" ||
		die "cannot make $cc the congestion control of sender namespace $HOST"
done < "$SCRATCH/groups.txt"
read -r t0 _ < /proc/uptime
param t0_uptime "$t0"
start_rate_schedule
start_rate_trace
start_delay_schedule
if [ -n "$FLENT" ]; then
	start_flent
	log "flent $FLENT started, running ~$DURATION s"
	wait_flent
else
	start_clients
	start_reverse_clients
	log "$NFLOWS flow(s) started in $NGROUPS $CLIENT client(s)${REVERSE:+, $REVERSE_N reverse ($REVERSE_CC)}, running ~$DURATION s"
	wait_clients
	wait_reverse
fi
read -r t1 _ < /proc/uptime
param end_uptime "$t1"

# shellcheck disable=SC2086
[ -z "$SAMPLER_PIDS$SCHEDULE_PID" ] || kill $SAMPLER_PIDS $SCHEDULE_PID 2>/dev/null
SAMPLER_PIDS='' SCHEDULE_PID=''
record_final
param flows_failed "$FAILED"
param flows_not_connected "${NOT_CONNECTED:-0}" # wait_clients counts them; flent has none
[ "$FAILED" = 0 ] || die "$FAILED of $NGROUPS $CLIENT client(s) failed"
log "done: raw outputs in $OUT"
exit
}
