/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBR-A's RTT-adaptive PROBE_BW pacing gains, in BBR_UNIT (1 << 8) fixed
 * point, as pure functions shared by the module and by the host unit tests.
 *
 * With phi = rtt / rtt_max in (0, 1] (Pan et al., J. HIT 54(11), 2022):
 *
 *	Pup(phi)   = 3 / (phi + 2)          in [1, 1.5)  replaces BBRv1's 5/4
 *	Pdown(phi) = 3 / (phi - 3) + 2      in [0.5, 1)  replaces BBRv1's 3/4
 *
 * Multiplying through by rtt_max keeps everything in integers:
 *
 *	256 * Pup   = 768 * rtt_max / (rtt + 2 * rtt_max)
 *	256 * Pdown = 512 - 768 * rtt_max / (3 * rtt_max - rtt)
 *
 * rtt is clamped to rtt_max first, so the divisors lie in [2, 3] * rtt_max:
 * never zero when rtt_max > 0, and every intermediate fits in a u64 for any
 * pair of u32 inputs (768 * (2^32 - 1) < 2^42). Quotients are rounded to the
 * nearest integer. rtt_max == 0 means "no RTT sample yet" and yields BBRv1's
 * fixed gains.
 *
 * The loss-rate test of the probe-down phase is here too: the fraction of a
 * round's packets that were lost, and the verdict kept when a round ends.
 *
 * The header is self-contained: bbr_a_types.h gives it the kernel's types
 * and division in the kernel and standard C's in userspace.
 */
#ifndef _BBR_A_GAIN_H
#define _BBR_A_GAIN_H

#include "bbr_a_types.h"

#define BBR_A_GAIN_UNIT		256U	/* BBR_UNIT */
#define BBR_A_BBR1_GAIN_UP	320U	/* BBRv1's 5/4 */
#define BBR_A_BBR1_GAIN_DOWN	192U	/* BBRv1's 3/4 */

/*
 * Round-to-nearest unsigned division; d must be non-zero. The gains divide
 * on every ACK of their phases: in 32 bits where the dividend fits, that is
 * for rtt_max (bbr_a_fair: its queueing part) below about 5.5 s
 * (bbr_a_div_u64_fit()).
 */
static inline u64 bbr_a_div_round(u64 n, u64 d)
{
	return bbr_a_div_u64_fit(n + d / 2, d);
}

/* Pup * 256: 384 (rtt far below rtt_max) down to 256 (rtt == rtt_max). */
static inline u32 bbr_a_gain_up(u32 rtt_us, u32 rtt_max_us)
{
	u64 tmax = rtt_max_us;
	u64 t = rtt_us < rtt_max_us ? rtt_us : rtt_max_us;

	if (!rtt_max_us)
		return BBR_A_BBR1_GAIN_UP;
	return (u32)bbr_a_div_round(3 * BBR_A_GAIN_UNIT * tmax, t + 2 * tmax);
}

/* Pdown * 256: 256 (rtt far below rtt_max) down to 128 (rtt == rtt_max). */
static inline u32 bbr_a_gain_down(u32 rtt_us, u32 rtt_max_us)
{
	u64 tmax = rtt_max_us;
	u64 t = rtt_us < rtt_max_us ? rtt_us : rtt_max_us;

	if (!rtt_max_us)
		return BBR_A_BBR1_GAIN_DOWN;
	return 2 * BBR_A_GAIN_UNIT -
	       (u32)bbr_a_div_round(3 * BBR_A_GAIN_UNIT * tmax, 3 * tmax - t);
}

/*
 * bbr_a_fair's phi: the queueing delays (rtt - base) / (rtt_max - base), base
 * the flow's min_rtt, instead of rtt / rtt_max. Flows on one bottleneck see
 * one queue, so they get one phi and one pair of gains whatever their base
 * RTTs. Rewrites *rtt and *rtt_max into the pair to give the gain functions
 * (which clamp rtt to rtt_max): rtt - base (0 below base) and rtt_max - base,
 * at least 1 us. A flow whose rtt_max is its base (no queue seen since the
 * window began) thus has phi 0 at its base RTT and 1 above it.
 */
static inline void bbr_a_queue_phi(u32 *rtt, u32 *rtt_max, u32 base)
{
	if (base > *rtt_max)
		base = *rtt_max;
	*rtt = *rtt > base ? *rtt - base : 0;
	*rtt_max -= base;
	if (!*rtt_max)
		*rtt_max = 1;
}

/* Is lost / (lost + delivered) above thresh_pm per mille? */
static inline bool bbr_a_loss_rate_high(u32 lost, u32 delivered, u32 thresh_pm)
{
	return (u64)lost * 1000 > (u64)thresh_pm * ((u64)lost + delivered);
}

/*
 * The verdict on a round that just ended with these counts. A round in which
 * nothing was delivered or lost says nothing about the loss rate: it keeps
 * the previous verdict (the round counter can restart twice on one ACK).
 */
static inline bool bbr_a_round_lossy(bool prev, u32 lost, u32 delivered,
				     u32 thresh_pm)
{
	if (!lost && !delivered)
		return prev;
	return bbr_a_loss_rate_high(lost, delivered, thresh_pm);
}

#endif /* _BBR_A_GAIN_H */
