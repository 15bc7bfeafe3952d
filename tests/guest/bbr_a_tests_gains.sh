# tests/guest/bbr_a_tests_gains.sh -- the part of bbr_a_tests.sh that runs transfers over a
# delayed path (gains, the fair variant, the tracepoint); sourced by it at this point of its
# run, with its helpers and variables (POSIX sh).
# shellcheck shell=sh

# ---------------------------------------------------------------- gains over a delayed path
# snd -- rtr -- rcv: 10 Mbit/s htb + 150 KB bfifo toward rcv, 20 ms netem on the ACK path.
dumbbell() {
	for ns in snd rtr rcv; do ip netns add $ns && ip -n $ns link set lo up || return 1; done
	ip link add s0 netns snd type veth peer name r0 netns rtr &&
		ip link add r1 netns rtr type veth peer name c0 netns rcv &&
		ip -n snd addr add 10.9.1.1/24 dev s0 && ip -n snd link set s0 up &&
		ip -n snd route add default via 10.9.1.2 &&
		ip -n rtr addr add 10.9.1.2/24 dev r0 && ip -n rtr link set r0 up &&
		ip -n rtr addr add 10.9.2.1/24 dev r1 && ip -n rtr link set r1 up &&
		ip -n rcv addr add 10.9.2.2/24 dev c0 && ip -n rcv link set c0 up &&
		ip -n rcv route add default via 10.9.2.1 &&
		ip netns exec rtr sysctl -qw net.ipv4.ip_forward=1 &&
		tc -n rtr qdisc add dev r1 root handle 1: htb default 1 &&
		tc -n rtr class add dev r1 parent 1: classid 1:1 htb rate 10mbit ceil 10mbit burst 15k quantum 1514 &&
		tc -n rtr qdisc add dev r1 parent 1:1 bfifo limit 150000 &&
		tc -n rtr qdisc add dev r0 root netem delay 20ms limit 10000
}
# gain_run NAME SECONDS [CC]: a CC (default bbr_a) transfer snd -> rcv, sampling ss -tin as fast as the guest
# allows (writes $ART/NAME.json, .ss, and .gains: "count gain" lines).
gain_run() {
	_n=$1 _t=$2 _cc=${3:-$CA}
	ip netns exec rcv iperf3 -s -1 -p 5204 >/dev/null 2>&1 &
	_s=$!
	sleep 0.5
	ip netns exec snd timeout 40 iperf3 -c 10.9.2.2 -p 5204 -t "$_t" -C "$_cc" -J >"$ART/$_n.json" 2>&1 &
	_c=$!
	# no sleep: under TCG one ss exec already takes 0.1 .. 0.5 s
	ip netns exec snd sh -c "while kill -0 $_c 2>/dev/null; do ss -tin dst 10.9.2.2; done" \
		>"$ART/$_n.ss" 2>&1
	wait $_c
	_rc=$?
	wait $_s
	# Only sockets that carried data: a connection that went idle early (iperf3's control
	# connection, when $CA is the default) keeps its last gain and would skew the counts.
	awk 'match($0, /delivered:[0-9]+/) && substr($0, RSTART + 10, RLENGTH - 10) + 0 > 500 &&
		match($0, /pacing_gain:[0-9.]+/) { print substr($0, RSTART + 12, RLENGTH - 12) }' \
		"$ART/$_n.ss" | sort | uniq -c >"$ART/$_n.gains"
	return $_rc
}
# Distinct sampled gains that BBRv1 never uses.
non_bbr1_gains() { awk -v std="$BBR1_GAINS" 'BEGIN {split(std, a, " "); for (i in a) s[a[i]]} !($2 in s) {print $2}' "$1"; }
t_ss_info() {
	gain_run adaptive1 15 || fail "transfer failed: $(tail -n 3 "$ART/adaptive1.json")"
	grep -q 'bbr:(bw:[^,]*,mrtt:[^,]*,pacing_gain:[^,]*,cwnd_gain:[^)]*)' "$ART/adaptive1.ss" ||
		fail "no bbr:(bw:..,mrtt:..,pacing_gain:..,cwnd_gain:..) in ss -tin: $(head -n 4 "$ART/adaptive1.ss")"
	grep -qw $CA "$ART/adaptive1.ss" || fail "ss does not show $CA"
	echo "$(grep -c pacing_gain "$ART/adaptive1.ss") samples"
}
# The adaptive gains show in at most 2 of the 8 PROBE_BW phases and one ss exec takes 0.2 ..
# 0.5 s under TCG: 8 s runs gave 14 .. 22 samples, 1 .. 5 of them adaptive. So runs last 15 s,
# and up to 2 more are made before failing.
t_adaptive_gains() {
	for _try in 1 2 3; do
		[ $_try = 1 ] || gain_run adaptive$_try 15 || fail "transfer $_try failed"
		_x=$(non_bbr1_gains "$ART/adaptive$_try.gains")
		[ -z "$_x" ] || { echo "run $_try: non-BBRv1 gains seen:" $_x; return 0; }
	done
	fail "3 runs sampled only BBRv1 gains (count gain): $(cat "$ART"/adaptive*.gains)"
}
t_fixed_gains() {
	echo 0 >$PDIR/adaptive || fail "cannot set adaptive=0"
	gain_run fixed 8
	_rc=$?
	echo 1 >$PDIR/adaptive
	[ $_rc = 0 ] || fail "transfer failed: $(tail -n 3 "$ART/fixed.json")"
	[ -s "$ART/fixed.gains" ] || fail "no pacing_gain samples"
	_x=$(non_bbr1_gains "$ART/fixed.gains")
	[ -z "$_x" ] || fail "adaptive=0 sampled non-BBRv1 gains: $(cat "$ART/fixed.gains")"
}
t_setsockopt_fair() {
	gain_run fair 4 $FAIR || fail "iperf3 -C $FAIR failed: $(tail -n 3 "$ART/fair.json")"
	[ "$(json_cc "$ART/fair.json")" = $FAIR ] || fail "sender used '$(json_cc "$ART/fair.json")'"
	grep -qw $FAIR "$ART/fair.ss" || fail "ss does not show $FAIR"
}
# trace_run NAME CC: a 6 s transfer with the bbr_a:bbr_a_gain event on; $ART/NAME.trace
trace_run() {
	echo >$TRACE/trace && echo 1 >$TRACE/events/bbr_a/bbr_a_gain/enable || return 1
	gain_run "$1" 6 "$2"
	_rc=$?
	echo 0 >$TRACE/events/bbr_a/bbr_a_gain/enable
	grep 'bbr_a_gain:' $TRACE/trace >"$ART/$1.trace"
	return $_rc
}
# trace_count FILE AWK-CONDITION: events of a PROBE_BW data flow (mode=2) meeting it
trace_count() { awk "/ mode=2 / && / dport=5204 / && ($2) { n++ } END { print n + 0 }" "$1"; }
t_trace() {
	[ -d $TRACE/events ] || mount -t tracefs nodev $TRACE || fail "cannot mount tracefs"
	[ -d $TRACE/events/bbr_a/bbr_a_gain ] || fail "no event bbr_a/bbr_a_gain: $(ls $TRACE/events | head)"
	# Enabling an event with record-cmd set hooks sched_switch too, and the kernel then
	# live-patches (int3) a static key inside __schedule while the other vCPU runs it;
	# QEMU's TCG once trapped on that int3 ("Oops: int3" in __schedule, docs/backends.md,
	# "Guest faults"). Task names are not needed here.
	echo 0 >$TRACE/options/record-cmd || fail "cannot turn off options/record-cmd"
	trace_run trace_a $CA || fail "transfer failed"
	trace_run trace_fair $FAIR || fail "$FAIR transfer failed"
	# Phase 0 of bbr_a probes (why=1) or holds (why=2) by the queue it sees,
	# which a lone flow may never let it do: either shows the adaptive code ran.
	_a=$(trace_count "$ART/trace_a.trace" '/ algo=0 / && / phase=0 / && / why=[12] / && / rtt_max_us=[1-9]/')
	_bad=$(trace_count "$ART/trace_a.trace" '/ algo=0 / && / phase=0 / && / rtt_max_us=[1-9]/ && !/ why=[126] /')
	_f=$(trace_count "$ART/trace_fair.trace" '/ algo=1 / && / rtt_max_us=[1-9]/')
	_x=$(trace_count "$ART/trace_a.trace" '!/ algo=0 /')
	echo "$CA: $(wc -l <"$ART/trace_a.trace") events, $_a in phase 0 (probe or hold); $FAIR: $_f in PROBE_BW"
	[ "$_a" -gt 0 ] || fail "no $CA phase-0 event with why=1/2 (probe/hold) and an rtt_max: $(head -n 3 "$ART/trace_a.trace")"
	[ "$_bad" = 0 ] || fail "$_bad $CA phase-0 events with an rtt_max give another reason than probe/hold/lt_bw"
	[ "$_f" -gt 0 ] || fail "no $FAIR PROBE_BW event with an rtt_max: $(head -n 3 "$ART/trace_fair.trace")"
	[ "$_x" = 0 ] || fail "$_x $CA events report another algorithm"
}
if need_module "gains over a delayed path"; then
	check "dumbbell with netem delay and htb bottleneck set up" dumbbell
	check "ss -tin shows $CA with bbr:(bw,mrtt,pacing_gain,cwnd_gain) during a transfer" t_ss_info
	check "adaptive=1: sampled pacing_gain takes values outside BBRv1's set" t_adaptive_gains
	check "adaptive=0: sampled pacing_gain stays within BBRv1's set" t_fixed_gains
	for FAIR in bbr_a_fair bbq da_bbr; do
		check "setsockopt(TCP_CONGESTION, $FAIR): transfer completes, ss shows $FAIR" t_setsockopt_fair
	done
	FAIR=bbr_a_fair
	check "tracepoint bbr_a:bbr_a_gain reports each socket's algorithm, phase, reason and rtt_max" t_trace
	for ns in snd rtr rcv; do ip netns del $ns 2>/dev/null; done
fi
