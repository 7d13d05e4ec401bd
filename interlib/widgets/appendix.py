"""Appendix A demo: your own cluster (:func:`interlib.specs.custom.node`)."""

from __future__ import annotations

from .. import collectives, display, validation
from ..plots import appendix as P
from ..specs import GPUS, calibration as C, custom
from ..units import GiB
from .core import Demo, Dropdown, register
def _rack_vs_nodes() -> str:
    size, racks = 8 * GiB, 16
    rack = collectives.predict("all_reduce", size, "gb200-nvl72", 72, 1)
    many = collectives.predict("all_reduce", size, "gb200-nvl72", 72, racks)
    pub = {r.id: r for r in validation.load_measurements()}
    one, twenty = pub["CW1-05"], pub["CW20-06"]
    return (f"One NVL72 rack: {display.fmt_rate(rack.busbw)} at "
            f"{display.fmt_bytes(size, binary=True)}; {racks} racks: "
            f"{display.fmt_rate(many.busbw)}. Inside a rack the NVLink switches reduce "
            "(NVLS), at the pace of NCCL's NVLS chunks rather than of the links; between "
            "racks NCCL's NVLSTree sends each rack's share through the NICs, and from "
            f"{C.NVLS_TREE_CHUNK_MIN_NODES.value:g} nodes up it cuts its chunk from "
            f"{display.fmt_bytes(C.NVLS_CHUNK.value, binary=True)} to "
            f"{display.fmt_bytes(C.NVLS_TREE_CHUNK_MANY_NODES.value, binary=True)}, which "
            "halves that pace. The NICs are not the limit. Published runs (CoreWeave, "
            f"Appendix A): {display.fmt_rate(one.busbw)} on one rack at "
            f"{display.fmt_bytes(one.size_bytes, binary=True)}, "
            f"{display.fmt_rate(twenty.busbw)} on {twenty.nodes} racks at "
            f"{display.fmt_bytes(twenty.size_bytes, binary=True)}.")


def _ethernet_vs_ib() -> str:
    small, large, nodes = 2**20, 8 * GiB, 16
    ib = custom.node("h100-sxm", 8, nic_gbps=400, fabric="InfiniBand")
    efa = custom.node("h100-sxm", 8, nic_gbps=400, fabric="EFA")
    a = collectives.predict("all_reduce", small, ib, 8, nodes)
    b = collectives.predict("all_reduce", small, efa, 8, nodes)
    c = collectives.predict("all_reduce", large, ib, 8, nodes)
    d = collectives.predict("all_reduce", large, efa, 8, nodes)
    return (f"At {display.fmt_bytes(small, binary=True)} on {nodes} nodes: "
            f"{display.fmt_rate(a.busbw)} over InfiniBand, "
            f"{display.fmt_rate(b.busbw)} over EFA. Same port speed, but AWS's plugin "
            f"reports {display.fmt_time(C.NET_PLUGIN_LATENCY['EFA'].value)} of latency per "
            "network step (aws-ofi-nccl), which NCCL adds to every step between nodes. At "
            f"{display.fmt_bytes(large, binary=True)} they nearly meet ({display.fmt_rate(c.busbw)} and "
            f"{display.fmt_rate(d.busbw)}): the links, not the latency, then set the pace.")


def _pcie_answer() -> str:
    size, nodes = 8 * GiB, 16
    pc = custom.node("h100-sxm", 8, intra="pcie")
    nv = custom.node("h100-sxm", 8)
    one = [collectives.predict("all_reduce", size, n, 8, 1).busbw for n in (pc, nv)]
    many = [collectives.predict("all_reduce", size, n, 8, nodes).busbw for n in (pc, nv)]
    return (f"At {display.fmt_bytes(size, binary=True)}, one node: "
            f"{display.fmt_rate(one[0])} over PCIe against "
            f"{display.fmt_rate(one[1])} with NVSwitch ({display.fmt_ratio(one[1] / one[0])}"
            f"). {nodes} nodes: {display.fmt_rate(many[0])} against "
            f"{display.fmt_rate(many[1])} ({display.fmt_ratio(many[1] / many[0])}). The NICs "
            "pull the NVSwitch nodes down, but a PCIe link per GPU is no faster than one "
            f"{display.fmt_rate(nv.nic.rate.value)} NIC per GPU, so PCIe stays the bottleneck and the gap barely "
            "narrows: the network hides a slow node interior only when it is slower still.")


_INTRA_WORDS = {"nvswitch": "NVSwitch", "pcie": "PCIe", "nvlink-bridge": "NVLink bridge (pairs)"}
_NICS_PER_GPU = (0.25, 0.5, 1.0, 2.0, 4.0)
_NIC_GBPS = (100.0, 200.0, 400.0, 800.0)

register(Demo(
    "your_cluster", P.your_cluster,
    {"gpu": Dropdown(tuple(GPUS), "h100-sxm", "GPU", tuple(g.name for g in GPUS.values())),
     "gpus_per_node": Dropdown((1, 2, 4, 8, 16, 36, 72), 8, "GPUs per node"),
     "intra": Dropdown(custom.INTRA, "nvswitch", "GPU-to-GPU link",
                       tuple(_INTRA_WORDS.get(i, i) for i in custom.INTRA)),
     "nodes": Dropdown((1, 2, 4, 8, 16, 64, 256), 16, "nodes"),
     "nics_per_gpu": Dropdown(_NICS_PER_GPU, 1.0, "NICs per GPU",
                              ("1 per 4 GPUs", "1 per 2 GPUs", "1", "2", "4")),
     "nic_gbps": Dropdown(_NIC_GBPS, 400.0, "speed of each NIC",
                          tuple(f"{x:g} Gb/s" for x in _NIC_GBPS)),
     "fabric": Dropdown(custom.FABRICS, "InfiniBand", "network",
                        tuple("RoCE (Ethernet)" if f == "Ethernet" else f
                              for f in custom.FABRICS))},
    P.your_cluster_summary,
    (("Pick a GB200 with 72 GPUs per node and move the nodes from 1 to 16. Why does the "
      "plateau fall by about half, although every rack keeps its 72 NICs?", _rack_vs_nodes),
     ("Keep 16 H100 nodes and switch the network from InfiniBand to EFA. Where do the two "
      "curves differ, and where do they meet?", _ethernet_vs_ib),
     ("Choose PCIe as the GPU-to-GPU link. How much does one node lose, and does the "
      "loss shrink as you add nodes?", _pcie_answer)),
))
