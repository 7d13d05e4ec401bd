"""Chapter 5 demos.

Every demo's ``update`` hook is the plot's own fill function (``plots.ch05._fill_*``),
so the live figure and ``func(**params)`` are drawn by one piece of code. The summaries
reuse the plots' memoised computations (``P.allreduce_at``, ``P.credit_runs``), so a
slider move computes each model once.
"""

from __future__ import annotations

from .. import capstone, display, flowcontrol, scaleout, specs, topology
from ..plots import ch05 as P
from ..units import Gbit_per_s, MiB
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch05 as A

_NICS = ("connectx-6-hdr", "connectx-7", "connectx-8")


def _allreduce_summary(nodes, nic, nics_per_node, size_mib):
    sys_, preds = P.allreduce_at(size_mib, nodes, nic, nics_per_node)
    size = size_mib * MiB
    parts = [f"{a} {display.fmt_time(p.time_s)}" for a, p in preds.items() if a != "auto"]
    auto = preds["auto"]
    return (f"{display.fmt_bytes(size, binary=True)} per GPU on {nodes} nodes "
            f"({nodes * sys_.gpus_per_node} GPUs), {scaleout.fmt_nic(sys_)}: "
            + ", ".join(parts)
            + f"; NCCL's choice: {P.nccl_algorithm_label(auto.algorithm, nodes)} "
            f"{display.fmt_time(auto.time_s)} "
            f"(busbw {display.fmt_rate(auto.busbw)})")


register(Demo(
    "ib_allreduce", P.allreduce_multinode,
    {"nodes": Dropdown((2, 4, 8, 16, 32, 64, 128), 16,
                       f"nodes ({specs.system(P.ALLREDUCE_SYSTEM).gpus_per_node} GPUs each)"),
     "nic": Dropdown(_NICS, "connectx-7", "NIC",
                     tuple(f"{specs.NICS[k].name}, {specs.NICS[k].rate.value / Gbit_per_s:g} Gb/s"
                           for k in _NICS)),
     "nics_per_node": Dropdown((1, 2, 4, 8), 8, "NICs per node"),
     "size_mib": FloatSlider(1.0, 4096.0, 1024.0, "size per GPU (MiB)", step=0.01,
                             log=True, readout_format="num")},
    _allreduce_summary,
    (("Drop NICs per node from 8 to 1 at 1 GiB. By how much does each time grow? Why is the "
      "growth close to the NIC ratio for most algorithms but not for SHARP?",
      A.ib_nics),
     ("At 128 nodes, compare the flat ring with SHARP at 1 MiB and at 4 GiB. Why is the gap "
      "so much wider for the small buffer? What does that say about latency (steps) versus "
      "bandwidth (bytes)?",
      A.ib_latency),
     ("Switch from ConnectX-7 to ConnectX-8 with 8 NICs. Why does the large-message time "
      "improve less than 2x? (Look at what NVLink carries.)",
      A.ib_cx8)),
    update=P._fill_allreduce))


def _fat_tree_summary(hosts, radix, oversubscription):
    ft = topology.fat_tree(hosts, radix, oversubscription)
    return (f"{ft.hosts:,} hosts on {radix}-port switches, leaf {ft.leaf_down}:{ft.leaf_up}: "
            f"{display.fmt_count(ft.tiers, 'tier')}, {capstone.switches_text(ft)}, "
            f"{display.fmt_count(ft.cables, 'cable')}, "
            f"bisection {display.fmt_rate(ft.bisection_per_direction)} per direction "
            f"({display.fmt_ratio(ft.bisection_ratio)} of full), "
            f"up to {display.fmt_count(ft.max_hops, 'switch hop')}")


register(Demo(
    "fat_tree", P.fat_tree_sizing,
    {"hosts": IntSlider(16, 65536, 4096, "hosts (NIC ports)", log=True, readout_format="num"),
     "radix": Dropdown((16, 32, 48, 64, 128, 144), 64, "switch radix (ports)"),
     "oversubscription": Dropdown((1.0, 2.0, 3.0, 7.0), 1.0, "leaf down:up ratio",
                                  ("1:1 (non-blocking)", "2:1", "3:1", "7:1"))},
    _fat_tree_summary,
    (("Double the hosts from 1,024 to 2,048 on 64-port switches, then type 2,064 in the "
      "box beside the slider. What happens to the switch count and the hops, and why?",
      A.fat_tree_step),
     ("Set the leaf ratio to 3:1. How many switches do you save, and what fraction of the "
      "bisection do you give up?",
      A.fat_tree_taper),
     ("With 128-port switches, how many hosts fit in two tiers? Why do switch vendors race "
      "to higher radix?",
      A.fat_tree_radix)),
    update=P._fill_fat_tree))


