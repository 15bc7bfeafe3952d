// SPDX-License-Identifier: GPL-2.0
/*
 * Drives include/bbr_a_math.h from standard input, for tests/unit/test_math.py,
 * which compares what it prints with reference models written in Python.
 *
 *   maxfilt WIN     then lines "r" (a round ends) or "u V" (a sample V);
 *                   prints the filter's maximum after each "u"
 *   rttmax          then lines "RTT_MAX RTT BASE OVER"; prints the new
 *                   rtt_max and whether a window restarts
 *   scale           then lines "W MUL DIV"; prints floor(W * MUL / DIV)
 *   cbrt            then lines "X"; prints floor(cbrt(X))
 *   isqrt           then lines "X"; prints floor(sqrt(X))
 *   pktsrate        then lines "PKTS OWN SHIFT"; prints the allowance
 *   ratefills       then lines "PKTS US SHIFT"; prints the least rate that
 *                   sends PKTS packets in US
 *   bdpshare        then lines "BW RTT_US PM SHIFT LO"; prints the share
 *                   of the BDP PROBE_RTT holds
 *   avgtarget       then lines "COMPETE LOSSY DIPS"; prints 1 where
 *                   bbr_a_avg_target sizes the target by the average
 *   cubic           then lines "X_MAX T_MS K_MS BETA_PM"; prints the bound
 *   reno            then lines "X_MAX T_MS SRTT_US BETA_PM"; prints the bound
 *   target          then lines "W_US BW PKTS CUT FLOOR"; prints bbr_a_fair's
 *                   cwnd target (BW_SCALE 24)
 *   lawbound        then lines "X_MAX T_MS K_MS BETA_PM RTT_US RTT_LO_US";
 *                   prints the larger of the two, 0 once CUBIC's expired
 *   lawrtt          then lines "SRTT_US PATH_US COMMON_US"; prints the RTT
 *                   a competing bound's law is taken at
 *   continue        then lines "X_MAX BETA_PM USED_BW"; prints where an
 *                   expired bound goes on from
 *   compete SET CLEAR
 *                   then lines "QUEUED OFF" per dip (1: the dip left a
 *                   queue; 1: the test is off); prints the flag and the
 *                   count after each
 *   short           then lines "D SAMPLE MAX BW"; prints the next shortfall
 *                   and BW less it
 *   competestart    then lines "BW FULL_BW BOUND BOUND_MAX"; prints where a
 *                   newly found competitor's law starts
 *   recut           then lines "LOSSY RECOVERING SINCE_MS SRTT_US"; prints 1
 *                   if a competing bound is cut again
 *   dip SET CLEAR COMPETE_US
 *                   then lines "c" (the buffer dropped: a recovery or an RTO
 *                   began), "s RTT_US TRUSTED" (an RTT sample) and "d FLOOR_US
 *                   TCP_MIN_US" (a dip); prints, after each dip, the
 *                   competitor flag, the path RTT, the dips since the last
 *                   drop and the flag's count, as bbr_a_fair_probe_rtt_done
 *   base COMPETE_US then lines "s RTT_US TRUSTED" (an RTT sample, trusted
 *                   or not) and "d FLOOR_US TCP_MIN_US" (a dip's lowest RTT
 *                   and tcp_min_rtt); prints, after each dip, whether it
 *                   left a queue and the path RTT it was measured against
 *   txstart         then lines "APP_LIMITED NOW LAST_SEND LONG_IDLE" (jiffies);
 *                   prints whether the silence was long and whether the send
 *                   starts a new ACK epoch
 *
 * Mutants, so that the tests can show they notice what each fix is for:
 * -DMUTANT_NO_STALE builds a filter that forgets to mark its newest sample
 * stale; -DMUTANT_040 computes rtt_max and the scaling as 0.4.0 did (the
 * sample replaces rtt_max at a window's end; w * mul / div in 64 bits);
 * -DMUTANT_081 continues an expired bound as 0.8.1 did, from the law's end
 * whatever the flow used; -DMUTANT_092 decides the competitor flag as 0.9.2
 * did, which left a set flag in place for CLEAR dips with the test off;
 * -DMUTANT_0141 starts a competitor's law and recuts as 0.14.1 did: at the
 * bound however far it grew, and never inside one recovery; -DMUTANT_0155
 * measures a dip against tcp_min_rtt alone, as 0.15.5 did; -DMUTANT_0182
 * takes a competing law at the common RTT alone, as 0.18.2 did;
 * -DMUTANT_0230 is 0.23.0: it cuts a cwnd target above 32 bits to its low 32,
 * and starts a new ACK epoch at an app-limited send only, whatever the
 * silence before it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbr_a_math.h"

#ifdef MUTANT_NO_STALE
#define next_round(f, w)	((f)->now = ((f)->now + 1) & BBR_A_MAXFILT_MASK)
#else
#define next_round(f, w)	bbr_a_maxfilt_next_round(f, w)
#endif

#ifdef MUTANT_040
static uint32_t rtt_max_next(uint32_t m, uint32_t r, uint32_t b, int over,
			     bool *restart)
{
	(void)b;
	*restart = over || r > m;
	return *restart ? r : m;
}

#define scale_down(w, mul, div)	((w) * (mul) / (div))
#else
#define rtt_max_next(m, r, b, over, restart)				\
	bbr_a_rtt_max_next(m, r, b, over, restart)
#define scale_down(w, mul, div)	bbr_a_scale_down(w, mul, div)
#endif

#ifdef MUTANT_081
static uint32_t cubic_continue(uint32_t x, uint32_t b, uint32_t u)
{
	uint64_t end = x + (uint64_t)x * 27 * b / 1000;

	(void)u;
	return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}
#else
#define cubic_continue(x, b, u)	bbr_a_cubic_continue(x, b, u)
#endif

#ifdef MUTANT_092
static bool compete_next(bool was, bool queued, bool off, uint32_t *dips,
			 uint32_t set, uint32_t clear)
{
	(void)off;
	*dips = queued == was ? 0 : (*dips < 3 ? *dips + 1 : 3);
	if (*dips >= (was ? clear : set)) {
		*dips = 0;
		return queued;
	}
	return was;
}
#else
#define compete_next(w, q, o, d, s, c)	bbr_a_compete_next(w, q, o, d, s, c)
#endif

#ifdef MUTANT_0200
/* 0.20.0: any queue a dip left counted, whether it moved or dropped or not */
static bool compete_dip(struct bbr_a_compete *t, uint32_t floor, bool was,
			uint32_t cus, uint32_t set, uint32_t clear)
{
	if (t->since < BBR_A_DIPS_MAX)
		t->since++;
	t->row = floor;
	return bbr_a_compete_next(was, cus && floor > t->base &&
				  floor - t->base > cus, !cus, &t->dips, set,
				  clear);
}
#elif defined(MUTANT_DROPS_ONLY)
/* a drop as the only evidence: a deep buffer's growing queue is missed */
static bool compete_dip(struct bbr_a_compete *t, uint32_t floor, bool was,
			uint32_t cus, uint32_t set, uint32_t clear)
{
	bool q = cus && floor > t->base && floor - t->base > cus;
	bool dropped = t->since < set;

	if (t->since < BBR_A_DIPS_MAX)
		t->since++;
	t->row = floor;
	if (q && !dropped && (was || t->dips + 1 >= set)) {
		if (!was)
			t->base = floor;
		q = false;
	}
	return bbr_a_compete_next(was, q, !cus, &t->dips, set, clear);
}
#else
#define compete_dip(t, f, w, c, st, cl)	bbr_a_compete_dip(t, f, w, c, st, cl)
#endif

