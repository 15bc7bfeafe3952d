#!/bin/sh
# One bulk flow through the testbed's dumbbell (one sender, 20 ms, 100 Mbit/s, 1 BDP bfifo),
# no samplers and no trace, for comparing the host CPU time a UML guest spends on two
# congestion controls that send the same packets. Runs INSIDE a UML time-travel guest:
#   scripts/uml.sh run -- sh scripts/uml/cost-flow.sh CC SECONDS [MODULE ARGS...]
# CC becomes the sender namespace's default (no name travels over the connection);
# tcp_bbr_a.ko is loaded in every run, with MODULE ARGS. Writes $BBR_A_OUT/flow.json.
set -eu
usage="usage: cost-flow.sh CC SECONDS [MODULE ARGS...]"
cc=${1:?$usage} secs=${2:?$usage}
shift 2
: "${BBR_A_SRC:?run through scripts/uml.sh}" "${BBR_A_KO:?}" "${BBR_A_OUT:?}"

# shellcheck disable=SC2034 # read by topology.sh
TB_PREFIX=cost- TB_RTTS=20 TB_RATE=100 TB_BUF=250000 TB_LOSS=0
# shellcheck source=testbed/topology.sh
. "$BBR_A_SRC/testbed/topology.sh"
trap tb_teardown EXIT
insmod "$BBR_A_KO" "$@"
tb_setup
tb_sysctl s1 net/ipv4/tcp_congestion_control "$cc"
flow="$BBR_A_SRC/testbed/tcpflow.py"
tb_exec d python3 "$flow" server --port 5300 &
while ! tb_exec d "$TB_SS" -Hltn | grep -q ':5300 '; do sleep 0.1; done
tb_exec s1 python3 "$flow" client --host "$TB_RCV_ADDR" --port 5300 --plan "send:$secs" \
	--out "$BBR_A_OUT/flow.json"
wait
