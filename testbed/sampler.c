// SPDX-License-Identifier: GPL-2.0
/*
 * sampler: one long-lived process that samples, every PERIOD milliseconds,
 * the TCP sockets of some network namespaces (sock_diag netlink) and the
 * qdiscs of one device (rtnetlink), and writes what testbed/scenario.sh's
 * ss/tc loop writes: per namespace an "ss -tinH dst ADDR" style file, per
 * device a "tc -s -j qdisc show dev DEV" style file, each sample preceded by
 * "@ <uptime seconds>". testbed/analyze.py reads both unchanged. It replaces
 * a process per sample, which in a User-Mode Linux guest costs more wall time
 * than the experiment itself.
 *
 *   sampler PERIOD_MS SECONDS DST_ADDR [tcp NETNS_PATH OUTFILE]... [qdisc NETNS_PATH DEV OUTFILE]
 *
 * Only the fields testbed/analyze.py reads are written, formatted as
 * iproute2's ss -n and tc -j format them. It stops after SECONDS, or at
 * SIGTERM/SIGINT (the file is complete up to the last sample).
 * Build: gcc -O2 -static -o sampler testbed/sampler.c (scripts/lib/common.sh).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/gen_stats.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_TARGETS 256 /* a namespace per sender host: --hosts-per-class x classes */
#define BUF_SIZE (1 << 16)

struct target {
	int fd;			/* netlink socket opened inside the namespace */
	int is_qdisc;
	int ifindex;		/* qdisc: the device */
	FILE *out;
};

static volatile sig_atomic_t stop;
static struct in_addr dst;
static char buf[BUF_SIZE];

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "sampler: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Open a netlink socket of PROTO inside the namespace at PATH. */
static int netlink_in(const char *path, int proto, const char *dev, int *ifindex)
{
	int self = open("/proc/self/ns/net", O_RDONLY);
	int ns = open(path, O_RDONLY);
	int fd;

	if (self < 0 || ns < 0)
		die(path);
	if (setns(ns, CLONE_NEWNET))
		die("setns");
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);
	if (fd < 0)
		die("netlink socket");
	if (dev) {
		*ifindex = (int)if_nametoindex(dev);
		if (!*ifindex)
			die(dev);
	}
	if (setns(self, CLONE_NEWNET))
		die("setns back");
	close(ns);
	close(self);
	return fd;
}

/* iproute2's ss -n: bit rates as whole bits per second. */
static void put_bps(FILE *f, const char *name, double bps)
{
	fprintf(f, " %s %.0fbps", name, bps);
}

static const char *state_name(int st)
{
	static const char *const names[] = {
		"UNKNOWN", "ESTAB", "SYN-SENT", "SYN-RECV", "FIN-WAIT-1",
		"FIN-WAIT-2", "TIME-WAIT", "UNCONN", "CLOSE-WAIT", "LAST-ACK",
		"LISTEN", "CLOSING",
	};

	return st > 0 && st < 12 ? names[st] : names[0];
}

