/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure arithmetic of the module that the host tests check on their own: the
 * bandwidth filter, bbr_a_fair's rtt_max window and an overflow-free scaling.
 *
 * The bandwidth filter is the windowed running maximum of lib/win_minmax.c
 * (Kathleen Nichols' algorithm: the best sample, and the best ones of the
 * last three quarters and the last half of the window, so that the maximum
 * ages out smoothly), with the same decisions for the same inputs, kept in
 * 16 bytes instead of 24 plus BBR's 4-byte round counter. Its clock is the
 * count of packet-timed rounds, and it needs only differences of at most
 * two windows between the stamps it keeps and now: the stamps and the round
 * counter are 7 bits, compared modulo 128. The one longer difference, now
 * against the newest stamp, is only ever compared with the window; it is
 * checked at each round instead, and once it exceeds the window a flag
 * remembers that, however many rounds pass before the next sample.
 */
#ifndef _BBR_A_MATH_H
#define _BBR_A_MATH_H

#include "bbr_a_types.h"

#define BBR_A_MAXFILT_MASK	0x7f	/* stamps are rounds modulo 128 */

struct bbr_a_maxfilt {
	u32	v[3];		/* best, second and third choice */
	u8	t[3];		/* the round of each, modulo 128 */
	u8	now:7,		/* the current round, modulo 128 */
		stale:1;	/* v[2] is older than the window */
};

/* Rounds from stamp t to now; exact while below 128. */
static inline u32 bbr_a_maxfilt_age(const struct bbr_a_maxfilt *f, u8 t)
{
	return (u32)(f->now - t) & BBR_A_MAXFILT_MASK;
}

static inline u32 bbr_a_maxfilt_get(const struct bbr_a_maxfilt *f)
{
	return f->v[0];
}

/* Forget everything: v becomes all three choices, taken now. */
static inline u32 bbr_a_maxfilt_reset(struct bbr_a_maxfilt *f, u32 v)
{
	int i;

	for (i = 0; i < 3; i++) {
		f->v[i] = v;
		f->t[i] = f->now;
	}
	f->stale = 0;
	return v;
}

/*
 * A packet-timed round ended: advance the clock, and note when the newest
 * choice has left a window of win rounds (win < 64).
 */
static inline void bbr_a_maxfilt_next_round(struct bbr_a_maxfilt *f, u32 win)
{
	f->now = (f->now + 1) & BBR_A_MAXFILT_MASK;
	if (bbr_a_maxfilt_age(f, f->t[2]) > win)
		f->stale = 1;
}

/* Choice i takes the value of choice i + 1, the last one v, now. */
static inline void bbr_a_maxfilt_shift(struct bbr_a_maxfilt *f, u32 v)
{
	f->v[0] = f->v[1];
	f->t[0] = f->t[1];
	f->v[1] = f->v[2];
	f->t[1] = f->t[2];
	f->v[2] = v;
	f->t[2] = f->now;
}

/* A sample v in the current round; returns the windowed maximum. */
static inline u32 bbr_a_maxfilt_update(struct bbr_a_maxfilt *f, u32 win, u32 v)
{
	u32 dt;

	if (v >= f->v[0] || f->stale)
		return bbr_a_maxfilt_reset(f, v);

	if (v >= f->v[1]) {
		f->v[1] = v;
		f->t[1] = f->now;
		f->v[2] = v;
		f->t[2] = f->now;
	} else if (v >= f->v[2]) {
		f->v[2] = v;
		f->t[2] = f->now;
	}

	/*
	 * Let the choices age: past the window the best one is dropped (twice
	 * if the second is out of it too); after a quarter (half) of it
	 * without a new second (third) choice, v becomes it.
	 */
	dt = bbr_a_maxfilt_age(f, f->t[0]);
	if (dt > win) {
		bbr_a_maxfilt_shift(f, v);
		if (bbr_a_maxfilt_age(f, f->t[0]) > win)
			bbr_a_maxfilt_shift(f, v);
	} else if (f->t[1] == f->t[0] && dt > win / 4) {
		f->v[1] = v;
		f->t[1] = f->now;
		f->v[2] = v;
		f->t[2] = f->now;
	} else if (f->t[2] == f->t[1] && dt > win / 2) {
		f->v[2] = v;
		f->t[2] = f->now;
	}
	return f->v[0];
}

