#!/bin/sh
# testbed/scenario.sh -- one RTT-fairness run on the dumbbell of topology.sh.
# POSIX sh: runs under busybox ash in the QEMU guest, under dash/bash as root on a host.
# Writes raw outputs only (no analysis: that is testbed/analyze.py, on the host).
set -u
# One compound command: the shell reads the whole script before running it, so editing
# the file during a run cannot change the run.
{

usage() {
	cat <<'EOF'
usage: scenario.sh --rtt MS[,MS...] --rate MBIT --buffer BYTES --duration S --out DIR [options]

  --cc CC[,CC...]      congestion control: one for all flows, or one per RTT class (default bbr)
  --rtt MS[,MS...]     base RTT of each sender class, ms
  --flows-per-rtt N    flows per RTT class (default 1); flows alternate between classes
  --rate MBIT          bottleneck rate, Mbit/s
  --buffer BYTES       bottleneck buffer (bfifo limit), bytes
  --loss PCT           random loss after the bottleneck, percent (default 0)
  --duration S         whole seconds; every flow ends at about S after the first start
  --warmup S           recorded for the analysis (default 5)
  --stagger S          seconds between consecutive flow starts (default 0)
  --starts S,S,...     explicit start offset of every flow, seconds (overrides --stagger)
  --jitter S           extra random start delay in [0,S), drawn from --seed (default 0)
  --seed N             seed for the jitter; recorded (default 1)
  --interval S         iperf3 report interval (default 1)
  --sample-ms MS       ss/tc sampling period, 0 = off (default 100)
  --module-param K=V   tcp_bbr_a module parameter (repeatable)
  --load CC[,CC...]    also make these congestion controls available before the run, in this
                       order (rtt_fairness.sh passes all ccs it compares, so that every run
                       of a comparison prepares the kernel with the same commands)
  --port-base P        first iperf3 port (default 5201)
  --streams N          at most N flows per iperf3 client (1..128, default 128): flows of one
                       RTT class that start together run as one client with -P (its own TCP
                       connection each); 1 = one iperf3 process per flow
  --out DIR            output directory (created)
  --plan               print the flow table and the iperf3 clients, run nothing (no root)
Env: BBR_A_KO = tcp_bbr_a.ko to insmod when one of its ccs (bbr_a, bbr_a_fair, bbq, da_bbr) is
asked for and it is not loaded
(default: tcp_bbr_a.ko next to testbed/). TB_PREFIX = namespace prefix (default bbra<pid>-).
EOF
}

die() { echo "scenario: $*" >&2; exit 1; }
log() { echo "scenario: $*" >&2; }
isnum() { case $1 in '' | *[!0-9.]* | *.*.* | .) return 1 ;; esac; }
isint() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

CC=bbr RTTS='' FPR=1 RATE='' BUF='' LOSS=0 DUR='' WARMUP=5 STAGGER=0 JITTER=0 SEED=1 IV=1 SAMPLE_MS=100
MODPARAMS='' PORT0=5201 OUT='' STARTS='' LOAD='' MAXS=128 PLAN=0
while [ $# -gt 0 ]; do
	[ "$1" != --plan ] || { PLAN=1; shift; continue; }
	[ $# -ge 2 ] || case $1 in -h | --help) ;; *) echo "scenario: $1 needs a value" >&2; exit 2 ;; esac
	case $1 in
	--cc) CC=$2 ;; --rtt) RTTS=$2 ;; --flows-per-rtt) FPR=$2 ;; --rate) RATE=$2 ;;
	--buffer) BUF=$2 ;; --loss) LOSS=$2 ;; --duration) DUR=$2 ;; --warmup) WARMUP=$2 ;;
	--stagger) STAGGER=$2 ;; --starts) STARTS=$2 ;; --jitter) JITTER=$2 ;; --seed) SEED=$2 ;; --interval) IV=$2 ;;
	--sample-ms) SAMPLE_MS=$2 ;; --port-base) PORT0=$2 ;; --out) OUT=$2 ;; --streams) MAXS=$2 ;;
	--module-param) MODPARAMS="$MODPARAMS $2" ;; --load) LOAD=$2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "scenario: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift 2
