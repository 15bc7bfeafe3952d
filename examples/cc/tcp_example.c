// SPDX-License-Identifier: GPL-2.0
/*
 * TCP "example": Reno with an additive increase of two packets per round trip.
 *
 * A congestion control of one's own for the testbed (testbed/README.md, "Your own
 * congestion control"): rtt_fairness.sh --module-src examples/cc builds it against the
 * kernel the runs boot and loads it beside tcp_bbr_a, and --cc example runs it. Slow start,
 * the halving on loss and the undo are Reno's; in congestion avoidance the window grows by
 * EXAMPLE_AI packets per window of packets acknowledged, where Reno grows it by one.
 */

#include <linux/module.h>
#include <net/tcp.h>

/* packets the window grows by per round trip in congestion avoidance */
#define EXAMPLE_AI 2

static void tcp_example_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	/* one packet for every snd_cwnd / EXAMPLE_AI packets acknowledged */
	tcp_cong_avoid_ai(tp, max_t(u32, tp->snd_cwnd / EXAMPLE_AI, 1), acked);
}

static struct tcp_congestion_ops tcp_example __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_example_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
	.name		= "example",
};

static int __init tcp_example_register(void)
{
	return tcp_register_congestion_control(&tcp_example);
}

static void __exit tcp_example_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_example);
}

module_init(tcp_example_register);
module_exit(tcp_example_unregister);

MODULE_AUTHOR("The tcp_bbr_a authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP example: Reno with an additive increase of two packets per RTT");
