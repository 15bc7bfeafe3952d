// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr_a: BBRv1 congestion control and the project's variants of it, one
 * module, one congestion-control name per algorithm.
 *
 * The core is BBRv1 (Cardwell et al., "BBR: Congestion-Based Congestion
 * Control", ACM Queue 2016): a windowed max of delivery-rate samples estimates
 * the bottleneck bandwidth, a windowed min of RTT samples the propagation
 * delay, and the sender paces at pacing_gain * bw with at most
 * cwnd_gain * bw * min_rtt in flight. A state machine picks the gains:
 *
 *   STARTUP    gains 2/ln2 until bw stops growing by 25 % for 3 rounds
 *   DRAIN      pacing gain ln2/2 until inflight is back to one BDP
 *   PROBE_BW   an eight-phase pacing gain cycle, one min_rtt per phase
 *   PROBE_RTT  cwnd of 4 packets for 200 ms when min_rtt is 10 s old
 *
 * plus long-term ("policer") bandwidth sampling, compensation for ACK
 * aggregation, packet conservation in the first round of recovery, TSO
 * sizing and cwnd restore after undo.
 *
 * Porting an upstream fix: the core keeps the function names of the kernel's
 * net/ipv4/tcp_bbr.c (bbr_update_bw, bbr_set_cwnd, bbr_lt_bw_sampling, ...)
 * and calls them in the same order from bbr_update_model() and bbr_main(), so
 * a change there maps to the function of the same name here. The text is
 * this project's own.
 *
 * The algorithms, each registered under its own name and selected per
 * socket; a socket's algorithm is fixed by bbr_init() in its state:
 *
 *   bbr_a       BBR-A (Pan, Li, Tan, Xu, Li, "RTT fairness optimization of
 *               BBR congestion control algorithm", J. Harbin Inst. Tech.
 *               54(11), 2022): the 5/4 and 3/4 phases of PROBE_BW become
 *               Pup(phi) = 3/(phi+2) and Pdown(phi) = 3/(phi-3)+2 with
 *               phi = rtt / rtt_max. Section "BBR-A". The module parameters
 *               select among the readings the paper's text allows; with
 *               adaptive=0 it is plain BBRv1.
 *   bbr_a_fair  the project's own extension of BBR-A, not in the paper.
 *               Section "BBR-A fair".
 *   bbq         the paper's baseline BBQ (Ma et al., arXiv 1706.09115):
 *               shorter probes while a queue persists. Section "BBQ".
 *   da_bbr      the paper's baseline DA-BBR (Kim and Cho, IEEE Access
 *               2020): a delay-adaptive cwnd in PROBE_BW. Section "DA-BBR".
 *
 * A new algorithm is one enum bbr_algo value, one marked section, the hooks it
 * needs in the core (each a switch on bbr->algo), and one line in bbr_ops[].
 * The gain arithmetic is in include/bbr_a_gain.h, shared with host tests.
 */

#include <linux/inet_diag.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/win_minmax.h>
#include <net/tcp.h>

#include "bbr_a_compat.h"
#include "bbr_a_gain.h"
#define CREATE_TRACE_POINTS
#include "bbr_a_trace.h"

#define BBR_A_VERSION		"0.4.0"

/* Bandwidth is kept in packets per microsecond, scaled by 2^24. */
#define BW_SCALE		24
#define BW_UNIT			BIT(BW_SCALE)

/* Gains and other fractions are scaled by 2^8. */
#define BBR_SCALE		8
#define BBR_UNIT		BIT(BBR_SCALE)

/* The algorithms this module registers, one congestion-control name each. */
enum bbr_algo {
	BBR_ALGO_A,		/* "bbr_a": BBR-A as the paper specifies it */
	BBR_ALGO_A_FAIR,	/* "bbr_a_fair": the project's extension */
	BBR_ALGO_BBQ,		/* "bbq": Ma et al.'s baseline */
	BBR_ALGO_DA_BBR,	/* "da_bbr": Kim and Cho's baseline */
	BBR_ALGO_NUM
};

enum bbr_a_mode {
	BBR_STARTUP,		/* grow the sending rate exponentially */
	BBR_DRAIN,		/* empty the queue STARTUP built */
	BBR_PROBE_BW,		/* cycle the pacing gain around bw */
	BBR_PROBE_RTT,		/* shrink inflight to re-measure min_rtt */
};

/*
 * Per-socket state. The kernel gives a congestion control ICSK_CA_PRIV_SIZE
 * (104) bytes, which BBRv1's own state fills completely. BBR-A needs three
 * more words; they come from keeping the two microsecond timestamps that BBRv1
 * holds as u64 (phase start, ACK-epoch start) as their low 32 bits, which
 * also removes the alignment hole the first u64 caused. Elapsed time is their
 * modular difference from now (bbr_a_us_since()): exact up to 71.6 minutes,
 * and an idle restart ages a stale phase stamp so that longer gaps still end
 * the phase (bbr_cwnd_event()).
 */
struct bbr_a {
	u32	min_rtt_us;		/* min RTT in the min_rtt window */
	u32	min_rtt_stamp;		/* jiffies when min_rtt_us was taken */
	u32	probe_rtt_done_stamp;	/* jiffies when PROBE_RTT may end */
	struct minmax bw;		/* max recent delivery rate, BW_UNIT */
	u32	rtt_cnt;		/* packet-timed round trips so far */
	u32	next_rtt_delivered;	/* tp->delivered when the round began */
	u32	cycle_stamp;		/* us (low 32 bits): gain phase start */
	u32	mode:2,			/* enum bbr_a_mode */
		prev_ca_state:3,	/* icsk_ca_state on the previous ACK */
		packet_conservation:1,	/* first round of recovery? */
		round_start:1,		/* did this ACK start a new round? */
		idle_restart:1,		/* restarting after an idle period? */
		probe_rtt_round_done:1,	/* a full round at 4 packets done? */
		full_bw_reached:1,	/* did STARTUP fill the pipe? */
		full_bw_cnt:2,		/* rounds without 25 % bw growth */
		cycle_idx:3,		/* phase in the PROBE_BW gain cycle */
		has_seen_rtt:1,		/* any RTT sample yet? */
		lt_is_sampling:1,	/* long-term interval under way? */
		lt_rtt_cnt:7,		/* rounds in the long-term interval */
		lt_use_bw:1,		/* pace at lt_bw (policer found)? */
		last_round_lossy:1,	/* BBR-A: last round's loss > thresh */
		algo:2,			/* enum bbr_algo, set once by bbr_init() */
		unused_a:4;
	u32	lt_bw;			/* long-term delivery rate, BW_UNIT */
	u32	lt_last_delivered;	/* tp->delivered at interval start */
	u32	lt_last_stamp;		/* ms: interval start */
	u32	lt_last_lost;		/* tp->lost at interval start */
	u32	pacing_gain:10,		/* current pacing gain, BBR_UNIT */
		cwnd_gain:10,		/* current cwnd gain, BBR_UNIT */
		gain_why:3,		/* BBR-A: enum bbr_a_why of pacing_gain */
		unused_b:9;
	u32	prior_cwnd;		/* cwnd to restore after recovery */
	u32	full_bw;		/* bw STARTUP's growth is judged by */
	u32	ack_epoch_stamp;	/* us (low 32 bits): ACK epoch start */
	u16	extra_acked[2];		/* max excess ACKed, two windows */
	u32	ack_epoch_acked:20,	/* packets (S)ACKed in the epoch */
		extra_acked_win_rtts:5,	/* age of current window, rounds */
		extra_acked_win_idx:1,	/* current extra_acked[] window */
		unused_c:6;
	/* Per-algorithm words: a socket runs one algorithm, so they share. */
	union {
		struct {			/* bbr_a, bbr_a_fair */
			u32 rtt_max_us;		/* largest RTT sample; 0: none */
			u32 rtt_max_stamp;	/* jiffies of rtt_max_us */
			u32 round_lost;		/* tp->lost at round start */
		} a;
		struct {			/* da_bbr */
			u32 prev_min_rtt_us;	/* previous epoch's min_rtt */
			s32 rtt_us;		/* this ACK's RTT; -1: none */
			u32 probe_rtt_cwnd;	/* cwnd held in PROBE_RTT */
		} da;
	};
};

