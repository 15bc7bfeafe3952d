"""BBR_A_UML_PATCH: the UML peer kernel (Debian's linux-source-6.12, the project's 6.12 patches
and the user's patch, BBRv3) and the testbed's bbr3, without building a kernel: apt-get is
faked with a package whose source tree holds just what the project's patches need."""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UML = REPO / "scripts" / "uml.sh"
RTT = REPO / "testbed" / "rtt_fairness.sh"
PIN = "6.12.117-1~deb12u1"


def run(cmd, cache, env=None, path=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("BBR_A_UML_")}
    e.update({"BBR_A_CACHE": str(cache), **(env or {})})
    if path:
        e["PATH"] = f"{path}:{e['PATH']}"
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=e,
                          timeout=300)


def patch_file(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


NEW_FILE = ("--- /dev/null\n+++ b/net/ipv4/peer_mark.c\n@@ -0,0 +1 @@\n+/* peer */\n")


def test_the_peer_kernel_is_named_by_the_patch_without_building_anything(tmp_path):
    a = patch_file(tmp_path, "a.patch", NEW_FILE)
    p = run([UML, "id"], tmp_path / "cache", {"BBR_A_UML_PATCH": str(a)})
    assert p.returncode == 0, p.stderr
    m = re.fullmatch(rf"{re.escape(PIN)}-bbr3-([0-9a-f]{{12}})", p.stdout.strip())
    assert m, p.stdout
    assert not (tmp_path / "cache").exists()
    # the same bytes elsewhere: the same kernel; one byte more: another
    (tmp_path / "d").mkdir()
    same = patch_file(tmp_path / "d", "other-name.patch", NEW_FILE)
    q = run([UML, "id"], tmp_path / "cache", {"BBR_A_UML_PATCH": str(same)})
    assert q.stdout == p.stdout
    b = patch_file(tmp_path, "b.patch", NEW_FILE + "\n")
    r = run([UML, "id"], tmp_path / "cache", {"BBR_A_UML_PATCH": str(b)})
    assert r.returncode == 0 and r.stdout.strip().startswith(f"{PIN}-bbr3-")
    assert r.stdout != p.stdout
    # BBR_A_UML_SOURCE names another revision of linux-source-6.12
    s = run([UML, "id"], tmp_path / "cache",
            {"BBR_A_UML_PATCH": str(a), "BBR_A_UML_SOURCE": "6.12.115-2~deb12u1"})
    assert s.stdout.strip() == f"6.12.115-2~deb12u1-bbr3-{m.group(1)}"


def test_without_the_patch_the_6_1_kernel_keeps_its_key(tmp_path):
    # the 6.1 key: recipe 2, config.fragment and scripts/uml/*.patch (not scripts/uml/6.12/)
    uml = REPO / "scripts" / "uml"
    h = hashlib.sha256(b"recipe 2\n" + b"".join(
        f.read_bytes() for f in [uml / "config.fragment", *sorted(uml.glob("*.patch"))]))
    p = run([UML, "id"], tmp_path, {"BBR_A_UML_SOURCE": "6.1.170-3"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"6.1.170-3-{h.hexdigest()[:12]}"


def test_a_patch_that_is_no_file_is_refused_with_one_line(tmp_path):
    for bad in (tmp_path / "missing.patch", tmp_path):
        for cmd in ([UML, "id"], [UML, "build"]):
            p = run(cmd, tmp_path / "cache", {"BBR_A_UML_PATCH": str(bad)})
            assert p.returncode != 0 and p.stdout == ""
            assert p.stderr.count("\n") == 1, p.stderr
            assert f"BBR_A_UML_PATCH='{bad}' is not a readable file" in p.stderr
            assert not (tmp_path / "cache").exists()


def old_sides(patch):
    """{path: text} holding, for each file a unified diff changes, the old side of every
    hunk in order: a tree the diff applies to (at offsets)."""
    files, cur = {}, None
    for line in patch.read_text().splitlines(keepends=True):
        if line.startswith("--- a/"):
            cur = files.setdefault(line[6:].split("\t")[0].strip(), [])
        elif cur is not None and line[:1] in (" ", "-"):
            cur.append(line[1:])
    return {f: "".join(t) for f, t in files.items()}


def fake_source_6_12(tmp_path):
    """A linux-source-6.12 package whose tree is only what the project's 6.12 series
    changes, and an apt-get that serves it (recording its arguments)."""
    series = [REPO / "scripts" / "uml" / "det-random.patch",
              *sorted((REPO / "scripts" / "uml" / "6.12").glob("*.patch"))]
    tree = tmp_path / "src" / "linux-source-6.12"
    for p in series:
        for f, text in old_sides(p).items():
            (tree / f).parent.mkdir(parents=True, exist_ok=True)
            (tree / f).write_text(text)
    root = tmp_path / "pkg"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text(
        f"Package: linux-source-6.12\nVersion: {PIN}\nArchitecture: all\n"
        "Maintainer: test <t@example.invalid>\nDescription: fake\n")
    (root / "usr" / "src").mkdir(parents=True)
    with tarfile.open(root / "usr" / "src" / "linux-source-6.12.tar.xz", "w:xz") as t:
        t.add(tree, arcname="linux-source-6.12")
    deb = tmp_path / "linux-source-6.12_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", str(root), str(deb)],
                   check=True, capture_output=True)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >>{tmp_path}/apt-args\n"
                                    f"cp {deb} .\n")
    (bindir / "apt-get").chmod(0o755)
    return bindir


