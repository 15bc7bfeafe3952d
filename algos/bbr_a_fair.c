// SPDX-License-Identifier: GPL-2.0
/*
 * bbr_a_fair's module parameters, socket init and events
 * (algos/bbr_a_fair.h).
 */
#include "bbr_a_trace.h"
#include "algos/bbr_a_fair.h"

BBR_PARAM(fair_cwnd_queue_us, 5000, 0, 1000000,
	  "bbr_a_fair: queueing time each flow's PROBE_BW cwnd target allows above its BDP, us; lower it for less delay, raise it for throughput where the path needs more queue");
BBR_PARAM(fair_cwnd_pkts, 32, 0, 10000,
	  "bbr_a_fair: packets each flow's PROBE_BW cwnd target adds, the same for every flow (Vegas' alpha); lower it for less queue with many flows, raise it to pull flows to equal rates harder");
BBR_PARAM(fair_compete_us, 5000, 0, 1000000,
	  "bbr_a_fair: queueing delay a PROBE_RTT must leave before a competitor that does not yield to delay is assumed, us (0: never); raise it on paths whose RTT varies more than this");
BBR_PARAM(fair_compete_dips, 3, 1, 3,
	  "bbr_a_fair: PROBE_RTTs in a row that must leave that queue before a competitor is assumed; fewer find one sooner but may take many flows of its own kind for one");
BBR_PARAM(fair_compete_clear_dips, 2, 1, 3,
	  "bbr_a_fair: PROBE_RTTs in a row that must find the queue drained before a competitor is assumed gone; fewer return to the delay-based rules sooner but may do so while it is still there");
BBR_PARAM(fair_probe_rtt_pm, 750, 0, 900,
	  "bbr_a_fair: cwnd PROBE_RTT holds, per mille of the flow's BDP (0: 2 packets); lower it to drain a shared queue deeper at the cost of throughput while the dip lasts");

struct bbr_a_fair_params bbr_a_fair_params_snap __read_mostly;

/*
 * The fewest packets a lossy round in STARTUP must lose to
 * end it: a handful of losses early in STARTUP, when a round carries few
 * packets, can be well over bbr_a_fair_loss_pm without saying the pipe is
 * full.
 */
#define BBR_A_FAIR_STARTUP_LOSSES	8

/*
 * The largest K the state holds, ms: a law begun at a window above about
 * 47k packets (beta 0.3; 141k at 0.1) regrows faster than CUBIC would.
 */
#define BBR_A_FAIR_HI_K_MAX	((1U << 15) - 1)

/* bbr_a_fair's parameters for the end of PROBE_RTT. */
struct bbr_a_fair_event_params {
	u32	compete_us;
	u8	compete_dips;
	u8	compete_clear_dips;
};

/* A parameter was written: bbr_a_fair's snapshot, rebuilt. */
void bbr_a_fair_snapshot_load(void)
{
	struct bbr_a_fair_params p;

	/* the padding too: the snapshot is copied word by word */
	memset(&p, 0, sizeof(p));
	p.cwnd_queue_us = bbr_param(fair_cwnd_queue_us);
	p.cwnd_pkts = bbr_param(fair_cwnd_pkts);
	p.slow_bw = bbr_a_rate_fills(p.cwnd_pkts, bbr_a_fair_pkts_rate_us,
				     BW_SCALE);
	p.probe_rtt_pm = bbr_param(fair_probe_rtt_pm);

	bbr_params_put((u64 *)&bbr_a_fair_params_snap, (const u64 *)&p,
		       BBR_PARAMS_WORDS(p));
}

static __always_inline void
bbr_a_fair_event_load(struct bbr_a_fair_event_params *e)
{
	e->compete_us = bbr_param(fair_compete_us);
	e->compete_dips = bbr_param(fair_compete_dips);
	e->compete_clear_dips = bbr_param(fair_compete_clear_dips);
}