/* An idle period this long may outlast the 32-bit microsecond stamps. */
#define BBR_A_LONG_IDLE_SEC	(30 * 60)

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
static const u32 bbr_cwnd_min_target = 4;	/* packets */
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

/*
 * Module parameters. Each is an unsigned int with a range; writes outside the
 * range fail with -EINVAL and leave the value unchanged. They are read once per
 * use with READ_ONCE(), so a change applies to every socket from its next ACK.
 */
struct bbr_a_param {
	unsigned int val;
	unsigned int min;
	unsigned int max;
};

static int bbr_a_param_set(const char *buf, const struct kernel_param *kp)
{
	struct bbr_a_param *p = kp->arg;
	unsigned int v;
	int err;

	err = kstrtouint(buf, 0, &v);
	if (err)
		return err;
	if (v < p->min || v > p->max)
		return -EINVAL;
	WRITE_ONCE(p->val, v);
	return 0;
}

static int bbr_a_param_get(char *buf, const struct kernel_param *kp)
{
	const struct bbr_a_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(p->val));
}

static const struct kernel_param_ops bbr_a_param_ops = {
	.set = bbr_a_param_set,
	.get = bbr_a_param_get,
};

#define BBR_A_PARAM(name, def, lo, hi, desc)				\
	static struct bbr_a_param bbr_a_##name = {			\
		.val = (def), .min = (lo), .max = (hi),			\
	};								\
	module_param_cb(name, &bbr_a_param_ops, &bbr_a_##name, 0644);	\
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi ", default " #def "]")

/*
 * bbr_a: the readings of the paper. Each default is the reading the README
 * argues for; the alternatives are there to measure, with the paper's words
 * each one rests on in the README's "BBR-A as implemented".
 */
BBR_A_PARAM(adaptive, 1, 0, 1,
	    "bbr_a: 1 BBR-A's adaptive PROBE_BW gains; 0 BBRv1's fixed 5/4 and 3/4");
BBR_A_PARAM(rtt_max_scope, 0, 0, 1,
	    "bbr_a: rtt_max taken in 0 every state incl. STARTUP (per-ACK update) or 1 PROBE_BW only (Algorithm 1 is the ProbeBW state)");
BBR_A_PARAM(rtt_max_win_sec, 0, 0, 600,
	    "bbr_a: seconds an rtt_max sample is kept (0: connection lifetime, as the paper)");
BBR_A_PARAM(gate_signal, 0, 0, 1,
	    "bbr_a: queue test of both probe phases: 0 inflight > inflight_thresh x own BDP (Algorithm 1), 1 rtt - min_rtt > queue_thresh_us (shared delay)");
BBR_A_PARAM(inflight_thresh, 320, 256, 1024,
	    "bbr_a: queue threshold for gate_signal=0, in BDP x 256 (320 = 1.25 BDP)");
BBR_A_PARAM(queue_thresh_us, 2000, 0, 1000000,
	    "bbr_a: queueing delay threshold for gate_signal=1, us");
BBR_A_PARAM(probe_up_hold, 1, 0, 1,
	    "bbr_a: probe-up phase while the queue test is true: 1 hold at gain 1 (paper), 0 Pup anyway (BBRv1 always probes)");
BBR_A_PARAM(loss_thresh, 20, 0, 1000,
	    "bbr_a, bbr_a_fair: probe-down loss threshold, lost per mille of a round's packets");
BBR_A_PARAM(probe_down_and, 0, 0, 1,
	    "bbr_a: probe down when queue AND loss (1, paper's prose) or queue OR loss (0, pseudo-code)");

/* bbr_a_fair: see the section "BBR-A fair". */
BBR_A_PARAM(fair_queue_us, 2000, 100, 100000,
	    "bbr_a_fair: shared queueing delay (rtt - min_rtt) above which phase 0 holds and phase 1 drains, us");
BBR_A_PARAM(fair_probe_hold, 0, 0, 1,
	    "bbr_a_fair: probe-up phase while queued: 1 hold at gain 1, 0 Pup anyway");
BBR_A_PARAM(fair_cwnd_probe, 0, 0, 1,
	    "bbr_a_fair: 1 the cwnd target scales min_rtt by a probing gain; 0 probing only fills the queueing allowance");
BBR_A_PARAM(fair_cwnd_queue_us, 5000, 0, 1000000,
	    "bbr_a_fair: PROBE_BW cwnd target bw x (min_rtt + this), us, the same queueing time for every flow; 0: BBRv1's 2 x bw x min_rtt");
BBR_A_PARAM(fair_cwnd_pkts, 32, 0, 10000,
	    "bbr_a_fair: packets added to the PROBE_BW cwnd target, the same number for every flow (Vegas' alpha)");

/* bbr_a_fair's probe gains (fair_gains) */
enum {
	BBR_A_FAIR_GAINS_PHI,	/* Pup/Pdown of phi = rtt / rtt_max (0.3.0) */
	BBR_A_FAIR_GAINS_BBR1,	/* BBRv1's 5/4 and 3/4 */
	BBR_A_FAIR_GAINS_QUEUE,	/* Pup/Pdown of the queueing delays' phi */
};

BBR_A_PARAM(fair_gains, 2, 0, 2,
	    "bbr_a_fair: probe gains: 0 Pup/Pdown of rtt / rtt_max (0.3.0), 1 BBRv1's 5/4 and 3/4, 2 Pup/Pdown of the queueing delays (rtt - min_rtt) / (rtt_max - min_rtt)");

/* bbq and da_bbr: see their sections. */
BBR_A_PARAM(bbq_alpha_us, 3000, 0, 1000000,
	    "bbq: longest probe-up phase while a queue persists, us (paper: 3 ms); 0: BBQ off, plain BBRv1");
BBR_A_PARAM(bbq_beta_pm, 10, 0, 1000,
	    "bbq: a queue persists while rtt > (1 + this / 1000) x min_rtt (paper: 5..10)");
BBR_A_PARAM(da_enable, 1, 0, 1,
	    "da_bbr: 1 DA-BBR's changes; 0 plain BBRv1");
BBR_A_PARAM(da_guard_pct, 20, 0, 1000,
	    "da_bbr: no BDP scaling while min_rtt exceeds the previous epoch's by more than this percent");

#define bbr_a_param_val(name)	READ_ONCE(bbr_a_##name.val)

static void bbr_check_probe_rtt_done(struct sock *sk);

/*
 * Microseconds from a stamp kept as the low 32 bits of a tcp_mstamp to now_us:
 * the modular difference, exact for intervals below 2^32 us (71.6 minutes).
 * Stamps are only ever taken from clocks that have not passed now_us yet.
 */
static u32 bbr_a_us_since(u64 now_us, u32 stamp)
{
	return (u32)now_us - stamp;
}

static bool bbr_full_bw_reached(const struct sock *sk)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	return bbr->full_bw_reached;
}

