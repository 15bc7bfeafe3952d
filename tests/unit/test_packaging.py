"""Packaging: the version is written once (dkms.conf), and the Makefile installs for the
kernel it builds for (docs/operators.md). Runs make -n against a stand-in kernel tree: no
kernel, no root."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION_LINE = re.compile(r'^PACKAGE_VERSION="([^"]*)"$', re.M)


def dkms_conf():
    """dkms.conf as DKMS reads it: sourced by bash."""
    p = subprocess.run(["bash", "-c", '. ./dkms.conf; echo "$PACKAGE_NAME|$PACKAGE_VERSION|'
                        '${BUILT_MODULE_NAME[0]}|$AUTOINSTALL|${MAKE[0]}"'],
                       cwd=ROOT, capture_output=True, text=True, env={"kernel_source_dir": "K"})
    assert p.returncode == 0, p.stderr
    return dict(zip(("name", "version", "module", "autoinstall", "make"),
                    p.stdout.strip().split("|")))


def test_the_version_is_written_only_in_dkms_conf():
    conf = dkms_conf()
    found = VERSION_LINE.findall((ROOT / "dkms.conf").read_text())
    assert found == [conf["version"]] and re.fullmatch(r"\d+\.\d+\.\d+", conf["version"])
    for f in [ROOT / "bbr_a_core.c", ROOT / "Kbuild", ROOT / "Makefile",
              *(ROOT / "include").glob("*.h"), *(ROOT / "algos").glob("*.[ch]")]:
        assert conf["version"] not in f.read_text(), f"{f.name} writes the version too"
    assert "MODULE_VERSION(BBR_A_VERSION)" in (ROOT / "bbr_a_core.c").read_text()
    assert "dkms.conf" in (ROOT / "Kbuild").read_text()


def test_the_changelog_s_newest_release_is_the_version():
    """CHANGELOG.md's first release heading (an "Unreleased" one may come before it) is
    dkms.conf's version: a release is the version, its changelog entry and the module's
    MODULE_VERSION, all three."""
    heads = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    releases = [h for h in heads if h != "Unreleased"]
    assert releases and releases[0] == dkms_conf()["version"], heads[:3]


def test_dkms_conf_names_the_module_and_rebuilds_for_new_kernels():
    conf = dkms_conf()
    assert conf["name"] == conf["module"] == "tcp_bbr_a"
    assert conf["autoinstall"] == "yes"
    assert conf["make"] == "make KDIR=K modules"


def make(*args, kdir):
    p = subprocess.run(["make", "-n", "-C", str(ROOT), f"KDIR={kdir}", *args],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def fake_kernel(tmp_path, release):
    """A directory that looks like a kernel's build tree to the Makefile (its make does
    nothing: make -n runs recursive makes)."""
    k = tmp_path / "build"
    (k / "include/generated").mkdir(parents=True)
    (k / "Makefile").write_text("%:\n\t@true\n")
    (k / "include/generated/utsrelease.h").write_text(f'#define UTS_RELEASE "{release}"\n')
    return k


def test_make_version_prints_dkms_conf_s():
    p = subprocess.run(["make", "-s", "-C", str(ROOT), "version"], capture_output=True, text=True)
    assert p.stdout.strip() == dkms_conf()["version"]


def test_install_goes_to_extra_of_the_built_kernel_and_depmods_that_release(tmp_path):
    k = fake_kernel(tmp_path, "6.1.0-99-amd64")
    out = make("install", kdir=k)
    assert f"-C {k} M={ROOT} KERNELRELEASE=6.1.0-99-amd64 INSTALL_MOD_DIR=extra modules_install" in out
    assert re.search(r"^depmod +6\.1\.0-99-amd64$", out, re.M), out
    staged = make("install", "INSTALL_MOD_PATH=/stage", kdir=k)
    assert re.search(r"^depmod -b /stage 6\.1\.0-99-amd64$", staged, re.M), staged


def test_uninstall_removes_what_install_put_there(tmp_path):
    k = fake_kernel(tmp_path, "6.12.9+deb12-amd64")
    out = make("uninstall", kdir=k)
    for suffix in ("", ".gz", ".xz", ".zst"):
        assert f"/lib/modules/6.12.9+deb12-amd64/extra/tcp_bbr_a.ko{suffix}" in out
    assert re.search(r"^depmod +6\.12\.9\+deb12-amd64$", out, re.M), out


def test_dkms_install_copies_what_the_build_reads(tmp_path):
    k = fake_kernel(tmp_path, "6.12.9+deb12-amd64")
    out = make("dkms-install", kdir=k)
    ver = dkms_conf()["version"]
    m = re.search(rf"^cp -R (.*) /usr/src/tcp_bbr_a-{re.escape(ver)}/$", out, re.M)
    assert m, out
    copied = set(m.group(1).split())
    # what scripts/lib/module.sh hands a build (module_inputs), and the licence
    inputs = subprocess.run(["bash", "-c", 'source scripts/lib/common.sh; source scripts/lib/module.sh;'
                             ' module_inputs "$PWD"'], cwd=ROOT, capture_output=True, text=True)
    assert inputs.returncode == 0, inputs.stderr
    assert set(inputs.stdout.split()) | {"LICENSE"} == copied
    assert f"dkms install -m tcp_bbr_a -v {ver} -k 6.12.9+deb12-amd64 --kernelsourcedir {k}" in out


def test_a_tree_without_a_release_is_refused(tmp_path):
    k = tmp_path / "build"
    k.mkdir()
    (k / "Makefile").write_text("")
    p = subprocess.run(["make", "-C", str(ROOT), f"KDIR={k}", "install"], capture_output=True,
                       text=True)
    assert p.returncode != 0 and "cannot tell the release" in p.stderr


def version_tuple(v):
    return tuple(int(x) for x in v.split("."))


def test_the_version_is_not_older_than_any_committed_result():
    """A result records the version of the module that made it (summary.json module_version):
    the source cannot be older than its own results. A merge that kept a branch's dkms.conf
    and lost the other side's bump would show here once that version has results."""
    ver = version_tuple(dkms_conf()["version"])
    seen = set()
    for d in ("docs/results", "results"):
        for f in (ROOT / d).rglob("summary.json") if (ROOT / d).is_dir() else []:
            seen.update(re.findall(r'"module_version": "(\d+\.\d+\.\d+)"', f.read_text()))
    assert seen, "no committed result names a module version"
    newest = max(seen, key=version_tuple)
    assert ver >= version_tuple(newest), f"dkms.conf says {ver}, a result was made by {newest}"
