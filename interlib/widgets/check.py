"""'Check your cluster' demo: a reader's nccl-tests log against the model
(:func:`interlib.nccltests.compare`), for a catalogue system or a node of their own.

The log is a :class:`~interlib.widgets.core.TextArea`: pasted, or on the site read from a
file by the browser; it is parsed where the page runs (JupyterLab's kernel, or Pyodide in the
reader's browser) and sent nowhere. A log that cannot be read gives a figure and numbers
that say why, in the page's words (the control to change, not a Python argument), never a
traceback; a log read exactly that the book does not model (AMD GPUs) says what the book
can say instead.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .. import display, nccltests, validation
from ..plots import check as P
from ..specs import GPUS, SYSTEMS, custom
from .core import Demo, Dropdown, IntSlider, TextArea, register

EXAMPLE = (Path(__file__).resolve().parent.parent / "data" / "nccltests_example.log"
           ).read_text(encoding="utf-8")
"""The example log the demo starts with: the published A3 Mega run (2 x 8 H100, 8 x 200 Gb/s
GPUDirect-TCPXO per VM; tests/fixtures/nccltests/SOURCES.md) with its two VM names replaced
by node-1 and node-2."""

A3M_SERIES = "A3M"
"""The book's data series of the example run (``interlib/data/nccl_measurements.csv``)."""

OWN = "Your node (set below)"
A3M = "Google Cloud A3 Mega, as the example ran"
HARDWARE = {A3M: "a3m", OWN: None, **{s.title: k for k, s in SYSTEMS.items()}}
"""Hardware choices by the name shown: the example's own hardware as the book's data
records it, a node of the reader's own, or a catalogue system."""
GPU_BY_NAME = {g.name: k for k, g in GPUS.items()}
INTRA_NAMES = {"NVSwitch": "nvswitch", "PCIe only": "pcie", "PCIe + NVLink bridges":
               "nvlink-bridge"}
FROM_LOG = "as the log says"
COLLECTIVE_NAMES = {**{c.replace("_", "-"): c for c in
                      ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast",
                       "reduce")}, FROM_LOG: None}
"""What the run measured, by the name shown; the default (last) leaves it to the log."""

_PAGE = {"collective": ("'what the run measured'",
                        "the collective (in 'what the run measured')"),
         "gpus_per_node": ("the GPUs per node", "the GPUs per node (--gpus-per-node of "
                           "python -m interlib.check: this page reads the shape from the "
                           "log's Rank lines)"),
         "nodes": ("the nodes", "the nodes (--nodes of python -m interlib.check)"),
         "test": ("the test of --test (python -m interlib.check)", "the test (--test of "
                  "python -m interlib.check, or paste one test at a time)"),
         "system": ("the 'hardware' choice", "the hardware (in 'hardware')"),
         "gpu": ("the 'GPU' choice", "the GPU (in 'GPU')"),
         "nics_per_node": ("the 'NICs per node' slider", "the NICs (in 'NICs per node')"),
         "nic_gbps": ("the 'Gb/s per NIC' choice", "the NIC speed (in 'Gb/s per NIC')"),
         "fabric": ("the 'network' choice", "the network (in 'network')"),
         "intra": ("the 'GPUs joined by' choice", "how the GPUs are joined (in 'GPUs "
                   "joined by')")}
_PY_ARG = re.compile(r"\b(" + "|".join(_PAGE) + r")=(?: to parse\b)?('[^']*'|[^\s,;:)]+)?")


def page_words(message: str) -> str:
    """A library message in the page's words: a Python argument (``collective=``) becomes
    the control that sets it (with the value, when the message quotes one), or the
    command line's flag where the page has none."""
    def words(m):
        noun, verb = _PAGE[m.group(1)]
        return f"{noun} ({m.group(2)})" if m.group(2) else verb

    return _PY_ARG.sub(words, message)