/* The windowed max delivery rate, BW_UNIT packets per us. */
static u32 bbr_max_bw(const struct sock *sk)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	return minmax_get(&bbr->bw);
}

/* The bandwidth the model uses: the policer's rate once one was found. */
static u32 bbr_bw(const struct sock *sk)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	return bbr->lt_use_bw ? bbr->lt_bw : bbr_max_bw(sk);
}

/* Excess data ACKed beyond bw, max over the last 5..10 rounds. */
static u16 bbr_extra_acked(const struct sock *sk)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

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
	struct bbr_a *bbr = inet_csk_ca(sk);
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
	struct bbr_a *bbr = inet_csk_ca(sk);
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
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr->prev_ca_state < TCP_CA_Recovery && bbr->mode != BBR_PROBE_RTT)
		bbr->prior_cwnd = tcp_snd_cwnd(tp);
	else	/* cwnd is cut right now: keep the larger, older value */
		bbr->prior_cwnd = max(bbr->prior_cwnd, tcp_snd_cwnd(tp));
}

static void bbr_cwnd_event(struct sock *sk, enum tcp_ca_event event)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (event != CA_EVENT_TX_START)
		return;

	/*
	 * The first send after an idle period. cycle_stamp holds only 32 bits
	 * of microseconds: after 30 minutes of silence, age it to 2^31 us ago,
	 * so that the phase still counts as over however long the gap was (the
	 * modular difference would wrap after 71.6 minutes).
	 */
	if (tcp_jiffies32 - tp->lsndtime >= BBR_A_LONG_IDLE_SEC * HZ)
		bbr->cycle_stamp = (u32)tp->tcp_mstamp - BIT(31);
	if (!tp->app_limited)
		return;

	/* Restarting from idle: start a new ACK epoch, and do not overshoot. */
	bbr->idle_restart = 1;
	bbr->ack_epoch_stamp = (u32)tp->tcp_mstamp;
	bbr->ack_epoch_acked = 0;
	if (bbr->mode == BBR_PROBE_BW)
		bbr_set_pacing_rate(sk, bbr_bw(sk), BBR_UNIT);
	else if (bbr->mode == BBR_PROBE_RTT)
		bbr_check_probe_rtt_done(sk);
}

/* ========================================================================
 * BBQ (algorithm bbq; Ma, Jiang, Wang, Li, arXiv 1706.09115): a flow's 5/4
 * probe lasts one of its own min_rtts, so a long-RTT flow pushes more excess
 * data into a queue per probe. While a queue persists, RTT > (1 + beta) x
 * min_rtt, BBQ ends the probe-up phase after min(alpha, min_rtt), alpha =
 * 3 ms, whether or not inflight reached 5/4 BDP. Everything else is BBRv1.
 * bbq_alpha_us=0 switches it off.
 * ========================================================================
 */

/* Does a persistent queue end this probe-up phase after elapsed_us? */
static bool bbq_probe_done(struct sock *sk, const struct rate_sample *rs,
			   u32 elapsed_us)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u32 alpha = bbr_a_param_val(bbq_alpha_us);
	u64 beta = bbr_a_param_val(bbq_beta_pm);

	if (!alpha || rs->rtt_us < 0 ||
	    (u64)rs->rtt_us * 1000 <= (u64)bbr->min_rtt_us * (1000 + beta))
		return false;
	return elapsed_us > min(alpha, bbr->min_rtt_us);
}

/* ========================== end of BBQ (bbq) =========================== */

/* ========================================================================
 * DA-BBR (algorithm da_bbr; Kim and Cho, IEEE Access 8:4099, 2020):
 *  - in PROBE_BW the BDP behind the cwnd target and the phase checks is
 *    scaled by rtt / (rtt + min_rtt), rtt this ACK's sample (0.5 .. 1);
 *  - not while min_rtt exceeds the previous epoch's by more than 20 % (a
 *    path change); the epoch's min_rtt is noted when the filter expires;
 *  - PROBE_RTT holds cwnd / 3 (at least 4 packets) instead of 4 packets;
 *  - recovery starts from the packets in flight, conserves packets without
 *    the extra ACKed, paces at 3/4 in that round, and does not restore the
 *    cwnd from before recovery when it ends.
 * da_enable=0 switches it off.
 * ========================================================================
 */

static bool bbr_da_on(const struct bbr_a *bbr)
{
	return bbr->algo == BBR_ALGO_DA_BBR && bbr_a_param_val(da_enable);
}

/* w = bw x min_rtt, scaled in PROBE_BW unless the path changed. */
static u64 bbr_da_scale_bdp(const struct bbr_a *bbr, u64 w)
{
	u64 guard = 100 + bbr_a_param_val(da_guard_pct);
	u32 rtt = bbr->da.rtt_us;

	if (bbr->mode != BBR_PROBE_BW || bbr->da.rtt_us <= 0 ||
	    (u64)bbr->min_rtt_us * 100 > (u64)bbr->da.prev_min_rtt_us * guard)
		return w;
	return div64_u64(w * rtt, (u64)rtt + bbr->min_rtt_us);
}

/* The min_rtt filter is about to take a new epoch's value. */
static void bbr_da_min_rtt_expired(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_PROBE_BW && rs->rtt_us >= 0)
		bbr->da.prev_min_rtt_us = bbr->min_rtt_us;
}

/* ======================= end of DA-BBR (da_bbr) ======================== */

/* The cwnd PROBE_RTT holds: 4 packets, or da_bbr's third of the cwnd. */
static u32 bbr_probe_rtt_cwnd(const struct bbr_a *bbr)
{
	return bbr_da_on(bbr) ? bbr->da.probe_rtt_cwnd : bbr_cwnd_min_target;
}

/*
 * ceil(gain * bw * min_rtt) in packets; rounding up keeps an estimate from
 * shrinking itself. Without an RTT sample, the initial window is the safe cap.
 */
