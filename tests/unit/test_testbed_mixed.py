"""Mixed congestion controls through the front door, without root: rtt_fairness.sh's '+'
items (one cc per RTT class) and per-class flow counts (--flows-per-rtt 1,4), checked with
--dry-run and scenario.sh --plan; --module-param checked against the module's own
parameters (a stand-in tcp_bbr_a.ko with a .modinfo section, as modinfo -p reads it:
conftest.py's fake_ko); screen.sh and reproduce.sh with '+' configurations."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RF = REPO / "testbed" / "rtt_fairness.sh"
SCREEN = REPO / "testbed" / "screen.sh"
RP = REPO / "testbed" / "reproduce.sh"


def run(*cmd, env=None):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})


def plan_lines(p):
    return [ln.split() for ln in p.stdout.splitlines() if "scenario.sh" in ln]


def opt(words, name):
    return words[words.index(name) + 1]


# ------------------------------------------------------------------------------ '+' items
def test_plus_items_are_one_run_each_with_a_cc_per_class(tmp_path):
    out = tmp_path / "o"
    p = run(RF, "--dry-run", "--out", out, "--cc", "bbr_a_fair+cubic,bbr+cubic", "--rtt", "20,20",
            "--duration", "10")
    assert p.returncode == 0, p.stderr
    lines = plan_lines(p)
    assert len(lines) == 2
    assert [opt(w, "--cc") for w in lines] == ["bbr_a_fair,cubic", "bbr,cubic"]
    assert [opt(w, "--out") for w in lines] == [f"{out}/bbr_a_fair+cubic/run1",
                                                f"{out}/bbr+cubic/run1"]
    # every run prepares every cc of the comparison, each once, in order
    assert {opt(w, "--load") for w in lines} == {"bbr_a_fair,cubic,bbr"}
    assert all(opt(w, "--rtt") == "20,20" for w in lines)
    assert not out.exists()


def test_single_cc_items_are_passed_as_before(tmp_path):
    p = run(RF, "--dry-run", "--out", tmp_path / "o", "--cc", "bbr_a,bbr")
    assert p.returncode == 0, p.stderr
    lines = plan_lines(p)
    assert [opt(w, "--cc") for w in lines] == ["bbr_a", "bbr"]
    assert {opt(w, "--load") for w in lines} == {"bbr_a,bbr"}


BAD_ITEMS = [
    (["--cc", "a++b", "--rtt", "20,20"], "--cc: empty part in 'a++b'"),
    (["--cc", "+cubic", "--rtt", "20,20"], "--cc: empty part in '+cubic'"),
    (["--cc", "bbr,cubic+", "--rtt", "20,20"], "--cc: empty part in 'cubic+'"),
    (["--cc", "bbr+cubic+reno", "--rtt", "20,20"],
     "--cc: 'bbr+cubic+reno' names 3 ccs, one per RTT class, but --rtt 20,20 has 2"),
    (["--cc", "bbr,bbr+cubic", "--rtt", "20"], "--cc: 'bbr+cubic' names 2 ccs"),
    (["--cc", "bbr+Bad-CC", "--rtt", "20,20"], "--cc: 'Bad-CC' is not a congestion control name"),
    (["--cc", "bbr+cubic", "--rtt", "20,,20"], "--rtt: empty item in '20,,20'"),
    (["--cc", "bbr+cubic", "--rtt", "20,20", "--flows-per-rtt", "1,4,2"],
     "--flows-per-rtt: give one count or one per RTT class (2), not 3"),
    (["--flows-per-rtt", "1,,4"], "--flows-per-rtt: empty item in '1,,4'"),
    (["--flows-per-rtt", "1,0"], "--flows-per-rtt: '0' is not an integer in 1..1000"),
    (["--flows-per-rtt", "1,x"], "--flows-per-rtt: 'x' is not an integer in 1..1000"),
    (["--flows-per-rtt", "3,1", "--stagger", "10", "--duration", "30"], "would start after the end"),
    (["--starts", "0,1", "--flows-per-rtt", "1,2"], "--starts: give one offset per flow (3), not 2"),
]


@pytest.mark.parametrize("args,msg", BAD_ITEMS, ids=[" ".join(a) for a, _ in BAD_ITEMS])
def test_bad_items_exit_2_before_anything_is_set_up(tmp_path, args, msg):
    out = tmp_path / "out"
    p = run(RF, "--out", out, "--duration", "30", *args)
    assert p.returncode == 2, p.stderr
    errors = [ln for ln in p.stderr.splitlines() if "error:" in ln]
    assert len(errors) == 1 and msg in errors[0], p.stderr
    assert not out.exists()


# -------------------------------------------------------------------- per-class flow counts
def test_flow_count_per_class_one_against_four(plan):
    flows, groups = plan("--duration", "30", "--rtt", "20,20", "--cc", "bbr_a_fair,cubic",
                         "--flows-per-rtt", "1,4")
    # index class rtt cc: a class leaves the rotation when its flows are placed
    assert [f[:4] for f in flows] == [["1", "1", "20", "bbr_a_fair"], ["2", "2", "20", "cubic"],
                                      ["3", "2", "20", "cubic"], ["4", "2", "20", "cubic"],
                                      ["5", "2", "20", "cubic"]]
    assert groups == [["1", "1", "bbr_a_fair", "5201", "0.000", "30", "1"],
                      ["2", "2", "cubic", "5202", "0.000", "30", "2,3,4,5"]]
    flows, _ = plan("--duration", "30", "--rtt", "10,50,100", "--flows-per-rtt", "3,1,2",
                    "--stagger", "1")
    assert [f[1] for f in flows] == ["1", "2", "3", "1", "3", "1"]
    assert [f[5] for f in flows] == ["0.000", "1.000", "2.000", "3.000", "4.000", "5.000"]


@pytest.mark.parametrize("extra", [[], ["--jitter", "1.5", "--seed", "5"],
                                   ["--stagger", "0.25", "--streams", "2"],
                                   ["--starts", "0,1,2,3,4,5", "--jitter", "0.5"]])
def test_a_count_for_every_class_is_the_single_count(extra, plan):
    """One count per class, all equal, gives the flow table of the single count: the flows'
    order, ports and (seeded) starts of today's runs cannot have moved."""
    single = plan("--duration", "30", "--rtt", "10,50", "--cc", "bbr,cubic",
                  "--flows-per-rtt", "3", *extra)
    listed = plan("--duration", "30", "--rtt", "10,50", "--cc", "bbr,cubic",
                  "--flows-per-rtt", "3,3", *extra)
    assert single == listed
    assert [f[1] for f in single[0]] == ["1", "2"] * 3


