// SPDX-License-Identifier: GPL-2.0
/*
 * BBR-A's module parameters, socket init and events (algos/bbr_a.h).
 */
#include "bbr_a_trace.h"
#include "algos/bbr_a.h"

BBR_PARAM(adaptive, 1, 0, 1,
	  "bbr_a: 1 BBR-A's adaptive PROBE_BW gains; 0 BBRv1's fixed 5/4 and 3/4");
BBR_PARAM(rtt_max_scope, 0, 0, 1,
	  "bbr_a: rtt_max taken in 0 every state incl. STARTUP (per-ACK update) or 1 PROBE_BW only (Algorithm 1 is the ProbeBW state)");
BBR_PARAM(rtt_max_win_sec, 0, 0, 600,
	  "bbr_a: seconds an rtt_max sample is kept (0: connection lifetime, as the paper)");
BBR_PARAM(gate_signal, 0, 0, 1,
	  "bbr_a: queue test of both probe phases: 0 inflight > inflight_thresh x own BDP (Algorithm 1), 1 rtt - min_rtt > queue_thresh_us (shared delay)");
BBR_PARAM(inflight_thresh, 320, 256, 1024,
	  "bbr_a: queue threshold for gate_signal=0, in BDP x 256 (320 = 1.25 BDP)");
BBR_PARAM(queue_thresh_us, 2000, 0, 1000000,
	  "bbr_a: queueing delay threshold for gate_signal=1, us");
BBR_PARAM(probe_up_hold, 1, 0, 1,
	  "bbr_a: probe-up phase while the queue test is true: 1 hold at gain 1 (paper), 0 Pup anyway (BBRv1 always probes)");
BBR_PARAM(loss_thresh, 20, 0, 1000,
	  "bbr_a: probe-down loss threshold, lost per mille of a round's packets");
BBR_PARAM(probe_down_and, 0, 0, 1,
	  "bbr_a: probe down when queue AND loss (1, paper's prose) or queue OR loss (0, pseudo-code)");

struct bbr_a_params bbr_a_params_snap __read_mostly;

/* A parameter was written: bbr_a's snapshot, rebuilt. */
void bbr_a_snapshot_load(void)
{
	struct bbr_a_params p;

	/* the padding too: the snapshot is copied word by word */
	memset(&p, 0, sizeof(p));
	p.adaptive = bbr_param(adaptive);
	p.rtt_max_scope = bbr_param(rtt_max_scope);
	p.rtt_max_win_sec = bbr_param(rtt_max_win_sec);
	p.gate_signal = bbr_param(gate_signal);
	p.inflight_thresh = bbr_param(inflight_thresh);
	p.queue_thresh_us = bbr_param(queue_thresh_us);
	p.probe_up_hold = bbr_param(probe_up_hold);
	p.loss_thresh = bbr_param(loss_thresh);
	p.probe_down_and = bbr_param(probe_down_and);

	bbr_params_put((u64 *)&bbr_a_params_snap, (const u64 *)&p,
		       BBR_PARAMS_WORDS(p));
}

static void bbr_a_loss_round_start(struct sock *sk, struct bbr_a_loss_round *l)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	l->lost = tp->lost;
	l->delivered = tp->delivered;
}

/*
 * A loss round ends: returns the verdict on its loss rate, and starts
 * counting afresh. A round in which nothing was delivered or lost (the round
 * restarting twice on one ACK) keeps the verdict it had, was_lossy.
 */
static bool bbr_a_loss_round_end(struct sock *sk, struct bbr_a_loss_round *l,
				 bool was_lossy, u32 thresh_pm)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	bool lossy = bbr_a_round_lossy(was_lossy, tp->lost - l->lost,
				       tp->delivered - l->delivered, thresh_pm);

	bbr_a_loss_round_start(sk, l);
	return lossy;
}

void bbr_a_init_state(struct sock *sk)
{
	struct bbr_a_state *a = bbr_a_state(sk);

	bbr_a_loss_round_start(sk, &a->loss);
	a->rtt_max_stamp = tcp_jiffies32;
}

/*
 * A round ends at adaptive=0 (BBR_ALGO_A_FIXED): no gain reads the loss
 * round's verdict, and the ACK has not read loss_thresh (bbr_a_load()). The
 * loss round starts over with no verdict (not lossy), so that once adaptive
 * is set, the first verdict is on a loss round begun at a round's end, with
 * loss_thresh as it is then. (The verdict was once taken here with a
 * loss_thresh the ACK had not loaded: the stack's.)
 */
void bbr_a_fixed_round_end(struct sock *sk)
{
	struct bbr_a_state *a = bbr_a_state(sk);

	bbr_a_loss_round_start(sk, &a->loss);
	a->lossy = 0;
}

/*
 * A round ends, adaptive as the context read it. Where the core runs as
 * BBR_ALGO_A whatever adaptive is (an RTO, bbr_set_state()), adaptive may be
 * 0 and loss_thresh then was not loaded (zero): the round ends as
 * BBR_ALGO_A_FIXED's does.
 */
void bbr_a_round_end(struct sock *sk, bool adaptive, u32 loss_thresh)
{
	struct bbr_a_state *a = bbr_a_state(sk);

	if (!adaptive) {
		bbr_a_fixed_round_end(sk);
		return;
	}
	a->lossy = bbr_a_loss_round_end(sk, &a->loss, a->lossy, loss_thresh);
}

void bbr_a_trace(struct sock *sk, struct bbr_a_snapshot *snap)
{
	const struct bbr_a_state *a = bbr_a_state(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	snap->rtt_max_us = a->rtt_max_us;
	snap->round_lost = tp->lost - a->loss.lost;
	snap->lossy = a->lossy;
}
