#!/bin/sh
# Integration tests of tcp_bbr_a.ko, run INSIDE a guest (busybox ash, POSIX sh) by
#   scripts/guest.sh --kernel 6.1|6.12 -- sh tests/guest/bbr_a_tests.sh
# Prints TAP ("ok N - ..." / "not ok N - ..."), exits 1 if any test failed.
# Needs: BBR_A_KO (the module, not loaded), BBR_A_OUT (artifacts go to $BBR_A_OUT/guest-tests).
# The guest is disposable: the tests change sysctls, namespaces and qdiscs freely.

MOD=tcp_bbr_a
CA=bbr_a
PARAMS="adaptive rtt_max_scope rtt_max_win_sec gate_signal inflight_thresh queue_thresh_us probe_up_hold
	loss_thresh probe_down_and fair_queue_us fair_probe_hold fair_cwnd_probe fair_cwnd_queue_us fair_cwnd_pkts
	bbq_alpha_us bbq_beta_pm da_enable da_guard_pct"
FAIR=bbr_a_fair # the second congestion control the module registers
TRACE=/sys/kernel/tracing
BBR1_GAINS="1.25 0.75 1 2.88672 0.34375" # ss's %g of BBRv1's gains x/256
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control
PDIR=/sys/module/$MOD/parameters
ART=${BBR_A_OUT:-/tmp}/guest-tests
mkdir -p "$ART"
: "${BBR_A_KO:?BBR_A_KO is not set (run through scripts/guest.sh)}"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { # not_ok DESCRIPTION [DIAGNOSTIC...]
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for d in "$@"; do printf '%s\n' "$d" | sed 's/^/#   /'; done
}
# check DESCRIPTION FUNCTION [ARGS]: runs FUNCTION in a subshell; its output is the diagnostic.
check() {
	_d=$1; shift
	if _o=$("$@" 2>&1); then
		ok "$_d"
		[ -z "$_o" ] || printf '%s\n' "$_o" | sed 's/^/#   /'
	else
		not_ok "$_d" "$_o"
	fi
}
loaded() { grep -q "^$MOD " /proc/modules; }
available() { grep -qw "$CA" "$AVAIL"; }
fail() { echo "$*"; exit 1; } # only ever called inside check's subshell

# rmmod, retrying while sockets that used the module finish closing (bounded).
rmmod_retry() {
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		rmmod "$MOD" 2>/dev/null && return 0
		sleep 0.5
	done
	rmmod "$MOD"
}

# Wait (bounded) until a TCP socket using $CA shows up in ss in the current netns.
wait_ca_socket() {
	for _i in $(seq 40); do
		ss -tin 2>/dev/null | grep -qw "$CA" && return 0
		sleep 0.1
	done
	return 1
}

