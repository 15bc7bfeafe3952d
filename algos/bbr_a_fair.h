/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBR-A fair (algorithm bbr_a_fair): the project's extension of BBR-A, not in
 * the paper; docs/design.md states each rule with why and its evidence.
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
 *    at the same x (Vegas' equilibrium). For many flows of its own kind:
 *    a slow flow (one whose bw sends fewer than fair_cwnd_pkts packets in
 *    10 ms, as one of many does) queues the geometric mean of
 *    the two instead. The target sizes by the flow's average delivery
 *    rate, not the max filter: the filter's excess over the rate times
 *    min_rtt adds up over many flows, and a flow that kept it only above
 *    a rate queued more the longer its RTT, which held the longest of
 *    several RTT classes above that rate. While the flow's last
 *    PROBE_RTTs left a queue that no competitor flag explains yet, it
 *    keeps the max filter: the average, held down by a buffer-filling
 *    flow's queue, would shrink its share before the competitor test has
 *    decided;
 *  - the probe-up phase also ends once the flow is cwnd-limited: a long-RTT
 *    flow's cap is below Pup x BDP, and a probe waiting for that much
 *    inflight would last until a loss;
 *  - phase 0 probes with Pup whatever the queue; phase 1 drains with
 *    Pdown while the queueing delay this ACK saw, rtt - min_rtt, exceeds
 *    2 ms, or the flow is lossy;
 *  - phi is the ratio of queueing delays (rtt - min_rtt) / (rtt_max -
 *    min_rtt), which flows on one bottleneck share whatever their base
 *    RTTs, where BBR-A's rtt / rtt_max is nearer 1 the longer the base
 *    RTT;
 *  - rtt_max is taken in PROBE_BW only, and a peak fades: after each 2.5 s
 *    window without a larger sample its queueing part halves, and it is
 *    never taken as less than 2 ms above min_rtt.
 *
 * Sharing a bottleneck with loss-based flows (CUBIC, Reno), two rules
 * (docs/design.md):
 *
 *  - a bound on bw learned from loss: at the start of a fast recovery
 *    while the queue is in the upper half of its recent range
 *    (queueing delays' phi >= 0.5), or at an RTO, the bw the flow
 *    paces at and sizes cwnd by is cut to (1 - beta) of what it was, and the
 *    bound then regrows by CUBIC's law in time (RFC 9438, K from the window
 *    a CUBIC flow would have at this rate and RTT). A loss-based flow and
 *    this one then back off and regrow alike; random losses at a low queue
 *    are not taken as congestion, nor, in PROBE_BW and with no competitor
 *    flagged, for a second after one of them, a loss at a high queue: on
 *    a path that drops at random, the height of the queue at each
 *    recovery would cut a short flow more often than a long one. A cut
 *    is in the rate however shallow the buffer, as a loss-based flow's
 *    is. The law is read once per packet-timed round,
 *    at its end, and at each cut, as a window-based flow grows its window
 *    once per RTT: the bound holds still within a round;
 *  - a competitor that keeps a queue (fair_compete_us): BBR's PROBE_RTT
 *    drains the queue when only BBR-like flows share it (their PROBE_RTTs
 *    synchronise). If the lowest RTT of fair_compete_dips dips in a row is
 *    still fair_compete_us above the connection's lowest RTT (tcp_min_rtt,
 *    5 minutes), a flow that does not yield to delay holds that queue (one
 *    such dip can be its own kind's: dips of flows with far apart RTTs, or
 *    of many flows, do not always overlap), and the delay-based cwnd target
 *    would hand it the link (Vegas' weakness against Reno). Such a flow
 *    fills the buffer, which then drops, and its queue moves with its
 *    window: the row of dips sets the flag only if the buffer dropped (a
 *    recovery or an RTO began) since the dip before it, or the floor moved
 *    within the row; a queue that stands still with no drop is a path that
 *    grew longer (a route change), whose RTT becomes the base
 *    (bbr_a_compete_dip). Until later PROBE_RTTs find the queue drained
 *    (fair_compete_clear_dips in a row), the probe gains are BBRv1's and
 *    the bw the cwnd target is sized by is the bound itself, so that the
 *    target is a window that follows CUBIC's law at one base RTT for
 *    every flow (10 ms) plus the queueing delay, cut at a loss as CUBIC
 *    cuts (0.3): with losses that hit the flows together, a window that
 *    regrows to its last maximum in K = cbrt(beta W / 0.4) holds a W in
 *    proportion to 1 / beta, so the gentler cut of 0.1 used otherwise
 *    would be worth several CUBIC flows against many of them. A lossy
 *    round inside a recovery whose cut is over two srtts old cuts the
 *    bound again: TCP starts no new recovery while losses go on.
 *
 * On a path whose RTT spreads (jitter), min_rtt is the spread's floor, and
 * a cwnd target sized by it runs out of packets while late ACKs are on
 * their way; a loss-based competitor fills what it leaves. Each PROBE_RTT
 * hold, after a round at its floor, measures the spread (its mean RTT above
 * its lowest), and above 2 ms, the most a flow's own queue counts for, the
 * aggregation budget makes room for bw times the excess, where BBRv1's own
 * ACK-aggregation estimate does not already cover it
 * (bbr_a_fair_cwnd_budgets).
 *
 * PROBE_RTT holds a share of the flow's BDP (fair_probe_rtt_pm, three
 * quarters) rather than 4 packets: the dip still drains the flow's own
 * queue, and the link is not left nearly idle while it lasts.
 *
 * For many slow flows: the min_rtt filter expires on a 10 s grid of the
 * wall clock, which hosts share, so that the flows dip at once; a slow
 * flow's cwnd budgets and PROBE_RTT share shrink with its rate; and
 * PROBE_RTT may hold as few as 2 packets, so that a hundred dips together
 * drain the queue.
 * A competitor is assumed only after three dips in a row left a queue
 * (fair_compete_dips): while the start of a hundred flows settles, their
 * first two dips can both leave one.
 *
 * STARTUP also ends at a round that lost more than bbr_a_fair_loss_pm of
 * its packets, and at least 8 of them, as BBRv2's does: in a shallow buffer, the
 * three rounds without bw growth BBRv1 waits for can be many more while
 * another flow's exit lets this one's bw go on growing, each of them
 * doubling inflight into a full buffer.
 *
 * Its module parameters, socket init and events (a round's end, a
 * congestion event, undo, the end of PROBE_RTT, idle restart, a trace
 * event) are in algos/bbr_a_fair.c; its per-ACK hooks are here, inlined into
 * the core (bbr_a_core.c).
 */

