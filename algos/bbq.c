// SPDX-License-Identifier: GPL-2.0
/*
 * BBQ's module parameters and their snapshot (algos/bbq.h).
 */
#include "algos/bbq.h"

BBR_PARAM(bbq_alpha_us, 3000, 0, 1000000,
	  "bbq: longest probe-up phase while a queue persists, us (paper: 3 ms); 0: BBQ off, plain BBRv1");
BBR_PARAM(bbq_beta_pm, 10, 0, 1000,
	  "bbq: a queue persists while rtt > (1 + this / 1000) x min_rtt (paper: 5..10)");

struct bbq_params bbq_params_snap __read_mostly;

/* A parameter was written: bbq's snapshot, rebuilt. */
void bbq_snapshot_load(void)
{
	struct bbq_params p;

	/* the padding too: the snapshot is copied word by word */
	memset(&p, 0, sizeof(p));
	p.alpha_us = bbr_param(bbq_alpha_us);
	p.beta_pm = bbr_param(bbq_beta_pm);

	bbr_params_put((u64 *)&bbq_params_snap, (const u64 *)&p,
		       BBR_PARAMS_WORDS(p));
}