done

bad() { echo "scenario: $*" >&2; exit 2; }
[ -n "$RTTS" ] || bad "--rtt is required"
[ -n "$OUT" ] || [ "$PLAN" = 1 ] || bad "--out is required"
RTTS=$(echo "$RTTS" | tr ',' ' ')
CCS=$(echo "$CC" | tr ',' ' ')
LOAD=$(echo "$LOAD" | tr ',' ' ')
for v in $RTTS; do isnum "$v" || bad "bad --rtt value '$v'"; done
for v in "$RATE" "$LOSS" "$WARMUP" "$STAGGER" "$JITTER" "$IV"; do isnum "$v" || bad "bad numeric value '$v'"; done
for v in "$BUF" "$DUR" "$FPR" "$SEED" "$SAMPLE_MS" "$PORT0" "$MAXS"; do isint "$v" || bad "bad integer value '$v'"; done
[ "$MAXS" -ge 1 ] && [ "$MAXS" -le 128 ] || bad "--streams: $MAXS is not in 1..128 (iperf3's -P limit)"
STARTS=$(echo "$STARTS" | tr ',' ' ')
for v in $STARTS; do isnum "$v" || bad "bad --starts value '$v'"; done
for c in $CCS $LOAD; do case $c in *[!a-z0-9_]*) bad "bad congestion control name '$c'" ;; esac; done
for p in $MODPARAMS; do case $p in [a-z_]*=*) ;; *) bad "bad --module-param '$p' (want key=value)" ;; esac; done
NCLASS=$(echo $RTTS | wc -w) NCC=$(echo $CCS | wc -w)
[ -z "$STARTS" ] || [ "$(echo $STARTS | wc -w)" = $((NCLASS * FPR)) ] ||
	bad "--starts: give one offset per flow ($((NCLASS * FPR)))"
[ "$NCC" = 1 ] || [ "$NCC" = "$NCLASS" ] || bad "--cc: give one cc or one per RTT class ($NCLASS)"
# flow table: index class rtt cc port start_s run_s group stream (classes alternate; every flow
# ends at ~DUR). Flows of one class with the same start and length form a group, run by one
# iperf3 client (-P, one TCP connection per flow; up to --streams flows): a UML guest pays for
# every process switch, and 100 iperf3 processes cost ~25 times the wall time of one -P 100.
# group = index of its first flow (names flow<group>.json, port PORT0 + group - 1); stream =
# the flow's position among the client's connections. groups.txt: group class cc port
# start_s run_s flow indices (comma separated).
flow_table() { # flow_table FLOWS_FILE GROUPS_FILE
	awk -v rtts="$RTTS" -v ccs="$CCS" -v F="$FPR" -v st="$STAGGER" -v jit="$JITTER" -v maxs="$MAXS" \
		-v seed="$SEED" -v dur="$DUR" -v p0="$PORT0" -v starts="$STARTS" -v gfile="$2" 'BEGIN {
		K = split(rtts, R, " "); C = split(ccs, CC, " "); N = split(starts, S, " "); srand(seed); i = 0
		ng = 0
		for (j = 1; j <= F; j++) for (k = 1; k <= K; k++) {
			i++; s = (N ? S[i] : st * (i - 1)) + (jit > 0 ? rand() * jit : 0)
			if (s >= dur - 0.5) { print "flow " i " would start at " s " s, after the end" > "/dev/stderr"; exit 1 }
			r = int(dur - s); if (r < dur - s) r++
			s = sprintf("%.3f", s); cc = (C == 1 ? CC[1] : CC[k]); key = k " " s " " r
			if ((key in G) && NS[G[key]] < maxs) g = G[key]
			else { g = i; G[key] = i; NS[g] = 0; order[++ng] = g; GL[g] = k " " cc " " (p0 + g - 1) " " s " " r }
			printf "%d %d %s %s %d %s %d %d %d\n", i, k, R[k], cc, p0 + g - 1, s, r, g, NS[g]++
			M[g] = (NS[g] > 1) ? M[g] "," i : i
		}
		for (n = 1; n <= ng; n++) print order[n], GL[order[n]], M[order[n]] > gfile
		}' > "$1"
}
if [ "$PLAN" = 1 ]; then
	t=$(mktemp -d) || die "mktemp failed"
	flow_table "$t/flows" "$t/groups" && echo "# flows: index class rtt_ms cc port start_s run_s group stream" &&
		cat "$t/flows" && echo "# iperf3 clients: group class cc port start_s run_s flows" && cat "$t/groups"
	rc=$?
	rm -rf "$t"
	exit $rc