#ifndef _BBR_A_ALGOS_BBR_A_FAIR_H
#define _BBR_A_ALGOS_BBR_A_FAIR_H

#include "bbr_a_core.h"
#include "algos/bbr_a.h"

/*
 * bbr_a_fair's parameters that ACKs use, as they read them: a snapshot,
 * copied into each ACK's context (bbr_a_fair_load()); those used only when
 * PROBE_RTT ends are in struct bbr_a_fair_event_params, read once then.
 */
struct bbr_a_fair_params {
	u32	cwnd_queue_us;
	u32	cwnd_pkts;
	u32	slow_bw;	/* bbr_a_fair_slow_bw() of cwnd_pkts */
	u32	probe_rtt_pm;
} __aligned(8);

extern struct bbr_a_fair_params bbr_a_fair_params_snap;

/*
 * bbr_a_fair's socket state, after the core's; bbr->priv16 holds the trusted
 * path RTT the competitor test uses (bbr_a_compete_base), bbr->priv2 the
 * PROBE_RTTs since the buffer last dropped, at most 3, and row_floor the
 * row's floor (struct bbr_a_compete). The loss round is the core's
 * packet-timed round (bbr->next_rtt_delivered), which bbr_a_fair's round
 * end also restarts at an RTO: only tp->lost at its start is kept here, in
 * 16 bits, as the round's losses are (a round that loses 64k packets or
 * more, with as many in flight, reads as losing that many fewer).
 * loss_stamp is kept within bbr_a_fair_rand_sec of now or exactly that old
 * (bbr_a_fair_bound_round, at each round's end and idle restart; set that
 * old at an RTO), so that its 16 bits do not wrap to a recent time unless
 * neither comes for 64 s with no RTO (HZ 1000; a wrapped stamp then spares
 * cuts for a second at most).
 * rtt_max_stamp keeps 16 bits of jiffies: a window over 32 s old (at HZ
 * 1000) may read as recent, and rtt_max then fades one window later. dips
 * counts to 3 at most, the maximum of fair_compete_dips and
 * fair_compete_clear_dips: raising those needs a wider field. hold_us and
 * target share a half word, as the core's cycle_stamp and
 * probe_rtt_done_stamp share a word: each is used in one state only, and
 * entering PROBE_RTT and leaving it zero it (bbr_a_fair_probe_rtt_enter,
 * bbr_a_fair_probe_rtt_done).
 */