/*
 * How long losses at a low queue say that the path drops at random, s
 * (bbr_a_fair_rand_loss). Long enough to span the high part of the longest
 * flow's PROBE_BW cycle, eight of its rounds, for RTTs up to 125 ms (0.8 s
 * at 100 ms; longer paths are not covered): a flow whose
 * own last loss at a low queue was a cycle ago must still take a loss at the
 * top of the queue for a random one. Short enough that behind an AQM,
 * which drops at a low queue too, the flow is not left without cuts for
 * long. On a debug build, 5 s gave bbr_a_fair 0.73 of the link against
 * CUBIC behind RED (0.61 at 1 s), and 250 ms left Jain at 1 % random loss
 * at 0.96 to 0.97 where 1 s kept 0.99 (CHANGELOG.md).
 */
static const u32 bbr_a_fair_rand_sec = 1;

/* No loss at a low queue in the last bbr_a_fair_rand_sec: the stamp that old. */
static __always_inline void bbr_a_fair_loss_stale(struct bbr_a_fair_state *f)
{
	f->loss_stamp = (u16)tcp_jiffies32 - bbr_a_fair_rand_sec * HZ;
}

void bbr_a_fair_init_state(struct sock *sk)
{
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	f->round_lost = (u16)tcp_sk(sk)->lost;
	bbr_a_fair_loss_stale(f);
	f->rtt_max_stamp = (u16)tcp_jiffies32;
	f->row_floor = BBR_A_BASE_NONE;
	bbr->priv16 = BBR_A_BASE_NONE;
	bbr->priv2 = BBR_A_DIPS_MAX;
	bbr->priv1 = 0;
}

/*
 * The RTT a bound cut with no competitor flagged regrows at, us: one RTT
 * for every flow, whatever its own, so that flows of different RTTs regain
 * rate alike (RTT-fair). 20 ms holds a CUBIC flow its share at 0.5 BDP of
 * 20 ms and behind CoDel; 15 ms gave CUBIC more, 25 ms left bbr_a_fair
 * under its share in shallow tail-drop buffers (docs/notebook/coexistence.md).
 */
static const u32 bbr_a_fair_hi_rtt_us = 20000;

/*
 * The base RTT a bound cut while a competitor is flagged regrows at, us: a
 * CUBIC flow of this base RTT on the same bottleneck, the queueing delay
 * included (bbr_a_law_rtt). 10 ms, a short flow's: at its own srtt a long
 * flow kept about a quarter of the link against a short CUBIC flow.
 */
static const u32 bbr_a_fair_compete_rtt_us = 10000;

/*
 * The bound's cut at a congestion loss (CUBIC's beta), per mille. With no
 * competitor flagged 100: gentler cuts (50, 30) raised utilisation at 0.1
 * BDP of its own kind but cost fairness there. While a competitor is
 * flagged 300, CUBIC's own: with 100 one flow held about three CUBIC
 * flows' worth against four of them (docs/notebook/coexistence.md).
 */
static const u32 bbr_a_fair_hi_beta_pm = 100;
static const u32 bbr_a_fair_compete_beta_pm = 300;

/*
 * The RTT the bound's regrowth law is taken at. For a law begun while a
 * competitor kept the queue: the RTT of a flow of base RTT
 * bbr_a_fair_compete_rtt_us on this bottleneck, the same base for every
 * flow plus the queueing delay that srtt shows above the path's RTT
 * (bbr_a_compete_base). The flows then regain rate alike whatever their
 * base RTTs (at its own srtt, a long flow regrows slower than a short CUBIC
 * flow and keeps less), and in a deep buffer, whose queue sets every flow's
 * RTT, no faster than a CUBIC flow. Else bbr_a_fair_hi_rtt_us, one RTT for
 * every flow.
 */
static __always_inline u32 bbr_a_fair_law_rtt(const struct sock *sk,
					      bool compete)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (!compete)
		return bbr_a_fair_hi_rtt_us;
	return bbr_a_law_rtt(tcp_sk(sk)->srtt_us >> 3,
			     bbr_a_compete_base(tcp_min_rtt(tcp_sk(sk)),
						bbr->priv16),
			     bbr_a_fair_compete_rtt_us);
}

/* The bound's beta, per mille, for a law begun while competing or not. */
static __always_inline u32 bbr_a_fair_beta(bool compete)
{
	return compete ? bbr_a_fair_compete_beta_pm : bbr_a_fair_hi_beta_pm;
}

