/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBR-A fair (algorithm bbr_a_fair): the project's extension of BBR-A, not in
 * the paper; why each rule is there is in docs/fairness.md.
 *
 * In a shared queue, BBRv1's cwnd target 2 x bw x min_rtt lets each flow
 * queue for as long as its own min_rtt, so a long-RTT flow holds a larger
 * share of the queue, and with it of the link, whatever the pacing gains
 * do. bbr_a_fair keeps the shape of BBR-A's Pup/Pdown and changes:
 *
 *  - the cwnd target in PROBE_BW: bw x (min_rtt + fair_cwnd_queue_us) +
 *    fair_cwnd_pkts, the same queueing time and the same number of queued
 *    packets for every flow. With the packet term each flow queues
 *    alpha = x x (Q - Qa) packets at rate x, so flows whose caps bind end
 *    at the same x (Vegas' equilibrium);
 *  - the probe-up phase also ends once the flow is cwnd-limited: a long-RTT
 *    flow's cap is below Pup x BDP, and a probe waiting for that much
 *    inflight would last until a loss;
 *  - phase 0 probes with Pup whatever the queue (fair_probe_hold=1: holds
 *    while queued); phase 1 drains with Pdown while the queueing delay this
 *    ACK saw, rtt - min_rtt, exceeds fair_queue_us, or the flow is lossy;
 *  - phi is the ratio of queueing delays (rtt - min_rtt) / (rtt_max -
 *    min_rtt) (fair_gains=2), which flows on one bottleneck share whatever
 *    their base RTTs, where BBR-A's rtt / rtt_max is nearer 1 the longer
 *    the base RTT;
 *  - rtt_max is taken in PROBE_BW only, and a peak fades: after each 10 s
 *    window without a larger sample its queueing part halves, and it is
 *    never taken as less than fair_queue_us above min_rtt.
 *
 * Part of tcp_bbr_a.c, included after algos/bbr_a.h.
 */

BBR_PARAM(fair_queue_us, 2000, 100, 100000,
	  "bbr_a_fair: shared queueing delay (rtt - min_rtt) above which phase 0 holds and phase 1 drains, us; also the least queueing delay phi's denominator counts");
BBR_PARAM(fair_probe_hold, 0, 0, 1,
	  "bbr_a_fair: probe-up phase while queued: 1 hold at gain 1, 0 Pup anyway");
BBR_PARAM(fair_cwnd_probe, 0, 0, 1,
	  "bbr_a_fair: 1 the cwnd target scales min_rtt by a probing gain; 0 probing only fills the queueing allowance");
BBR_PARAM(fair_cwnd_queue_us, 5000, 0, 1000000,
	  "bbr_a_fair: PROBE_BW cwnd target bw x (min_rtt + this), us, the same queueing time for every flow; 0: BBRv1's 2 x bw x min_rtt");
BBR_PARAM(fair_cwnd_pkts, 32, 0, 10000,
	  "bbr_a_fair: packets added to the PROBE_BW cwnd target, the same number for every flow (Vegas' alpha)");

/* bbr_a_fair's probe gains (fair_gains) */
enum {
	BBR_A_FAIR_GAINS_PHI,	/* Pup/Pdown of phi = rtt / rtt_max */
	BBR_A_FAIR_GAINS_BBR1,	/* BBRv1's 5/4 and 3/4 */
	BBR_A_FAIR_GAINS_QUEUE,	/* Pup/Pdown of the queueing delays' phi */
};

BBR_PARAM(fair_gains, 2, 0, 2,
	  "bbr_a_fair: probe gains: 0 Pup/Pdown of rtt / rtt_max, 1 BBRv1's 5/4 and 3/4, 2 Pup/Pdown of the queueing delays (rtt - min_rtt) / (rtt_max - min_rtt)");

/* The window after which rtt_max's queueing part halves, seconds. */
static const u32 bbr_a_fair_rtt_max_win_sec = 10;

/* bbr_a_fair's parameters, read once per ACK. */
struct bbr_a_fair_params {
	u32	queue_us;
	u32	cwnd_queue_us;
	u32	cwnd_pkts;
	u32	loss_thresh;
	u8	probe_hold;
	u8	cwnd_probe;
	u8	gains;
};

/* bbr_a_fair's socket state, in bbr->priv. */
struct bbr_a_fair_state {
	struct bbr_a_loss_round loss;
	u32	rtt_max_us;		/* fading max RTT sample; 0: none */
	u32	rtt_max_stamp;		/* jiffies: its window began */
};

static __always_inline struct bbr_a_fair_params *
bbr_a_fair_params(const struct bbr_ctx *c)
{
	BUILD_BUG_ON(sizeof(struct bbr_a_fair_params) > sizeof(c->params));
	return BBR_CTX_PARAMS(c, struct bbr_a_fair_params);
}

static __always_inline struct bbr_a_fair_state *
bbr_a_fair_state(const struct sock *sk)
{
	BUILD_BUG_ON(sizeof(struct bbr_a_fair_state) >
		     sizeof_field(struct bbr, priv));
	return BBR_PRIV(sk, struct bbr_a_fair_state);
}

static __always_inline void bbr_a_fair_load(struct bbr_ctx *c)
{
	struct bbr_a_fair_params *p = bbr_a_fair_params(c);

	p->queue_us = bbr_param(fair_queue_us);
	p->probe_hold = bbr_param(fair_probe_hold);
	p->cwnd_probe = bbr_param(fair_cwnd_probe);
	p->cwnd_queue_us = bbr_param(fair_cwnd_queue_us);
	p->cwnd_pkts = bbr_param(fair_cwnd_pkts);
	p->gains = bbr_param(fair_gains);
	p->loss_thresh = bbr_param(loss_thresh);
}

static __always_inline void bbr_a_fair_init_state(struct sock *sk)
{
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);

	bbr_a_loss_round_start(sk, &f->loss);
	f->rtt_max_stamp = tcp_jiffies32;
}

