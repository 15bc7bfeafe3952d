#!/bin/sh
# Emulation cost probe (guest side, busybox ash): two bbr flows for SECONDS through an htb
# bottleneck of RATE Mbit/s (20 ms netem on the ACK path, 1 BDP bfifo). Prints "mark T0|T1
# <guest uptime>" around the transfer so the host can compare guest time with wall time:
#   scripts/guest.sh --kernel 6.1 --virtual-time -- sh tests/guest/perf_twoflow.sh 100 10 |
#     while IFS= read -r l; do echo "$(date +%s.%N) $l"; done
rate=${1:-100} secs=${2:-10}
modprobe tcp_bbr || exit 1
for ns in snd rtr rcv; do ip netns add $ns; ip -n $ns link set lo up; done
ip link add s0 netns snd type veth peer name r0 netns rtr
ip link add r1 netns rtr type veth peer name c0 netns rcv
ip -n snd addr add 10.9.1.1/24 dev s0; ip -n snd link set s0 up; ip -n snd route add default via 10.9.1.2
ip -n rtr addr add 10.9.1.2/24 dev r0; ip -n rtr link set r0 up
ip -n rtr addr add 10.9.2.1/24 dev r1; ip -n rtr link set r1 up
ip -n rcv addr add 10.9.2.2/24 dev c0; ip -n rcv link set c0 up; ip -n rcv route add default via 10.9.2.1
ip netns exec rtr sysctl -qw net.ipv4.ip_forward=1
for d in "snd s0" "rtr r0" "rtr r1" "rcv c0"; do set -- $d; ip netns exec $1 ethtool -K $2 tso off gso off gro off >/dev/null; done
bdp=$((rate * 1000000 / 8 * 20 / 1000))
tc -n rtr qdisc add dev r1 root handle 1: htb default 1
tc -n rtr class add dev r1 parent 1: classid 1:1 htb rate ${rate}mbit ceil ${rate}mbit burst 15k quantum 1514
tc -n rtr qdisc add dev r1 parent 1:1 bfifo limit $bdp
tc -n rtr qdisc add dev r0 root netem delay 20ms limit 100000
for p in 5301 5302; do ip netns exec rcv iperf3 -s -1 -p $p >/dev/null 2>&1 & done
sleep 1
echo "mark T0 $(cut -d' ' -f1 /proc/uptime)"
for p in 5301 5302; do
	ip netns exec snd iperf3 -c 10.9.2.2 -p $p -t "$secs" -C bbr -J >"$BBR_A_OUT/flow$p.json" &
done
wait
echo "mark T1 $(cut -d' ' -f1 /proc/uptime)"
for p in 5301 5302; do
	awk -v p=$p '/"sum_received"/ {f = 1} f && /"bits_per_second"/ {sub(/.*:/, ""); sub(/,/, "")
		printf "flow %s: %.2f Mbit/s\n", p, $0 / 1e6; exit}' "$BBR_A_OUT/flow$p.json"
done