/*
 * The bound's law now: CUBIC's law since the last cut, or its Reno-friendly
 * estimate if higher (at small windows CUBIC grows as fast as Reno would);
 * 0: none, or expired. The law keeps the beta and the kind of RTT (the
 * competing law's or the common one) it began with when the competitor flag
 * changes: K was computed with them, and the bound would step if the law
 * ran on with others. The RTT itself is srtt as it is when the law is read.
 */
static __always_inline u32 bbr_a_fair_law(const struct sock *sk)
{
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 t_ms, x_max;

	if (!f->hi_valid)
		return 0;
	t_ms = jiffies_to_msecs(tcp_jiffies32 - f->hi_stamp);
	x_max = bbr_a_rate16_get(f->hi_max);
	/*
	 * Each law with its constants, for divisions by constants; the
	 * competing law's RTT is never below its common base
	 * (bbr_a_law_rtt), which bbr_a_law_bound needs of rtt_lo_us.
	 */
	BUILD_BUG_ON(!bbr_a_fair_compete_rtt_us || !bbr_a_fair_hi_rtt_us);
	if (f->hi_compete)
		return bbr_a_law_bound(x_max, t_ms, f->hi_k_ms,
				       bbr_a_fair_compete_beta_pm,
				       bbr_a_fair_law_rtt(sk, true),
				       bbr_a_fair_compete_rtt_us);
	return bbr_a_law_bound(x_max, t_ms, f->hi_k_ms,
			       bbr_a_fair_hi_beta_pm, bbr_a_fair_hi_rtt_us,
			       bbr_a_fair_hi_rtt_us);
}

/*
 * A new CUBIC epoch for the bound at rate x, with the law of the flag as it
 * is now: K from the window x fills at the law's RTT; the bound starts at x
 * after a cut (past_k false: the law's 1 - beta point is x), or is x now and
 * grows from there (past_k true).
 */
static __always_inline void bbr_a_fair_epoch(struct sock *sk, u32 x,
					     bool past_k)
{
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	bool compete = f->compete;
	u64 w, k;

	/* K = cbrt(beta W / 0.4) s for the window W that x fills: in ms */
	w = (u64)x * bbr_a_fair_law_rtt(sk, compete) >> BW_SCALE;
	k = clamp_t(u64, bbr_a_cbrt(w * bbr_a_fair_beta(compete) * 2500000),
		    1, BBR_A_FAIR_HI_K_MAX);
	f->hi_max = bbr_a_rate16_of(x);
	f->hi_k_ms = k;
	f->hi_stamp = tcp_jiffies32 - (past_k ? msecs_to_jiffies(k) : 0);
	f->hi_valid = 1;
	f->hi_compete = compete;
	f->hi_now = bbr_a_rate16_of(bbr_a_fair_law(sk));
	bbr->priv1 = 0;
	bbr_a_fair_retarget(sk);
}

/*
 * A round ends, or sending restarts from idle: the cwnd target is computed
 * again, and the bound takes the law's value for the round to come. An
 * expired law is dropped, or, while competing, goes on from its end, at
 * most twice the bw the flow delivered and at least its last maximum
 * (bbr_a_cubic_continue).
 */
void bbr_a_fair_bound_round(struct sock *sk)
{
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u16 age = (u16)tcp_jiffies32 - f->loss_stamp;
	u32 x;

	bbr_a_fair_retarget(sk);
	/*
	 * an old loss stamp stays just old: it cannot wrap to a recent one
	 * while this runs at least every 64 s (HZ 1000)
	 */
	if (age > bbr_a_fair_rand_sec * HZ)
		bbr_a_fair_loss_stale(f);
	if (!f->hi_valid)
		return;
	f->hi_now = bbr_a_rate16_of(bbr_a_fair_law(sk));
	if (f->hi_now)
		return;
	f->hi_valid = 0;
	if (!f->compete)
		return;
	x = bbr_a_cubic_continue(bbr_a_rate16_get(f->hi_max),
				 bbr_a_fair_beta(f->hi_compete), bbr_bw(sk));
	if (x)
		bbr_a_fair_epoch(sk, x, true);
}

/*
 * A lossy round in STARTUP: one that lost at least
 * BBR_A_FAIR_STARTUP_LOSSES packets says the pipe and its buffer are full,
 * and STARTUP ends (bbr_check_drain hands over to DRAIN) with the bw it
 * has, rather than doubling inflight into the full buffer until three
 * rounds without bw growth.
 */
