#!/usr/bin/python3
"""A mahimahi trace as the bottleneck's rate: the replay schedule scenario.sh --rate-trace runs.

    rate_trace.py schedule TRACE DURATION [--bin-ms MS]
        the schedule for a run of DURATION s, one 'T MBIT' line a change (T: s after the
        first flow's start), on stdout; exit 2 with one line for a bad trace
    rate_trace.py stats TRACE
        'lines N period_ms P mean_mbps M' of a good trace

A trace (mahimahi's format, e.g. its traces/*.down) has one line per opportunity to
deliver one 1500-byte packet: its time in ms from the trace's start, whole, never
decreasing; a ms on n lines is n packets in it. mm-link replays it in a loop whose period is
the last timestamp, and so does the schedule: the trace repeats until the run ends. The htb
cannot follow single opportunities, so the schedule is the rate of each bin of MS ms (100 by
default): the opportunities in the bin x one full frame of the testbed (1514 bytes: the
1500-byte packet and its Ethernet header, what htb counts) / MS, so the bin passes as many
packets as the trace does. A bin without an opportunity gets 0.012 Mbit/s (one frame a
second, about an outage: htb's rate cannot be 0). Only changes are written (the first line
is at 0). testbed/README.md, "Paths that change", says why 100 ms.
"""
import sys

import cli_frame

FRAME_BITS = 1514 * 8
FLOOR_MBIT = 0.012


class TraceError(Exception):
    """A bad trace: one line naming the file and the problem."""


def read_trace(path):
    """The trace's timestamps (ms, whole, not decreasing); TraceError for a bad one."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise TraceError(f"{path}: cannot read ({e.strerror})")
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not a text file")
    stamps, prev = [], 0
    for n, line in enumerate(text.splitlines(), 1):
        w = line.strip()
        if not w:
            continue
        if not w.isdigit():
            raise TraceError(f"{path}: line {n}: '{w[:40]}' is not a time in whole ms "
                             "(mahimahi: one line per packet opportunity)")
        v = int(w)
        if v < prev:
            raise TraceError(f"{path}: line {n}: {v} ms is before the line above ({prev} ms)")
        stamps.append(v)
        prev = v
    if not stamps:
        raise TraceError(f"{path}: empty (no packet opportunity)")
    if stamps[-1] <= 0:
        raise TraceError(f"{path}: all opportunities at 0 ms: no period to repeat")
    return stamps


def bin_counts(stamps, duration_s, bin_ms):
    """Opportunities per bin of bin_ms over [0, duration_s), the trace repeated with its
    period (the last timestamp, as mm-link)."""
    period = stamps[-1]
    nbins = -(-int(duration_s * 1000) // bin_ms)
    counts = [0] * nbins
    base = 0
    while base < nbins * bin_ms:
        for t in stamps:
            b = (base + t) // bin_ms
            if b >= nbins:
                break
            counts[b] += 1
        base += period
    return counts


def schedule(stamps, duration_s, bin_ms=100):
    """[(T s, Mbit/s)] of the changes: each bin's rate, only where it changes."""
    out, last = [], None
    for i, c in enumerate(bin_counts(stamps, duration_s, bin_ms)):
        rate = round(max(c * FRAME_BITS / (bin_ms * 1000), FLOOR_MBIT), 3)
        if rate != last:
            out.append((i * bin_ms / 1000, rate))
            last = rate
    return out


def command(argv):
    """rate_trace.py's commands (see the module's docstring): the exit status, None for
    arguments that name none."""
    if len(argv) in (3, 5) and argv[0] == "schedule":
        bin_ms = 100
        if len(argv) == 5:
            if argv[3] != "--bin-ms" or not argv[4].isdigit() or not 1 <= int(argv[4]) <= 10000:
                raise TraceError(f"--bin-ms: '{argv[4]}' is not a whole number of ms in 1..10000")
            bin_ms = int(argv[4])
        try:
            duration = float(argv[2])
        except ValueError:
            duration = 0
        if not 0 < duration <= 100000:
            raise TraceError(f"'{argv[2]}' is not a duration in s (0 < s <= 100000)")
        for t, r in schedule(read_trace(argv[1]), duration, bin_ms):
            print(f"{t:.3f} {r:.3f}")
        return 0
    if len(argv) == 2 and argv[0] == "stats":
        st = read_trace(argv[1])
        print(f"lines {len(st)} period_ms {st[-1]} "
              f"mean_mbps {len(st) * FRAME_BITS / (st[-1] * 1000):.3f}")
        return 0
    return None


def main(argv=None):
    return cli_frame.run("rate_trace.py", __doc__, TraceError, command, argv)


if __name__ == "__main__":
    sys.exit(main())
