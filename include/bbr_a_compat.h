/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences that tcp_bbr_a.c meets, all in one place.
 *
 * Version checks rather than feature probes: every difference below is a
 * plain rename or signature change in mainline at a known release, and the
 * distribution kernels we support (Debian 6.1 and 6.12) follow mainline here.
 * Tested: 6.1 and 6.12. The < 6.1 branches are cheap and compile-untested.
 */
#ifndef _BBR_A_COMPAT_H
#define _BBR_A_COMPAT_H

#include <linux/version.h>
#include <net/tcp.h>

/*
 * 6.10 passes the ACK sequence and the ACK flags to cong_control. BBR needs
 * neither; BBR_A_CONG_CONTROL(fn) declares fn with whichever prototype the
 * kernel's struct tcp_congestion_ops expects, and the body uses sk and rs.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define BBR_A_CONG_CONTROL(fn)						\
	void fn(struct sock *sk, u32 ack, int flag,			\
		const struct rate_sample *rs)
#else
#define BBR_A_CONG_CONTROL(fn)						\
	void fn(struct sock *sk, const struct rate_sample *rs)
#endif

/* 6.2 renamed prandom_u32_max() to get_random_u32_below(). */
#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define get_random_u32_below(ceil)	prandom_u32_max(ceil)
#endif

/* 6.0 split the GSO limit; the legacy 64 KB one is what BBR sizes TSO by. */
#ifndef GSO_LEGACY_MAX_SIZE
#define GSO_LEGACY_MAX_SIZE		GSO_MAX_SIZE
#endif

/* 5.19 wrapped tp->snd_cwnd in accessors. */
#if KERNEL_VERSION(5, 19, 0) > LINUX_VERSION_CODE
static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	tp->snd_cwnd = val;
}
#endif

#endif /* _BBR_A_COMPAT_H */