# iperf3 JSON: sender's congestion control and the bytes the receiver got.
json_cc() { sed -n 's/.*"sender_tcp_congestion":[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }
json_rx_bytes() { awk '/"sum_received"/ {f = 1} f && /"bytes"/ {gsub(/[^0-9]/, ""); print; exit}' "$1"; }

# ---------------------------------------------------------------- loading
t_bad_param_load() {
	if insmod "$BBR_A_KO" loss_thresh=1001 2>/dev/null; then
		rmmod "$MOD"
		fail "insmod with loss_thresh=1001 (out of range) succeeded"
	fi
	! loaded || fail "module stayed loaded"
}
check "insmod with an out-of-range parameter is refused" t_bad_param_load

if _o=$(insmod "$BBR_A_KO" 2>&1) && loaded; then
	ok "module loads (insmod $BBR_A_KO)"
else
	not_ok "module loads (insmod $BBR_A_KO)" "$_o" "$(dmesg | tail -n 5)"
fi
check "$CA is in tcp_available_congestion_control" available
for _c in $FAIR bbq da_bbr; do
	check "$_c is in tcp_available_congestion_control" grep -qw "$_c" "$AVAIL"
done

# Everything below needs the module; report instead of hanging when it is not there.
need_module() {
	loaded && available && return 0
	not_ok "$1" "skipped: $MOD is not loaded or $CA is not registered"
	return 1
}

# ---------------------------------------------------------------- parameters
# modinfo -p lines look like "name:description [lo..hi, default d]".
t_param() { # t_param NAME
	_p=$1
	_line=$(modinfo -p "$BBR_A_KO" | grep "^$_p:") || fail "modinfo -p has no $_p"
	_r=$(echo "$_line" | sed -n 's/.*\[\(-*[0-9]*\)\.\.\(-*[0-9]*\), default \(-*[0-9]*\)\].*/\1 \2 \3/p')
	[ -n "$_r" ] || fail "no '[lo..hi, default d]' in: $_line"
	set -- $_r
	_lo=$1 _hi=$2 _def=$3
	_f=$PDIR/$_p
	[ -f "$_f" ] || fail "$_f missing"
	[ "$(cat "$_f")" = "$_def" ] || fail "$_p reads $(cat "$_f"), default is $_def"
	for _v in "$_lo" "$_hi" "$_def"; do
		echo "$_v" >"$_f" 2>/dev/null || fail "writing $_v (in range) to $_p failed"
		[ "$(cat "$_f")" = "$_v" ] || fail "$_p reads $(cat "$_f") after writing $_v"
	done
	for _v in $((_lo - 1)) $((_hi + 1)) abc ""; do
		if echo "$_v" >"$_f" 2>/dev/null; then fail "writing '$_v' to $_p was accepted"; fi
		[ "$(cat "$_f")" = "$_def" ] || fail "$_p changed to $(cat "$_f") by rejected '$_v'"
	done
}
if need_module "module parameters"; then
	for p in $PARAMS; do check "parameter $p: default, in-range writes read back, bad writes rejected" t_param "$p"; done
	_extra=$(modinfo -p "$BBR_A_KO" | cut -d: -f1 | grep -vxF "$(echo $PARAMS | tr ' ' '\n')")
	if [ -z "$_extra" ]; then ok "no undocumented parameters"; else not_ok "no undocumented parameters" "$_extra"; fi
fi

# ---------------------------------------------------------------- system default
iperf_lo() { # iperf_lo JSON_FILE [IPERF3 CLIENT ARGS...]: 2 s transfer over loopback
	_j=$1; shift
	iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	_s=$!
	sleep 0.5
	timeout 30 iperf3 -c 127.0.0.1 -p 5201 -t 2 -J "$@" >"$_j" 2>&1
	_rc=$?
	wait $_s
	return $_rc
}
t_default() {
	trap 'sysctl -qw net.ipv4.tcp_congestion_control=cubic' EXIT
	sysctl -w net.ipv4.tcp_congestion_control=$CA >/dev/null || fail "sysctl -w ...=$CA failed"
	[ "$(sysctl -n net.ipv4.tcp_congestion_control)" = $CA ] || fail "default did not become $CA"
	iperf_lo "$ART/default.json" || fail "iperf3 with default $CA failed: $(tail -n 3 "$ART/default.json")"
	[ "$(json_cc "$ART/default.json")" = $CA ] || fail "iperf3 sender used '$(json_cc "$ART/default.json")'"
	if rmmod $MOD 2>/dev/null; then fail "rmmod succeeded while $CA is the system default"; fi
	sysctl -w net.ipv4.tcp_congestion_control=cubic >/dev/null || fail "switching back to cubic failed"
	[ "$(sysctl -n net.ipv4.tcp_congestion_control)" = cubic ] || fail "default did not return to cubic"
}
need_module "system default switches to $CA and back" &&
	check "system default switches to $CA (sockets use it, rmmod refused) and back to cubic" t_default

# ---------------------------------------------------------------- per socket
t_setsockopt() {
	iperf_lo "$ART/setsockopt.json" -C $CA || fail "iperf3 -C $CA failed: $(tail -n 3 "$ART/setsockopt.json")"
	[ "$(json_cc "$ART/setsockopt.json")" = $CA ] || fail "sender used '$(json_cc "$ART/setsockopt.json")'"
	_b=$(json_rx_bytes "$ART/setsockopt.json")
	[ "${_b:-0}" -gt 0 ] || fail "no bytes received"
}
need_module "setsockopt(TCP_CONGESTION, $CA)" &&
	check "setsockopt(TCP_CONGESTION, $CA): iperf3 -C $CA transfer completes, JSON reports $CA" t_setsockopt

t_pinned_by_transfer() {
	iperf3 -s -1 -p 5202 >/dev/null 2>&1 &
	_s=$!
	sleep 0.5
	timeout 30 iperf3 -c 127.0.0.1 -p 5202 -t 3 -C $CA >/dev/null 2>&1 &
	_c=$!
	wait_ca_socket || { wait $_c $_s; fail "no $CA socket seen in ss during the transfer"; }
	_rm=0
	rmmod $MOD 2>/dev/null && _rm=1
	wait $_c $_s
	[ $_rm = 0 ] || fail "rmmod succeeded during a $CA transfer"
}
need_module "rmmod refused during a transfer" &&
	check "rmmod is refused while a $CA socket is transferring" t_pinned_by_transfer

t_pinned_by_listener() {
	sysctl -qw net.ipv4.tcp_congestion_control=$CA
	iperf3 -s -p 5203 >/dev/null 2>&1 &
	_s=$!
	# The default may go back only once the listener exists: a fixed sleep lost that race
	# on a loaded host (the socket then got cubic and rmmod rightly succeeded).
	_i=0
	until ss -Hltn 'sport = :5203' | grep -q .; do
		_i=$((_i + 1))
		[ $_i -le 100 ] || { sysctl -qw net.ipv4.tcp_congestion_control=cubic; kill $_s
			fail "iperf3 -s did not listen within 10 s"; }
		sleep 0.1
	done
	sysctl -qw net.ipv4.tcp_congestion_control=cubic
	_rm=0
	rmmod $MOD 2>/dev/null && _rm=1
	kill $_s
	wait $_s
	[ $_rm = 0 ] || fail "rmmod succeeded while a listening socket created with default $CA exists"
	rmmod_retry || fail "rmmod still refused after the listener closed: $(ss -tan)"
	! available || fail "$CA still listed after rmmod"
	insmod "$BBR_A_KO" || fail "reload failed"
}
need_module "listening socket pins the module" &&
	check "a listening socket created under default $CA pins the module; rmmod works once it is closed" \
		t_pinned_by_listener

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

# ---------------------------------------------------------------- unloading
t_unload() {
	rmmod_retry || fail "rmmod failed: $(ss -tan)"
	! loaded || fail "still in /proc/modules"
	! available || fail "$CA still available"
}
need_module "rmmod once no socket uses $CA" && check "rmmod succeeds once no socket uses $CA" t_unload

t_cycles() {
	for _i in 1 2 3 4 5; do
		insmod "$BBR_A_KO" || fail "insmod #$_i failed"
		available || fail "$CA missing after insmod #$_i"
		rmmod $MOD || fail "rmmod #$_i failed"
		! available || fail "$CA still listed after rmmod #$_i"
	done
}
check "5 load/unload cycles" t_cycles

t_dmesg() {
	dmesg >"$ART/dmesg.txt"
	_bad=$(grep -wE 'WARNING|BUG|Oops|stall|stalls|stalled' "$ART/dmesg.txt"
		grep -E 'refcount|unreferenced object|general protection' "$ART/dmesg.txt")
	[ -z "$_bad" ] || fail "$_bad"
}
check "dmesg has no WARNING/BUG/Oops/stall/refcount/leak reports" t_dmesg

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed ($BBR_A_KERNEL, $(uname -r))"
[ "$failed" -eq 0 ]
