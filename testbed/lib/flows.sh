# testbed/lib/flows.sh -- the flow table of a run: which flow starts when, in which RTT
# class, with which cc, and which iperf3 client runs it.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh; defines functions only. Reads the checked options
# (lib/options.sh: RTTS, CCS and STARTS space separated).
{

# flow_table FLOWS_FILE GROUPS_FILE [HOSTS_FILE]
#
# FLOWS_FILE, one line per flow: index class rtt_ms cc port start_s run_s group stream, and
# with --sizes a tenth column, its size (bytes; 0: it sends until its end; B1/B2/...: a
# train). A flow's end is --duration after the first start, or its --ends entry.
# Flows alternate between the RTT classes; with a count per class (--flows-per-rtt 1,4) a
# class leaves the rotation once its flows are placed: classes 1 2 2 2 2 (one count for
# all classes gives the order it always did). Flow i starts at its --starts offset, or at
# --stagger x (i - 1), plus a random delay in [0, --jitter) drawn from --seed; it runs whole
# seconds until about --duration after the first start.
#
# Flows of one class with the same start and length form a group, run by one iperf3 client
# (-P, one TCP connection per flow; up to --streams flows): a UML guest pays for every
# process switch, and 100 iperf3 processes cost ~25 times the wall time of one -P 100.
# group = index of its first flow (names flow<group>.json, port --port-base + group - 1);
# stream = the flow's position among the client's connections.
#
# GROUPS_FILE, one line per iperf3 client: group class cc port start_s run_s flows (indices,
# comma separated), and with --sizes the size of its flows. Flows of different sizes are not
# grouped, and a train is a group of its own.
#
# With --hosts-per-class N > 1 the flows of a class go round-robin to its N sender hosts (its
# m-th flow to host (m - 1) mod N + 1), flows of different hosts are not grouped, and
# HOSTS_FILE gets one line per flow: index class host namespace address (lib/hosts.sh); a
# group's host is its first flow's. With N = 1 there is no HOSTS_FILE and nothing changes.
#
# check_options has made sure that every flow starts before the end.
flow_table() {
	awk -v rtts="$RTTS" -v ccs="$CCS" -v flows_per_rtt="$FLOWS_PER_RTT" -v starts="$STARTS" \
		-v stagger="$STAGGER" -v jitter="$JITTER" -v seed="$SEED" -v duration="$DURATION" \
		-v streams_max="$STREAMS" -v port_base="$PORT_BASE" -v groups_file="$2" \
		-v sizes="$SIZES" -v ends="$ENDS" -v hosts="${HOSTS_PER_CLASS:-1}" -v hosts_file="${3:-}" '
	BEGIN {
		nclass = split(rtts, rtt_of, " ")
		ncc = split(ccs, cc_of, " ")
		nstarts = split(starts, start_of, " ")
		ncount = split(flows_per_rtt, count_of, " ")
		nsizes = split(sizes, size_of, " ")
		nends = split(ends, end_of, " ")
		rounds = 0
		for (class = 1; class <= nclass; class++) {
			n_of[class] = (ncount == 1 ? count_of[1] : count_of[class]) + 0
			if (n_of[class] > rounds)
				rounds = n_of[class]
		}
		srand(seed)
		flow = 0
		ngroups = 0
		for (round = 1; round <= rounds; round++) {
			for (class = 1; class <= nclass; class++) {
				if (round > n_of[class])
					continue
				flow++
				start = (nstarts ? start_of[flow] : stagger * (flow - 1)) + (jitter > 0 ? rand() * jitter : 0)
				end = (nends && end_of[flow] + 0 > 0) ? end_of[flow] + 0 : duration
				run = int(end - start)
				if (run < end - start)
					run++
				start = sprintf("%.3f", start)
				cc = (ncc == 1 ? cc_of[1] : cc_of[class])
				key = class " " start " " run
				if (hosts > 1) {
					host = placed[class]++ % hosts + 1
					key = key " " host
					printf "%d %d %d s%d%s 10.1.%d.%d\n", flow, class, host, class,
						(host > 1 ? "h" host : ""), class, 4 * host - 2 > hosts_file
				}
				size = ""
				if (nsizes) {
					size = " " size_of[flow]
					key = key size (index(size, "/") ? " " flow : "")
				}
				if ((key in group_of) && streams[group_of[key]] < streams_max) {
					group = group_of[key]
				} else {
					group = flow
					group_of[key] = flow
					streams[group] = 0
					group_order[++ngroups] = group
					group_line[group] = class " " cc " " (port_base + group - 1) " " start " " run
					group_size[group] = size
				}
				printf "%d %d %s %s %d %s %d %d %d%s\n", flow, class, rtt_of[class], cc,
					port_base + group - 1, start, run, group, streams[group]++, size
				members[group] = (streams[group] > 1) ? members[group] "," flow : flow
			}
		}
		for (n = 1; n <= ngroups; n++) {
			group = group_order[n]
			print group, group_line[group], members[group] group_size[group] > groups_file
		}
	}' > "$1"
}
}
