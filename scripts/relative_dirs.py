#!/usr/bin/python3
"""One-off (2026-11-25): make the run paths in the committed results relative.

Every summary.json that testbed/analyze.py wrote before the analysis package named each
run by the absolute path of the machine it ran on ("dir": "/work/repro/fig6/cubic/b100/seed1/
cubic/run1"), or by one relative to wherever the command ran. rtt_fairness.sh puts a run at
OUT/<cc item>/run<N> and the summary at OUT/summary.json, so each dir becomes its last two
components, the path from the summary's directory (analysis.summary.run_dir reads it so).
Only the "dir" values change, byte for byte in place; a value that does not end in
<item>/run<N> stops the script.

    scripts/relative_dirs.py [FILE.json ...]     (default: the JSON files git tracks under
                                                  docs/results)
"""
import re
import subprocess
import sys

DIR = re.compile(r'("dir": ")([^"]*)(")')
TAIL = re.compile(r"(?:^|/)([^/]+/run[0-9]+)/*$")


def relative(value):
    """The run's path from its summary: the last two components, <item>/run<N>."""
    m = TAIL.search(value)
    if not m:
        raise ValueError(f"not a run directory: {value!r}")
    return m.group(1)


def rewrite(text):
    """text with every "dir" value relative; (new text, number of values changed)."""
    changed = 0

    def one(m):
        nonlocal changed
        new = relative(m.group(2))
        changed += new != m.group(2)
        return m.group(1) + new + m.group(3)
    return DIR.sub(one, text), changed


def main(argv):
    files = argv or subprocess.run(["git", "ls-files", "docs/results/*.json",
                                    "docs/results/**/*.json"], capture_output=True, text=True,
                                   check=True).stdout.split()
    nfiles = nvalues = 0
    for path in files:
        try:
            with open(path) as f:
                text = f.read()
        except FileNotFoundError:
            continue  # deleted in the work tree (a job being re-run)
        new, n = rewrite(text)
        if n:
            with open(path, "w") as f:
                f.write(new)
            nfiles, nvalues = nfiles + 1, nvalues + n
    print(f"{nvalues} dir values in {nfiles} files made relative")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