def _credit_summary(buffer_packets, load, rtt_steps):
    runs = P.credit_runs(buffer_packets, load, rtt_steps)
    c, lo = runs["credit"], runs["lossy"]
    bound = flowcontrol.credit_throughput_bound(buffer_packets, rtt_steps, 1 - load)
    return (f"{buffer_packets} buffer packets, RTT {rtt_steps} packet times, "
            f"{display.fmt_pct(load)} of the receiver's port taken by others. "
            f"Credit: goodput {c.goodput:.3f} of the link (bound {bound:.3f}), "
            f"0 drops, sender busy {c.offered:.3f}. "
            f"Lossy: goodput {lo.goodput:.3f}, {lo.drops} drops, {lo.discarded} packets "
            f"discarded and resent, sender busy {lo.offered:.3f}")


register(Demo(
    "credit_flow", P.credit_flow,
    {"buffer_packets": IntSlider(1, 128, 16, "receive buffer = credits (packets)", log=True,
                                 readout_format="num"),
     "load": FloatSlider(0.0, 0.9, 0.5, "receiver's port taken by other traffic",
                         step=0.05),
     "rtt_steps": Dropdown((8, 16, 32, 64), 32, "round trip (packet times)")},
    _credit_summary,
    (("With no other traffic (load 0), how many credits does the sender need to reach full "
      "rate for each round trip? Compare with the bandwidth-delay product.",
      A.credit_bdp),
     ("Set the buffer to the round trip (32). At load 0.5 both senders now deliver about "
      "the same goodput. What is the lossy sender doing with the rest of the link, and who "
      "else pays for it?",
      A.credit_lossy),
     ("Why does a longer cable (larger round trip) force an InfiniBand switch to have "
      "more buffer per port?",
      A.credit_cable)),
    update=P._fill_credit_flow))


def _topologies_summary(hosts, radix, highlight):
    c = topology.compare(hosts, radix)
    parts = []
    for name in topology.TOPOLOGIES:
        t = c[name]
        if t is None:
            parts.append(f"{name}: cannot reach {hosts:,} hosts with {radix}-port routers")
            continue
        parts.append(f"{name}: {t.hosts:,} hosts, {display.fmt_count(t.switches, 'switch')}, "
                     f"{t.cables:,} cables, bisection "
                     f"{display.fmt_rate(t.bisection_per_direction)} per direction "
                     f"({display.fmt_ratio(t.bisection_ratio)} of full), longest path "
                     f"{t.max_links} links")
    df = c["dragonfly"]
    if df is not None:
        parts.append(f"dragonfly build: {df.groups} groups of {df.a} routers "
                     f"(p={df.p}, h={df.h}, {df.radix} ports used), "
                     f"{df.global_cables:,} global cables")
    return f"{radix}-port switches, highlighted {highlight}. " + "; ".join(parts)


register(Demo(
    "topologies", P.topology_comparison,
    {"hosts": IntSlider(*P.TOPOLOGY_HOSTS, 4096, "hosts (NIC ports)", log=True,
                        readout_format="num"),
     "radix": Dropdown(P.TOPOLOGY_RADIXES, 64, "switch radix (ports)"),
     "highlight": Dropdown(topology.TOPOLOGIES, "dragonfly", "highlight")},
    _topologies_summary,
    (("At 4,096 hosts and radix 64, which topology needs the fewest cables, and which "
      "gives the most bisection per cable? Now move to 65,536 hosts.",
      A.topo_cables),
     ("Lower the radix to 16. Why does the dragonfly disappear, and what happens to the "
      "fat-tree's tiers and longest path?",
      A.topo_radix16),
     ("The torus has no switches at all. What does it pay instead, and for which traffic "
      "pattern (nearest neighbour or all-to-all) is that price small?",
      A.topo_torus)),
    update=P._fill_topologies))