static __always_inline void bbr_a_fair_startup_lossy(struct sock *sk, u32 lost)
{
	struct bbr *bbr = inet_csk_ca(sk);

	if (lost >= BBR_A_FAIR_STARTUP_LOSSES)
		bbr->full_bw_reached = 1;
}

/*
 * A round ends: the loss round's verdict, which in STARTUP may end it
 * (bbr_a_fair_startup_lossy). A lossy round while competing, inside a
 * recovery whose cut is over two srtts old, cuts the bound again from
 * where it is (bbr_a_recut_due): a new cut would otherwise
 * wait for the recovery's end, and heavy losses can hold TCP in one
 * recovery for many seconds while the law regrows the bound and cwnd with
 * it.
 */
void bbr_a_fair_round_end(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 lost = bbr_a_fair_round_lost(sk);
	u32 x;

	f->lossy = bbr_a_round_lossy(f->lossy, lost,
				     tp->delivered - bbr->next_rtt_delivered,
				     bbr_a_fair_loss_pm);
	f->round_lost = (u16)tp->lost;
	/*
	 * The next round starts now, as the core starts it at its other round
	 * ends; at an RTO (bbr_set_state) the core leaves that to its algorithm.
	 */
	bbr->next_rtt_delivered = tp->delivered;
	bbr_a_fair_bound_round(sk);
	if (f->lossy && bbr->mode == BBR_STARTUP)
		bbr_a_fair_startup_lossy(sk, lost);
	if (!f->lossy || !f->compete || !f->hi_valid ||
	    bbr->mode != BBR_PROBE_BW)
		return;
	if (!bbr_a_recut_due(f->lossy,
			     inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery,
			     jiffies_to_msecs(tcp_jiffies32 - f->hi_stamp),
			     tcp_sk(sk)->srtt_us >> 3))
		return;
	x = bbr_a_fair_bound(sk);
	if (x) {
		bbr_a_fair_epoch(sk, x, false);
		bbr->priv1 = 1;
	}
	bbr->priv2 = 0;
}

/*
 * A fast recovery is a congestion loss, which cuts the bound, if the
 * queueing delays' phi is at least this, per mille: the queue in the upper
 * half of its recent range, so that random losses at a low queue are not
 * taken as congestion.
 */
static const u32 bbr_a_fair_hi_phi_pm = 500;

/*
 * Does the path drop at random: did the flow see a loss at a low queue in
 * the last bbr_a_fair_rand_sec (bbr_a_fair_lost)?
 */
static __always_inline bool bbr_a_fair_rand_loss(const struct sock *sk)
{
	u16 age = (u16)tcp_jiffies32 - bbr_a_fair_state(sk)->loss_stamp;

	BUILD_BUG_ON(bbr_a_fair_rand_sec * HZ > U16_MAX / 2);
	return age < bbr_a_fair_rand_sec * HZ;
}

/* This ACK's RTT sample, or srtt if it has none. */
static __always_inline u32 bbr_a_fair_ack_rtt(struct sock *sk, s32 rtt_us)
{
	return rtt_us >= 0 ? rtt_us : tcp_sk(sk)->srtt_us >> 3;
}

/*
 * Is the queue in the upper part of its recent range: the queueing delays'
 * phi of this ACK's RTT (or srtt) at least bbr_a_fair_hi_phi_pm?
 */
static __always_inline bool bbr_a_fair_queue_high(struct sock *sk, s32 rtt_us)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 rtt = bbr_a_fair_ack_rtt(sk, rtt_us);
	u32 top = max(f->rtt_max_us, bbr->min_rtt_us + bbr_a_fair_queue_us);

	if (rtt <= bbr->min_rtt_us)
		return false;
	return (u64)(rtt - bbr->min_rtt_us) * 1000 >=
	       (u64)(top - bbr->min_rtt_us) * bbr_a_fair_hi_phi_pm;
}

