// SPDX-License-Identifier: GPL-2.0
/*
 * DA-BBR's module parameters, socket init and PROBE_RTT events
 * (algos/da_bbr.h).
 */
#include "algos/da_bbr.h"

BBR_PARAM(da_enable, 1, 0, 1,
	  "da_bbr: 1 DA-BBR's changes; 0 plain BBRv1");
BBR_PARAM(da_guard_pct, 20, 0, 1000,
	  "da_bbr: no BDP scaling while min_rtt exceeds the previous epoch's by more than this percent");

struct da_bbr_params da_bbr_params_snap __read_mostly;

/* A parameter was written: da_bbr's snapshot, rebuilt. */
void da_bbr_snapshot_load(void)
{
	struct da_bbr_params p;

	/* the padding too: the snapshot is copied word by word */
	memset(&p, 0, sizeof(p));
	p.enable = bbr_param(da_enable);
	p.guard_pct = bbr_param(da_guard_pct);

	bbr_params_put((u64 *)&da_bbr_params_snap, (const u64 *)&p,
		       BBR_PARAMS_WORDS(p));
}

void da_bbr_init_state(struct sock *sk)
{
	const struct bbr *bbr = inet_csk_ca(sk);
	struct da_bbr_state *d = da_bbr_state(sk);

	d->prev_min_rtt_us = bbr->min_rtt_us;
	d->probe_rtt_cwnd = bbr_cwnd_min_target;
}

/* The min_rtt filter is about to take a new epoch's value. */
void da_bbr_min_rtt_expired(struct sock *sk, const struct rate_sample *rs)
{
	const struct bbr *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_PROBE_BW && rs->rtt_us >= 0)
		da_bbr_state(sk)->prev_min_rtt_us = bbr->min_rtt_us;
}

void da_bbr_probe_rtt_enter(struct sock *sk)
{
	da_bbr_state(sk)->probe_rtt_cwnd =
		max(tcp_snd_cwnd(tcp_sk(sk)) / 3, bbr_cwnd_min_target);
}