static u32 bbr_bdp(struct sock *sk, u32 bw, u32 gain)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u64 w;

	if (unlikely(bbr->min_rtt_us == ~0U))
		return TCP_INIT_CWND;

	w = (u64)bw * bbr->min_rtt_us;
	if (bbr_da_on(bbr))
		w = bbr_da_scale_bdp(bbr, w);
	return (((w * gain) >> BBR_SCALE) + BW_UNIT - 1) / BW_UNIT;
}

/*
 * Room for quantisation: three TSO bursts (sender qdisc, sender NIC, receiver
 * GRO/delayed ACK), rounded up to an even count to discourage delayed ACKs,
 * and two packets more while probing up so that small BDPs still probe.
 */
static u32 bbr_quantization_budget(struct sock *sk, u32 cwnd)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	cwnd += 3 * bbr_tso_segs_goal(sk);
	cwnd = (cwnd + 1) & ~1U;
	if (bbr->mode == BBR_PROBE_BW && bbr->cycle_idx == 0)
		cwnd += 2;
	return cwnd;
}

static u32 bbr_inflight(struct sock *sk, u32 bw, u32 gain)
{
	return bbr_quantization_budget(sk, bbr_bdp(sk, bw, gain));
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
	const struct bbr_a *bbr = inet_csk_ca(sk);
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

/*
 * Estimate how much data ACKs deliver beyond what bw predicts over an epoch;
 * a receiver or link that batches ACKs needs that much more cwnd to keep
 * sending between batches.
 */
static void bbr_update_ack_aggregation(struct sock *sk,
				       const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);
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

	epoch_us = bbr_a_us_since(tp->delivered_mstamp, bbr->ack_epoch_stamp);
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

/* ========================================================================
 * BBR-A (algorithm bbr_a). The adaptive PROBE_BW gains: four functions and
 * three words of state, rtt_max_us/rtt_max_stamp (phi's denominator) and
 * round_lost/last_round_lossy (the loss rate of the probe-down test), plus
 * gain_why, which records for the traces why pacing_gain is what it is.
 * bbr_a_fair reuses this section with its own fixed reading (see below).
 * ========================================================================
 */

/* Why pacing_gain has its value: reported by the bbr_a_gain tracepoint. */
enum bbr_a_why {
	BBR_A_WHY_FIXED,	/* BBRv1's gain: not a BBR-A phase, or off */
	BBR_A_WHY_PROBE,	/* phase 0, no queue: Pup */
	BBR_A_WHY_HOLD,		/* phase 0, queue: gain 1 */
	BBR_A_WHY_DRAIN,	/* phase 1, queue: Pdown */
	BBR_A_WHY_LOSSY,	/* phase 1, loss without a queue: Pdown */
	BBR_A_WHY_CRUISE,	/* phase 1, neither: gain 1 */
	BBR_A_WHY_LT_BW,	/* pacing at the policer's rate, no cycle */
};

static bool bbr_a_is_fair(const struct bbr_a *bbr)
{
	return bbr->algo == BBR_ALGO_A_FAIR;
}

/*
 * Track rtt_max, the largest RTT this flow has seen: in every state or only in
 * PROBE_BW, for the connection's lifetime or refreshed from the current
 * sample once it is win_sec old. Samples from ACKs that may have been delayed
 * by the receiver are skipped: a delayed ACK measures the receiver's timer,
 * not the path, and one such sample would pin phi low for a lifetime.
 */
static void bbr_a_update_rtt_max(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);
	bool fair = bbr_a_is_fair(bbr);
	u32 win_sec;
	bool expired;

	if (rs->rtt_us < 0 || rs->is_ack_delayed)
		return;
	if ((fair || bbr_a_param_val(rtt_max_scope)) &&
	    bbr->mode != BBR_PROBE_BW)
		return;

	win_sec = fair ? bbr_min_rtt_win_sec : bbr_a_param_val(rtt_max_win_sec);
	expired = win_sec &&
		  after(tcp_jiffies32, bbr->a.rtt_max_stamp + win_sec * HZ);
	if ((u32)rs->rtt_us > bbr->a.rtt_max_us || expired) {
		bbr->a.rtt_max_us = (u32)rs->rtt_us;
		bbr->a.rtt_max_stamp = tcp_jiffies32;
	}
}

/*
 * A packet-timed round is ending (or recovery or PROBE_RTT restarts the round
 * count): judge its loss rate and start counting losses afresh. Call before
 * next_rtt_delivered moves to the new round. A round in which nothing was
 * delivered or lost (the second call on one ACK) keeps the verdict it had.
 */
static void bbr_a_end_loss_round(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr->algo != BBR_ALGO_A && bbr->algo != BBR_ALGO_A_FAIR)
		return;

	bbr->last_round_lossy =
		bbr_a_round_lossy(bbr->last_round_lossy,
				  tp->lost - bbr->a.round_lost,
				  tp->delivered - bbr->next_rtt_delivered,
				  bbr_a_param_val(loss_thresh));
	bbr->a.round_lost = tp->lost;
}

/* The paper's has_loss: the last round, or this one so far, lost too much. */
static bool bbr_a_lossy(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_a *bbr = inet_csk_ca(sk);

	return bbr->last_round_lossy ||
	       bbr_a_loss_rate_high(tp->lost - bbr->a.round_lost,
				    tp->delivered - bbr->next_rtt_delivered,
				    bbr_a_param_val(loss_thresh));
}

/*
 * The queue test of both probe phases, as a level and a threshold: phase 0
 * probes while level < thresh, phase 1 drains while level > thresh. The
 * paper's signal is inflight against 1.25 x the flow's own BDP (BBR's
 * estimate max_bw * min_rtt; inflight counted at the next departure, as BBR's
 * phase logic counts it). The alternative is the queueing delay this ACK saw,
 * rtt - min_rtt, against a fixed time: one queue, one delay for every flow.
 */
static void bbr_a_queue_test(struct sock *sk, const struct rate_sample *rs,
			     u32 rtt_us, u32 *level, u32 *thresh)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr_a_is_fair(bbr) || bbr_a_param_val(gate_signal)) {
		*level = rtt_us;
		*thresh = bbr->min_rtt_us +
			  (bbr_a_is_fair(bbr) ? bbr_a_param_val(fair_queue_us) :
			   bbr_a_param_val(queue_thresh_us));
		return;
	}
	*level = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);
	*thresh = bbr_bdp(sk, bbr_max_bw(sk), bbr_a_param_val(inflight_thresh));
}

/*
 * Pacing gain for PROBE_BW phase cycle_idx, recomputed on every ACK, and the
 * reason for it in gain_why. Phases 2..7, adaptive=0, and a flow without an
 * RTT sample get BBRv1's gains.
 */