/*
 * bbr_a_fair's rtt_max: the largest RTT sample, forgotten gradually. A larger
 * sample replaces it at once; after a window without one, the part above
 * base (the flow's min_rtt) halves and a new window starts, so a queue that
 * is gone fades from phi's denominator within a few windows instead of
 * vanishing at once (phi would jump to 1 and the probe gains with it).
 * Returns the new rtt_max; *restart says whether a new window starts now.
 */
static inline u32 bbr_a_rtt_max_next(u32 rtt_max, u32 rtt, u32 base,
				     bool window_over, bool *restart)
{
	*restart = false;
	if (window_over) {
		if (rtt_max > base)
			rtt_max = base + (rtt_max - base) / 2;
		*restart = true;
	}
	if (rtt > rtt_max) {
		rtt_max = rtt;
		*restart = true;
	}
	return rtt_max;
}

/*
 * floor(w * mul / div) for mul <= div, div > 0, without the 64-bit product:
 * w = q * div + r, so w * mul / div = q * mul + r * mul / div, where
 * q * mul <= w and r * mul < 2^64.
 */
static inline u64 bbr_a_scale_down(u64 w, u32 mul, u32 div)
{
	u32 r;
	u64 q = bbr_a_div_u64_rem(w, div, &r);

	return q * mul + bbr_a_div_u64((u64)r * mul, div);
}

/* floor(cbrt(x)), bit by bit: three result bits per step, no division. */
static inline u32 bbr_a_cbrt(u64 x)
{
	u64 y = 0, b;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		y <<= 1;
		b = 3 * y * (y + 1) + 1;	/* (y + 1)^3 - y^3 */
		if ((x >> s) >= b) {
			x -= b << s;
			y++;
		}
	}
	return (u32)y;
}

/*
 * floor(sqrt(x)), bit by bit: two bits of x per bit of the root, from the
 * highest power of 4 not above x.
 */
static inline u32 bbr_a_isqrt(u64 x)
{
	u64 r = 0, b;

	if (!x)
		return 0;
	b = 1ULL << ((bbr_a_fls64(x) - 1) & ~1U);
	for (; b; b >>= 2) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return (u32)r;
}

/*
 * A rate (BW_UNIT) in 16 bits: a 5-bit exponent and an 11-bit mantissa with
 * its leading bit implied, rounded down, within 1/2048 of the rate.
 * Exponent 0 holds rates below 2^11 exactly; exponent e >= 1 holds
 * (2^11 + mantissa) << (e - 1), up to just under 2^32 (e = 21).
 */
static inline u16 bbr_a_rate16_of(u32 x)
{
	u32 e;

	if (x < (1U << 11))
		return (u16)x;
	e = bbr_a_fls(x) - 11;	/* 1..21: x >> (e - 1) is 12 bits */
	return (u16)((e << 11) | ((x >> (e - 1)) & ((1U << 11) - 1)));
}

static inline u32 bbr_a_rate16_get(u16 v)
{
	u32 e = v >> 11, m = v & ((1U << 11) - 1);

	if (!e)
		return m;
	return ((1U << 11) | m) << (e - 1);
}

/*
 * The least rate (packets per us in 1/2^shift) that sends pkts packets in
 * us: a rate bw fills them, bw x us >= pkts << shift, exactly where bw is
 * at least this. For a per-ACK test by comparison, the rate taken once
 * where pkts is set. pkts << shift must fit in 64 bits and the result in
 * 32 (pkts at most 10000, shift 24, us at least 1000 do).
 */
static inline u32 bbr_a_rate_fills(u32 pkts, u32 us, u32 shift)
{
	return (u32)bbr_a_div_u64(((u64)pkts << shift) + us - 1, us);
}

/*
 * bbr_a_fair's packet allowance for a flow that fills own packets (in
 * 1/2^shift) in bbr_a_fair_pkts_rate_us at its bw: pkts while own covers
 * them, else their geometric mean, floor(sqrt(pkts x own)). At equal rates
 * flows still get equal allowances, and allowance / rate still falls as the
 * rate grows, so the flows' pull to equal rates stays; the queue a slow flow
 * keeps for it, allowance / rate, grows as 1 / sqrt(rate) instead of
 * 1 / rate. pkts^2 << shift must fit in u64 (the product below is less):
 * fair_cwnd_pkts, at most 10000, with BW_SCALE's 24 does.
 */
