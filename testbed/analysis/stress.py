"""tests/stress.sh's summaries as rows (analyze.py --stress-csv): one per run of the stress
and fault suite, with what it ran on and what it found, for the README's block stress-runs."""
from .common import AnalysisError

STRESS_COLS = ["run", "suite", "command", "commit", "kernel", "kernel_id", "module_version",
               "module_srcversion", "module_source_hash", "seed", "sanitizers", "cases",
               "cases_failed", "flows", "flows_failed", "bytes", "findings",
               "known_load_reports", "kmemleak_other", "unload", "virtual_s", "wall_s", "ok",
               "failed_cases"]


def stress_row(run, s):
    """The row of one summary.json (dict) of tests/stress.sh, named run."""
    try:
        t, cases = s["totals"], s["cases"]
        row = {"run": run, "suite": s["suite"], "command": s.get("command", ""),
               "commit": s.get("commit", ""), "kernel": s["kernel"],
               "kernel_id": s.get("uml_kernel", ""),
               "module_version": s["module"]["version"],
               "module_srcversion": s["module"]["srcversion"],
               "module_source_hash": s.get("module_hash", ""), "seed": s.get("seed") or "",
               "sanitizers": " ".join(s["sanitizers"]), "unload": s["unload"],
               "virtual_s": round(sum(c["virtual_s"] for c in cases), 1),
               "wall_s": s.get("wall_s", ""), "ok": int(bool(s["ok"])),
               "failed_cases": " ".join(c["name"] for c in cases if not c["ok"])}
        for k in ("cases", "cases_failed", "flows", "flows_failed", "bytes", "findings"):
            row[k] = t[k]
        # summaries from before the suite counted these (commit "stress: kmemleak's ...")
        for k in ("known_load_reports", "kmemleak_other"):
            row[k] = t.get(k, "")
    except (KeyError, TypeError) as e:
        raise AnalysisError(f"{run}: not a tests/stress.sh summary (no {e})") from None
    return row