fi
[ "$(id -u)" = 0 ] || die "must run as root (network namespaces, qdiscs)"

# Appended, not prepended: a guest may put its own tools first (UML's modprobe wrapper, which
# knows the kernel's built-in modules).
export PATH="$PATH:/sbin:/usr/sbin:/bin:/usr/bin"
TB_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TB_DIR/topology.sh"
tb_find_tools || exit 1
for t in iperf3 awk timeout; do command -v $t >/dev/null 2>&1 || die "$t is required"; done
PING=ping
command -v ping >/dev/null 2>&1 || { command -v busybox >/dev/null 2>&1 && PING="busybox ping"; } ||
	die "ping is required (iputils-ping or busybox)"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
# Raw files are written to a scratch directory in local memory (in the guest, $OUT is a
# 9p share; per-line writes there would cost emulated time) and copied to $OUT on exit.
W=$(mktemp -d "${TMPDIR:-/tmp}/bbra-scen.XXXXXX") || die "mktemp failed"

SAMPLER_PIDS='' CLIENT_PIDS='' SERVER_PIDS='' KO_LOADED=0 TRACING=0
cleanup() {
	rc=$?
	trap - EXIT INT TERM
	# shellcheck disable=SC2086
	[ -z "$SAMPLER_PIDS$CLIENT_PIDS$SERVER_PIDS" ] || kill $SAMPLER_PIDS $CLIENT_PIDS $SERVER_PIDS 2>/dev/null
	[ "$TRACING" = 0 ] || echo 0 > /sys/kernel/tracing/events/bbr_a/bbr_a_gain/enable
	tb_teardown
	# Unload what this run loaded (the namespaces' sockets go away asynchronously: retry).
	if [ "$KO_LOADED" = 1 ]; then
		n=0
		until rmmod tcp_bbr_a 2>/dev/null; do
			n=$((n + 1))
			[ $n -lt 20 ] || { log "tcp_bbr_a still in use: left loaded"; break; }
			sleep 0.2
		done
	fi
	cp -r "$W/." "$OUT/" && rm -rf "$W" || echo "scenario: raw outputs left in $W" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

P="$W/params.env"
param() { printf '%s=%s\n' "$1" "$2" >> "$P"; }

# ---- congestion control modules --------------------------------------------------------
# With a seeded guest (UML backend) every fork and exec draws from the guest's RNG, which then
# picks ports, sequence numbers and iperf3 cookies: runs that are to be compared must create
# the same processes before their flows. So the ccs of --load come first, in their order, the
# checks use shell builtins only, and which cc this run uses changes nothing here.
avail() {
	read -r have < /proc/sys/net/ipv4/tcp_available_congestion_control
	case " $have " in *" $1 "*) return 0 ;; esac
	return 1
}
# the congestion controls tcp_bbr_a.ko registers
is_module_cc() { case $1 in bbr_a | bbr_a_fair | bbq | da_bbr) return 0 ;; esac; return 1; }
PREP=
for c in $LOAD $CCS; do case " $PREP " in *" $c "*) ;; *) PREP="$PREP $c" ;; esac; done
for c in $PREP; do
	if is_module_cc "$c"; then
		ko=${BBR_A_KO:-$TB_DIR/../tcp_bbr_a.ko}
		if [ ! -d /sys/module/tcp_bbr_a ]; then
			[ -f "$ko" ] || die "$c is not loaded and $ko does not exist (set BBR_A_KO)"
			# shellcheck disable=SC2086
			insmod "$ko" $MODPARAMS || die "insmod $ko$MODPARAMS failed"
			KO_LOADED=1
			log "loaded $ko$MODPARAMS (unloaded again at the end)"
		else
			for p in $MODPARAMS; do
				f=/sys/module/tcp_bbr_a/parameters/${p%%=*}
				[ -w "$f" ] && echo "${p#*=}" > "$f" ||
					die "tcp_bbr_a is loaded and parameter ${p%%=*} cannot be set at run time: rmmod tcp_bbr_a first"
			done
		fi
	elif ! avail "$c"; then
		modprobe "tcp_$c" 2>/dev/null || true
	fi
	avail "$c" || die "congestion control $c is not available (have: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control))"
