#!/bin/sh
# scripts/separate_kernels/guest.sh -- one guest of scripts/separate_kernels.sh, in a UML guest
# of the "net" variant, in real time, joined to the others by host taps (its vec<N>).
#
#   guest.sh router RATE BUFFER SAMPLE_MS DURATION FLOWS RTT_1 [RTT_2 ...]
#       the router and the receiver of testbed/topology.sh's dumbbell: namespace r with the
#       guest's vec<k-1> as to_s<k> (10.1.k.1/24, netem delay RTT_k toward sender k: the
#       ACK path), to_rcv with the htb bottleneck (RATE Mbit/s) and its bfifo (BUFFER bytes),
#       namespace d (10.0.0.2) with one tcpflow.py sink per sender (port 5201 + k - 1, FLOWS
#       connections); the qdisc samples in tc.txt; starts the senders together (barrier.py)
#   guest.sh sender K CC SAMPLE_MS DURATION FLOWS OFFSET_MS [MODULE_PARAM...]
#       sender host K (10.1.K.2 on vec0), its wall clock set OFFSET_MS off the host's, then
#       tcp_bbr_a loaded (as the one-kernel testbed's runs load it), CC its default cc; FLOWS
#       bulk connections to the sink for DURATION s from the router's start signal; its
#       sockets' samples in ss.txt
#
# Writes into BBR_A_OUT: guest.env (uptimes of the start, the kernel, the module), and the
# raw files scripts/separate_kernels/merge.py turns into a testbed run directory.
set -u
{
die() { echo "guest.sh: $*" >&2; exit 1; }
log() { echo "guest.sh: $*" >&2; }
OUT=$BBR_A_OUT
PARAMS_FILE=$OUT/guest.env
param() { printf '%s=%s\n' "$1" "$2" >> "$PARAMS_FILE"; }
TB_DIR=$BBR_A_SRC/testbed
export PATH="$PATH:/sbin:/usr/sbin"
# shellcheck source=testbed/topology.sh
. "$TB_DIR/topology.sh"
TB_PREFIX=sk-
tb_find_tools || exit 1
PY=/usr/bin/python3
BARRIER="$PY $BBR_A_SRC/scripts/separate_kernels/barrier.py"
PIDS=''
trap 'kill $PIDS 2>/dev/null; tb_teardown' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
: > "$PARAMS_FILE"
param kernel "$(uname -r)"
read -r up _ < /proc/uptime
param boot_uptime "$up"

# end_host NS: the end hosts' sysctls of topology.sh (socket buffers, no cached metrics)
end_host() {
	tb_sysctl "$1" net/ipv4/tcp_rmem "4096 131072 67108864" &&
		tb_sysctl "$1" net/ipv4/tcp_wmem "4096 16384 67108864" &&
		tb_sysctl "$1" net/ipv4/tcp_no_metrics_save 1
}

router() {
	rate=$1 buf=$2 sample_ms=$3 duration=$4 flows=$5
	shift 5
	for n in r d; do "$TB_IP" netns add "$(tb_ns $n)" && tb_ipn $n link set dev lo up || die "netns $n"; done
	tb_sysctl r net/ipv4/ip_forward 1 || die "ip_forward"
	end_host d || die "sysctls of d"
	tb_link r to_rcv 10.0.0.1/24 d eth0 "$TB_RCV_ADDR/24" && tb_ipn d route add default via 10.0.0.1 ||
		die "the link to the receiver"
	# the bottleneck, as topology.sh's tb_setup makes it
	tb_tcn r qdisc add dev to_rcv root handle 1: htb default 1 &&
		tb_tcn r class add dev to_rcv parent 1: classid 1:1 htb rate "${rate}mbit" ceil "${rate}mbit" \
			burst 15k cburst 15k quantum 1514 &&
		tb_tcn r qdisc add dev to_rcv parent 1:1 handle 10: bfifo limit "$buf" || die "the bottleneck"
	k=1
	for rtt in "$@"; do
		# the guest's link to sender k becomes to_s<k> in r, so tb_path_netem writes its netem
		"$TB_IP" link set dev "vec$((k - 1))" netns "$(tb_ns r)" &&
			tb_ipn r link set dev "vec$((k - 1))" name "to_s$k" &&
			tb_ipn r addr add "10.1.$k.1/24" dev "to_s$k" && tb_ifup r "to_s$k" || die "vec$((k - 1)) as to_s$k"
		tb_path_netem add "$k" "$rtt" || die "netem toward sender $k"
		tb_exec d $PY "$TB_DIR/tcpflow.py" sink --port $((5200 + k)) --streams "$flows" --interval 1 \
			> "$OUT/sink$k.log" 2>&1 &
		PIDS="$PIDS $!" SINKS="${SINKS:-} $!"
		k=$((k + 1))
	done
	nsenders=$((k - 1))
	nsdir=/run/netns
	"$BBR_A_SAMPLER" "$sample_ms" $((duration + 600)) "$TB_RCV_ADDR" \
		qdisc "$nsdir/$(tb_ns r)" to_rcv "$OUT/tc.txt" 2> "$OUT/sampler.err" &
	PIDS="$PIDS $!" SAMPLER=$!
	log "router up: $nsenders sender link(s), $rate Mbit/s, bfifo $buf B; waiting for the senders"
	# the senders reach the barrier through to_s<k>: it listens in r
	tb_exec r $BARRIER serve 5000 "$nsenders" 600 > "$OUT/go.txt" || die "the senders did not all come (barrier)"
	param go_uptime "$(cat "$OUT/go.txt")"
	log "go sent; flows run ~$duration s"
	rc=0
	for p in $SINKS; do wait "$p" || rc=1; done
	read -r up _ < /proc/uptime
	param end_uptime "$up"
	kill "$SAMPLER" 2>/dev/null
	{ echo "### namespace r"; tb_tcn r -s qdisc show; tb_ipn r -s link show; } > "$OUT/tc_final.txt" 2>&1
	[ "$rc" = 0 ] || die "a sink failed (sink*.log)"
}

sender() {
	k=$1 cc=$2 sample_ms=$3 duration=$4 flows=$5 offset_ms=$6
	shift 6
	MODULE_PARAMS="$*"
	# a host whose clock NTP keeps off the others' (bbr_a_fair's grid is the wall clock's)
	if [ "$offset_ms" != 0 ]; then
		date -s "@$(awk -v t="$(date +%s.%N)" -v o="$offset_ms" 'BEGIN { printf "%.6f", t + o / 1000 }')" \
			> /dev/null || die "date -s"
	fi
	param clock_offset_ms "$offset_ms"
	# shellcheck source=testbed/lib/module.sh
	. "$TB_DIR/lib/module.sh"
	ip addr add "10.1.$k.2/24" dev vec0 && ip link set dev vec0 up && ip route add default via "10.1.$k.1" ||
		die "vec0"
	"$TB_ETHTOOL" -K vec0 tso off gso off gro off > /dev/null 2>&1 || die "ethtool -K vec0"
	echo "4096 131072 67108864" > /proc/sys/net/ipv4/tcp_rmem &&
		echo "4096 16384 67108864" > /proc/sys/net/ipv4/tcp_wmem &&
		echo 1 > /proc/sys/net/ipv4/tcp_no_metrics_save || die "sysctls"
	# tcp_bbr_a as the one-kernel testbed's comparisons load it (every run of them)
	if [ -n "${BBR_A_KO:-}" ]; then module_prepare bbr_a_fair "$cc"; else module_prepare "$cc"; fi
	module_record
	param module_version "$MODULE_VERSION"
	kernel_cc "$cc"
	echo "$KCC" > /proc/sys/net/ipv4/tcp_congestion_control || die "cc $cc"
	param cc "$cc"
	# the router's netem is there once its guest is up: wait for it
	n=0
	until ping -c 1 -W 1 "$TB_RCV_ADDR" > /dev/null 2>&1; do
		n=$((n + 1)); [ $n -lt 300 ] || die "no route to $TB_RCV_ADDR after 300 tries"
	done
	ping -c 5 -i 0.2 -q "$TB_RCV_ADDR" > "$OUT/ping.txt" 2>&1 || die "ping"
	cat /proc/net/snmp > "$OUT/snmp_start.txt"
	"$BBR_A_SAMPLER" "$sample_ms" $((duration + 600)) "$TB_RCV_ADDR" tcp /proc/1/ns/net "$OUT/ss.txt" \
		2> "$OUT/sampler.err" &
	PIDS="$PIDS $!" SAMPLER=$!
	$BARRIER wait "10.1.$k.1" 5000 600 > "$OUT/go.txt" || die "no start signal from the router"
	param go_uptime "$(cat "$OUT/go.txt")"
	rc=0
	$PY "$TB_DIR/tcpflow.py" bulk --host "$TB_RCV_ADDR" --port $((5200 + k)) --time "$duration" \
		--interval 1 --streams "$flows" > "$OUT/flow.json" 2> "$OUT/flow.err" || rc=$?
	param flow_rc "$rc"
	read -r up _ < /proc/uptime
	param end_uptime "$up"
	cat /proc/net/snmp > "$OUT/snmp_end.txt"
	cat /proc/net/netstat > "$OUT/netstat_end.txt"
	kill "$SAMPLER" 2>/dev/null
	[ "$rc" = 0 ] || die "the bulk client failed ($rc): $(head -c 300 "$OUT/flow.err")"
}

role=${1:-}
shift
case $role in
router) router "$@" ;;
sender) sender "$@" ;;
*) die "usage: guest.sh router|sender ..." ;;
esac
exit 0
}
