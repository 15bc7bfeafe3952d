"""The generated blocks of docs/peers.md: the peers an operator would pick instead, BBRv1 and
BBRv3 (a UML kernel built with BBR_A_UML_PATCH), beside bbr_a_fair on the same testbed
(screen.sh trees under docs/results/peers-uml/). docs_blocks.py adds PEERS_BLOCKS to its
BLOCKS; this module imports nothing from it."""
from .docs import Col, Table

PEERS = "docs/results/peers-uml"
COEXIST = {"f": f"{PEERS}/coexist", "v3": f"{PEERS}/coexist-bbr3"}
COEXIST_BDP = ("0.1", "1", "2", "4", "8", "16")
# (label, source, config) of the BBR-like flow beside cubic
COEXIST_CCS = (("bbr_a_fair", "f", "bbr_a_fair"), ("bbr", "f", "bbr"), ("bbr3", "v3", "bbr3"))

PEERS_BLOCKS = {
    "peers-coexist": Table(COEXIST, ["buffer, BDP"], [
        ([b], {"scenario": f"b{b}"}) for b in COEXIST_BDP], [
        *(Col(f"{cc}'s share %", "share0", 1, 100, src=src, config=cfg)
          for cc, src, cfg in COEXIST_CCS),
        *(Col(f"Jain, {cc}", "jain", 3, src=src, config=cfg) for cc, src, cfg in COEXIST_CCS)],
        what="mean +- 95 % CI half-width over the seeds; one flow of the BBR-like cc and one "
             "cubic flow, both 30 ms, 50 Mbit/s, 180 s measured from 30 s (nsperf's "
             "coexist test); share: the first flow's share of both flows' throughput; bbr3 "
             "ran on the UML 6.12 kernel with the BBRv3 patch, the others on UML 6.1"),
}
