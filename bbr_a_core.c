// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr_a: a BBRv1 core and congestion controls built on it, one module,
 * one congestion-control name per algorithm.
 *
 * The core follows the design of BBR by Neal Cardwell, Yuchung Cheng,
 * C. Stephen Gunn, Soheil Hassas Yeganeh and Van Jacobson ("BBR:
 * Congestion-Based Congestion Control", ACM Queue 14(5), 2016), as Linux
 * implements it in net/ipv4/tcp_bbr.c: a windowed max of delivery-rate
 * samples estimates the bottleneck bandwidth, a windowed min of RTT samples
 * the propagation delay, and the sender paces at pacing_gain x bw with at
 * most cwnd_gain x bw x min_rtt in flight. A state machine picks the gains:
 *
 *   STARTUP    gains 2/ln2 until bw stops growing by 25 % for 3 rounds
 *   DRAIN      pacing gain ln2/2 until inflight is back to one BDP
 *   PROBE_BW   an eight-phase pacing gain cycle, one min_rtt per phase
 *   PROBE_RTT  cwnd of 4 packets for 200 ms when min_rtt is 10 s old
 *
 * plus long-term ("policer") bandwidth sampling, compensation for ACK
 * aggregation, packet conservation in the first round of recovery, TSO
 * sizing and cwnd restore after undo. The core keeps the function names of
 * net/ipv4/tcp_bbr.c and calls them in the same order, so that a fix there
 * maps to the function of the same name here; the text is this project's.
 *
 * The algorithms, each a header and an object under algos/, each registered
 * under its own name and selected per socket:
 *
 *   bbr_a       BBR-A (Pan, Li, Tan, Xu, Li, J. Harbin Inst. Tech. 54(11),
 *               2022): RTT-adaptive probe gains in PROBE_BW.
 *   bbr_a_fair  the project's extension of BBR-A (not in the paper).
 *   bbq         BBQ (Ma, Jiang, Wang, Li, arXiv 1706.09115).
 *   da_bbr      DA-BBR (Kim and Cho, IEEE Access 8:4099, 2020).
 *
 * How an algorithm plugs in. The core's functions take a const enum
 * bbr_algo and are inlined into one small wrapper per algorithm and
 * tcp_congestion_ops hook (section "Registration"), so each algorithm's
 * per-ACK path is compiled with its own constant: every test of the
 * algorithm folds away. The core calls an algorithm only through the named
 * hooks of section "Hooks" (the gain for this phase, the cwnd target, the
 * end of a phase, recovery, ...), each a switch on that constant. An
 * algorithm keeps its socket state after the core's, in a socket struct of
 * its own whose first member is struct bbr, and reads its module
 * parameters once per ACK into the ACK's context, struct bbr_ctx.
 *
 * Objects. What the core shares with the algorithms is in
 * include/bbr_a_core.h. An algorithm's header, algos/<name>.h, holds its
 * types, the declarations of its object algos/<name>.c, and its per-ACK
 * hooks, which only this file compiles (BBR_A_CORE): inlined here, they
 * cost no call per ACK, and they may call the core's static functions.
 * Its object holds its module parameters, its socket init and its event
 * code (a round's end, a congestion event, undo, PROBE_RTT's start or end,
 * idle restart, a trace event), which the hooks call out of line.
 *
 * A new algorithm: one enum bbr_algo value, a header and an object in
 * algos/ (the latter in Kbuild's tcp_bbr_a-y), a case in the hooks it
 * changes, and a line in section "Registration".
 */

/* The algorithms' per-ACK hooks are compiled here (algos/<name>.h). */
#define BBR_A_CORE

#include <linux/inet_diag.h>
#include <linux/random.h>
#include <linux/timekeeping.h>

#include "bbr_a_core.h"
#define CREATE_TRACE_POINTS
#include "bbr_a_trace.h"

/* The version is dkms.conf's PACKAGE_VERSION, passed by Kbuild. */
#ifndef BBR_A_VERSION
#error "BBR_A_VERSION is not defined: build with the project's Kbuild (it reads dkms.conf)"
#endif

/* An idle period this long may outlast the 32-bit microsecond stamps. */
#define BBR_LONG_IDLE_SEC	(30 * 60)

/* PROBE_BW cycles through this many phases, each about one min_rtt long. */
#define CYCLE_LEN		8

/* BBRv1's constants. */
static const u32 bbr_bw_rtts = CYCLE_LEN + 2;	/* bw filter window, rounds */
static const u32 bbr_min_rtt_win_sec = 10;	/* min_rtt filter window */
static const u32 bbr_probe_rtt_mode_ms = 200;	/* time spent in PROBE_RTT */
static const u32 bbr_min_tso_rate = 1200000;	/* bit/s: below, 1 seg TSO */
static const u32 bbr_pacing_margin_percent = 1;	/* pace 1 % below bw */
static const u32 bbr_high_gain = BBR_UNIT * 2885 / 1000 + 1;	/* 2/ln2 */
static const u32 bbr_drain_gain = BBR_UNIT * 1000 / 2885;	/* ln2/2 */
static const u32 bbr_cwnd_gain = BBR_UNIT * 2;
static const u32 bbr_cycle_gain[CYCLE_LEN] = {
	BBR_UNIT * 5 / 4,	/* probe up: look for more bandwidth */
	BBR_UNIT * 3 / 4,	/* probe down: drain what probing queued */
	BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, /* cruise */
};

static const u32 bbr_cycle_rand = 7;		/* random start: not phase 1 */
static const u32 bbr_full_bw_thresh = BBR_UNIT * 5 / 4;	/* bw growth */
static const u32 bbr_full_bw_cnt = 3;		/* rounds without growth */
static const u32 bbr_lt_intvl_min_rtts = 4;	/* long-term interval min */
static const u32 bbr_lt_loss_thresh = 50;	/* 50/256 lost: policed? */
static const u32 bbr_lt_bw_ratio = BBR_UNIT / 8;	/* lt bw match: 1/8 */
static const u32 bbr_lt_bw_diff = 4000 / 8;	/* ... or 4 kbit/s */
static const u32 bbr_lt_bw_max_rtts = 48;	/* rounds to pace at lt_bw */
static const u32 bbr_extra_acked_gain = BBR_UNIT;
static const u32 bbr_extra_acked_win_rtts = 5;
static const u32 bbr_ack_epoch_acked_reset_thresh = 1U << 20;
static const u32 bbr_extra_acked_max_us = 100 * 1000;

/* A module parameter was written (include/bbr_a_core.h, "Module parameters"). */
static void bbr_params_load(void);

static int bbr_param_set(const char *buf, const struct kernel_param *kp)
{
	const struct bbr_param *p = container_of((unsigned int *)kp->arg,
						 struct bbr_param, val);
	int err = param_set_uint_minmax(buf, kp, p->min, p->max);

	if (!err)
		bbr_params_load();
	return err;
}

/* The ops of every module parameter (BBR_PARAM()), the algorithms' too. */
const struct kernel_param_ops bbr_param_ops = {
	.set = bbr_param_set,
	.get = param_get_uint,
};

/*
 * The hooks: the only places where the core asks its algorithm. Each is a
 * switch on the algorithm (section "Hooks", after the algorithms); the
 * default, BBRv1's behaviour, is in the core.
 */
static __always_inline void bbr_hook_load(struct bbr_ctx *c,
					  const enum bbr_algo algo);
static __always_inline void bbr_hook_ack(struct sock *sk,
					 const struct rate_sample *rs,
					 const struct bbr_ctx *c,
					 const enum bbr_algo algo);
static __always_inline void bbr_hook_init(struct sock *sk,
					  const enum bbr_algo algo);
static __always_inline void bbr_hook_on_ack(struct sock *sk,
					    const struct bbr_ctx *c,
					    const struct rate_sample *rs,
					    const enum bbr_algo algo);
static __always_inline void bbr_hook_round_end(struct sock *sk,
					       const struct bbr_ctx *c,
					       const enum bbr_algo algo);
static __always_inline u32 bbr_hook_probe_bw_gain(struct sock *sk,
						  const struct bbr_ctx *c,
						  const struct rate_sample *rs,
						  u8 *why,
						  const enum bbr_algo algo);
static __always_inline u32 bbr_hook_pacing_gain(struct sock *sk,
						const struct bbr_ctx *c,
						u32 gain,
						const enum bbr_algo algo);
static __always_inline u64 bbr_hook_bdp(struct sock *sk,
					const struct bbr_ctx *c, u64 w,
					const enum bbr_algo algo);
static __always_inline u32 bbr_hook_cwnd_target(struct sock *sk,
						const struct bbr_ctx *c,
						u32 bw, u32 gain,
						const enum bbr_algo algo);
static __always_inline u32 bbr_hook_cwnd_budgets(struct sock *sk,
						 const struct bbr_ctx *c,
						 u32 target, u32 bw,
						 const enum bbr_algo algo);
static __always_inline bool bbr_hook_probe_up_done(struct sock *sk,
						   const struct bbr_ctx *c,
						   const struct rate_sample *rs,
						   u32 elapsed_us,
						   bool full_length,
						   const enum bbr_algo algo);
static __always_inline bool bbr_hook_min_rtt_due(struct sock *sk,
						 const struct bbr_ctx *c,
						 const enum bbr_algo algo);
static __always_inline bool bbr_hook_min_rtt_restamp(struct sock *sk,
						     const struct bbr_ctx *c,
						     const enum bbr_algo algo);
static __always_inline void bbr_hook_min_rtt_expired(struct sock *sk,
						     const struct bbr_ctx *c,
						     const struct rate_sample *rs,
						     const enum bbr_algo algo);
static __always_inline void bbr_hook_probe_rtt_enter(struct sock *sk,
						     const struct bbr_ctx *c,
						     const enum bbr_algo algo);
static __always_inline u32 bbr_hook_probe_rtt_cwnd(struct sock *sk,
						   const struct bbr_ctx *c,
						   const enum bbr_algo algo);
static __always_inline u32 bbr_hook_recovery_cwnd(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 acked,
						  const enum bbr_algo algo);
static __always_inline u32 bbr_hook_conserve_cwnd(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 cwnd, u32 acked,
						  const enum bbr_algo algo);
static __always_inline u32 bbr_hook_recovery_end_cwnd(struct sock *sk,
						      const struct bbr_ctx *c,
						      u32 cwnd,
						      const enum bbr_algo algo);
static __always_inline void bbr_hook_trace(struct sock *sk,
					   const struct bbr_ctx *c,
					   struct bbr_a_snapshot *snap,
					   const enum bbr_algo algo);
static __always_inline void bbr_hook_congestion(struct sock *sk,
						const struct bbr_ctx *c,
						bool rto,
						const enum bbr_algo algo);
static __always_inline void bbr_hook_undo(struct sock *sk,
					  const struct bbr_ctx *c,
					  const enum bbr_algo algo);
static __always_inline u32 bbr_hook_bw(struct sock *sk,
				       const struct bbr_ctx *c, u32 bw,
				       const enum bbr_algo algo);
static __always_inline u32 bbr_hook_pace_bw(struct sock *sk,
					    const struct bbr_ctx *c,
					    u32 model_bw, u32 bw,
					    const enum bbr_algo algo);
static __always_inline void bbr_hook_probe_rtt_done(struct sock *sk,
						    const struct bbr_ctx *c,
						    const enum bbr_algo algo);
static __always_inline void bbr_hook_idle_restart(struct sock *sk,
						  const enum bbr_algo algo);
static __always_inline void bbr_hook_model_moved(struct sock *sk,
						 const enum bbr_algo algo);

/* ========================================================================
 * The BBRv1 core.
 * ========================================================================
 */

/*
 * Inlining. Upstream's bbr_main() is the one caller of most of the core's
 * functions, and the compiler inlines them there; here each algorithm's
 * cong_control is a caller of its own, and a function with four callers is
 * left out of line. The per-ACK ones that upstream's compiler inlines are
 * __always_inline for that reason (bbr_update_ack_aggregation(),
 * bbr_check_full_bw_reached(), bbr_cwnd_budgets()): out of line, each costs
 * a call and a stack frame on every ACK, an indirect call in a module built
 * with -mcmodel=large as UML's are: about 5 % of bbr's cost per ACK for
 * bbr_a with adaptive=0 on the ACK bench's ACKs. Those upstream leaves out
 * of line (bbr_set_pacing_rate(), bbr_packets_in_net_at_edt(),
 * bbr_lt_bw_sampling()) stay so.
 */

/*
 * Microseconds from a stamp kept as the low 32 bits of a tcp_mstamp to now_us:
 * the modular difference, exact for intervals below 2^32 us (71.6 minutes).
 * Stamps are only ever taken from clocks that have not passed now_us yet.
 */
static u32 bbr_us_since(u64 now_us, u32 stamp)
{
	return (u32)now_us - stamp;
}

/* Excess data ACKed beyond bw, max over the last 5..10 rounds. */
static u16 bbr_extra_acked(const struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return max(bbr->extra_acked[0], bbr->extra_acked[1]);
}

/*
 * gain * rate in bytes per second, less the pacing margin. The order of the
 * multiplications keeps a u64 from overflowing up to ~2.9 Tbit/s at gain 2.89.
 */
static u64 bbr_rate_bytes_per_sec(struct sock *sk, u64 rate, u32 gain)
{
	rate *= tcp_sk(sk)->mss_cache;
	rate *= gain;
	rate >>= BBR_SCALE;
	rate *= USEC_PER_SEC / 100 * (100 - bbr_pacing_margin_percent);
	return rate >> BW_SCALE;
}

static unsigned long bbr_bw_to_pacing_rate(struct sock *sk, u32 bw, u32 gain)
{
	u64 rate = bbr_rate_bytes_per_sec(sk, bw, gain);

	return min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate));
}