#ifdef MUTANT_0141
static uint32_t compete_start(uint32_t bw, uint32_t full, uint32_t bound,
			      uint32_t bound_max)
{
	uint32_t x = bw > full ? bw : full;

	(void)bound_max;
	return bound > x ? bound : x;
}

#define recut_due(l, r, s, t)	((void)(l), (void)(r), (void)(s), (void)(t), false)
#else
#define compete_start(b, f, x, m)	bbr_a_compete_start(b, f, x, m)
#define recut_due(l, r, s, t)	bbr_a_recut_due(l, r, s, t)
#endif

#ifdef MUTANT_0182
#define law_rtt(s, p, c)	((void)(p), (c) ? (c) : (s))
#else
#define law_rtt(s, p, c)	bbr_a_law_rtt(s, p, c)
#endif

#ifdef MUTANT_0230
static uint32_t queue_target(uint64_t w, uint32_t bw, uint32_t pkts)
{
	return (uint32_t)(((w * bw + (1ULL << 24) - 1) >> 24) + pkts);
}
#else
#define queue_target(w, b, p)	bbr_a_queue_target(w, b, p, 24)
#endif

#ifdef MUTANT_0155
#define compete_base(m, b)	((void)(b), (m))
#else
#define compete_base(m, b)	bbr_a_compete_base(m, b)
#endif