done

# ss needs tcp_diag for tcp_info (cwnd, rtt, pacing rate, bbr state)
modprobe tcp_diag 2>/dev/null || [ -d /sys/module/tcp_diag ] ||
	log "warning: tcp_diag is not available: ss snapshots will lack tcp_info (cwnd, rtt, bbr)"

# ---- parameters ---------------------------------------------------------------------------
: > "$P"
modver=none
if [ -d /sys/module/tcp_bbr_a ]; then
	modver=$(cat /sys/module/tcp_bbr_a/version 2>/dev/null) ||
		modver=$(modinfo -F version "${BBR_A_KO:-$TB_DIR/../tcp_bbr_a.ko}" 2>/dev/null) || modver=unknown
	[ -n "$modver" ] || modver=unknown
	effective=
	for f in /sys/module/tcp_bbr_a/parameters/*; do
		[ -r "$f" ] && effective="$effective ${f##*/}=$(cat "$f")"
	done
	param module_params_effective "$(echo $effective)"
	param module_srcversion "$(cat /sys/module/tcp_bbr_a/srcversion 2>/dev/null)"
fi
param kernel "$(uname -r)"
param kernel_series "${BBR_A_KERNEL:-host}"
param module_version "$modver"
param module_params "$(echo $MODPARAMS)"
param cc "$(echo $CCS)"
param rtts_ms "$(echo $RTTS)"
param flows_per_rtt "$FPR"
param rate_mbit "$RATE"
param buffer_bytes "$BUF"
param loss_pct "$LOSS"
param duration_s "$DUR"
param warmup_s "$WARMUP"
param stagger_s "$STAGGER"
param starts_s "$STARTS"
param jitter_s "$JITTER"
param seed "$SEED"
param interval_s "$IV"
param sample_ms "$SAMPLE_MS"
param available_cc "$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"

flow_table "$W/flows.txt" "$W/groups.txt" || exit 2
NFLOWS=$(wc -l < "$W/flows.txt")
NGROUPS=$(wc -l < "$W/groups.txt")
param flows "$NFLOWS"
param iperf3_clients "$NGROUPS"
param streams_per_client_max "$MAXS"
param flow_table "index class rtt_ms cc port start_s run_s group stream (file flows.txt)"

# ---- topology --------------------------------------------------------------------------------
# shellcheck disable=SC2034 # read by tb_setup (topology.sh)
TB_RTTS=$RTTS TB_RATE=$RATE TB_BUF=$BUF TB_LOSS=$LOSS
tb_setup || die "topology setup failed"
param ns_prefix "$TB_PREFIX"
log "dumbbell up: $NCLASS sender class(es), rtt {$RTTS} ms, $RATE Mbit/s, buffer $BUF B, loss $LOSS %"

