"""Host tests of include/bbr_a_gain.h: the BBR-A gain arithmetic.

gain_check.c compares both gain functions with a double-precision reference
over the whole phi range and the u32 edges; it is built with UBSan so that any
overflow or undefined shift aborts the run.
"""
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "include"
CHECK = pathlib.Path(__file__).with_name("gain_check.c")
CC = shutil.which("gcc") or shutil.which("cc")

pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

WARN = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic"]
UBSAN = ["-fsanitize=undefined", "-fno-sanitize-recover=all"]


def build(tmp_path, *extra, name="gain_check"):
    exe = tmp_path / name
    subprocess.run([CC, *WARN, *UBSAN, *extra, f"-I{INCLUDE}", str(CHECK),
                    "-lm", "-o", str(exe)], check=True)
    return exe


def run(exe):
    proc = subprocess.run([str(exe)], capture_output=True, text=True)
    m = re.search(r"^(\d+) passed, (\d+) failed$", proc.stdout, re.M)
    assert m, f"no summary line in output:\n{proc.stdout}{proc.stderr}"
    return proc, int(m.group(1)), int(m.group(2))


def test_gains_match_reference(tmp_path):
    proc, passed, failed = run(build(tmp_path))
    assert proc.returncode == 0 and failed == 0, proc.stdout + proc.stderr
    assert "runtime error" not in proc.stderr
    assert passed > 1_000_000


@pytest.mark.parametrize("mutant", ["MUTANT_UP", "MUTANT_DOWN", "MUTANT_QPHI"])
def test_checker_catches_wrong_gain(tmp_path, mutant):
    """A gain off by 2 at a single phi must be reported."""
    proc, _, failed = run(build(tmp_path, f"-D{mutant}", name=mutant))
    assert proc.returncode != 0 and failed > 0


def test_header_is_self_contained_in_userspace(tmp_path):
    src = tmp_path / "only_header.c"
    src.write_text('#include "bbr_a_gain.h"\n'
                   "int main(void)\n{\n"
                   "\treturn !(bbr_a_gain_up(0, 1) == 384 &&\n"
                   "\t\t bbr_a_gain_down(1, 1) == 128);\n}\n")
    for std in ("-std=c99", "-std=gnu11"):
        exe = tmp_path / f"only_header{std}"
        subprocess.run([CC, std, "-Wall", "-Wextra", "-Werror", "-pedantic",
                        f"-I{INCLUDE}", str(src), "-o", str(exe)],
                       check=True)
        assert subprocess.run([str(exe)]).returncode == 0


LOSS_CHECK = r'''
#include <stdio.h>
#include "bbr_a_gain.h"

static int failed;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s\n", #cond); failed++; } } while (0)

int main(void)
{
	bool v;

	/* the threshold is strict, in per mille of lost + delivered */
	CHECK(!bbr_a_loss_rate_high(2, 98, 20));	/* exactly 2 %: not above */
	CHECK(bbr_a_loss_rate_high(3, 97, 20));
	CHECK(!bbr_a_loss_rate_high(0, 1000, 0) && bbr_a_loss_rate_high(1, 0, 0));
	CHECK(!bbr_a_loss_rate_high(0xFFFFFFFFu / 100, 0xFFFFFFFFu, 20));
	CHECK(bbr_a_loss_rate_high(0xFFFFFFFFu, 0xFFFFFFFFu, 1000) == 0);
	/* a round that ended: its own rate decides, whatever came before */
	CHECK(bbr_a_round_lossy(false, 5, 95, 20));
	CHECK(!bbr_a_round_lossy(true, 1, 99, 20));
	/* regression: one ACK ends the round and enters recovery, so the round is
	 * judged twice; the second, empty round must not erase the verdict */
	v = bbr_a_round_lossy(false, 5, 95, 20);
	v = bbr_a_round_lossy(v, 0, 0, 20);
	CHECK(v);
	CHECK(!bbr_a_round_lossy(false, 0, 0, 20));
	printf("%d failed\n", failed);
	return failed != 0;
}
'''


def test_loss_round_verdict(tmp_path):
    """The probe-down loss test; an empty round keeps the previous verdict."""
    src = tmp_path / "loss_check.c"
    src.write_text(LOSS_CHECK)
    exe = tmp_path / "loss_check"
    subprocess.run([CC, *WARN, *UBSAN, f"-I{INCLUDE}", str(src), "-o", str(exe)],
                   check=True)
    proc = subprocess.run([str(exe)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "runtime error" not in proc.stderr