def test_a_patch_that_does_not_apply_stops_the_build_and_leaves_no_kernel_dir(tmp_path):
    bindir = fake_source_6_12(tmp_path)
    cache = tmp_path / "cache"
    bad = patch_file(tmp_path, "bad.patch",
                     "--- a/net/ipv4/tcp_bbr.c\n+++ b/net/ipv4/tcp_bbr.c\n@@ -1,1 +1,1 @@\n"
                     "-#define BBR_VERSION 1\n+#define BBR_VERSION 3\n")
    p = run([UML, "build"], cache, {"BBR_A_UML_PATCH": str(bad)}, bindir)
    assert p.returncode != 0
    errors = [ln for ln in p.stderr.splitlines() if ": error: " in ln]
    assert errors == [f"uml.sh: error: BBR_A_UML_PATCH='{bad}' does not apply to "
                      f"linux-source-6.12 {PIN} (patch -p1: can't find file to patch at input "
                      "line 3)"], p.stderr
    assert (tmp_path / "apt-args").read_text().split() == [
        "download", "-q", f"linux-source-6.12={PIN}"]
    # the source is kept (fetched once), no kernel directory is
    assert (cache / "uml" / "src" / PIN / ".complete").exists()
    assert sorted(d.name for d in (cache / "uml").iterdir() if d.name != ".build.lock") == ["src"]


def test_a_patch_that_applies_goes_on_to_the_configuration(tmp_path):
    # the project's 6.12 patches and the user's apply; the fake tree then has no Makefile
    bindir = fake_source_6_12(tmp_path)
    cache = tmp_path / "cache"
    good = patch_file(tmp_path, "good.patch", NEW_FILE)
    p = run([UML, "build"], cache, {"BBR_A_UML_PATCH": str(good)}, bindir)
    assert p.returncode != 0 and "UML configuration failed" in p.stderr, p.stderr
    assert "does not apply" not in p.stderr
    kid = run([UML, "id"], cache, {"BBR_A_UML_PATCH": str(good)}).stdout.strip()
    tree = cache / "uml" / kid / "tree"
    assert (tree / "net" / "ipv4" / "peer_mark.c").read_text() == "/* peer */\n"
    assert "12288" in (tree / "arch" / "x86" / "um" / "user-offsets.c").read_text()
    assert "det_random_setup" in (tree / "arch" / "um" / "os-Linux" / "util.c").read_text()


def rtt(args, tmp_path, env=None):
    return run([RTT, "--rtt", "10,50", "--dry-run", "--out", tmp_path / "out", *args],
               tmp_path / "cache", env)


@pytest.mark.parametrize("backend", ["uml", "auto"])
def test_bbr3_without_the_patch_is_refused_with_one_line(tmp_path, backend):
    p = rtt(["--backend", backend, "--cc", "bbr3,bbr_a_fair"], tmp_path)
    assert p.returncode == 2
    assert p.stderr == ("rtt_fairness.sh: error: --cc bbr3 needs BBR_A_UML_PATCH=path to a "
                        "BBRv3 patch for Linux 6.12 (see docs/backends.md)\n")


def test_a_patch_path_that_is_no_file_is_refused_by_the_testbed(tmp_path):
    p = rtt(["--backend", "uml", "--cc", "bbr3"], tmp_path,
            {"BBR_A_UML_PATCH": str(tmp_path / "nope.patch")})
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert "BBR_A_UML_PATCH=" in p.stderr and "is not a readable file" in p.stderr


def test_bbr3_runs_on_uml_only_and_never_beside_bbr(tmp_path):
    env = {"BBR_A_UML_PATCH": str(patch_file(tmp_path, "p.patch", NEW_FILE))}
    p = rtt(["--backend", "qemu", "--cc", "bbr3"], tmp_path, env)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "uml backend only" in p.stderr
    for ccs in ("bbr3,bbr_a_fair,bbr", "bbr", "bbr3+bbr"):
        p = rtt(["--backend", "uml", "--cc", ccs], tmp_path, env)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
        assert "the UML kernel's bbr is BBRv3" in p.stderr
    p = rtt(["--backend", "uml", "--cc", "bbr3,bbr_a_fair"], tmp_path, env)
    assert p.returncode == 0, p.stderr
    # the runs ask the guest for bbr3 by that name (lib/module.sh maps it to the kernel's)
    assert "scenario.sh --cc bbr3 " in p.stdout and "--load bbr3,bbr_a_fair " in p.stdout
    # without the patch, plain bbr is BBRv1 as ever
    p = rtt(["--backend", "uml", "--cc", "bbr_a_fair,bbr"], tmp_path)
    assert p.returncode == 0, p.stderr