struct bbr_a_fair_state {
	u16	round_lost;		/* tp->lost when the round began, low
					 * 16 bits
					 */
	u16	loss_stamp;		/* jiffies, low 16 bits: the last loss
					 * at a low queue (bbr_a_fair_lost)
					 */
	u32	rtt_max_us;		/* fading max RTT sample; 0: none */
	u16	rtt_max_stamp;		/* jiffies, low 16 bits: its window began */
	u16	row_floor;		/* bbr_a_compete's row, as priv16 */
	u16	hi_max;			/* bw before the last cut, rate16 */
	u16	hi_now;			/* the bound this round, rate16 */
	union {
		u16	hold_us;	/* PROBE_RTT: the hold's mean RTT
					 * above tcp_min_rtt, us; 0: no
					 * sample yet
					 */
		u16	target;		/* PROBE_BW: this round's cwnd target
					 * before budgets, packets; 0: none
					 */
	};
	u16	spread_us;		/* RTT spread of the holds, us */
	u32	hi_stamp;		/* jiffies of the last cut */
	u32	hi_k_ms:15,		/* CUBIC's K for hi_max, ms */
		hi_valid:1,		/* a bound is in force */
		hi_compete:1,		/* ... whose law is the competing one */
		compete:1,		/* a competitor keeps the queue */
		dips:2,			/* PROBE_RTTs in a row against the flag */
		lossy:1,		/* did the last loss round lose too much? */
		bw_short:10;		/* 1 - avg / max bw, 1/1024 */
};

static __always_inline struct bbr_a_fair_params *
bbr_a_fair_params(const struct bbr_ctx *c)
{
	BUILD_BUG_ON(sizeof(struct bbr_a_fair_params) > sizeof(c->params));
	return BBR_CTX_PARAMS(c, struct bbr_a_fair_params);
}

/* The socket's congestion-control state: the core's, then bbr_a_fair's. */
struct bbr_a_fair_sock {
	struct bbr	core;
	struct bbr_a_fair_state fair;
};

static_assert(sizeof(struct bbr_a_fair_sock) <= ICSK_CA_PRIV_SIZE);

static __always_inline struct bbr_a_fair_state *
bbr_a_fair_state(const struct sock *sk)
{
	struct bbr_a_fair_sock *s = inet_csk_ca(sk);

	return &s->fair;
}

/* Packets lost since the loss round began (round_lost's 16 bits). */
static __always_inline u32 bbr_a_fair_round_lost(const struct sock *sk)
{
	return (u16)(tcp_sk(sk)->lost - bbr_a_fair_state(sk)->round_lost);
}

/*
 * What the PROBE_BW cwnd target is computed from has moved (a round ended,
 * the bound or its law changed, the flow's events, the model's bw or
 * min_rtt): it is computed again at the next ACK (bbr_a_fair_cwnd_target).
 * In PROBE_RTT the half word is the hold's mean, which stays.
 */
static __always_inline void bbr_a_fair_retarget(struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (bbr->mode != BBR_PROBE_RTT)
		bbr_a_fair_state(sk)->target = 0;
}

/*
 * The queueing delay (rtt - min_rtt) above which the flow counts as queued,
 * us: phase 1 drains while this ACK's exceeds it, phi's denominator counts
 * at least this much queue, and an RTT spread above it is the path's, not
 * the flow's own queue (bbr_a_fair_cwnd_budgets). 2 ms, under the 5 ms
 * queue allowance (an earlier drain, at 1 ms, gained nothing at 0.1 BDP:
 * docs/fairness.md).
 */
static const u32 bbr_a_fair_queue_us = 2000;

/*
 * A slow flow, one of many sharing the link, is one whose bw sends fewer
 * than fair_cwnd_pkts packets in this time, us: its packet allowance, its
 * cwnd budgets and its PROBE_RTT share shrink with its rate. 10 ms: with
 * 32 packets of 1448 bytes, below about 37 Mbit/s, the snapshot's slow_bw
 * (bbr_a_rate_fills()), which an ACK compares its bw with.
 */
static const u32 bbr_a_fair_pkts_rate_us = 10000;

