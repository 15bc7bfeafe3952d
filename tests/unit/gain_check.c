// SPDX-License-Identifier: GPL-2.0
/*
 * Checks include/bbr_a_gain.h against a double-precision reference.
 *
 * Contract (issue #2): for 0 <= rtt <= rtt_max, rtt_max > 0, each result is
 * within 1 of round(256 * P(rtt / rtt_max)); rtt > rtt_max behaves as
 * rtt == rtt_max; rtt_max == 0 gives BBRv1's 320 and 192; results lie in
 * [256, 384] and [128, 256] and never increase with rtt; no undefined
 * behaviour for any u32 pair (build with -fsanitize=undefined).
 *
 * Prints one line per failure (the first few) and "N passed, N failed".
 * Mutants: -DMUTANT_UP / -DMUTANT_DOWN perturb one function by 2, so the
 * test suite can prove that this checker notices a wrong gain; -DMUTANT_QPHI
 * drops bbr_a_queue_phi's clamp of min_rtt to rtt_max.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "bbr_a_gain.h"

#ifdef MUTANT_UP
#define gain_up(t, m)	(bbr_a_gain_up(t, m) + ((t) == (m) / 2 ? 2 : 0))
#else
#define gain_up(t, m)	bbr_a_gain_up(t, m)
#endif
#ifdef MUTANT_DOWN
#define gain_down(t, m)	(bbr_a_gain_down(t, m) - ((t) == (m) / 3 ? 2 : 0))
#else
#define gain_down(t, m)	bbr_a_gain_down(t, m)
#endif

static unsigned long passed, failed;

static void check(int ok, const char *what, uint32_t t, uint32_t m,
		  uint32_t got, double want)
{
	if (ok) {
		passed++;
		return;
	}
	if (failed++ < 20)
		printf("FAIL %s: rtt=%" PRIu32 " rtt_max=%" PRIu32
		       " got=%" PRIu32 " want=%.3f\n", what, t, m, got, want);
}

static double ref_up(double phi)
{
	return 256.0 * 3.0 / (phi + 2.0);
}

static double ref_down(double phi)
{
	return 256.0 * (3.0 / (phi - 3.0) + 2.0);
}

/* One (rtt, rtt_max) pair, rtt <= rtt_max, rtt_max > 0. */
static void check_pair(uint32_t t, uint32_t m)
{
	double phi = (double)t / (double)m;
	uint32_t up = gain_up(t, m), down = gain_down(t, m);
	double want_up = round(ref_up(phi)), want_down = round(ref_down(phi));

	check(fabs(up - want_up) <= 1.0, "up vs reference", t, m, up, want_up);
	check(fabs(down - want_down) <= 1.0, "down vs reference", t, m, down,
	      want_down);
	check(up >= 256 && up <= 384, "up range", t, m, up, want_up);
	check(down >= 128 && down <= 256, "down range", t, m, down, want_down);
}

/* Walk rtt from 0 to past rtt_max in `steps`, checking monotonicity. */
static void check_sweep(uint32_t m, uint64_t steps)
{
	uint32_t prev_up = 384, prev_down = 256;
	uint64_t i;

	for (i = 0; i <= steps; i++) {
		uint32_t t = (uint32_t)((uint64_t)m * i / steps);
		uint32_t up = gain_up(t, m), down = gain_down(t, m);

		check_pair(t, m);
		check(up <= prev_up, "up monotone", t, m, up, prev_up);
		check(down <= prev_down, "down monotone", t, m, down,
		      prev_down);
		prev_up = up;
		prev_down = down;
	}
	/* Beyond rtt_max: clamped to phi = 1. */
	for (i = 1; i <= 3; i++) {
		uint64_t t64 = (uint64_t)m * i + i;
		uint32_t t = t64 > UINT32_MAX ? UINT32_MAX : (uint32_t)t64;

		if (t <= m)
			continue;
		check(gain_up(t, m) == gain_up(m, m), "up clamp", t, m,
		      gain_up(t, m), gain_up(m, m));
		check(gain_down(t, m) == gain_down(m, m), "down clamp", t, m,
		      gain_down(t, m), gain_down(m, m));
	}
}

#ifdef MUTANT_QPHI
/* bbr_a_queue_phi without its clamp of base to rtt_max */
static void queue_phi(uint32_t *t, uint32_t *m, uint32_t b)
{
	*t = *t > b ? *t - b : 0;
	*m -= b;
	if (!*m)
		*m = 1;
}
#else
#define queue_phi(t, m, b)	bbr_a_queue_phi(t, m, b)
#endif

