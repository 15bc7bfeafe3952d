#!/bin/sh
# Small dumbbell for UML checks (POSIX sh; runs in the guest as root, needs iperf3/ip/tc).
# Senders s1..sN -- router -- receiver. The router shapes toward the receiver (htb + bfifo)
# and delays toward each sender (netem on the ACK path). One iperf3 flow per sender; each
# flow's iperf3 JSON goes to OUTDIR/flowI.json.
#
# usage: det-scenario.sh [-t SEC] [-r MBIT] [-b BYTES] [-d MS[,MS...]] [-c CC[,CC...]] [-S]
#                        [-k "insmod args"] [-o OUTDIR]
#   -d one delay per flow (default 10,50); -c one cc for all flows or one per flow;
#   -S sets the cc as each sender namespace's default (sysctl) instead of iperf3 -C: iperf3
#      then sends no cc name over its control connection, whose length would otherwise
#      shift packet timings (bbr vs bbr_a runs could not be compared byte for byte);
#   -k loads $BBR_A_KO with these module args before the flows (needed for bbr_a).
set -eu

secs=10 rate=100 buf=375000 delays=10,50 ccs=bbr koargs='' out=${BBR_A_OUT:-/tmp}
ko_load=0 ccdefault=0
while getopts t:r:b:d:c:k:o:S opt; do
	case $opt in
	t) secs=$OPTARG ;;
	r) rate=$OPTARG ;;
	b) buf=$OPTARG ;;
	d) delays=$OPTARG ;;
	c) ccs=$OPTARG ;;
	k) koargs=$OPTARG ko_load=1 ;;
	o) out=$OPTARG ;;
	S) ccdefault=1 ;;
	*) echo "usage: see $0" >&2; exit 2 ;;
	esac
done

IP=/sbin/ip TC=/sbin/tc
nsx() { ns=$1; shift; "$IP" netns exec "$ns" "$@"; }
# word I (1-based) of a comma list, or its last word when the list is shorter
pick() { echo "$1" | awk -F, -v i="$2" '{ print (i <= NF) ? $i : $NF }'; }
nflows=$(echo "$delays" | awk -F, '{ print NF }')

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	for ns in rcv rtr $(seq 1 "$nflows" | sed 's/^/s/'); do
		"$IP" netns del "$ns" 2>/dev/null || true
	done
}
trap cleanup EXIT

if [ "$ko_load" = 1 ] || echo "$ccs" | grep -q bbr_a; then
	[ -n "${BBR_A_KO:-}" ] || { echo "det-scenario: BBR_A_KO not set" >&2; exit 1; }
	# shellcheck disable=SC2086 # koargs: one word per module parameter
	grep -q '^tcp_bbr_a ' /proc/modules || insmod "$BBR_A_KO" $koargs
fi

"$IP" netns add rtr
"$IP" netns add rcv
"$IP" link add rtr-rcv type veth peer name rcv-eth
"$IP" link set rtr-rcv netns rtr
"$IP" link set rcv-eth netns rcv
nsx rtr "$IP" addr add 10.0.100.1/24 dev rtr-rcv
nsx rcv "$IP" addr add 10.0.100.2/24 dev rcv-eth
i=1
while [ "$i" -le "$nflows" ]; do
	"$IP" netns add "s$i"
	"$IP" link add "rtr-s$i" type veth peer name "s$i-eth"
	"$IP" link set "rtr-s$i" netns rtr
	"$IP" link set "s$i-eth" netns "s$i"
	nsx rtr "$IP" addr add "10.0.$i.1/24" dev "rtr-s$i"
	nsx "s$i" "$IP" addr add "10.0.$i.2/24" dev "s$i-eth"
	i=$((i + 1))
done
for ns in rtr rcv $(seq 1 "$nflows" | sed 's/^/s/'); do
	nsx "$ns" "$IP" link set lo up
	for dev in $(nsx "$ns" "$IP" -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2 }'); do
		nsx "$ns" ethtool -K "$dev" tso off gso off gro off 2>/dev/null || true
		nsx "$ns" "$IP" link set "$dev" up
	done
done
nsx rtr sysctl -qw net.ipv4.ip_forward=1
nsx rcv "$IP" route add default via 10.0.100.1
i=1
while [ "$i" -le "$nflows" ]; do
	nsx "s$i" "$IP" route add default via "10.0.$i.1"
	# ACK-path delay; limit generous enough for a BDP of packets
	nsx rtr "$TC" qdisc add dev "rtr-s$i" root netem delay "$(pick "$delays" "$i")ms" limit 100000
	i=$((i + 1))
done
nsx rtr "$TC" qdisc add dev rtr-rcv root handle 1: htb default 1
nsx rtr "$TC" class add dev rtr-rcv parent 1: classid 1:1 htb rate "${rate}mbit" \
	ceil "${rate}mbit" burst 15k cburst 15k quantum 1514
nsx rtr "$TC" qdisc add dev rtr-rcv parent 1:1 handle 10: bfifo limit "$buf"

mkdir -p "$out"
i=1
while [ "$i" -le "$nflows" ]; do
	nsx rcv iperf3 -s -1 -p $((5200 + i)) >/dev/null 2>&1 &
	i=$((i + 1))
done
# wait (virtual time, costs nothing) until every server listens
while [ "$(nsx rcv ss -Hltn | grep -c ':52[0-9][0-9] ')" -lt "$nflows" ]; do sleep 0.1; done

i=1
pids=
while [ "$i" -le "$nflows" ]; do
	cc=$(pick "$ccs" "$i")
	if [ "$ccdefault" = 1 ]; then
		nsx "s$i" sysctl -qw net.ipv4.tcp_congestion_control="$cc"
		ccopt=
	else
		ccopt="-C $cc"
	fi
	# shellcheck disable=SC2086 # ccopt is empty or two words
	nsx "s$i" iperf3 -c 10.0.100.2 -p $((5200 + i)) -t "$secs" $ccopt -J >"$out/flow$i.json" &
	pids="$pids $!"
	i=$((i + 1))
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
wait
i=1
while [ "$i" -le "$nflows" ]; do
	awk -v f="flow$i" '/"sum_received"/ { r = 1 } r && /"bits_per_second"/ {
		gsub(/[,]/, "", $2); printf "%s: %.2f Mbit/s\n", f, $2 / 1e6; exit }' "$out/flow$i.json"
	i=$((i + 1))
done
exit "$rc"
