"""What every part of the analysis shares: its error type, the payload ceiling, number
formatting and CSV files."""
import csv

PAYLOAD_CEILING = 1448 / 1514
# Seconds before the end left out: flows end at slightly different times (each iperf3
# server starts its clock a few RTTs after launch), and a flow left alone at the very end
# would otherwise count the whole link for that moment.
DEFAULT_COOLDOWN = 1.0


class AnalysisError(Exception):
    """A problem with the input data: reported as one line, no traceback."""


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def save_csv(path, header, rows):
    """Write a CSV file: the header row, then rows."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def read_csv(path):
    """The rows of a CSV file as dicts by column name."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    """v as a float; None for an empty or missing value."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return None