/* Before a bw sample exists, pace at high_gain * cwnd / srtt (or / 1 ms). */
static void bbr_init_pacing_rate_from_rtt(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	u32 rtt_us = USEC_PER_MSEC;
	u64 bw;

	if (tp->srtt_us) {
		rtt_us = max(tp->srtt_us >> 3, 1U);
		bbr->has_seen_rtt = 1;
	}
	bw = (u64)tcp_snd_cwnd(tp) * BW_UNIT;
	do_div(bw, rtt_us);
	WRITE_ONCE(sk->sk_pacing_rate,
		   bbr_bw_to_pacing_rate(sk, bw, bbr_high_gain));
}

/* Pace at gain * bw; until STARTUP fills the pipe, never slow down. */
static void bbr_set_pacing_rate(struct sock *sk, u32 bw, u32 gain)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	unsigned long rate = bbr_bw_to_pacing_rate(sk, bw, gain);

	if (unlikely(!bbr->has_seen_rtt && tp->srtt_us))
		bbr_init_pacing_rate_from_rtt(sk);
	if (bbr_full_bw_reached(sk) || rate > READ_ONCE(sk->sk_pacing_rate))
		WRITE_ONCE(sk->sk_pacing_rate, rate);
}

/* Minimum TSO burst: 1 segment below 1.2 Mbit/s, else 2. */
static u32 bbr_min_tso_segs(struct sock *sk)
{
	return READ_ONCE(sk->sk_pacing_rate) < (bbr_min_tso_rate >> 3) ? 1 : 2;
}

/* TSO burst goal: about 1 ms of data at the pacing rate, at most 127 segs. */
static u32 bbr_tso_segs_goal(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 segs, bytes;

	bytes = min_t(unsigned long,
		      READ_ONCE(sk->sk_pacing_rate) >>
		      READ_ONCE(sk->sk_pacing_shift),
		      GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER);
	segs = max_t(u32, bytes / tp->mss_cache, bbr_min_tso_segs(sk));
	return min(segs, 0x7FU);
}

/* Remember a cwnd to restore after loss recovery or PROBE_RTT. */
static void bbr_save_cwnd(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	if (bbr->prev_ca_state < TCP_CA_Recovery && bbr->mode != BBR_PROBE_RTT)
		bbr->prior_cwnd = tcp_snd_cwnd(tp);
	else	/* cwnd is cut right now: keep the larger, older value */
		bbr->prior_cwnd = max(bbr->prior_cwnd, tcp_snd_cwnd(tp));
}

/*
 * ceil(gain * bw * min_rtt) in packets; rounding up keeps an estimate from
 * shrinking itself. Without an RTT sample, the initial window is the safe cap.
 */
static __always_inline u32 bbr_bdp(struct sock *sk, const struct bbr_ctx *c,
				   u32 bw, u32 gain, const enum bbr_algo algo)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	u64 w;

	if (unlikely(bbr->min_rtt_us == ~0U))
		return TCP_INIT_CWND;

	w = bbr_hook_bdp(sk, c, (u64)bw * bbr->min_rtt_us, algo);
	return (((w * gain) >> BBR_SCALE) + BW_UNIT - 1) / BW_UNIT;
}