def test_rtt_fairness_passes_the_counts_and_counts_the_flows(tmp_path):
    p = run(RF, "--dry-run", "--out", tmp_path / "o", "--cc", "bbr_a_fair+cubic", "--rtt", "20,20",
            "--flows-per-rtt", "1,4")
    assert p.returncode == 0, p.stderr
    assert "flows: 5 (1 x 20 ms, 4 x 20 ms)" in p.stderr
    assert opt(plan_lines(p)[0], "--flows-per-rtt") == "1,4"
    p = run(RF, "--dry-run", "--out", tmp_path / "o", "--flows-per-rtt", "2")
    assert "flows: 4 (10 50 ms x 2)" in p.stderr


# ------------------------------------------------------------------------ module parameters
PARAMS = [("adaptive", "bbr_a: 1 adaptive gains; 0 fixed [0..1, default 1]"),
          ("fair_queue_us", "bbr_a_fair: queueing delay, us [100..100000, default 2000]"),
          ("new_knob", "a parameter main's rewrite may add [0..7, default 3]"),
          ("label", "a parameter without a range")]


@pytest.fixture
def ko(fake_ko):
    if shutil.which("modinfo", path=os.environ.get("PATH", "") + ":/sbin:/usr/sbin") is None:
        pytest.fail("modinfo (kmod) is missing: scripts/setup.sh installs it")
    return fake_ko(PARAMS)


