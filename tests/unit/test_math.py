"""Host tests of include/bbr_a_math.h against reference models written here.

- The bandwidth filter must make the decisions of the kernel's lib/win_minmax.c (modelled
  below with unbounded round numbers) although it keeps its round stamps in 7 bits: long
  stretches of rounds without a sample (an app-limited or idle flow) are where a narrow
  stamp would wrap and keep a stale maximum.
- bbr_a_fair's rtt_max: a peak fades by half per window and never jumps to the current
  sample (0.4.0 replaced it with the current sample at each window's end, so phi jumped
  to about 1 and rtt_max - min_rtt could fall to a microsecond).
- The overflow-free scaling of DA-BBR's BDP: bw x min_rtt x rtt overflowed 64 bits.
"""
import math
import pathlib
import random
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = pathlib.Path(__file__).with_name("math_check.c")
CC = shutil.which("gcc") or shutil.which("cc")

pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

FLAGS = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
         "-fsanitize=undefined", "-fno-sanitize-recover=all"]
WIN = 10  # BBR's bw filter window, rounds


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    d = tmp_path_factory.mktemp("math")

    def make(*defines, name="math_check"):
        exe = d / name
        if not exe.exists():
            subprocess.run([CC, *FLAGS, *defines, f"-I{ROOT / 'include'}", str(SRC),
                            "-o", str(exe)], check=True)
        return exe
    return make


def run(exe, *args, stdin):
    p = subprocess.run([str(exe), *args], input=stdin, capture_output=True, text=True)
    assert p.returncode == 0 and "runtime error" not in p.stderr, p.stderr
    return p.stdout.split("\n")[:-1]


class MinmaxModel:
    """lib/win_minmax.c's running max, with Python's unbounded integers as time."""

    def __init__(self, win):
        self.win, self.s = win, [(0, 0)] * 3

    def reset(self, t, v):
        self.s = [(t, v)] * 3
        return v

    def update(self, t, v):
        s, win = self.s, self.win
        if v >= s[0][1] or t - s[2][0] > win:
            return self.reset(t, v)
        if v >= s[1][1]:
            s[2] = s[1] = (t, v)
        elif v >= s[2][1]:
            s[2] = (t, v)
        dt = t - s[0][0]
        if dt > win:
            s[0], s[1], s[2] = s[1], s[2], (t, v)
            if t - s[0][0] > win:
                s[0], s[1], s[2] = s[1], s[2], (t, v)
        elif s[1][0] == s[0][0] and dt > win // 4:
            s[2] = s[1] = (t, v)
        elif s[2][0] == s[1][0] and dt > win // 2:
            s[2] = (t, v)
        return s[0][1]


def random_ops(rng, n):
    """Rounds and samples: mostly busy rounds, some long silences (up to 400 rounds)."""
    ops, level = [], 1000
    for _ in range(n):
        r = rng.random()
        if r < 0.02:
            ops += ["r"] * rng.randint(20, 400)
        elif r < 0.35:
            ops.append("r")
        else:
            level = max(1, level + rng.randint(-300, 300))
            ops.append(f"u {rng.randint(0, level) if rng.random() < 0.3 else level}")
    return ops


def model_outputs(ops, win):
    m, t, out = MinmaxModel(win), 0, []
    for op in ops:
        if op == "r":
            t += 1
        else:
            out.append(str(m.update(t, int(op.split()[1]))))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_maxfilt_decides_as_win_minmax(build, seed):
    ops = random_ops(random.Random(seed), 20000)
    got = run(build(), "maxfilt", str(WIN), stdin="\n".join(ops) + "\n")
    want = model_outputs(ops, WIN)
    assert len(want) > 10000
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    assert got == want, f"first difference at sample {first}: {got[first]} != {want[first]}"


def test_maxfilt_forgets_a_max_after_a_silence_of_any_length(build):
    """A maximum, then silences of 128 .. 130 rounds, then a smaller sample: the window is
    long over, so the smaller sample is the new maximum (a 7-bit stamp alone would see an
    age of 0 .. 2 rounds and keep the old maximum)."""
    for gap in (127, 128, 129, 130, 256, 1000):
        ops = ["u 5000"] + ["r"] * gap + ["u 10"]
        assert run(build(), "maxfilt", str(WIN), stdin="\n".join(ops) + "\n") == \
            ["5000", "10"], gap


def test_maxfilt_checker_catches_a_filter_without_the_stale_flag(build):
    ops = ["u 5000"] + ["r"] * 128 + ["u 10"]
    got = run(build("-DMUTANT_NO_STALE", name="mutant"), "maxfilt", str(WIN),
              stdin="\n".join(ops) + "\n")
    assert got == ["5000", "5000"]


def rtt_max_model(rtt_max, rtt, base, over):
    restart = False
    if over:
        if rtt_max > base:
            rtt_max = base + (rtt_max - base) // 2
        restart = True
    if rtt > rtt_max:
        rtt_max, restart = rtt, True
    return rtt_max, restart


def test_rtt_max_fades_and_never_jumps_to_the_sample(build):
    cases = [(30000, 10500, 10000, 1), (30000, 10500, 10000, 0), (30000, 40000, 10000, 1),
             (10001, 10000, 10000, 1), (10000, 9000, 10000, 1), (0, 5000, 0, 0),
             (2**32 - 1, 0, 0, 1), (2**32 - 1, 2**32 - 1, 2**32 - 2, 1)]
    rng = random.Random(1)
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1),
               rng.randint(0, 1)) for _ in range(5000)]
    got = run(build(), "rttmax", stdin="".join(f"{a} {b} {c} {d}\n" for a, b, c, d in cases))
    want = [f"{m} {int(r)}" for m, r in (rtt_max_model(*c) for c in cases)]
    assert got == want
    # The property the fix is for: at a window's end with a near-empty queue (rtt 0.5 ms
    # above base), a 20 ms queueing peak halves to 10 ms; 0.4.0 took the 0.5 ms sample.
    assert got[0] == "20000 1"


@pytest.mark.parametrize("w, mul, div", [
    (17380000000000, 1200000, 2400000), (2**64 - 1, 2**31 - 1, 2**32 - 1), (2**64 - 1, 1, 1),
    (0, 5, 7), (12345, 0, 3), (2**63 + 12345, 1100000, 1100000 + 1000)])