/*
 * The share of a packet-timed round's packets whose loss makes the round
 * lossy, per mille: 2 %, BBRv2's loss threshold, as bbr_a's loss_thresh
 * defaults to. After a lossy round the flow drains in phase 1
 * (bbr_a_fair_probe_bw_gain) and sizes its cwnd target by the max filter
 * (bbr_a_fair_cwnd_target); in STARTUP a lossy round ends it
 * (bbr_a_fair_startup_lossy); while competing it may cut the bound again
 * (bbr_a_fair_round_end).
 */
static const u32 bbr_a_fair_loss_pm = 20;

/*
 * The bound on bw, BW_UNIT; 0: none. The law is read once per packet-timed
 * round (bbr_a_fair_bound_round), at each new epoch and when sending
 * restarts from idle (a round may have been seconds long), not on every ACK:
 * its cube, its divisions and srtt's square cost several times what the
 * rest of an ACK does, and a window-based flow's CUBIC law grows its window
 * once per RTT too. Within a round the bound holds still, so it lags the law
 * by at most one round.
 */
static __always_inline u32 bbr_a_fair_bound(const struct sock *sk)
{
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);

	return f->hi_valid ? bbr_a_rate16_get(f->hi_now) : 0;
}

/*
 * The bw to size cwnd by, and to pace at unless bbr_a_fair_pace_bw says
 * otherwise: the model's, under the bound. While a
 * competitor keeps the queue, the bound itself, a rate that follows CUBIC's
 * law: the cwnd target it gives, bound x (min_rtt + allowance), is then a
 * window that follows CUBIC's law (min_rtt, taken at PROBE_RTT, holds still
 * between them), and the flow, paced at up to twice its rate
 * (bbr_a_fair_pace_bw), sends by its ACKs as a window-based flow does.
 */
static __always_inline u32 bbr_a_fair_bw(struct sock *sk, u32 bw)
{
	u32 hi = bbr_a_fair_bound(sk);

	if (!hi)
		return bw;
	return bbr_a_fair_state(sk)->compete ? hi : min(bw, hi);
}

/* algos/bbr_a_fair.c: parameters, init and events */
void bbr_a_fair_snapshot_load(void);
void bbr_a_fair_init_state(struct sock *sk);
void bbr_a_fair_bound_round(struct sock *sk);
void bbr_a_fair_round_end(struct sock *sk);
void bbr_a_fair_congestion(struct sock *sk, s32 rtt_us, bool rto);
void bbr_a_fair_lost(struct sock *sk, s32 rtt_us);
void bbr_a_fair_undo(struct sock *sk);
void bbr_a_fair_probe_rtt_done(struct sock *sk);
void bbr_a_fair_probe_rtt_enter(struct sock *sk);
void bbr_a_fair_trace(struct sock *sk, struct bbr_a_snapshot *snap);

#ifdef BBR_A_CORE
/*
 * The per-ACK hooks: compiled into the core only (bbr_a_core.c defines
 * BBR_A_CORE before it includes this header), each inlined into the core's
 * instantiation for this algorithm, so that they cost no call per ACK; they
 * may call the core's own functions.
 */

/*
 * A boundary of the PROBE_RTT grid expires min_rtt only if it is
 * more than this after the filter's stamp (the last dip), seconds: half
 * the filter's window (which must stay below the whole window).
 */
static const u32 bbr_a_fair_sync_min_age_sec = 5;

static __always_inline void bbr_a_fair_load(struct bbr_ctx *c)
{
	bbr_params_get(c->params, (const u64 *)&bbr_a_fair_params_snap,
		       BBR_PARAMS_WORDS(struct bbr_a_fair_params));
}

/*
 * The bw to pace at, given the model's and bbr_a_fair_bw's: the latter;
 * while competing, the bound but no more than twice the model's
 * (bbr_a_compete_pace_bw): the window sets the rate, and pacing still
 * spreads its bursts.
 */
static __always_inline u32 bbr_a_fair_pace_bw(struct sock *sk,
					      const struct bbr_ctx *c,
					      u32 model_bw, u32 bw)
{
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);

	if (f->compete)
		return bbr_a_compete_pace_bw(bw, model_bw);
	return bw;
}

/*
 * The PROBE_RTT grid's phase (bbr_a_grid_phase_of): the wall clock's, which
 * hosts share (UTC, kept by NTP to within milliseconds, where a dip lasts
 * 200 ms and more), so that flows of one bottleneck dip together whichever
 * host they come from; a host whose clock is off dips on a phase of its
 * own. Shared by the host's sockets, taken again once a minute (jiffies
 * do not count a suspend, and the wall clock may be set) and when jiffies
 * wrap (2^32 is not a multiple of the window).
 */