def rf_host(tmp_path, ko, *params, dry=True):
    args = [RF, "--backend", "host", "--cc", "bbr_a", "--out", tmp_path / "out"]
    args += ["--dry-run"] if dry else []
    for p in params:
        args += ["--module-param", p]
    return run(*args, env={"BBR_A_KO": str(ko), "BBR_A_MODULE_DIR": str(tmp_path / "none")})


def test_module_fixture_reads_as_modinfo_reads_a_module(ko):
    p = run("bash", "-c", f'PATH=$PATH:/sbin:/usr/sbin modinfo -p "{ko}"')
    assert p.returncode == 0, p.stderr
    assert sorted(ln.split(":")[0] for ln in p.stdout.splitlines()) == sorted(n for n, _ in PARAMS)


@pytest.mark.parametrize("params,msg", [
    (["evil=1"], "--module-param: 'evil' is not a parameter of"),
    (["adaptive=0", "evil=1"], "'evil' is not a parameter"),
    (["adaptive=7"], "--module-param: 'adaptive=7': adaptive takes a whole number in 0..1"),
    (["fair_queue_us=99"], "fair_queue_us takes a whole number in 100..100000"),
    (["fair_queue_us=100001"], "fair_queue_us takes a whole number in 100..100000"),
    (["new_knob=8"], "new_knob takes a whole number in 0..7"),
    (["adaptive=01"], "adaptive takes a whole number in 0..1"),  # the kernel reads octal
    (["adaptive=0x1"], "adaptive takes a whole number in 0..1"),
    (["adaptive=1.0"], "adaptive takes a whole number in 0..1"),
])
def test_module_params_are_checked_against_the_modules_own(tmp_path, ko, params, msg):
    p = rf_host(tmp_path, ko, *params)
    assert p.returncode == 2, p.stderr
    errors = [ln for ln in p.stderr.splitlines() if "error:" in ln]
    assert len(errors) == 1 and msg in errors[0], p.stderr
    assert not (tmp_path / "out").exists()


def test_unknown_parameter_names_the_modules_parameters(tmp_path, ko):
    p = rf_host(tmp_path, ko, "evil=1")
    assert f"is not a parameter of {ko} (it has: " in p.stderr
    for name, _ in PARAMS:
        assert name in p.stderr.split("it has:")[1]


def test_good_module_params_pass(tmp_path, ko):
    p = rf_host(tmp_path, ko, "adaptive=0", "fair_queue_us=100000", "new_knob=7", "label=anything")
    assert p.returncode == 0, p.stderr
    line = plan_lines(p)[0]
    assert " ".join(line).count("--module-param") == 4


def test_module_params_need_a_module_to_check_against(tmp_path):
    p = rf_host(tmp_path, tmp_path / "missing.ko", "adaptive=0")
    assert p.returncode == 1, p.stderr
    assert "cannot check --module-param" in p.stderr and "missing.ko does not exist" in p.stderr
    # without --module-param no module is needed for the check
    assert rf_host(tmp_path, tmp_path / "missing.ko").returncode == 0


def test_loaded_module_names_its_parameters(tmp_path):
    """On a host with tcp_bbr_a loaded (scenario.sh writes the values into its parameter
    files), the names are the loaded module's."""
    params = tmp_path / "loaded" / "parameters"
    params.mkdir(parents=True)
    (params / "adaptive").write_text("1\n")
    env = {"BBR_A_KO": str(tmp_path / "missing.ko"), "BBR_A_MODULE_DIR": str(params.parent)}
    base = [RF, "--backend", "host", "--dry-run", "--cc", "bbr_a", "--out", tmp_path / "o"]
    assert run(*base, "--module-param", "adaptive=0", env=env).returncode == 0
    p = run(*base, "--module-param", "fair_queue_us=3000", env=env)
    assert p.returncode == 2 and "'fair_queue_us' is not a parameter of the loaded tcp_bbr_a" \
        in p.stderr, p.stderr


