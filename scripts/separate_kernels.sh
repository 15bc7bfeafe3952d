#!/usr/bin/env bash
# scripts/separate_kernels.sh -- the RTT-fairness dumbbell with every sender class in a kernel
# of its own: one UML guest per class and one for the router and receiver, joined by host
# taps on host bridges, in real time (UML's time travel cannot couple two guests' clocks).
set -euo pipefail
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh" # die, bad, log, results_dir; REPO
# shellcheck source=scripts/lib/separate_usage.sh
source "$REPO/scripts/lib/separate_usage.sh" # usage
# shellcheck source=scripts/lib/separate_guests.sh
source "$REPO/scripts/lib/separate_guests.sh" # guest, one_run

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