static inline u32 bbr_a_pkts_by_rate(u32 pkts, u64 own, u32 shift)
{
	if (own >= (u64)pkts << shift)
		return pkts;
	return bbr_a_isqrt((u64)pkts * own >> shift);
}

/*
 * bbr_a_fair's cwnd budgets for a slow flow, one that fills own packets
 * (in 1/2^shift) in bbr_a_fair_pkts_rate_us at its bw: extra while own
 * covers pkts, else extra x own / pkts, so that they shrink with the rate
 * below that and do not step where a flow turns slow. Where own < pkts <<
 * shift, own >> (shift - 10) is below pkts << 10 (at most about 2^24 for
 * fair_cwnd_pkts' 10000), and times a u32 extra it fits in 64 bits;
 * shift is at least 10 (BW_SCALE is 24). A slow flow divides on every ACK:
 * in 32 bits where the product fits (bbr_a_div_u64_fit()), as it does for
 * budgets below 2^32 / (pkts << 10) packets (131072 at the default 32).
 */
static inline u32 bbr_a_budget_by_rate(u32 extra, u64 own, u32 pkts,
				       u32 shift)
{
	if (own >= (u64)pkts << shift)
		return extra;
	return (u32)bbr_a_div_u64_fit((u64)extra * (own >> (shift - 10)),
				      (u64)pkts << 10);
}

/*
 * The largest cwnd target bbr_a_fair gives, packets: TCP's "infinite"
 * window (TCP_INFINITE_SSTHRESH), so that the budgets added to it still fit
 * in 32 bits. Only a bound that grew far past any link's rate reaches it.
 */
#define BBR_A_TARGET_MAX	0x7fffffffU

/*
 * bbr_a_fair's PROBE_BW cwnd target, packets: bw (packets per us in
 * 1/2^shift) for w_us, rounded up, plus pkts; at most BBR_A_TARGET_MAX,
 * never a 64-bit value cut to its low 32 bits. w_us below 2^32 keeps
 * w_us x bw in 64 bits.
 */
static inline u32 bbr_a_queue_target(u64 w_us, u32 bw, u32 pkts, u32 shift)
{
	u64 target = ((w_us * bw + (1ULL << shift) - 1) >> shift) + pkts;

	return target < BBR_A_TARGET_MAX ? (u32)target : BBR_A_TARGET_MAX;
}

/*
 * pm thousandths of the packets a rate of bw (packets per us in 1/2^shift)
 * sends in rtt_us, at least lo packets. bw x rtt_us fits in 64 bits; after
 * the shift, with shift at least 24 (BW_SCALE), it is below 2^40, and times
 * pm (at most 1000) below 2^50.
 */
static inline u32 bbr_a_bdp_share(u32 bw, u32 rtt_us, u32 pm, u32 shift,
				  u32 lo)
{
	u64 w = bbr_a_div_u64(((u64)bw * rtt_us >> shift) * pm, 1000);

	if (w < lo)
		return lo;
	return w > ~0U ? ~0U : (u32)w;
}

#define BBR_A_CUBIC_SCALE	16	/* fractions of K in 1/2^16 */
#define BBR_A_CUBIC_MAX_K	3	/* the bound grows for at most 4 K */

/*
 * CUBIC's window law (RFC 9438) as a multiple of the value before the last
 * congestion event: W(t) = W_max (1 - beta (1 - t/K)^3), which starts at
 * (1 - beta) W_max, is back at W_max after K and grows ever faster beyond.
 * Returns x_max times that at t_ms after the event (beta_pm in 1/1000,
 * at most 1000), or 0 once t passes (1 + BBR_A_CUBIC_MAX_K) K: the bound has
 * expired. For a CUBIC flow of W_max packets K = cbrt(beta W_max / C),
 * C = 0.4 /s^3. |1 - t/K| is at most 3, its cube times beta_pm below 2^63;
 * the multiple, at most 1 + 27 beta, is taken in 1/2^20 so that its
 * product with x_max fits in 64 bits.
 */
/* Has a law with this K run its course at t_ms ((1 + BBR_A_CUBIC_MAX_K) K)? */
static inline bool bbr_a_cubic_expired(u32 t_ms, u32 k_ms)
{
	return t_ms > (u64)(1 + BBR_A_CUBIC_MAX_K) * k_ms;
}