/*
 * A congestion event: a fast recovery begins (rto false) or an RTO fired.
 * A recovery in PROBE_BW while the queue is high, unless the path drops at
 * random (below), or any RTO, cuts the bound to (1 - beta) of the bw in
 * use, and CUBIC's K for the window that bw fills sets how fast it
 * regrows. A recovery in STARTUP or
 * DRAIN is BBR's own overshoot, at a bw that may still be far below the
 * flow's share: DRAIN already gives it back. Every cut is a cut in the
 * rate, however shallow the buffer: a loss-based flow's cut leaves the
 * link partly idle there too, and a flow that went on pacing at its
 * model's rate after a loss in a 2 ms buffer took 96 % of the link from
 * one CUBIC flow (62 % behind RED, whose queue stays about as low).
 *
 * On a path that drops at random, losses come at every height of the
 * queue, and a flow starts a recovery at each few of them: the shorter its
 * RTT, the more often, so that the test of the queue's height, sampled at
 * each recovery, cut a 10 ms flow many times as often as a 50 ms one at
 * 1 % loss (Jain 0.72 to 0.89). A flow that saw a loss at a low queue in
 * the last bbr_a_fair_rand_sec (bbr_a_fair_rand_loss) takes a recovery at
 * a high queue for one more such loss, and does not cut. Flows that share
 * the path see such losses at a rate set by their rates, not their RTTs,
 * and stop cutting alike. A drop-tail buffer drops at its top, so the rule
 * seldom fires there (only when a loss is marked after the queue has
 * fallen); behind an AQM, which drops at a lower queue, it does, and the
 * rule spares such cuts for a second only. The rule is off while a
 * competitor is flagged: the bound then follows CUBIC's law and cuts at
 * each recovery at a high queue. Only a loss reported outside a recovery,
 * or by the ACK that starts one, is taken as evidence of random loss
 * (bbr_a_fair_lost): losses marked later in a recovery or after an RTO
 * were dropped before the cut, which has since drained the queue they
 * met. An RTO, and an undone cut, leave no such evidence standing.
 */
void bbr_a_fair_congestion(struct sock *sk, s32 rtt_us, bool rto)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	u32 x;

	/* the buffer dropped: the competitor test's evidence */
	bbr->priv2 = 0;
	bbr->priv1 = 0;
	bbr_a_fair_retarget(sk);
	if (rto)
		bbr_a_fair_loss_stale(f);
	else if (bbr->mode != BBR_PROBE_BW ||
		 !bbr_a_fair_queue_high(sk, rtt_us) ||
		 (!f->compete && bbr_a_fair_rand_loss(sk)))
		return;
	x = bbr_a_fair_bw(sk, bbr_bw(sk));
	if (!x)
		return;
	bbr_a_fair_epoch(sk, x, false);
	bbr->priv1 = 1;
}

/*
 * An ACK in PROBE_BW reported losses: if the queue it saw (about a round
 * after the drops) was low, the buffer probably did not drop them, and the
 * path drops at random (bbr_a_fair_rand_loss). Not inside a recovery or
 * the Loss state after an RTO, but on the ACK that starts one: losses
 * marked there came before the cut, which has drained the queue since.
 * Out of line: few ACKs report losses.
 */
void bbr_a_fair_lost(struct sock *sk, s32 rtt_us)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (bbr->prev_ca_state >= TCP_CA_Recovery &&
	    inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery)
		return;
	if (!bbr_a_fair_queue_high(sk, rtt_us))
		bbr_a_fair_state(sk)->loss_stamp = (u16)tcp_jiffies32;
}

/*
 * TCP found the congestion event spurious (reordering, a DSACK or F-RTO
 * says nothing was lost) and undoes its cwnd reduction: so is the bound's
 * cut, if the bound has not begun another epoch since (bbr->priv1). The
 * bound goes back to the bw in use before the cut, as if its law had
 * reached its plateau there, and the drop is no longer the competitor
 * test's evidence: with none known since, a row of queued dips then needs
 * its floor to move (bbr_a_compete_dip), the side that keeps a longer path
 * from reading as a competitor. Losses TCP takes back are no evidence of
 * random loss either.
 */
void bbr_a_fair_undo(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);

	bbr->priv2 = BBR_A_DIPS_MAX;
	bbr_a_fair_loss_stale(f);
	bbr_a_fair_retarget(sk);
	if (bbr->priv1 && f->hi_valid)
		bbr_a_fair_epoch(sk, bbr_a_rate16_get(f->hi_max), true);
	bbr->priv1 = 0;
}