k=1
for r in $RTTS; do
	tb_exec "s$k" $PING -c 5 -i 0.2 -q "$TB_RCV_ADDR" > "$W/ping_s$k.txt" 2>&1 || die "ping from s$k failed: $(tail -n 2 "$W/ping_s$k.txt")"
	min=$(awk -F'= ' '/min\/avg\/max/ { split($2, a, "/"); print a[1] }' "$W/ping_s$k.txt")
	[ -n "$min" ] || die "cannot parse ping output of s$k"
	param "base_rtt_ms_s$k" "$min"
	log "base RTT s$k: $min ms (asked $r ms)"
	k=$((k + 1))
done

cat /proc/net/softnet_stat > "$W/softnet_start.txt" 2>/dev/null
k=1
while [ $k -le "$NCLASS" ]; do tb_exec "s$k" cat /proc/net/snmp > "$W/snmp_s${k}_start.txt"; k=$((k + 1)); done

# ---- receivers -------------------------------------------------------------------------------
while read -r g cls cc port st run members; do
	tb_exec d iperf3 -s -1 -J -p "$port" > "$W/server$g.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
done < "$W/groups.txt"
n=0
while :; do
	up=$(tb_exec d "$TB_SS" -ltnH | awk -v p0="$PORT0" -v n="$NFLOWS" \
		'{ sub(/.*:/, "", $4); if ($4 >= p0 && $4 < p0 + n) c++ } END { print c + 0 }')
	[ "$up" -ge "$NGROUPS" ] && break
	n=$((n + 1))
	[ $n -lt 300 ] || die "iperf3 servers did not start ($up of $NGROUPS listening after 30 s)"
	sleep 0.1
done

# ---- samplers (raw snapshots; each starts with a line "@ <uptime seconds>") -----------------
# With BBR_A_SAMPLER (testbed/sampler.c; the UML runner provides it) one process samples
# every namespace over netlink and writes the same files; otherwise a shell loop per
# namespace starts ss or tc for every sample.
nsdir=/run/netns
[ -d $nsdir ] || nsdir=/var/run/netns
if [ "$SAMPLE_MS" -gt 0 ] && [ -x "${BBR_A_SAMPLER:-}" ]; then
	set --
	k=1
	while [ $k -le "$NCLASS" ]; do set -- "$@" tcp "$nsdir/$(tb_ns "s$k")" "$W/ss_s$k.txt"; k=$((k + 1)); done
	"$BBR_A_SAMPLER" "$SAMPLE_MS" $((DUR + 600)) "$TB_RCV_ADDR" "$@" \
		qdisc "$nsdir/$(tb_ns r)" to_rcv "$W/tc.txt" 2> "$W/sampler.err" &
	SAMPLER_PIDS="$SAMPLER_PIDS $!"
	param sampler netlink
elif [ "$SAMPLE_MS" -gt 0 ]; then
	param sampler ss-tc
	si=$(awk -v m="$SAMPLE_MS" 'BEGIN { print m / 1000 }')
	loop='while :; do read -r up _ < /proc/uptime; echo "@ $up"; "$@"; sleep '$si'; done'
	k=1
	while [ $k -le "$NCLASS" ]; do
		tb_exec "s$k" sh -c "$loop" sampler "$TB_SS" -tinH dst "$TB_RCV_ADDR" > "$W/ss_s$k.txt" 2>&1 &
		SAMPLER_PIDS="$SAMPLER_PIDS $!"
		k=$((k + 1))
	done
	tb_exec r sh -c "$loop" sampler "$TB_TC" -s -j qdisc show dev to_rcv > "$W/tc.txt" 2>&1 &
	SAMPLER_PIDS="$SAMPLER_PIDS $!"
fi