static __always_inline u32 bbr_a_cubic_bound(u32 x_max, u32 t_ms, u32 k_ms,
					     u32 beta_pm)
{
	const u64 one = 1ULL << (3 * BBR_A_CUBIC_SCALE);
	u64 r, r3, f, x;
	bool past_k;
	u32 d;

	if (!k_ms)
		return x_max;
	if (bbr_a_cubic_expired(t_ms, k_ms))
		return 0;
	/*
	 * |1 - t/K| in 1/2^16; |t - K| is at most 3 K, and a divisor and
	 * dividend that fit in 32 bits (t within 65 s of K) take the
	 * cheaper 32-bit division, for the same quotient.
	 */
	past_k = t_ms > k_ms;
	d = past_k ? t_ms - k_ms : k_ms - t_ms;
	if (d < (1U << (32 - BBR_A_CUBIC_SCALE)))
		r = (d << BBR_A_CUBIC_SCALE) / k_ms;
	else
		r = bbr_a_div_u64((u64)d << BBR_A_CUBIC_SCALE, k_ms);
	r3 = bbr_a_div_u64(r * r * r * beta_pm, 1000);
	f = (past_k ? one + r3 : one - r3) >> (3 * BBR_A_CUBIC_SCALE - 20);
	x = ((u64)x_max * f) >> 20;
	return x > ~0U ? ~0U : (u32)x;
}

/*
 * Where a bound that reached the end of its law ((1 + BBR_A_CUBIC_MAX_K) K
 * after its cut) goes on from: the law's last value, x_max (1 + 27 beta),
 * but no more than twice the bw the flow has delivered (used_bw), and never
 * below x_max. A flow limited by its application or the receiver's window
 * delivers less than its bound; like CUBIC, which grows only a window it
 * fills, it then holds its last maximum instead of taking one the network
 * never confirmed.
 */
static inline u32 bbr_a_cubic_continue(u32 x_max, u32 beta_pm, u32 used_bw)
{
	const u64 k3 = BBR_A_CUBIC_MAX_K * BBR_A_CUBIC_MAX_K *
		       BBR_A_CUBIC_MAX_K;
	u64 end = x_max + bbr_a_div_u64((u64)x_max * k3 * beta_pm, 1000);
	u64 used = 2 * (u64)used_bw;

	end = used < end ? used : end;
	if (end < x_max)
		end = x_max;
	return end > ~0U ? ~0U : (u32)end;
}

/*
 * The RTT a competing bound's law is taken at, us: with a common base RTT
 * (common_us, not 0), that base plus the queueing delay srtt shows above the
 * path's RTT (path_us), the RTT a flow of that base RTT has on the same
 * bottleneck; else srtt, the flow's own.
 */
static inline u32 bbr_a_law_rtt(u32 srtt_us, u32 path_us, u32 common_us)
{
	u32 queue_us = srtt_us > path_us ? srtt_us - path_us : 0;
	u64 rtt = (u64)common_us + queue_us;

	if (!common_us)
		return srtt_us;
	return rtt > ~0U ? ~0U : (u32)rtt;
}

/*
 * CUBIC's Reno-friendly estimate (RFC 9438, 4.3) in rate terms: after a cut
 * to (1 - beta) x_max, a Reno-like flow of the same RTT adds
 * alpha = 3 beta / (2 - beta) packets to its window per RTT, i.e. its rate
 * grows by alpha / srtt^2 packets per second per second. x_max in BW_UNIT
 * (packets per us, 2^24 scaled); returns the estimate t_ms after the cut,
 * at most ~0U.
 */
static __always_inline u32 bbr_a_reno_bound(u32 x_max, u32 t_ms, u32 srtt_us,
					    u32 beta_pm)
{
	u64 x = bbr_a_div_u64((u64)x_max * (1000 - beta_pm), 1000);
	u64 srtt2 = (u64)srtt_us * srtt_us;
	u64 t = t_ms < (1U << 22) ? t_ms : (1U << 22);
	u64 add;

	if (!srtt_us || beta_pm >= 1000)
		return (u32)x;
	/*
	 * alpha t / srtt^2 packets per us per us, times 2^24, with t in us:
	 * t_ms x 1000 x 2^24 / srtt^2 (below 2^56), capped at 2^50 (a rate
	 * far beyond any link) so that times 3 beta_pm it stays in 64 bits,
	 * then times alpha = 3 beta_pm / (2000 - beta_pm).
	 */
	add = bbr_a_div_u64((t * 1000) << 24, srtt2);
	if (add > (1ULL << 50))
		add = 1ULL << 50;
	add = bbr_a_div_u64(add * 3 * beta_pm, 2000 - beta_pm);
	x += add;
	return x > ~0U ? ~0U : (u32)x;
}

