"""The numbers in README.md, docs/*.md and docs/results/**/README.md are generated, not
typed: each table sits between

    <!-- table:NAME -->
    ...
    <!-- /table -->

and BLOCKS (docs_blocks.py) says what NAME renders: which committed data (screen_runs.csv
files or screen.sh trees under docs/results, never raw runs), which runs and which numbers.
Below each table a line says what its cells are, the files and seeds they come from and
the runs left out as not results, and links the block's provenance file
(docs/results/provenance/NAME.md, generated with it): the kernel, the module's version and
srcversion, the module and testbed sources of the jobs' keys, the machine. A block carries
its own name, so it can move to another file unchanged but for that link's path.

    plots/plot.py --docs            rewrite every block of those files (doc_files) and
                                    the provenance files
    plots/plot.py --docs --check    change nothing; exit 1 naming the blocks that differ
tests/unit/test_docs_blocks.py runs the check, so a hand-edited or stale number fails."""
import glob
import os
import re

from .common import AnalysisError
from .tables import cell, load_runs, usual_count, values

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BEGIN = re.compile(r"^<!-- table:([A-Za-z0-9_.-]+) -->$")
END = "<!-- /table -->"


class Col:
    """A column: a header and, per row, a cell: a metric of the row's runs (tables.values:
    jain, utilization, retrans_rate, qdelay_mean_ms, tput0, tput1, ratio; runs: how many
    are results, and how many were left out) with these digits
    and scale (100: per cent), or a fixed text (text: a function of the row's selection).
    note(selection) adds fixed text after a metric's cell (the paper's value beside ours).
    extreme "min" or "max": the cell is the worst run's value, not the mean (the worst point
    beside the mean). fn(runs): the cell is fn's text of the row's runs that are results
    (rows of a per-run file that a mean does not describe: a range, a value per repetition).
    sel narrows the row's runs (src, config, scenario, or any column of the file); a src
    that is a dict maps the row's src to the column's (the same column over two sources,
    a row's kind of runs picking the pair: one kernel's own-kind or CUBIC screen); any other
    value that is a function maps the row's value of that key to the column's (a row per
    path condition, a column per buffer: scenario=lambda c: f"{c}-b5")."""

    def __init__(self, header, metric=None, digits=3, scale=1, ci=True, text=None, note=None,
                 extreme=None, fn=None, **sel):
        self.header, self.metric, self.digits, self.scale, self.ci = header, metric, digits, scale, ci
        self.text, self.note, self.extreme, self.fn, self.sel = text, note, extreme, fn, sel


class Table:
    """A generated table: sources {name: path from the repository root}, label headers,
    rows [(labels, sel)] (the row's first cells, and which runs it takes: src, config,
    scenario), columns, extra rows of fixed text (the paper's values), and what the cells
    are (said in the provenance line); unit: what a row of the sources is (runs; a dips file's
    rows are PROBE_RTTs)."""

    def __init__(self, sources, labels, rows, cols, extra=(),
                 what="mean +- 95 % CI half-width over the seeds", seed_notes=True, unit="runs"):
        self.sources, self.labels, self.rows, self.cols = sources, labels, rows, cols
        self.extra, self.what, self.seed_notes, self.unit = extra, what, seed_notes, unit


def grid(path, metric, configs, scenarios, label=lambda s: s, header="scenario", digits=3,
         scale=1, note=None, extra=(), what=None):
    """A Table of one screen: a row per scenario (labelled by label), a column per
    configuration, one metric; note(scenario, config): fixed text after a cell."""
    cols = [Col(c, metric, digits, scale, config=c,
                note=(lambda sel: note(sel["scenario"], sel["config"])) if note else None)
            for c in configs]
    return Table({"s": path}, [header], [([label(s)], {"src": "s", "scenario": s})
                                         for s in scenarios], cols, extra,
                 **({"what": what} if what else {}))


def _select(runs, sel):
    return [r for r in runs if all(r.get(k) == v for k, v in sel.items() if k != "src")]


def _seeds(seeds):
    """'1..5', '1, 2, 4' or '1..3, 5' of a set of seed strings."""
    xs = sorted({int(s) for s in seeds if str(s).isdigit()})
    out, i = [], 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(f"{xs[i]}..{xs[j]}" if j - i >= 2 else ", ".join(map(str, xs[i:j + 1])))
        i = j + 1
    return ", ".join(out)


def _counted(values, unit="runs"):
    """'a' or 'a (n runs), b (m runs)' of a list of values, the most common first."""
    vals = [v for v in values if v]
    kinds = sorted(set(vals), key=lambda v: (-vals.count(v), v))
    if len(kinds) <= 1:
        return kinds[0] if kinds else ""
    return ", ".join(f"{v} ({vals.count(v)} {unit})" for v in kinds)