static u32 bbr_a_fair_grid_phase_val;
static u32 bbr_a_fair_grid_phase_at;
static bool bbr_a_fair_grid_phase_taken;

static __always_inline u32 bbr_a_fair_grid_phase(u32 now, u32 win)
{
	u32 at = READ_ONCE(bbr_a_fair_grid_phase_at);
	u32 wall;

	if (likely(READ_ONCE(bbr_a_fair_grid_phase_taken) && now >= at &&
		   now - at < 60 * HZ))
		return READ_ONCE(bbr_a_fair_grid_phase_val);
	div_u64_rem(div_u64(ktime_get_real_ns(), NSEC_PER_SEC / HZ), win,
		    &wall);
	WRITE_ONCE(bbr_a_fair_grid_phase_val,
		   bbr_a_grid_phase_of(now, wall, win));
	WRITE_ONCE(bbr_a_fair_grid_phase_at, now);
	WRITE_ONCE(bbr_a_fair_grid_phase_taken, true);
	return READ_ONCE(bbr_a_fair_grid_phase_val);
}

/*
 * Has the min_rtt filter expired? At a boundary of
 * the wall clock's 10 s grid (bbr_a_grid_expired): a hundred slow flows each
 * dipping at its own time never drain the queue they share, since each
 * dip's floor is more than the flow's share of it, while the same dips
 * taken together do, and the min_rtt each then takes is the path's rather
 * than the standing queue's. Hosts whose clocks agree share the grid
 * (bbr_a_fair_grid_phase); the dips of flows on a host whose clock does
 * not are drawn to these only as in BBRv1, by the lower RTTs a drained
 * queue shows.
 */
static __always_inline bool bbr_a_fair_min_rtt_due(struct sock *sk,
						   const struct bbr_ctx *c)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	u32 age = bbr_a_fair_sync_min_age_sec * HZ;
	u32 win = bbr_min_rtt_win_sec * HZ;
	u32 now = tcp_jiffies32;

	if ((s32)(now - bbr->min_rtt_stamp - age) <= 0)
		return false;
	return bbr_a_grid_expired(now, bbr->min_rtt_stamp, age, win,
				  bbr_a_fair_grid_phase(now, win));
}

/*
 * x in proportion to the packets a slow flow's bw fills in
 * bbr_a_fair_pkts_rate_us, whole at fair_cwnd_pkts and above
 * (bbr_a_budget_by_rate).
 */
static __always_inline u32
bbr_a_fair_slow_share(const struct bbr_a_fair_params *p, u32 x, u32 bw)
{
	if (likely(bw >= p->slow_bw))
		return x;
	return bbr_a_budget_by_rate(x, (u64)bw * bbr_a_fair_pkts_rate_us,
				    p->cwnd_pkts, BW_SCALE);
}

/*
 * A lower min_rtt does not move the filter's stamp,
 * which then says when the flow last dipped (or began): each flow dips at
 * the first boundary of the grid more than 5 s after its last dip, and the
 * host's flows, whatever lower RTTs each found in between, at the same
 * boundaries; a flow that found one in the last 5 s before a boundary
 * would otherwise skip it and dip alone 10 s later.
 */
static __always_inline bool bbr_a_fair_min_rtt_restamp(void)
{
	return false;
}

/*
 * The least cwnd PROBE_RTT holds, packets: 2, not BBRv1's 4, since a
 * hundred flows of 1 Mbit/s dipping together at 4 packets each (more than
 * a 10 ms flow's BDP) leave a queue the competitor test takes for a
 * loss-based flow's.
 */
static const u32 bbr_a_fair_probe_rtt_min = 2;

/*
 * The cwnd PROBE_RTT holds: with fair_probe_rtt_pm, that share of the
 * flow's BDP rather than bbr_a_fair_probe_rtt_min packets, so that the
 * link is not left nearly idle for the dip's 200 ms; for a slow flow, a
 * share that shrinks with the flow's rate below fair_cwnd_pkts packets in
 * bbr_a_fair_pkts_rate_us, as its cwnd budgets do: a hundred slow flows
 * dipping together on the grid drain their queue only at their floors,
 * while two fast ones dipping together leave the link idle for all they do
 * not hold. The flow's own queue still drains as long as the share of the
 * max filter's bw stays below the rate the flow gets: at half (BBRv2's)
 * the filter would have to read twice that rate, at 900 per mille (the
 * most the parameter allows) a ninth more. min_rtt has just been retaken
 * with the queue in it (its filter expired), so the BDP is taken at the
 * lower of it and tcp_min_rtt (the lowest RTT of the last 5 minutes).
 * With no RTT known at all (both ~0U) the share is huge and PROBE_RTT cuts
 * nothing; a bw sample comes with an RTT, so a flow with a bw has one.
 */