/*
 * The bound a law gives at t_ms: CUBIC's, or its Reno-friendly estimate at
 * the law's RTT (rtt_us) if higher; 0 once CUBIC's has expired. The estimate
 * falls as the RTT grows, so where the law's RTT is never below rtt_lo_us,
 * the estimate at rtt_lo_us bounds it: when CUBIC's is at least that, the
 * estimate at rtt_us, with its divisions by a variable RTT, is not needed.
 * Needs 0 < rtt_lo_us <= rtt_us (at an RTT of 0 the estimate is its least).
 * With constant beta_pm and rtt_lo_us every other division is by a
 * constant.
 */
static __always_inline u32 bbr_a_law_bound(u32 x_max, u32 t_ms, u32 k_ms,
					   u32 beta_pm, u32 rtt_us,
					   u32 rtt_lo_us)
{
	u32 cubic = bbr_a_cubic_bound(x_max, t_ms, k_ms, beta_pm);
	u32 reno;

	if (!cubic)
		return 0;
	reno = bbr_a_reno_bound(x_max, t_ms, rtt_lo_us, beta_pm);
	if (cubic >= reno)
		return cubic;
	if (rtt_us != rtt_lo_us)
		reno = bbr_a_reno_bound(x_max, t_ms, rtt_us, beta_pm);
	return cubic > reno ? cubic : reno;
}

/*
 * Where bbr_a_fair's competing law starts when a competitor is found: the
 * highest rate the flow is known to have sent at, its bw, the bw STARTUP
 * ended with, or its bound. A bound that grew past the rate it was last cut
 * from (bound_max) was never tried: while no competitor was flagged it only
 * capped a lower bw, and it may have grown to many times the link's rate.
 * Taken as it is, it would size cwnd at several BDPs.
 */
static inline u32 bbr_a_compete_start(u32 bw, u32 full_bw, u32 bound,
				      u32 bound_max)
{
	u32 x = bw > full_bw ? bw : full_bw;

	if (bound > bound_max)
		bound = bound_max;
	return bound > x ? bound : x;
}

/*
 * Should a competing bound be cut again at the end of a loss round that
 * lost too much (lossy), although no new recovery began? Only inside a
 * recovery (recovering) whose cut is over two srtts old: losses that go on
 * past the round that cut the bound keep TCP in that one recovery, where a
 * new cut would otherwise wait for its end while the law regrows the
 * bound.
 */
static inline bool bbr_a_recut_due(bool lossy, bool recovering,
				   u32 since_cut_ms, u32 srtt_us)
{
	return lossy && recovering && (u64)since_cut_ms * 1000 > 2ULL * srtt_us;
}

/*
 * The rate a flow that competes paces at: its bound, a rate that follows
 * CUBIC's law and may run far ahead of what the flow gets while its window
 * limits it, at most twice the model's bw. A window-limited flow delivers
 * about cwnd / RTT, so a pace of twice that does not bind in a steady round
 * and lets the window double in one, as slow start does; a burst (a
 * stretch of ACKs at once) then leaves at twice the flow's rate, not at
 * the sender's line rate.
 */
static inline u32 bbr_a_compete_pace_bw(u32 hi, u32 model_bw)
{
	u64 cap = (u64)model_bw << 1;

	return hi < cap ? hi : (u32)cap;
}

/*
 * Has a min_rtt filter stamped at jiffies stamp expired at now, on a grid
 * common to every socket whose clock agrees: at the first boundary more
 * than min_age after the stamp (min_age < win), boundaries falling where
 * jiffies + phase is a multiple of win (bbr_a_grid_phase_of puts them on
 * the wall clock). Flows whose filters expire so enter PROBE_RTT together,
 * whenever each last took its min_rtt; BBRv1 draws dips together only
 * through a queue that one dip drains, which many slow flows' dips do not.
 * Where jiffies + phase wraps, one window is shorter. As with after(), a
 * stamp more than 2^31 jiffies old reads as recent.
 */
/*
 * The phase that puts a grid of win jiffies on the wall clock: given the
 * jiffies counter now and, at the same moment, the wall clock's time since
 * its last multiple of win (in jiffies, below win), now + phase is a
 * multiple of win when the wall clock's time is.
 */