PROVENANCE_DIR = "docs/results/provenance"
# the current release's runs of the README's grids (README.md, results.md, peers.md)
CURRENT = "docs/results/coexistence-uml/v0310"


def provenance_facts(table, used):
    """[(what, value)] the block's numbers come from, beyond the files and seeds: the
    commit of a per-run file, the kernel and its build, the module's version and
    srcversion, the jobs' keys, the machine."""
    runs = [r for rs in used.values() for r in rs]
    out = []
    commits = _counted([r.get("commit") for r in runs], table.unit)
    if commits:  # a per-run file that records the commit it ran at (bench_cost.sh's)
        out.append(("commit", commits))
    kernel = _counted([r.get("kernel") for r in runs], table.unit)
    if kernel:  # a per-run file of an ad-hoc comparison may not record it
        builds = [r.get("kernel_id") for r in runs if r.get("kernel_id")]
        if builds:
            kernel += f" (build {_counted(builds, table.unit)}" + (
                "" if len(builds) == len(runs) else f" in {len(builds)} {table.unit}' keys") + ")"
        out.append(("kernel", kernel))
    mods = [r.get("module_version") for r in runs
            if r.get("module_version") not in ("none", "", None)]
    if mods:
        out.append(("tcp_bbr_a", _counted(mods, table.unit)))
    src = _counted([r.get("module_srcversion") for r in runs], table.unit)
    if src:
        out.append(("srcversion", src))
    keys = [f"module {r['module_hash']} testbed {r['testbed_hash']}" for r in runs
            if r.get("module_hash")]
    if keys:
        out.append(("job keys", _counted(keys, table.unit)))
    hosts = [f"{r['host_cpu']}, userland {r.get('host_userland') or 'unknown'}" for r in runs
             if r.get("host_cpu")]
    if hosts:  # recorded from 2026-11-29 on
        out.append(("machine", _counted(hosts, table.unit) + (
            "" if len(hosts) == len(runs) else f" ({len(hosts)} {table.unit} record it)")))
    return out


def _files(table, used):
    return ", ".join(f"`{table.sources[s]}` ({len(rs)} {table.unit})" for s, rs in used.items())


def caption_line(name, table, used, link):
    """The line under a block's table: what its cells are, the files and seeds they come
    from, the runs left out, and a link to the rest of its provenance (provenance_text)."""
    runs = [r for rs in used.values() for r in rs]
    seeds = [r.get("seed") for r in runs if r.get("seed")]
    parts = [f"seeds {_seeds(seeds)}"] if seeds else []
    bad = sum(1 for r in runs if r["problems"])
    if bad:
        parts.append(f"{bad} {table.unit} left out as not results")
    return (f"_Block `{name}`, generated by `plots/plot.py --docs`: {table.what}; from "
            + "; ".join([_files(table, used)] + parts)
            + f"; provenance: [{name}]({link})._")


def provenance_text(name, table, used):
    """The block's provenance file (PROVENANCE_DIR/NAME.md): its files and every fact of
    provenance_facts, one line each."""
    facts = provenance_facts(table, used)
    return "\n".join([f"# Block `{name}`: where its numbers come from", "",
                      "Generated by `plots/plot.py --docs` with the block; do not edit.", "",
                      f"- cells: {table.what}", f"- from: {_files(table, used)}"]
                     + [f"- {k}: {v}" for k, v in facts]) + "\n"


def provenance_path(name, repo=REPO):
    return os.path.join(repo, PROVENANCE_DIR, f"{name}.md")


def render(name, table, repo=REPO, doc=None):
    """The lines of a block (between its markers): the table and its caption line, whose
    link to the provenance file is relative to doc (a path in the repository; None: from
    the repository's root)."""
    return render_block(name, table, repo, doc)[0]


