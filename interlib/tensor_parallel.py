"""Why tensor parallelism needs NVLink: the activation all-reduces inside every
transformer layer, against the layer's compute. Chapter 3 introduces it.

Megatron-style tensor parallelism (Shoeybi et al. 2019) splits each layer's matrices over
``tp`` GPUs. In the forward pass every layer ends its attention block and its MLP block
with an all-reduce of the activations, ``b x s x h`` elements each (batch, sequence,
hidden). The layer's forward compute is about ``24 b s h^2`` FLOPs (Narayanan et al.
SC'21; ``+ 4 b s^2 h`` for the attention scores), split over the ``tp`` GPUs.

The model here has no overlap of communication and compute (the all-reduce blocks the
next matrix multiply) and counts the forward pass only; the backward pass has the same
two all-reduces and twice the compute.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from . import collectives, display
from .specs import gpu as _gpu
from .specs.compute import BF16_DENSE_FLOPS as GPU_BF16_DENSE

LINKS = {
    "PCIe 5.0 only (H100)": ("h100-pcie-only", "h100-sxm"),
    "NVLink 4 (H100)": ("dgx-h100", "h100-sxm"),
    "NVLink 5 (B200)": ("dgx-b200", "b200"),
}
"""Link choices for Chapter 3: display name -> (catalogue system, catalogue GPU). The
PCIe-only box is the hypothetical ``h100-pcie-only`` system."""

ALL_REDUCES_PER_LAYER_FORWARD = 2

FIGURE_WIDTHS = (1024, 16384)
"""Narrowest and widest model width of Chapter 3's tensor-parallel figure and demo."""


def _check_shape(batch, seq_len, hidden) -> None:
    """Batch, sequence length and width: whole numbers >= 1 (scalars or arrays)."""
    for name, val in (("batch", batch), ("seq_len", seq_len), ("hidden", hidden)):
        v.whole(name, val, lo=1)


def layer_forward_flops(batch, seq_len, hidden, attention_scores: bool = False):
    """FLOPs of one transformer layer's forward pass: ``24 b s h^2`` (4h MLP, the usual
    dense estimate), plus ``4 b s^2 h`` with ``attention_scores``.

    Args:
        batch: Sequences (>= 1); seq_len: tokens per sequence (>= 1); hidden: model width
            (>= 1). Scalars or arrays.
        attention_scores: Include the ``Q K^T`` and ``softmax x V`` products.
    """
    attention_scores = v.flag("attention_scores", attention_scores)
    _check_shape(batch, seq_len, hidden)
    b, s, h = (np.asarray(x, dtype=float) for x in (batch, seq_len, hidden))
    f = 24 * b * s * h**2 + (4 * b * s**2 * h if attention_scores else 0.0)
    return v.result(f)


def activation_bytes(batch, seq_len, hidden, bytes_per_elem: int = 2):
    """Size of one activation all-reduce, bytes: ``b x s x h x bytes_per_elem``.

    Args:
        batch, seq_len, hidden: As in :func:`layer_forward_flops`.
        bytes_per_elem: 2 for bf16, 4 for fp32.
    """
    _check_shape(batch, seq_len, hidden)
    v.integer("bytes_per_elem", bytes_per_elem, lo=1)
    if bytes_per_elem not in (1, 2, 4):
        raise ValueError(f"bytes_per_elem={bytes_per_elem!r} is not one of [1, 2, 4]")
    return v.result(np.asarray(batch, dtype=float) * seq_len * hidden * bytes_per_elem)


def peak_flops(gpu: str) -> float:
    """Peak dense BF16 tensor-core FLOP/s of a catalogue GPU
    (:data:`interlib.specs.compute.BF16_DENSE_FLOPS`)."""
    return GPU_BF16_DENSE[v.choice("gpu", gpu, GPU_BF16_DENSE)].value


def layer_compute_time(batch, seq_len, hidden, tp: int, gpu: str = "h100-sxm",
                       mfu: float = 0.4):
    """Seconds of forward compute for one layer on one of ``tp`` GPUs:
    ``24 b s h^2 / tp / (peak x mfu)``.

    Args:
        batch, seq_len, hidden: As in :func:`layer_forward_flops`.
        tp: Tensor-parallel degree (1..72).
        gpu: Catalogue GPU id with a compute peak.
        mfu: Achieved share of peak FLOP/s (model FLOPs utilisation), in (0, 1]; an
            explicit assumption, not a measurement.
    """
    v.integer("tp", tp, lo=1, hi=72)
    v.fraction("mfu", mfu)
    return layer_forward_flops(batch, seq_len, hidden) / tp / (peak_flops(gpu) * mfu)


def layer_comm_time(batch, seq_len, hidden, tp: int, link: str = "NVLink 4 (H100)",
                    bytes_per_elem: int = 2):
    """Seconds one layer's forward pass spends in its two activation all-reduces, from
    :func:`interlib.collectives.predict` (algorithm chosen as NCCL would). 0 when tp = 1.

    Args:
        batch, seq_len, hidden: As in :func:`layer_forward_flops`.
        tp: Tensor-parallel degree, 1..8 (GPUs of one box).
        link: One of :data:`LINKS`.
        bytes_per_elem: Activation element size.
    """
    system, _ = LINKS[v.choice("link", link, LINKS)]
    v.integer("tp", tp, lo=1, hi=8)
    size = activation_bytes(batch, seq_len, hidden, bytes_per_elem)
    if tp == 1:
        return 0.0 * size
    return ALL_REDUCES_PER_LAYER_FORWARD * collectives.predict(
        "all_reduce", size, system, tp).time_s