/*
 * Room for quantisation: three TSO bursts (sender qdisc, sender NIC, receiver
 * GRO/delayed ACK), rounded up to an even count to discourage delayed ACKs,
 * and two packets more while probing up so that small BDPs still probe.
 */
static u32 bbr_quantization_budget(struct sock *sk, u32 cwnd)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	cwnd += 3 * bbr_tso_segs_goal(sk);
	cwnd = (cwnd + 1) & ~1U;
	if (bbr->mode == BBR_PROBE_BW && bbr->cycle_idx == 0)
		cwnd += 2;
	return cwnd;
}

static __always_inline u32 bbr_inflight(struct sock *sk,
					const struct bbr_ctx *c, u32 bw,
					u32 gain, const enum bbr_algo algo)
{
	return bbr_quantization_budget(sk, bbr_bdp(sk, c, bw, gain, algo));
}

/*
 * Packets in the network when the next skb departs. Packets already queued in
 * the pacing layer have a departure time (EDT) in the future; by then about
 * bw * (EDT - now) of what is in flight will have been delivered. When raising
 * inflight, count the departing TSO burst as well.
 */
static u32 bbr_packets_in_net_at_edt(struct sock *sk, u32 inflight_now)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr *bbr = inet_csk_ca(sk);
	u64 now_ns = tp->tcp_clock_cache;
	u64 edt_ns = max(tp->tcp_wstamp_ns, now_ns);
	u64 wait_us = div_u64(edt_ns - now_ns, NSEC_PER_USEC);
	u32 drained = (u64)bbr_bw(sk) * wait_us >> BW_SCALE;
	u32 inflight = inflight_now;

	if (bbr->pacing_gain > BBR_UNIT)
		inflight += bbr_tso_segs_goal(sk);
	return drained >= inflight ? 0 : inflight - drained;
}

/* Extra cwnd for ACK aggregation, capped at 100 ms of data at bw. */
static u32 bbr_ack_aggregation_cwnd(struct sock *sk)
{
	u32 cap, aggr;

	if (!bbr_extra_acked_gain || !bbr_full_bw_reached(sk))
		return 0;

	cap = (u64)bbr_bw(sk) * bbr_extra_acked_max_us / BW_UNIT;
	aggr = (bbr_extra_acked_gain * bbr_extra_acked(sk)) >> BBR_SCALE;
	return min(aggr, cap);
}

/* BBRv1's budgets on a cwnd target: ACK aggregation, then quantisation. */
static __always_inline u32 bbr_cwnd_budgets(struct sock *sk, u32 target)
{
	return bbr_quantization_budget(sk, target +
				       bbr_ack_aggregation_cwnd(sk));
}

/*
 * Estimate how much data ACKs deliver beyond what bw predicts over an epoch;
 * a receiver or link that batches ACKs needs that much more cwnd to keep
 * sending between batches.
 */
static __always_inline void
bbr_update_ack_aggregation(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 epoch_us, expected, extra;

	if (!bbr_extra_acked_gain || rs->acked_sacked <= 0 ||
	    rs->delivered < 0 || rs->interval_us <= 0)
		return;

	if (bbr->round_start) {
		bbr->extra_acked_win_rtts = min_t(u32, 0x1F,
						  bbr->extra_acked_win_rtts + 1);
		if (bbr->extra_acked_win_rtts >= bbr_extra_acked_win_rtts) {
			bbr->extra_acked_win_rtts = 0;
			bbr->extra_acked_win_idx ^= 1;
			bbr->extra_acked[bbr->extra_acked_win_idx] = 0;
		}
	}

	epoch_us = bbr_us_since(tp->delivered_mstamp, bbr->ack_epoch_stamp);
	expected = (u64)bbr_bw(sk) * epoch_us / BW_UNIT;

	/* Start a new epoch once ACKs fall behind bw, or the count is huge. */
	if (bbr->ack_epoch_acked <= expected ||
	    bbr->ack_epoch_acked + rs->acked_sacked >=
	    bbr_ack_epoch_acked_reset_thresh) {
		bbr->ack_epoch_acked = 0;
		bbr->ack_epoch_stamp = (u32)tp->delivered_mstamp;
		expected = 0;
	}

	bbr->ack_epoch_acked = min_t(u32, 0xFFFFF,
				     bbr->ack_epoch_acked + rs->acked_sacked);
	extra = min(bbr->ack_epoch_acked - expected, tcp_snd_cwnd(tp));
	if (extra > bbr->extra_acked[bbr->extra_acked_win_idx])
		bbr->extra_acked[bbr->extra_acked_win_idx] = extra;
}

/* BBRv1's cwnd where recovery begins: what is in flight plus what was ACKed. */
static u32 bbr_recovery_cwnd(struct sock *sk, u32 acked)
{
	return tcp_packets_in_flight(tcp_sk(sk)) + acked;
}

/* BBRv1's cwnd in recovery's first round: one packet out per packet in. */
static u32 bbr_conserve_cwnd(struct sock *sk, u32 cwnd, u32 acked)
{
	return max(cwnd, tcp_packets_in_flight(tcp_sk(sk)) + acked);
}

/* BBRv1's cwnd when recovery ends: back to the one saved before it. */
static u32 bbr_recovery_end_cwnd(struct sock *sk, u32 cwnd)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return max(cwnd, bbr->prior_cwnd);
}

/*
 * Packet conservation in the first round of recovery (send one packet per
 * packet delivered), slow start toward the target after it, and the saved cwnd
 * restored when recovery ends. Returns true while conserving packets.
 */
static __always_inline bool
bbr_set_cwnd_to_recover_or_restore(struct sock *sk, const struct bbr_ctx *c,
				   const struct rate_sample *rs, u32 acked,
				   u32 *new_cwnd, const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	u8 prev_state = bbr->prev_ca_state;
	u8 state = inet_csk(sk)->icsk_ca_state;
	u32 cwnd = tcp_snd_cwnd(tp);

	/* Lost packets left the network: take them out of cwnd first. */
	if (rs->losses > 0)
		cwnd = max_t(s32, cwnd - rs->losses, 1);

	if (state == TCP_CA_Recovery && prev_state != TCP_CA_Recovery) {
		/* Recovery begins: conserve packets for one round, from now. */
		bbr_hook_congestion(sk, c, false, algo);
		bbr->packet_conservation = 1;
		bbr_hook_round_end(sk, c, algo);
		bbr->next_rtt_delivered = tp->delivered;
		/* Drop cwnd that TSQ, TSO deferral or the app left unused. */
		cwnd = bbr_hook_recovery_cwnd(sk, c, acked, algo);
	} else if (prev_state >= TCP_CA_Recovery && state < TCP_CA_Recovery) {
		/* Recovery is over: go back to the cwnd we had before. */
		cwnd = bbr_hook_recovery_end_cwnd(sk, c, cwnd, algo);
		bbr->packet_conservation = 0;
	}
	bbr->prev_ca_state = state;

	if (bbr->packet_conservation) {
		*new_cwnd = bbr_hook_conserve_cwnd(sk, c, cwnd, acked, algo);
		return true;
	}
	*new_cwnd = cwnd;
	return false;
}

/*
 * Move cwnd toward the target (gain * BDP, or the algorithm's, plus
 * aggregation and quantisation budgets, or the algorithm's budgets): grow
 * by what was ACKed, and once the pipe was full, cut straight down.
 */
static __always_inline void bbr_set_cwnd(struct sock *sk,
					 const struct bbr_ctx *c,
					 const struct rate_sample *rs,
					 u32 acked, u32 bw, u32 gain,
					 const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr *bbr = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp), target;

	if (acked && !bbr_set_cwnd_to_recover_or_restore(sk, c, rs, acked,
							 &cwnd, algo)) {
		target = bbr_hook_cwnd_budgets(sk, c,
					       bbr_hook_cwnd_target(sk, c, bw,
								    gain, algo),
					       bw, algo);

		if (bbr_full_bw_reached(sk))
			cwnd = min(cwnd + acked, target);
		else if (cwnd < target || tp->delivered < TCP_INIT_CWND)
			cwnd = cwnd + acked;
		cwnd = max(cwnd, bbr_cwnd_min_target);
	}

	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	if (bbr->mode == BBR_PROBE_RTT)
		tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp),
					 bbr_hook_probe_rtt_cwnd(sk, c, algo)));
}