def test_scale_down_is_exact_where_the_product_overflows(build, w, mul, div):
    """bw x min_rtt is ~1.7e13 at 10 Gbit/s and 1.2 s; times a 1.2 s RTT it wraps 2^64.
    The result must be floor(w * mul / div) exactly."""
    assert run(build(), "scale", stdin=f"{w} {mul} {div}\n") == [str(w * mul // div)]


def test_scale_down_random(build):
    rng = random.Random(7)
    cases = []
    for _ in range(20000):
        div = rng.randint(1, 2**32 - 1)
        cases.append((rng.randint(0, 2**64 - 1), rng.randint(0, div), div))
    got = run(build(), "scale", stdin="".join(f"{w} {m} {d}\n" for w, m, d in cases))
    assert got == [str(w * m // d) for w, m, d in cases]


def test_checks_catch_the_040_arithmetic(build):
    """0.4.0's rtt_max refresh and DA-BBR product, built into the same driver, fail the
    properties above: the refresh takes the 0.5 ms sample, the product wraps."""
    old = build("-DMUTANT_040", name="old040")
    assert run(old, "rttmax", stdin="30000 10500 10000 1\n") == ["10500 1"]
    bw = 10**10 // 8 * 2**24 // (1448 * 10**6)  # 10 Gbit/s of 1448-byte packets, BW_UNIT
    rtt = 1200000  # min_rtt and this ACK's RTT, us
    w = bw * rtt
    got = run(old, "scale", stdin=f"{w} {rtt} {2 * rtt}\n")
    assert got != [str(w * rtt // (2 * rtt))]


def test_cbrt_is_the_floor_cube_root(build):
    rng = random.Random(3)
    xs = [0, 1, 7, 8, 9, 26, 27, 28, 2**63, 2**64 - 1, 999999999999999999]
    xs += [n**3 + d for n in (2**21 - 1, 2**21, 1000, 123456) for d in (-1, 0, 1)]
    xs += [rng.randint(0, 2**64 - 1) for _ in range(20000)]

    def icbrt(x):
        y = round(x ** (1 / 3))
        while y**3 > x:
            y -= 1
        while (y + 1) ** 3 <= x:
            y += 1
        return y
    got = run(build(), "cbrt", stdin="".join(f"{x}\n" for x in xs))
    assert got == [str(icbrt(x)) for x in xs]


def test_isqrt_is_the_floor_square_root(build):
    rng = random.Random(5)
    xs = [0, 1, 2, 3, 4, 5, 8, 9, 10, 2**62, 2**63, 2**64 - 1]
    xs += [n * n + d for n in (2**32 - 1, 2**31, 1000, 65535) for d in (-1, 0, 1)]
    xs += [rng.randint(0, 2**64 - 1) for _ in range(20000)] + list(range(2000))
    got = run(build(), "isqrt", stdin="".join(f"{x}\n" for x in xs))
    assert got == [str(math.isqrt(x)) for x in xs]


def rate16_model(x):
    """16 bits: exponent e (5 bits), mantissa (11 bits, leading 1 implied for e >= 1)."""
    if x < 1 << 11:
        return x, x
    e = x.bit_length() - 11
    m = (x >> (e - 1)) & 0x7FF
    return (e << 11) | m, ((1 << 11) | m) << (e - 1)


def test_a_rate_in_16_bits_is_within_1_2048_below_it_and_keeps_order(build):
    rng = random.Random(16)
    xs = [0, 1, 2047, 2048, 2049, 4095, 4096, 2**24, 2**32 - 1]
    xs += [rng.randrange(1 << rng.randrange(1, 33)) for _ in range(5000)]
    got = run(build(), "rate16", stdin="".join(f"{x}\n" for x in xs))
    for x, line in zip(xs, got):
        v, back = map(int, line.split())
        assert (v, back) == rate16_model(x), x
        assert v < 1 << 16
        assert back <= x and (x - back) * 2048 <= x, x
    # the encoding is monotonic: a larger rate never reads back smaller
    order = sorted(set(xs))
    got = run(build(), "rate16", stdin="".join(f"{x}\n" for x in order))
    backs = [int(line.split()[1]) for line in got]
    assert backs == sorted(backs)


def test_every_16_bit_rate_reads_back_to_its_own_code(build):
    """of(get(v)) == v for every code up to exponent 21 (the largest a u32 rate has):
    no two codes name one rate, so a stored bound never moves when stored again."""
    codes = range(22 << 11)
    rates = [v if v >> 11 == 0 else ((1 << 11) | (v & 0x7FF)) << ((v >> 11) - 1)
             for v in codes]
    got = run(build(), "rate16", stdin="".join(f"{x}\n" for x in rates))
    assert [int(line.split()[0]) for line in got] == list(codes)
    assert [int(line.split()[1]) for line in got] == rates


def test_packet_allowance_of_a_slow_flow_is_the_geometric_mean(build):
    shift = 24
    cases = [(32, 32 << shift), (32, 40 << shift), (32, 8 << shift),  # covered, covered, sqrt(256)
             (32, (8 << shift) - 1), (32, 0), (0, 5 << shift), (10000, 1), (2**20, (2**20 << shift) - 1)]
    rng = random.Random(9)
    cases += [(rng.randint(0, 10000), rng.randint(0, 10001 << shift)) for _ in range(5000)]
    # at fair_cwnd_pkts' limit, just short of filling it: the largest product the module makes
    cases += [(10000, (10000 << shift) - d) for d in (1, 2**20, 2**30)]
    got = run(build(), "pktsrate", stdin="".join(f"{p} {o} {shift}\n" for p, o in cases))
    want = [str(p if o >= p << shift else math.isqrt(p * o >> shift)) for p, o in cases]
    assert got == want
    # a flow that sends 8 packets in the time (about 5 Mbit/s of 1448-byte packets for 20 ms,
    # one of 20 on 100 Mbit/s) keeps half of 32; one that sends 32 or more keeps all
    assert got[2] == "16"
    assert got[0] == "32" and got[1] == "32"


def test_a_rate_fills_its_packets_exactly_from_the_least_rate_on(build):
    """bbr_a_rate_fills: the least bw with bw x us >= pkts << shift, so that bbr_a_fair's
    per-ACK test of a slow flow, a comparison with it, says what the product said; a rate
    one below it is slow. Rounding it down (or up once more) makes one of them wrong."""
    shift, us = 24, 10000
    cases = [(32, us, shift), (0, us, shift), (1, us, shift), (10000, us, shift),
             (10000, 1000, shift), (3, 7, 0)]
    rng = random.Random(17)
    cases += [(rng.randint(0, 10000), rng.randint(1000, 10**6), shift) for _ in range(3000)]
    got = [int(x) for x in run(build(), "ratefills",
                               stdin="".join(f"{p} {u} {s}\n" for p, u, s in cases))]
    for (p, u, s), r in zip(cases, got):
        assert r * u >= p << s, (p, u, s, r)
        assert r == 0 or (r - 1) * u < p << s, (p, u, s, r)
    # 32 packets of 1448 bytes in 10 ms: 37.06 Mbit/s
    assert abs(got[0] * 1448 * 8 / 2**24 - 37.06) < 0.01


def test_probe_rtt_holds_its_share_of_the_bdp(build):
    """bbr_a_bdp_share: floor(floor(bw x rtt / 2^shift) x pm / 1000), at least lo, at most
    2^32 - 1, exact for every bw and rtt with pm up to 1000 and shift at least 24 (its
    stated range; the module passes BW_SCALE and at most 900)."""
    shift = 24
    cases = [(1 << shift >> 4, 16000, 500, shift, 4), (0, 20000, 500, shift, 4),
             (2**32 - 1, 2**32 - 1, 1000, shift, 4), (2**32 - 1, 2**32 - 1, 1000, 32, 0),
             (1 << shift, 3, 999, shift, 0)]
    rng = random.Random(13)
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1), rng.randint(0, 1000),
               rng.choice((24, 32)), rng.randint(0, 8)) for _ in range(5000)]
    got = run(build(), "bdpshare", stdin="".join(" ".join(map(str, c)) + "\n" for c in cases))
    want = [str(min(max(((b * r >> s) * pm) // 1000, lo), 2**32 - 1)) for b, r, pm, s, lo in cases]
    assert got == want
    # a sixteenth of a packet per us for 16 ms: a BDP of 1000 packets, half of it at 500
    assert got[0] == "500"
    # no rate: the floor; the largest inputs: above 2^32 packets, held at 2^32 - 1
    assert got[1] == "4" and got[2] == str(2**32 - 1)


def test_the_average_target_waits_for_the_dips(build):
    """bbr_a_avg_target: the average sizes the target unless a competitor is flagged, the
    last loss round was lossy, or PROBE_RTTs in a row left a queue."""
    cases = [(c, l, d) for c in (0, 1) for l in (0, 1) for d in range(4)]
    got = run(build(), "avgtarget", stdin="".join(f"{c} {l} {d}\n" for c, l, d in cases))
    want = [str(int(not c and not l and not d)) for c, l, d in cases]
    assert got == want
    by = dict(zip(cases, got))
    assert by[(0, 0, 2)] == "0" and by[(0, 0, 0)] == "1"


def test_cubic_bound_follows_cubics_law(build):
    """x_max (1 - beta (1 - t/K)^3): 0.7 x_max at t = 0, x_max at K, 1.3 x_max at 2 K,
    9.1 x_max at 4 K, expired (0) after it; within 0.1 % (+1) of the real-valued law everywhere else."""
    rng = random.Random(5)
    cases = [(1000000, 0, 5000, 300), (1000000, 5000, 5000, 300),
             (1000000, 10000, 5000, 300), (1000000, 20000, 5000, 300),
             (1000000, 20001, 5000, 300), (2**32 - 1, 19999, 5000, 1000), (123, 7, 0, 300)]
    cases += [(rng.randint(1, 2**32 - 1), rng.randint(0, 4 * k), k, rng.randint(0, 1000))
              for k in (rng.randint(1, 60000) for _ in range(5000))]
    got = [int(v) for v in run(build(), "cubic",
                               stdin="".join(f"{x} {t} {k} {b}\n" for x, t, k, b in cases))]
    assert [abs(g - w) <= 1 for g, w in zip(got[:4], [700000, 1000000, 1300000, 9100000])] \
        == [True] * 4, got[:4]
    assert got[4] == 0
    assert got[6] == 123
    for (x, t, k, b), g in zip(cases, got):
        if not k or t > 4 * k:
            continue
        want = min(x * (1 - b / 1000 * (1 - t / k) ** 3), 2**32 - 1)
        assert abs(g - want) <= want * 1e-3 + 1, (x, t, k, b, g, want)


def cubic_model(x, t, k, b):
    """bbr_a_cubic_bound's integer arithmetic, exactly, with Python's unbounded integers."""
    if not k:
        return x
    if t > 4 * k:
        return 0
    r = (abs(t - k) << 16) // k
    r3 = r ** 3 * b // 1000
    f = ((1 << 48) + r3 if t > k else (1 << 48) - r3) >> 28
    return min(x * f >> 20, 2**32 - 1)


def reno_model(x, t, r, b):
    base = x * (1000 - b) // 1000
    if not r or b >= 1000:
        return base
    add = min(((min(t, 2**22) * 1000) << 24) // (r * r), 2**50) * 3 * b // (2000 - b)
    return min(base + add, 2**32 - 1)


def test_cubic_bound_is_the_same_integer_law_with_its_32_bit_division(build):
    """|t - K| / K takes a 32-bit division where it fits (t within 65 s of K): the same
    quotient as the 64-bit one, so every bound is the one 0.23.0 gave, to the unit."""
    rng = random.Random(13)
    cases = [(rng.randint(1, 2**32 - 1), rng.randint(0, 4 * k + 2), k, rng.choice((100, 300)))
             for k in (rng.randint(1, 2**15 - 1) for _ in range(4000))]
    cases += [(10**6, k + (1 << 16) + d, k, 300) for k in (2**15 - 1, 30000) for d in (-1, 0, 1)]
    got = [int(v) for v in run(build(), "cubic",
                               stdin="".join(f"{x} {t} {k} {b}\n" for x, t, k, b in cases))]
    assert got == [cubic_model(*c) for c in cases]


def test_the_cwnd_target_saturates_rather_than_wrapping(build):
    """bw x w rounded up plus pkts; above 2^31 - 1 packets it stays there (TCP's infinite
    window, so that the budgets added to it stay in 32 bits). 0.23.0 (MUTANT_0230) kept the
    low 32 bits of a larger target: bw and w at their 32-bit maxima, about 2^40 packets, came
    out as 9489."""
    rng = random.Random(19)
    cases = [(rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1), rng.randint(0, 10000))
             for _ in range(5000)]
    cases += [(35000, 2**32 - 1, 32), (2**32 - 1, 2**32 - 1, 10000), (35000, 2**31, 32),
              (15000, 10**6, 32), (15000, 2**24, 100)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    want = [min(-(-w * bw // 2**24) + p, 2**31 - 1) for w, bw, p in cases]
    assert [int(v) for v in run(build(), "target", stdin=stdin)] == want
    old = [int(v) for v in run(build("-DMUTANT_0230", name="old0230"), "target", stdin=stdin)]
    assert want[5001] == 2**31 - 1 and old[5001] == 9489


def test_a_law_s_bound_skips_reno_at_its_rtt_only_where_it_cannot_win(build):
    """bbr_a_law_bound is max(CUBIC's, Reno's at the law's RTT), 0 once CUBIC's expired:
    Reno's estimate falls as the RTT grows, so the one at the law's lowest RTT bounds it;
    the cases include over a hundred where Reno's is the higher."""
    rng = random.Random(17)
    cases = []
    for _ in range(6000):
        k = rng.randint(1, 2**15 - 1)
        lo = rng.choice((10000, 20000, rng.randint(1, 10**6)))
        r = lo if rng.random() < 0.3 else rng.randint(lo, lo + rng.choice((10, 10**4, 10**6)))
        cases.append((rng.randint(1, 2**32 - 1), rng.randint(0, 4 * k + 2), k,
                      rng.choice((100, 300, rng.randint(0, 999))), r, lo))
    # small windows early in the law, where Reno's estimate is the higher
    cases += [(rng.randint(1, 2**16), rng.randint(0, 3000), rng.randint(200, 3000), 300,
               rng.randint(10000, 40000), 10000) for _ in range(2000)]
    got = [int(v) for v in run(build(), "lawbound",
                               stdin="".join(" ".join(map(str, c)) + "\n" for c in cases))]
    want = []
    for x, t, k, b, r, lo in cases:
        c = cubic_model(x, t, k, b)
        want.append(0 if not c else max(c, reno_model(x, t, r, b)))
    assert got == want
    assert sum(w > cubic_model(x, t, k, b) for w, (x, t, k, b, r, lo) in zip(want, cases)) > 100


def test_reno_bound_adds_alpha_packets_per_rtt(build):
    """(1 - beta) x_max + alpha t / srtt^2 in packets/us x 2^24, alpha = 3 beta/(2 - beta):
    at beta 0.3 a 25 ms flow regains 0.529 packets per RTT of window, i.e. its rate grows
    by 0.529 / 0.025^2 = 847 packets/s every second."""
    bw_unit = 2**24 / 1e6  # BW_UNIT per packet/s
    x = int(4000 * bw_unit)  # 4000 packets/s
    got = run(build(), "reno", stdin=f"{x} 0 25000 300\n{x} 1000 25000 300\n")
    assert abs(int(got[0]) - 0.7 * x) <= 1
    assert abs((int(got[1]) - int(got[0])) / bw_unit - 3 * 0.3 / 1.7 / 0.025**2) < 1
    rng = random.Random(9)
    cases = [(rng.randint(0, 2**32 - 1), rng.randint(0, 300000), rng.randint(1, 2**32 - 1),
              rng.randint(0, 999)) for _ in range(5000)]
    cases += [(2**32 - 1, 2**32 - 1, 1, 999), (5, 10, 0, 300), (5, 10, 7, 1000)]
    got = [int(v) for v in run(build(), "reno",
                               stdin="".join(f"{a} {b} {c} {d}\n" for a, b, c, d in cases))]
    for (xm, t, r, b), g in zip(cases, got):
        base = xm * (1000 - b) // 1000
        if not r or b >= 1000:
            assert g == base
            continue
        add = min(((min(t, 2**22) * 1000) << 24) // (r * r), 2**50) * 3 * b // (2000 - b)
        assert g == min(base + add, 2**32 - 1), (xm, t, r, b)


def test_a_competing_law_at_a_common_rtt_keeps_the_queueing_delay(build):
    """With a common base RTT C the competing law is taken at C + (srtt - path RTT), not
    below C; without one (C = 0) at srtt. 0.18.2 (MUTANT_0182) took it at C alone: a 50 ms
    flow with 250 ms of queue in a deep buffer then regrew as a 20 ms flow with none, many
    times faster than the CUBIC flow whose queue it shared."""
    cases = [(300000, 50000, 20000), (300000, 50000, 0), (60000, 50000, 20000),
             (40000, 50000, 20000), (2**32 - 1, 0, 2**32 - 1), (0, 0, 1)]
    rng = random.Random(11)
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1), rng.randint(0, 10**6))
              for _ in range(3000)]
    stdin = "".join(f"{a} {b} {c}\n" for a, b, c in cases)
    got = [int(v) for v in run(build(), "lawrtt", stdin=stdin)]
    assert got[:4] == [270000, 300000, 30000, 20000]
    for (srtt, path, common), g in zip(cases, got):
        want = srtt if not common else min(common + max(srtt - path, 0), 2**32 - 1)
        assert g == want, (srtt, path, common, g)
    old = [int(v) for v in run(build("-DMUTANT_0182", name="old0182"), "lawrtt", stdin=stdin)]
    assert old[:2] == [20000, 300000]


def continue_model(x, beta, used):
    """Where an expired bound goes on from: the law's end x (1 + 27 beta), at most twice
    the bw the flow delivered, at least x; at most 2^32 - 1."""
    end = x + x * 27 * beta // 1000
    return min(max(x, min(end, 2 * used)), 2**32 - 1)


def test_an_unused_bound_holds_its_last_maximum(build):
    """A competing flow limited by its application (used bw 1000 against a bound of
    1000000) holds 1000000 when its bound's law ends; one that used its bound (2.5 million
    delivered) goes on from the law's end, 9.1 x at beta 0.3, capped at twice what it
    delivered; 0.8.1's continuation (MUTANT_081) took 9.1 x whatever was used."""
    cases = [(1000000, 300, 1000), (1000000, 300, 2500000), (1000000, 300, 10**9),
             (1000000, 300, 600000), (2**32 - 1, 999, 2**32 - 1), (0, 300, 5)]
    rng = random.Random(11)
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 999), rng.randint(0, 2**32 - 1))
              for _ in range(5000)]
    stdin = "".join(f"{x} {b} {u}\n" for x, b, u in cases)
    got = [int(v) for v in run(build(), "continue", stdin=stdin)]
    assert got[:4] == [1000000, 5000000, 9100000, 1200000], got[:4]
    assert got == [continue_model(*c) for c in cases]
    old = [int(v) for v in run(build("-DMUTANT_081", name="old081"), "continue",
                               stdin=stdin)]
    assert old[0] == 9100000 and old[:4] != got[:4]


def compete_model(dips_in, set_dips, clear_dips):
    """The competitor flag after each dip of dips_in [(queued, off)]: it changes after
    set_dips (clear_dips) dips in a row that say otherwise, at once when the test is off (a
    dip never counts as queued then); the count of such dips saturates at 3."""
    flag, n, out = False, 0, []
    for q, off in dips_in:
        q = q and not off
        n = 0 if q == flag else min(n + 1, 3)
        if off or n >= (clear_dips if flag else set_dips):
            flag, n = q, 0
        out.append(f"{int(flag)} {n}")
    return out


def test_competitor_flag_needs_dips_in_a_row_and_clears_when_the_test_is_turned_off(build):
    """Set after two queued dips in a row, cleared after two drained ones (0.9.0's
    defaults): a queued dip between two drained ones restarts the count. Turning the test
    off (fair_compete_us=0) while the flag is set clears it at the next dip; 0.9.2's
    decision (MUTANT_092) kept it for clear_dips more dips."""
    seq = [(1, 0), (0, 0), (1, 0), (1, 0), (0, 0), (1, 0), (0, 0), (0, 0), (1, 0), (1, 0),
           (0, 1), (1, 1), (1, 0)]
    got = run(build(), "compete", "2", "2", stdin="".join(f"{q} {o}\n" for q, o in seq))
    assert got == compete_model(seq, 2, 2)
    assert [g[0] for g in got] == list("0001111001000"), got
    rng = random.Random(13)
    for s_d, c_d in ((1, 1), (1, 3), (3, 1), (3, 3), (2, 1)):
        seq = [(rng.random() < 0.5, rng.random() < 0.05) for _ in range(400)]
        stdin = "".join(f"{int(q)} {int(o)}\n" for q, o in seq)
        assert run(build(), "compete", str(s_d), str(c_d), stdin=stdin) == \
            compete_model(seq, s_d, c_d)
    seq = [(1, 0), (1, 0), (0, 1)]
    old = run(build("-DMUTANT_092", name="old092"), "compete", "2", "2",
              stdin="".join(f"{q} {o}\n" for q, o in seq))
    assert old[-1] == "1 1"


def dip_model(events, set_dips, clear_dips, compete_us):
    """bbr_a_fair_probe_rtt_done's competitor test over events: "c" the buffer dropped (a
    recovery or an RTO began), ("s", RTT, trusted) an RTT sample, ("d", FLOOR, TCP_MIN) a
    dip. A row of set_dips queued dips sets the flag only if the buffer dropped since the dip
    before the row or a floor of the row moved by more than compete_us from the row's first
    (row 0: it has); else the floor is the path's RTT from then on; while flagged a queued
    dip with neither (against the last dip's floor) counts as drained. The row's floor is
    kept as the path's RTT is, in 64 us units, at least one. Returns "flag base since count" per dip."""
    trusted, row, since, flag, n, out = 65535, 65535, 3, 0, 0, []
    for ev in events:
        if ev == "c":
            since = 0
            continue
        k, a, b = ev
        if k == "s":
            if b:
                trusted = min(trusted, a >> 6, 65535)
            continue
        base, row_us = max(b, trusted << 6), row << 6
        q = int(a > base and a - base > compete_us)
        dropped = since < set_dips
        since = min(since + 1, 3)
        if q and not flag and n == 0:
            row_us = a
        moved = row_us == 0 or abs(a - row_us) > compete_us
        if flag:
            row_us = a
        elif q and moved:
            row_us = 0
        if q and not dropped and not moved and (flag or n + 1 >= set_dips):
            if not flag:
                base = a
            q = 0
        n = 0 if q == flag else min(n + 1, 3)
        if n >= (clear_dips if flag else set_dips):
            if q and not flag:
                row_us = a
            flag, n = q, 0
        trusted, row = min(base >> 6, 65535), max(min(row_us >> 6, 65535), 1) if row_us else 0
        out.append(f"{flag} {base} {since} {n}")
    return out


def events_text(events):
    return "".join((" ".join(map(str, e)) if e != "c" else "c") + "\n" for e in events)


def test_a_route_change_is_no_competitor_and_a_queue_that_moves_or_drops_is_one(build):
    """A path that grows from 10 to 25 ms (a route change, as the changing-paths issue
    found) leaves every later dip 15 ms above tcp_min_rtt, which remembers the old path for
    five minutes: 0.20.0 (MUTANT_0200) took that for a competitor's queue after three dips
    and competed as a buffer filler. The floor stands still and the buffer never drops: the
    row's last floor is the path's RTT and no flag is set; the path coming back down is
    taken at once.

    A CUBIC flow in a 20 BDP buffer (UML, 50 ms, seed 1: bbr_a_fair never lost a packet in
    90 s) leaves floors that grow dip after dip: flagged at the row's third dip, as before; a
    drop as the only evidence (MUTANT_DROPS_ONLY) never flags it. A queue that stands still
    with drops (a CUBIC flow in a shallower buffer) is flagged too; once neither came over
    three dips, two more such dips clear the flag (the competitor left, the path grew)."""
    route = [("s", 10000, 1), ("d", 10100, 10000)] + [("d", 25050, 10000)] * 5 + \
        [("s", 10000, 1), ("d", 10050, 10000)]
    got = run(build(), "dip", "3", "2", "5000", stdin=events_text(route))
    assert got == dip_model(route, 3, 2, 5000)
    assert [g.split()[0] for g in got] == ["0"] * 7, got
    # the old path until the row's third dip, then the new one, then the old one again
    assert [g.split()[1] for g in got] == ["10000", "10000", "10000", "25050", "25024",
                                           "25024", "10000"], got
    old = run(build("-DMUTANT_0200", name="old0200"), "dip", "3", "2", "5000",
              stdin=events_text(route))
    assert [g.split()[0] for g in old][1:6] == ["0", "0", "1", "1", "1"], old

    deep = [("s", 50000, 1)] + [("d", f * 1000, 50000) for f in (767, 813, 912, 904, 1007)]
    got = run(build(), "dip", "3", "2", "5000", stdin=events_text(deep))
    assert got == dip_model(deep, 3, 2, 5000)
    assert [g.split()[0] for g in got] == ["0", "0", "1", "1", "1"], got
    drops_only = run(build("-DMUTANT_DROPS_ONLY", name="dropsonly"), "dip", "3", "2", "5000",
                     stdin=events_text(deep))
    assert [g.split()[0] for g in drops_only] == ["0"] * 5, drops_only

    still = [("s", 10000, 1), "c", ("d", 40000, 10000), ("d", 40500, 10000),
             ("d", 41000, 10000), "c", ("d", 41500, 10000), ("d", 41000, 10000),
             ("d", 40500, 10000), ("d", 40000, 10000), ("d", 40500, 10000)]
    got = run(build(), "dip", "3", "2", "5000", stdin=events_text(still))
    assert got == dip_model(still, 3, 2, 5000)
    flags = [g.split()[0] for g in got]
    assert flags[:3] == ["0", "0", "1"], got   # a drop before the row: the third sets it
    assert flags[3:6] == ["1", "1", "1"], got  # a drop within three dips keeps it
    assert flags[6:] == ["1", "0"], got        # none over three dips, then two: cleared
    # CUBIC in a 5 BDP buffer of 20 ms, the flow starved to a few packets (UML, seed 1, 0.25.0):
    # no drop of its own, floors 88.8, 104.0, 88.2 ms. The queue moved at the second dip and
    # came back at the third; 0.25.0 compared the third with the first only, took the queue
    # for a path grown longer (base 88.2 ms) and flagged the competitor at 190 s instead.
    starved = [("s", 20000, 1)] + [("d", f, 20000) for f in (88800, 104000, 88200)]
    got = run(build(), "dip", "3", "2", "5000", stdin=events_text(starved))
    assert got == dip_model(starved, 3, 2, 5000)
    assert [g.split()[0] for g in got] == ["0", "0", "1"], got
    assert got[-1].split()[1] == "20000", got  # the path stays 20 ms
    # A floor under the path RTT's unit (64 us) is kept as one unit, not as 0, which means
    # "moved": a 20 us path whose two queued floors, 63 and 50 us, stayed within compete_us
    # (20 us) of each other grew longer; it is no competitor (0.26.0 before its release
    # read the first floor back as 0 and flagged it).
    tiny = [("s", 20, 1), ("d", 63, 20), ("d", 50, 20)]
    got = run(build(), "dip", "2", "1", "20", stdin=events_text(tiny))
    assert got == dip_model(tiny, 2, 1, 20)
    assert got == ["0 20 3 1", "0 50 3 0"], got
    rng = random.Random(7)
    for s_d, c_d in ((1, 1), (2, 2), (3, 2), (3, 3)):
        ev = []
        for _ in range(300):
            r = rng.random()
            ev.append("c" if r < 0.1 else ("s", rng.randrange(5000, 90000), int(rng.random() < 0.7))
                      if r < 0.4 else ("d", rng.choice((rng.randrange(5000, 90000), 30000, 30500)),
                                       rng.randrange(5000, 60000)))
        assert run(build(), "dip", str(s_d), str(c_d), "5000", stdin=events_text(ev)) == \
            dip_model(ev, s_d, c_d, 5000)


def base_model(events, compete_us):
    """The competitor test's path RTT: the lowest trusted sample in 64 us units, rounded
    down (65535: none, or 4.19 s and more), and at each dip the higher of it and
    tcp_min_rtt, to which it is then raised."""
    base, out = 65535, []
    for k, a, b in events:
        if k == "s":
            if b:
                base = min(base, a >> 6, 65535)
            continue
        us = max(b, base << 6)
        base = min(us >> 6, 65535)
        out.append(f"{int(a > us and a - us > compete_us)} {us}")
    return out


def test_a_retransmission_s_low_rtt_sample_does_not_make_every_dip_a_queued_one(build):
    """A flow on a 60 ms path whose kernel took a 27 ms RTT sample from a retransmission
    (sent ahead of its pacing slot, stamped with the slot's time), as one of a hundred
    staggered bbr_a_fair flows did (0.15.5, seed 1): tcp_min_rtt says 27 ms for five
    minutes. Its dips reach the path's 60 ms and must be found drained; 0.15.5 measured
    them against tcp_min_rtt alone (MUTANT_0155) and found every one queued, which set the
    competitor flag. A dip with a real queue (70 ms) is still found queued; a path that grew
    longer (tcp_min_rtt rose above every trusted sample) is measured against the longer RTT."""
    ev = [("s", 60100, 1), ("s", 61000, 1), ("s", 27000, 0), ("d", 60200, 27000),
          ("d", 60300, 27000), ("d", 70000, 27000), ("s", 26000, 0), ("d", 90000, 90000),
          ("s", 95000, 1), ("d", 93000, 90000)]
    stdin = "".join(f"{k} {a} {b}\n" for k, a, b in ev)
    got = run(build(), "base", "5000", stdin=stdin)
    assert got == base_model(ev, 5000)
    assert [g.split()[0] for g in got] == ["0", "0", "1", "0", "0"], got
    assert got[0] == f"0 {60100 >> 6 << 6}"
    old = run(build("-DMUTANT_0155", name="old0155"), "base", "5000", stdin=stdin)
    assert [g.split()[0] for g in old][:2] == ["1", "1"], old
    # none yet, and saturation at 4.19 s: tcp_min_rtt is all there is
    assert run(build(), "base", "5000", stdin="d 70000 60000\n") == ["0 4194240"]
    rng = random.Random(5)
    for _ in range(20):
        ev = []
        for _ in range(200):
            if rng.random() < 0.8:
                ev.append(("s", rng.randrange(1000, 6_000_000), int(rng.random() < 0.9)))
            else:
                ev.append(("d", rng.randrange(1000, 6_000_000), rng.randrange(1000, 6_000_000)))
        stdin = "".join(f"{k} {a} {b}\n" for k, a, b in ev)
        assert run(build(), "base", "5000", stdin=stdin) == base_model(ev, 5000)


def short_model(d, sample, mx, bw):
    """The shortfall EWMA of bbr_a_short_next and the bw it leaves, in integers."""
    if mx:
        s = 0 if sample >= mx else 1023 - sample * 1023 // mx
        d = (7 * d + s + 4) // 8
    return f"{d} {bw - (bw * d >> 10)}"


def test_shortfall_converges_to_the_average_below_the_max(build):
    """Samples at 80 % and 100 % of the max in turn average 90 %: the shortfall settles
    within half a percent of 10 % (averaged over one pair: a gain of 1/8 swings
    with them) and the bw it leaves within half a percent of 0.9 x bw;
    samples at the max bring it back to 0; random inputs agree with the model, and bw and
    the sample near 2^32 and 2^40 do not overflow."""
    mx = 1 << 30
    d, ds, bws = 0, [], []
    for i in range(200):
        sample = mx * 8 // 10 if i % 2 else mx
        d, bw = map(int, run(build(), "short", stdin=f"{d} {sample} {mx} {mx}\n")[0].split())
        ds.append(d)
        bws.append(bw)
    assert abs(sum(ds[-2:]) / 2 - 102.4) <= 5, ds[-4:]
    assert abs(sum(bws[-2:]) / 2 / mx - 0.9) < 0.005
    for _ in range(60):
        d = int(run(build(), "short", stdin=f"{d} {mx} {mx} {mx}\n")[0].split()[0])
    assert d <= 4
    rng = random.Random(7)
    cases = [(rng.randrange(1024), rng.randrange(1 << 40), rng.randrange(1 << 32),
              rng.randrange(1 << 32)) for _ in range(500)]
    cases += [(1023, 0, 1, (1 << 32) - 1), (0, (1 << 40) - 1, (1 << 32) - 1, 5), (9, 5, 0, 7)]
    stdin = "".join(f"{d} {s} {m} {b}\n" for d, s, m, b in cases)
    assert run(build(), "short", stdin=stdin) == [short_model(*c) for c in cases]



def test_a_competitor_law_starts_no_higher_than_the_rate_its_bound_was_cut_from(build):
    """A bound that grew by its law to 9 x the rate it was cut from (hr25, 50 ms, 1 BDP,
    seed 4: 340 Mbit/s from 38 on a 100 Mbit/s link) starts a newly found competitor's law
    at that rate, or at bw or STARTUP's bw if higher; 0.14.1 (MUTANT_0141) started it at
    the grown bound and sized cwnd at several BDPs."""
    cases = [(14, 75, 340, 38), (14, 30, 340, 38), (80, 75, 60, 90), (10, 20, 0, 0),
             (2**32 - 1, 0, 2**32 - 1, 2**32 - 1)]
    rng = random.Random(17)
    cases += [tuple(rng.randint(0, 2**32 - 1) for _ in range(4)) for _ in range(3000)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = [int(v) for v in run(build(), "competestart", stdin=stdin)]
    assert got[:4] == [75, 38, 80, 20], got[:4]
    assert got == [max(b, f, min(x, m)) for b, f, x, m in cases]
    old = [int(v) for v in run(build("-DMUTANT_0141", name="old0141"), "competestart",
                               stdin=stdin)]
    assert old[:2] == [340, 340]


def test_a_competing_bound_is_cut_again_only_in_a_lossy_round_of_an_old_recovery(build):
    """Cut again: lossy, still in recovery, the last cut more than two srtts ago. Not in
    the recovery's first rounds (the cut at its start is enough), not outside recovery (a
    new recovery cuts), not in a round under the loss threshold; 0.14.1 (MUTANT_0141)
    never cut again, and 25 s of 50 % loss held the bound at several times the link."""
    cases = [(1, 1, 201, 100000), (1, 1, 200, 100000), (1, 1, 150, 100000),
             (0, 1, 5000, 100000), (1, 0, 5000, 100000), (1, 1, 2**32 - 1, 2**32 - 1),
             (1, 1, 1, 0)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = run(build(), "recut", stdin=stdin)
    assert got == ["1", "0", "0", "0", "0", "1", "1"], got
    rng = random.Random(19)
    cases = [(rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 2**32 - 1),
              rng.randint(0, 2**32 - 1)) for _ in range(3000)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = run(build(), "recut", stdin=stdin)
    assert got == [str(int(bool(lo and r and s * 1000 > 2 * t))) for lo, r, s, t in cases]
    old = run(build("-DMUTANT_0141", name="old0141"), "recut",
              stdin="1 1 201 100000\n")
    assert old == ["0"]


def grid_model(now, stamp, min_age, win, phase=0):
    """bbr_a_grid_expired with unbounded integers: a multiple of win of the 32-bit
    counter + phase in (stamp + min_age, now], now read as at most 2^31 - 1 after it
    (after()'s reading of modular time); the wrap of counter + phase is a boundary too."""
    now, stamp = (now + phase) % 2**32, (stamp + phase) % 2**32
    start = (stamp + min_age) % 2**32
    d = (now - start) % 2**32
    if d == 0 or d >= 2**31:
        return False
    end = start + d  # unwrapped
    first = (start // win + 1) * win  # the first boundary after start
    return first <= end or end >= 2**32


def test_grid_expiry_matches_its_model_with_wrapping_jiffies(build):
    """Expired at the first grid boundary at least min_age after the stamp, never
    before min_age, always by min_age + win; across the 32-bit wrap too."""
    win, min_age = 10000, 5000
    cases = [(25000, 9000, min_age, win), (20000, 9000, min_age, win),
             (20001, 9000, min_age, win), (19999, 14900, min_age, win),
             (20000, 14999, min_age, win), (20000, 15000, min_age, win),
             (30000, 15000, min_age, win), (30001, 15000, min_age, win),
             (5, 2**32 - 10000, min_age, win), (2**32 - 3000, 2**32 - 9000, min_age, win),
             (29999, 15500, min_age, win), (30000, 15500, min_age, win)]
    cases = [c + (0,) for c in cases]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = run(build(), "grid", stdin=stdin)
    # a boundary at now counts; one before min_age (20000 for the stamp 15500) does not
    assert got == ["1", "1", "1", "0", "1", "0", "1", "1", "1", "0", "0", "1"], got
    rng = random.Random(23)
    cases = []
    for _ in range(4000):
        stamp = rng.randint(0, 2**32 - 1)
        phase = rng.choice([0, rng.randint(0, 2**32 - 1)])
        cases.append(((stamp + rng.randint(0, 3 * win)) % 2**32, stamp, min_age, win, phase))
    for _ in range(2000):  # any age, near the wrap and near 2^31 too
        stamp = rng.choice([rng.randint(0, 2**32 - 1), 2**32 - rng.randint(1, 3 * win)])
        age = rng.choice([rng.randint(0, 2**32 - 1), 2**31 + rng.randint(-win, win)])
        cases.append(((stamp + age) % 2**32, stamp, min_age, win, rng.randint(0, 2**32 - 1)))
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = run(build(), "grid", stdin=stdin)
    assert got == [str(int(grid_model(*c))) for c in cases]


def test_flows_stamped_at_any_time_dip_together_on_the_grid(build):
    """The point of the grid: flows whose min_rtt stamps are spread over a window all
    expire in the same tick, one at least min_age after every stamp; with BBRv1's rule
    (10 s after each stamp) they expire spread as their stamps are."""
    win, min_age = 10000, 5000
    rng = random.Random(29)
    stamps = [rng.randint(1000, 4999) for _ in range(100)]
    expired_at = []
    for st in stamps:
        lines = "".join(f"{t} {st} {min_age} {win} 0\n" for t in range(st, st + 2 * win, 7))
        got = run(build(), "grid", stdin=lines)
        expired_at.append(st + 7 * got.index("1"))
    first = min(expired_at)
    assert max(expired_at) - first < 7, expired_at
    assert all(t - st > min_age for t, st in zip(expired_at, stamps))
    assert max(st + win for st in stamps) - min(st + win for st in stamps) > 3000


def test_each_namespace_dips_on_its_own_phase_of_the_grid(build):
    """Separate hosts' clocks are not in step: a namespace's boundaries fall where
    jiffies + its phase is a multiple of win, so two namespaces' flows stamped at the
    same time dip apart, by their phases' difference, and each at least min_age after
    its stamp. Without the phase (the grid of 0.21.0) both dip in the same tick."""
    win, min_age, stamp = 10000, 5000, 1234
    first = {}
    for phase in (0, 3000, 8500, 2**32 - 2000):
        lines = "".join(f"{t} {stamp} {min_age} {win} {phase}\n"
                        for t in range(stamp, stamp + 2 * win))
        first[phase] = stamp + run(build(), "grid", stdin=lines).index("1")
    for phase, t in first.items():
        assert (t + phase) % 2**32 % win == 0 and t - stamp > min_age, (phase, t)
    assert first == {0: 10000, 3000: 7000, 8500: 11500, 2**32 - 2000: 12000}, first


def test_the_grid_s_phase_puts_its_boundaries_on_the_wall_clock(build):
    """jiffies + phase is a multiple of the window exactly when the wall clock's time is,
    for any jiffies (near its wrap too) and any place of the wall clock in its window."""
    rng = random.Random(37)
    cases = [(0, 0, 10000), (9999, 0, 10000), (1234, 5678, 10000), (2**32 - 1, 9999, 10000)]
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 9999), 10000) for _ in range(2000)]
    cases += [(rng.randint(0, 2**32 - 1), rng.randint(0, 2499), 2500) for _ in range(500)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = [int(v) for v in run(build(), "phase", stdin=stdin)]
    for (now, wall, win), ph in zip(cases, got):
        assert 0 <= ph < win and (now + ph) % win == wall, (now, wall, win, ph)


def test_hosts_booted_apart_dip_together_on_the_wall_clock(build):
    """Hosts whose jiffies differ by when each booted (by 123457 ms, and one whose counter
    wrapped 2 s before), each taking the phase from one wall clock, expire a
    filter stamped at the same wall time in the same millisecond; with the phase of each
    host's own jiffies (0) they expire apart."""
    win, min_age, t0, stamp_wall = 10000, 5000, 1_700_000_000_000, 1_700_000_003_210
    boots = [t0 - 500_000, t0 - 500_000 - 123457, t0 - 2**32 - 2000]
    first = {}
    for own in (False, True):
        for boot in boots:
            now0 = (t0 - boot) % 2**32
            phase = 0 if own else int(run(build(), "phase",
                                          stdin=f"{now0} {t0 % win} {win}\n")[0])
            stamp = (stamp_wall - boot) % 2**32
            lines = "".join(f"{(t - boot) % 2**32} {stamp} {min_age} {win} {phase}\n"
                            for t in range(stamp_wall, stamp_wall + 2 * win))
            first[(own, boot)] = stamp_wall + run(build(), "grid", stdin=lines).index("1")
    shared = {first[(False, b)] for b in boots}
    assert shared == {1_700_000_010_000}, shared
    assert len({first[(True, b)] for b in boots}) == 3


def test_a_slow_flows_budgets_shrink_with_its_rate_and_do_not_step(build):
    """fair_slow_budget: the whole budget while the flow fills its allowance in
    fair_pkts_rate_us, else budget x own / pkts (floored, own at 1/1024 packet); at the
    threshold the two agree, so a flow turning slow loses no budget in one step (the first
    version dropped all of it there: 250 packets of aggregation budget at 31 Mbit/s)."""
    one = 1 << 24
    cases = [(8, 32 * one, 32), (8, 40 * one, 32), (8, 16 * one, 32), (8, one, 32),
             (8, 0, 32), (250, 32 * one - 1, 32), (0, one, 32), (7, one, 0),
             (2**32 - 1, 10000 * one - 1, 10000)]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = [int(v) for v in run(build(), "budget", stdin=stdin)]
    assert got[:8] == [8, 8, 4, 0, 0, 249, 0, 7], got
    rng = random.Random(31)
    cases = [(rng.randint(0, 2**20), rng.randint(0, 40 * one), rng.randint(0, 10000))
             for _ in range(3000)] + [cases[-1]]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    got = [int(v) for v in run(build(), "budget", stdin=stdin)]
    want = [e if o >= p << 24 else e * (o >> 14) // (p << 10) for e, o, p in cases]
    assert got == want
    # no step at the threshold: a 1/1024 packet below it the budget is whole but for
    # that resolution, e / (1024 p) and one packet of flooring
    near = [(e, (p << 24) - (1 << 14), p) for e, _, p in cases if p]
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in near)
    got = [int(v) for v in run(build(), "budget", stdin=stdin)]
    assert all(g >= e - e // (1024 * p) - 2 for g, (e, _, p) in zip(got, near))


LONG_IDLE_S = 30 * 60  # bbr_a_core.c's BBR_LONG_IDLE_SEC


def txstart(exe, cases):
    """(app_limited, now, last_send, long_idle), jiffies -> (long silence, new ACK epoch)."""
    stdin = "".join(" ".join(map(str, c)) + "\n" for c in cases)
    return [tuple(int(v) for v in line.split()) for line in run(exe, "txstart", stdin=stdin)]


def test_a_send_after_30_minutes_starts_a_new_ack_epoch_app_limited_or_not(build):
    """The first send after a silence starts a new ACK epoch if it is app-limited (as
    upstream BBR's) or if the silence lasted BBR_LONG_IDLE_SEC or more (the test that ages
    cycle_stamp); the silence is taken from jiffies modulo 2^32, across their wrap too."""
    cases, want = [], []
    for hz in (100, 250, 1000):
        lng = LONG_IDLE_S * hz
        for last in (0, 12345, 2**32 - 300 * hz, 2**32 - 1):  # INITIAL_JIFFIES: -300 s
            for idle in (0, 1, lng - 1, lng, lng + 1, 2**31, 2**32 - 1):
                for app in (0, 1, 7):  # tp->app_limited is a mark: any nonzero value
                    cases.append((app, (last + idle) % 2**32, last, lng))
                    want.append((int(idle >= lng), int(app > 0 or idle >= lng)))
    assert txstart(build(), cases) == want


class AckEpoch:
    """The core's ACK-aggregation epoch (bbr_a_core.c, bbr_update_ack_aggregation) with its
    32-bit microsecond stamp: what ACKs delivered beyond what bw predicts since it began."""

    def __init__(self, now_us):
        self.restart(now_us)

    def restart(self, now_us):
        self.stamp, self.acked = now_us % 2**32, 0

    def ack(self, now_us, bw, acked, cwnd):
        expected = (bw * ((now_us - self.stamp) % 2**32) >> 24) % 2**32
        if self.acked <= expected or self.acked + acked >= 1 << 20:
            self.stamp, self.acked, expected = now_us % 2**32, 0, 0
        self.acked = min(0xFFFFF, self.acked + acked)
        return min(self.acked - expected, cwnd)


BW_10M = round(10e6 / 8 / 1448 / 1e6 * 2**24)  # 10 Mbit/s of 1448-byte packets, BW_UNIT


def zero_window_restarts(exe, silences_us, hz=250, rtt_us=40000, cwnd=100):
    """One flow per silence: ACKs of 2 packets a little ahead of bw's pace for 80 ms, one
    ACK epoch; then the receive window closes (nothing in flight, not app-limited) for the
    silence, from the last ACK to the first send after it (CA_EVENT_TX_START, where the
    helper decides whether the epoch restarts); one RTT later the first ACK, of 2 packets.
    Returns the epoch's count before the silence and the excess ACKed that first ACK
    reports, per silence. A new epoch gives it 2 packets, whatever the silence."""
    start = 10**6
    epoch, t = AckEpoch(start), start
    for _ in range(35):
        t += 2300  # 2 packets in 2300 us: 10.07 Mbit/s
        epoch.ack(t, BW_10M, 2, cwnd)
    # the first ACK began the epoch, and the others kept it going
    assert epoch.stamp == start + 2300 and epoch.acked == 70, (epoch.stamp, epoch.acked)

    def jiffies(us):
        return (2**32 - 300 * hz + us * hz // 10**6) % 2**32

    cases = [(0, jiffies(t + s), jiffies(t - rtt_us), LONG_IDLE_S * hz) for s in silences_us]
    out = []
    for s, (long_idle, new) in zip(silences_us, txstart(exe, cases)):
        e = AckEpoch(0)
        e.stamp, e.acked = epoch.stamp, epoch.acked
        if new:
            e.restart(t + s)
        out.append(e.ack(t + s + rtt_us, BW_10M, 2, cwnd))
    return epoch.acked, out


def wrap_silences(last_ack_us=34 * 2300, rtt_us=40000):
    """Silences after which the first ACK comes d us after the epoch's stamp plus k x 2^32
    us: the modular difference reads d."""
    return [k * 2**32 + d - last_ack_us - rtt_us
            for k in (1, 2) for d in (-20000, 0, 1000, 10000, 40000, 80000, 200000)]


def test_a_zero_window_silence_of_any_length_restarts_the_ack_epoch(build):
    """A sender stopped by a zero receive window (data to send, nothing in flight: its
    restart is not app-limited) after an ACK epoch of 70 packets: the first ACK after the
    silence reports 2 packets of excess whatever the silence, short (the epoch's elapsed
    time predicts more than was ACKed), long, or one that leaves the 32-bit stamp's modular
    difference a few milliseconds (multiples of 2^32 us, 71.6 minutes, and a little)."""
    silences = [10**6, 10 * 60 * 10**6, LONG_IDLE_S * 10**6, 60 * 60 * 10**6,
                *wrap_silences()]
    acked, got = zero_window_restarts(build(), silences)
    assert acked == 70
    assert got == [2] * len(silences), list(zip(silences, got))


def test_zero_window_check_catches_the_0230_restart_rule(build):
    """0.23.0 (MUTANT_0230) started a new ACK epoch at app-limited sends only: after a
    zero-window silence of 2^32 us and up to 80 ms more past the epoch's stamp, the old
    epoch's 70 packets seem to have come ahead of bw, and the first ACK reports up to 72
    packets of excess (cwnd, through the aggregation budget, follows) instead of 2."""
    silences = wrap_silences()
    _, got = zero_window_restarts(build("-DMUTANT_0230", name="old0230"), silences)
    by_d = dict(zip((-20000, 0, 1000, 10000, 40000, 80000, 200000) * 2, got))
    assert got[0] == 2 and got[-1] == 2, got  # d < 0 or large: a new epoch anyway
    assert by_d[0] == 72 and by_d[10000] == 64 and by_d[40000] == 38, got