static u32 bbr_a_probe_bw_gain(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);
	bool fair = bbr_a_is_fair(bbr);
	u32 rtt_us, rtt_max, level, thresh, gains;
	bool queued, lossy;

	if (bbr->cycle_idx > 1 || !bbr->a.rtt_max_us ||
	    (!fair && !bbr_a_param_val(adaptive))) {
		bbr->gain_why = BBR_A_WHY_FIXED;
		return bbr_cycle_gain[bbr->cycle_idx];
	}

	/* phi's numerator: this ACK's RTT, or srtt if it carries none. */
	rtt_us = rs->rtt_us >= 0 ? (u32)rs->rtt_us : tp->srtt_us >> 3;
	bbr_a_queue_test(sk, rs, rtt_us, &level, &thresh);
	rtt_max = bbr->a.rtt_max_us;
	gains = fair ? bbr_a_param_val(fair_gains) : BBR_A_FAIR_GAINS_PHI;
	if (gains == BBR_A_FAIR_GAINS_QUEUE)
		bbr_a_queue_phi(&rtt_us, &rtt_max, bbr->min_rtt_us);

	if (bbr->cycle_idx == 0) {
		if (level < thresh ||
		    !(fair ? bbr_a_param_val(fair_probe_hold) :
			     bbr_a_param_val(probe_up_hold))) {
			bbr->gain_why = BBR_A_WHY_PROBE;
			if (gains == BBR_A_FAIR_GAINS_BBR1)
				return BBR_A_BBR1_GAIN_UP;
			return bbr_a_gain_up(rtt_us, rtt_max);
		}
		bbr->gain_why = BBR_A_WHY_HOLD;
		return BBR_UNIT;
	}

	queued = level > thresh;
	lossy = bbr_a_lossy(sk);
	if (!fair && bbr_a_param_val(probe_down_and) ? queued && lossy :
						      queued || lossy) {
		bbr->gain_why = queued ? BBR_A_WHY_DRAIN : BBR_A_WHY_LOSSY;
		if (gains == BBR_A_FAIR_GAINS_BBR1)
			return BBR_A_BBR1_GAIN_DOWN;
		return bbr_a_gain_down(rtt_us, rtt_max);
	}
	bbr->gain_why = BBR_A_WHY_CRUISE;
	return BBR_UNIT;
}

/* ======================== end of BBR-A (bbr_a) ======================== */

/* ========================================================================
 * BBR-A fair (algorithm bbr_a_fair): the project's extension of BBR-A; not
 * in the paper. The traces (docs/fairness.md) show why bbr_a is not RTT-fair
 * on Linux: in a deep buffer the short-RTT flow is cwnd-limited nearly all
 * the time and the long-RTT flow almost never. BBRv1's cwnd target,
 * 2 x bw x min_rtt, lets each flow keep one more min_rtt of data in flight,
 * i.e. queue for as long as its own RTT: a 50 ms flow may hold five times the
 * queueing time a 10 ms flow may, and a shared queue then starves the short
 * flow whatever the pacing gains do. bbr_a_fair keeps the shape of
 * Pup/Pdown and changes:
 *  - the cwnd target in PROBE_BW: bw x (min_rtt + fair_cwnd_queue_us) +
 *    fair_cwnd_pkts, the same queueing time and the same number of queued
 *    packets for every flow (5 ms and 32 by default). With the time term
 *    alone, flows whose caps bind share a queue Q = Qa in any split, and
 *    the short flow's max filter, 10 of its short rounds, sheds bandwidth
 *    faster whenever Q > Qa: the split drifts to the long flow. With the
 *    packet term each flow queues alpha = x x (Q - Qa) packets, so x is
 *    the same for all (Vegas' equilibrium). Probing only fills the
 *    allowance (fair_cwnd_probe=1 scales min_rtt by the gain);
 *  - phase 0 always probes with Pup (fair_probe_hold=1: hold while queued);
 *  - phase 1 drains with Pdown while the queueing delay this ACK saw,
 *    rtt - min_rtt, exceeds fair_queue_us (one signal every flow on the
 *    bottleneck sees alike), or the flow is lossy;
 *  - rtt_max is taken in PROBE_BW only and refreshed every 10 s (the min_rtt
 *    window), so the STARTUP queue does not fix phi for a lifetime;
 *  - phi is the queueing delays' ratio, (rtt - min_rtt) / (rtt_max - min_rtt)
 *    (fair_gains=2; 0.4.0), not rtt / rtt_max. For one queue q, BBR-A's phi
 *    is (d + q) / (d + q_max): nearer 1 the longer the base RTT d, so the
 *    long flow always probes up less and drains more. Under BBRv1's cwnd
 *    that offsets its larger queue share; under the cap above, which already
 *    removes that share, it hands bandwidth to the short flow whenever the
 *    caps do not bind: with random loss (Jain 0.82 at 6 %) and in shallow
 *    buffers (0.92 at 0.1 BDP). Flows on one bottleneck see one queue and
 *    so nearly one queueing delays' phi, whatever their base RTTs.
 * ========================================================================
 */

/*
 * The PROBE_BW cwnd target before budgets, in packets: one BDP (or, with
 * fair_cwnd_probe, pacing_gain x BDP while probing up) plus
 * fair_cwnd_queue_us of queueing time at bw, the same for every flow, plus
 * fair_cwnd_pkts packets. Other states, and both allowances 0, keep BBRv1's
 * gain x BDP.
 */
static u32 bbr_a_fair_cwnd_bdp(struct sock *sk, u32 bw, u32 gain)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u32 queue_us = bbr_a_param_val(fair_cwnd_queue_us);
	u32 pkts = bbr_a_param_val(fair_cwnd_pkts);
	u64 w;

	if ((!queue_us && !pkts) || bbr->mode != BBR_PROBE_BW ||
	    unlikely(bbr->min_rtt_us == ~0U))
		return bbr_bdp(sk, bw, gain);

	w = bbr->min_rtt_us;
	if (bbr_a_param_val(fair_cwnd_probe))
		w = w * max_t(u32, bbr->pacing_gain, BBR_UNIT) >> BBR_SCALE;
	w += queue_us;
	return DIV_ROUND_UP_ULL(w * bw, BW_UNIT) + pkts;
}

/*
 * Has bbr_a_fair's probe-up phase done all the cwnd lets it do? BBRv1 ends
 * the phase once inflight reaches pacing_gain x BDP, below its 2 BDP cap.
 * bbr_a_fair's cap, BDP + Qa x bw + alpha, is little more than the BDP for a
 * long-RTT flow, and a probe that waits for an inflight the cap forbids
 * never ends: phase 0 then lasts until a loss and the flow never reaches
 * its drain phase (the 100 ms flow of the 10 vs 100 ms traces, for seconds
 * at a time). So the phase also ends once the flow is cwnd-limited.
 */
static bool bbr_a_fair_probe_capped(struct sock *sk)
{
	return tcp_sk(sk)->is_cwnd_limited;
}

/* ====================== end of BBR-A fair (bbr_a_fair) ================== */

/* The cwnd target's BDP part: gain * BDP in BBRv1 and bbr_a. */
static u32 bbr_cwnd_bdp(struct sock *sk, u32 bw, u32 gain)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	switch (bbr->algo) {
	case BBR_ALGO_A_FAIR:
		return bbr_a_fair_cwnd_bdp(sk, bw, gain);
	default:
		return bbr_bdp(sk, bw, gain);
	}
}

