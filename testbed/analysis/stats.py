"""Statistics: Jain's index, utilisation, counters and intervals, means and 95 %
confidence intervals (Student t)."""
import math


def jain(xs):
    """Jain's fairness index; None when undefined (no flows, or all zero)."""
    xs = list(xs)
    if not xs:
        return None
    if any(x < 0 for x in xs):
        raise ValueError("Jain's index of negative throughput")
    s2 = sum(x * x for x in xs)
    if s2 == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * s2)


def utilization(total_bytes, rate_mbit, seconds):
    if rate_mbit <= 0 or seconds <= 0:
        raise ValueError("rate and interval must be positive")
    return total_bytes * 8 / (rate_mbit * 1e6 * seconds)


def bytes_in_window(intervals, offset, w0, w1):
    """Bytes of [(start, end, bytes)] (times relative to offset) inside [w0, w1], prorated."""
    total = 0.0
    for start, end, nbytes in intervals:
        a, b = offset + start, offset + end
        if b <= a:
            continue
        overlap = min(b, w1) - max(a, w0)
        if overlap > 0:
            total += nbytes * overlap / (b - a)
    return total


def counter_at(samples, t):
    """Linear interpolation of a cumulative counter [(time, value)] (sorted) at time t,
    clamped to the first/last sample; None without samples."""
    if not samples:
        return None
    if t <= samples[0][0]:
        return samples[0][1]
    for (ta, va), (tb, vb) in zip(samples, samples[1:]):
        if ta <= t <= tb:
            return va if tb == ta else va + (vb - va) * (t - ta) / (tb - ta)
    return samples[-1][1]


def percentile(xs, p):
    """Nearest-rank percentile (p in 0..100); None for no data."""
    if not xs:
        return None
    s = sorted(xs)
    k = max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))
    return s[k]


def mean(xs):
    return sum(xs) / len(xs) if xs else None


# two-sided 95 % Student t quantiles by degrees of freedom (1..30); beyond: 1.96
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci95(xs):
    """(mean, half-width of the 95 % confidence interval); half-width None below 2 values."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    t = T95[len(xs) - 2] if len(xs) - 1 <= len(T95) else 1.96
    return m, t * sd / math.sqrt(len(xs))