/*
 * Should PROBE_BW move to its next phase? Cruising phases last one min_rtt.
 * Probing up lasts at least one min_rtt and until inflight reaches
 * gain * BDP or packets are lost (or the algorithm ends it); probing down
 * ends after one min_rtt or as soon as inflight is back to one BDP.
 */
static __always_inline bool
bbr_is_next_cycle_phase(struct sock *sk, const struct bbr_ctx *c,
			const struct rate_sample *rs, const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr *bbr = inet_csk_ca(sk);
	u32 elapsed = bbr_us_since(tp->delivered_mstamp, bbr->cycle_stamp);
	bool full_length = elapsed > bbr->min_rtt_us;
	u32 inflight, bw;

	if (bbr->pacing_gain == BBR_UNIT)
		return full_length;
	if (bbr->pacing_gain > BBR_UNIT &&
	    bbr_hook_probe_up_done(sk, c, rs, elapsed, full_length, algo))
		return true;

	inflight = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);
	bw = bbr_max_bw(sk);

	if (bbr->pacing_gain > BBR_UNIT)
		return full_length &&
		       (rs->losses ||
			inflight >= bbr_inflight(sk, c, bw, bbr->pacing_gain,
						 algo));

	return full_length || inflight <= bbr_inflight(sk, c, bw, BBR_UNIT,
						       algo);
}

static void bbr_advance_cycle_phase(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	bbr->cycle_idx = (bbr->cycle_idx + 1) & (CYCLE_LEN - 1);
	bbr->cycle_stamp = (u32)tp->delivered_mstamp;
}

static __always_inline void bbr_update_cycle_phase(struct sock *sk,
						   const struct bbr_ctx *c,
						   const struct rate_sample *rs,
						   const enum bbr_algo algo)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_PROBE_BW &&
	    bbr_is_next_cycle_phase(sk, c, rs, algo))
		bbr_advance_cycle_phase(sk);
}

/* STARTUP's gains are set here too, so get_info reports them before an ACK. */
static void bbr_reset_startup_mode(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);

	bbr->mode = BBR_STARTUP;
	bbr->pacing_gain = bbr_high_gain;
	bbr->cwnd_gain = bbr_high_gain;
}

/*
 * Enter PROBE_BW at a random phase other than probe-down, so that flows
 * sharing a bottleneck do not probe in lockstep.
 */
static void bbr_reset_probe_bw_mode(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);

	bbr->mode = BBR_PROBE_BW;
	bbr->cycle_idx = CYCLE_LEN - 1 - get_random_u32_below(bbr_cycle_rand);
	bbr_advance_cycle_phase(sk);
}

static void bbr_reset_mode(struct sock *sk)
{
	if (bbr_full_bw_reached(sk))
		bbr_reset_probe_bw_mode(sk);
	else
		bbr_reset_startup_mode(sk);
}

/*
 * Long-term sampling: a new interval, measured from the connection's counters
 * as they stand at this ACK (no rounds counted yet).
 */
static void bbr_reset_lt_bw_sampling_interval(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	bbr->lt_rtt_cnt = 0;
	bbr->lt_last_lost = tp->lost;
	bbr->lt_last_delivered = tp->delivered;
	bbr->lt_last_stamp = (u32)div_u64(tp->delivered_mstamp, USEC_PER_MSEC);
}

/* Forget any policer: no long-term rate, not using one, not sampling. */
static void bbr_reset_lt_bw_sampling(struct sock *sk)
{
	struct bbr *bbr = inet_csk_ca(sk);

	bbr->lt_is_sampling = 0;
	bbr->lt_use_bw = 0;
	bbr->lt_bw = 0;
	bbr_reset_lt_bw_sampling_interval(sk);
}

/*
 * A lossy long-term interval ended with rate bw. Two consecutive intervals
 * with about the same rate (within 1/8 or 4 kbit/s) look like a token-bucket
 * policer: pace at their average, without probing, for a while.
 */
static void bbr_lt_bw_interval_done(struct sock *sk, u32 bw)
{
	struct bbr *bbr = inet_csk_ca(sk);
	u32 diff;

	if (bbr->lt_bw) {
		diff = bw > bbr->lt_bw ? bw - bbr->lt_bw : bbr->lt_bw - bw;
		if (diff * BBR_UNIT <= bbr_lt_bw_ratio * bbr->lt_bw ||
		    bbr_rate_bytes_per_sec(sk, diff, BBR_UNIT) <=
		    bbr_lt_bw_diff) {
			bbr->lt_bw = (bw + bbr->lt_bw) >> 1;
			bbr->lt_use_bw = 1;
			bbr->pacing_gain = BBR_UNIT;
			bbr->lt_rtt_cnt = 0;
			return;
		}
	}
	bbr->lt_bw = bw;
	bbr_reset_lt_bw_sampling_interval(sk);
}

/*
 * Policer detection. Intervals start at a loss and last 4..16 rounds; one
 * that ends with a loss and lost at least 50/256 of what it delivered gives a
 * long-term rate sample. After 48 rounds at lt_bw, probe again.
 */
static void bbr_lt_bw_sampling(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	u32 lost, delivered, t;
	u64 bw;

	if (bbr->lt_use_bw) {
		if (bbr->mode == BBR_PROBE_BW && bbr->round_start &&
		    ++bbr->lt_rtt_cnt >= bbr_lt_bw_max_rtts) {
			bbr_reset_lt_bw_sampling(sk);
			bbr_reset_probe_bw_mode(sk);
		}
		return;
	}

	if (!bbr->lt_is_sampling) {
		if (!rs->losses)
			return;
		bbr_reset_lt_bw_sampling_interval(sk);
		bbr->lt_is_sampling = true;
	}

	/* An app-limited sample says nothing about a policer. */
	if (rs->is_app_limited) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}

	if (bbr->round_start)
		bbr->lt_rtt_cnt++;
	if (bbr->lt_rtt_cnt < bbr_lt_intvl_min_rtts)
		return;
	if (bbr->lt_rtt_cnt > 4 * bbr_lt_intvl_min_rtts) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}

	/* End intervals at a loss: the policer's bucket is empty then. */
	if (!rs->losses)
		return;

	lost = tp->lost - bbr->lt_last_lost;
	delivered = tp->delivered - bbr->lt_last_delivered;
	if (!delivered || (lost << BBR_SCALE) < bbr_lt_loss_thresh * delivered)
		return;

	t = div_u64(tp->delivered_mstamp, USEC_PER_MSEC) - bbr->lt_last_stamp;
	if ((s32)t < 1)
		return;		/* shorter than a millisecond: wait */
	if (t >= ~0U / USEC_PER_MSEC) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}
	t *= USEC_PER_MSEC;
	bw = (u64)delivered * BW_UNIT;
	do_div(bw, t);
	bbr_lt_bw_interval_done(sk, bw);
}

/* Count packet-timed rounds and feed the delivery rate to the bw filter. */
static __always_inline void bbr_update_bw(struct sock *sk,
					  const struct bbr_ctx *c,
					  const struct rate_sample *rs,
					  const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	u32 was = bbr_bw(sk);
	u64 bw;

	bbr->round_start = 0;
	if (rs->delivered < 0 || rs->interval_us <= 0)
		return;

	/* A round ends when a packet sent after it began is delivered. */
	if (!before(rs->prior_delivered, bbr->next_rtt_delivered)) {
		bbr_hook_round_end(sk, c, algo);
		bbr->next_rtt_delivered = tp->delivered;
		bbr_a_maxfilt_next_round(&bbr->bw, bbr_bw_rtts);
		bbr->round_start = 1;
		bbr->packet_conservation = 0;
	}

	bbr_lt_bw_sampling(sk, rs);

	/*
	 * App-limited samples understate the path, so they only count when
	 * they beat the current max.
	 */
	bw = div64_long((u64)rs->delivered * BW_UNIT, rs->interval_us);
	if (!rs->is_app_limited || bw >= bbr_max_bw(sk))
		bbr_a_maxfilt_update(&bbr->bw, bbr_bw_rtts, bw);
	if (bbr_bw(sk) != was)
		bbr_hook_model_moved(sk, algo);
}

/*
 * The end of STARTUP: at each round that was not app-limited, the round's
 * max bw either grew by 25 % over the last bw that grew (a new reference,
 * and the count starts over) or did not (one more round without growth).
 * Three rounds without growth, and the pipe counts as full.
 */