/*
 * Packet conservation in the first round of recovery (send one packet per
 * packet delivered), slow start toward the target after it, and the saved cwnd
 * restored when recovery ends. Returns true while conserving packets.
 */
static bool bbr_set_cwnd_to_recover_or_restore(struct sock *sk,
					       const struct rate_sample *rs,
					       u32 acked, u32 *new_cwnd)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);
	u8 prev_state = bbr->prev_ca_state;
	u8 state = inet_csk(sk)->icsk_ca_state;
	u32 cwnd = tcp_snd_cwnd(tp);
	bool da = bbr_da_on(bbr);

	/* Lost packets left the network: take them out of cwnd first. */
	if (rs->losses > 0)
		cwnd = max_t(s32, cwnd - rs->losses, 1);

	if (state == TCP_CA_Recovery && prev_state != TCP_CA_Recovery) {
		/* Recovery begins: conserve packets for one round, from now. */
		bbr->packet_conservation = 1;
		bbr_a_end_loss_round(sk);
		bbr->next_rtt_delivered = tp->delivered;
		/* Drop cwnd that TSQ, TSO deferral or the app left unused. */
		cwnd = da ? max(tcp_packets_in_flight(tp), 1U) :
			    tcp_packets_in_flight(tp) + acked;
	} else if (prev_state >= TCP_CA_Recovery && state < TCP_CA_Recovery) {
		/* Recovery is over: go back to the cwnd we had before. */
		if (!da)
			cwnd = max(cwnd, bbr->prior_cwnd);
		bbr->packet_conservation = 0;
	}
	bbr->prev_ca_state = state;

	if (bbr->packet_conservation) {
		*new_cwnd = da ? cwnd :
			    max(cwnd, tcp_packets_in_flight(tp) + acked);
		return true;
	}
	*new_cwnd = cwnd;
	return false;
}

/*
 * Move cwnd toward gain * BDP (plus aggregation and quantisation budgets):
 * grow by what was ACKed, and once the pipe was full, cut straight down.
 */
static void bbr_set_cwnd(struct sock *sk, const struct rate_sample *rs,
			 u32 acked, u32 bw, u32 gain)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp), target;

	if (acked && !bbr_set_cwnd_to_recover_or_restore(sk, rs, acked,
							 &cwnd)) {
		target = bbr_cwnd_bdp(sk, bw, gain) +
			 bbr_ack_aggregation_cwnd(sk);
		target = bbr_quantization_budget(sk, target);

		if (bbr_full_bw_reached(sk))
			cwnd = min(cwnd + acked, target);
		else if (cwnd < target || tp->delivered < TCP_INIT_CWND)
			cwnd = cwnd + acked;
		cwnd = max(cwnd, bbr_cwnd_min_target);
	}

	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	if (bbr->mode == BBR_PROBE_RTT)
		tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp),
					 bbr_probe_rtt_cwnd(bbr)));
}

/*
 * Should PROBE_BW move to its next phase? Cruising phases last one min_rtt.
 * Probing up lasts at least one min_rtt and until inflight reaches
 * gain * BDP or packets are lost; probing down ends after one min_rtt or as
 * soon as inflight is back to one BDP.
 */
static bool bbr_is_next_cycle_phase(struct sock *sk,
				    const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u32 elapsed = bbr_a_us_since(tp->delivered_mstamp, bbr->cycle_stamp);
	bool full_length = elapsed > bbr->min_rtt_us;
	u32 inflight, bw;

	if (bbr->pacing_gain == BBR_UNIT)
		return full_length;
	if (bbr->algo == BBR_ALGO_BBQ && bbr->pacing_gain > BBR_UNIT &&
	    bbq_probe_done(sk, rs, elapsed))
		return true;

	inflight = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);
	bw = bbr_max_bw(sk);

	if (bbr->pacing_gain > BBR_UNIT)
		return full_length &&
		       (rs->losses ||
			inflight >= bbr_inflight(sk, bw, bbr->pacing_gain) ||
			(bbr_a_is_fair(bbr) && bbr_a_fair_probe_capped(sk)));

	return full_length || inflight <= bbr_inflight(sk, bw, BBR_UNIT);
}

static void bbr_advance_cycle_phase(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);

	bbr->cycle_idx = (bbr->cycle_idx + 1) & (CYCLE_LEN - 1);
	bbr->cycle_stamp = (u32)tp->delivered_mstamp;
}

static void bbr_update_cycle_phase(struct sock *sk,
				   const struct rate_sample *rs)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_PROBE_BW && bbr_is_next_cycle_phase(sk, rs))
		bbr_advance_cycle_phase(sk);
}

/* STARTUP's gains are set here too, so get_info reports them before an ACK. */
static void bbr_reset_startup_mode(struct sock *sk)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

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
	struct bbr_a *bbr = inet_csk_ca(sk);

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
	struct bbr_a *bbr = inet_csk_ca(sk);

	bbr->lt_rtt_cnt = 0;
	bbr->lt_last_lost = tp->lost;
	bbr->lt_last_delivered = tp->delivered;
	bbr->lt_last_stamp = (u32)div_u64(tp->delivered_mstamp, USEC_PER_MSEC);
}

/* Forget any policer: no long-term rate, not using one, not sampling. */
static void bbr_reset_lt_bw_sampling(struct sock *sk)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

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
	struct bbr_a *bbr = inet_csk_ca(sk);
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
	struct bbr_a *bbr = inet_csk_ca(sk);
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
static void bbr_update_bw(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);
	u64 bw;

	bbr->round_start = 0;
	if (rs->delivered < 0 || rs->interval_us <= 0)
		return;

	/* A round ends when a packet sent after it began is delivered. */
	if (!before(rs->prior_delivered, bbr->next_rtt_delivered)) {
		bbr_a_end_loss_round(sk);
		bbr->next_rtt_delivered = tp->delivered;
		bbr->rtt_cnt++;
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
		minmax_running_max(&bbr->bw, bbr_bw_rtts, bbr->rtt_cnt, bw);
}

/* STARTUP is over once max bw grew by less than 25 % for three rounds. */
static void bbr_check_full_bw_reached(struct sock *sk,
				      const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);
	u32 bw_thresh;

	if (bbr_full_bw_reached(sk) || !bbr->round_start || rs->is_app_limited)
		return;

	bw_thresh = (u64)bbr->full_bw * bbr_full_bw_thresh >> BBR_SCALE;
	if (bbr_max_bw(sk) >= bw_thresh) {
		bbr->full_bw = bbr_max_bw(sk);
		bbr->full_bw_cnt = 0;
		return;
	}
	++bbr->full_bw_cnt;
	bbr->full_bw_reached = bbr->full_bw_cnt >= bbr_full_bw_cnt;
}