def render_block(name, table, repo=REPO, doc=None):
    """(the block's lines, the text of its provenance file)."""
    data = {}
    for src, path in table.sources.items():
        if not os.path.exists(os.path.join(repo, path)):
            raise AnalysisError(f"block {name}: no {path}")
        data[src] = load_runs(os.path.join(repo, path))
    used = {src: {} for src in table.sources}  # the runs the table shows, by id
    rows = []
    for labels, sel in table.rows:
        items = list(labels)
        for c in table.cols:
            key = {**sel, **c.sel}
            if isinstance(key["src"], dict):
                key["src"] = key["src"][sel["src"]]
            key.update({k: v(sel.get(k)) for k, v in c.sel.items() if callable(v)})
            if c.text is not None:  # computed from the whole source: all its rows count
                items.append(c.text(key))
                used[key["src"]].update((id(r), r) for r in data[key["src"]])
                continue
            runs = _select(data[key["src"]], key)
            used[key["src"]].update((id(r), r) for r in runs)
            items.append((runs, c, key))
        rows.append(items)
    # a cell over another number of seeds than most says so, unless a column counts them
    usual = usual_count([it[0] for items in rows for it in items
                         if isinstance(it, tuple) and it[1].metric != "runs"]
                        ) if table.seed_notes else None

    def show(it):
        if isinstance(it, str):
            return it
        runs, c, key = it
        if c.fn:
            return c.fn([r for r in runs if not r["problems"]])
        if c.metric == "runs":  # the runs that are results, and those left out
            bad = sum(1 for r in runs if r["problems"])
            return f"{len(runs) - bad}" + (f" ({bad} excluded)" if bad else "")
        if c.extreme:
            xs = [v for v in values([r for r in runs if not r["problems"]], c.metric)
                  if v is not None]
            return f"{(min if c.extreme == 'min' else max)(xs) * c.scale:.{c.digits}f}" \
                if xs else "-"
        note = c.note(key) if c.note else ""
        return cell(runs, c.metric, c.digits, c.scale, c.ci, usual) + (f" {note}" if note else "")
    out = ["| " + " | ".join(table.labels + [c.header for c in table.cols]) + " |",
           "|" + "---|" * (len(table.labels) + len(table.cols))]
    out += ["| " + " | ".join(show(it) for it in items) + " |" for items in rows]
    out += ["| " + " | ".join(extra) + " |" for extra in table.extra]
    shown = {src: list(rs.values()) for src, rs in used.items() if rs}
    target = provenance_path(name, repo)
    link = os.path.relpath(target, os.path.dirname(os.path.join(repo, doc))) if doc \
        else os.path.relpath(target, repo)
    return out + ["", caption_line(name, table, shown, link)], \
        provenance_text(name, table, shown)


def blocks_in(text):
    """[(name, first line index inside, end marker's index)] of a Markdown text's blocks."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            j = next((k for k in range(i + 1, len(lines)) if lines[k] == END), None)
            if j is None:
                raise AnalysisError(f"block {m.group(1)}: no {END} after line {i + 1}")
            out.append((m.group(1), i + 1, j))
            i = j
        i += 1
    return out


def rewrite(text, blocks, repo=REPO, doc=None, provenance=None):
    """text with every block rendered anew; (new text, names of the blocks that changed).
    doc: the text's path in the repository (its links to the provenance files are relative
    to it); provenance: a dict that gets each block's provenance file text by name."""
    lines = text.split("\n")
    changed = []
    for name, a, b in reversed(blocks_in(text)):
        if name not in blocks:
            raise AnalysisError(f"unknown block {name!r} (analysis/docs_blocks.py has none)")
        block, prov = render_block(name, blocks[name], repo, doc)
        if provenance is not None:
            provenance[name] = prov
        new = [""] + block + [""]
        if lines[a:b] != new:
            changed.append(name)
            lines[a:b] = new
    return "\n".join(lines), sorted(changed)


def doc_files(repo=REPO):
    """README.md, docs/*.md and the results' READMEs (docs/results/**/README.md); not the
    notebook (docs/notebook/), whose tables are frozen as last generated."""
    return [os.path.join(repo, "README.md")] + sorted(
        glob.glob(os.path.join(repo, "docs", "*.md"))) + sorted(
        glob.glob(os.path.join(repo, "docs", "results", "**", "README.md"), recursive=True))


def update(files=None, check=False, repo=REPO, blocks=None):
    """Render every block of files (default doc_files) and, for those in the repository,
    its provenance file; write them unless check. With the default files, a provenance file
    of no block is stale too (and removed). Returns {file: [blocks that differ]} for the
    files with any ({provenance file: ["provenance"]} for those)."""
    if blocks is None:
        from .docs_blocks import BLOCKS as blocks
    out, prov = {}, {}
    root = os.path.realpath(repo) + os.sep
    for path in files or doc_files(repo):
        with open(path) as f:
            text = f.read()
        inside = os.path.realpath(path).startswith(root)
        doc = os.path.relpath(os.path.realpath(path), root) if inside else None
        new, changed = rewrite(text, blocks, repo, doc, prov if inside else None)
        if changed:
            out[path] = changed
            if not check:
                with open(path, "w") as f:
                    f.write(new)
    stale = [p for p in glob.glob(os.path.join(repo, PROVENANCE_DIR, "*.md"))
             if os.path.basename(p)[:-3] not in prov] if files is None else []
    for path in stale:
        out[path] = ["provenance"]
        if not check:
            os.remove(path)
    for name, text in sorted(prov.items()):
        path = provenance_path(name, repo)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            out[path] = ["provenance"]
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    return out
