"""BBR_A_UML_SERIES=6.12: the plain peer kernel (Debian's linux-source-6.12 at the pinned
revision and the project's 6.12 patches, no user patch; its bbr is BBRv1, named bbr), the
control for the move from 6.1 to 6.12, without building a kernel (apt-get is faked as in
test_uml_peer.py)."""
import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_uml_peer import NEW_FILE, PIN, RTT, UML, fake_source_6_12, patch_file, run  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SCREEN = REPO / "testbed" / "screen.sh"
FILES = REPO / "scripts" / "uml"


def plain_key(files):
    return hashlib.sha256(b"recipe 2\n" + b"".join(f.read_bytes() for f in files)).hexdigest()[:12]


def test_the_plain_kernel_is_keyed_like_the_6_1_one_and_cached_apart(tmp_path):
    # the 6.12 series: det-random.patch as it is, scripts/uml/6.12/'s in place of the rest
    series = [FILES / "config.fragment", FILES / "det-random.patch",
              *sorted((FILES / "6.12").glob("*.patch"))]
    p = run([UML, "id"], tmp_path / "cache", {"BBR_A_UML_SERIES": "6.12"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"{PIN}-{plain_key(series)}"
    assert "bbr3" not in p.stdout
    assert not (tmp_path / "cache").exists()
    # another revision of linux-source-6.12: the same hash, its version
    s = run([UML, "id"], tmp_path / "cache",
            {"BBR_A_UML_SERIES": "6.12", "BBR_A_UML_SOURCE": "6.12.115-2~deb12u1"})
    assert s.stdout.strip() == f"6.12.115-2~deb12u1-{plain_key(series)}"
    # 6.1, named or not, is the default kernel with its key as before
    one = [FILES / "config.fragment", *sorted(FILES.glob("*.patch"))]
    for series_61 in ({}, {"BBR_A_UML_SERIES": "6.1"}, {"BBR_A_UML_SERIES": ""}):
        q = run([UML, "id"], tmp_path, {"BBR_A_UML_SOURCE": "6.1.170-3", **series_61})
        assert q.returncode == 0, q.stderr
        assert q.stdout.strip() == f"6.1.170-3-{plain_key(one)}"
    # and the patched kernel's id is not the plain one's
    a = patch_file(tmp_path, "a.patch", NEW_FILE)
    r = run([UML, "id"], tmp_path / "cache", {"BBR_A_UML_PATCH": str(a)})
    assert r.stdout.strip().startswith(f"{PIN}-bbr3-") and r.stdout != p.stdout


@pytest.mark.parametrize("cmd", ["id", "build", "module", "run"])
@pytest.mark.parametrize("value", ["6.6", "6.12.117", "612", " 6.12", "latest"])
def test_a_bad_series_is_one_line_before_anything_starts(tmp_path, cmd, value):
    args = [UML, cmd] + (["--", "true"] if cmd == "run" else [])
    p = run(args, tmp_path / "cache", {"BBR_A_UML_SERIES": value})
    assert p.returncode != 0 and p.stdout == ""
    assert p.stderr == (f"uml.sh: error: BBR_A_UML_SERIES='{value}' is not a kernel series "
                        "the UML backend builds (6.1, the default, or 6.12)\n")
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("series", ["6.12", "6.1"])
def test_the_series_and_a_patch_exclude_each_other(tmp_path, series):
    a = patch_file(tmp_path, "a.patch", NEW_FILE)
    for cmd in ("id", "build"):
        p = run([UML, cmd], tmp_path / "cache",
                {"BBR_A_UML_SERIES": series, "BBR_A_UML_PATCH": str(a)})
        assert p.returncode != 0 and p.stdout == ""
        assert p.stderr.count("\n") == 1, p.stderr
        assert f"BBR_A_UML_PATCH and BBR_A_UML_SERIES={series} exclude each other" in p.stderr
        assert not (tmp_path / "cache").exists()


def test_the_plain_kernel_is_built_from_6_12_with_the_project_patches_only(tmp_path):
    # the fake tree has no Makefile: the build stops at the configuration, after the patches
    bindir = fake_source_6_12(tmp_path)
    cache = tmp_path / "cache"
    env = {"BBR_A_UML_SERIES": "6.12"}
    p = run([UML, "build"], cache, env, bindir)
    assert p.returncode != 0 and "UML configuration failed" in p.stderr, p.stderr
    assert (tmp_path / "apt-args").read_text().split() == [
        "download", "-q", f"linux-source-6.12={PIN}"]
    kid = run([UML, "id"], cache, env).stdout.strip()
    tree = cache / "uml" / kid / "tree"
    assert "12288" in (tree / "arch" / "x86" / "um" / "user-offsets.c").read_text()
    assert "det_random_setup" in (tree / "arch" / "um" / "os-Linux" / "util.c").read_text()
    assert not (tree / "net" / "ipv4" / "peer_mark.c").exists()


def rtt(args, tmp_path, env=None):
    return run([RTT, "--rtt", "10,50", "--dry-run", "--out", tmp_path / "out", *args],
               tmp_path / "cache", env)


@pytest.mark.parametrize("backend", ["uml", "auto"])
def test_the_testbed_runs_bbr_by_its_name_on_the_plain_kernel(tmp_path, backend):
    env = {"BBR_A_UML_SERIES": "6.12"}
    p = rtt(["--backend", backend, "--cc", "bbr_a_fair,bbr,cubic"], tmp_path, env)
    assert p.returncode == 0, p.stderr
    assert "scenario.sh --cc bbr " in p.stdout and "bbr3" not in p.stdout
    # its bbr is BBRv1: bbr3 still needs the patch
    p = rtt(["--backend", backend, "--cc", "bbr3"], tmp_path, env)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "--cc bbr3 needs BBR_A_UML_PATCH" in p.stderr


def test_the_testbed_refuses_a_bad_series_or_both_with_one_line(tmp_path):
    p = rtt(["--backend", "uml", "--cc", "bbr"], tmp_path, {"BBR_A_UML_SERIES": "6.6"})
    assert p.returncode == 2
    assert p.stderr == ("rtt_fairness.sh: error: BBR_A_UML_SERIES='6.6' is not a kernel series "
                        "the UML backend builds (6.1, the default, or 6.12)\n")
    env = {"BBR_A_UML_SERIES": "6.12",
           "BBR_A_UML_PATCH": str(patch_file(tmp_path, "p.patch", NEW_FILE))}
    p = rtt(["--backend", "uml", "--cc", "bbr3"], tmp_path, env)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "BBR_A_UML_PATCH and BBR_A_UML_SERIES=6.12 exclude each other" in p.stderr


def test_screen_keys_the_plain_kernels_jobs_apart(tmp_path):
    """A job key's kernel= is scripts/uml.sh id: a job done on the plain 6.12 kernel is done
    there and stale on the 6.1 kernel, and the reverse; a bad series stops screen.sh with one
    line before any job."""
    import test_screen
    cfg = tmp_path / "configs.txt"
    cfg.write_text("bbr bbr\n")
    out = tmp_path / "out"

    def screen(env):
        p = run([SCREEN, "--configs", cfg, "--out", out, "--scenarios", "b5:10+50:5",
                 "--seeds", "1", "--dry-run"], tmp_path / "cache", env)
        assert p.returncode == 0, p.stderr
        return p.stdout.split()
    plain = {"BBR_A_UML_SERIES": "6.12"}
    words = screen(plain)
    assert words[:2] == ["todo", "bbr/b5/seed1"]
    kid = run([UML, "id"], tmp_path / "cache", plain).stdout.strip()
    common = "--backend uml --duration 30 --rate 100 --flows-per-rtt 1 --sample-ms 0 --client auto"
    mod, tb = test_screen.source_hashes()
    test_screen.fake_job(out, "bbr", "b5", 1, 0.9, cc="bbr")
    key = out / "bbr/b5/seed1/job.key"
    key.write_text(f"{common} {' '.join(words[2:])} module={mod} testbed={tb} kernel={kid}\n")
    assert screen(plain)[0] == "done"
    assert screen({})[0] == "stale"
    assert screen({"BBR_A_UML_SERIES": "6.1"})[0] == "stale"
    k61 = test_screen.kernel_id()
    if k61 != "unknown":
        key.write_text(key.read_text().replace(kid, k61))
        assert screen({})[0] == "done" and screen(plain)[0] == "stale"
    bad = run([SCREEN, "--configs", cfg, "--out", tmp_path / "out2", "--scenarios",
               "b5:10+50:5", "--seeds", "1"], tmp_path / "cache", {"BBR_A_UML_SERIES": "7"})
    assert bad.returncode == 2, bad.stderr
    errors = [ln for ln in bad.stderr.splitlines() if "error" in ln]
    assert len(errors) == 1 and "BBR_A_UML_SERIES='7' is not a kernel series" in errors[0], bad.stderr
    assert not (tmp_path / "out2" / "bbr").exists()
