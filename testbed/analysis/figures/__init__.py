"""Figures (matplotlib, Agg backend; PNG files): runs.py draws runs, comparisons and sweeps,
paper.py the paper's Figs. 4..8 from reproduce.sh's screens, cli.py is plot.py's command
line. Importing this package gives all of them and the Markdown tables (plots/plot.py's API)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .. import paper_values  # noqa: E402,F401
from ..common import AnalysisError, num, read_csv  # noqa: E402,F401
from ..paper_values import *  # noqa: E402,F401,F403
from ..tables import *  # noqa: E402,F401,F403
from .paper import *  # noqa: E402,F401,F403
from .runs import *  # noqa: E402,F401,F403
from .cli import command, main  # noqa: E402,F401