def bbr3_run(tmp_path, sender_cc):
    """A recorded bbr run, relabelled as scenario.sh records a bbr3 run: bbr3 in params.env
    and flows.txt, the kernel's name in the clients' JSON (here sender_cc)."""
    d = tmp_path / "res" / "bbr3" / "run1"
    shutil.copytree(REPO / "tests" / "unit" / "fixtures" / "run_bbr_5bdp_noss", d)
    for name, old, new in (("params.env", "\ncc=bbr\n", "\ncc=bbr3\n"),
                           ("flows.txt", " bbr ", " bbr3 ")):
        f = d / name
        assert old in f.read_text()
        f.write_text(f.read_text().replace(old, new))
    for js in d.glob("flow*.json"):
        data = json.loads(js.read_text())
        assert data["end"]["sender_tcp_congestion"] == "bbr"
        data["end"]["sender_tcp_congestion"] = sender_cc
        js.write_text(json.dumps(data))
    return d


def analyze(d):
    return subprocess.run(["/usr/bin/python3", str(REPO / "testbed" / "analyze.py"), str(d)],
                          capture_output=True, text=True, timeout=120)


def test_the_analysis_names_bbr3_and_takes_the_kernels_bbr_for_it(tmp_path):
    d = bbr3_run(tmp_path, "bbr")
    p = analyze(d.parent.parent)
    assert p.returncode == 0, p.stderr
    s = json.loads((d.parent.parent / "summary.json").read_text())
    assert [a["cc"] for a in s["aggregate"]] == ["bbr3"]
    assert {f["cc"] for r in s["results"] for f in r["flows"]} == {"bbr3"}
    # any other cc in the client's report is still a wrong run
    e = bbr3_run(tmp_path / "x", "cubic")
    p = analyze(e.parent.parent)
    assert p.returncode == 1 and "flow ran cubic, not the requested bbr3" in p.stderr


def kbuild_probe(name):
    """(extended regular expression, header) of Kbuild's feature probe NAME, as grep -E
    reads the expression (Kbuild writes '(' and ',' as '.')."""
    for line in (REPO / "Kbuild").read_text().splitlines():
        m = re.fullmatch(r"ccflags-y \+= \$\(call bbr_a_probe,(\w+),(.*),([\w/.]+)\)", line)
        if m and m.group(1) == name:
            return m.group(2), m.group(3)
    raise AssertionError(f"Kbuild has no {name} probe")


def test_the_tso_segs_probe_tells_a_bbr3_kernel_from_the_others(tmp_path):
    # the member as a BBRv3 kernel and as every other kernel declares it
    regex, header = kbuild_probe("CA_TSO_SEGS")
    assert header == "net/tcp.h"
    for decl, want in (("\tu32 (*tso_segs)(struct sock *sk, unsigned int mss_now);\n", 0),
                       ("\tu32 (*min_tso_segs)(struct sock *sk);\n", 1)):
        f = tmp_path / "tcp.h"
        f.write_text("struct tcp_congestion_ops {\n" + decl + "};\n")
        assert subprocess.run(["grep", "-sqE", regex, str(f)]).returncode == want, decl


def test_an_interrupted_build_leaves_no_kernel_dir(tmp_path):
    # a make that hangs: the build is stopped in its configuration, as by Ctrl-C or a TERM
    bindir = fake_source_6_12(tmp_path)
    (bindir / "make").write_text("#!/bin/sh\nexec sleep 60\n")
    (bindir / "make").chmod(0o755)
    cache = tmp_path / "cache"
    good = patch_file(tmp_path, "good.patch", NEW_FILE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BBR_A_UML_")}
    env.update({"BBR_A_CACHE": str(cache), "BBR_A_UML_PATCH": str(good),
                "PATH": f"{bindir}:{os.environ['PATH']}"})
    p = subprocess.Popen([str(UML), "build"], env=env, start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kid = run([UML, "id"], cache, {"BBR_A_UML_PATCH": str(good)}).stdout.strip()
    marker = cache / "uml" / kid / "tree" / "net" / "ipv4" / "peer_mark.c"
    for _ in range(600):
        if marker.exists() or p.poll() is not None:
            break
        time.sleep(0.1)
    assert marker.exists(), p.communicate()[1]
    time.sleep(0.5)  # in make by now
    os.killpg(p.pid, signal.SIGTERM)
    p.communicate(timeout=60)
    assert p.returncode != 0
    assert not (cache / "uml" / kid).exists()
    assert (cache / "uml" / "src" / PIN / ".complete").exists()
