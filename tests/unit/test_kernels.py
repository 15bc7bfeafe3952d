"""scripts/lib/debian.sh and the series names of scripts/lib/common.sh, without the network:
which release a kernel series resolves to (on a package list shaped like Debian's archive
of 2026-11), where the private apt lists take the archive's URIs from (the machine's own
Debian entry, in both apt formats), and which suites belong to which Debian release."""
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def sh(script, env=None, stdin=""):
    """Run bash with common.sh and debian.sh sourced; return (exit status, stdout, stderr)."""
    p = subprocess.run(["bash", "-c", f"source {REPO}/scripts/lib/common.sh; "
                        f"source {REPO}/scripts/lib/debian.sh; {script}"],
                       input=stdin, capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


# linux-headers (H) and linux-image (I) package names, less the prefix, as in the archive's
# lists: several ABIs per series, other flavours, bullseye's 6.1 backports, trixie's and
# bookworm's 6.12, trixie-backports' and sid's 7.2, a 7.x image without headers, an rc.
ARCHIVE = """
5.10.0-45 5.10.0-46 5.10.0-46-cloud 5.10.0-46-rt 6.1.0-0.deb11.52 6.1.0-55 6.1.0-56
6.12.95+deb12 6.12.117+deb12 6.12.117+deb13 6.12.115+deb13.1 7.2.9+deb13 7.2.12+deb13
7.2.13+deb14 7.3.4+deb13 7.3
"""


def archive_lines(images_only=(), headers_only=()):
    """The "H/I RELEASE" lines deb_choose_releases reads, e.g. "H 5.10.0-46-cloud-amd64"."""
    out = []
    for rel in ARCHIVE.split():
        name = f"{rel}-amd64"
        if rel not in images_only:
            out.append(f"H {name}")
        if rel not in headers_only:
            out.append(f"I {name}")
    return "\n".join(out) + "\n"


def test_each_series_resolves_to_its_own_debian_release_newest_first():
    rc, out, err = sh("deb_choose_releases", stdin=archive_lines())
    assert rc == 0, err
    assert out.splitlines() == [
        "5.10 5.10.0-46-amd64",        # bullseye's own kernel, newest ABI
        "6.1 6.1.0-56-amd64",          # bookworm's own, not bullseye's 6.1.0-0.deb11.NN
        "6.12 6.12.117+deb12-amd64",   # bookworm's (deb12) before trixie's (deb13)
        "7.2 7.2.12+deb13-amd64",      # trixie-backports before sid's +deb14
        "7.3 7.3.4+deb13-amd64",       # not experimental's 7.3-amd64 (rc)
    ]


def test_a_release_needs_both_headers_and_image():
    rc, out, _ = sh("deb_choose_releases",
                    stdin=archive_lines(images_only=("7.3.4+deb13",), headers_only=("5.10.0-46",)))
    assert rc == 0
    got = dict(line.split() for line in out.splitlines())
    assert got["5.10"] == "5.10.0-45-amd64"
    assert got["7.2"] == "7.2.12+deb13-amd64" and "7.3" not in got


DEB822 = """Types: deb
URIs: http://mirror.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.invalid/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
ONELINE = """# comment
deb http://mirror.invalid/debian bookworm main
deb [arch=amd64 signed-by=/k.gpg] http://security.invalid/debian-security bookworm-security main
deb-src http://mirror.invalid/debian bookworm main
"""


@pytest.mark.parametrize("fmt", ["deb822", "one-line"])
def test_private_sources_take_the_machines_uris(tmp_path, fmt):
    etc = tmp_path / "etc"
    (etc / "sources.list.d").mkdir(parents=True)
    if fmt == "deb822":
        (etc / "sources.list.d" / "debian.sources").write_text(DEB822)
        sec, key, seckey = "http://mirror.invalid/debian-security", \
            " [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]", \
            " [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
    else:
        (etc / "sources.list").write_text(ONELINE)
        sec, key, seckey = "http://security.invalid/debian-security", "", " [signed-by=/k.gpg]"
    osr = tmp_path / "os-release"
    osr.write_text("ID=debian\nVERSION_CODENAME=bookworm\n")
    env = {"PATH": "/usr/bin:/bin", "BBR_A_APT_ETC": str(etc), "BBR_A_OS_RELEASE": str(osr),
           "HOME": str(tmp_path)}
    rc, out, err = sh("for s in bullseye-security trixie-backports sid; do deb_sources_line $s; done",
                      env=env)
    assert rc == 0, err
    assert out.splitlines() == [
        f"deb{seckey} {sec} bullseye-security main",
        f"deb{key} http://mirror.invalid/debian trixie-backports main",
        f"deb{key} http://mirror.invalid/debian sid main",
    ]


def test_no_debian_entry_is_a_clear_error(tmp_path):
    etc = tmp_path / "etc"
    (etc / "sources.list.d").mkdir(parents=True)
    osr = tmp_path / "os-release"
    osr.write_text("VERSION_CODENAME=bookworm\n")
    env = {"PATH": "/usr/bin:/bin", "BBR_A_APT_ETC": str(etc), "BBR_A_OS_RELEASE": str(osr),
           "HOME": str(tmp_path)}
    rc, _, err = sh("deb_sources_line sid", env=env)
    assert rc == 1 and "no Debian apt entry for suite 'bookworm'" in err


@pytest.mark.parametrize("suite,base", [
    ("bullseye-security", "bullseye"), ("bookworm", "bookworm"), ("bookworm-backports", "bookworm"),
    ("trixie-backports", "trixie"), ("trixie-updates", "trixie"), ("sid", "sid"),
    ("experimental", "sid")])
def test_suites_belong_to_their_release(suite, base):
    rc, out, _ = sh(f"deb_base_suite {suite}")
    assert rc == 0 and out.strip() == base


@pytest.mark.parametrize("name,ok", [
    ("5.10", True), ("6.1", True), ("7.3", True), ("newest", True), ("oldest", True),
    ("", False), ("6", False), ("6.1.0", False), ("uml", False), ("latest", False)])
def test_series_names(name, ok):
    rc, _, err = sh(f"check_series '{name}'")
    assert (rc == 0) == ok, err