@functools.lru_cache(maxsize=1)
def _a3m_node():
    """The example's hardware as the book's data records it (:func:`validation.node_for`
    of its first row: NCCL version and Google's settings included)."""
    first = next(m for m in validation.load_measurements() if m.series == A3M_SERIES)
    return validation.node_for(first)


def _hardware(hardware, gpu, nics_per_node, nic_gbps, fabric, intra, run):
    if HARDWARE[hardware] == "a3m":
        return _a3m_node(), ()
    if HARDWARE[hardware] is not None:
        return HARDWARE[hardware], ()
    g = run.gpus_per_node or 8
    assumed = () if run.gpus_per_node else (
        "8 GPUs per node in your node (the log does not say)",)
    profile = None
    if fabric == "GPUDirect-TCPXO":
        from ..specs import calibration as C

        profile = C.TCPXO_PROFILE_BY_NCCL.get(run.nccl_version, C.TCPXO_DEFAULT_PROFILE)
    node = custom.node(GPU_BY_NAME[gpu], g, nics_per_node=nics_per_node, nic_gbps=nic_gbps,
                       fabric=fabric, intra=INTRA_NAMES[intra], name="your node",
                       nccl_version=run.nccl_version, tcpxo_profile=profile)
    return node, assumed


@functools.lru_cache(maxsize=2)
def _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, intra, collective, log):
    """(Comparison, None, None), (None, run, why) for a run read but not modelled, or
    (None, None, message) for the demo's control values."""
    try:
        run = nccltests.parse(log, collective=COLLECTIVE_NAMES[collective])
        system, assumed = _hardware(hardware, gpu, nics_per_node, nic_gbps, fabric, intra,
                                    run)
        return nccltests.compare(run, system, assumed=assumed), None, None
    except nccltests.NotModelled as e:
        return None, e.run, page_words(str(e))
    except ValueError as e:
        return None, None, page_words(str(e))


def check_figure(hardware=A3M, gpu="H100 SXM", nics_per_node=8, nic_gbps=200.0,
                 fabric="GPUDirect-TCPXO", intra="NVSwitch", collective=FROM_LOG,
                 log=EXAMPLE):
    """The run against the model (:func:`interlib.plots.check.comparison`), or a figure
    with the reason there is none."""
    cmp_, run, why = _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, intra,
                              collective, log)
    if cmp_ is not None:
        return P.comparison(cmp_)
    return P.message(why, read=run is not None)


def _share_block(cmp_, system) -> str:
    """What to paste into the form 'Share a run' (``nccltests.share``'s fields as text)."""
    from ..nccltests.sharing import ROWS_HEADER, hardware_text, row_lines

    run = cmp_.run
    return ("To share this run with the book, open the form 'Share a run' linked under "
            "this demo and paste these lines (the page keeps no host names or addresses):\n"
            f"hardware: {hardware_text(system, words=True)}\n"
            f"shape: {cmp_.gpus_per_node} GPUs per node x "
            f"{display.fmt_count(cmp_.nodes, 'node')}\ncollective: {run.collective}\n"
            f"NCCL: {run.nccl_version or 'not in the log'}\n"
            f"rows ({ROWS_HEADER}): " + "; ".join(row_lines(run)))


def check_summary(hardware=A3M, gpu="H100 SXM", nics_per_node=8, nic_gbps=200.0,
                  fabric="GPUDirect-TCPXO", intra="NVSwitch", collective=FROM_LOG,
                  log=EXAMPLE) -> str:
    """The verdict table, likely causes and nearest published runs, as text; or why there
    is none."""
    cmp_, run, why = _compare(hardware, gpu, nics_per_node, nic_gbps, fabric, intra,
                              collective, log)
    if cmp_ is None:
        return f"Read, not compared: {why}" if run is not None else f"No comparison: {why}"
    system, _ = _hardware(hardware, gpu, nics_per_node, nic_gbps, fabric, intra, cmp_.run)
    return cmp_.report() + "\n\n" + _share_block(cmp_, system)


