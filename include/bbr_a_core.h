/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BBRv1 core (bbr_a_core.c) shares with the algorithms (algos/):
 * the scales, the per-socket state struct bbr, the ACK's context struct
 * bbr_ctx, the module parameters' machinery, and the core's accessors that
 * an algorithm's event code reads. The core's per-ACK functions stay in
 * bbr_a_core.c: only an algorithm's per-ACK hooks call them, and those are
 * compiled into the core (BBR_A_CORE, algos/<name>.h).
 */
#ifndef _BBR_A_CORE_H
#define _BBR_A_CORE_H

#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/tcp.h>

#include "bbr_a_compat.h"
#include "bbr_a_gain.h"
#include "bbr_a_math.h"

/* A trace event's fields (include/bbr_a_trace.h). */
struct bbr_a_snapshot;

/* Bandwidth is kept in packets per microsecond, scaled by 2^24. */
#define BW_SCALE		24
#define BW_UNIT			BIT(BW_SCALE)

/* Gains and other fractions are scaled by 2^8. */
#define BBR_SCALE		8
#define BBR_UNIT		BIT(BBR_SCALE)

/*
 * The algorithms this module registers, one congestion-control name each,
 * and after them the variants an algorithm's ACKs may be compiled for as
 * well (bbr_hook_ack()), which register no name of their own.
 */
enum bbr_algo {
	BBR_ALGO_A,		/* "bbr_a": BBR-A as the paper specifies it */
	BBR_ALGO_A_FAIR,	/* "bbr_a_fair": the project's extension */
	BBR_ALGO_BBQ,		/* "bbq": Ma et al.'s baseline */
	BBR_ALGO_DA_BBR,	/* "da_bbr": Kim and Cho's baseline */
	BBR_ALGO_NUM,
	BBR_ALGO_A_FIXED = BBR_ALGO_NUM, /* "bbr_a"'s ACKs at adaptive=0 */
};

enum bbr_mode {
	BBR_STARTUP,		/* grow the sending rate exponentially */
	BBR_DRAIN,		/* empty the queue STARTUP built */
	BBR_PROBE_BW,		/* cycle the pacing gain around bw */
	BBR_PROBE_RTT,		/* shrink inflight to re-measure min_rtt */
};

/* Why pacing_gain has its value: reported by the bbr_a_gain tracepoint. */
enum bbr_why {
	BBR_WHY_FIXED,		/* BBRv1's gain for this state and phase */
	BBR_WHY_PROBE,		/* phase 0: an algorithm's probe-up gain */
	BBR_WHY_HOLD,		/* phase 0, queue: gain 1 */
	BBR_WHY_DRAIN,		/* phase 1, queue: probe-down gain */
	BBR_WHY_LOSSY,		/* phase 1, loss without a queue: probe down */
	BBR_WHY_CRUISE,		/* phase 1, neither: gain 1 */
	BBR_WHY_LT_BW,		/* pacing at the policer's rate, no cycle */
	BBR_WHY_RECOVERY,	/* the algorithm's gain in recovery's first round */
};

/*
 * Bytes of per-socket state each algorithm may keep after the core's. The
 * core takes what BBRv1 needs of ICSK_CA_PRIV_SIZE (104 bytes); the rest,
 * at least BBR_PRIV_MIN bytes (checked at build time), is the algorithm's,
 * as the second member of its own socket struct (struct bbr_a_fair_sock:
 * struct bbr, then struct bbr_a_fair_state), and so are priv16, priv2 and
 * priv1, the half word and three bits the core's bit fields leave.
 */
#define BBR_PRIV_MIN		16

/*
 * Per-socket state. BBRv1 keeps two microsecond timestamps as u64 (phase
 * start, ACK-epoch start); here they are their low 32 bits. Elapsed time is
 * their modular difference from now (bbr_us_since()): exact up to 71.6
 * minutes; the first send after 30 minutes of silence ages a stale phase
 * stamp so that longer gaps still end the phase, and starts a new ACK epoch
 * (bbr_tx_start()). The bandwidth filter is the compact form of the kernel's
 * win_minmax filter (include/bbr_a_math.h); its clock is the round count.
 * cycle_stamp and probe_rtt_done_stamp share a word: the first is read only in
 * PROBE_BW and set on entering it, the second read only in PROBE_RTT and set
 * on entering it.
 */
struct bbr {
	u32	min_rtt_us;		/* min RTT in the min_rtt window */
	u32	min_rtt_stamp;		/* jiffies when min_rtt_us was taken */
	struct bbr_a_maxfilt bw;	/* max recent delivery rate, BW_UNIT */
	u32	next_rtt_delivered;	/* tp->delivered when the round began */
	union {				/* each is used in one state only */
		u32 cycle_stamp;	/* PROBE_BW: us (low 32 bits), phase start */
		u32 probe_rtt_done_stamp; /* PROBE_RTT: jiffies it may end; 0 */
	};
	u32	mode:2,			/* enum bbr_mode */
		prev_ca_state:3,	/* icsk_ca_state on the previous ACK */
		packet_conservation:1,	/* first round of recovery? */
		round_start:1,		/* did this ACK start a new round? */
		idle_restart:1,		/* restarting after an idle period? */
		probe_rtt_round_done:1,	/* a full round at the floor done? */
		full_bw_reached:1,	/* did STARTUP fill the pipe? */
		full_bw_cnt:2,		/* rounds without 25 % bw growth */
		cycle_idx:3,		/* phase in the PROBE_BW gain cycle */
		has_seen_rtt:1,		/* any RTT sample yet? */
		lt_is_sampling:1,	/* long-term interval under way? */
		lt_rtt_cnt:7,		/* rounds in the long-term interval */
		lt_use_bw:1,		/* pace at lt_bw (policer found)? */
		extra_acked_win_rtts:5,	/* age of current window, rounds */
		extra_acked_win_idx:1,	/* current extra_acked[] window */
		unused_a:1;
	u32	lt_bw;			/* long-term delivery rate, BW_UNIT */
	u32	lt_last_delivered;	/* tp->delivered at interval start */
	u32	lt_last_stamp;		/* ms: interval start */
	u32	lt_last_lost;		/* tp->lost at interval start */
	u16	cwnd_gain:10,		/* current cwnd gain, BBR_UNIT */
		gain_why:3,		/* enum bbr_why of pacing_gain */
		priv2:2,		/* the algorithm's own */
		priv1:1;		/* the algorithm's own */
	u16	priv16;			/* the algorithm's own */
	u32	prior_cwnd;		/* cwnd to restore after recovery */
	u32	full_bw;		/* bw STARTUP's growth is judged by */
	u32	ack_epoch_stamp;	/* us (low 32 bits): ACK epoch start */
	u16	extra_acked[2];		/* max excess ACKed, two windows */
	u32	ack_epoch_acked:20,	/* packets (S)ACKed in the epoch */
		pacing_gain:10,		/* current pacing gain, BBR_UNIT */
		unused_c:2;
};

