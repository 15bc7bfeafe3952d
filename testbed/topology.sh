# testbed/topology.sh -- the dumbbell, defined in this one place.
# shellcheck shell=sh
# POSIX sh (busybox ash, dash, bash); meant to be sourced, defines tb_* functions only.
#
#   s1 (10.1.1.2) --\                                   bottleneck: htb rate=ceil=RATE
#   s2 (10.1.2.2) ---+-- r (router) --to_rcv--> [l] --> d (receiver, 10.0.0.2)
#   sK (10.1.K.2) --/     netem delay RTT_k        bfifo limit BUF bytes
#                         on r -> s_k (ACK path)   [l]: only when LOSS > 0
# One sender namespace per RTT class; its whole base RTT is a netem on the router's egress
# toward it (the ACK path): nothing waits in the sender's qdisc (TCP small queues). With
# TB_HOSTS = N > 1 each class has N sender hosts, s_k (host 1) and s_kh2..s_khN, each with
# its own veth (to_<host> on r), /30 (host j: 10.1.k.4j-2, r 10.1.k.4j-3) and netem, so
# with its own jitter and slots; the hosts' kernel is still one (testbed/README.md). Random
# loss is a netem without rate or delay in a namespace "l" after the bottleneck (created
# only with loss): a lost packet has used its slot. TSO/GSO/GRO are off on every veth (GSO
# and GRO on at the end hosts with TB_OFFLOADS=on): the shaper sees real packets (README).
#
# Inputs (shell variables, read by tb_setup):
#   TB_PREFIX   namespace prefix, unique per run (default bbra<pid>-; tb_ns NAME: a full name)
#   TB_RTTS     base RTTs in ms, space separated, one sender class each (s1..sK)
#   TB_HOSTS    sender hosts (namespaces) per class (default 1: s_k only; tb_hosts)
#   TB_RATE     bottleneck rate in Mbit/s
#   TB_BUF      bottleneck buffer (bfifo limit) in bytes
#   TB_LOSS     random loss in percent after the bottleneck (0: no loss hop)
#   TB_QDISC, TB_QDISC_OPTS  the bottleneck's queue under the htb (bfifo, pfifo, red, codel,
#               fq_codel, each holding at most TB_BUF bytes) and more tc words for it: all
#               but a plain bfifo need lib/bottleneck.sh's tb_aqm sourced
#   TB_SOCKBUF  max tcp_rmem/tcp_wmem of the end hosts, bytes (default: 64 MiB, or
#               TB_MEM_FACTOR x (buffer + BDP of the longest RTT) when more); TB_OFFLOADS on|off
#   TB_NETEM_LIMIT  netem queue limit, packets (default 100000: ACKs of any BDP fit); TB_JITTER_*,
#               TB_SLOT: the ACK paths' jitter and aggregation (tb_path_netem, lib/paths.sh)

: "${TB_PREFIX:=bbra$$-}"
: "${TB_SOCKBUF:=}"
# What the hosts' TCP may hold, as a multiple of what the path holds (buffer + BDP): the
# flows' in-flight data at skb truesize (about 1.6 x payload), their unsent write queues
# (the send buffer autotunes to about 2 x cwnd) and, after losses, the receiver's
# out-of-order queue. Cubic at 10 vs 50 ms in a 100 BDP buffer (63 MB with the BDP) held
# 2.3 x that before its first loss and 4.4 x (279 MB) after it (UML, /proc/net/sockstat).
TB_MEM_FACTOR=6
: "${TB_NETEM_LIMIT:=100000}"
TB_RCV_ADDR=10.0.0.2

tb_log() { echo "topology: $*" >&2; }

# Find iproute2's ip/tc/ss: busybox ash runs its own ip/tc applets before PATH,
# so every call goes through these full paths.
tb_find_tools() {
	TB_IP=; TB_TC=; TB_SS=
	for d in /sbin /usr/sbin /bin /usr/bin /usr/local/sbin /usr/local/bin; do
		[ -z "$TB_IP" ] && [ -x "$d/ip" ] && "$d/ip" -V 2>/dev/null | grep -q iproute2 && TB_IP=$d/ip
		[ -z "$TB_TC" ] && [ -x "$d/tc" ] && "$d/tc" -V 2>/dev/null | grep -q iproute2 && TB_TC=$d/tc
		[ -z "$TB_SS" ] && [ -x "$d/ss" ] && "$d/ss" -V 2>/dev/null | grep -q iproute2 && TB_SS=$d/ss
	done
	[ -n "$TB_IP" ] && [ -n "$TB_TC" ] && [ -n "$TB_SS" ] || {
		tb_log "iproute2 ip, tc and ss are required (found ip='$TB_IP' tc='$TB_TC' ss='$TB_SS')"
		return 1
	}
	TB_ETHTOOL=$(command -v ethtool 2>/dev/null || true)
	for d in /sbin /usr/sbin; do
		[ -z "$TB_ETHTOOL" ] && [ -x "$d/ethtool" ] && TB_ETHTOOL=$d/ethtool
	done
	[ -n "$TB_ETHTOOL" ] || { tb_log "ethtool is required"; return 1; }
}

