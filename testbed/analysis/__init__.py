"""The testbed's analysis: raw outputs of runs become numbers, tables, figures and the
numbers in the docs. One module per job, each read in one sitting:

    common    error type, payload ceiling, formatting, CSV files
    stats     Jain's index, utilisation, counters, means and 95 % confidence intervals
    parse     a run's raw outputs: params.env, the traffic's JSON, ss, tc, snmp, netstat, trace
    trace     the gain trace per flow: trace.csv, shares of gain reasons, time bins, dips
    run       per-run metrics: one run directory -> run_summary.json and its CSV time series
    checks    whether a run is a result: clients that finished, flows that lasted, delivery
    provenance  every option that shaped a run, the kernel, the module, the job key
    summary   summary.json of a results directory; its table; paths relative to it
    screen    a screen.sh tree: screen_runs.csv (per run, with provenance), screen.csv
    mixed     a cc per RTT class: shares, and the harm done to the incumbent
    evaluation  scenario files' metrics: flow completion times, convergence time, sliding
              Jain, queue and RTT per rate phase; flent: runs whose traffic was flent's
    sweep     analyze.py --sweep-csv; cost: analyze.py --cost; stress: --stress-csv
    cli       analyze.py's command line
    paper_values  the paper's numbers
    tables    Markdown tables of screens, rounded once from the per-run values
    docs      the generated tables of README.md, docs/*.md and the results READMEs;
              docs_blocks: which is which
    figures/  matplotlib: runs (time series, comparisons, sweeps), paper (Figs. 4..8), cli

testbed/analyze.py and plots/plot.py are the command lines' entry points. Importing this
package gives the analysis API (not the figures, which need matplotlib): `import analysis`.
"""
from .checks import *  # noqa: F401,F403
from .evaluation import *  # noqa: F401,F403
from .cli import cli_errors, command, main, parser  # noqa: F401
from .common import *  # noqa: F401,F403
from .cost import *  # noqa: F401,F403
from .mixed import *  # noqa: F401,F403
from .parse import *  # noqa: F401,F403
from .provenance import *  # noqa: F401,F403
from .run import *  # noqa: F401,F403
from .screen import *  # noqa: F401,F403
from .stats import *  # noqa: F401,F403
from .stress import *  # noqa: F401,F403
from .summary import *  # noqa: F401,F403
from .sweep import *  # noqa: F401,F403
from .trace import *  # noqa: F401,F403
