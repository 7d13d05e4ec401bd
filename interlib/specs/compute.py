"""GPU compute peaks and the HBM copy efficiency (Chapters 7 and 8).

Kept beside :mod:`.hardware` rather than inside :class:`~.hardware.GPU` so that the existing
catalogue entries stay unchanged. Every peak is **dense** (no 2:4 structured sparsity) and
for **bf16** Tensor Core matrix maths: vendors' headline tables often print the sparse
figure (twice the dense one) or a lower precision (FP8 is twice bf16), and an MFU computed
against the wrong peak is off by 2x or 4x.
"""

from __future__ import annotations

from .. import _validate as v
from . import sources as S
from ._base import Spec

from ..units import TFLOP_per_s as TFLOPS

_NOTE = "dense bf16 Tensor Core peak (half the 'with sparsity' figure)"

BF16_DENSE_FLOPS = {
    "a100-sxm-80gb": Spec(312 * TFLOPS, "TFLOP_per_s", "vendor peak", S.A100_FLOPS,
                          note="FLOP/s; " + _NOTE),
    "h100-sxm": Spec(989 * TFLOPS, "TFLOP_per_s", "vendor peak", S.H100_FLOPS,
                     note="FLOP/s; " + _NOTE + ": 1,979 / 2"),
    "h200": Spec(989 * TFLOPS, "TFLOP_per_s", "vendor peak", S.H100_FLOPS,
                 note="FLOP/s; same GH100 Tensor Cores and clocks as H100 SXM"),
    "b200": Spec(2250 * TFLOPS, "TFLOP_per_s", "secondary", S.LOCKWOOD_B200,
                 note="FLOP/s; HGX B200 at 1,000 W; " + _NOTE + ". DGX B200's 72 PFLOPS "
                      "FP8 / 8 GPUs = 9 PFLOPS is sparse FP8 = 4 x dense bf16"),
    "gb200": Spec(2500 * TFLOPS, "TFLOP_per_s", "secondary", S.LOCKWOOD_B200,
                  note="FLOP/s; GB200 at 1,200 W; " + _NOTE),
    # Blackwell Ultra kept Blackwell's bf16 rate (its gain is FP4): HGX B300's table gives
    # FP16/BF16 36 PFLOPS with sparsity for 8 GPUs, the same as HGX B200's.
    "b300": Spec(36000 / 8 / 2 * TFLOPS, "TFLOP_per_s", "secondary", S.HGX_B300,
                 note="FLOP/s; HGX B300: 36 PFLOPS FP16/BF16 with sparsity / 8 GPUs / 2 = "
                      "2,250 dense; " + _NOTE),
}


def gpu_flops(name: str) -> Spec:
    """Dense bf16 peak of a GPU (catalogue id as in :data:`~.hardware.GPUS`), FLOP/s.

    >>> gpu_flops("h100-sxm").value / 1e12
    989.0
    """
    return BF16_DENSE_FLOPS[v.choice("name", name, BF16_DENSE_FLOPS)]


HBM_COPY_EFFICIENCY = Spec(
    2.90 / 3.35, "fraction", "measured", S.AZURE_BENCH,
    note="STREAM-like copy on Azure ND H100 v5: 2.90 TB/s of the 3.35 TB/s peak (reads and "
         "writes counted together); the book applies it to every HBM generation")


LLAMA3_INTERRUPTIONS = {
    "total": Spec(466, "count", "measured", S.LLAMA3, note="job interruptions in 54 days"),
    "planned": Spec(47, "count", "measured", S.LLAMA3, note="automated maintenance etc."),
    "unexpected": Spec(419, "count", "measured", S.LLAMA3),
    "Faulty GPU": Spec(148, "count", "measured", S.LLAMA3,
                       note="the paper prints 30.1 %, but 148 / 419 = 35.3 %: an "
                            "inconsistency in the paper itself"),
    "GPU HBM3 memory": Spec(72, "count", "measured", S.LLAMA3, note="printed 17.2 %"),
    "Network switch/cable": Spec(35, "count", "measured", S.LLAMA3, note="printed 8.4 %"),
    "NIC": Spec(7, "count", "measured", S.LLAMA3, note="printed 1.7 %"),
    "NCCL watchdog timeouts": Spec(7, "count", "measured", S.LLAMA3, note="printed 1.7 %"),
}
"""Llama 3 405B, Table 5 of the paper (54-day snapshot; read in the paper itself). Categories not listed here are summed as
"other" by :func:`interlib.cost.interruption_table`. The often-quoted "network
configuration errors caused 10.7 %" is not in this table (facts.md 4k)."""

LLAMA3_SNAPSHOT_DAYS = Spec(54, "count", "measured", S.LLAMA3, note="days in the snapshot")
LLAMA3_GPUS = Spec(16384, "count", "measured", S.LLAMA3,
                   note="'16K H100 GPUs' (the layout: specs.studies.LLAMA3_LAYOUT_16K)")
