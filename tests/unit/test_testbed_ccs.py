"""The congestion controls a run may name (testbed/lib/ccs.sh), a user's module
(--module-src, testbed/lib/module_src.sh) and the module files a run loads (scenario.sh
--insmod, testbed/lib/module.sh): names read from the sources, an unknown cc or a clashing
name refused with one line and exit status 2, a module that does not load ending the run."""
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TB = REPO / "testbed"
RF = TB / "rtt_fairness.sh"
EXAMPLE = REPO / "examples" / "cc"

OPS = '''static struct tcp_congestion_ops {var} __read_mostly = {{
\t.ssthresh\t= tcp_reno_ssthresh,
\t.name\t\t= "{name}",
}};
'''


def bash(script, *args, env=None):
    """script after common.sh, ccs.sh and module_src.sh, in bash"""
    pre = (f'source "{REPO}/scripts/lib/common.sh"; source "{TB}/lib/ccs.sh"; '
           f'source "{TB}/lib/module_src.sh"; ')
    return subprocess.run(["bash", "-c", pre + script, "ccs", *map(str, args)],
                          capture_output=True, text=True, timeout=60, env=env)


def fake_tree(tmp_path):
    """A kernel tree's net/ipv4 as uml_cc_sources reads it: reno in tcp_cong.c, cubic built
    in, vegas and dctcp (which defines dctcp-reno too) buildable, tcp_bpf.c no cc."""
    ipv4 = tmp_path / "tree" / "net" / "ipv4"
    ipv4.mkdir(parents=True)
    reg = "\ntcp_register_congestion_control(&x);\n"
    (ipv4 / "tcp_cong.c").write_text(OPS.format(var="tcp_reno", name="reno") + reg)
    (ipv4 / "tcp_cubic.c").write_text(OPS.format(var="cubictcp", name="cubic") + reg)
    (ipv4 / "tcp_vegas.c").write_text(OPS.format(var="tcp_vegas", name="vegas") + reg)
    (ipv4 / "tcp_dctcp.c").write_text(OPS.format(var="dctcp", name="dctcp")
                                      + OPS.format(var="dctcp_reno", name="dctcp-reno") + reg)
    (ipv4 / "tcp_bpf.c").write_text("int x;\n")
    (tmp_path / "tree" / "modules.builtin").write_text(
        "kernel/net/ipv4/tcp_cubic.ko\nkernel/net/ipv4/tcp_diag.ko\n")
    return tmp_path / "tree"


def test_names_come_from_the_sources_struct_tcp_congestion_ops(tmp_path):
    tree = fake_tree(tmp_path)
    p = bash('cc_source_names "$@"', tree / "net/ipv4/tcp_dctcp.c", EXAMPLE / "tcp_example.c")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["dctcp", "example"]  # "dctcp-reno" is no cc name


def test_the_uml_trees_ccs_built_in_and_buildable(tmp_path):
    tree = fake_tree(tmp_path)
    p = bash('uml_builtin_ccs "$1"; echo --; uml_cc_sources "$1"', tree)
    assert p.returncode == 0, p.stderr
    builtin, buildable = p.stdout.split("--\n")
    assert sorted(builtin.split()) == ["cubic", "reno"]
    assert sorted(buildable.strip().splitlines()) == ["dctcp tcp_dctcp.c", "vegas tcp_vegas.c"]


# check_ccs against a stand-in for the backend's kernel: reno and cubic built in, vegas a
# module file
CHECK = '''backend_ccs() { printf '%s\\n' 'reno -' 'cubic -' 'vegas /m/tcp_vegas.ko'; }
BACKEND=uml LOAD_CCS=$1 REVERSE=$2 MODSRC_NAMES=$3 MODSRC=${3:+/src}
check_ccs && echo ok'''


@pytest.mark.parametrize("ccs, reverse, names", [
    ("bbr_a_fair,cubic,vegas", "", ""), ("bbr_a,bbq,da_bbr,bbr3", "", ""),
    ("example,cubic", "", "example"), ("cubic", "2:vegas", "")])
def test_known_ccs_pass(ccs, reverse, names):
    p = bash(CHECK, ccs, reverse, names)
    assert p.returncode == 0 and p.stdout == "ok\n", p.stderr


