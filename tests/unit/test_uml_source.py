"""scripts/uml.sh with BBR_A_UML_SOURCE: the UML kernel built from a pinned Debian revision of
linux-source-6.1, named in the kernel id (a job key's kernel=) and fetched once into the
cache, with apt-get faked on the PATH."""
import os
import subprocess
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
UML = REPO / "scripts" / "uml.sh"


def uml(args, cache, env=None, path=None):
    e = {**os.environ, "BBR_A_CACHE": str(cache), **(env or {})}
    if path:
        e["PATH"] = f"{path}:{e['PATH']}"
    return subprocess.run([str(UML), *args], capture_output=True, text=True, env=e, timeout=120)


def test_a_pinned_revision_names_the_kernel_without_building_anything(tmp_path):
    p = uml(["id"], tmp_path, {"BBR_A_UML_SOURCE": "6.1.170-3"})
    assert p.returncode == 0, p.stderr
    ver, _, digest = p.stdout.strip().rpartition("-")
    assert ver == "6.1.170-3" and len(digest) == 12
    assert not (tmp_path / "uml").exists()
    # the patches' and config's hash does not depend on the revision
    q = uml(["id"], tmp_path, {"BBR_A_UML_SOURCE": "6.1.192-2"})
    assert q.stdout.strip() == f"6.1.192-2-{digest}"


def test_a_pin_that_is_no_debian_version_is_refused(tmp_path):
    for bad in ("6.1 192", "../x", "-2", "6.1;rm"):
        p = uml(["id"], tmp_path, {"BBR_A_UML_SOURCE": bad})
        assert p.returncode != 0 and p.stdout == ""
        assert "BBR_A_UML_SOURCE" in p.stderr and "not a Debian version" in p.stderr


def fake_apt(tmp_path, deb=None):
    """An apt-get whose download copies deb into the current directory (fails without one)
    and records its arguments."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "apt-get"
    script.write_text("#!/bin/sh\n"
                      f"echo \"$@\" >>{tmp_path}/apt-args\n"
                      + (f"cp {deb} .\n" if deb else "echo 'E: Version not found' >&2; exit 100\n"))
    script.chmod(0o755)
    return bindir


def test_a_revision_apt_does_not_serve_stops_the_build_and_leaves_nothing(tmp_path):
    cache = tmp_path / "cache"
    p = uml(["build"], cache, {"BBR_A_UML_SOURCE": "6.1.999-9"}, fake_apt(tmp_path))
    assert p.returncode != 0
    assert "cannot download linux-source-6.1=6.1.999-9" in p.stderr
    assert (tmp_path / "apt-args").read_text().split() == ["download", "-q",
                                                          "linux-source-6.1=6.1.999-9"]
    assert not (cache / "uml" / "src" / "6.1.999-9.part").exists()
    assert not (cache / "uml" / "src" / "6.1.999-9").exists()
    assert not any(d.name.startswith("6.1.999-9-") for d in (cache / "uml").iterdir())


def test_a_pinned_revision_is_fetched_once_and_built_from(tmp_path):
    # a package holding a source tarball that is no kernel: the fetch succeeds, the build
    # then fails at its configuration, from that tarball
    root = tmp_path / "pkg"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text(
        "Package: linux-source-6.1\nVersion: 6.1.1-1\nArchitecture: all\n"
        "Maintainer: test <t@example.invalid>\nDescription: fake\n")
    src = tmp_path / "linux-source-6.1"
    src.mkdir()
    (src / "MARK").write_text("fake tree\n")
    (root / "usr" / "src").mkdir(parents=True)
    with tarfile.open(root / "usr" / "src" / "linux-source-6.1.tar.xz", "w:xz") as t:
        t.add(src, arcname="linux-source-6.1")
    deb = tmp_path / "linux-source-6.1_6.1.1-1_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", str(root), str(deb)],
                   check=True, capture_output=True)
    cache = tmp_path / "cache"
    bindir = fake_apt(tmp_path, deb)
    for _ in range(2):
        p = uml(["build"], cache, {"BBR_A_UML_SOURCE": "6.1.1-1"}, bindir)
        assert p.returncode != 0 and "UML configuration failed" in p.stderr, p.stderr
    assert len((tmp_path / "apt-args").read_text().splitlines()) == 1  # fetched once
    fetched = cache / "uml" / "src" / "6.1.1-1"
    assert (fetched / ".complete").exists()
    assert sorted(f.name for f in fetched.iterdir()) == [".complete", "linux-source-6.1.tar.xz"]
    kdir = next(d for d in (cache / "uml").iterdir() if d.name.startswith("6.1.1-1-"))
    assert (kdir / "tree" / "MARK").read_text() == "fake tree\n"
