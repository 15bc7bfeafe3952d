# testbed/lib/hosts.sh -- --hosts-per-class N: a class's flows come from N sender hosts
# (namespaces s<k>, s<k>h2..s<k>hN, each with its own veth, address and netem: topology.sh's
# tb_hosts and tb_setup), as many flows of one class come from many hosts on the Internet.
# The option's check, and which host runs a group of flows (flows.sh writes hosts.txt).
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh; defines functions only. With N = 1 (the default) they
# start no process: a run's processes stay what they were (UML's seeded random stream).
{

# check_hosts: --hosts-per-class, a whole number >= 1, at most the flows of any class, within
# the address plan (class k's hosts share 10.1.k.0/24, a /30 each: 64 hosts; classes 1..254),
# not with --flent (its test makes the flows). Sets TB_HOSTS (topology.sh) and makes
# HOSTS_PER_CLASS that number. Uses lib/options.sh's checked RTTS, FLOWS_PER_RTT, flow_counts.
# shellcheck disable=SC2154 # x (whole_ok) and flow_counts are lib/options.sh's
check_hosts() {
	whole_ok "$HOSTS_PER_CLASS" 'x >= 1' ||
		bad "--hosts-per-class: '$HOSTS_PER_CLASS' is not a whole number of hosts (>= 1)"
	TB_HOSTS=$x HOSTS_PER_CLASS=$x
	[ "$TB_HOSTS" != 1 ] || return 0
	[ "$TB_HOSTS" -le 64 ] && [ "$NCLASS" -le 254 ] ||
		bad "--hosts-per-class: $NCLASS class(es) x $HOSTS_PER_CLASS hosts do not fit the address plan (class k's hosts in 10.1.k.0/24, a /30 each: at most 64 hosts per class and 254 classes)"
	[ -z "$FLENT" ] || bad "--hosts-per-class: not with --flent (flent's test makes the flows, from one host per class)"
	_k=0 _counts=$FLOWS_PER_RTT
	for _r in $RTTS; do
		_k=$((_k + 1)) _n=${_counts%% *}
		[ "$flow_counts" = 1 ] || _counts=${_counts#* }
		[ "$_n" -ge "$TB_HOSTS" ] ||
			bad "--hosts-per-class: $HOSTS_PER_CLASS hosts for class $_k ($_r ms), which has $_n flow(s)"
	done
}

# sender_hosts: SENDER_HOSTS = every sender namespace, class by class (tb_hosts): s1 .. sK
# with one host per class.
sender_hosts() {
	SENDER_HOSTS='' _k=1
	while [ "$_k" -le "$NCLASS" ]; do
		tb_hosts "$_k"
		SENDER_HOSTS="$SENDER_HOSTS${SENDER_HOSTS:+ }$TB_HOST_NAMES" _k=$((_k + 1))
	done
}

# group_host GROUP CLASS: HOST = the sender namespace that runs the group: s<CLASS>, or with
# hosts its first flow's (hosts.txt: index class host namespace address; the group's number
# is its first flow's).
group_host() {
	HOST=s$2
	[ "$TB_HOSTS" = 1 ] || HOST=$(awk -v g="$1" '$1 == g { print $4 }' "$SCRATCH/hosts.txt")
	[ -n "$HOST" ] || die "no host for group $1 in hosts.txt"
}
}