@pytest.mark.parametrize("ccs, reverse, names, said", [
    ("nosuchcc", "", "", "--cc: 'nosuchcc' is not a congestion control the uml backend has"),
    ("cubic", "2:westwood", "", "'westwood' is not a congestion control"),
    ("cubic", "", "vegas", "--module-src: its cc 'vegas' has the name of a congestion control"),
    ("cubic", "", "bbr_a_fair", "its cc 'bbr_a_fair' has the name")])
def test_unknown_or_clashing_ccs_are_one_line_and_status_2(ccs, reverse, names, said):
    p = bash(CHECK, ccs, reverse, names)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and said in p.stderr, p.stderr


def test_the_error_lists_what_the_backend_has():
    p = bash(CHECK, "nosuchcc", "", "example")
    assert "(cubic reno vegas, --module-src: example; tcp_bbr_a: bbr_a bbr_a_fair bbq da_bbr)" in p.stderr


@pytest.mark.parametrize("ccs, reverse, names, beyond", [
    ("bbr_a_fair,bbr,cubic", "", "", False), ("bbr3,reno", "3", "", False),
    ("vegas", "", "", True), ("cubic", "2:htcp", "", True), ("cubic", "", "example", True)])
def test_dry_runs_need_a_backend_only_for_ccs_beyond_the_common_ones(ccs, reverse, names, beyond):
    p = bash('LOAD_CCS=$1 REVERSE=$2 MODSRC=$3; ccs_beyond_common && echo yes || echo no',
             ccs, reverse, names)
    assert p.stdout.strip() == ("yes" if beyond else "no"), p.stderr


def test_the_example_is_a_module_source_named_example():
    p = bash('modsrc_check "$1" && echo "$MODSRC|$MODSRC_NAMES|$MODSRC_HASH"', EXAMPLE)
    assert p.returncode == 0, p.stderr
    src, names, h = p.stdout.strip().split("|")
    assert src == str(EXAMPLE) and names == "example" and len(h) == 12


def test_the_sources_hash_follows_the_sources_not_the_build_products(tmp_path):
    d = tmp_path / "cc"
    shutil.copytree(EXAMPLE, d)
    first = bash('modsrc_hash "$1"', d).stdout
    for f in ("tcp_example.o", "tcp_example.mod.c", "tcp_example.ko", "notes.txt"):
        (d / f).write_text("x")
    assert bash('modsrc_hash "$1"', d).stdout == first
    (d / "tcp_example.c").write_text((d / "tcp_example.c").read_text() + "\n")
    assert bash('modsrc_hash "$1"', d).stdout != first


@pytest.mark.parametrize("setup, said", [
    (None, "is not a directory"),
    ({}, "no .c file in"),
    ({"a.c": OPS.format(var="a", name="mine")}, "has no Kbuild and no Makefile with obj-m"),
    ({"a.c": "int x;\n", "Kbuild": "obj-m := a.o\n"}, "no struct tcp_congestion_ops with a .name"),
    ({"a.c": OPS.format(var="a", name="Bad-Name"), "Makefile": "obj-m += a.o\n"},
     "no struct tcp_congestion_ops with a .name")])
