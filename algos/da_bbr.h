/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DA-BBR (algorithm da_bbr; Kim and Cho, "Delay-Aware BBR Congestion Control
 * Algorithm for RTT Fairness Improvement", IEEE Access 8:4099, 2020), the
 * BBR-A paper's second baseline:
 *
 *  - in PROBE_BW the BDP behind the cwnd target and the phase checks is
 *    scaled by rtt / (rtt + min_rtt), rtt this ACK's sample (0.5 .. 1);
 *  - not while min_rtt exceeds the previous epoch's by more than
 *    da_guard_pct (a path change); the epoch's min_rtt is noted when the
 *    min_rtt filter expires in PROBE_BW;
 *  - PROBE_RTT holds cwnd / 3 (at least 4 packets) instead of 4 packets;
 *  - recovery starts from the packets in flight, conserves packets without
 *    adding what the ACK delivered, paces at no more than 3/4 in that first
 *    round (in every state), and does not restore the cwnd from before
 *    recovery when it ends.
 *
 * da_enable=0 switches it off. The state these rules need is kept up to date
 * either way, so that a switch written during a connection applies whole
 * from the next ACK.
 *
 * Its module parameters, socket init and PROBE_RTT events are in
 * algos/da_bbr.c; its per-ACK hooks are here, inlined into the core
 * (bbr_a_core.c), and so are those of recovery, which fall back to the
 * core's own functions.
 */

#ifndef _BBR_A_ALGOS_DA_BBR_H
#define _BBR_A_ALGOS_DA_BBR_H

#include "bbr_a_core.h"

/* da_bbr's parameters, as its ACKs read them: a snapshot (da_bbr_load()). */
struct da_bbr_params {
	u32	guard_pct;
	u8	enable;
} __aligned(8);

extern struct da_bbr_params da_bbr_params_snap;

/* da_bbr's socket state, after the core's. */
struct da_bbr_state {
	u32	prev_min_rtt_us;	/* previous epoch's min_rtt */
	u32	probe_rtt_cwnd;		/* cwnd held in PROBE_RTT */
};

static __always_inline struct da_bbr_params *
da_bbr_params(const struct bbr_ctx *c)
{
	BUILD_BUG_ON(sizeof(struct da_bbr_params) > sizeof(c->params));
	return BBR_CTX_PARAMS(c, struct da_bbr_params);
}

/* The socket's congestion-control state: the core's, then da_bbr's. */
struct da_bbr_sock {
	struct bbr	core;
	struct da_bbr_state da;
};

static_assert(sizeof(struct da_bbr_sock) <= ICSK_CA_PRIV_SIZE);

static __always_inline struct da_bbr_state *da_bbr_state(const struct sock *sk)
{
	struct da_bbr_sock *s = inet_csk_ca(sk);

	return &s->da;
}

/* algos/da_bbr.c: parameters, init and PROBE_RTT's events */
void da_bbr_snapshot_load(void);
void da_bbr_init_state(struct sock *sk);
void da_bbr_min_rtt_expired(struct sock *sk, const struct rate_sample *rs);
void da_bbr_probe_rtt_enter(struct sock *sk);

#ifdef BBR_A_CORE
/*
 * The per-ACK hooks: compiled into the core only (bbr_a_core.c defines
 * BBR_A_CORE before it includes this header), each inlined into the core's
 * instantiation for this algorithm, so that they cost no call per ACK; they
 * may call the core's own functions.
 */

/* The pacing gain of recovery's first round, at most. */
static const u32 da_bbr_recovery_gain = BBR_UNIT * 3 / 4;

static __always_inline void da_bbr_load(struct bbr_ctx *c)
{
	bbr_params_get(c->params, (const u64 *)&da_bbr_params_snap,
		       BBR_PARAMS_WORDS(struct da_bbr_params));
}

/* w = bw x min_rtt, scaled in PROBE_BW unless the path changed. */
static __always_inline u64 da_bbr_bdp(struct sock *sk, const struct bbr_ctx *c,
				      u64 w)
{
	const struct da_bbr_params *p = da_bbr_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	const struct da_bbr_state *d = da_bbr_state(sk);
	u64 guard = 100 + p->guard_pct;

	if (!p->enable || bbr->mode != BBR_PROBE_BW || c->rtt_us <= 0 ||
	    (u64)bbr->min_rtt_us * 100 > (u64)d->prev_min_rtt_us * guard)
		return w;
	return bbr_a_scale_down(w, c->rtt_us, (u32)c->rtt_us + bbr->min_rtt_us);
}

static __always_inline u32 da_bbr_probe_rtt_cwnd(struct sock *sk,
						 const struct bbr_ctx *c)
{
	if (!da_bbr_params(c)->enable)
		return bbr_cwnd_min_target;
	return da_bbr_state(sk)->probe_rtt_cwnd;
}

static __always_inline u32 da_bbr_pacing_gain(struct sock *sk,
					      const struct bbr_ctx *c, u32 gain)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (!da_bbr_params(c)->enable || !bbr->packet_conservation)
		return gain;
	return min(gain, da_bbr_recovery_gain);
}

static __always_inline u32 da_bbr_recovery_cwnd(struct sock *sk,
						const struct bbr_ctx *c,
						u32 acked)
{
	if (!da_bbr_params(c)->enable)
		return bbr_recovery_cwnd(sk, acked);
	return max(tcp_packets_in_flight(tcp_sk(sk)), 1U);
}

static __always_inline u32 da_bbr_conserve_cwnd(struct sock *sk,
						const struct bbr_ctx *c,
						u32 cwnd, u32 acked)
{
	if (!da_bbr_params(c)->enable)
		return bbr_conserve_cwnd(sk, cwnd, acked);
	return cwnd;
}

static __always_inline u32 da_bbr_recovery_end_cwnd(struct sock *sk,
						    const struct bbr_ctx *c,
						    u32 cwnd)
{
	if (!da_bbr_params(c)->enable)
		return bbr_recovery_end_cwnd(sk, cwnd);
	return cwnd;
}

#endif /* BBR_A_CORE */

#endif /* _BBR_A_ALGOS_DA_BBR_H */
