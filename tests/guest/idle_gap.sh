#!/bin/sh
# One connection that sends, stays idle for a long time, and sends again, through the
# testbed's dumbbell (one sender, 20 ms, 20 Mbit/s, 100 KB buffer). Runs INSIDE a UML
# time-travel guest (virtual time makes the gap cost nothing):
#   scripts/uml.sh run --out DIR -- sh tests/guest/idle_gap.sh CC IDLE_SECONDS [MODULE ARGS...]
# CC becomes the sender namespace's default congestion control (no name travels over the
# connection). tcp_bbr_a.ko is loaded in every run, with MODULE ARGS, so runs of different
# CCs draw the same random numbers. Writes $BBR_A_OUT/flow.json (testbed/tcpflow.py) and
# $BBR_A_OUT/trace.txt, the module's gain trace (read once at the end, as the testbed does:
# a live reader would move UML's clock).
set -eu
cc=${1:?usage: idle_gap.sh CC IDLE_SECONDS [MODULE ARGS...]}
idle=${2:?usage: idle_gap.sh CC IDLE_SECONDS [MODULE ARGS...]}
shift 2
: "${BBR_A_SRC:?run through scripts/uml.sh}" "${BBR_A_KO:?}" "${BBR_A_OUT:?}"

# shellcheck disable=SC2034 # read by topology.sh
TB_PREFIX=idle- TB_RTTS=20 TB_RATE=20 TB_BUF=${IDLE_GAP_BUF:-100000} TB_LOSS=0
# shellcheck source=testbed/topology.sh
. "$BBR_A_SRC/testbed/topology.sh"
trap tb_teardown EXIT
insmod "$BBR_A_KO" "$@"
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr
echo 16384 >$tr/buffer_size_kb
echo counter >$tr/trace_clock
echo >$tr/trace
echo 1 >$tr/events/bbr_a/bbr_a_gain/enable
tb_setup
tb_sysctl s1 net/ipv4/tcp_congestion_control "$cc"
flow="$BBR_A_SRC/testbed/tcpflow.py"
tb_exec d python3 "$flow" server --port 5300 &
while ! tb_exec d "$TB_SS" -Hltn | grep -q ':5300 '; do sleep 0.1; done
tb_exec s1 python3 "$flow" client --host "$TB_RCV_ADDR" --port 5300 \
	--plan "send:3,idle:$idle,send:3" --sample-ms 50 --out "$BBR_A_OUT/flow.json"
wait
echo 0 >$tr/events/bbr_a/bbr_a_gain/enable
cat $tr/trace >"$BBR_A_OUT/trace.txt"