# ---- module tracepoint (bbr_a:bbr_a_gain, one event per round per bbr_a/bbr_a_fair flow) -------
# One reader process for the whole run, started in every run where the module is loaded (a bbr
# run of a comparison too, so that both runs create the same processes).
TRACEFS=/sys/kernel/tracing
if [ -d /sys/module/tcp_bbr_a ]; then
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	if [ -d $TRACEFS/events/bbr_a ]; then
		echo > $TRACEFS/trace
		echo boot > $TRACEFS/trace_clock # the clock of /proc/uptime
		echo 1 > $TRACEFS/events/bbr_a/bbr_a_gain/enable
		read -r up _ < /proc/uptime
		echo "@ $up" > "$W/trace.txt"
		cat $TRACEFS/trace_pipe >> "$W/trace.txt" &
		SAMPLER_PIDS="$SAMPLER_PIDS $!"
		TRACING=1
	else
		log "warning: no tracefs event bbr_a/bbr_a_gain: no gain trace (kernel without tracing?)"
	fi
fi

# ---- flows -----------------------------------------------------------------------------------
# The cc is each sender namespace's default, not iperf3 -C: -C sends the cc's name over the
# control connection while other flows run, so a bbr vs bbr_a run would differ by those bytes.
while read -r g cls cc port st run members; do
	"$TB_IP" netns exec "$(tb_ns "s$cls")" sh -c \
		"echo $cc > /proc/sys/net/ipv4/tcp_congestion_control" ||
		die "cannot make $cc the congestion control of sender namespace s$cls"
done < "$W/groups.txt"
read -r t0 _ < /proc/uptime
param t0_uptime "$t0"
: > "$W/flow_starts.txt"
while read -r g cls cc port st run members; do
	(
		[ "$st" = 0.000 ] || sleep "$st"
		read -r up _ < /proc/uptime
		for i in $(echo "$members" | tr ',' ' '); do echo "$i $up"; done >> "$W/flow_starts.txt"
		set -- -P "$(echo "$members" | awk -F, '{ print NF }')"
		[ "$1 $2" != "-P 1" ] || set --
		exec "$TB_IP" netns exec "$(tb_ns "s$cls")" timeout $((run + 60)) iperf3 -c "$TB_RCV_ADDR" \
			-p "$port" -t "$run" -i "$IV" -J --get-server-output "$@" \
			> "$W/flow$g.json" 2> "$W/flow$g.err"
	) &
	CLIENT_PIDS="$CLIENT_PIDS $!"
done < "$W/groups.txt"
log "$NFLOWS flow(s) started in $NGROUPS iperf3 client(s), running ~$DUR s"

failed=0
exec 3< "$W/groups.txt"
for pid in $CLIENT_PIDS; do
	read -r g _ <&3
	if wait "$pid"; then rc=0; else rc=$?; failed=$((failed + 1)); fi
	param "flow_rc_$g" "$rc"
	[ "$rc" = 0 ] || log "iperf3 client $g: exit status $rc ($(head -c 300 "$W/flow$g.err"))"
done
exec 3<&-
CLIENT_PIDS=
read -r t1 _ < /proc/uptime
param end_uptime "$t1"

# ---- final snapshots -------------------------------------------------------------------------
# shellcheck disable=SC2086
[ -z "$SAMPLER_PIDS" ] || kill $SAMPLER_PIDS 2>/dev/null
SAMPLER_PIDS=
for n in r l; do
	[ -e "/run/netns/$(tb_ns $n)" ] || [ -e "/var/run/netns/$(tb_ns $n)" ] || continue
	{ echo "### namespace $n"; tb_tcn $n -s qdisc show; tb_ipn $n -s link show; } >> "$W/tc_final.txt" 2>&1
done
k=1
while [ $k -le "$NCLASS" ]; do tb_exec "s$k" cat /proc/net/snmp > "$W/snmp_s${k}_end.txt"; k=$((k + 1)); done
cat /proc/net/softnet_stat > "$W/softnet_end.txt" 2>/dev/null
dmesg 2>/dev/null | tail -n 40 > "$W/dmesg_tail.txt"
param flows_failed "$failed"
[ "$failed" = 0 ] || die "$failed of $NGROUPS iperf3 client(s) failed"
log "done: raw outputs in $OUT"
exit
}