/* One socket, as "ss -tinH" prints the fields analyze.py reads. */
static void put_socket(FILE *f, const struct inet_diag_msg *m, int len)
{
	const struct tcp_info *ti = NULL;
	const struct tcp_bbr_info *bbr = NULL;
	const char *cc = NULL;
	char src[INET_ADDRSTRLEN], dsts[INET_ADDRSTRLEN];
	struct rtattr *a = (struct rtattr *)(m + 1);
	int rest = len - (int)sizeof(*m);

	for (; RTA_OK(a, rest); a = RTA_NEXT(a, rest)) {
		if (a->rta_type == INET_DIAG_INFO &&
		    RTA_PAYLOAD(a) >= offsetof(struct tcp_info, tcpi_delivered))
			ti = RTA_DATA(a);
		else if (a->rta_type == INET_DIAG_CONG)
			cc = RTA_DATA(a);
		else if (a->rta_type == INET_DIAG_BBRINFO &&
			 RTA_PAYLOAD(a) >= sizeof(*bbr))
			bbr = RTA_DATA(a);
	}
	inet_ntop(AF_INET, m->id.idiag_src, src, sizeof(src));
	inet_ntop(AF_INET, m->id.idiag_dst, dsts, sizeof(dsts));
	fprintf(f, "%s %u %u %s:%u %s:%u\n\t", state_name(m->idiag_state),
		m->idiag_rqueue, m->idiag_wqueue, src, ntohs(m->id.idiag_sport),
		dsts, ntohs(m->id.idiag_dport));
	if (cc)
		fprintf(f, " %s", cc);
	if (ti) {
		fprintf(f, " rtt:%g/%g mss:%u cwnd:%u", ti->tcpi_rtt / 1000.0,
			ti->tcpi_rttvar / 1000.0, ti->tcpi_snd_mss,
			ti->tcpi_snd_cwnd);
		if (ti->tcpi_snd_ssthresh < 0xFFFF)
			fprintf(f, " ssthresh:%u", ti->tcpi_snd_ssthresh);
		if (ti->tcpi_bytes_sent)
			fprintf(f, " bytes_sent:%llu", (unsigned long long)ti->tcpi_bytes_sent);
		if (ti->tcpi_bytes_retrans)
			fprintf(f, " bytes_retrans:%llu", (unsigned long long)ti->tcpi_bytes_retrans);
		if (ti->tcpi_bytes_acked)
			fprintf(f, " bytes_acked:%llu", (unsigned long long)ti->tcpi_bytes_acked);
		if (ti->tcpi_segs_out)
			fprintf(f, " segs_out:%u", ti->tcpi_segs_out);
		if (ti->tcpi_data_segs_out)
			fprintf(f, " data_segs_out:%u", ti->tcpi_data_segs_out);
	}
	if (bbr) {
		double bw = ((double)bbr->bbr_bw_hi * 4294967296.0 + bbr->bbr_bw_lo) * 8;

		fprintf(f, " bbr:(bw:%.0fbps,mrtt:%g", bw, bbr->bbr_min_rtt / 1000.0);
		if (bbr->bbr_pacing_gain)
			fprintf(f, ",pacing_gain:%g", bbr->bbr_pacing_gain / 256.0);
		if (bbr->bbr_cwnd_gain)
			fprintf(f, ",cwnd_gain:%g", bbr->bbr_cwnd_gain / 256.0);
		fputc(')', f);
	}
	if (ti) {
		if (ti->tcpi_rtt && ti->tcpi_snd_mss && ti->tcpi_snd_cwnd)
			put_bps(f, "send", (double)ti->tcpi_snd_cwnd * ti->tcpi_snd_mss *
				8000000.0 / ti->tcpi_rtt);
		if (ti->tcpi_pacing_rate && ti->tcpi_pacing_rate != ~0ULL)
			put_bps(f, "pacing_rate", (double)ti->tcpi_pacing_rate * 8);
		if (ti->tcpi_delivery_rate)
			put_bps(f, "delivery_rate", (double)ti->tcpi_delivery_rate * 8);
		if (ti->tcpi_delivered)
			fprintf(f, " delivered:%u", ti->tcpi_delivered);
		if (ti->tcpi_unacked)
			fprintf(f, " unacked:%u", ti->tcpi_unacked);
		if (ti->tcpi_retrans || ti->tcpi_total_retrans)
			fprintf(f, " retrans:%u/%u", ti->tcpi_retrans, ti->tcpi_total_retrans);
		if (ti->tcpi_lost)
			fprintf(f, " lost:%u", ti->tcpi_lost);
		if (ti->tcpi_notsent_bytes)
			fprintf(f, " notsent:%u", ti->tcpi_notsent_bytes);
		if (ti->tcpi_min_rtt != ~0U)
			fprintf(f, " minrtt:%g", ti->tcpi_min_rtt / 1000.0);
	}
	fputc('\n', f);
}

/* One qdisc, as "tc -s -j" prints the fields analyze.py reads. */
static void put_qdisc(FILE *f, const struct tcmsg *t, int len, int *first)
{
	struct rtattr *a = (struct rtattr *)(t + 1), *s;
	int rest = len - (int)sizeof(*t), srest;
	const char *kind = "?";
	struct gnet_stats_basic basic = { 0 };
	struct gnet_stats_queue q = { 0 };

	for (; RTA_OK(a, rest); a = RTA_NEXT(a, rest)) {
		if (a->rta_type == TCA_KIND) {
			kind = RTA_DATA(a);
		} else if (a->rta_type == TCA_STATS2) {
			s = RTA_DATA(a);
			srest = (int)RTA_PAYLOAD(a);
			for (; RTA_OK(s, srest); s = RTA_NEXT(s, srest)) {
				if (s->rta_type == TCA_STATS_BASIC)
					memcpy(&basic, RTA_DATA(s), sizeof(basic) <
					       RTA_PAYLOAD(s) ? sizeof(basic) : RTA_PAYLOAD(s));
				else if (s->rta_type == TCA_STATS_QUEUE)
					memcpy(&q, RTA_DATA(s), sizeof(q) < RTA_PAYLOAD(s) ?
					       sizeof(q) : RTA_PAYLOAD(s));
			}
		}
	}
	fprintf(f, "%s{\"kind\":\"%s\",\"handle\":\"%x:\"", *first ? "" : ",", kind,
		t->tcm_handle >> 16);
	if (t->tcm_parent == TC_H_ROOT)
		fprintf(f, ",\"root\":true");
	else
		fprintf(f, ",\"parent\":\"%x:%x\"", TC_H_MAJ(t->tcm_parent) >> 16,
			TC_H_MIN(t->tcm_parent));
	fprintf(f, ",\"bytes\":%llu,\"packets\":%u,\"drops\":%u,\"overlimits\":%u,"
		"\"requeues\":%u,\"backlog\":%u,\"qlen\":%u}",
		(unsigned long long)basic.bytes, basic.packets, q.drops, q.overlimits,
		q.requeues, q.backlog, q.qlen);
	*first = 0;
}

