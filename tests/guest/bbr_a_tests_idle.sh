# tests/guest/bbr_a_tests_idle.sh -- the part of bbr_a_tests.sh that checks idle restarts
# (trace event ev=2) for every algorithm; sourced by it after the gains, or alone after the
# loading checks with BBR_A_ONLY=idle_restart (POSIX sh).
# shellcheck shell=sh

# ---------------------------------------------------------------- idle restart (ev=2)
# The first send after an idle period reaches the congestion control's TX-start hook: since
# Linux 7.1 .cwnd_event_tx_start, before that CA_EVENT_TX_START through .cwnd_event; the
# module traces each app-limited restart as ev=2. A module that filled only .cwnd_event
# would, on 7.1+, never be called there and emit no ev=2 at all: this check fails then.
# t_idle_restart CC ALGO PORT: iperf3 limited to 10 writes of 1000 bytes a second over
# loopback, where every write finds nothing in flight (an app-limited restart from idle).
t_idle_restart() {
	_cc=$1 _algo=$2 _port=$3 _t=$ART/idle_$1
	[ -d $TRACE/events ] || mount -t tracefs nodev $TRACE || fail "cannot mount tracefs"
	[ -d $TRACE/events/bbr_a/bbr_a_gain ] || fail "no event bbr_a/bbr_a_gain"
	echo 0 >$TRACE/options/record-cmd # see t_trace
	echo >$TRACE/trace && echo 1 >$TRACE/events/bbr_a/bbr_a_gain/enable || fail "cannot enable bbr_a_gain"
	iperf3 -s -1 -p "$_port" >/dev/null 2>&1 &
	_s=$!
	sleep 0.5
	timeout 30 iperf3 -c 127.0.0.1 -p "$_port" -t 2 -C "$_cc" -b 80K -l 1000 >"$_t.txt" 2>&1
	_rc=$?
	wait $_s
	echo 0 >$TRACE/events/bbr_a/bbr_a_gain/enable
	grep 'bbr_a_gain:' $TRACE/trace >"$_t.trace"
	[ $_rc = 0 ] || fail "iperf3 -C $_cc -b 80K failed: $(tail -n 3 "$_t.txt")"
	_all=$(grep -c " dport=$_port " "$_t.trace")
	_n=$(grep " dport=$_port " "$_t.trace" | grep -c " algo=$_algo .* ev=2 ")
	echo "$_cc: $_n idle-restart (ev=2) events of $_all"
	# the connection starts app-limited, so its first send is one: ask for a second
	[ "$_n" -ge 2 ] || fail "$_n ev=2 events for the $_cc connection (dport=$_port), 2 or more expected:" \
		"the TX-start hook was not called ($_all events in all: $(head -n 3 "$_t.trace"))"
}
if need_module "idle restart traced (ev=2)"; then
	_p=5210
	for _a in "$CA 0" "bbr_a_fair 1" "bbq 2" "da_bbr 3"; do
		set -- $_a
		check "$1: an app-limited connection that idles and sends again is traced as an idle restart (ev=2)" \
			t_idle_restart "$1" "$2" $_p
		_p=$((_p + 1))
	done
fi