/* STARTUP -> DRAIN when the pipe is full; DRAIN -> PROBE_BW at one BDP. */
static void bbr_check_drain(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_STARTUP && bbr_full_bw_reached(sk)) {
		bbr->mode = BBR_DRAIN;
		tcp_sk(sk)->snd_ssthresh =
			bbr_inflight(sk, bbr_max_bw(sk), BBR_UNIT);
	}
	if (bbr->mode == BBR_DRAIN &&
	    bbr_packets_in_net_at_edt(sk, tcp_packets_in_flight(tcp_sk(sk))) <=
	    bbr_inflight(sk, bbr_max_bw(sk), BBR_UNIT))
		bbr_reset_probe_bw_mode(sk);
}

/* Leave PROBE_RTT once its 200 ms (and one round) at 4 packets are done. */
static void bbr_check_probe_rtt_done(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);

	if (!bbr->probe_rtt_done_stamp ||
	    !after(tcp_jiffies32, bbr->probe_rtt_done_stamp))
		return;

	bbr->min_rtt_stamp = tcp_jiffies32;	/* next PROBE_RTT in 10 s */
	tcp_snd_cwnd_set(tp, max(tcp_snd_cwnd(tp), bbr->prior_cwnd));
	bbr_reset_mode(sk);
}

/*
 * The min_rtt filter: a new minimum, or any sample once the current one is
 * 10 s old (but not from a possibly delayed ACK), replaces it. An expired
 * filter also sends the flow to PROBE_RTT, unless it is just back from idle.
 */
static void bbr_update_min_rtt(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);
	bool expired;

	expired = after(tcp_jiffies32,
			bbr->min_rtt_stamp + bbr_min_rtt_win_sec * HZ);
	if (expired && bbr_da_on(bbr))
		bbr_da_min_rtt_expired(sk, rs);
	if (rs->rtt_us >= 0 &&
	    (rs->rtt_us < bbr->min_rtt_us ||
	     (expired && !rs->is_ack_delayed))) {
		bbr->min_rtt_us = rs->rtt_us;
		bbr->min_rtt_stamp = tcp_jiffies32;
	}

	if (bbr_probe_rtt_mode_ms > 0 && expired && !bbr->idle_restart &&
	    bbr->mode != BBR_PROBE_RTT) {
		bbr->mode = BBR_PROBE_RTT;
		if (bbr_da_on(bbr))
			bbr->da.probe_rtt_cwnd = max(tcp_snd_cwnd(tp) / 3,
						     bbr_cwnd_min_target);
		bbr_save_cwnd(sk);
		bbr->probe_rtt_done_stamp = 0;
	}

	if (bbr->mode == BBR_PROBE_RTT) {
		/* Keep bw samples from this dip out of the bw filter. */
		tp->app_limited =
			(tp->delivered + tcp_packets_in_flight(tp)) ? : 1;
		if (!bbr->probe_rtt_done_stamp &&
		    tcp_packets_in_flight(tp) <= bbr_probe_rtt_cwnd(bbr)) {
			/* At 4 packets: hold for 200 ms and one round. */
			bbr->probe_rtt_done_stamp = tcp_jiffies32 +
				msecs_to_jiffies(bbr_probe_rtt_mode_ms);
			bbr->probe_rtt_round_done = 0;
			bbr_a_end_loss_round(sk);
			bbr->next_rtt_delivered = tp->delivered;
		} else if (bbr->probe_rtt_done_stamp) {
			if (bbr->round_start)
				bbr->probe_rtt_round_done = 1;
			if (bbr->probe_rtt_round_done)
				bbr_check_probe_rtt_done(sk);
		}
	}
	if (rs->delivered > 0)
		bbr->idle_restart = 0;
}

/* The PROBE_BW pacing gain of this socket's algorithm. */
static u32 bbr_probe_bw_gain(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	switch (bbr->algo) {
	case BBR_ALGO_A:
	case BBR_ALGO_A_FAIR:
		return bbr_a_probe_bw_gain(sk, rs);
	default:
		bbr->gain_why = BBR_A_WHY_FIXED;
		return bbr_cycle_gain[bbr->cycle_idx];
	}
}

static void bbr_update_gains(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	switch (bbr->mode) {
	case BBR_STARTUP:
		bbr->pacing_gain = bbr_high_gain;
		bbr->cwnd_gain = bbr_high_gain;
		break;
	case BBR_DRAIN:
		bbr->pacing_gain = bbr_drain_gain;
		bbr->cwnd_gain = bbr_high_gain;
		break;
	case BBR_PROBE_BW:
		if (bbr->lt_use_bw) {
			bbr->pacing_gain = BBR_UNIT;
			bbr->gain_why = BBR_A_WHY_LT_BW;
		} else {
			bbr->pacing_gain = bbr_probe_bw_gain(sk, rs);
		}
		bbr->cwnd_gain = bbr_cwnd_gain;
		return;
	case BBR_PROBE_RTT:
		bbr->pacing_gain = BBR_UNIT;
		bbr->cwnd_gain = BBR_UNIT;
		break;
	}
	bbr->gain_why = BBR_A_WHY_FIXED;
	/* da_bbr paces at 3/4 in the first round of recovery */
	if (bbr->packet_conservation && bbr_da_on(bbr))
		bbr->pacing_gain = BBR_UNIT * 3 / 4;
}

/*
 * One bbr_a_gain event per packet-timed round and one when the reason for the
 * gain changes; nothing is computed while the tracepoint is off.
 */
static void bbr_trace_gain(struct sock *sk, const struct rate_sample *rs,
			   u8 prev_why)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_a *bbr = inet_csk_ca(sk);
	struct bbr_a_snapshot snap;

	if (!trace_bbr_a_gain_enabled() ||
	    (!bbr->round_start && bbr->gain_why == prev_why))
		return;

	snap.algo = bbr->algo;
	snap.mode = bbr->mode;
	snap.phase = bbr->cycle_idx;
	snap.why = bbr->gain_why;
	snap.pacing_gain = bbr->pacing_gain;
	snap.cwnd_gain = bbr->cwnd_gain;
	snap.rtt_us = rs->rtt_us;
	snap.rtt_max_us = bbr->algo <= BBR_ALGO_A_FAIR ? bbr->a.rtt_max_us : 0;
	snap.min_rtt_us = bbr->min_rtt_us;
	snap.bw_bps = (u64)bbr_bw(sk) * tp->mss_cache * USEC_PER_SEC * 8 >>
		      BW_SCALE;
	snap.cwnd = tcp_snd_cwnd(tp);
	snap.inflight = tcp_packets_in_flight(tp);
	snap.cwnd_limited = tp->is_cwnd_limited;
	trace_bbr_a_gain(sk, &snap);
}

/* What an algorithm notes from every ACK. */
static void bbr_update_algo_state(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	switch (bbr->algo) {
	case BBR_ALGO_A:
	case BBR_ALGO_A_FAIR:
		bbr_a_update_rtt_max(sk, rs);
		break;
	case BBR_ALGO_DA_BBR:
		bbr->da.rtt_us = rs->rtt_us;
		break;
	default:
		break;
	}
}