def test_a_bad_module_src_is_refused_before_anything_starts(tmp_path, setup, said):
    d = tmp_path / "src"
    if setup is not None:
        d.mkdir()
        for name, text in setup.items():
            (d / name).write_text(text)
    p = subprocess.run([str(RF), "--backend", "uml", "--module-src", str(d), "--cc", "cubic",
                        "--rtt", "20", "--out", str(tmp_path / "out"), "--dry-run"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    err = [line for line in p.stderr.splitlines() if "error" in line]
    assert len(err) == 1 and "--module-src: " in err[0] and said in err[0], p.stderr
    assert not (tmp_path / "out").exists()


SCEN_CHECK = [str(TB / "scenario.sh"), "--check", "--cc", "cubic", "--rtt", "20", "--rate", "10",
              "--buffer", "10000", "--duration", "10", "--out", "/nonexistent"]


@pytest.mark.parametrize("insmod, ok", [
    ("/a/tcp_vegas.ko", True), ("/f/tcp_vegas.ko,/f/tcp_yeah.ko.xz", True),
    ("/a/tcp_vegas", False), ("/a/x.ko,,/a/y.ko", False)])
def test_scenario_insmod_takes_module_files(insmod, ok):
    p = subprocess.run(["sh", *SCEN_CHECK, "--insmod", insmod], capture_output=True, text=True,
                       timeout=60)
    assert (p.returncode == 0) == ok, p.stderr
    if not ok:
        assert p.returncode == 2 and "--insmod: " in p.stderr


# module.sh's module_insmod and module_cleanup with a stand-in insmod and rmmod on PATH that
# log their calls; FAIL makes insmod fail for that file
INSMOD = r'''
set -u
die() { echo "scenario: $*" >&2; exit 1; }
log() { echo "scenario: $*" >&2; }
. "$1/lib/module.sh"
trap module_cleanup EXIT
module_insmod "$2"
echo "loaded: $CC_LOADED_HERE"
'''


@pytest.fixture
def tools(tmp_path):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for t in ("insmod", "rmmod"):
        (bin_ / t).write_text(f'#!/bin/sh\necho "{t} $*" >>"{tmp_path}/calls"\n'
                              f'[ "$1" != "${{FAIL:-}}" ]\n')
        (bin_ / t).chmod(0o755)
    for m in ("tcp_xvegas", "tcp_xyeah"):
        (tmp_path / f"{m}.ko").write_text("")
    return tmp_path


# (sh: busybox's static ash would run its own insmod applet, not the stand-in)
def test_insmod_loads_in_order_and_unloads_at_the_end(tools):
    files = f"{tools}/tcp_xvegas.ko,{tools}/tcp_xyeah.ko"
    cmd = ["sh", "-c", INSMOD, "sh", str(TB), files]
    env = {"PATH": f"{tools}/bin:/usr/bin:/bin"}
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "loaded: tcp_xyeah tcp_xvegas \n"
    assert (tools / "calls").read_text().splitlines() == [
        f"insmod {tools}/tcp_xvegas.ko", f"insmod {tools}/tcp_xyeah.ko",
        "rmmod tcp_xyeah", "rmmod tcp_xvegas"]


@pytest.mark.parametrize("fail, said", [("yeah", "insmod {}/tcp_xyeah.ko failed"),
                                        ("missing", "--insmod: no module file {}/tcp_nope.ko")])
def test_a_module_that_does_not_load_ends_the_run(tools, fail, said):
    files = f"{tools}/tcp_xvegas.ko," + (f"{tools}/tcp_xyeah.ko" if fail == "yeah"
                                         else f"{tools}/tcp_nope.ko")
    env = {"PATH": f"{tools}/bin:/usr/bin:/bin", "FAIL": f"{tools}/tcp_xyeah.ko"}
    p = subprocess.run(["sh", "-c", INSMOD, "sh", str(TB), files], capture_output=True,
                       text=True, timeout=60, env=env)
    assert p.returncode == 1 and p.stdout == ""
    assert said.format(tools) in p.stderr
    # what it loaded before is unloaded again
    assert (tools / "calls").read_text().splitlines()[-1] == "rmmod tcp_xvegas"


def test_screen_job_keys_hold_the_module_src_hash_only_when_given():
    pre = (f'source "{REPO}/scripts/lib/common.sh"; source "{REPO}/scripts/lib/module.sh"; '
           f'source "{TB}/lib/module_src.sh"; source "{TB}/lib/screen_keys.sh"; '
           'kernel_id() { echo k; }; ')
    p = subprocess.run(["bash", "-c", pre + 'MSRC=$1; hashes uml; key_line --cc example',
                        "k", ""], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "module_src=" not in p.stdout, p.stderr
    p = subprocess.run(["bash", "-c", pre + 'MSRC=$1; hashes uml; key_line --cc example',
                        "k", str(EXAMPLE)], capture_output=True, text=True, timeout=60)
    h = bash('modsrc_hash "$1"', EXAMPLE).stdout.strip()
    assert p.returncode == 0 and p.stdout.rstrip().endswith(f" module_src={h}"), p.stderr