/*
 * bbr_a_fair's phi, (rtt - base) / (rtt_max - base): against the same
 * arithmetic in 64 bits, for one (rtt, rtt_max, base) triple.
 */
static void check_queue_phi(uint32_t t, uint32_t m, uint32_t b)
{
	uint64_t bb = b < m ? b : m;
	uint64_t want_t = t > bb ? t - bb : 0, want_m = m - bb;
	uint32_t qt = t, qm = m;

	if (!want_m)
		want_m = 1;
	queue_phi(&qt, &qm, b);
	check(qt == want_t && qm == want_m, "queue phi", t, m, qt,
	      (double)want_t);
	check(qm >= 1, "queue phi rtt_max >= 1", t, m, qm, 1);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint32_t next_u32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

int main(void)
{
	static const uint32_t edges[] = {
		0, 1, 2, 3, 255, 256, 257, 1000, 65535, 65536,
		2147483647U, 2147483648U, 4294967294U, 4294967295U,
	};
	unsigned int n = sizeof(edges) / sizeof(edges[0]);
	uint32_t m, t;
	unsigned int i, j;
	int k;

	/* Exhaustive over small rtt_max, every rtt in 0..rtt_max + 2. */
	for (m = 1; m <= 1500; m++)
		for (t = 0; t <= m + 2; t++) {
			if (t <= m)
				check_pair(t, m);
			else
				check(gain_up(t, m) == gain_up(m, m) &&
				      gain_down(t, m) == gain_down(m, m),
				      "clamp", t, m, gain_up(t, m), 0);
		}

	/* Edges in microseconds up to 2^32 - 1, incl. rtt_max near 2^32. */
	for (i = 1; i < n; i++)
		check_sweep(edges[i], 20000);

	/* rtt_max == 0: BBRv1's gains, whatever rtt says. */
	for (i = 0; i < n; i++) {
		check(bbr_a_gain_up(edges[i], 0) == 320, "up no sample",
		      edges[i], 0, bbr_a_gain_up(edges[i], 0), 320);
		check(bbr_a_gain_down(edges[i], 0) == 192, "down no sample",
		      edges[i], 0, bbr_a_gain_down(edges[i], 0), 192);
	}

	/* Every edge pair, both orders. */
	for (i = 0; i < n; i++)
		for (j = 1; j < n; j++) {
			t = edges[i];
			m = edges[j];
			if (t <= m)
				check_pair(t, m);
			else
				check(gain_up(t, m) == gain_up(m, m),
				      "clamp edge", t, m, gain_up(t, m), 0);
		}

	/* Random pairs over the whole u32 range and a realistic one. */
	for (k = 0; k < 2000000; k++) {
		m = next_u32() | 1;
		t = next_u32() % ((uint64_t)m + 1);
		check_pair(t, m);
		m = 1000 + next_u32() % 2000000;	/* 1 ms .. 2 s */
		t = next_u32() % (m + 1);
		check_pair(t, m);
	}

	/* bbr_a_fair's queueing delays' phi: edge triples and random ones. */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < (int)n; k++)
				check_queue_phi(edges[i], edges[j], edges[k]);
	for (k = 0; k < 200000; k++)
		check_queue_phi(next_u32(), next_u32(), next_u32());
	/* 10 ms base, 4 ms of a 16 ms queue: phi 1/4 */
	t = 14000;
	m = 26000;
	queue_phi(&t, &m, 10000);
	check(t == 4000 && m == 16000, "queue phi 1/4", 14000, 26000, t, 4000);

	/* Exact points of the curves (phi = 0, 1/2, 1). */
	check(gain_up(0, 1000) == 384, "up phi=0", 0, 1000,
	      gain_up(0, 1000), 384);
	check(gain_up(1000, 1000) == 256, "up phi=1", 1000, 1000,
	      gain_up(1000, 1000), 256);
	check(gain_up(500, 1000) == 307, "up phi=1/2", 500, 1000,
	      gain_up(500, 1000), 307.2);
	check(gain_down(0, 1000) == 256, "down phi=0", 0, 1000,
	      gain_down(0, 1000), 256);
	check(gain_down(1000, 1000) == 128, "down phi=1", 1000, 1000,
	      gain_down(1000, 1000), 128);
	check(gain_down(500, 1000) == 205, "down phi=1/2", 500, 1000,
	      gain_down(500, 1000), 204.8);

	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}