static void bbr_update_model(struct sock *sk, const struct rate_sample *rs)
{
	const struct bbr_a *bbr = inet_csk_ca(sk);
	u8 prev_why = bbr->gain_why;	/* bbr_trace_gain() reports a change */

	bbr_update_bw(sk, rs);
	bbr_update_algo_state(sk, rs);
	bbr_update_ack_aggregation(sk, rs);
	bbr_update_cycle_phase(sk, rs);
	bbr_check_full_bw_reached(sk, rs);
	bbr_check_drain(sk, rs);
	bbr_update_min_rtt(sk, rs);
	bbr_update_gains(sk, rs);
	bbr_trace_gain(sk, rs, prev_why);
}

/* Called on every ACK with the rate sample it produced. */
static BBR_A_CONG_CONTROL(bbr_main)
{
	struct bbr_a *bbr = inet_csk_ca(sk);
	u32 bw;

	bbr_update_model(sk, rs);

	bw = bbr_bw(sk);
	bbr_set_pacing_rate(sk, bw, bbr->pacing_gain);
	bbr_set_cwnd(sk, rs, rs->acked_sacked, bw, bbr->cwnd_gain);
}

static void bbr_init(struct sock *sk, enum bbr_algo algo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_a *bbr = inet_csk_ca(sk);

	memset(bbr, 0, sizeof(*bbr));
	bbr->algo = algo;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	bbr->next_rtt_delivered = tp->delivered;
	bbr->prev_ca_state = TCP_CA_Open;
	bbr->min_rtt_us = tcp_min_rtt(tp);
	bbr->min_rtt_stamp = tcp_jiffies32;
	minmax_reset(&bbr->bw, bbr->rtt_cnt, 0);
	bbr_init_pacing_rate_from_rtt(sk);
	bbr_reset_lt_bw_sampling(sk);
	bbr_reset_startup_mode(sk);
	bbr->ack_epoch_stamp = (u32)tp->tcp_mstamp;
	if (algo == BBR_ALGO_DA_BBR) {
		bbr->da.prev_min_rtt_us = bbr->min_rtt_us;
		bbr->da.rtt_us = -1;
		bbr->da.probe_rtt_cwnd = bbr_cwnd_min_target;
	} else {
		bbr->a.round_lost = tp->lost;
		bbr->a.rtt_max_stamp = tcp_jiffies32;
	}

	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}

/* BBR keeps up to 2 BDP in flight plus budgets: ask for 3x sndbuf. */
static u32 bbr_a_sndbuf_expand(struct sock *sk)
{
	return 3;
}

/*
 * The loss that cut cwnd was spurious: keep cwnd where it is, but restart
 * full-pipe detection and long-term sampling, which that loss fed.
 */
static u32 bbr_a_undo_cwnd(struct sock *sk)
{
	struct bbr_a *bbr = inet_csk_ca(sk);

	bbr->full_bw = 0;
	bbr->full_bw_cnt = 0;
	bbr_reset_lt_bw_sampling(sk);
	return tcp_snd_cwnd(tcp_sk(sk));
}

/* BBR does not use ssthresh for its own cwnd; remember cwnd for restore. */
static u32 bbr_a_ssthresh(struct sock *sk)
{
	bbr_save_cwnd(sk);
	return tcp_sk(sk)->snd_ssthresh;
}

/* The standard BBR diagnostics, so that ss -ti shows bbr:(bw,mrtt,...). */
static size_t bbr_a_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_a *bbr = inet_csk_ca(sk);
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

/* An RTO ends the round and counts as a lossy long-term sample. */
static void bbr_a_set_state(struct sock *sk, u8 new_state)
{
	struct bbr_a *bbr = inet_csk_ca(sk);
	struct rate_sample rs = { .losses = 1 };

	if (new_state != TCP_CA_Loss)
		return;

	bbr->prev_ca_state = TCP_CA_Loss;
	bbr->full_bw = 0;
	bbr->round_start = 1;
	bbr_lt_bw_sampling(sk, &rs);
}

/* One init per registered name: it fixes the socket's algorithm. */
static void bbr_a_init(struct sock *sk)
{
	bbr_init(sk, BBR_ALGO_A);
}

static void bbr_a_fair_init(struct sock *sk)
{
	bbr_init(sk, BBR_ALGO_A_FAIR);
}

static void bbq_init(struct sock *sk)
{
	bbr_init(sk, BBR_ALGO_BBQ);
}

static void da_bbr_init(struct sock *sk)
{
	bbr_init(sk, BBR_ALGO_DA_BBR);
}

#define BBR_OPS(algo_name, init_fn)					\
	{								\
		.flags		= TCP_CONG_NON_RESTRICTED,		\
		.name		= algo_name,				\
		.owner		= THIS_MODULE,				\
		.init		= init_fn,				\
		.cong_control	= bbr_main,				\
		.sndbuf_expand	= bbr_a_sndbuf_expand,			\
		.undo_cwnd	= bbr_a_undo_cwnd,			\
		.cwnd_event	= bbr_cwnd_event,			\
		.ssthresh	= bbr_a_ssthresh,			\
		.min_tso_segs	= bbr_min_tso_segs,			\
		.get_info	= bbr_a_get_info,			\
		.set_state	= bbr_a_set_state,			\
	}

/* The registrations, in enum bbr_algo order. */
static struct tcp_congestion_ops bbr_ops[BBR_ALGO_NUM] __read_mostly = {
	[BBR_ALGO_A]		= BBR_OPS("bbr_a", bbr_a_init),
	[BBR_ALGO_A_FAIR]	= BBR_OPS("bbr_a_fair", bbr_a_fair_init),
	[BBR_ALGO_BBQ]		= BBR_OPS("bbq", bbq_init),
	[BBR_ALGO_DA_BBR]	= BBR_OPS("da_bbr", da_bbr_init),
};

static int __init bbr_a_register(void)
{
	int i, err;

	BUILD_BUG_ON(sizeof(struct bbr_a) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(BBR_ALGO_NUM > 4);	/* bbr->algo has two bits */
	for (i = 0; i < BBR_ALGO_NUM; i++) {
		err = tcp_register_congestion_control(&bbr_ops[i]);
		if (err) {
			while (--i >= 0)
				tcp_unregister_congestion_control(&bbr_ops[i]);
			return err;
		}
	}
	return 0;
}

static void __exit bbr_a_unregister(void)
{
	int i;

	for (i = 0; i < BBR_ALGO_NUM; i++)
		tcp_unregister_congestion_control(&bbr_ops[i]);
}

module_init(bbr_a_register);
module_exit(bbr_a_unregister);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP BBR-A (bbr_a: BBRv1 with the paper's RTT-adaptive PROBE_BW gains), bbr_a_fair (the project's own extension of BBR-A, not in the paper), and the baselines bbq and da_bbr");
/* sysctl net.ipv4.tcp_congestion_control=NAME loads the module "tcp_NAME". */
MODULE_ALIAS("tcp_bbr_a_fair");
MODULE_ALIAS("tcp_bbq");
MODULE_ALIAS("tcp_da_bbr");
MODULE_VERSION(BBR_A_VERSION);