# ---------------------------------------------------------------------- screen, reproduce
def screen_dry(tmp_path, configs, scenarios, *extra):
    cfg = tmp_path / "configs.txt"
    cfg.write_text(configs)
    return run(SCREEN, "--configs", cfg, "--out", tmp_path / "s", "--scenarios", scenarios,
               "--seeds", "1", "--dry-run", *extra)


def test_screen_runs_plus_items_where_the_classes_fit(tmp_path):
    p = screen_dry(tmp_path, "fair+cubic bbr_a_fair+cubic\ncubic cubic\n",
                   "v4:20+20:5::1+4,solo4:20:5::4")
    assert p.returncode == 0, p.stderr
    jobs = {ln.split()[1]: " ".join(ln.split()[2:]) for ln in p.stdout.splitlines()}
    assert sorted(jobs) == ["cubic/solo4/seed1", "cubic/v4/seed1", "fair+cubic/v4/seed1"]
    assert jobs["fair+cubic/v4/seed1"] == ("--cc bbr_a_fair+cubic --rtt 20,20 --buffer-bdp 5 "
                                           "--flows-per-rtt 1,4 --seed 1")
    assert jobs["cubic/solo4/seed1"] == "--cc cubic --rtt 20 --buffer-bdp 5 --flows-per-rtt 4 --seed 1"
    assert "1 job(s) skipped" in p.stderr


def test_screen_with_only_misfit_plus_items_has_no_jobs(tmp_path):
    p = screen_dry(tmp_path, "x bbr+cubic\n", "solo:20:5")
    assert p.returncode == 2 and "no jobs" in p.stderr


def test_screen_checks_every_configuration_before_running(tmp_path):
    """A bad second configuration stops the screen before its first job runs: every
    configuration and scenario is checked by rtt_fairness.sh --dry-run."""
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "testbed", tree / "testbed")
    shutil.copytree(REPO / "scripts", tree / "scripts")
    for f in ("Makefile", "Kbuild", "bbr_a_core.c"):
        if (REPO / f).exists():
            shutil.copy(REPO / f, tree / f)
    marker = tmp_path / "ran"
    (tree / "testbed" / "rtt_fairness.sh").rename(tree / "testbed" / "real_rtt_fairness.sh")
    stub = tree / "testbed" / "rtt_fairness.sh"
    stub.write_text('#!/bin/sh\ncase " $* " in *" --dry-run "*) exec "$(dirname "$0")/real_'
                    f'rtt_fairness.sh" "$@" ;; esac\necho "$*" >> {marker}\nexit 1\n')
    stub.chmod(0o755)
    cfg = tmp_path / "configs.txt"
    for configs, scen, msg in (("ok bbr\nbad bbr+Bad\n", "b5:10+50:5", "--cc: 'Bad'"),
                               ("ok bbr\n", "b5:10+50:5,v:20+20:5::1+2+3",
                                "--flows-per-rtt: give one count or one per RTT class (2)")):
        cfg.write_text(configs)
        p = run(tree / "testbed" / "screen.sh", "--configs", cfg, "--out", tmp_path / "s",
                "--scenarios", scen, "--seeds", "1", "--jobs", "1")
        assert p.returncode == 2, p.stderr
        assert msg in p.stderr
        assert not marker.exists(), marker.read_text()


def test_reproduce_takes_plus_items(tmp_path):
    p = run(RP, "fig5", "--ccs", "bbr_a_fair+cubic,cubic", "--seeds", "1", "--out", tmp_path / "r",
            "--dry-run")
    assert p.returncode == 0, p.stderr
    assert "todo bbr_a_fair+cubic/b5/seed1 --cc bbr_a_fair+cubic --rtt 10,50 --buffer-bdp 5" in p.stdout
    p = run(RP, "fig5", "--ccs", "bbr_a_fair++cubic", "--out", tmp_path / "r", "--dry-run")
    assert p.returncode == 2 and "--ccs" in p.stderr
