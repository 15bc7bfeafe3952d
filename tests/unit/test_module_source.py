"""Properties of the module's source layout that its design rests on (issue: the module
core), checked on the text so that a later edit cannot quietly undo them.

- A module parameter is read only in a function named *_load: an algorithm's snapshot
  builder (at each write of a parameter; each ACK copies the snapshot into struct bbr_ctx
  once, in its load hook) or, for those only a rarer event uses, once per that event: 0.4.0
  read da_enable up to six times per ACK, and a write between two reads gave half of one
  behaviour and half of the other.
- The core's functions contain no test of the algorithm: the algorithms are reached only
  through the hooks of section "Hooks".
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "bbr_a_core.c", ROOT / "include" / "bbr_a_core.h",
           *sorted((ROOT / "algos").glob("*.[ch]"))]
# A function definition: a line at column 0 naming it, its parameters (maybe over several
# lines), then "{" alone on a line; its body ends at the next "}" alone on a line.
DEF = re.compile(r"^[a-z_][^\n;{}()]*?\b(\w+)\(([^;{}]*?)\)\s*\n\{\n(.*?)\n\}$", re.M | re.S)


def functions(text):
    """(name, body) of each top-level function definition."""
    return [(m.group(1), m.group(3)) for m in DEF.finditer(text)]


def test_functions_parser_finds_the_known_ones():
    text = (ROOT / "bbr_a_core.c").read_text()
    names = {n for n, _ in functions(text)}
    assert {"bbr_main", "bbr_update_bw", "bbr_set_cwnd", "bbr_hook_load"} <= names, names


def test_module_parameters_are_read_only_in_load_hooks():
    readers = {}
    for src in SOURCES:
        for name, body in functions(src.read_text()):
            if "bbr_param(" in body or "READ_ONCE(bbr_param_" in body:
                readers.setdefault(name, src.name)
    assert readers, "no parameter reader found: has the macro been renamed?"
    bad = {n: f for n, f in readers.items() if not n.endswith("_load")}
    assert not bad, f"module parameters read outside a load hook: {bad}"


def core_section(text):
    start = text.index("The BBRv1 core.")
    end = text.index("The algorithms: each header")
    return text[start:end]


ALGO_TEST = re.compile(r"BBR_ALGO_\w+|\balgo\s*[=!]=|->algo\b")


def test_core_functions_test_no_algorithm():
    core = core_section((ROOT / "bbr_a_core.c").read_text())
    found = sorted(set(ALGO_TEST.findall(core)))
    assert not found, f"the core tests the algorithm itself: {found}"
    # what the core shares with the algorithms: its functions name none either
    shared = (ROOT / "include" / "bbr_a_core.h").read_text()
    found = sorted({f"{n}: {a}" for n, body in functions(shared) for a in ALGO_TEST.findall(body)})
    assert not found, f"include/bbr_a_core.h tests the algorithm: {found}"
    assert {"bbr_bw", "bbr_params_get"} <= {n for n, _ in functions(shared)}


def test_each_algorithm_lives_in_its_own_header():
    for algo in ("bbr_a", "bbr_a_fair", "bbq", "da_bbr"):
        text = (ROOT / "algos" / f"{algo}.h").read_text()
        assert f"{algo}_load(struct bbr_ctx *c)" in text, algo


ALGOS = ("bbr_a", "bbr_a_fair", "bbq", "da_bbr")


def test_each_algorithm_is_an_object_of_the_module():
    """Each algorithm's parameters and event code are in algos/<name>.c, an object of
    tcp_bbr_a.ko (Kbuild's tcp_bbr_a-y); its header holds no parameter, and its per-ACK hooks
    only under BBR_A_CORE, which the core alone defines (they are inlined into it)."""
    kbuild = (ROOT / "Kbuild").read_text()
    objs = re.search(r"^tcp_bbr_a-y := (.*)$", kbuild, re.M).group(1).split()
    assert objs == ["bbr_a_core.o", *(f"algos/{a}.o" for a in ALGOS)], objs
    assert sorted(p.stem for p in (ROOT / "algos").glob("*.c")) == sorted(ALGOS)
    for algo in ALGOS:
        h = (ROOT / "algos" / f"{algo}.h").read_text()
        c = (ROOT / "algos" / f"{algo}.c").read_text()
        assert not re.search(r"^BBR_PARAM\(", h, re.M), f"{algo}.h defines a parameter"
        assert re.search(r"^BBR_PARAM\(", c, re.M), f"{algo}.c defines no parameter"
        assert f"void {algo}_snapshot_load(void)\n{{" in c, algo
        assert "#ifdef BBR_A_CORE\n" in h and f"{algo}_load(struct bbr_ctx *c)" in h.split("#ifdef BBR_A_CORE")[1]
        assert "BBR_A_CORE" not in c, algo
    assert "#define BBR_A_CORE\n" in (ROOT / "bbr_a_core.c").read_text()
    core = (ROOT / "bbr_a_core.c").read_text()
    assert core.count("CREATE_TRACE_POINTS") == 1 and "MODULE_LICENSE(" in core
    for algo in ALGOS:
        c = (ROOT / "algos" / f"{algo}.c").read_text()
        assert "CREATE_TRACE_POINTS" not in c and "MODULE_LICENSE" not in c, algo


def declared_params():
    names = []
    for src in SOURCES:
        names += re.findall(r"^BBR_PARAM\((\w+),", src.read_text(), re.M)
    return names


def test_the_reference_gives_every_parameter_its_default_and_range():
    """docs/parameters.md's table row of each parameter carries the source's default and range:
    0.19.0 changed fair_compete_rtt_us's default, and a reader sizing a host by the reference
    would otherwise read the old one."""
    ref = (ROOT / "docs" / "parameters.md").read_text()
    declared = {}
    for src in SOURCES:
        for name, default, lo, hi in re.findall(
                r"^BBR_PARAM\((\w+),\s*(\d+),\s*(\d+),\s*(\d+),", src.read_text(), re.M):
            declared[name] = (default, f"{lo}..{hi}")
    documented = dict((name, (default, rng)) for name, default, rng in re.findall(
        r"^\| `(\w+)` \| (\d+) \| (\d+\.\.\d+) \|", ref, re.M))
    assert len(declared) >= 15, declared  # 19 (six of them bbr_a_fair's)
    wrong = {n: (v, documented.get(n)) for n, v in declared.items() if documented.get(n) != v}
    assert not wrong, f"docs/parameters.md's default or range differs from the source: {wrong}"


def test_guest_suite_checks_every_parameter():
    """The guest suite range-checks the parameters it lists and fails on any other one
    modinfo shows ("no undocumented parameters"); a parameter added to the source and not
    to that list broke every guest run of CI, so the list is compared here, on the host."""
    params = declared_params()
    assert len(params) >= 15, params
    sh = (ROOT / "tests" / "guest" / "bbr_a_tests.sh").read_text()
    listed = re.search(r'^PARAMS="([^"]*)"', sh, re.M).group(1).split()
    assert sorted(listed) == sorted(params), (
        f"missing from PARAMS: {sorted(set(params) - set(listed))}; "
        f"not in the source: {sorted(set(listed) - set(params))}")


def test_every_parameter_is_in_the_reference():
    ref = (ROOT / "docs" / "parameters.md").read_text()
    missing = [p for p in declared_params() if f"`{p}`" not in ref]
    assert not missing, f"docs/parameters.md does not describe: {missing}"


def test_bbr_a_fair_answers_to_six_parameters_of_its_own():
    """Issue 47: at most six module parameters act on bbr_a_fair, each its own (its
    description names it, and no other algorithm's). Up to 0.27.0 its loss verdicts read
    bbr_a's loss_thresh, so a setting made for bbr_a moved bbr_a_fair's probe-down, target
    and STARTUP exit; its sources must read no parameter but its own."""
    descs = {}
    for src in SOURCES:
        for name, desc in re.findall(r'^BBR_PARAM\((\w+),[^"]*"([^"]*)"', src.read_text(),
                                     re.M | re.S):
            descs[name] = desc
    fair = [n for n, d in descs.items() if "bbr_a_fair" in d.split(":")[0]]
    assert 1 <= len(fair) <= 6, fair
    assert all(d.split(":")[0].strip() == "bbr_a_fair" for n, d in descs.items() if n in fair)
    text = "".join(re.sub(r"/\*.*?\*/", "", (ROOT / "algos" / f).read_text(), flags=re.S)
                   for f in ("bbr_a_fair.c", "bbr_a_fair.h"))
    others = [n for n in descs if n not in fair and re.search(rf"\b{n}\b", text)]
    assert not others, f"bbr_a_fair's sources name other algorithms' parameters: {others}"


# bbr_a_fair's state fields its PROBE_BW cwnd target is computed from; the target is kept
# for the round (bbr_a_fair_cwnd_target), so each function that writes one must clear it
# (bbr_a_fair_retarget, or a function that calls it), or a stale target outlives its inputs
TARGET_INPUTS = re.compile(r"\bf->(lossy|compete|dips|hi_now|hi_valid|bw_short)\s*=[^=]")
RETARGETS = ("bbr_a_fair_retarget(", "bbr_a_fair_epoch(", "bbr_a_fair_bound_round(")


def test_bbr_a_fair_clears_its_kept_cwnd_target_where_its_inputs_change():
    writers, missing = set(), {}
    for src in sorted((ROOT / "algos").glob("bbr_a_fair.[ch]")):
        for name, body in functions(src.read_text()):
            fields = set(TARGET_INPUTS.findall(body))
            if not fields:
                continue
            writers.add(name)
            # PROBE_RTT's end zeroes the half word the target shares with the hold's mean
            cleared = any(r in body for r in RETARGETS) or "f->hold_us = 0;" in body
            if not cleared:
                missing[name] = sorted(fields)
    assert {"bbr_a_fair_round_end", "bbr_a_fair_epoch", "bbr_a_fair_on_ack"} <= writers, writers
    assert not missing, f"write an input of the kept cwnd target without clearing it: {missing}"
    # the core reports a moved model (bw filter, long-term bw, min_rtt) to the algorithm
    core = dict(functions((ROOT / "bbr_a_core.c").read_text()))
    for name in ("bbr_update_bw", "bbr_update_min_rtt"):
        assert "bbr_hook_model_moved(" in core[name], name


def test_bbr_a_fair_reads_the_rounds_losses_in_16_bits():
    """round_lost keeps tp->lost's low 16 bits (0.29.0, to make room for loss_stamp): a
    difference taken from it as u32 would read every round as lossy once tp->lost passed
    65535. Every read goes through bbr_a_fair_round_lost(), which takes it modulo 2^16."""
    bad = {}
    for src in sorted((ROOT / "algos").glob("bbr_a_fair.[ch]")):
        for name, body in functions(src.read_text()):
            if name == "bbr_a_fair_round_lost":
                assert re.search(r"\(u16\)\(tcp_sk\(sk\)->lost - \w+\(sk\)->round_lost\)", body)
                continue
            reads = [ln.strip() for ln in body.splitlines()
                     if "round_lost" in ln and "bbr_a_fair_round_lost(" not in ln
                     and not re.search(r"->round_lost = \(u16\)", ln)]
            if reads:
                bad[name] = reads
    assert not bad, f"round_lost read or written outside its 16-bit helper: {bad}"


def fair_functions():
    """{name: body} of bbr_a_fair's functions (algos/bbr_a_fair.[ch])."""
    return {name: body for src in sorted((ROOT / "algos").glob("bbr_a_fair.[ch]"))
            for name, body in functions(src.read_text())}


def test_bbr_a_fair_takes_losses_as_random_only_outside_a_recovery():
    """A loss at a low queue stamps the time (bbr_a_fair_lost), and for a second a recovery
    at a high queue does not cut. Up to 0.29.x losses marked inside a recovery or after an
    RTO, once the cut had drained the queue, stamped it too, and so did losses TCP later
    undid: then the next congestion loss could go uncut. Since 0.30.0 only an ACK outside
    a recovery or the one that starts it stamps, and an RTO and an undo leave the stamp
    stale."""
    f = fair_functions()
    lost = f["bbr_a_fair_lost"]
    guard = re.search(r"if \(bbr->prev_ca_state >= TCP_CA_Recovery &&\s*"
                      r"inet_csk\(sk\)->icsk_ca_state >= TCP_CA_Recovery\)\s*return;", lost)
    assert guard and guard.start() < lost.index("loss_stamp ="), lost
    assert "bbr_a_fair_loss_stale(f);" in f["bbr_a_fair_undo"]
    assert re.search(r"if \(rto\)\s*bbr_a_fair_loss_stale\(f\);", f["bbr_a_fair_congestion"])


def test_bbr_a_fair_judges_an_ack_s_losses_by_its_updated_rtt_max():
    """bbr_a_fair_lost tests the queue's height against rtt_max's range: on the ACK whose
    sample ends rtt_max's window (the peak fades) or raises it, the test must see the new
    range. Up to 0.29.x it ran before the update."""
    body = fair_functions()["bbr_a_fair_on_ack"]
    assert body.index("bbr_a_rtt_max_next(") < body.index("bbr_a_fair_lost("), body