static __always_inline void bbr_a_fair_round_end(struct sock *sk,
						 const struct bbr_ctx *c)
{
	bbr_a_loss_round_end(sk, &bbr_a_fair_state(sk)->loss,
			     bbr_a_fair_params(c)->loss_thresh);
}

/* rtt_max from PROBE_BW's samples, not from ACKs the receiver may have delayed. */
static __always_inline void bbr_a_fair_on_ack(struct sock *sk,
					      const struct bbr_ctx *c,
					      const struct rate_sample *rs)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	bool over, restart;

	if (rs->rtt_us < 0 || rs->is_ack_delayed || bbr->mode != BBR_PROBE_BW)
		return;

	over = after(tcp_jiffies32,
		     f->rtt_max_stamp + bbr_a_fair_rtt_max_win_sec * HZ);
	f->rtt_max_us = bbr_a_rtt_max_next(f->rtt_max_us, (u32)rs->rtt_us,
					   bbr->min_rtt_us, over, &restart);
	if (restart)
		f->rtt_max_stamp = tcp_jiffies32;
}

/*
 * Pacing gain for PROBE_BW phase cycle_idx and the reason for it; phases
 * 2..7 and a flow without an RTT sample get BBRv1's gains.
 */
static __always_inline u32 bbr_a_fair_probe_bw_gain(struct sock *sk,
						    const struct bbr_ctx *c,
						    const struct rate_sample *rs)
{
	const struct bbr_a_fair_params *p = bbr_a_fair_params(c);
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 rtt_us, rtt_max;
	bool queued;

	if (bbr->cycle_idx > 1 || !f->rtt_max_us)
		return bbr_cycle_gain[bbr->cycle_idx];

	rtt_us = bbr_a_phi_rtt(sk, rs);
	queued = rtt_us > bbr->min_rtt_us + p->queue_us;
	rtt_max = f->rtt_max_us;
	if (p->gains == BBR_A_FAIR_GAINS_QUEUE) {
		rtt_max = max(rtt_max, bbr->min_rtt_us + p->queue_us);
		bbr_a_queue_phi(&rtt_us, &rtt_max, bbr->min_rtt_us);
	}

	if (bbr->cycle_idx == 0) {
		if (!queued || !p->probe_hold) {
			bbr->gain_why = BBR_WHY_PROBE;
			if (p->gains == BBR_A_FAIR_GAINS_BBR1)
				return BBR_A_BBR1_GAIN_UP;
			return bbr_a_gain_up(rtt_us, rtt_max);
		}
		bbr->gain_why = BBR_WHY_HOLD;
		return BBR_UNIT;
	}

	if (queued || bbr_a_loss_round_lossy(sk, &f->loss, p->loss_thresh)) {
		bbr->gain_why = queued ? BBR_WHY_DRAIN : BBR_WHY_LOSSY;
		if (p->gains == BBR_A_FAIR_GAINS_BBR1)
			return BBR_A_BBR1_GAIN_DOWN;
		return bbr_a_gain_down(rtt_us, rtt_max);
	}
	bbr->gain_why = BBR_WHY_CRUISE;
	return BBR_UNIT;
}

/*
 * The PROBE_BW cwnd target before budgets, in packets: one BDP (or, with
 * fair_cwnd_probe, pacing_gain x BDP while probing up) plus
 * fair_cwnd_queue_us of queueing time at bw plus fair_cwnd_pkts packets.
 * Other states, and both allowances 0, keep BBRv1's gain x BDP.
 */
static __always_inline u32 bbr_a_fair_cwnd_target(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 bw, u32 gain)
{
	const struct bbr_a_fair_params *p = bbr_a_fair_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	u64 w;

	if ((!p->cwnd_queue_us && !p->cwnd_pkts) ||
	    bbr->mode != BBR_PROBE_BW || unlikely(bbr->min_rtt_us == ~0U))
		return bbr_bdp(sk, c, bw, gain, BBR_ALGO_A_FAIR);

	w = bbr->min_rtt_us;
	if (p->cwnd_probe)
		w = w * max_t(u32, bbr->pacing_gain, BBR_UNIT) >> BBR_SCALE;
	w += p->cwnd_queue_us;
	return DIV_ROUND_UP_ULL(w * bw, BW_UNIT) + p->cwnd_pkts;
}

/* After a full min_rtt, a cwnd-limited flow has probed all its cap allows. */
static __always_inline bool bbr_a_fair_probe_up_done(struct sock *sk,
						     bool full_length)
{
	return full_length && tcp_sk(sk)->is_cwnd_limited;
}

static __always_inline void bbr_a_fair_trace(struct sock *sk,
					     struct bbr_a_snapshot *snap)
{
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	snap->rtt_max_us = f->rtt_max_us;
	snap->round_lost = tp->lost - f->loss.lost;
	snap->lossy = f->loss.lossy;
}