/*
 * PROBE_RTT is over. The lowest RTT of its dip, against the path's (the
 * connection's lowest, tcp_min_rtt, unless no trusted sample was that low:
 * bbr_a_compete_base), says whether a flow that does not yield to delay
 * keeps a queue. Many flows of its own kind whose PROBE_RTTs do not overlap
 * can leave a queue at one dip too, and their next ones, drawn together by
 * the lower RTTs each dip shows the others, empty it: with
 * fair_compete_dips > 1 a competitor is assumed only once that many dips in
 * a row left a queue; and it is assumed gone once fair_compete_clear_dips
 * dips in a row found the queue drained (a CUBIC flow that has just cut
 * its window can leave none at one dip and refill it by the next). A queue
 * that stands still with no drop of the buffer over those dips is the
 * path's, which grew longer, and is the base from then on
 * (bbr_a_compete_dip): a buffer-filling flow makes the buffer drop, and
 * its queue moves with its window.
 */
void bbr_a_fair_probe_rtt_done(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	struct bbr_a_compete t = {
		.base = bbr_a_compete_base(tcp_min_rtt(tcp_sk(sk)),
					   bbr->priv16),
		.row = (u32)f->row_floor << BBR_A_BASE_SHIFT,
		.since = bbr->priv2,
		.dips = f->dips,
	};
	struct bbr_a_fair_event_params e;
	bool was = f->compete;
	u32 dip, spread;

	/*
	 * The RTT's spread: the hold's mean RTT above its lowest (min_rtt,
	 * the dip's), halved into the last holds'. The flow's own queue at
	 * the hold's floor counts in both, so only the path's spread stays.
	 */
	if (f->hold_us) {
		dip = bbr->min_rtt_us - min(bbr->min_rtt_us,
					    tcp_min_rtt(tcp_sk(sk)));
		spread = f->hold_us > dip ? f->hold_us - dip : 0;
		f->spread_us = (f->spread_us + spread) >> 1;
	}
	/* the half word is the cwnd target's again (bbr_a_fair_retarget) */
	f->hold_us = 0;
	bbr_a_fair_event_load(&e);
	f->compete = bbr_a_compete_dip(&t, bbr->min_rtt_us, was, e.compete_us,
				       e.compete_dips, e.compete_clear_dips);
	f->dips = t.dips;
	f->row_floor = bbr_a_row_of_us(t.row);
	bbr->priv2 = t.since;
	bbr->priv16 = bbr_a_base_of_us(t.base);
	/*
	 * A competitor newly found: the delay-based target has been squeezed
	 * by its queue, so start CUBIC's law as if the last congestion event
	 * had been at the bw STARTUP ended with (full_bw), or at today's bw or
	 * bound if higher, the bound no higher than the rate it was last cut
	 * from (bbr_a_compete_start).
	 */
	if (f->compete && !was)
		bbr_a_fair_epoch(sk,
				 bbr_a_compete_start(bbr_bw(sk), bbr->full_bw,
						     bbr_a_fair_bound(sk),
						     bbr_a_rate16_get(f->hi_max)),
				 false);
}

/*
 * PROBE_RTT begins: the half word that held PROBE_BW's cwnd target is the
 * hold's mean from now on, with no sample yet.
 */
void bbr_a_fair_probe_rtt_enter(struct sock *sk)
{
	bbr_a_fair_state(sk)->hold_us = 0;
}

void bbr_a_fair_trace(struct sock *sk, struct bbr_a_snapshot *snap)
{
	const struct bbr_a_fair_state *f = bbr_a_fair_state(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 hi = bbr_a_fair_bound(sk);

	snap->rtt_max_us = f->rtt_max_us;
	snap->round_lost = bbr_a_fair_round_lost(sk);
	snap->lossy = f->lossy;
	/* a competing flow's bound may grow far past any real rate: no wrap */
	snap->bw_hi_bps = mul_u64_u32_shr(hi * tp->mss_cache, USEC_PER_SEC * 8,
					  BW_SCALE);
	snap->compete = f->compete;
	snap->spread_us = f->spread_us;
}