static __always_inline void
bbr_check_full_bw_reached(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr *bbr = inet_csk_ca(sk);
	u32 bw = bbr_max_bw(sk);
	u32 grown;

	if (bbr->full_bw_reached || !bbr->round_start || rs->is_app_limited)
		return;

	grown = (u64)bbr->full_bw * bbr_full_bw_thresh >> BBR_SCALE;
	if (bw < grown) {
		bbr->full_bw_cnt++;
		if (bbr->full_bw_cnt >= bbr_full_bw_cnt)
			bbr->full_bw_reached = 1;
		return;
	}
	bbr->full_bw = bw;
	bbr->full_bw_cnt = 0;
}

/*
 * STARTUP hands over to DRAIN on the ACK that finds the pipe full; DRAIN
 * hands over to PROBE_BW once no more than one BDP (with its budgets) will
 * be in the network when the next packet leaves, possibly on that same ACK.
 * ssthresh reports the pipe's estimated size to tcp_info.
 */
static __always_inline void bbr_check_drain(struct sock *sk,
					    const struct bbr_ctx *c,
					    const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	u32 pipe;

	if (bbr->mode == BBR_STARTUP && bbr->full_bw_reached) {
		bbr->mode = BBR_DRAIN;
		tp->snd_ssthresh = bbr_inflight(sk, c, bbr_max_bw(sk),
						BBR_UNIT, algo);
	}
	if (bbr->mode != BBR_DRAIN)
		return;

	pipe = bbr_inflight(sk, c, bbr_max_bw(sk), BBR_UNIT, algo);
	if (bbr_packets_in_net_at_edt(sk, tcp_packets_in_flight(tp)) <= pipe)
		bbr_reset_probe_bw_mode(sk);
}

/*
 * Leave PROBE_RTT once its 200 ms (and one round) at the floor are done;
 * min_rtt then holds the lowest RTT of the dip.
 */
static __always_inline void bbr_check_probe_rtt_done(struct sock *sk,
						     const struct bbr_ctx *c,
						     const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	if (!bbr->probe_rtt_done_stamp ||
	    !after(tcp_jiffies32, bbr->probe_rtt_done_stamp))
		return;

	bbr_hook_probe_rtt_done(sk, c, algo);
	bbr->min_rtt_stamp = tcp_jiffies32;	/* the filter's window restarts */
	tcp_snd_cwnd_set(tp, max(tcp_snd_cwnd(tp), bbr->prior_cwnd));
	bbr_reset_mode(sk);
}

/* BBRv1's min_rtt filter expiry: 10 s after min_rtt was taken. */
static bool bbr_min_rtt_win_expired(const struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return after(tcp_jiffies32,
		     bbr->min_rtt_stamp + bbr_min_rtt_win_sec * HZ);
}

/*
 * The min_rtt filter: a new minimum, or any sample once the current one has
 * expired (10 s old, or when the algorithm says; but not from a possibly
 * delayed ACK), replaces it. An expired filter also sends the flow to
 * PROBE_RTT, unless it is just back from idle.
 */
static __always_inline void bbr_update_min_rtt(struct sock *sk,
					       const struct bbr_ctx *c,
					       const struct rate_sample *rs,
					       const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	bool expired;

	expired = bbr_hook_min_rtt_due(sk, c, algo);
	if (expired)
		bbr_hook_min_rtt_expired(sk, c, rs, algo);
	if (rs->rtt_us >= 0 &&
	    (rs->rtt_us < bbr->min_rtt_us ||
	     (expired && !rs->is_ack_delayed))) {
		bbr->min_rtt_us = rs->rtt_us;
		bbr_hook_model_moved(sk, algo);
		if (expired || bbr_hook_min_rtt_restamp(sk, c, algo))
			bbr->min_rtt_stamp = tcp_jiffies32;
	}

	if (bbr_probe_rtt_mode_ms > 0 && expired && !bbr->idle_restart &&
	    bbr->mode != BBR_PROBE_RTT) {
		bbr->mode = BBR_PROBE_RTT;
		bbr_hook_probe_rtt_enter(sk, c, algo);
		bbr_save_cwnd(sk);
		bbr->probe_rtt_done_stamp = 0;
	}

	if (bbr->mode == BBR_PROBE_RTT) {
		/* Keep bw samples from this dip out of the bw filter. */
		tp->app_limited =
			(tp->delivered + tcp_packets_in_flight(tp)) ? : 1;
		if (!bbr->probe_rtt_done_stamp &&
		    tcp_packets_in_flight(tp) <=
		    bbr_hook_probe_rtt_cwnd(sk, c, algo)) {
			/* At the floor: hold for 200 ms and one round. */
			bbr->probe_rtt_done_stamp = tcp_jiffies32 +
				msecs_to_jiffies(bbr_probe_rtt_mode_ms);
			bbr->probe_rtt_round_done = 0;
			bbr_hook_round_end(sk, c, algo);
			bbr->next_rtt_delivered = tp->delivered;
		} else if (bbr->probe_rtt_done_stamp) {
			if (bbr->round_start)
				bbr->probe_rtt_round_done = 1;
			if (bbr->probe_rtt_round_done)
				bbr_check_probe_rtt_done(sk, c, algo);
		}
	}
	if (rs->delivered > 0)
		bbr->idle_restart = 0;
}

/*
 * The pacing and cwnd gains of the current state and phase. pacing_gain is
 * the phase's gain, which the phase logic reads; the algorithm may pace at
 * another in the first round of recovery (bbr_hook_pacing_gain()).
 */
static __always_inline bool bbr_update_gains(struct sock *sk,
					     const struct bbr_ctx *c,
					     const struct rate_sample *rs,
					     const enum bbr_algo algo)
{
	struct bbr *bbr = inet_csk_ca(sk);
	u8 why = BBR_WHY_FIXED;
	u32 gain, cwnd_gain;
	bool changed;

	switch (bbr->mode) {
	case BBR_STARTUP:
		gain = bbr_high_gain;
		cwnd_gain = bbr_high_gain;
		break;
	case BBR_DRAIN:
		gain = bbr_drain_gain;
		cwnd_gain = bbr_high_gain;
		break;
	case BBR_PROBE_BW:
		if (bbr->lt_use_bw) {
			gain = BBR_UNIT;
			why = BBR_WHY_LT_BW;
		} else {
			gain = bbr_hook_probe_bw_gain(sk, c, rs, &why, algo);
		}
		cwnd_gain = bbr_cwnd_gain;
		break;
	default:	/* BBR_PROBE_RTT */
		gain = BBR_UNIT;
		cwnd_gain = BBR_UNIT;
		break;
	}
	if (bbr_hook_pacing_gain(sk, c, gain, algo) != gain)
		why = BBR_WHY_RECOVERY;
	changed = why != bbr->gain_why;
	bbr->pacing_gain = gain;
	bbr->cwnd_gain = cwnd_gain;
	bbr->gain_why = why;
	return changed;
}

/* What a bbr_a_gain event reports on: its field ev. */
enum bbr_ev {
	BBR_EV_ACK,		/* an ACK: a round start or a new reason */
	BBR_EV_RTO,		/* a retransmission timeout */
	BBR_EV_IDLE_RESTART,	/* the first send after idle, app-limited */
};

/*
 * A bbr_a_gain event, built and emitted out of line: the snapshot's code
 * stays off the per-ACK path, which only tests the tracepoint's key. It
 * takes the ACK's RTT rather than its context and reads the parameters
 * again: a context whose address left bbr_main() would stay in memory
 * there, zeroed on every ACK where the kernel initialises the stack.
 */
static noinline __cold void bbr_trace_gain_event(struct sock *sk, s32 rtt_us,
						 u8 ev, const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_a_snapshot snap = {};
	struct bbr_ctx ctx = { .rtt_us = rtt_us }, *c = &ctx;

	bbr_hook_load(c, algo);

	snap.algo = algo;
	snap.ev = ev;
	snap.mode = bbr->mode;
	snap.phase = bbr->cycle_idx;
	snap.why = bbr->gain_why;
	snap.pacing_gain = bbr_hook_pacing_gain(sk, c, bbr->pacing_gain, algo);
	snap.cwnd_gain = bbr->cwnd_gain;
	snap.rtt_us = c->rtt_us;
	snap.min_rtt_us = bbr->min_rtt_us;
	snap.bw_bps = (u64)bbr_bw(sk) * tp->mss_cache * USEC_PER_SEC * 8 >>
		      BW_SCALE;
	snap.cwnd = tcp_snd_cwnd(tp);
	snap.inflight = tcp_packets_in_flight(tp);
	snap.cwnd_limited = tp->is_cwnd_limited;
	snap.t_us = tp->tcp_mstamp;
	bbr_hook_trace(sk, c, &snap, algo);
	trace_bbr_a_gain(sk, &snap);
}

