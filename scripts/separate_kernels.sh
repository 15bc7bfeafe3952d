#!/usr/bin/env bash
# scripts/separate_kernels.sh -- the RTT-fairness dumbbell with every sender class in a kernel
# of its own: one UML guest per class and one for the router and receiver, joined by host
# taps on host bridges, in real time (UML's time travel cannot couple two guests' clocks).
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh" # die, bad, log, results_dir; REPO

usage() {
	cat <<EOF
Usage: scripts/$PROG [options]

The testbed's dumbbell (testbed/topology.sh) with the senders in separate kernels: sender
class k is UML guest s<k> (10.1.k.2, one default cc, tcp_bbr_a loaded), the router and the
receiver are a third guest (namespaces r and d: netem with the class's base RTT on r's link
toward s<k>, the htb bottleneck and its bfifo on r's link to d, a tcpflow.py sink per
class in d). Each link is two host taps on a host bridge. The guests run in real time, at
a rate they must hold: a calibration run (a lone cubic flow) and every run are checked for
it (the bottleneck's load, the testbed's bottleneck_load, at least 0.95). Each run's
outputs become a testbed run directory (testbed/analyze.py: summary.json as
testbed/rtt_fairness.sh's).

  --cc LIST          comma separated items, one run each (default bbr_a_fair,bbr); an item
                     is a cc for every flow, or one per class joined by '+'
  --rtt LIST         base RTTs in ms, one sender guest each, 1..4 classes (default 10,50)
  --rate MBIT        bottleneck rate, Mbit/s (default 20)
  --buffer-bdp X     buffer = X x rate x the largest RTT (default 5)
  --flows-per-rtt N  flows per class, 1..16, one client in its guest (default 1)
  --duration S       whole seconds of traffic, 10..3600 (default 60)
  --warmup S         seconds left out of the statistics at the start (default 10)
  --seeds LIST       comma separated; one run per cc item and seed (the guests' RNG; real
                     time: a run does not repeat) (default 1)
  --sample-ms MS     the router's qdisc and the senders' sockets sampled, 10..1000 (default 100)
  --calibrate S      the lone cubic flow's seconds before the runs, 0 = none (default 20);
                     the runs start only if it held the rate
  --module-param K=V tcp_bbr_a module parameter in every sender guest (repeatable)
  --boot-stagger S   sender k's guest boots a random 0..S s (from the seed) after the
                     router's, so that the senders' jiffies have phases of their own, as
                     hosts booted at other times do (bbr_a_fair's PROBE_RTT grid follows
                     the wall clock since 0.22.0: --clock-offset); 0: all at once
                     (default 10); params.env boot_delay_s<k>, grid_phase_s<k> (jiffies)
  --clock-offset MS  sender k's wall clock is set a random -MS..+MS ms (from the seed) off the
                     host's before its module loads, as NTP leaves hosts' clocks apart:
                     bbr_a_fair's PROBE_RTT grid is the wall clock's (default 0: the guests,
                     in real time, read the host's clock); params.env clock_offset_ms_s<k>
  --mem MB           each guest's memory (default 512)
  --rt-prio P        the guests run SCHED_FIFO at priority P, 1..99, 0 = the host's
                     default scheduling (default 10): on a loaded host a guest woken late
                     loses its htb's tokens (below); the kernel's RT throttling
                     (sched_rt_runtime_us) keeps a share of every core for the rest
  --out DIR          results, must be new or empty (default results/separate_kernels-<stamp>):
                     DIR/runs/<item>/run<r> and their DIR/runs/summary.json (as
                     rtt_fairness.sh's OUT), DIR/calibration/, DIR/separate.json (the
                     rate held, CPU)
  --dry-run          check the options, print the plan; set nothing up
  -h, --help         this text

Needs root (host taps and bridges), /dev/net/tun and the UML kernel's "net" variant
(BBR_A_UML_VARIANT=net scripts/uml.sh build: built here when missing). Stopping (Ctrl-C,
TERM) or a failure kills the guests and removes the taps and bridges. Exit status: 0 ok,
1 a run failed or did not hold the rate, 2 bad usage.
EOF
}

CCS=bbr_a_fair,bbr RTTS=10,50 RATE=20 BUFFER_BDP=5 FLOWS=1 DURATION=60 WARMUP=10 SEEDS=1
SAMPLE_MS=100 CALIBRATE=20 MEM=512 OUT='' DRY=0 RT_PRIO=10 STAGGER=10 OFFSET=0
MODULE_PARAMS=()
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) DRY=1; shift; continue ;;
	--cc | --rtt | --rate | --buffer-bdp | --flows-per-rtt | --duration | --warmup | --seeds | \
		--sample-ms | --calibrate | --module-param | --mem | --out | --rt-prio | --boot-stagger | \
		--clock-offset)
		[[ $# -ge 2 ]] || bad "$1 needs a value" ;;
	*) bad "unknown option '$1'" ;;
	esac
	case $1 in
	--cc) CCS=$2 ;; --rtt) RTTS=$2 ;; --rate) RATE=$2 ;; --buffer-bdp) BUFFER_BDP=$2 ;;
	--flows-per-rtt) FLOWS=$2 ;; --duration) DURATION=$2 ;; --warmup) WARMUP=$2 ;;
	--seeds) SEEDS=$2 ;; --sample-ms) SAMPLE_MS=$2 ;; --calibrate) CALIBRATE=$2 ;;
	--module-param) MODULE_PARAMS+=("$2") ;; --mem) MEM=$2 ;; --out) OUT=$2 ;; --rt-prio) RT_PRIO=$2 ;;
	--boot-stagger) STAGGER=$2 ;; --clock-offset) OFFSET=$2 ;;
	esac
	shift 2