#ifdef MUTANT_0230
#define new_ack_epoch(a, n, l, g)	((void)(n), (void)(l), (void)(g), (a) != 0)
#else
#define new_ack_epoch(a, n, l, g)	bbr_a_new_ack_epoch(a, n, l, g)
#endif

int main(int argc, char **argv)
{
	char line[256];

	if (argc >= 3 && !strcmp(argv[1], "maxfilt")) {
		struct bbr_a_maxfilt f;
		uint32_t win = (uint32_t)strtoul(argv[2], NULL, 10), v;

		memset(&f, 0, sizeof(f));
		bbr_a_maxfilt_reset(&f, 0);
		while (fgets(line, sizeof(line), stdin)) {
			if (line[0] == 'r')
				next_round(&f, win);
			else if (sscanf(line, "u %" SCNu32, &v) == 1)
				printf("%" PRIu32 "\n", bbr_a_maxfilt_update(&f, win, v));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "rttmax")) {
		uint32_t m, r, b;
		int over;
		bool restart;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %d",
			      &m, &r, &b, &over) == 4) {
			m = rtt_max_next(m, r, b, over, &restart);
			printf("%" PRIu32 " %d\n", m, restart);
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "scale")) {
		uint64_t w;
		uint32_t mul, div;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu64 " %" SCNu32 " %" SCNu32,
			      &w, &mul, &div) == 3)
			printf("%" PRIu64 "\n", scale_down(w, (uint64_t)mul, div));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "cbrt")) {
		uint64_t x;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu64, &x) == 1)
			printf("%" PRIu32 "\n", bbr_a_cbrt(x));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "isqrt")) {
		uint64_t x;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu64, &x) == 1)
			printf("%" PRIu32 "\n", bbr_a_isqrt(x));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "rate16")) {
		uint32_t x;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32, &x) == 1) {
			u16 v = bbr_a_rate16_of(x);

			printf("%u %" PRIu32 "\n", (unsigned int)v,
			       bbr_a_rate16_get(v));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "pktsrate")) {
		uint64_t own;
		uint32_t pkts, shift;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu64 " %" SCNu32,
			      &pkts, &own, &shift) == 3)
			printf("%" PRIu32 "\n",
			       bbr_a_pkts_by_rate(pkts, own, shift));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "ratefills")) {
		uint32_t pkts, us, shift;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32,
			      &pkts, &us, &shift) == 3)
			printf("%" PRIu32 "\n",
			       bbr_a_rate_fills(pkts, us, shift));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "bdpshare")) {
		uint32_t bw, rtt, pm, shift, lo;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32
			      " %" SCNu32, &bw, &rtt, &pm, &shift, &lo) == 5)
			printf("%" PRIu32 "\n",
			       bbr_a_bdp_share(bw, rtt, pm, shift, lo));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "avgtarget")) {
		uint32_t compete, lossy, dips;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32,
			      &compete, &lossy, &dips) == 3)
			printf("%d\n", bbr_a_avg_target(compete, lossy, dips));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "txstart")) {
		uint32_t app, now, last, lng;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32,
			      &app, &now, &last, &lng) == 4)
			printf("%d %d\n", bbr_a_long_idle(now, last, lng),
			       new_ack_epoch(app, now, last, lng));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "cubic")) {
		uint32_t x, t, k, b;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32,
			      &x, &t, &k, &b) == 4)
			printf("%" PRIu32 "\n", bbr_a_cubic_bound(x, t, k, b));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "reno")) {
		uint32_t x, t, r, b;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32,
			      &x, &t, &r, &b) == 4)
			printf("%" PRIu32 "\n", bbr_a_reno_bound(x, t, r, b));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "lawbound")) {
		uint32_t x, t, k, b, r, lo;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32
			      " %" SCNu32 " %" SCNu32, &x, &t, &k, &b, &r, &lo) == 6)
			printf("%" PRIu32 "\n", bbr_a_law_bound(x, t, k, b, r, lo));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "target")) {
		uint64_t w;
		uint32_t bw, pkts;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu64 " %" SCNu32 " %" SCNu32,
			      &w, &bw, &pkts) == 3)
			printf("%" PRIu32 "\n", queue_target(w, bw, pkts));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "lawrtt")) {
		uint32_t r, b, c;

		while (fgets(line, sizeof(line), stdin) &&
		       sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32,
			      &r, &b, &c) == 3)
			printf("%" PRIu32 "\n", law_rtt(r, b, c));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "continue")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t x, b, u;

			if (sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32,
				   &x, &b, &u) != 3)
				return 2;
			printf("%" PRIu32 "\n", cubic_continue(x, b, u));
		}
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "compete")) {
		uint32_t set = (uint32_t)strtoul(argv[2], NULL, 10);
		uint32_t clear = (uint32_t)strtoul(argv[3], NULL, 10);
		uint32_t dips = 0;
		bool flag = false;
		int q, off;

		while (fgets(line, sizeof(line), stdin)) {
			if (sscanf(line, "%d %d", &q, &off) != 2)
				return 2;
			flag = compete_next(flag, q && !off, off, &dips, set,
					    clear);
			printf("%d %" PRIu32 "\n", flag, dips);
		}
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "dip")) {
		uint32_t set = (uint32_t)strtoul(argv[2], NULL, 10);
		uint32_t clear = (uint32_t)strtoul(argv[3], NULL, 10);
		uint32_t cus = (uint32_t)strtoul(argv[4], NULL, 10);
		uint32_t trusted = BBR_A_BASE_NONE, row = BBR_A_BASE_NONE;
		struct bbr_a_compete t = { .since = BBR_A_DIPS_MAX };
		uint32_t a, b;
		bool flag = false;

		while (fgets(line, sizeof(line), stdin)) {
			if (line[0] == 'c') {
				t.since = 0;
				continue;
			}
			if (sscanf(line + 1, "%" SCNu32 " %" SCNu32, &a, &b) != 2)
				return 2;
			if (line[0] == 's') {
				if (b)
					trusted = bbr_a_base_next(trusted, a);
				continue;
			}
			t.base = bbr_a_compete_base(b, trusted);
			t.row = row << BBR_A_BASE_SHIFT;
			flag = compete_dip(&t, a, flag, cus, set, clear);
			trusted = bbr_a_base_of_us(t.base);
			row = bbr_a_row_of_us(t.row);
			printf("%d %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", flag,
			       t.base, t.since, t.dips);
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "competestart")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t b, f, x, m;

			if (sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32
				   " %" SCNu32, &b, &f, &x, &m) != 4)
				return 2;
			printf("%" PRIu32 "\n", compete_start(b, f, x, m));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "recut")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t s, t;
			int l, r;

			if (sscanf(line, "%d %d %" SCNu32 " %" SCNu32,
				   &l, &r, &s, &t) != 4)
				return 2;
			printf("%d\n", recut_due(l, r, s, t));
		}
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "base")) {
		uint32_t cus = (uint32_t)strtoul(argv[2], NULL, 10);
		uint32_t base = BBR_A_BASE_NONE, a, b, us;
		char k;

		while (fgets(line, sizeof(line), stdin)) {
			if (sscanf(line, "%c %" SCNu32 " %" SCNu32, &k, &a,
				   &b) != 3)
				return 2;
			if (k == 's') {
				if (b)
					base = bbr_a_base_next(base, a);
				continue;
			}
			us = compete_base(b, base);
			base = bbr_a_base_of_us(us);
			printf("%d %" PRIu32 "\n", a > us && a - us > cus, us);
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "phase")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t now, wall, win;

			if (sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32,
				   &now, &wall, &win) != 3)
				return 2;
			printf("%" PRIu32 "\n",
			       bbr_a_grid_phase_of(now, wall, win));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "grid")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t now, stamp, age, win, phase;

			if (sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32
				   " %" SCNu32 " %" SCNu32, &now, &stamp, &age,
				   &win, &phase) != 5)
				return 2;
			printf("%d\n", bbr_a_grid_expired(now, stamp, age, win,
							  phase));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "budget")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t extra, pkts;
			uint64_t own;

			if (sscanf(line, "%" SCNu32 " %" SCNu64 " %" SCNu32,
				   &extra, &own, &pkts) != 3)
				return 2;
			printf("%" PRIu32 "\n",
			       bbr_a_budget_by_rate(extra, own, pkts, 24));
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "short")) {
		while (fgets(line, sizeof(line), stdin)) {
			uint32_t d, max, bw;
			uint64_t sample;

			if (sscanf(line, "%" SCNu32 " %" SCNu64 " %" SCNu32
				   " %" SCNu32, &d, &sample, &max, &bw) != 4)
				return 2;
			d = bbr_a_short_next(d, sample, max);
			printf("%" PRIu32 " %" PRIu32 "\n", d,
			       bbr_a_short_bw(bw, d));
		}
		return 0;
	}
	fprintf(stderr, "usage: math_check maxfilt WIN | rttmax | scale | cbrt | isqrt | pktsrate | avgtarget | txstart | cubic | reno | lawrtt | continue | compete SET CLEAR | grid | budget | short | base COMPETE_US\n");
	return 2;
}