/*
 * What one ACK's processing knows beyond the socket: the module parameters
 * its algorithm uses, copied once at the start from the algorithm's
 * snapshot of them (so a parameter written during the ACK takes effect
 * whole, from the next one; see "Module parameters"), and the ACK's RTT
 * sample. Each algorithm lays out params[] as its own struct (see algos/),
 * of whole u64 words (BBR_PARAMS_WORDS() fails to build otherwise) and no
 * larger than this (a BUILD_BUG_ON in each algorithm's accessor), and reads
 * only what its load wrote.
 */
#define BBR_CTX_WORDS		3

struct bbr_ctx {
	u64	params[BBR_CTX_WORDS];	/* the algorithm's parameters */
	s32	rtt_us;			/* this ACK's RTT sample; -1: none */
};

/* The least cwnd, packets: BBRv1's PROBE_RTT cwnd and floor. */
static const u32 bbr_cwnd_min_target __maybe_unused = 4;

/*
 * Module parameters. Each is an unsigned int with a range, parsed by the
 * kernel's param_set_uint_minmax() (kstrtouint(buf, 0, ...): decimal, 0x
 * hex or 0 octal, one trailing newline; include/bbr_a_compat.h has it for
 * kernels without it). A write outside the range, or not a number, fails
 * with -EINVAL or -ERANGE and leaves the value unchanged.
 *
 * ACKs do not read them one by one: each algorithm keeps a snapshot of the
 * ones every ACK of it uses, a struct of whole u64 words (its *_params),
 * which every successful write rebuilds before it returns
 * (bbr_params_load(); the kernel serialises a module's parameter writes
 * with kernel_param_lock()), as does the module's init, holding that lock
 * too. Each ACK copies its algorithm's snapshot into
 * its context (struct bbr_ctx) at its start, a word at a time: one load per
 * word, not one per parameter (in UML's -mcmodel=large modules, two
 * instructions per parameter). A change thus applies to every socket of that
 * algorithm from its next ACK, whole within an ACK. No parameter straddles a
 * word, so a copy that crosses a write (on a 32-bit kernel, a word read in
 * two halves) gives each parameter its old or its new value, as separate
 * writes would. Parameters that only a rarer event uses are read at that
 * event (bbr_a_fair_event_load()).
 */
struct bbr_param {
	unsigned int val;	/* kp->arg points here */
	unsigned int min;
	unsigned int max;
};

/* The ops of every module parameter: a write rebuilds the snapshots. */
extern const struct kernel_param_ops bbr_param_ops;

/* A parameter NAME, read as bbr_param(NAME); the description ends in its range. */
#define BBR_PARAM(name, def, lo, hi, desc)				\
	static struct bbr_param bbr_param_##name = {			\
		.val = (def), .min = (lo), .max = (hi),			\
	};								\
	module_param_cb(name, &bbr_param_ops, &bbr_param_##name.val, 0644); \
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi ", default " #def "]")

#define bbr_param(name)		READ_ONCE(bbr_param_##name.val)

/* A snapshot's first n u64 words, into an ACK's context. */
static __always_inline void bbr_params_get(u64 *ctx, const u64 *snap,
					   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ctx[i] = READ_ONCE(snap[i]);
}

/* A snapshot of n u64 words, rebuilt. */
static inline void bbr_params_put(u64 *snap, const u64 *val,
				  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(snap[i], val[i]);
}

/*
 * The words of an algorithm's parameter struct, its snapshot's size: every
 * copy counts them so, and fails to build unless the struct is whole words.
 */
#define BBR_PARAMS_WORDS(type)						\
	(sizeof(type) / sizeof(u64) +					\
	 BUILD_BUG_ON_ZERO(sizeof(type) % sizeof(u64)))

/* The ACK context's parameters, as the algorithm's own struct TYPE. */
#define BBR_CTX_PARAMS(c, type)						\
	((type *)(c)->params)

static __always_inline bool bbr_full_bw_reached(const struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return bbr->full_bw_reached;
}

/* The windowed max delivery rate, BW_UNIT packets per us. */
static __always_inline u32 bbr_max_bw(const struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return bbr_a_maxfilt_get(&bbr->bw);
}

/* The bandwidth the model uses: the policer's rate once one was found. */
static __always_inline u32 bbr_bw(const struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	return bbr->lt_use_bw ? bbr->lt_bw : bbr_max_bw(sk);
}

#endif /* _BBR_A_CORE_H */
