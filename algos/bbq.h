/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBQ (algorithm bbq; Ma, Jiang, Wang, Li, "Beyond BBR: bounded queueing
 * delay", arXiv 1706.09115), the BBR-A paper's first baseline. A flow's 5/4
 * probe lasts one of its own min_rtts, so a long-RTT flow pushes more excess
 * data into a queue per probe. While a queue persists, RTT > (1 + beta) x
 * min_rtt, BBQ ends the probe-up phase after min(alpha, min_rtt), alpha =
 * 3 ms, whether or not inflight reached 5/4 BDP. Everything else is BBRv1;
 * bbq_alpha_us=0 switches it off.
 *
 * Its module parameters are in algos/bbq.c; its per-ACK hook is here, inlined
 * into the core (bbr_a_core.c).
 */

#ifndef _BBR_A_ALGOS_BBQ_H
#define _BBR_A_ALGOS_BBQ_H

#include "bbr_a_core.h"

/* bbq's parameters, as its ACKs read them: a snapshot (bbq_load()). */
struct bbq_params {
	u32	alpha_us;
	u32	beta_pm;
} __aligned(8);

extern struct bbq_params bbq_params_snap;

static __always_inline struct bbq_params *bbq_params(const struct bbr_ctx *c)
{
	BUILD_BUG_ON(sizeof(struct bbq_params) > sizeof(c->params));
	return BBR_CTX_PARAMS(c, struct bbq_params);
}

/* algos/bbq.c: the snapshot, rebuilt at each parameter write */
void bbq_snapshot_load(void);

#ifdef BBR_A_CORE
/*
 * The per-ACK hooks: compiled into the core only (bbr_a_core.c defines
 * BBR_A_CORE before it includes this header), each inlined into the core's
 * instantiation for this algorithm, so that they cost no call per ACK; they
 * may call the core's own functions.
 */

static __always_inline void bbq_load(struct bbr_ctx *c)
{
	bbr_params_get(c->params, (const u64 *)&bbq_params_snap,
		       BBR_PARAMS_WORDS(struct bbq_params));
}

/* Does a persistent queue end this probe-up phase after elapsed_us? */
static __always_inline bool bbq_probe_up_done(struct sock *sk,
					      const struct bbr_ctx *c,
					      const struct rate_sample *rs,
					      u32 elapsed_us)
{
	const struct bbq_params *p = bbq_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);

	if (!p->alpha_us || rs->rtt_us < 0 ||
	    (u64)rs->rtt_us * 1000 <=
	    (u64)bbr->min_rtt_us * (1000 + p->beta_pm))
		return false;
	return elapsed_us > min(p->alpha_us, bbr->min_rtt_us);
}

#endif /* BBR_A_CORE */

#endif /* _BBR_A_ALGOS_BBQ_H */
