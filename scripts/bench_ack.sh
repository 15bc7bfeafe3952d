#!/usr/bin/env bash
# The per-ACK cost of congestion controls, one against another, resolved to a per cent or
# two: scripts/uml/ack_bench.c feeds the same made-up ACKs of one bulk flow to each cc's
# cong_control in a counted loop, in a UML guest on the host's clock (--real-time), and
# times each run of ACKS ACKs, REPS runs per cc interleaved, beside a loop of the ACK model
# alone. Summarise with: /usr/bin/python3 testbed/analyze.py --ack-cost CSV
#
# Like is timed against like: tcp_bbr_a.ko and the kernel's own bbr, built from the UML
# kernel's net/ipv4/tcp_bbr.c as a module registered as bbr_mod, are both built here with
# the same flags (--cflags, default -O2, as distributions build their kernels; the UML
# kernel itself, and so its built-in bbr, is built for size, -Os).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<EOF
Usage: $PROG [--ccs LIST] [--acks N] [--reps N] [--rate MBPS] [--rtt MS]
             [--cflags FLAGS] [--layouts N] [--module-param NAME=VALUE]... [--out CSV]
  --ccs LIST     congestion controls, comma-separated, at most 4 (default
                 bbr_mod,bbr_a,bbr_a_fair); the first is the reference; a name given twice
                 is an A/A check; bbr_mod is the kernel's bbr built as a module here, bbr
                 the UML kernel's built-in one
  --cflags FLAGS compiler flags both modules are built with (default -O2)
  --acks N       ACKs per timed run, 1..1000000 (default 20000)
  --reps N       timed runs of each (default 301)
  --rate MBPS    the ACK model's link rate (default 100)
  --rtt MS       the ACK model's path RTT (default 20)
  --layouts N    build and time both modules N times (1..16, default 1), layout L with
                 both modules' code moved by L x 40 bytes (a padding object linked first):
                 how far code layout alone moves the ratios, which one build's A/A check
                 does not show; each layout's runs are timed in a guest of their own
  --module-param NAME=VALUE   tcp_bbr_a's parameter, e.g. adaptive=0 (repeatable)
  --out CSV      write the rows here (default: stdout)
Each row: cc, rep, ns, acks, module_params, rate_mbps, rtt_ms, commit, kernel,
module_version, cflags, layout; cc '-' is the ACK model alone.
EOF
}

CCS=bbr_mod,bbr_a,bbr_a_fair CFLAGS=-O2 ACKS=20000 REPS=301 RATE=100 RTT=20 OUT='' PARAMS=()
LAYOUTS=1
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--ccs) [[ ${2-} =~ ^[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*){0,3}$ ]] || bad "--ccs needs 1 to 4 names, comma-separated"; CCS=$2; shift 2 ;;
	--acks)
		[[ ${2-} =~ ^[1-9][0-9]{0,6}$ && ${2} -le 1000000 ]] || bad "--acks needs an integer in 1..1000000"
		ACKS=$2; shift 2 ;;
	--reps) [[ ${2-} =~ ^[1-9][0-9]{0,5}$ ]] || bad "--reps needs a positive integer"; REPS=$2; shift 2 ;;
	--rate) [[ ${2-} =~ ^[1-9][0-9]{0,5}$ ]] || bad "--rate needs whole Mbit/s"; RATE=$2; shift 2 ;;
	--rtt) [[ ${2-} =~ ^[1-9][0-9]{0,3}$ ]] || bad "--rtt needs whole ms"; RTT=$2; shift 2 ;;
	--cflags) [[ ${2-} =~ ^-[A-Za-z0-9=_.-]+( -[A-Za-z0-9=_.-]+)*$ ]] || bad "--cflags needs compiler options, e.g. -O2"; CFLAGS=$2; shift 2 ;;
	--module-param) [[ ${2-} =~ ^[a-z_0-9]+=[0-9]+$ ]] || bad "--module-param needs NAME=VALUE"; PARAMS+=("$2"); shift 2 ;;
	--layouts) [[ ${2-} =~ ^([1-9]|1[0-6])$ ]] || bad "--layouts needs 1..16"; LAYOUTS=$2; shift 2 ;;
	--out) [[ -n ${2-} ]] || bad "--out needs a file"; OUT=$2; shift 2 ;;
	*) bad "unknown argument '$1'" ;;
	esac
done

kdir=$("$REPO/scripts/uml.sh" build) || die "cannot build the UML kernel"
ko=$("$REPO/scripts/uml.sh" module) || die "cannot build the module for UML"
kernel=uml-$(basename "$(dirname "$kdir")")
version=$(modinfo -F version "$ko" 2>/dev/null || echo unknown)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
# what the numbers depend on: the module's sources and the bench's
git -C "$REPO" diff --quiet HEAD -- Kbuild Makefile dkms.conf bbr_a_core.c include algos \
	scripts/uml/ack_bench.c scripts/uml/ack-bench.sh 2>/dev/null || commit+=-dirty
src=$REPO/scripts/uml/ack_bench.c
bdir=$CACHE/ack_bench/$kernel-$(sha256sum "$src" | cut -c1-12)
if [[ ! -s $bdir/ack_bench.ko ]]; then
	mkdir -p "$bdir"
	cp "$src" "$bdir/"
	echo 'obj-m := ack_bench.o' >"$bdir/Kbuild"
	make -C "$kdir" ARCH=um M="$bdir" modules >"$bdir/build.log" 2>&1 ||
		die "cannot build ack_bench.ko: see $bdir/build.log"
