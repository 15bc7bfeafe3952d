# testbed/lib/bottleneck.sh -- the bottleneck beyond topology.sh's bfifo: another queue under
# its htb (--qdisc, --qdisc-opts: tb_aqm, called by tb_setup), its rate changed during a run
# (--rate-schedule, --rate-trace: tb_rate) and the reverse flows' bottleneck (--reverse:
# tb_reverse_link).
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh with topology.sh, only for a run with one of those options
# (the others read no more than they did); defines functions only. Uses topology.sh's
# tb_tcn, tb_log and its TB_* variables.
{

# tb_aqm: the bottleneck's queue other than bfifo, sized by TB_BUF: pfifo, codel, fq_codel a
# limit of TB_BUF / 1514 packets (>= 1; the kernel's other defaults); RED a limit of TB_BUF
# bytes, min = 5 ms at TB_RATE (>= 2 packets), max = 3 x min, both under TB_BUF / 2, burst =
# (2 min + max) / (3 avpkt) (tc-red(8)), probability 0.1. TB_QDISC_OPTS appended (a later
# word wins). One awk, only for these: a bfifo run's processes stay (UML's seeded RNG).
tb_aqm() {
	# shellcheck disable=SC2046 # four numbers
	set -- $(awk -v b="$TB_BUF" -v r="$TB_RATE" 'BEGIN {
		p = int(b / 1514 + 0.5); if (p < 1) p = 1
		mn = r * 1e6 / 8 * 0.005; if (mn < 3028) mn = 3028
		mx = 3 * mn; if (mx > b / 2) mx = b / 2
		if (mn > mx / 2) mn = mx / 2
		bu = int((2 * mn + mx) / (3 * 1514)); if (bu < 2) bu = 2
		printf "%d %d %d %d\n", p, mn, mx, bu }')
	case ${TB_QDISC:-bfifo} in
	bfifo) set -- bfifo limit "$TB_BUF" ;;
	pfifo) set -- pfifo limit "$1" ;;
	codel) set -- codel limit "$1" ;;
	fq_codel) set -- fq_codel limit "$1" ;;
	red) set -- red limit "$TB_BUF" min "$2" max "$3" avpkt 1514 burst "$4" \
		bandwidth "${TB_RATE}mbit" probability 0.1 ;;
	*) tb_log "unknown qdisc '$TB_QDISC'"; return 1 ;;
	esac
	# shellcheck disable=SC2086 # tc's words
	tb_tcn r qdisc add dev to_rcv parent 1:1 handle 10: "$@" ${TB_QDISC_OPTS:-} ||
		{ tb_log "tc qdisc $* ${TB_QDISC_OPTS:-} failed (is sch_${TB_QDISC} available?)"; return 1; }
}

# tb_reverse_link: the reverse flows' bottleneck (--reverse, lib/paths.sh), as the forward
# one on the receiver's egress: the forward flows' ACKs queue there behind the reverse data.
tb_reverse_link() {
	tb_tcn d qdisc add dev eth0 root handle 1: htb default 1 && tb_tcn d class add dev eth0 parent 1: \
		classid 1:1 htb rate "${TB_RATE}mbit" ceil "${TB_RATE}mbit" burst 15k cburst 15k quantum 1514 &&
		tb_tcn d qdisc add dev eth0 parent 1:1 handle 10: bfifo limit "$TB_BUF"
}

# tb_rate MBIT: the bottleneck's rate from now on (htb rate = ceil, as tb_setup sets it).
tb_rate() {
	tb_tcn r class change dev to_rcv parent 1: classid 1:1 htb rate "${1}mbit" ceil "${1}mbit" \
		burst 15k cburst 15k quantum 1514
}
}
