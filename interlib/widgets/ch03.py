"""Chapter 3 demos: NVLink.

Every demo's ``update`` hook is the fill function its plot function itself calls
(``interlib.plots.ch03._fill_<name>``), so a slider move redraws only the artists that
changed, over a cached background, and cannot draw anything the plot function would not.
"""

from __future__ import annotations

from .. import display, nvlink, tensor_parallel as TP
from ..plots import ch03 as P
from ..specs import NVLINK, PCIE
from ..units import GB, MB
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch03 as A

_PCIE_LABELS = tuple(f"PCIe {g}" for g in PCIE)


def _transfer_summary(gen, size_mb):
    s = size_mb * MB
    nv = NVLINK[gen]
    return (f"{nv.name} ({nv.gpu}), {display.fmt_bytes(s)}: "
            f"{display.fmt_time(nvlink.transfer_time(s, gen))} at "
            f"{display.fmt_rate(nvlink.effective_bandwidth(s, gen))} delivered "
            f"(line rate {display.fmt_rate(nvlink.gpu_bandwidth(gen, 'line'))} per direction, "
            f"headline {display.fmt_rate(nvlink.gpu_bandwidth(gen, 'headline'))} both "
            "directions)")


register(Demo(
    "nvlink_transfer", P.nvlink_transfer,
    {"gen": Dropdown(tuple(NVLINK), 4, "NVLink generation"),
     "size_mb": FloatSlider(0.001, 100000.0, 64.0, "copy size (MB)", step=0.01, log=True,
                            readout_format="num")},
    _transfer_summary,
    (("From NVLink 1 to NVLink 5, how much faster did a 10 GB copy get? And a 10 kB copy? "
      "Why so different?",
      A.transfer_generations),
     ("A copy from GPU A to GPU B uses one direction. Which figure in the table bounds it: "
      "the per-direction or the headline?",
      A.transfer_direction)),
    update=P._fill_nvlink_transfer))


def _tp_summary(tp, hidden, link, seq_len, mfu):
    c = P.tp_layer_cost(tp, hidden, link, seq_len, mfu)  # memoised: the figure needs it too
    return (f"h = {hidden}, {seq_len} tokens, TP = {tp} over {link}: each all-reduce moves "
            f"{display.fmt_bytes(float(c.allreduce_bytes))} ({c.algorithm}); per layer forward "
            f"compute {display.fmt_time(float(c.compute_s))} on {TP.gpu_name(link)} at MFU "
            f"{display.fmt_pct(mfu)}, communication {display.fmt_time(float(c.comm_s))}: "
            f"{display.fmt_pct(float(c.comm_share))} of the layer")


register(Demo(
    "tp_comm_share", P.tp_comm_share,
    {"tp": Dropdown((2, 4, 8), 8, "tensor-parallel GPUs"),
     "hidden": IntSlider(*TP.FIGURE_WIDTHS, 8192, "model width h", step=512),
     "link": Dropdown(tuple(TP.LINKS), "NVLink 4 (H100)", "link"),
     "seq_len": IntSlider(512, 32768, 4096, "tokens per micro-batch", step=512),
     "mfu": FloatSlider(0.2, 0.8, 0.4, "MFU (assumed)", step=0.05)},
    _tp_summary,
    (("Why does the communication share fall as the model gets wider? (Compare how the "
      "compute and the all-reduce bytes grow with h.)",
      A.tp_width),
     ("Double the TP degree. The all-reduce bytes per GPU barely change, but the compute per "
      "GPU halves. What does that do to the share, and why does it cap useful TP?",
      A.tp_degree),
     ("The B200 computes faster than the H100. Why can that make NVLink 5's share larger "
      "than NVLink 4's?",
      A.tp_b200)),
    update=P._fill_tp_comm_share))


def _p2p_summary(size_gb, gen, pcie_gen):
    s = size_gb * GB
    t = nvlink.p2p_vs_staged(s, gen, pcie_gen)
    return (f"{display.fmt_bytes(s)} GPU to GPU: NVLink {gen} {display.fmt_time(t['nvlink'])}; "
            f"PCIe {pcie_gen} direct {display.fmt_time(t['pcie_p2p'])}; through host memory "
            f"{display.fmt_time(t['staged'])} pipelined, {display.fmt_time(t['staged_serial'])} "
            f"serial ({display.fmt_ratio(t['staged_serial'] / t['nvlink'])} the NVLink time)")


register(Demo(
    "p2p_vs_staged", P.p2p_vs_staged,
    {"size_gb": FloatSlider(1e-6, 100.0, 1.0, "copy size (GB)", step=0.01, log=True,
                            readout_format="num"),
     "gen": Dropdown(tuple(NVLINK), 4, "NVLink generation"),
     "pcie_gen": Dropdown(tuple(PCIE), "5.0", "PCIe generation", _PCIE_LABELS)},
    _p2p_summary,
    (("Why does staging through host memory cost about twice a direct PCIe copy when the "
      "legs do not overlap, and about the same when they do?",
      A.p2p_staging),
     ("For small copies, which sets the time: the link's bandwidth or something else? Is "
      "the NVLink advantage there as large as for a 1 GB copy?",
      A.p2p_small)),
    update=P._fill_p2p_vs_staged))