static inline u32 bbr_a_grid_phase_of(u32 now, u32 wall, u32 win)
{
	return (wall + win - now % win) % win;
}

static inline bool bbr_a_grid_expired(u32 now, u32 stamp, u32 min_age,
				      u32 win, u32 phase)
{
	u32 from = stamp + min_age;

	/* now - from in (0, 2^31): a boundary is past once the windows differ */
	if ((s32)(now - from) <= 0)
		return false;
	return (now + phase) / win != (from + phase) / win;
}

/*
 * bbr_a_fair's trusted path RTT, kept in 16 bits of 64 us (us >>
 * BBR_A_BASE_SHIFT), rounded down; BBR_A_BASE_NONE stands for none yet, or
 * one of 4.19 s or more. bbr_a_base_next takes an RTT sample into it.
 */
#define BBR_A_BASE_SHIFT	6
#define BBR_A_BASE_NONE		0xffffU

static inline u32 bbr_a_base_of_us(u32 us)
{
	us >>= BBR_A_BASE_SHIFT;
	return us < BBR_A_BASE_NONE ? us : BBR_A_BASE_NONE;
}

/*
 * A row's floor (struct bbr_a_compete's row) as kept in the socket, in the
 * path RTT's units; 0 means "moved", so a floor under one unit is kept as
 * one, not read back as a move.
 */
static inline u32 bbr_a_row_of_us(u32 us)
{
	u32 row = bbr_a_base_of_us(us);

	return row || !us ? row : 1;
}

static inline u32 bbr_a_base_next(u32 base, u32 rtt_us)
{
	u32 b = bbr_a_base_of_us(rtt_us);

	return b < base ? b : base;
}

/*
 * The path RTT the competitor test measures a dip against, us: the
 * kernel's lowest RTT of the last minutes (tcp_min_rtt), unless the trusted
 * one (base) is higher: a retransmission sent ahead of its pacing slot, as
 * timers send them, carries the slot's later time, and its RTT sample, which
 * tcp_min_rtt takes, is short by as much. Trusted samples are not aged
 * out; tcp_min_rtt is, and the higher of the two follows a path that grew
 * longer (the caller then raises base to it).
 */
static inline u32 bbr_a_compete_base(u32 tcp_min_us, u32 base)
{
	base <<= BBR_A_BASE_SHIFT;
	return tcp_min_us > base ? tcp_min_us : base;
}

/*
 * The most PROBE_RTTs bbr_a_fair counts in a row (dips, and those since a
 * congestion cut), a 2-bit field's top.
 */
#define BBR_A_DIPS_MAX		3

/*
 * bbr_a_fair's competitor flag after a PROBE_RTT: *dips counts the dips in a
 * row that said otherwise than the flag (queued: this one left a queue);
 * the flag changes once set_dips (to set it) or clear_dips (to clear it) of
 * them came in a row, and clears at once when the test is off. *dips stays
 * below 4 (a 2-bit field; both counts are at most 3).
 */
static inline bool bbr_a_compete_next(bool was, bool queued, bool off,
				      u32 *dips, u32 set_dips, u32 clear_dips)
{
	*dips = queued == was ? 0 : (*dips < 3 ? *dips + 1 : 3);
	if (off || *dips >= (was ? clear_dips : set_dips)) {
		*dips = 0;
		return queued;
	}
	return was;
}

/*
 * What bbr_a_fair's competitor test keeps between PROBE_RTTs: the path's RTT
 * (base, us), the first floor of the row of queued dips, 0 once a later one
 * moved from it, or while a competitor is flagged the last dip's (row, us),
 * the PROBE_RTTs ended since the buffer last dropped (since: a fast
 * recovery or an RTO began; at most BBR_A_DIPS_MAX, which stands for none in
 * memory) and the flag's count (dips, bbr_a_compete_next).
 */
struct bbr_a_compete {
	u32	base;
	u32	row;
	u32	since;
	u32	dips;
};

/* |a - b| > d */
static inline bool bbr_a_apart(u32 a, u32 b, u32 d)
{
	return (a > b ? a - b : b - a) > d;
}