def example_notes() -> dict:
    """What the page's prose says of the example, computed: the verdict on its own hardware
    (``"own"``), on a DGX H100 (``"dgx"``), and how many times the A3 Mega's scale-out
    bandwidth a DGX H100 node has (``"dgx_net"``, words)."""
    own, _, _ = _compare(A3M, "H100 SXM", 8, 200.0, "GPUDirect-TCPXO", "NVSwitch", FROM_LOG,
                         EXAMPLE)
    dgx, _, _ = _compare("NVIDIA DGX H100", "H100 SXM", 8, 200.0, "GPUDirect-TCPXO",
                         "NVSwitch", FROM_LOG, EXAMPLE)
    a3m, big = _a3m_node(), SYSTEMS["dgx-h100"]
    ratio = (big.nics_per_node * big.nic.rate.value) / (a3m.nics_per_node * a3m.nic.rate.value)
    return {"own": own.in_words(), "dgx": dgx.in_words(), "dgx_net": display.fmt_ratio(ratio)}


def _dgx_answer() -> str:
    cmp_, _, _ = _compare("NVIDIA DGX H100", "H100 SXM", 8, 200.0, "GPUDirect-TCPXO",
                          "NVSwitch", FROM_LOG, EXAMPLE)
    dgx = SYSTEMS["dgx-h100"]
    below = [x.regime for x in cmp_.verdicts if x.status == "below"]
    first = cmp_.diagnoses[0]
    return (f"Below the band: {', '.join(below)}. A DGX H100 has {dgx.nics_per_node} NICs of "
            f"{display.fmt_bits(dgx.nic.rate.value * 8)} per node over RDMA; the run had "
            f"half that, over TCP. The first cause listed is '{first.title}': {first.evidence} "
            "The comparison is only as good as the hardware you tell it.")


def _half_nics_answer() -> str:
    full, _, _ = _compare(OWN, "H100 SXM", 8, 200.0, "GPUDirect-TCPXO", "NVSwitch", FROM_LOG,
                          EXAMPLE)
    half, _, _ = _compare(OWN, "H100 SXM", 4, 200.0, "GPUDirect-TCPXO", "NVSwitch", FROM_LOG,
                          EXAMPLE)
    a, b = (c.verdicts[-1] for c in (full, half))
    return (f"At the largest sizes the model's busbw falls from "
            f"{display.fmt_rate(full.predicted[-1])} to {display.fmt_rate(half.predicted[-1])}"
            " (two nodes: the NICs bound the run), and the band with it. The verdict there "
            f"goes from '{a.text}' to '{b.text}': the run did better than half the NICs can.")


register(Demo(
    "check_cluster", check_figure,
    {"hardware": Dropdown(tuple(HARDWARE), A3M, "hardware"),
     "gpu": Dropdown(tuple(GPU_BY_NAME), "H100 SXM", "GPU (your node)"),
     "nics_per_node": IntSlider(1, 16, 8, "NICs per node (your node)"),
     "nic_gbps": Dropdown((100.0, 200.0, 400.0, 800.0), 200.0, "Gb/s per NIC (your node)",
                          ("100 Gb/s", "200 Gb/s", "400 Gb/s", "800 Gb/s")),
     "fabric": Dropdown(custom.FABRICS, "GPUDirect-TCPXO", "network (your node)"),
     "intra": Dropdown(tuple(INTRA_NAMES), "NVSwitch", "GPUs joined by (your node)"),
     "collective": Dropdown(tuple(COLLECTIVE_NAMES), FROM_LOG, "what the run measured"),
     "log": TextArea(EXAMPLE, "nccl-tests output (paste yours)", nccltests.MAX_CHARS)},
    check_summary,
    (("The example is a published run on two Google Cloud A3 Mega VMs. Choose the NVIDIA "
      "DGX H100 instead: which regimes fall below the band, and which cause ranks first?",
      _dgx_answer),
     ("Choose 'Your node', then set its NICs per node from 8 to 4. What happens to the band "
      "at large sizes, and to the verdict?", _half_nics_answer))
))