fi
# the two modules timed, built with the same flags into $mdir, keyed by their sources, the
# flags and the layout (layout 0: no padding, the key it always had)
mods=(Kbuild Makefile dkms.conf bbr_a_core.c include algos)
build_modules() {
	local pad=$(($1 * 40)) key
	key=$( (cd "$REPO" && find "${mods[@]}" -type f -print0 | sort -z | xargs -0 cat) |
		cat - "$kdir/net/ipv4/tcp_bbr.c" <(echo "$CFLAGS") <(((pad)) && echo "pad $pad") |
		sha256sum | cut -c1-12)
	mdir=$CACHE/ack_bench/$kernel-mods-$key
	[[ -s $mdir/bbr_a/tcp_bbr_a.ko && -s $mdir/bbr_mod/tcp_bbr_mod.ko ]] && return
	rm -rf "$mdir"
	mkdir -p "$mdir/bbr_a" "$mdir/bbr_mod"
	(cd "$REPO" && cp -r "${mods[@]}" "$mdir/bbr_a/")
	local src=tcp_bbr_mod.c
	((pad)) && src=bbr_mod_src.c
	sed 's/^\(\t\.name\t*= \)"bbr",$/\1"bbr_mod",/' "$kdir/net/ipv4/tcp_bbr.c" >"$mdir/bbr_mod/$src"
	grep -q '"bbr_mod",' "$mdir/bbr_mod/$src" ||
		die "cannot rename the kernel's bbr in $kdir/net/ipv4/tcp_bbr.c"
	echo 'obj-m := tcp_bbr_mod.o' >"$mdir/bbr_mod/Kbuild"
	if ((pad)); then
		# linked first, the padding moves every function of the module by pad bytes
		for m in bbr_a bbr_mod; do
			printf '// SPDX-License-Identifier: GPL-2.0\nasm(".pushsection .text\\n.skip %d, 0xcc\\n.popsection");\n' \
				"$pad" >"$mdir/$m/bench_pad.c"
		done
		echo 'tcp_bbr_mod-y := bench_pad.o bbr_mod_src.o' >>"$mdir/bbr_mod/Kbuild"
		sed -i 's/^tcp_bbr_a-y := /tcp_bbr_a-y := bench_pad.o /' "$mdir/bbr_a/Kbuild"
		grep -q '^tcp_bbr_a-y := bench_pad.o ' "$mdir/bbr_a/Kbuild" ||
			die "cannot put the padding first in $mdir/bbr_a/Kbuild"
	fi
	for m in bbr_a bbr_mod; do
		make -C "$kdir" ARCH=um M="$mdir/$m" KCFLAGS="$CFLAGS" modules \
			>"$mdir/$m.log" 2>&1 || die "cannot build $m with $CFLAGS: see $mdir/$m.log"
	done
}
tmp=$(mktemp -d)
trap 'stop_child; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
bench="ccs=$CCS acks=$ACKS reps=$REPS rate_mbps=$RATE rtt_us=$((RTT * 1000))"
cpu=$(host_cpu) # the per-ACK ratios depend on it (docs/module.md)
commas=${CCS//[^,]/}
want=$(((${#commas} + 2) * REPS))
echo "cc,rep,ns,acks,module_params,rate_mbps,rtt_ms,commit,kernel,module_version,cflags,layout,host_cpu" \
	>"$tmp/rows.csv"
for ((layout = 0; layout < LAYOUTS; layout++)); do
	build_modules "$layout"
	rm -rf "$tmp/out"
	run_child "$REPO/scripts/uml.sh" run --real-time --timeout 1800 \
		--ko "$mdir/bbr_a/tcp_bbr_a.ko" --file "$bdir/ack_bench.ko" \
		--file "$mdir/bbr_mod/tcp_bbr_mod.ko" --out "$tmp/out" \
		-- sh scripts/uml/ack-bench.sh "'$bench'" "${PARAMS[@]}" >"$tmp/log" 2>&1 ||
		die "the guest failed (layout $layout): $(tail -n 3 "$tmp/log")"
	n=$(grep -c '^ack_bench ' "$tmp/out/bench.txt" || true)
	[[ $n -eq $want ]] ||
		die "the guest reported $n runs of $want (layout $layout): $(grep -v '^ack_bench ' "$tmp/out/bench.txt" | tail -n 3)"
	awk -v p="${PARAMS[*]}" -v r="$RATE" -v t="$RTT" -v c="$commit" -v k="$kernel" -v m="$version" \
		-v f="$CFLAGS" -v l="$layout" -v h="$cpu" '$1 == "ack_bench" {
			print $2 "," $3 "," $4 "," $5 "," p "," r "," t "," c "," k "," m "," f "," l "," h }' \
		"$tmp/out/bench.txt" >>"$tmp/rows.csv"
done
n=$((LAYOUTS * want))
if [[ -n $OUT ]]; then cp "$tmp/rows.csv" "$OUT"; log "wrote $OUT ($n runs)"; else cat "$tmp/rows.csv"; fi
