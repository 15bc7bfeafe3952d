// SPDX-License-Identifier: GPL-2.0
/*
 * A counted loop of ACKs through congestion controls' cong_control, for
 * scripts/bench_ack.sh: the per-ACK cost of one against another, with the
 * same ACKs, measured in one kernel on one CPU.
 *
 * Each congestion control in "ccs" gets a TCP socket of its own (never
 * connected) whose ACKs a model of one bulk flow makes up: a link of
 * rate_mbps, a path of rtt_us, a queue that grows to queue_us and drains
 * again every 400 ACKs, two packets per ACK, inflight the lower of cwnd and
 * what the path and the queue hold. After a warm-up that takes it through
 * STARTUP and DRAIN into PROBE_BW, one fast recovery begins at the queue's
 * top (bbr_a_fair then holds a bound on bw) and ends 50 ACKs later. Then,
 * "reps" times, each socket in turn gets "acks" ACKs, timed with the
 * kernel's clock, and a loop of the model alone is timed beside them; the
 * turn begins one later each time.
 * The sockets' clocks (tcp_mstamp) are the model's; jiffies are the
 * kernel's, so that in a guest on the host's clock (UML --real-time) the
 * min_rtt filter does not expire during the loop: no PROBE_RTT, and so
 * no competitor flag, is timed. What is timed is PROBE_BW with, for
 * bbr_a_fair, a bound in force on the common law (its age well under its
 * K). Prints one line per run:
 * "ack_bench CC REP NS ACKS" (CC "-" for the model alone).
 */
#include <linux/module.h>
#include <linux/ktime.h>
#include <linux/net.h>
#include <linux/win_minmax.h>
#include <net/sock.h>
#include <net/tcp.h>

static char *ccs = "bbr,bbr_a_fair";
module_param(ccs, charp, 0444);
MODULE_PARM_DESC(ccs, "congestion controls, comma-separated (at most 4)");

/* a uint parameter NAME of default VALUE, described by DESC (modinfo -p) */
#define BENCH_UINT_PARAM(name, value, desc)	\
	static uint name = value;		\
	module_param(name, uint, 0444);		\
	MODULE_PARM_DESC(name, desc)

BENCH_UINT_PARAM(acks, 100000, "ACKs per timed run, at most 1000000");
BENCH_UINT_PARAM(reps, 15, "timed runs of each congestion control");
BENCH_UINT_PARAM(rate_mbps, 100, "the model's link rate, Mbit/s");
BENCH_UINT_PARAM(rtt_us, 20000, "the model's path RTT, us");
BENCH_UINT_PARAM(queue_us, 5000, "the model's largest queueing delay, us");

#define BENCH_MAX_CC	4
#define BENCH_MSS	1448
#define BENCH_ACKED	2
#define BENCH_SAW	400	/* ACKs per rise and fall of the queue */
#define BENCH_WARMUP	40000
#define BENCH_MAX_ACKS	1000000

/* packets per ms the model's link delivers; us between its ACKs */
static u32 bench_per_ms, bench_gap_us;

struct bench_flow {
	struct socket *sock;
	char name[TCP_CA_NAME_MAX];
	u64 now_us;
	u32 i;
};

/* tcp_set_ca_state(), which modules cannot call */
static void bench_set_state(struct sock *sk, u8 state)
{
	if (inet_csk(sk)->icsk_ca_ops->set_state)
		inet_csk(sk)->icsk_ca_ops->set_state(sk, state);
	inet_csk(sk)->icsk_ca_state = state;
}

/* One made-up ACK: the model's state moves on, and cc sees it if asked. */
static void bench_ack(struct bench_flow *b, bool cc, int recovery)
{
	struct sock *sk = b->sock->sk;
	struct tcp_sock *tp = tcp_sk(sk);
	struct rate_sample rs = {};
	u32 phase = b->i % (2 * BENCH_SAW);
	u32 saw = phase < BENCH_SAW ? phase : 2 * BENCH_SAW - phase;
	u32 rtt = rtt_us + (u32)div_u64((u64)queue_us * saw, BENCH_SAW);
	/* the packets the path and the queue hold */
	u32 path = (u32)div_u64((u64)bench_per_ms * rtt, 1000) + 1;

	b->i++;
	b->now_us += bench_gap_us;
	tp->tcp_mstamp = b->now_us;
	tp->delivered_mstamp = b->now_us;
	tp->delivered += BENCH_ACKED;
	tp->srtt_us = rtt << 3;
	tp->packets_out = min(tcp_snd_cwnd(tp), path);
	tp->is_cwnd_limited = tp->packets_out >= tcp_snd_cwnd(tp);
	if (recovery == 1) {
		/* as tcp_init_cwnd_reduction() enters a recovery */
		tp->lost++;
		rs.losses = 1;
		tp->prior_cwnd = tcp_snd_cwnd(tp);
		tp->snd_ssthresh = inet_csk(sk)->icsk_ca_ops->ssthresh(sk);
		bench_set_state(sk, TCP_CA_Recovery);
	} else if (recovery == -1) {
		bench_set_state(sk, TCP_CA_Open);
	}

	rs.prior_delivered = tp->delivered - BENCH_ACKED - path;
	rs.delivered = path + BENCH_ACKED;
	rs.interval_us = rtt;
	rs.rtt_us = rtt;
	rs.acked_sacked = BENCH_ACKED;
	rs.prior_in_flight = tp->packets_out;
	if (cc)
		inet_csk(sk)->icsk_ca_ops->cong_control(sk, &rs);
}