/* Send a dump request, write every answer. */
static void sample(struct target *tg, unsigned int seq)
{
	struct {
		struct nlmsghdr h;
		union {
			struct inet_diag_req_v2 diag;
			struct tcmsg tc;
		};
	} req;
	int first = 1, done = 0;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = seq;
	if (tg->is_qdisc) {
		req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.tc));
		req.h.nlmsg_type = RTM_GETQDISC;
		req.tc.tcm_family = AF_UNSPEC;
		req.tc.tcm_ifindex = tg->ifindex;
		fputc('[', tg->out);
	} else {
		req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.diag));
		req.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
		req.diag.sdiag_family = AF_INET;
		req.diag.sdiag_protocol = IPPROTO_TCP;
		req.diag.idiag_ext = (1 << (INET_DIAG_INFO - 1)) |
				     (1 << (INET_DIAG_VEGASINFO - 1)) |
				     (1 << (INET_DIAG_CONG - 1));
		/* ss's default: every state but LISTEN, CLOSE, TIME-WAIT, SYN-RECV */
		req.diag.idiag_states = 0xFFF & ~((1 << 10) | (1 << 7) | (1 << 6) | (1 << 3));
	}
	if (send(tg->fd, &req, req.h.nlmsg_len, 0) < 0)
		die("netlink send");
	while (!done) {
		ssize_t n = recv(tg->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("netlink recv");
		}
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (tg->is_qdisc) {
				const struct tcmsg *t = NLMSG_DATA(h);

				if (t->tcm_ifindex == tg->ifindex)
					put_qdisc(tg->out, t, (int)NLMSG_PAYLOAD(h, 0), &first);
			} else {
				const struct inet_diag_msg *m = NLMSG_DATA(h);

				if (!memcmp(m->id.idiag_dst, &dst, sizeof(dst)))
					put_socket(tg->out, m, (int)NLMSG_PAYLOAD(h, 0));
			}
		}
	}
	if (tg->is_qdisc)
		fputs("]\n", tg->out);
}

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct target tg[MAX_TARGETS];
	int n = 0, i = 4;
	long period_ms;
	double secs, end, next;
	unsigned int seq = 0;

	if (argc < 5 || (period_ms = atol(argv[1])) <= 0 || (secs = atof(argv[2])) <= 0 ||
	    inet_pton(AF_INET, argv[3], &dst) != 1) {
		fprintf(stderr, "usage: sampler PERIOD_MS SECONDS DST_ADDR "
			"[tcp NETNS_PATH OUTFILE]... [qdisc NETNS_PATH DEV OUTFILE]\n");
		return 2;
	}
	while (i < argc && n < MAX_TARGETS) {
		int q = !strcmp(argv[i], "qdisc");

		if ((!q && strcmp(argv[i], "tcp")) || i + 2 + q >= argc) {
			fprintf(stderr, "sampler: bad target at '%s'\n", argv[i]);
			return 2;
		}
		tg[n].is_qdisc = q;
		tg[n].fd = netlink_in(argv[i + 1], q ? NETLINK_ROUTE : NETLINK_SOCK_DIAG,
				      q ? argv[i + 2] : NULL, &tg[n].ifindex);
		tg[n].out = fopen(argv[i + 2 + q], "w");
		if (!tg[n].out)
			die(argv[i + 2 + q]);
		n++;
		i += 3 + q;
	}
	if (i < argc) {
		fprintf(stderr, "sampler: more than %d targets\n", MAX_TARGETS);
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	end = uptime() + secs;
	next = uptime();
	while (!stop && next < end) {
		double now = uptime();
		struct timespec ts;

		if (now < next) {
			ts.tv_sec = (time_t)(next - now);
			ts.tv_nsec = (long)((next - now - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
			continue;
		}
		for (i = 0; i < n; i++) {
			fprintf(tg[i].out, "@ %.2f\n", now);
			sample(&tg[i], ++seq);
		}
		next += period_ms / 1000.0;
		if (next < now)
			next = now;
	}
	for (i = 0; i < n; i++)
		fclose(tg[i].out);
	return 0;
}