@dataclass(frozen=True)
class LayerCost:
    """One layer's forward pass under tensor parallelism (arrays if inputs were arrays).

    Attributes:
        compute_s: Compute time per GPU, s.
        comm_s: Time in the two activation all-reduces, s.
        comm_share: ``comm / (comm + compute)``: the share of the layer spent waiting.
        allreduce_bytes: Size of one all-reduce, bytes.
        algorithm: Algorithm the model (like NCCL) picks for the all-reduce.
    """

    compute_s: object
    comm_s: object
    comm_share: object
    allreduce_bytes: object
    algorithm: object


def layer_cost(batch, seq_len, hidden, tp: int, link: str = "NVLink 4 (H100)",
               mfu: float = 0.4, bytes_per_elem: int = 2) -> LayerCost:
    """Compute and communication of one layer's forward pass (see module docstring); the
    GPU is the one that goes with ``link`` in :data:`LINKS`."""
    system, gpu = LINKS[v.choice("link", link, LINKS)]
    comp = layer_compute_time(batch, seq_len, hidden, tp, gpu, mfu)
    comm = layer_comm_time(batch, seq_len, hidden, tp, link, bytes_per_elem)
    size = activation_bytes(batch, seq_len, hidden, bytes_per_elem)
    if tp == 1:
        alg = "none"
    else:
        alg = collectives.predict("all_reduce", size, system, tp).algorithm
    return LayerCost(comp, comm, comm / (comm + comp), size, alg)


def narrowest_width(max_share, tp: int = 8, link: str = "NVLink 4 (H100)",
                    seq_len: int = 4096, mfu: float = 0.4, batch: int = 1,
                    step: int = 512, max_width: int = 65536):
    """The narrowest model width, a multiple of ``step``, from which the all-reduces take
    less than ``max_share`` of a layer's forward pass (:func:`layer_cost`) at every wider
    multiple of ``step`` up to ``max_width``; None if even ``max_width`` does not get there.

    The share falls with width (compute grows as ``h^2``, the all-reduce bytes as ``h``),
    so this is where the curve of Chapter 3's figure crosses ``max_share`` for good.

    Args:
        max_share: Communication share to get below, in (0, 1).
        tp: Tensor-parallel degree, 2..8.
        link: One of :data:`LINKS`.
        seq_len: Tokens per sequence (>= 1).
        mfu: Achieved share of peak FLOP/s, in (0, 1].
        batch: Sequences per micro-batch (>= 1).
        step: Width granularity (>= 1), e.g. 512 or 128.
        max_width: Widest model considered (>= ``step``).

    >>> w = narrowest_width(0.5)
    >>> w % 512 == 0 and float(layer_cost(1, 4096, w, 8).comm_share) < 0.5
    True
    """
    v.number("max_share", max_share, lo=0, hi=1)
    if not 0 < max_share < 1:
        raise ValueError(f"max_share={max_share!r} is out of range: must be strictly "
                         "between 0 and 1")
    v.integer("tp", tp, lo=2, hi=8)
    step = v.integer("step", step, lo=1)
    max_width = v.integer("max_width", max_width, lo=step)
    widths = np.arange(step, max_width + 1, step)
    share = np.asarray(layer_cost(batch, seq_len, widths, tp, link, mfu).comm_share)
    above = np.flatnonzero(share >= max_share)
    if above.size == 0:
        return int(widths[0])
    if above[-1] == widths.size - 1:
        return None
    return int(widths[above[-1] + 1])


def prose_figures() -> dict:
    """Figures Chapter 3's tensor-parallel prose quotes, as display strings (glued, so
    none is typed by hand): for the chapter's default case (TP = 8, one sequence of 4,096
    tokens, MFU 40 %), the narrowest width (a multiple of 512) from which the all-reduces
    take under half of the layer, over NVLink 4 and NVLink 5, and the PCIe-only box's
    share at the widest width of the figure (:data:`FIGURE_WIDTHS`).

    >>> sorted(prose_figures())
    ['tp_minority_width_nvlink4', 'tp_minority_width_nvlink5', 'tp_pcie_share_widest', \
'tp_widest_width']
    """
    case = dict(tp=8, seq_len=4096, mfu=0.4)
    out = {}
    for key, link in (("tp_minority_width_nvlink4", "NVLink 4 (H100)"),
                      ("tp_minority_width_nvlink5", "NVLink 5 (B200)")):
        out[key] = f"{narrowest_width(0.5, link=link, **case):,}"
    widest = FIGURE_WIDTHS[1]
    pcie = layer_cost(1, case["seq_len"], widest, case["tp"], "PCIe 5.0 only (H100)",
                      case["mfu"])
    out["tp_pcie_share_widest"] = display.fmt_pct(float(pcie.comm_share))
    out["tp_widest_width"] = f"{widest:,}"
    return out


def gpu_name(link: str) -> str:
    """Display name of the GPU that goes with ``link``."""
    return _gpu(LINKS[v.choice("link", link, LINKS)][1]).name


def compute_table(gpus=("a100-sxm-80gb", "h100-sxm", "b200")) -> display.Table:
    """Peak dense BF16 FLOP/s of the GPUs Chapter 3 uses, with sources."""
    gpus = v.items("gpus", gpus)
    for g in gpus:
        v.choice("gpus", g, GPU_BF16_DENSE)
    rows = [[_gpu(g).name, display.fmt_si(peak_flops(g), "FLOP/s"),
             GPU_BF16_DENSE[g].source.title] for g in gpus]
    return display.Table(["GPU", "peak dense BF16 (vendor)", "source"], rows,
                         "Dense: without 2:4 structured sparsity, which datasheets often "
                         "quote (doubling the figure).")