/*
 * bbr_a_fair's competitor test at the end of a PROBE_RTT whose lowest RTT was
 * floor, given the flag (was); returns the flag.
 *
 * A dip that ends more than compete_us above the path's RTT left a queue
 * that a flow which does not yield to delay may keep. Such a flow's queue
 * moves: it fills the buffer, which then drops, and it grows and shrinks
 * with the flow's window. A path that grew longer (a route change) raises
 * every RTT alike, for good, and drops nothing. So a row of set_dips queued
 * dips sets the flag only if the buffer dropped since the dip before the
 * row, or a floor of the row moved by more than compete_us from the row's
 * first (a queue that moved and came back is still a moving one); else the
 * floor is the path's RTT from then on. While flagged, a queued dip with
 * neither (no drop since the set_dips-th last dip, the floor within
 * compete_us of the last dip's) counts as a drained one: the competitor
 * left, and the path grew.
 */
static inline bool bbr_a_compete_dip(struct bbr_a_compete *t, u32 floor,
				     bool was, u32 compete_us, u32 set_dips,
				     u32 clear_dips)
{
	bool queued = compete_us && floor > t->base &&
		      floor - t->base > compete_us;
	bool dropped = t->since < set_dips;
	bool moved, now;

	if (t->since < BBR_A_DIPS_MAX)
		t->since++;
	if (queued && !was && !t->dips)
		t->row = floor;
	moved = !t->row || bbr_a_apart(floor, t->row, compete_us);
	if (was)
		t->row = floor;
	else if (queued && moved)
		t->row = 0;
	if (queued && !dropped && !moved && (was || t->dips + 1 >= set_dips)) {
		if (!was)
			t->base = floor;
		queued = false;
	}
	now = bbr_a_compete_next(was, queued, !compete_us, &t->dips, set_dips,
				 clear_dips);
	if (now && !was)
		t->row = floor;
	return now;
}

/*
 * A flow's recent delivery rate as a share of its max-filtered bw, kept as
 * the shortfall d = 1 - avg / max in 1/1024 (10 bits; 0: the max itself).
 * One step of an EWMA of gain 1/8 toward this round's sample / max: the
 * max filter keeps the highest sample of ten rounds, above the rate a flow
 * that shares the link gets, and d says by how much.
 */
#define BBR_A_SHORT_ONE		1024

static inline u32 bbr_a_short_next(u32 d, u64 sample, u32 max)
{
	u32 s = 0;

	if (!max)
		return d;
	if (sample < max)
		s = BBR_A_SHORT_ONE - 1 -
		    (u32)bbr_a_div_u64(sample * (BBR_A_SHORT_ONE - 1), max);
	return (7 * d + s + 4) / 8;
}

/*
 * Whether bbr_a_fair sizes the PROBE_BW cwnd target by the average delivery
 * rate: never while a competitor is flagged (compete) or after a lossy loss
 * round (lossy), nor while the flow's last PROBE_RTTs left a queue that no
 * flag has explained yet (queued_dips of them in a row), so that the flow
 * keeps the max filter while the competitor test is still deciding.
 */
static inline bool bbr_a_avg_target(bool compete, bool lossy, u32 queued_dips)
{
	return !compete && !lossy && !queued_dips;
}

/* bw less the shortfall d (bbr_a_short_next). */
static inline u32 bbr_a_short_bw(u32 bw, u32 d)
{
	return bw - (u32)(((u64)bw * d) >> 10);
}

/*
 * The core keeps two stamps as the low 32 bits of a microsecond clock (a
 * PROBE_BW phase's start, an ACK epoch's start) and reads them by their
 * modular difference, exact up to 2^32 us, 71.6 minutes. Has a silence since
 * the last send (jiffies now and last_send, compared modulo 2^32) lasted
 * long_idle or more, long enough that they may be stale? The first send after
 * such a silence refreshes them.
 */
static inline bool bbr_a_long_idle(u32 now, u32 last_send, u32 long_idle)
{
	return now - last_send >= long_idle;
}

/*
 * Does the first send after a silence start a new ACK epoch? An app-limited
 * one does, as upstream BBR's; any other does after a long silence
 * (bbr_a_long_idle()). A sender that a zero receive window stopped has data
 * but nothing in flight, and its epoch's stamp, read 71.6 minutes later or
 * more, can look only a moment old: the ACKs that follow would seem to come
 * far ahead of bw and inflate the excess ACKed (and cwnd with it).
 */
static inline bool bbr_a_new_ack_epoch(bool app_limited, u32 now,
				       u32 last_send, u32 long_idle)
{
	return app_limited || bbr_a_long_idle(now, last_send, long_idle);
}

#endif /* _BBR_A_MATH_H */
