/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixed-width types and the 64-bit division that the pure arithmetic
 * headers (bbr_a_gain.h, bbr_a_math.h) use, in the kernel and in userspace,
 * where the host tests compile those headers on their own.
 */
#ifndef _BBR_A_TYPES_H
#define _BBR_A_TYPES_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/types.h>
#define bbr_a_div_u64(n, d)	div64_u64(n, d)
#define bbr_a_fls64(x)		fls64(x)
#define bbr_a_fls(x)		fls(x)
#define bbr_a_div_u64_rem(n, d, r)	div_u64_rem(n, d, r)
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
#define bbr_a_div_u64(n, d)	((n) / (d))
#ifndef __always_inline
#define __always_inline	inline
#endif
#define bbr_a_fls64(x)		((x) ? 64 - __builtin_clzll(x) : 0)
#define bbr_a_fls(x)		((x) ? 32 - __builtin_clz(x) : 0)
static inline u64 bbr_a_div_u64_rem(u64 n, u32 d, u32 *r)
{
	*r = (u32)(n % d);
	return n / d;
}
#endif

/*
 * n / d, d not 0, for divisions made on every ACK (the probe gains, a slow
 * flow's budgets): where both fit in 32 bits, as they do but for extreme
 * inputs, a 32-bit division, which gives the same quotient for a fraction
 * of a 64-bit one's cost and without the library call a 32-bit kernel makes
 * for div64_u64(); else the 64-bit one.
 */
static inline u64 bbr_a_div_u64_fit(u64 n, u64 d)
{
	if (!((n | d) >> 32))
		return (u32)n / (u32)d;
	return bbr_a_div_u64(n, d);
}

#endif /* _BBR_A_TYPES_H */