static __always_inline u32 bbr_a_fair_probe_rtt_cwnd(struct sock *sk,
						     const struct bbr_ctx *c)
{
	const struct bbr_a_fair_params *p = bbr_a_fair_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	u32 bw = bbr_bw(sk);

	return bbr_a_bdp_share(bw,
			       min(bbr->min_rtt_us, tcp_min_rtt(tcp_sk(sk))),
			       bbr_a_fair_slow_share(p, p->probe_rtt_pm, bw),
			       BW_SCALE, bbr_a_fair_probe_rtt_min);
}

/*
 * An RTT sample in PROBE_RTT's hold (probe_rtt_done_stamp set), once a full
 * round has been at its floor (probe_rtt_round_done, which the core clears
 * only when the hold starts: before it, during the drain, it is the last
 * hold's): hold_us, the running mean of the hold's RTTs above tcp_min_rtt
 * (an EWMA of 1/8), in 16 bits. The first round's packets were sent before
 * inflight fell and carry the flow's own queue; at a long RTT they would be
 * most of the hold's samples. A hold no longer than a round measures
 * nothing, and the spread stays as it was.
 */
static __always_inline void bbr_a_fair_hold_sample(struct sock *sk, u32 rtt)
{
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 d = rtt - min(rtt, tcp_min_rtt(tcp_sk(sk)));

	d = clamp_t(u32, d, 1, U16_MAX);
	if (f->hold_us)
		d = f->hold_us - (f->hold_us >> 3) + (d >> 3);
	f->hold_us = d;
}

/*
 * The trusted path RTT; the RTT's spread in PROBE_RTT's holds
 * (bbr_a_fair_hold_sample); rtt_max from PROBE_BW's samples, not from ACKs
 * the receiver may have delayed; and the average delivery rate's shortfall
 * below the max filter from the first sample of each PROBE_BW round (it
 * spans about one RTT) that was not app-limited; and in PROBE_BW, when
 * the ACK reports losses, whether they came at a low queue
 * (bbr_a_fair_lost).
 */
static __always_inline void bbr_a_fair_on_ack(struct sock *sk,
					      const struct bbr_ctx *c,
					      const struct rate_sample *rs)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	bool over, restart;

	/*
	 * The trusted path RTT: a sample not carried by a retransmission,
	 * whose send time may be its pacing slot's rather than its own
	 * (bbr_a_compete_base), nor by an ACK without a delivery sample. It
	 * is bbr_a_base_next()'s minimum, tested first for whether the sample
	 * lowers it, which few do: the other tests and the store are then
	 * skipped.
	 */
	if (c->rtt_us >= 0 && bbr_a_base_of_us(c->rtt_us) < bbr->priv16 &&
	    !rs->is_retrans && rs->delivered > 0)
		bbr->priv16 = bbr_a_base_of_us(c->rtt_us);

	if (bbr->mode != BBR_PROBE_BW) {
		if (bbr->mode == BBR_PROBE_RTT && bbr->probe_rtt_done_stamp &&
		    bbr->probe_rtt_round_done && rs->rtt_us >= 0 &&
		    !rs->is_ack_delayed)
			bbr_a_fair_hold_sample(sk, rs->rtt_us);
		return;
	}
	if (bbr->round_start && !rs->is_app_limited &&
	    rs->delivered > 0 && rs->interval_us > 0) {
		f->bw_short = bbr_a_short_next(f->bw_short,
					       div64_long((u64)rs->delivered *
							  BW_UNIT,
							  rs->interval_us),
					       bbr_max_bw(sk));
		bbr_a_fair_retarget(sk);
	}
	/*
	 * rtt_max's window, after which its queueing part halves: a quarter
	 * of the min_rtt filter's, 2.5 s. A peak that a step down of the
	 * link's rate left (42 ms behind CoDel's 5 ms target) then stops
	 * reading as the top of the queue's range within seconds, where a
	 * window of 10 s kept it for 20 s, while the AQM's drops came in the
	 * lower half of the range and were taken for random loss. A time,
	 * not the flow's rounds: flows of different RTTs read one queue's
	 * range and must forget its peaks at one pace (with a window of 64
	 * min_rtts a 10 ms flow forgot them ten times sooner than a 100 ms
	 * flow, and drained the harder for it: Jain 0.96).
	 */
	if (rs->rtt_us >= 0 && !rs->is_ack_delayed) {
		over = (s16)((u16)tcp_jiffies32 - f->rtt_max_stamp -
			     bbr_min_rtt_win_sec * HZ / 4) > 0;
		/* within the window, a sample no larger changes nothing */
		if (over || (u32)rs->rtt_us > f->rtt_max_us) {
			f->rtt_max_us = bbr_a_rtt_max_next(f->rtt_max_us,
							   (u32)rs->rtt_us,
							   bbr->min_rtt_us,
							   over, &restart);
			if (restart)
				f->rtt_max_stamp = (u16)tcp_jiffies32;
		}
	}
	/* after rtt_max's update: the loss is judged by this ACK's range */
	if (unlikely(rs->losses > 0))
		bbr_a_fair_lost(sk, c->rtt_us);
}