static int bench_open(struct bench_flow *b)
{
	struct sock *sk;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &b->sock);
	if (err)
		return err;
	err = b->sock->ops->setsockopt(b->sock, SOL_TCP, TCP_CONGESTION,
				       KERNEL_SOCKPTR(b->name),
				       strlen(b->name));
	if (err)
		return err;
	sk = b->sock->sk;
	if (!inet_csk(sk)->icsk_ca_ops->cong_control)
		return -EOPNOTSUPP;
	tcp_snd_cwnd_set(tcp_sk(sk), TCP_INIT_CWND);
	minmax_reset(&tcp_sk(sk)->rtt_min, tcp_jiffies32, rtt_us);
	b->now_us = tcp_clock_us();
	if (inet_csk(sk)->icsk_ca_ops->init)
		inet_csk(sk)->icsk_ca_ops->init(sk);
	inet_csk(sk)->icsk_ca_initialized = 1;
	return 0;
}

/* STARTUP to PROBE_BW, then one recovery at the queue's top. */
static void bench_warm(struct bench_flow *b)
{
	u32 n;

	lock_sock(b->sock->sk);
	for (n = 0; n < BENCH_WARMUP; n++)
		bench_ack(b, true, 0);
	while (b->i % (2 * BENCH_SAW) != BENCH_SAW)
		bench_ack(b, true, 0);
	bench_ack(b, true, 1);
	for (n = 0; n < 50; n++)
		bench_ack(b, true, 0);
	bench_ack(b, true, -1);
	release_sock(b->sock->sk);
}

/* One timed run, the socket locked as TCP holds it for an ACK. */
static u64 bench_run(struct bench_flow *b, bool cc)
{
	struct sock *sk = b->sock->sk;
	u64 t0, ns;
	u32 n;

	lock_sock(sk);
	t0 = ktime_get_ns();
	for (n = 0; n < acks; n++)
		bench_ack(b, cc, 0);
	ns = ktime_get_ns() - t0;
	release_sock(sk);
	return ns;
}

static int __init ack_bench_init(void)
{
	struct bench_flow *f;
	char *list, *p, *name;
	int n = 0, i, j, err = 0;
	u32 r;

	bench_per_ms = div_u64((u64)rate_mbps * 1000, 8 * BENCH_MSS);
	/* a run must not hold the CPU for long: at most about 0.1 s */
	if (!acks || acks > BENCH_MAX_ACKS || !reps || !bench_per_ms || !rtt_us)
		return -EINVAL;
	bench_gap_us = max_t(u32, BENCH_ACKED * 1000 / bench_per_ms, 1);
	f = kcalloc(BENCH_MAX_CC + 1, sizeof(*f), GFP_KERNEL);
	list = kstrdup(ccs, GFP_KERNEL);
	if (!f || !list) {
		err = -ENOMEM;
		goto out;
	}
	p = list;
	while ((name = strsep(&p, ",")) && n < BENCH_MAX_CC) {
		strscpy(f[n].name, name, sizeof(f[n].name));
		err = bench_open(&f[n]);
		if (err) {
			pr_err("ack_bench: %s: error %d\n", name, err);
			goto out;
		}
		bench_warm(&f[n]);
		pr_info("ack_bench_state %s cwnd %u pacing %lu\n", name,
			tcp_snd_cwnd(tcp_sk(f[n].sock->sk)),
			READ_ONCE(f[n].sock->sk->sk_pacing_rate));
		n++;
	}
	/* the model alone, on a socket of the first cc that it never calls */
	strscpy(f[n].name, f[0].name, sizeof(f[n].name));
	err = bench_open(&f[n]);
	if (err)
		goto out;
	bench_warm(&f[n]);
	/* each run begins with the next in turn: no cc always follows another */
	for (r = 0; r < reps; r++) {
		for (j = 0; j <= n; j++) {
			u64 ns;

			i = (r + j) % (n + 1);
			ns = bench_run(&f[i], i < n);
			pr_info("ack_bench %s %u %llu %u\n",
				i < n ? f[i].name : "-", r, ns, acks);
			cond_resched();
		}
	}
out:
	for (i = 0; f && i <= BENCH_MAX_CC; i++)
		if (f[i].sock)
			sock_release(f[i].sock);
	kfree(list);
	kfree(f);
	/* nothing to keep loaded: the results are in the kernel's log */
	return err ? err : -ECANCELED;
}

module_init(ack_bench_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A counted loop of ACKs through congestion controls, for scripts/bench_ack.sh");