/*
 * A bbr_a_gain event: on an ACK, one per packet-timed round and one when the
 * reason for the gain changes (report); at an RTO or an idle restart,
 * always (rtt_us -1). The tracepoint's key (a patched jump where the kernel
 * has jump labels, a load where it has not, as UML) is tested only when
 * there is something to report: tracepoint_enabled() is inlined where
 * trace_bbr_a_gain_enabled() may be left a call.
 */
static __always_inline void bbr_trace_gain(struct sock *sk,
					   const struct bbr_ctx *c,
					   u8 ev, bool report,
					   const enum bbr_algo algo)
{
	if (likely(!report) || !tracepoint_enabled(bbr_a_gain))
		return;
	bbr_trace_gain_event(sk, c->rtt_us, ev, algo);
}

static __always_inline void bbr_update_model(struct sock *sk,
					     const struct bbr_ctx *c,
					     const struct rate_sample *rs,
					     const enum bbr_algo algo)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	bool changed;

	bbr_update_bw(sk, c, rs, algo);
	bbr_hook_on_ack(sk, c, rs, algo);
	bbr_update_ack_aggregation(sk, rs);
	bbr_update_cycle_phase(sk, c, rs, algo);
	bbr_check_full_bw_reached(sk, rs);
	bbr_check_drain(sk, c, algo);
	bbr_update_min_rtt(sk, c, rs, algo);
	changed = bbr_update_gains(sk, c, rs, algo);
	bbr_trace_gain(sk, c, BBR_EV_ACK, changed || bbr->round_start, algo);
}

/*
 * Called on every ACK with the rate sample it produced and the ACK's context
 * (bbr_hook_ack()).
 */
static __always_inline void bbr_main(struct sock *sk,
				     const struct rate_sample *rs,
				     const struct bbr_ctx *c,
				     const enum bbr_algo algo)
{
	struct bbr *bbr = inet_csk_ca(sk);
	u32 model_bw, bw;

	bbr_update_model(sk, c, rs, algo);

	model_bw = bbr_bw(sk);
	bw = bbr_hook_bw(sk, c, model_bw, algo);
	bbr_set_pacing_rate(sk, bbr_hook_pace_bw(sk, c, model_bw, bw, algo),
			    bbr_hook_pacing_gain(sk, c, bbr->pacing_gain, algo));
	bbr_set_cwnd(sk, c, rs, rs->acked_sacked, bw, bbr->cwnd_gain, algo);
}

static __always_inline void bbr_init(struct sock *sk, const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);

	BUILD_BUG_ON(sizeof(struct bbr) > ICSK_CA_PRIV_SIZE);
	memset(inet_csk_ca(sk), 0, ICSK_CA_PRIV_SIZE);	/* the algorithm's too */
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	bbr->next_rtt_delivered = tp->delivered;
	bbr->prev_ca_state = TCP_CA_Open;
	bbr->min_rtt_us = tcp_min_rtt(tp);
	bbr->min_rtt_stamp = tcp_jiffies32;
	bbr_a_maxfilt_reset(&bbr->bw, 0);
	bbr_init_pacing_rate_from_rtt(sk);
	bbr_reset_lt_bw_sampling(sk);
	bbr_reset_startup_mode(sk);
	bbr->ack_epoch_stamp = (u32)tp->tcp_mstamp;
	bbr_hook_init(sk, algo);

	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}

/* BBR keeps up to 2 BDP in flight plus budgets: ask for 3x sndbuf. */
static u32 bbr_sndbuf_expand(struct sock *sk)
{
	return 3;
}

/*
 * The loss that cut cwnd was spurious: keep cwnd where it is, but restart
 * full-pipe detection and long-term sampling, which that loss fed, and let
 * the algorithm take back what it did at the loss.
 */
static __always_inline u32 bbr_undo_cwnd(struct sock *sk,
					 const enum bbr_algo algo)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_ctx c = { .rtt_us = -1 };

	bbr->full_bw = 0;
	bbr->full_bw_cnt = 0;
	bbr_reset_lt_bw_sampling(sk);
	bbr_hook_load(&c, algo);
	bbr_hook_undo(sk, &c, algo);
	return tcp_snd_cwnd(tcp_sk(sk));
}

/* BBR does not use ssthresh for its own cwnd; remember cwnd for restore. */
static u32 bbr_ssthresh(struct sock *sk)
{
	bbr_save_cwnd(sk);
	return tcp_sk(sk)->snd_ssthresh;
}

/* The standard BBR diagnostics, so that ss -ti shows bbr:(bw,mrtt,...). */
static size_t bbr_get_info(struct sock *sk, u32 ext, int *attr,
			   union tcp_cc_info *info)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr *bbr = inet_csk_ca(sk);
	u64 bw;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	bw = (u64)bbr_bw(sk) * tp->mss_cache * USEC_PER_SEC >> BW_SCALE;
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = bbr->min_rtt_us;
	info->bbr.bbr_pacing_gain = bbr->pacing_gain;
	info->bbr.bbr_cwnd_gain = bbr->cwnd_gain;
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

/*
 * The first send after an idle period (tcp_ca_event CA_EVENT_TX_START, its own
 * hook since Linux 7.1). cycle_stamp and ack_epoch_stamp hold only 32 bits of
 * microseconds, whose modular difference wraps after 71.6 minutes: after 30
 * minutes of silence, app-limited or not (a zero receive window stops a
 * sender that has data), age cycle_stamp to 2^31 us ago, so that the phase
 * still counts as over however long the gap was, and start a new ACK epoch
 * (bbr_a_new_ack_epoch()). An app-limited restart starts a new ACK epoch
 * whatever the gap, and is an idle restart (trace event ev=2). A connection
 * whose data stays in flight unacknowledged for as long (RTOs backing off
 * under a long TCP_USER_TIMEOUT) sends nothing from idle and keeps its
 * epoch: the excess that epoch may then show is capped at cwnd.
 */
static __always_inline void bbr_tx_start(struct sock *sk,
					 const enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr *bbr = inet_csk_ca(sk);
	struct bbr_ctx c = { .rtt_us = -1 };
	u32 now = tcp_jiffies32, model_bw, bw;

	if (bbr->mode == BBR_PROBE_BW &&
	    bbr_a_long_idle(now, tp->lsndtime, BBR_LONG_IDLE_SEC * HZ))
		bbr->cycle_stamp = (u32)tp->tcp_mstamp - BIT(31);
	if (bbr_a_new_ack_epoch(tp->app_limited, now, tp->lsndtime,
				BBR_LONG_IDLE_SEC * HZ)) {
		bbr->ack_epoch_stamp = (u32)tp->tcp_mstamp;
		bbr->ack_epoch_acked = 0;
	}
	bbr_hook_idle_restart(sk, algo);
	if (!tp->app_limited)
		return;

	/* Restarting from idle: pace at the model's bw at most, as upstream. */
	bbr_hook_load(&c, algo);
	bbr->idle_restart = 1;
	if (bbr->mode == BBR_PROBE_BW) {
		model_bw = bbr_bw(sk);
		bw = bbr_hook_pace_bw(sk, &c, model_bw,
				      bbr_hook_bw(sk, &c, model_bw, algo), algo);
		bbr_set_pacing_rate(sk, min(bw, model_bw), BBR_UNIT);
	} else if (bbr->mode == BBR_PROBE_RTT) {
		bbr_check_probe_rtt_done(sk, &c, algo);
	}
	bbr_trace_gain(sk, &c, BBR_EV_IDLE_RESTART, true, algo);
}

/*
 * An RTO: the core treats it as the end of a round (round_start, a lossy
 * long-term sample) without moving the round's start itself; the
 * algorithm closes its loss round here, so that the losses the RTO
 * declared are judged now and not charged to the round that follows, and
 * may start the next round (bbr_a_fair does: its loss round is the core's).
 */
static __always_inline void bbr_set_state(struct sock *sk, u8 new_state,
					  const enum bbr_algo algo)
{
	struct bbr *bbr = inet_csk_ca(sk);
	struct rate_sample rs = { .losses = 1 };
	struct bbr_ctx c = { .rtt_us = -1 };

	if (new_state != TCP_CA_Loss)
		return;

	bbr_hook_load(&c, algo);
	bbr_hook_congestion(sk, &c, true, algo);
	bbr_hook_round_end(sk, &c, algo);
	bbr->prev_ca_state = TCP_CA_Loss;
	bbr->full_bw = 0;
	bbr->round_start = 1;
	bbr_lt_bw_sampling(sk, &rs);
	bbr_trace_gain(sk, &c, BBR_EV_RTO, true, algo);
}