/*
 * Pacing gain for PROBE_BW phase cycle_idx and the reason for it; phases
 * 2..7, a flow without an RTT sample, and a flow whose competitor keeps the
 * queue (which its drain could never empty) get BBRv1's gains.
 */
static __always_inline u32 bbr_a_fair_probe_bw_gain(struct sock *sk,
						    const struct bbr_ctx *c,
						    const struct rate_sample *rs,
						    u8 *why)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 rtt_us, rtt_max;
	bool queued;

	/* phases 2..7 cruise: BBR_UNIT, without a load of bbr_cycle_gain[] */
	if (bbr->cycle_idx > 1)
		return BBR_UNIT;
	if (!f->rtt_max_us || f->compete)
		return bbr_cycle_gain[bbr->cycle_idx];

	rtt_us = bbr_a_phi_rtt(sk, rs);
	queued = rtt_us > bbr->min_rtt_us + bbr_a_fair_queue_us;
	rtt_max = max(f->rtt_max_us, bbr->min_rtt_us + bbr_a_fair_queue_us);
	bbr_a_queue_phi(&rtt_us, &rtt_max, bbr->min_rtt_us);

	if (bbr->cycle_idx == 0) {
		*why = BBR_WHY_PROBE;
		return bbr_a_gain_up(rtt_us, rtt_max);
	}

	if (queued || f->lossy ||
	    bbr_a_loss_rate_high(bbr_a_fair_round_lost(sk),
				 tcp_sk(sk)->delivered -
				 bbr->next_rtt_delivered, bbr_a_fair_loss_pm)) {
		*why = queued ? BBR_WHY_DRAIN : BBR_WHY_LOSSY;
		return bbr_a_gain_down(rtt_us, rtt_max);
	}
	*why = BBR_WHY_CRUISE;
	return BBR_UNIT;
}

/*
 * The PROBE_BW cwnd target before budgets, in packets: one BDP plus
 * fair_cwnd_queue_us of queueing time at bw plus fair_cwnd_pkts packets
 * (fewer for a slow flow).
 * With no competitor flagged and a last loss round that was not lossy
 * (bbr_a_avg_target), bw is at most the recent average delivery rate: the
 * max filter's excess over a flow's share, times its min_rtt, would queue
 * more packets for a long-RTT flow than for a short one. The max filter
 * stays while the last PROBE_RTTs left a queue the competitor test has
 * yet to explain: against a buffer-filling flow the average, held down
 * by its queue, would shrink the flow's share until the flag is set, and
 * the loss-based laws then keep the split it had. A flow that loses at random
 * delivers less in each recovery, the longer its RTT the longer, and its
 * average then understates its share.
 * Other states keep BBRv1's gain x BDP.
 *
 * What it is computed from moves only at a round's end, at the flow's
 * events and when the model's bw or min_rtt moves (bbr_a_fair_retarget),
 * so it is kept in the state until then rather than computed, with its
 * divisions, on every ACK; a parameter written takes effect from then.
 */
