/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBR-A (algorithm bbr_a; Pan, Li, Tan, Xu, Li, "RTT fairness optimization
 * of BBR congestion control algorithm", J. Harbin Inst. Tech. 54(11), 2022).
 *
 * The 5/4 and 3/4 phases of PROBE_BW become Pup(phi) = 3 / (phi + 2) and
 * Pdown(phi) = 3 / (phi - 3) + 2, phi = rtt / rtt_max (include/bbr_a_gain.h),
 * gated by a queue test: phase 0 probes with Pup while no queue is seen and
 * holds at gain 1 otherwise; phase 1 drains with Pdown while a queue is seen
 * or the flow is lossy, and cruises otherwise. Everything else is BBRv1.
 *
 * The module parameters select among the readings the paper's text allows
 * (README, "BBR-A as implemented"); with adaptive=0 it is plain BBRv1.
 *
 * Its module parameters, socket init and events (a round's end, a trace
 * event) are in algos/bbr_a.c; its per-ACK hooks are here, inlined into the
 * core (bbr_a_core.c). bbr_a_fair builds on its gain functions.
 */

#ifndef _BBR_A_ALGOS_BBR_A_H
#define _BBR_A_ALGOS_BBR_A_H

#include "bbr_a_core.h"

/*
 * bbr_a's parameters, as its ACKs read them: a snapshot, copied into each
 * ACK's context (bbr_a_load()). adaptive is in the first word, which is all
 * an ACK at adaptive=0 copies.
 */
struct bbr_a_params {
	u8	adaptive;
	u8	rtt_max_scope;
	u8	gate_signal;
	u8	probe_up_hold;
	u8	probe_down_and;
	u32	inflight_thresh;
	u32	queue_thresh_us;
	u32	loss_thresh;
	u32	rtt_max_win_sec;
} __aligned(8);

extern struct bbr_a_params bbr_a_params_snap;

/*
 * The loss rate of packet-timed rounds, for the probe-down test: the counts
 * at the start of the loss round (the verdict on the last one is a bit of
 * the algorithm's state). A loss round is the core's round, except that an
 * RTO ends it early.
 */
struct bbr_a_loss_round {
	u32	lost;			/* tp->lost when the loss round began */
	u32	delivered;		/* tp->delivered when it began */
};

/* bbr_a's socket state, after the core's. */
struct bbr_a_state {
	struct bbr_a_loss_round loss;
	u32	rtt_max_us;		/* largest RTT sample; 0: none */
	u32	rtt_max_stamp;		/* jiffies of rtt_max_us */
	u32	lossy:1,		/* did the last loss round lose too much? */
		unused:31;
};

static __always_inline struct bbr_a_params *bbr_a_params(const struct bbr_ctx *c)
{
	BUILD_BUG_ON(sizeof(struct bbr_a_params) > sizeof(c->params));
	return BBR_CTX_PARAMS(c, struct bbr_a_params);
}

/* The socket's congestion-control state: the core's, then bbr_a's. */
struct bbr_a_sock {
	struct bbr	core;
	struct bbr_a_state a;
};

static_assert(sizeof(struct bbr_a_sock) <= ICSK_CA_PRIV_SIZE);

static __always_inline struct bbr_a_state *bbr_a_state(const struct sock *sk)
{
	struct bbr_a_sock *s = inet_csk_ca(sk);

	return &s->a;
}

/* algos/bbr_a.c: parameters, init, a round's end, a trace event's fields */
void bbr_a_snapshot_load(void);
void bbr_a_init_state(struct sock *sk);
void bbr_a_round_end(struct sock *sk, bool adaptive, u32 loss_thresh);
void bbr_a_fixed_round_end(struct sock *sk);
void bbr_a_trace(struct sock *sk, struct bbr_a_snapshot *snap);

#ifdef BBR_A_CORE
/*
 * The per-ACK hooks: compiled into the core only (bbr_a_core.c defines
 * BBR_A_CORE before it includes this header), each inlined into the core's
 * instantiation for this algorithm, so that they cost no call per ACK; they
 * may call the core's own functions.
 */

static __always_inline void bbr_a_load(struct bbr_ctx *c)
{
	const unsigned int words = BBR_PARAMS_WORDS(struct bbr_a_params);
	const u64 *snap = (const u64 *)&bbr_a_params_snap;

	BUILD_BUG_ON(offsetof(struct bbr_a_params, adaptive) >= sizeof(u64));
	bbr_params_get(c->params, snap, 1);
	if (!bbr_a_params(c)->adaptive)
		return;		/* BBRv1's gains: no other is read */
	bbr_params_get(c->params + 1, snap + 1, words - 1);
}

/*
 * The paper's has_loss: the last loss round (verdict was_lossy), or this one
 * so far, lost too much.
 */
static bool bbr_a_loss_round_lossy(struct sock *sk,
				   const struct bbr_a_loss_round *l,
				   bool was_lossy, u32 thresh_pm)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return was_lossy ||
	       bbr_a_loss_rate_high(tp->lost - l->lost,
				    tp->delivered - l->delivered, thresh_pm);
}

