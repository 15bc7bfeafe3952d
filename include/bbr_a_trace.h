/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint bbr_a:bbr_a_gain: the state behind a tcp_bbr_a socket's pacing
 * gain, once per packet-timed round, whenever the reason for the gain
 * changes, and at each RTO and idle restart. Enable and read it through tracefs:
 *
 *	echo 1 > /sys/kernel/tracing/events/bbr_a/bbr_a_gain/enable
 *	cat /sys/kernel/tracing/trace_pipe
 *
 * testbed/scenario.sh records it per run (trace.txt) and testbed/analyze.py
 * turns it into per-flow time series. Off, it costs a patched-out branch.
 *
 * t_us is TCP's own clock for the event (tp->tcp_mstamp, CLOCK_MONOTONIC in
 * microseconds), read already by TCP: a reader can date events with the trace
 * clock "counter", which reads no clock. On UML with time travel every clock
 * read outside interrupts moves the guest's time, and an event dated by the
 * boot clock at an idle restart (in the sender's process) changed the run.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bbr_a

#if !defined(_BBR_A_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _BBR_A_TRACE_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>

#ifndef _BBR_A_SNAPSHOT
#define _BBR_A_SNAPSHOT
/* What one event reports; filled by bbr_trace_gain_event(). */
struct bbr_a_snapshot {
	u8	algo;		/* enum bbr_algo */
	u8	ev;		/* enum bbr_ev: 0 ACK, 1 RTO, 2 idle restart */
	u8	mode;		/* enum bbr_mode */
	u8	phase;		/* PROBE_BW cycle_idx */
	u8	why;		/* enum bbr_why */
	u32	pacing_gain;	/* x 256 */
	u32	cwnd_gain;	/* x 256 */
	s32	rtt_us;		/* this ACK's RTT sample, -1 if none */
	u32	rtt_max_us;	/* phi's denominator, 0 if none (or no phi) */
	u32	min_rtt_us;
	u64	bw_bps;		/* the model's bottleneck bw, bit/s */
	u32	cwnd;		/* packets */
	u32	inflight;	/* packets */
	bool	cwnd_limited;	/* tp->is_cwnd_limited: cwnd bound last window */
	bool	lossy;		/* the last loss round was lossy */
	u32	round_lost;	/* packets lost since the loss round began */
	u64	bw_hi_bps;	/* bbr_a_fair: the bound on bw, bit/s; 0: none */
	bool	compete;	/* bbr_a_fair: a competitor keeps the queue */
	u64	t_us;		/* tp->tcp_mstamp */
	u32	spread_us;	/* bbr_a_fair: the RTT's spread in PROBE_RTT */
};
#endif

TRACE_EVENT(bbr_a_gain,

	TP_PROTO(const struct sock *sk, const struct bbr_a_snapshot *s),

	TP_ARGS(sk, s),

	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u8, algo)
		__field(u8, ev)
		__field(u8, mode)
		__field(u8, phase)
		__field(u8, why)
		__field(u32, pacing_gain)
		__field(u32, cwnd_gain)
		__field(s32, rtt_us)
		__field(u32, rtt_max_us)
		__field(u32, min_rtt_us)
		__field(u64, bw_bps)
		__field(u32, cwnd)
		__field(u32, inflight)
		__field(u8, cwnd_limited)
		__field(u8, lossy)
		__field(u32, round_lost)
		__field(u64, bw_hi_bps)
		__field(u8, compete)
		__field(u64, t_us)
		__field(u32, spread_us)
	),

	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->algo = s->algo;
		__entry->ev = s->ev;
		__entry->mode = s->mode;
		__entry->phase = s->phase;
		__entry->why = s->why;
		__entry->pacing_gain = s->pacing_gain;
		__entry->cwnd_gain = s->cwnd_gain;
		__entry->rtt_us = s->rtt_us;
		__entry->rtt_max_us = s->rtt_max_us;
		__entry->min_rtt_us = s->min_rtt_us;
		__entry->bw_bps = s->bw_bps;
		__entry->cwnd = s->cwnd;
		__entry->inflight = s->inflight;
		__entry->cwnd_limited = s->cwnd_limited;
		__entry->lossy = s->lossy;
		__entry->round_lost = s->round_lost;
		__entry->bw_hi_bps = s->bw_hi_bps;
		__entry->compete = s->compete;
		__entry->t_us = s->t_us;
		__entry->spread_us = s->spread_us;
	),

	TP_printk("sport=%u dport=%u algo=%u mode=%u phase=%u why=%u gain=%u cwnd_gain=%u rtt_us=%d rtt_max_us=%u min_rtt_us=%u bw_bps=%llu cwnd=%u inflight=%u cwnd_limited=%u lossy=%u round_lost=%u ev=%u bw_hi_bps=%llu compete=%u t_us=%llu spread_us=%u",
		  __entry->sport, __entry->dport, __entry->algo,
		  __entry->mode, __entry->phase, __entry->why,
		  __entry->pacing_gain, __entry->cwnd_gain, __entry->rtt_us,
		  __entry->rtt_max_us, __entry->min_rtt_us, __entry->bw_bps,
		  __entry->cwnd, __entry->inflight, __entry->cwnd_limited,
		  __entry->lossy, __entry->round_lost, __entry->ev,
		  __entry->bw_hi_bps, __entry->compete, __entry->t_us,
		  __entry->spread_us)
);

#endif /* _BBR_A_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE bbr_a_trace
#include <trace/define_trace.h>
