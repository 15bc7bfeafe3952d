/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences that the module's sources meet, all in one place.
 *
 * Each is decided by a feature probe of the headers the module is built
 * against (Kbuild greps them and defines BBR_A_HAVE_*), not by the kernel
 * version: distribution kernels backport API changes (Debian's 6.1.192 has
 * get_random_u32_below, which mainline added in 6.2), and the probe reads
 * what the build actually sees. Built and tested: Debian's 6.1, 6.12 and
 * 7.x, the UML 6.1 kernel the testbed builds, and its 6.12 peer kernel
 * with the BBRv3 patch (BBR_A_UML_PATCH).
 */
#ifndef _BBR_A_COMPAT_H
#define _BBR_A_COMPAT_H

#include <linux/moduleparam.h>
#include <net/tcp.h>

/*
 * Since 6.10, cong_control also gets the ACK's sequence and flags. BBR needs
 * neither; BBR_A_CONG_CONTROL(fn) declares fn with whichever prototype the
 * kernel's struct tcp_congestion_ops expects, and the body uses sk and rs.
 */
#ifdef BBR_A_HAVE_CONG_CONTROL_ACK_FLAG
#define BBR_A_CONG_CONTROL(fn)						\
	void fn(struct sock *sk, u32 ack, int flag,			\
		const struct rate_sample *rs)
#else
#define BBR_A_CONG_CONTROL(fn)						\
	void fn(struct sock *sk, const struct rate_sample *rs)
#endif

/*
 * Since 7.1, CA_EVENT_TX_START (the first send after idle) goes to its own
 * hook, cwnd_event_tx_start, and no longer to cwnd_event. BBR needs no other
 * event: BBR_A_OPS_TX_START(fn, ev) fills whichever member the kernel calls,
 * and BBR_A_DEFINE_CWND_EVENT(ev, fn) defines, for older kernels, the
 * cwnd_event ev that passes CA_EVENT_TX_START on to fn. On 7.1 and later a
 * build whose probe missed the hook stops in Kbuild.
 */
#ifdef BBR_A_HAVE_CWND_EVENT_TX_START
#define BBR_A_OPS_TX_START(fn, ev)	.cwnd_event_tx_start = (fn)
#define BBR_A_DEFINE_CWND_EVENT(ev, fn)
#else
#define BBR_A_OPS_TX_START(fn, ev)	.cwnd_event = (ev)
#define BBR_A_DEFINE_CWND_EVENT(ev, fn)					\
static void ev(struct sock *sk, enum tcp_ca_event event)		\
{									\
	if (event == CA_EVENT_TX_START)					\
		fn(sk);							\
}
#endif

/* The core's TSO hook: in its object only (bbr_a_core.c defines BBR_A_CORE). */
#ifdef BBR_A_CORE
/*
 * A kernel with the BBRv3 patch (google/bbr v3; docs/backends.md, the UML
 * peer kernel) asks the congestion control for the whole TSO burst,
 * tso_segs(sk, mss_now), instead of only its minimum, min_tso_segs(sk),
 * and sizes the burst itself only when the hook is missing. For such a
 * kernel, bbr_a_tso_segs() sizes it as the unpatched kernel does
 * (tcp_tso_autosize() in net/ipv4/tcp_output.c: the pacing rate's bytes per
 * 2^sk_pacing_shift s, plus a share of the GSO limit that shrinks as
 * min_rtt grows, at most the GSO limit) with the module's minimum,
 * bbr_min_tso_segs() of bbr_a_core.c; BBR_A_OPS_TSO_SEGS fills whichever
 * member the kernel has.
 */
static u32 bbr_min_tso_segs(struct sock *sk);

#ifdef BBR_A_HAVE_CA_TSO_SEGS
#define BBR_A_OPS_TSO_SEGS	.tso_segs = bbr_a_tso_segs

static u32 bbr_a_tso_segs(struct sock *sk, unsigned int mss_now)
{
	unsigned int gso_max = READ_ONCE(sk->sk_gso_max_size);
	unsigned long bytes;
	u32 shift;

	bytes = READ_ONCE(sk->sk_pacing_rate) >>
		READ_ONCE(sk->sk_pacing_shift);
	shift = tcp_min_rtt(tcp_sk(sk)) >>
		READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_tso_rtt_log);
	if (shift < BITS_PER_TYPE(gso_max))
		bytes += gso_max >> shift;
	bytes = min_t(unsigned long, bytes, gso_max);
	return max_t(u32, bytes / mss_now, bbr_min_tso_segs(sk));
}
#else
#define BBR_A_OPS_TSO_SEGS	.min_tso_segs = bbr_min_tso_segs
#endif
#endif /* BBR_A_CORE */

/* Older kernels: prandom_u32_max(), renamed get_random_u32_below() in 6.2. */
#ifndef BBR_A_HAVE_GET_RANDOM_U32_BELOW
#define get_random_u32_below(ceil)	prandom_u32_max(ceil)
#endif

/* Before 6.0 there was one GSO limit; the legacy 64 KB one sizes TSO here. */
#ifndef GSO_LEGACY_MAX_SIZE
#define GSO_LEGACY_MAX_SIZE		GSO_MAX_SIZE
#endif

/* Before 5.19, tp->snd_cwnd had no accessors. */
#ifndef BBR_A_HAVE_TCP_SND_CWND_SET
static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	tp->snd_cwnd = val;
}
#endif

/*
 * param_set_uint_minmax() came with 5.15 (and later to the 5.4 and 5.10
 * stable series: Debian's 5.10 has it). Before it, the same parser:
 * kstrtouint() with base 0, then the range; -EINVAL without a value.
 */
#ifndef BBR_A_HAVE_PARAM_SET_UINT_MINMAX
static inline int bbr_a_param_set_uint_minmax(const char *val,
					      const struct kernel_param *kp,
					      unsigned int min, unsigned int max)
{
	unsigned int num;
	int ret;

	if (!val)
		return -EINVAL;
	ret = kstrtouint(val, 0, &num);
	if (ret)
		return ret;
	if (num < min || num > max)
		return -EINVAL;
	*((unsigned int *)kp->arg) = num;
	return 0;
}

#define param_set_uint_minmax(val, kp, min, max)			\
	bbr_a_param_set_uint_minmax(val, kp, min, max)
#endif

/*
 * Kernels built with CONFIG_INIT_STACK_ALL_ZERO (Debian's are) zero every
 * local variable on entry. A local marked bbr_a_no_autoinit is one whose
 * every field is written before it is read: the per-ACK context, whose
 * zeroing is otherwise a string store on every ACK. Compilers without the
 * attribute (and sparse) get the plain declaration.
 */
#if defined(__has_attribute) && !defined(__CHECKER__)
#if __has_attribute(__uninitialized__)
#define bbr_a_no_autoinit	__attribute__((__uninitialized__))
#endif
#endif
#ifndef bbr_a_no_autoinit
#define bbr_a_no_autoinit
#endif

#endif /* _BBR_A_COMPAT_H */