/*
 * Track rtt_max, the largest RTT this flow has seen: in every state or only in
 * PROBE_BW, for the connection's lifetime or refreshed from the current
 * sample once it is rtt_max_win_sec old. Samples from ACKs that may have been
 * delayed by the receiver are skipped: a delayed ACK measures the receiver's
 * timer, not the path, and one such sample would pin phi low for a lifetime.
 * With adaptive=0 nothing reads rtt_max: it is not kept (BBRv1's cost), and
 * takes the next sample once adaptive is set.
 */
static __always_inline void bbr_a_on_ack(struct sock *sk,
					 const struct bbr_ctx *c,
					 const struct rate_sample *rs)
{
	const struct bbr_a_params *p = bbr_a_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_state *a = bbr_a_state(sk);
	bool expired;

	if (!p->adaptive || rs->rtt_us < 0 || rs->is_ack_delayed)
		return;
	if (p->rtt_max_scope && bbr->mode != BBR_PROBE_BW)
		return;

	expired = p->rtt_max_win_sec &&
		  after(tcp_jiffies32,
			a->rtt_max_stamp + p->rtt_max_win_sec * HZ);
	if ((u32)rs->rtt_us > a->rtt_max_us || expired) {
		a->rtt_max_us = (u32)rs->rtt_us;
		a->rtt_max_stamp = tcp_jiffies32;
	}
}

/*
 * The queue test of both probe phases: queued while level > thresh. The
 * paper's signal is inflight against 1.25 x the flow's own BDP (BBR's
 * estimate max_bw x min_rtt; inflight counted at the next departure, as
 * BBR's phase logic counts it). The alternative is the queueing delay this
 * ACK saw, rtt - min_rtt, against a fixed time: one queue, one delay for
 * every flow.
 */
static __always_inline void bbr_a_queue_test(struct sock *sk,
					     const struct bbr_ctx *c,
					     const struct rate_sample *rs,
					     u32 rtt_us, u32 *level,
					     u32 *thresh)
{
	const struct bbr_a_params *p = bbr_a_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);

	if (p->gate_signal) {
		*level = rtt_us;
		*thresh = bbr->min_rtt_us + p->queue_thresh_us;
		return;
	}
	*level = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);
	*thresh = bbr_bdp(sk, c, bbr_max_bw(sk), p->inflight_thresh,
			  BBR_ALGO_A);
}

/* phi's numerator: this ACK's RTT sample, or srtt if it carries none. */
static u32 bbr_a_phi_rtt(struct sock *sk, const struct rate_sample *rs)
{
	return rs->rtt_us >= 0 ? (u32)rs->rtt_us : tcp_sk(sk)->srtt_us >> 3;
}

/*
 * Pacing gain for PROBE_BW phase cycle_idx, recomputed on every ACK, and the
 * reason for it in *why. Phases 2..7, adaptive=0, and a flow without an
 * RTT sample get BBRv1's gains.
 */
static __always_inline u32 bbr_a_probe_bw_gain(struct sock *sk,
					       const struct bbr_ctx *c,
					       const struct rate_sample *rs,
					       u8 *why)
{
	const struct bbr_a_params *p = bbr_a_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_state *a = bbr_a_state(sk);
	u32 rtt_us, level, thresh;
	bool queued, lossy;

	/* phases 2..7 cruise: BBR_UNIT, without a load of bbr_cycle_gain[] */
	if (bbr->cycle_idx > 1)
		return BBR_UNIT;
	if (!a->rtt_max_us || !p->adaptive)
		return bbr_cycle_gain[bbr->cycle_idx];

	rtt_us = bbr_a_phi_rtt(sk, rs);
	bbr_a_queue_test(sk, c, rs, rtt_us, &level, &thresh);

	if (bbr->cycle_idx == 0) {
		if (level < thresh || !p->probe_up_hold) {
			*why = BBR_WHY_PROBE;
			return bbr_a_gain_up(rtt_us, a->rtt_max_us);
		}
		*why = BBR_WHY_HOLD;
		return BBR_UNIT;
	}

	queued = level > thresh;
	lossy = bbr_a_loss_round_lossy(sk, &a->loss, a->lossy, p->loss_thresh);
	if (p->probe_down_and ? queued && lossy : queued || lossy) {
		*why = queued ? BBR_WHY_DRAIN : BBR_WHY_LOSSY;
		return bbr_a_gain_down(rtt_us, a->rtt_max_us);
	}
	*why = BBR_WHY_CRUISE;
	return BBR_UNIT;
}

/*
 * An ACK, its parameters loaded. At adaptive=0 bbr_a is BBRv1, compiled as
 * its own variant (BBR_ALGO_A_FIXED): the gains are BBRv1's, rtt_max is not
 * kept, and the only work beyond BBRv1's is the loss round's restart at a
 * round's end, so that adaptive=0 costs about what BBRv1 costs per ACK. A
 * write to adaptive takes effect from the next ACK, as any parameter's.
 */
static __always_inline void bbr_a_ack(struct sock *sk,
				      const struct rate_sample *rs,
				      const struct bbr_ctx *c)
{
	if (bbr_a_params(c)->adaptive)
		bbr_main(sk, rs, c, BBR_ALGO_A);
	else
		bbr_main(sk, rs, c, BBR_ALGO_A_FIXED);
}

#endif /* BBR_A_CORE */

#endif /* _BBR_A_ALGOS_BBR_A_H */
