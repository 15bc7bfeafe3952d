"""The paper's numbers (Pan et al. 2022, NS-3) as its text gives them, drawn and tabled beside
ours: ../shared/notes/bbr-a-spec.md."""


# The paper's NS-3 values (../shared/notes/bbr-a-spec.md, Figs. 6 and 7), drawn beside ours:
# (label, x values, Jain, color of the cc they belong to).
PAPER_BUFFER = [("paper BBR-A: >= 0.96 at every buffer", [0.1, 100], [0.96, 0.96], "bbr_a"),
                ("paper BBR: ~0.63 above 6 BDP", [6, 100], [0.63, 0.63], "bbr"),
                ("paper BBQ: >= 0.91 at every buffer", [0.1, 100], [0.91, 0.91], "bbq"),
                ("paper DA-BBR: >= ~0.95 at every buffer", [0.1, 100], [0.95, 0.95], "da_bbr")]


# Fig. 7: BBR-A's ~0.95 holds over the whole ratio range, drawn as a line over it; BBR's 0.59
# is at ratio 10; DA-BBR's ~0.92, which the text gives beside them without a ratio, at 10
PAPER_RATIO = [("paper BBR-A: ~0.95 over the whole ratio range", [1, 10], [0.95, 0.95], "bbr_a"),
               ("paper BBR at ratio 10: 0.59", [10], [0.59], "bbr"),
               ("paper DA-BBR at ratio 10: ~0.92", [10], [0.92], "da_bbr")]


# Figs. 4 and 8 of the paper, as its text gives them: (x, value) per algorithm and buffer.
PAPER_FIG4 = {("bbr_a", 1): [(0, 0.956)], ("bbr_a", 5): [(0, 0.962), (6, 0.90)]}


PAPER_FIG8 = {("bbr", 0.1): [(1, 0.028), (100, 0.149)], ("bbq", 0.1): [(1, 0.0152), (100, 0.0601)],
              ("da_bbr", 0.1): [(1, 0.0126), (100, 0.0486)], ("bbr_a", 0.1): [(1, 0.0131), (100, 0.0424)],
              # 1 BDP: "all ~1 % at 1 flow"
              ("bbr", 1): [(1, 0.01), (100, 0.0463)], ("bbq", 1): [(1, 0.01), (100, 0.0395)],
              ("da_bbr", 1): [(1, 0.01), (100, 0.0352)], ("bbr_a", 1): [(1, 0.01), (100, 0.0342)]}


# Fig. 5 of the paper (NS-3), as its text gives it: 10 ms flow vs 50 ms flow.
PAPER_FIG5 = {("bbr", "b0.5"): "10 ms flow ~39.7 Mbit/s, 50 ms flow 1.4x",
              ("bbr", "b5"): "10 ms flow ~13.8 Mbit/s, 50 ms flow 5.9x",
              ("bbr_a", "b0.5"): "45.3 vs 50.3 Mbit/s", ("bbr_a", "b5"): "50 ms flow 1.3x",
              ("bbq", "b0.5"): "10 ms flow 42.3 Mbit/s, 50 ms flow 1.3x",
              ("bbq", "b5"): "50 ms flow 1.6x", ("da_bbr", "b0.5"): "50 ms flow ~1.3x",
              ("da_bbr", "b5"): "50 ms flow ~1.3x"}

# The same as the docs' tables say them, per algorithm (testbed/analysis/docs_blocks.py).
PAPER_FIG6_TEXT = {"bbr": "~0.63 above 6 BDP", "bbq": ">= 0.91", "da_bbr": ">= ~0.95",
                   "bbr_a": ">= 0.96"}
PAPER_FIG7_TEXT = {"bbr": "0.59 at ratio 10", "da_bbr": "~0.92 at ratio 10",
                   "bbr_a": "~0.95 at every ratio"}
PAPER_FIG4_TEXT = {"bbr": "all > 0.94 at 0 %",
                   "bbr_a": "0.956 (1 BDP), 0.962 (5 BDP) at 0 %; >= 0.90 at 6 %"}
# Fig. 8 in per cent, by scenario (n<flows>-b<bdp>): PAPER_FIG8's points, and the paper's
# "about 1 %" with one flow in 1 BDP
PAPER_FIG8_TEXT = {**{(f"n{n}-b{b:g}", cc): f"{100 * v:g}" for (cc, b), pts in PAPER_FIG8.items()
                      for n, v in pts},
                   **{("n1-b1", cc): "~1" for cc in ("bbr", "bbq", "da_bbr", "bbr_a")}}