/* ========================================================================
 * The algorithms: each header holds one algorithm's socket state, the
 * declarations of its object and its per-ACK hooks.
 * ========================================================================
 */
#include "algos/bbr_a.h"
#include "algos/bbr_a_fair.h"
#include "algos/bbq.h"
#include "algos/da_bbr.h"

/* ========================================================================
 * Hooks: where the core asks its algorithm, and BBRv1's answer otherwise.
 * algo is a constant in every caller, so each switch folds away.
 * ========================================================================
 */

/* Read the algorithm's module parameters into the ACK's context. */
static __always_inline void bbr_hook_load(struct bbr_ctx *c,
					  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A:
	case BBR_ALGO_A_FIXED:
		bbr_a_load(c);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_load(c);
		break;
	case BBR_ALGO_BBQ:
		bbq_load(c);
		break;
	case BBR_ALGO_DA_BBR:
		da_bbr_load(c);
		break;
	default:
		break;
	}
}

/*
 * A parameter was written (or the module loads): every algorithm rebuilds its
 * snapshot of the parameters its ACKs read (section "Module parameters").
 */
static void bbr_params_load(void)
{
	bbr_a_snapshot_load();
	bbr_a_fair_snapshot_load();
	bbq_snapshot_load();
	da_bbr_snapshot_load();
}

/*
 * An ACK, its context loaded: the core compiled for the algorithm, or for a
 * variant of it that the context selects. bbr_a at adaptive=0 is BBRv1 with
 * a loss round kept (bbr_a_ack()): compiled apart, its ACKs do BBRv1's work
 * and no test of the parameter beyond the one that chose it.
 */
static __always_inline void bbr_hook_ack(struct sock *sk,
					 const struct rate_sample *rs,
					 const struct bbr_ctx *c,
					 const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A:
		bbr_a_ack(sk, rs, c);
		break;
	default:
		bbr_main(sk, rs, c, algo);
		break;
	}
}

/* A new socket: the algorithm's state, after the core's. */
static __always_inline void bbr_hook_init(struct sock *sk,
					  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A:
		bbr_a_init_state(sk);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_init_state(sk);
		break;
	case BBR_ALGO_DA_BBR:
		da_bbr_init_state(sk);
		break;
	default:
		break;
	}
}

/* What the algorithm notes from every ACK, after the bw filter's update. */
static __always_inline void bbr_hook_on_ack(struct sock *sk,
					    const struct bbr_ctx *c,
					    const struct rate_sample *rs,
					    const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A:
		bbr_a_on_ack(sk, c, rs);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_on_ack(sk, c, rs);
		break;
	default:
		break;
	}
}

/*
 * A round ends (or recovery or PROBE_RTT restarts it, or an RTO fires),
 * before the core moves next_rtt_delivered to the new round; at an RTO the
 * core leaves it where it is, and the algorithm may move it.
 */
static __always_inline void bbr_hook_round_end(struct sock *sk,
					       const struct bbr_ctx *c,
					       const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A:
		bbr_a_round_end(sk, bbr_a_params(c)->adaptive,
				bbr_a_params(c)->loss_thresh);
		break;
	case BBR_ALGO_A_FIXED:
		bbr_a_fixed_round_end(sk);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_round_end(sk);
		break;
	default:
		break;
	}
}

/*
 * The gain for this PROBE_BW phase (not pacing at a policer's rate); the
 * algorithm's reason for it in *why (enum bbr_why), left BBR_WHY_FIXED if
 * it keeps BBRv1's gain.
 */
static __always_inline u32 bbr_hook_probe_bw_gain(struct sock *sk,
						  const struct bbr_ctx *c,
						  const struct rate_sample *rs,
						  u8 *why,
						  const enum bbr_algo algo)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	switch (algo) {
	case BBR_ALGO_A:
		return bbr_a_probe_bw_gain(sk, c, rs, why);
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_probe_bw_gain(sk, c, rs, why);
	default:
		return bbr_cycle_gain[bbr->cycle_idx];
	}
}

/*
 * The gain to pace at, given the phase's: the algorithm's own in the first
 * round of recovery. Called more than once per ACK: no side effects.
 */
static __always_inline u32 bbr_hook_pacing_gain(struct sock *sk,
						const struct bbr_ctx *c,
						u32 gain,
						const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		return da_bbr_pacing_gain(sk, c, gain);
	default:
		return gain;
	}
}

/* bw x min_rtt, the BDP behind every inflight target, as the algorithm sees it. */
static __always_inline u64 bbr_hook_bdp(struct sock *sk,
					const struct bbr_ctx *c, u64 w,
					const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		return da_bbr_bdp(sk, c, w);
	default:
		return w;
	}
}

/* The cwnd target before its budgets: gain x BDP in BBRv1. */
static __always_inline u32 bbr_hook_cwnd_target(struct sock *sk,
						const struct bbr_ctx *c,
						u32 bw, u32 gain,
						const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_cwnd_target(sk, c, bw, gain);
	default:
		return bbr_bdp(sk, c, bw, gain, algo);
	}
}

/*
 * End the probe-up phase now, before BBRv1's own test (at least a min_rtt,
 * and inflight at gain x BDP or a loss)?
 */
static __always_inline bool bbr_hook_probe_up_done(struct sock *sk,
						   const struct bbr_ctx *c,
						   const struct rate_sample *rs,
						   u32 elapsed_us,
						   bool full_length,
						   const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_probe_up_done(sk, full_length);
	case BBR_ALGO_BBQ:
		return bbq_probe_up_done(sk, c, rs, elapsed_us);
	default:
		return false;
	}
}

/* The cwnd target with its budgets: BBRv1's, or the algorithm's. */
static __always_inline u32 bbr_hook_cwnd_budgets(struct sock *sk,
						 const struct bbr_ctx *c,
						 u32 target, u32 bw,
						 const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_cwnd_budgets(sk, c, target, bw);
	default:
		return bbr_cwnd_budgets(sk, target);
	}
}

/* Has the min_rtt filter expired (which also begins PROBE_RTT)? */
static __always_inline bool bbr_hook_min_rtt_due(struct sock *sk,
						 const struct bbr_ctx *c,
						 const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_min_rtt_due(sk, c);
	default:
		return bbr_min_rtt_win_expired(sk);
	}
}

/*
 * Does a new, lower min_rtt restart the filter's window? BBRv1's does: the
 * filter expires 10 s after its value was taken.
 */
static __always_inline bool bbr_hook_min_rtt_restamp(struct sock *sk,
						     const struct bbr_ctx *c,
						     const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_min_rtt_restamp();
	default:
		return true;
	}
}

/* The min_rtt filter expired; min_rtt still holds the old epoch's value. */
static __always_inline void bbr_hook_min_rtt_expired(struct sock *sk,
						     const struct bbr_ctx *c,
						     const struct rate_sample *rs,
						     const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		da_bbr_min_rtt_expired(sk, rs);
		break;
	default:
		break;
	}
}

/* PROBE_RTT begins (cwnd not yet saved). */
static __always_inline void bbr_hook_probe_rtt_enter(struct sock *sk,
						     const struct bbr_ctx *c,
						     const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		da_bbr_probe_rtt_enter(sk);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_probe_rtt_enter(sk);
		break;
	default:
		break;
	}
}

/* The cwnd PROBE_RTT holds: 4 packets in BBRv1, or the algorithm's. */
static __always_inline u32 bbr_hook_probe_rtt_cwnd(struct sock *sk,
						   const struct bbr_ctx *c,
						   const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_probe_rtt_cwnd(sk, c);
	case BBR_ALGO_DA_BBR:
		return da_bbr_probe_rtt_cwnd(sk, c);
	default:
		return bbr_cwnd_min_target;
	}
}

/* The cwnd recovery starts from. */
static __always_inline u32 bbr_hook_recovery_cwnd(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 acked,
						  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		return da_bbr_recovery_cwnd(sk, c, acked);
	default:
		return bbr_recovery_cwnd(sk, acked);
	}
}

/* The cwnd of the first round of recovery. */
static __always_inline u32 bbr_hook_conserve_cwnd(struct sock *sk,
						  const struct bbr_ctx *c,
						  u32 cwnd, u32 acked,
						  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		return da_bbr_conserve_cwnd(sk, c, cwnd, acked);
	default:
		return bbr_conserve_cwnd(sk, cwnd, acked);
	}
}

