#!/usr/bin/env bash
# The CPU cost of a congestion control per ACK, relative to another: both drive the same
# traffic in a User-Mode Linux guest (one bulk flow, scripts/uml/cost-flow.sh). Under time
# travel the guest's clock does not advance while it computes, so two ccs that send the
# same packets (bbr_a with adaptive=0 and bbr: byte-identical runs) do exactly the same
# work except in the congestion control, and the host CPU time of the UML process tree is
# the measure. Runs alternate A B A B so that a drift in the machine's speed falls on both.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<EOF
Usage: $PROG [--pairs N] [--duration S] [--out CSV] A B
  A, B          CC[:PARAM=VALUE[:...]], e.g. bbr_a:adaptive=0 and bbr
  --pairs N     A/B pairs (default 10)
  --duration S  seconds of traffic per run (default 30)
  --out CSV     append one row per run (default: stdout)
Each row: pair, cc, params, bytes sent, user_s, sys_s, cpu_s (the UML process tree's CPU
time), commit, kernel. Summarise with: /usr/bin/python3 testbed/analyze.py --cost CSV
EOF
}

PAIRS=10 DUR=30 OUT=''
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--pairs) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || bad "--pairs needs a positive integer"; PAIRS=$2; shift 2 ;;
	--duration) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || bad "--duration needs whole seconds"; DUR=$2; shift 2 ;;
	--out) [[ -n ${2-} ]] || bad "--out needs a file"; OUT=$2; shift 2 ;;
	-*) bad "unknown option '$1'" ;;
	*) break ;;
	esac
done
[[ $# -eq 2 ]] || bad "need two congestion controls, A and B"
for x in "$1" "$2"; do [[ $x =~ ^[a-z][a-z0-9_]*(:[a-z_0-9]+=[0-9]+)*$ ]] || bad "bad item '$x'"; done
need /usr/bin/time
ko=$("$REPO/scripts/uml.sh" module) || die "cannot build the module for UML"
kernel=uml-$(basename "$(dirname "$("$REPO/scripts/uml.sh" build)")")
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
header="pair,cc,params,bytes,user_s,sys_s,cpu_s,commit,kernel"
if [[ -z $OUT ]]; then echo "$header"; elif [[ ! -s $OUT ]]; then echo "$header" >"$OUT"; fi

one() { # one PAIR ITEM: one run, one CSV row
	local cc=${2%%:*} params='' u s bytes
	[[ $2 == *:* ]] && params=${2#*:}
	rm -rf "$tmp/out"
	# shellcheck disable=SC2086 # one word per module parameter
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$REPO/scripts/uml.sh" run --seed 1 --ko "$ko" \
		--out "$tmp/out" -- sh scripts/uml/cost-flow.sh "$cc" "$DUR" ${params//:/ } \
		>"$tmp/log" 2>&1 || die "run $1 of $2 failed: $(tail -n 3 "$tmp/log")"
	read -r u s <"$tmp/time"
	bytes=$(/usr/bin/python3 -c 'import json, sys
print(sum(s["bytes"] for s in json.load(open(sys.argv[1]))["segments"]))' "$tmp/out/flow.json")
	echo "$1,$cc,${params//:/ },$bytes,$u,$s,$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }'),$commit,$kernel"
}
for ((p = 1; p <= PAIRS; p++)); do
	for item in "$1" "$2"; do
		row=$(one "$p" "$item")
		if [[ -n $OUT ]]; then echo "$row" >>"$OUT"; else echo "$row"; fi
		log "pair $p: $row"
	done
done
