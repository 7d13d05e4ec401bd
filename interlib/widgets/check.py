"""'Check your cluster' demo: a reader's nccl-tests log against the model
(:func:`interlib.nccltests.compare`), for a catalogue system or a node of their own.

The log is a :class:`~interlib.widgets.core.TextArea`: pasted, or on the site read from a
file by the browser; it is parsed where the page runs (JupyterLab's kernel, or Pyodide in the
reader's browser) and sent nowhere. A log that cannot be read gives a figure and numbers
that say why (the parser's message, naming the line), never a traceback.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .. import display, nccltests
from ..plots import check as P
from ..specs import GPUS, SYSTEMS, custom
from .core import Demo, Dropdown, IntSlider, TextArea, register

EXAMPLE = (Path(__file__).resolve().parent.parent / "data" / "nccltests_example.log"
           ).read_text(encoding="utf-8")
"""The example log the demo starts with: the published A3 Mega run (2 x 8 H100, 8 x 200 Gb/s
GPUDirect-TCPXO per VM; tests/fixtures/nccltests/SOURCES.md) with its two VM names replaced
by node-1 and node-2."""

OWN = "Your node (set below)"
HARDWARE = {OWN: None, **{s.title: k for k, s in SYSTEMS.items()}}
"""Hardware choices by the name shown: a node of the reader's own, or a catalogue system."""
GPU_BY_NAME = {g.name: k for k, g in GPUS.items()}


@functools.lru_cache(maxsize=2)
def _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, log):
    """(Comparison, None) or (None, message) for the demo's control values."""
    try:
        run = nccltests.parse(log)
        if HARDWARE[hardware] is None:
            g = run.gpus_per_node or 8
            system = custom.node(GPU_BY_NAME[gpu], g, nics_per_node=nics_per_node,
                                 nic_gbps=nic_gbps, fabric=fabric, name="your node")
        else:
            system = HARDWARE[hardware]
        return nccltests.compare(run, system), None
    except ValueError as e:
        return None, str(e)


def check_figure(hardware=OWN, gpu="H100 SXM", nics_per_node=8, nic_gbps=200.0,
                 fabric="GPUDirect-TCPXO", log=EXAMPLE):
    """The run against the model (:func:`interlib.plots.check.comparison`), or a figure
    with the reason there is none."""
    cmp_, why = _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, log)
    return P.message(why) if cmp_ is None else P.comparison(cmp_)


def check_summary(hardware=OWN, gpu="H100 SXM", nics_per_node=8, nic_gbps=200.0,
                  fabric="GPUDirect-TCPXO", log=EXAMPLE) -> str:
    """The verdict table, likely causes and nearest published runs, as text."""
    cmp_, why = _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, log)
    return f"No comparison: {why}" if cmp_ is None else cmp_.report()


def _dgx_answer() -> str:
    cmp_, _ = _compare("NVIDIA DGX H100", "H100 SXM", 8, 200.0, "GPUDirect-TCPXO", EXAMPLE)
    dgx = SYSTEMS["dgx-h100"]
    below = [x.regime for x in cmp_.verdicts if x.status == "below"]
    first = cmp_.diagnoses[0]
    return (f"Below the band: {', '.join(below)}. A DGX H100 has {dgx.nics_per_node} NICs of "
            f"{display.fmt_bits(dgx.nic.rate.value * 8)} per node over RDMA; the run had "
            f"half that, over TCP. The first cause listed is '{first.title}': {first.evidence} "
            "The comparison is only as good as the hardware you tell it.")


def _half_nics_answer() -> str:
    full, _ = _compare(OWN, "H100 SXM", 8, 200.0, "GPUDirect-TCPXO", EXAMPLE)
    half, _ = _compare(OWN, "H100 SXM", 4, 200.0, "GPUDirect-TCPXO", EXAMPLE)
    a, b = (c.verdicts[-1] for c in (full, half))
    return (f"At the largest sizes the model's busbw falls from "
            f"{display.fmt_rate(full.predicted[-1])} to {display.fmt_rate(half.predicted[-1])}"
            " (two nodes: the NICs bound the run), and the band with it. The verdict there "
            f"goes from '{a.text}' to '{b.text}': the run did better than half the NICs can.")


register(Demo(
    "check_cluster", check_figure,
    {"hardware": Dropdown(tuple(HARDWARE), OWN, "hardware"),
     "gpu": Dropdown(tuple(GPU_BY_NAME), "H100 SXM", "GPU (your node)"),
     "nics_per_node": IntSlider(1, 16, 8, "NICs per node (your node)"),
     "nic_gbps": Dropdown((100.0, 200.0, 400.0, 800.0), 200.0, "Gb/s per NIC (your node)"),
     "fabric": Dropdown(custom.FABRICS, "GPUDirect-TCPXO", "network (your node)"),
     "log": TextArea(EXAMPLE, "nccl-tests output (paste yours)", nccltests.MAX_CHARS)},
    check_summary,
    (("The example is a published run on two Google Cloud A3 Mega VMs. Choose the NVIDIA "
      "DGX H100 instead: which regimes fall below the band, and which cause ranks first?",
      _dgx_answer),
     ("Set the NICs per node of your node from 8 to 4. What happens to the band at large "
      "sizes, and to the verdict?", _half_nics_answer))
))