tb_ns() { echo "$TB_PREFIX$1"; }
# tb_hosts K: TB_HOST_NAMES = the sender hosts of class K, s<K> and, with TB_HOSTS = N > 1,
# s<K>h2..s<K>hN (shell builtins only: a run's processes stay those of one host per class)
tb_hosts() {
	TB_HOST_NAMES=s$1 _hj=2
	while [ "$_hj" -le "${TB_HOSTS:-1}" ]; do TB_HOST_NAMES="$TB_HOST_NAMES s$1h$_hj" _hj=$((_hj + 1)); done
}
tb_exec() { _n=$1; shift; "$TB_IP" netns exec "$TB_PREFIX$_n" "$@"; }
tb_ipn() { _n=$1; shift; "$TB_IP" -n "$TB_PREFIX$_n" "$@"; }
tb_tcn() { _n=$1; shift; "$TB_TC" -n "$TB_PREFIX$_n" "$@"; }
tb_sysctl() { tb_exec "$1" sh -c "echo '$3' > /proc/sys/$2"; }

# tb_link NS1 DEV1 ADDR1/LEN NS2 DEV2 ADDR2/LEN: veth pair, addresses, offloads off, up.
tb_link() {
	tb_ipn "$1" link add name "$2" type veth peer name "$5" netns "$(tb_ns "$4")" || return 1
	tb_ipn "$1" addr add "$3" dev "$2" && tb_ipn "$4" addr add "$6" dev "$5" || return 1
	tb_ifup "$1" "$2" && tb_ifup "$4" "$5"
}

tb_ifup() {
	case ${TB_OFFLOADS:-off}:$1 in on:s* | on:d) set -- "$1" "$2" on ;; *) set -- "$1" "$2" off ;; esac
	tb_exec "$1" "$TB_ETHTOOL" -K "$2" tso off gso "$3" gro "$3" >/dev/null 2>&1 ||
		{ tb_log "ethtool -K $2 tso off gso/gro $3 failed in $(tb_ns "$1")"; return 1; }
	tb_ipn "$1" link set dev "$2" up
}