static __always_inline u32 bbr_a_fair_cwnd_target(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 bw, u32 gain)
{
	const struct bbr_a_fair_params *p = bbr_a_fair_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 pkts = p->cwnd_pkts, target;
	u64 w;

	if (bbr->mode != BBR_PROBE_BW || unlikely(bbr->min_rtt_us == ~0U))
		return bbr_bdp(sk, c, bw, gain, BBR_ALGO_A_FAIR);
	if (likely(f->target))
		return f->target;

	if (bbr_a_avg_target(f->compete, f->lossy, f->dips))
		bw = min(bw, bbr_a_short_bw(bbr_max_bw(sk), f->bw_short));
	w = (u64)bbr->min_rtt_us + p->cwnd_queue_us;
	/*
	 * A flow whose rate fills fewer packets than its allowance in
	 * bbr_a_fair_pkts_rate_us (one of many sharing the link) queues the
	 * geometric mean of the two: N such flows keep a queue that grows as
	 * sqrt(N), not N, and the allowance still pulls equal rates. One flow
	 * against one loss-based competitor keeps the whole allowance where
	 * its rate fills it in that time (10 ms: above about 37 Mbit/s of
	 * 1448-byte packets); on slower links it too counts as slow. This
	 * test uses the bw after the average.
	 */
	if (unlikely(bw < p->slow_bw))
		pkts = bbr_a_pkts_by_rate(pkts,
					  (u64)bw * bbr_a_fair_pkts_rate_us,
					  BW_SCALE);
	target = bbr_a_queue_target(w, bw, pkts, BW_SCALE);
	/* kept for the round; a larger one is computed on each ACK */
	if (target <= U16_MAX)
		f->target = target;
	return target;
}

/*
 * The cwnd target's budgets. A slow flow in PROBE_BW (one whose bw fills
 * fewer than fair_cwnd_pkts packets in bbr_a_fair_pkts_rate_us, one of
 * many) gets BBRv1's in proportion to the packets it fills there
 * (bbr_a_budget_by_rate): the quantisation budget, three TSO bursts plus
 * two packets while probing, is six to eight packets at any rate above
 * 1.2 Mbit/s, and the aggregation budget up to 100 ms at bw; for a
 * hundred flows of 1 Mbit/s these add up to more queue than their BDPs
 * and allowances together, whatever the buffer. The flow's packet
 * allowance, the same for flows at the same rate, is then nearly all its
 * room. Scaled rather than dropped, the budgets do not step where a flow
 * turns slow, which a path that bunches ACKs could make it stay.
 *
 * On a path whose RTT spreads (jitter: spread_us, measured in PROBE_RTT's
 * holds, above bbr_a_fair_queue_us, the most a flow's own queue counts for),
 * the budget adds bw x that excess: min_rtt is the spread's floor, and a
 * target sized by it runs out of packets while late ACKs are on their way,
 * which a loss-based competitor fills. Jitter also bunches ACKs, so BBRv1's
 * aggregation estimate overlaps this room: the two overlap up to bw x
 * fair_cwnd_queue_us, the queue allowance's time, which is given back
 * once. (Fitted: with none given back the flow took more than its share
 * against CUBIC at 20 Mbit/s and under ACK aggregation; with all of the
 * smaller one, less at 100 Mbit/s.) One flow, or one per class, on a
 * clean path measures under bbr_a_fair_queue_us and keeps BBRv1's budget;
 * a hold also reads the queue that flows of a shorter RTT rebuild after
 * their own dips end, which gives a long-RTT flow among many room too.
 */
static __always_inline u32 bbr_a_fair_cwnd_budgets(struct sock *sk,
						   const struct bbr_ctx *c,
						   u32 target, u32 bw)
{
	const struct bbr_a_fair_params *p = bbr_a_fair_params(c);
	const struct bbr *bbr = inet_csk_ca(sk);
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 aggr, jit, both, full;

	if (bbr->mode != BBR_PROBE_BW)
		return bbr_cwnd_budgets(sk, target);
	aggr = bbr_ack_aggregation_cwnd(sk);
	if (f->spread_us > bbr_a_fair_queue_us) {
		jit = (u64)bw * (f->spread_us - bbr_a_fair_queue_us) >>
		      BW_SCALE;
		both = (u64)bw * p->cwnd_queue_us >> BW_SCALE;
		aggr += jit - min3(jit, aggr, both);
	}
	full = bbr_quantization_budget(sk, target + aggr);
	return target + bbr_a_fair_slow_share(p, full - target, bw);
}

/* After a full min_rtt, a cwnd-limited flow has probed all its cap allows. */
static __always_inline bool bbr_a_fair_probe_up_done(struct sock *sk,
						     bool full_length)
{
	return full_length && tcp_sk(sk)->is_cwnd_limited;
}

#endif /* BBR_A_CORE */

#endif /* _BBR_A_ALGOS_BBR_A_FAIR_H */