done

# ---- checks, before anything is set up -------------------------------------------------------
NUM='^([0-9]+([.][0-9]*)?|[.][0-9]+)$'
check() { awk "BEGIN { exit !($1) }"; }
isint() { [[ $1 =~ ^[0-9]+$ ]] && check "$1 >= $2 && $1 <= $3"; }
IFS=, read -r -a RTT_LIST <<<"$RTTS"
[[ ,$RTTS, != *,,* && ${#RTT_LIST[@]} -ge 1 && ${#RTT_LIST[@]} -le 4 ]] ||
	bad "--rtt: '$RTTS' is not 1 to 4 comma separated RTTs (one sender guest each)"
for r in "${RTT_LIST[@]}"; do
	[[ $r =~ $NUM ]] && check "$r > 0 && $r <= 1000" || bad "--rtt: '$r' is not a delay in ms (0 < ms <= 1000)"
done
IFS=, read -r -a CC_LIST <<<"$CCS"
[[ -n $CCS && ,$CCS, != *,,* ]] || bad "--cc: '$CCS' has an empty item"
for c in "${CC_LIST[@]}"; do
	IFS=+ read -r -a parts <<<"$c"
	for p in "${parts[@]}"; do
		[[ $p =~ ^[a-z][a-z0-9_]{0,14}$ ]] || bad "--cc: '$p' is not a congestion control name"
	done
	[[ ${#parts[@]} == 1 || ${#parts[@]} == "${#RTT_LIST[@]}" ]] ||
		bad "--cc: '$c' names ${#parts[@]} ccs; give one, or one per class (${#RTT_LIST[@]})"
done
[[ $RATE =~ $NUM ]] && check "$RATE > 0 && $RATE <= 1000" || bad "--rate: '$RATE' is not a rate in Mbit/s (0 < r <= 1000)"
[[ $BUFFER_BDP =~ $NUM ]] && check "$BUFFER_BDP > 0 && $BUFFER_BDP <= 1000" ||
	bad "--buffer-bdp: '$BUFFER_BDP' is not a positive multiple (<= 1000)"
isint "$FLOWS" 1 16 || bad "--flows-per-rtt: '$FLOWS' is not an integer in 1..16"
isint "$DURATION" 10 3600 || bad "--duration: '$DURATION' is not a whole number of seconds in 10..3600"
[[ $WARMUP =~ $NUM ]] && check "$WARMUP + 1 < $DURATION" ||
	bad "--warmup: '$WARMUP' is not a number of seconds below --duration ($DURATION) less 1"
[[ $SEEDS =~ ^[0-9]{1,9}(,[0-9]{1,9})*$ ]] || bad "--seeds: '$SEEDS' is not a comma separated list of integers"
isint "$SAMPLE_MS" 10 1000 || bad "--sample-ms: '$SAMPLE_MS' is not an integer in 10..1000"
[[ $CALIBRATE == 0 ]] || isint "$CALIBRATE" 10 600 || bad "--calibrate: '$CALIBRATE' is not 0 or seconds in 10..600"
isint "$MEM" 128 8192 || bad "--mem: '$MEM' is not a size in MB (128..8192)"
isint "$RT_PRIO" 0 99 || bad "--rt-prio: '$RT_PRIO' is not a priority in 0..99"
[[ $STAGGER =~ $NUM ]] && check "$STAGGER <= 60" || bad "--boot-stagger: '$STAGGER' is not seconds in 0..60"
isint "$OFFSET" 0 60000 || bad "--clock-offset: '$OFFSET' is not an integer of ms in 0..60000"
for p in "${MODULE_PARAMS[@]}"; do
	[[ $p =~ ^[a-z_][a-z0-9_]*=[A-Za-z0-9_.:+-]+$ ]] || bad "--module-param: '$p' is not key=value"
done
[[ -n $OUT ]] || OUT=$REPO/results/separate_kernels-$(date +%Y%m%d-%H%M%S)
[[ ! -e $OUT || -d $OUT ]] || bad "--out: '$OUT' exists and is not a directory"
if [[ -d $OUT && -n $(find -H "$OUT" -mindepth 1 -maxdepth 1 ! -name "$RESULTS_TAG" -print -quit) ]]; then
	bad "--out: '$OUT' is not empty"
fi
IFS=, read -r -a SEED_LIST <<<"$SEEDS"
NK=${#RTT_LIST[@]}
MAXRTT=$(printf '%s\n' "${RTT_LIST[@]}" | sort -g | tail -n1)
BDP=$(awk "BEGIN { printf \"%d\", $RATE * 1e6 / 8 * $MAXRTT / 1000 + 0.5 }")
BUFFER=$(awk "BEGIN { b = int($BUFFER_BDP * $BDP + 0.5); print (b < 1514 ? 1514 : b) }")
# host names: bridge <P>b<k>, the sender's tap <P>s<k>, the router's <P>r<k> (<= 15 chars)
P=sk$$
TIMEOUT=$((DURATION + CALIBRATE + 600))

plan() {
	log "buffer: $BUFFER_BDP x BDP ($RATE Mbit/s x $MAXRTT ms = $BDP B) = $BUFFER B"
	log "senders boot 0..$STAGGER s after the router (--boot-stagger)"
	((OFFSET == 0)) || log "senders' wall clocks set -$OFFSET..+$OFFSET ms off the host's (--clock-offset)"
	log "links: $(for ((k = 1; k <= NK; k++)); do printf '%s ' "bridge ${P}b$k: taps ${P}s$k (s$k, ${RTT_LIST[k - 1]} ms) + ${P}r$k (router)"; done)"
	((CALIBRATE == 0)) || echo "calibration: a lone cubic flow from s1 for $CALIBRATE s -> $OUT/calibration"
	local c s r
	for c in "${CC_LIST[@]}"; do
		r=0
		for s in "${SEED_LIST[@]}"; do
			r=$((r + 1))
			echo "run: --cc $c --rtt $RTTS --flows-per-rtt $FLOWS --rate $RATE --buffer $BUFFER --duration $DURATION --seed $s -> $OUT/runs/$c/run$r"
		done
	done
}
if ((DRY)); then
	plan
	log "dry run: nothing set up"
	exit 0
fi
[[ $(id -u) == 0 ]] || die "must run as root (host taps and bridges)"
[[ -c /dev/net/tun ]] || die "/dev/net/tun is missing (the guests' links are host taps)"
need ip awk chrt /usr/bin/python3
export BBR_A_UML_VARIANT=net
"$REPO/scripts/uml.sh" build >/dev/null || die "the UML kernel's net variant could not be built"
"$REPO/scripts/uml.sh" module >/dev/null || die "tcp_bbr_a.ko could not be built for it"

# ---- the host's links; what is made is removed again at any exit -------------------------------
MADE=() GUEST_PIDS=() CPU_PID=''
cleanup() {
	local p i
	trap '' INT TERM HUP
	for p in "${GUEST_PIDS[@]}" $CPU_PID; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${GUEST_PIDS[@]}" $CPU_PID; do wait "$p" 2>/dev/null || true; done
	for ((i = ${#MADE[@]} - 1; i >= 0; i--)); do ip link del "${MADE[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM
trap 'log "hung up"; exit 129' HUP

results_dir "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
plan
for ((k = 1; k <= NK; k++)); do
	ip link add "${P}b$k" type bridge forward_delay 0 || die "cannot create bridge ${P}b$k"
	MADE+=("${P}b$k")
	for t in "${P}s$k" "${P}r$k"; do
		ip tuntap add dev "$t" mode tap vnet_hdr || die "cannot create tap $t"
		MADE+=("$t")
		ip link set dev "$t" master "${P}b$k" && ip link set dev "$t" up || die "cannot bridge tap $t"
	done
	ip link set dev "${P}b$k" up || die "cannot bring bridge ${P}b$k up"
done

# guest NAME DIR SEED LOG NETS... -- ARGS...: a UML guest of the net variant in real time,
# running scripts/separate_kernels/guest.sh ARGS, in the background (GUEST_PIDS)
guest() {
	local name=$1 dir=$2 seed=$3 nets=() sched=()
	shift 3
	((RT_PRIO == 0)) || sched=(chrt -f "$RT_PRIO")
	while [[ $1 != -- ]]; do nets+=(--net "$1"); shift; done
	shift
	# shellcheck disable=SC2016 # the guest's variable
	"${sched[@]}" "$REPO/scripts/uml.sh" run --real-time --seed "$seed" --mem "$MEM" --timeout "$TIMEOUT" \
		--out "$dir/$name" "${nets[@]}" -- sh '"$BBR_A_SRC"/scripts/separate_kernels/guest.sh' "$*" \
		>"$dir/$name.log" 2>&1 &
	GUEST_PIDS+=($!)
}

# one_run DIR SEED INDEX CCS... : the guests of one run (router, then s1..sK with the ccs of
# the classes), waited for; their outputs merged into DIR. INDEX: the cc item's position and
# the run's for it ("1 2"), rtt_fairness.sh's cc_index and repeat_index.
one_run() {
	local dir=$1 seed=$2 index=$3 k rc=0 start nets=() p d delays waited boots=()
	shift 3
	local ccs=("$@") n=$# rtts=("${RTT_LIST[@]:0:$#}")
	mkdir -p "$dir/guests"
	start=$(date +%s)
	/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" cpu "$dir/guests/cpu.csv" "$P" &
	CPU_PID=$!
	for ((k = 1; k <= n; k++)); do nets+=("transport=tap,ifname=${P}r$k,mac=02:00:00:00:0$k:01"); done
	guest router "$dir/guests" "$seed" "${nets[@]}" -- router "$RATE" "$BUFFER" "$SAMPLE_MS" "$DURATION" \
		"$FLOWS" "${rtts[@]}"
	# the senders' boots, each a random delay after the router's (drawn from the seed), in
	# order of delay
	# and their wall clocks' offsets from the host's, -OFFSET..+OFFSET ms (drawn after them)
	delays=$(awk -v s="$seed" -v n="$n" -v m="$STAGGER" -v o="$OFFSET" 'BEGIN { srand(s)
		for (k = 1; k <= n; k++) d[k] = rand() * m
		for (k = 1; k <= n; k++) printf "%.3f %d %d\n", d[k], k, int((2 * rand() - 1) * o)
	}' | sort -g)
	waited=0
	while read -r d k off; do
		sleep "$(awk -v d="$d" -v w="$waited" 'BEGIN { print d - w }')"
		waited=$d
		boots+=("boot_delay_s$k=$d" "clock_offset_ms_s$k=$off")
		guest "s$k" "$dir/guests" "$((seed * 10 + k))" "transport=tap,ifname=${P}s$k,mac=02:00:00:00:0$k:02" -- \
			sender "$k" "${ccs[k - 1]}" "$SAMPLE_MS" "$DURATION" "$FLOWS" "$off" "${MODULE_PARAMS[@]}"
	done <<<"$delays"
	for p in "${GUEST_PIDS[@]}"; do wait "$p" || rc=1; done
	GUEST_PIDS=()
	sleep 1
	kill "$CPU_PID" 2>/dev/null || true
	wait "$CPU_PID" 2>/dev/null || true
	CPU_PID=''
	if ((rc)); then
		for p in "$dir"/guests/*.log; do log "${p##*/}: $(tail -n 3 "$p" | tr '\n' ' ')"; done
		return 1
	fi
	/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" run "$dir/guests" "$dir" \
		rtts="${rtts[*]}" ccs="${ccs[*]}" flows="$FLOWS" rate="$RATE" buffer="$BUFFER" \
		buffer_bdp="$BUFFER_BDP" bdp="$BDP" duration="$DURATION" warmup="$WARMUP" cooldown=1 \
		seed="$seed" sample_ms="$SAMPLE_MS" wall_s=$(($(date +%s) - start)) rt_prio="$RT_PRIO" \
		cc_index="${index% *}" repeat_index="${index#* }" cpu="$dir/guests/cpu.csv" "${boots[@]}"
}

if ((CALIBRATE)); then
	log "calibration: a lone cubic flow, ${RTT_LIST[0]} ms, $CALIBRATE s"
	SAVED=("$DURATION" "$WARMUP")
	DURATION=$CALIBRATE WARMUP=2
	one_run "$OUT/calibration/cubic/run1" "${SEED_LIST[0]}" "1 1" cubic || die "the calibration run failed (see $OUT/calibration)"
	DURATION=${SAVED[0]} WARMUP=${SAVED[1]}
	/usr/bin/python3 "$REPO/testbed/analyze.py" --quiet "$OUT/calibration" >/dev/null ||
		die "the calibration run's analysis failed"
	/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" report "$OUT/calibration" "$RATE" ||
		die "the calibration flow did not hold $RATE Mbit/s (load below 0.95): try a lower --rate"
fi
ci=0
for c in "${CC_LIST[@]}"; do
	r=0 ci=$((ci + 1))
	for s in "${SEED_LIST[@]}"; do
		r=$((r + 1))
		IFS=+ read -r -a parts <<<"$c"
		((${#parts[@]} > 1)) || for ((k = 1; k < NK; k++)); do parts+=("$c"); done
		log "run: $c, seed $s"
		one_run "$OUT/runs/$c/run$r" "$s" "$ci $r" "${parts[@]}" || die "run $c seed $s failed (see $OUT/runs/$c/run$r/guests)"
	done
done
/usr/bin/python3 "$REPO/testbed/analyze.py" "$OUT/runs" || die "analysis failed"
/usr/bin/python3 "$REPO/scripts/separate_kernels/merge.py" report "$OUT" "$RATE" ||
	{ log "a run did not hold $RATE Mbit/s (see above)"; exit 1; }
log "done: $OUT"
exit
}