# tb_tcp_mem: TCP's global memory limit (net.ipv4.tcp_mem, pages) raised to hold
# TB_MEM_FACTOR x TB_PATH_BYTES where lower; never lowered. Booted with 1 GB, a guest's TCP
# entered memory pressure at 62 MB, where receivers clamp their windows to 4 segments
# (cubic in a 50 or 100 BDP buffer: 4 packets per RTT; docs/reproduction.md). One setting
# for the machine: tb_teardown puts the old value back.
TB_TCP_MEM_OLD=
TB_PROC=${TB_PROC:-/proc} # a stand-in in the unit tests
tb_tcp_mem() {
	_f=$TB_PROC/sys/net/ipv4/tcp_mem
	# cat, not read: a sysctl file answers a read at an offset > 0 with end of file
	# shellcheck disable=SC2046 # three numbers
	set -- $(cat "$_f") && [ $# = 3 ] || { tb_log "cannot read $_f"; return 1; }
	_want=$((TB_MEM_FACTOR * TB_PATH_BYTES / 4096 + 1))
	[ "$1" -lt "$_want" ] || return 0
	_mem=0
	while read -r _k _v _; do [ "$_k" = MemTotal: ] && _mem=$_v; done < "$TB_PROC/meminfo"
	[ $((2 * _want * 4)) -lt "$_mem" ] ||
		tb_log "warning: TCP may need up to $((2 * _want * 4 / 1024)) MB, the machine has $((_mem / 1024)) MB (guest: --mem)"
	# Pressure (the middle mark) at 2 x _want, or at half the machine's RAM if less, but
	# not below 4/3 of it: a deep buffer's cubic flow holds its window at both ends (sender's
	# retransmit queue and autotuned write queue, receiver's out-of-order queue after a
	# loss), each skb at a page or more of truesize, and passed 4/3 of it (two flows, 20
	# BDP of 50 ms); the hard limit at 3/2 of pressure, or twice the first if more.
	_p=$((_want * 2))
	[ "$_p" -le $((_mem / 8)) ] || _p=$((_mem / 8))
	[ "$_p" -ge $((_want * 4 / 3)) ] || _p=$((_want * 4 / 3))
	_h=$((_p * 3 / 2))
	[ "$_h" -ge $((_want * 2)) ] || _h=$((_want * 2))
	TB_TCP_MEM_OLD="$1 $2 $3"
	echo "$_want $_p $_h" > "$_f" ||
		{ tb_log "cannot raise $_f to $_want pages"; TB_TCP_MEM_OLD=; return 1; }
}

# tb_sizes: TB_HAS_LOSS (1 with random loss), TB_PATH_BYTES (what the path holds: buffer +
# rate x the longest RTT), TB_SOCKBUF unless given (64 MiB, or TB_MEM_FACTOR x the path when
# that is more) and, for such a path, TCP's memory limit (tb_tcp_mem).
tb_sizes() {
	: "${TB_LOSS:=0}"
	# one awk for both (each process a run starts draws from UML's seeded random stream):
	# whether there is loss, and what the path holds, buffer + rate x the longest RTT, bytes
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(awk -v l="$TB_LOSS" -v b="$TB_BUF" -v r="$TB_RATE" -v t="$TB_RTTS" 'BEGIN {
		n = split(t, x, " "); m = 0
		for (i = 1; i <= n; i++) if (x[i] + 0 > m) m = x[i] + 0
		printf "%d %.0f\n", (l + 0 > 0) ? 1 : 0, b + r * 1e6 / 8 * m / 1e3 }')
	TB_HAS_LOSS=$1 TB_PATH_BYTES=$2
	# Only paths over a sixth of 64 MiB: tb_tcp_mem starts a process (UML's random stream)
	[ $((TB_MEM_FACTOR * TB_PATH_BYTES)) -gt 67108864 ] || { : "${TB_SOCKBUF:=67108864}"; return 0; }
	: "${TB_SOCKBUF:=$((TB_MEM_FACTOR * TB_PATH_BYTES))}"
	tb_tcp_mem
}

tb_setup() {
	tb_find_tools || return 1
	[ -n "$TB_RTTS" ] && [ -n "$TB_RATE" ] && [ -n "$TB_BUF" ] ||
		{ tb_log "TB_RTTS, TB_RATE and TB_BUF must be set"; return 1; }
	tb_sizes || return 1
	TB_CLASSES=0
	for _r in $TB_RTTS; do TB_CLASSES=$((TB_CLASSES + 1)); done
	_all="r d"
	[ "$TB_HAS_LOSS" = 1 ] && _all="$_all l"
	_k=1
	while [ $_k -le $TB_CLASSES ]; do tb_hosts $_k && _all="$_all $TB_HOST_NAMES" && _k=$((_k + 1)); done
	for _n in $_all; do
		"$TB_IP" netns add "$(tb_ns "$_n")" || { tb_log "cannot create namespace $(tb_ns "$_n")"; return 1; }
		tb_ipn "$_n" link set dev lo up || return 1
	done
	tb_sysctl r net/ipv4/ip_forward 1 || return 1
	# end hosts: big enough socket buffers for deep buffers, no cached metrics across flows
	for _n in d $(echo "$_all" | tr ' ' '\n' | grep '^s'); do
		tb_sysctl "$_n" net/ipv4/tcp_rmem "4096 131072 $TB_SOCKBUF" &&
		tb_sysctl "$_n" net/ipv4/tcp_wmem "4096 16384 $TB_SOCKBUF" &&
		tb_sysctl "$_n" net/ipv4/tcp_no_metrics_save 1 || return 1
	done

	# router <-> receiver, with the optional loss hop in between
	if [ "$TB_HAS_LOSS" = 1 ]; then
		tb_sysctl l net/ipv4/ip_forward 1 || return 1
		tb_link r to_rcv 10.254.0.1/30 l to_r 10.254.0.2/30 || return 1
		tb_link l to_rcv 10.0.0.1/24 d eth0 $TB_RCV_ADDR/24 || return 1
		tb_ipn r route add 10.0.0.0/24 via 10.254.0.2 || return 1
		tb_ipn l route add default via 10.254.0.1 || return 1
		tb_tcn l qdisc add dev to_rcv root handle 1: netem loss "${TB_LOSS}%" limit "$TB_NETEM_LIMIT" ||
			{ tb_log "netem loss failed (is sch_netem available?)"; return 1; }
	else
		tb_link r to_rcv 10.0.0.1/24 d eth0 $TB_RCV_ADDR/24 || return 1
	fi
	tb_ipn d route add default via 10.0.0.1 || return 1

	# bottleneck: htb rate = ceil, small burst, MTU quantum; bfifo child = the buffer
	tb_tcn r qdisc add dev to_rcv root handle 1: htb default 1 || return 1
	tb_tcn r class add dev to_rcv parent 1: classid 1:1 htb rate "${TB_RATE}mbit" ceil "${TB_RATE}mbit" \
		burst 15k cburst 15k quantum 1514 || return 1
	if [ "${TB_QDISC:-bfifo}${TB_QDISC_OPTS:-}" = bfifo ]; then
		tb_tcn r qdisc add dev to_rcv parent 1:1 handle 10: bfifo limit "$TB_BUF" || return 1
	else
		tb_aqm || return 1
	fi

	# senders: a namespace per host of each RTT class (one: 10.1.k.0/24; N: a /30 each),
	# base RTT as netem delay on each one's ACK path
	_len=24
	[ "${TB_HOSTS:-1}" = 1 ] || _len=30
	_k=1
	for _r in $TB_RTTS; do
		tb_hosts $_k
		_a=1
		for _h in $TB_HOST_NAMES; do
			tb_link r "to_$_h" "10.1.$_k.$_a/$_len" "$_h" eth0 "10.1.$_k.$((_a + 1))/$_len" || return 1
			tb_ipn "$_h" route add default via "10.1.$_k.$_a" || return 1
			_a=$((_a + 4))
		done
		tb_path_netem add "$_k" "$_r" ||
			{ tb_log "netem delay failed toward class $_k (is sch_netem available?)"; return 1; }
		_k=$((_k + 1))
	done
}

# tb_path_netem add|change K MS: the netem toward each host of sender class K, its base RTT
# of MS ms (the ACK path), the one place its options are written (README, "Paths that
# change": how `rate` keeps the order; TB_SLOT: slot words). tb_delay K MS: a route change
# (with hosts, one tc per host, in turn).
tb_path_netem() {
	_op=$1 _k=$2 && set -- delay "${3}ms"
	if [ -n "${TB_JITTER_MS:-}" ]; then
		set -- "$@" "${TB_JITTER_MS}ms"
		[ "${TB_JITTER_DIST:-uniform}" = uniform ] || set -- "$@" distribution "$TB_JITTER_DIST"
		[ "${TB_JITTER_REORDER:-0}" = 1 ] || set -- "$@" rate 100gbit
	fi
	tb_hosts "$_k"
	for _h in $TB_HOST_NAMES; do
		# shellcheck disable=SC2086 # TB_SLOT: tc's words
		tb_tcn r qdisc "$_op" dev "to_$_h" root handle 1: netem "$@" ${TB_SLOT:+slot $TB_SLOT} \
			limit "$TB_NETEM_LIMIT" || return 1
	done
}
tb_delay() { tb_path_netem change "$1" "$2"; }

# Kill whatever still runs in our namespaces, delete them; safe again and after a half setup.
tb_teardown() {
	if [ -n "$TB_TCP_MEM_OLD" ]; then
		echo "$TB_TCP_MEM_OLD" > "$TB_PROC/sys/net/ipv4/tcp_mem" 2>/dev/null
		TB_TCP_MEM_OLD=
	fi
	[ -n "${TB_IP:-}" ] || tb_find_tools 2>/dev/null || return 0
	_nss=$("$TB_IP" netns list 2>/dev/null | awk -v p="$TB_PREFIX" 'index($1, p) == 1 { print $1 }')
	[ -n "$_nss" ] || return 0
	for _sig in TERM KILL; do
		_left=
		for _n in $_nss; do _left="$_left $("$TB_IP" netns pids "$_n" 2>/dev/null)"; done
		_left=$(echo $_left)
		[ -n "$_left" ] || break
		kill -s "$_sig" $_left 2>/dev/null
		[ "$_sig" = TERM ] && sleep 0.3
	done
	for _n in $_nss; do "$TB_IP" netns del "$_n" 2>/dev/null; done
	return 0
}
