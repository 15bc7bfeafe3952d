#!/bin/sh
# One connection through the testbed's dumbbell (one sender, 20 ms, 20 Mbit/s, 100 KB
# buffer) whose ACKs are all dropped for a while, so that the sender times out (RTO), with
# the module's gain trace on. Runs INSIDE a UML time-travel guest:
#   scripts/uml.sh run --out DIR -- sh tests/guest/rto_gap.sh CC START_S GAP_S [MODULE ARGS...]
# The flow sends for START_S + GAP_S + 3 s; ACKs are dropped from START_S for GAP_S, no
# data is lost: the first ACKs after the gap cover data never retransmitted, and TCP may
# find the RTO spurious (F-RTO) and undo it. Writes $BBR_A_OUT/flow.json
# (testbed/tcpflow.py), $BBR_A_OUT/trace.txt and $BBR_A_OUT/netstat.txt (the sender's TCP
# counters at the end).
set -eu
usage="usage: rto_gap.sh CC START_S GAP_S [MODULE ARGS...]"
cc=${1:?$usage} start=${2:?$usage} gap=${3:?$usage}
shift 3
: "${BBR_A_SRC:?run through scripts/uml.sh}" "${BBR_A_KO:?}" "${BBR_A_OUT:?}"

# shellcheck disable=SC2034 # read by topology.sh
TB_PREFIX=rto- TB_RTTS=20 TB_RATE=20 TB_BUF=100000 TB_LOSS=0
# shellcheck source=testbed/topology.sh
. "$BBR_A_SRC/testbed/topology.sh"
T=/sys/kernel/tracing
trap 'echo 0 >$T/events/bbr_a/bbr_a_gain/enable 2>/dev/null; tb_teardown' EXIT
insmod "$BBR_A_KO" "$@"
tb_setup
tb_sysctl s1 net/ipv4/tcp_congestion_control "$cc"
[ -d $T/events ] || mount -t tracefs nodev $T
echo 0 >$T/options/record-cmd
echo >$T/trace
echo 1 >$T/events/bbr_a/bbr_a_gain/enable
flow="$BBR_A_SRC/testbed/tcpflow.py"
tb_exec d python3 "$flow" server --port 5300 &
while ! tb_exec d "$TB_SS" -Hltn | grep -q ':5300 '; do sleep 0.1; done
(
	sleep "$start"
	tb_tcn d qdisc add dev eth0 root netem loss 100%
	sleep "$gap"
	tb_tcn d qdisc del dev eth0 root
) &
tb_exec s1 python3 "$flow" client --host "$TB_RCV_ADDR" --port 5300 \
	--plan "send:$(awk -v s="$start" -v g="$gap" 'BEGIN { print s + g + 3 }')" \
	--sample-ms 50 --out "$BBR_A_OUT/flow.json"
wait
echo 0 >$T/events/bbr_a/bbr_a_gain/enable
grep 'bbr_a_gain:' $T/trace >"$BBR_A_OUT/trace.txt"
tb_exec s1 cat /proc/net/netstat >"$BBR_A_OUT/netstat.txt"