/* The cwnd when recovery ends. */
static __always_inline u32 bbr_hook_recovery_end_cwnd(struct sock *sk,
						      const struct bbr_ctx *c,
						      u32 cwnd,
						      const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_DA_BBR:
		return da_bbr_recovery_end_cwnd(sk, c, cwnd);
	default:
		return bbr_recovery_end_cwnd(sk, cwnd);
	}
}

/* The bandwidth to size cwnd by (and to pace at): the model's (BBRv1), or less. */
static __always_inline u32 bbr_hook_bw(struct sock *sk,
				       const struct bbr_ctx *c, u32 bw,
				       const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_bw(sk, bw);
	default:
		return bw;
	}
}

/* The bandwidth to pace at, from the model's and bbr_hook_bw's. */
static __always_inline u32 bbr_hook_pace_bw(struct sock *sk,
					    const struct bbr_ctx *c,
					    u32 model_bw, u32 bw,
					    const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_pace_bw(sk, c, model_bw, bw);
	default:
		return bw;
	}
}

/* PROBE_RTT is over; min_rtt is the lowest RTT of its dip. */
static __always_inline void bbr_hook_probe_rtt_done(struct sock *sk,
						    const struct bbr_ctx *c,
						    const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_probe_rtt_done(sk);
		break;
	default:
		break;
	}
}

/*
 * Sending restarts with nothing in flight (TX start), app-limited or after
 * a stall of the receive window, before the pacing rate is set for it.
 */
static __always_inline void bbr_hook_idle_restart(struct sock *sk,
						  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_bound_round(sk);
		break;
	default:
		break;
	}
}

/*
 * The model moved: the max filter's bw (or the long-term bw in use) or
 * min_rtt changed on this ACK.
 */
static __always_inline void bbr_hook_model_moved(struct sock *sk,
						 const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_retarget(sk);
		break;
	default:
		break;
	}
}

/* A fast recovery begins (rto false) or an RTO fired. */
static __always_inline void bbr_hook_congestion(struct sock *sk,
						const struct bbr_ctx *c,
						bool rto,
						const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_congestion(sk, c->rtt_us, rto);
		break;
	default:
		break;
	}
}

/* The congestion event was spurious (TCP undoes its cwnd reduction). */
static __always_inline void bbr_hook_undo(struct sock *sk,
					  const struct bbr_ctx *c,
					  const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_undo(sk);
		break;
	default:
		break;
	}
}

/* The algorithm's part of a trace event. */
static __always_inline void bbr_hook_trace(struct sock *sk,
					   const struct bbr_ctx *c,
					   struct bbr_a_snapshot *snap,
					   const enum bbr_algo algo)
{
	switch (algo) {
	case BBR_ALGO_A_FIXED:
		snap->algo = BBR_ALGO_A;	/* its name's */
		fallthrough;
	case BBR_ALGO_A:
		bbr_a_trace(sk, snap);
		break;
	case BBR_ALGO_A_FAIR:
		bbr_a_fair_trace(sk, snap);
		break;
	default:
		break;
	}
}

/* ========================================================================
 * Registration: per algorithm, the hooks of tcp_congestion_ops that depend
 * on it, each the core compiled for that algorithm.
 * ========================================================================
 */
#define BBR_ALGO_WRAPPERS(fn, algo)					\
static void fn##_init(struct sock *sk)					\
{									\
	bbr_init(sk, algo);						\
}									\
static BBR_A_CONG_CONTROL(fn##_main)					\
{									\
	struct bbr_ctx c bbr_a_no_autoinit; /* bbr_hook_load() fills it */ \
									\
	c.rtt_us = rs->rtt_us;						\
	bbr_hook_load(&c, algo);					\
	bbr_hook_ack(sk, rs, &c, algo);					\
}									\
static void fn##_set_state(struct sock *sk, u8 new_state)		\
{									\
	bbr_set_state(sk, new_state, algo);				\
}									\
static void fn##_tx_start(struct sock *sk)				\
{									\
	bbr_tx_start(sk, algo);						\
}									\
static u32 fn##_undo_cwnd(struct sock *sk)				\
{									\
	return bbr_undo_cwnd(sk, algo);					\
}									\
BBR_A_DEFINE_CWND_EVENT(fn##_cwnd_event, fn##_tx_start)

BBR_ALGO_WRAPPERS(bbr_a, BBR_ALGO_A)
BBR_ALGO_WRAPPERS(bbr_a_fair, BBR_ALGO_A_FAIR)
BBR_ALGO_WRAPPERS(bbq, BBR_ALGO_BBQ)
BBR_ALGO_WRAPPERS(da_bbr, BBR_ALGO_DA_BBR)

#define BBR_OPS(algo_name, fn)						\
	{								\
		.flags		= TCP_CONG_NON_RESTRICTED,		\
		.name		= algo_name,				\
		.owner		= THIS_MODULE,				\
		.init		= fn##_init,				\
		.cong_control	= fn##_main,				\
		.set_state	= fn##_set_state,			\
		.sndbuf_expand	= bbr_sndbuf_expand,			\
		.undo_cwnd	= fn##_undo_cwnd,			\
		BBR_A_OPS_TX_START(fn##_tx_start, fn##_cwnd_event),	\
		.ssthresh	= bbr_ssthresh,				\
		BBR_A_OPS_TSO_SEGS,					\
		.get_info	= bbr_get_info,				\
	}

/*
 * The registrations, in enum bbr_algo order. bbr_a, the module's own name,
 * comes first and must register; a later name that another module holds
 * already is skipped with a warning (the module stays loaded with the
 * others), because failing the load at that point would unload a module
 * whose earlier names sockets may have taken meanwhile.
 */
static struct tcp_congestion_ops bbr_ops[BBR_ALGO_NUM] __read_mostly = {
	[BBR_ALGO_A]		= BBR_OPS("bbr_a", bbr_a),
	[BBR_ALGO_A_FAIR]	= BBR_OPS("bbr_a_fair", bbr_a_fair),
	[BBR_ALGO_BBQ]		= BBR_OPS("bbq", bbq),
	[BBR_ALGO_DA_BBR]	= BBR_OPS("da_bbr", da_bbr),
};

static bool bbr_registered[BBR_ALGO_NUM];

static int __init bbr_module_init(void)
{
	int i, err;

	BUILD_BUG_ON(sizeof(struct bbr) + BBR_PRIV_MIN > ICSK_CA_PRIV_SIZE);
	/*
	 * The defaults, if no parameter was given. The parameters' sysfs files
	 * exist already (mod_sysfs_setup() runs before the module's init): a
	 * write from there, which holds this lock, would otherwise rebuild the
	 * snapshots under this rebuild and be lost in it.
	 */
	kernel_param_lock(THIS_MODULE);
	bbr_params_load();
	kernel_param_unlock(THIS_MODULE);
	err = tcp_register_congestion_control(&bbr_ops[BBR_ALGO_A]);
	if (err)
		return err;
	bbr_registered[BBR_ALGO_A] = true;
	for (i = BBR_ALGO_A + 1; i < BBR_ALGO_NUM; i++) {
		err = tcp_register_congestion_control(&bbr_ops[i]);
		if (err)
			pr_warn("tcp_bbr_a: %s not registered (error %d): another module has the name\n",
				bbr_ops[i].name, err);
		else
			bbr_registered[i] = true;
	}
	return 0;
}

static void __exit bbr_module_exit(void)
{
	int i;

	for (i = 0; i < BBR_ALGO_NUM; i++)
		if (bbr_registered[i])
			tcp_unregister_congestion_control(&bbr_ops[i]);
}

module_init(bbr_module_init);
module_exit(bbr_module_exit);

MODULE_AUTHOR("The tcp_bbr_a authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP BBR-A (bbr_a: BBRv1 with the paper's RTT-adaptive PROBE_BW gains), bbr_a_fair (the project's own extension of BBR-A, not in the paper), and the baselines bbq and da_bbr; BBRv1 core after Cardwell et al.");
/* sysctl net.ipv4.tcp_congestion_control=NAME loads the module "tcp_NAME". */
MODULE_ALIAS("tcp_bbr_a_fair");
MODULE_ALIAS("tcp_bbq");
MODULE_ALIAS("tcp_da_bbr");
MODULE_VERSION(BBR_A_VERSION);
/* a hash of all the module's sources (Kbuild): srcversion leaves out algos/ and include/ */
MODULE_INFO(srchash, BBR_A_SRCHASH);
