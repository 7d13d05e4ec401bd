"""Constants of the collective-communication model.

Two kinds, kept apart:

* ``model constant``: copied from NCCL's own performance model (``src/graph/tuning.cc`` and
  ``topo.h``, NVIDIA/nccl @ 5067397). NCCL uses them to choose an algorithm and protocol.
* ``calibrated``: this book's own constants for what NCCL's model leaves out (kernel launch
  and the slow ramp of mid-size messages). They were fitted once, jointly, to the
  calibration set in Appendix A and are used unchanged for every system, GPU count and
  node count. Appendix A reports the error on measurements they were not fitted to.
"""

from __future__ import annotations

from ..units import us
from . import sources as S
from ._base import Spec

PROTOCOLS = ("LL", "LL128", "Simple")


def _lat(value_us: float, note: str) -> Spec:
    return Spec(value_us * us, "us", "model constant", S.NCCL_TUNING, note=note)


# Base latency of one collective call, per algorithm and protocol (tuning.cc baseLat).
BASE_LATENCY = {
    ("ring", "LL"): _lat(6.6, "Ring/LL base latency"),
    ("ring", "LL128"): _lat(14.0, "Ring/LL128 base latency"),
    ("ring", "Simple"): _lat(8.4, "Ring/Simple base latency"),
    ("tree", "LL"): _lat(6.8, "Tree/LL base latency"),
    ("tree", "LL128"): _lat(14.0, "Tree/LL128 base latency"),
    ("tree", "Simple"): _lat(8.4, "Tree/Simple base latency"),
    ("nvls", "Simple"): _lat(0.0, "NVLS has no base term; its hop latency carries it"),
}

# Latency per step over each kind of hop (tuning.cc hwLat), per algorithm and protocol.
HOP_LATENCY = {
    ("nvlink", "ring", "LL"): _lat(0.6, "NVLink hop, Ring/LL"),
    ("nvlink", "ring", "LL128"): _lat(1.9, "NVLink hop, Ring/LL128"),
    ("nvlink", "ring", "Simple"): _lat(3.4, "NVLink hop, Ring/Simple"),
    ("nvlink", "tree", "LL"): _lat(0.6, "NVLink hop, Tree/LL"),
    ("nvlink", "tree", "LL128"): _lat(1.25, "NVLink hop, Tree/LL128"),
    ("nvlink", "tree", "Simple"): _lat(4.0, "NVLink hop, Tree/Simple"),
    ("nvlink", "nvls", "Simple"): _lat(25.0, "NVLink SHARP (NVLS), Simple"),
    ("pcie", "ring", "LL"): _lat(1.0, "PCI hop, Ring/LL"),
    ("pcie", "ring", "LL128"): _lat(2.5, "PCI hop, Ring/LL128"),
    ("pcie", "ring", "Simple"): _lat(5.7, "PCI hop, Ring/Simple"),
    ("pcie", "tree", "LL"): _lat(1.0, "PCI hop, Tree/LL"),
    ("pcie", "tree", "LL128"): _lat(1.9, "PCI hop, Tree/LL128"),
    ("pcie", "tree", "Simple"): _lat(4.0, "PCI hop, Tree/Simple"),
    ("net", "ring", "LL"): _lat(2.7, "network hop, Ring/LL"),
    ("net", "ring", "LL128"): _lat(4.0, "network hop, Ring/LL128"),
    ("net", "ring", "Simple"): _lat(14.0, "network hop, Ring/Simple"),
    ("net", "tree", "LL"): _lat(5.0, "network hop, Tree/LL"),
    ("net", "tree", "LL128"): _lat(8.5, "network hop, Tree/LL128"),
    ("net", "tree", "Simple"): _lat(14.0, "network hop, Tree/Simple"),
    ("net", "nvls", "Simple"): _lat(20.9, "network hop, NVLSTree/Simple"),
}

# Share of the link bandwidth each protocol delivers (tuning.cc).
PROTOCOL_EFFICIENCY = {
    "LL128": Spec(0.92, "fraction", "model constant", S.NCCL_TUNING,
                  note="LL128: 120 data bytes per 128-byte line (busBw * 0.92)"),
    "Simple": Spec(1.0, "fraction", "model constant", S.NCCL_TUNING,
                   note="Simple: full bandwidth, highest latency"),
}
TREE_EFFICIENCY = Spec(0.92, "fraction", "model constant", S.NCCL_TUNING,
                       note="tree all-reduce bandwidth x0.92")
NVLS_EFFICIENCY = {
    "Hopper": Spec(0.85, "fraction", "model constant", S.NCCL_TUNING,
                   note="NVLS efficiency factor on Hopper"),
    "Blackwell": Spec(0.74, "fraction", "model constant", S.NCCL_TUNING,
                      note="NVLS efficiency factor on Blackwell"),
}
NET_EFFICIENCY = Spec(12.0 / 12.5, "fraction", "model constant", S.NCCL_TOPO,
                      note="NET_BW 12.0 GB/s for a 100 Gbit (12.5 GB/s) NIC; matches the "
                           "192 GB/s busbw AddyLaddy measured over 8x200G on DGX A100")
RING_SIMPLE_INTERNODE_LATENCY_FACTOR = Spec(
    1.4, "count", "model constant", S.NCCL_TUNING,
    note="plateau effect of multi-node Ring/Simple: latency x1.4 (Ampere and later)")
NVLS_MIN_GPUS = Spec(
    5, "count", "model constant", S.NCCL_TUNING,
    note="NCCL enables NVLS all-reduce only above about 4 GPUs per NVLink domain")

# ----------------------------------------------------------------- calibrated (this book)
LAUNCH_OVERHEAD = Spec(
    10.0 * us, "us", "calibrated", S.THIS_BOOK_FIT,
    note="kernel launch and host-side cost of one nccl-tests iteration, not in tuning.cc; "
         "the 1 KiB all-reduce on 8xH100 takes ~25.6 us where NCCL's model says ~15 us")
LL_EFFICIENCY = Spec(
    0.05, "fraction", "calibrated", S.THIS_BOOK_FIT,
    note="LL's achieved share of link bandwidth at the sizes where it is chosen (few channels,"
         " 4 flag bytes per 8); NCCL's model assumes 0.5 x a per-channel cap")
PIPELINE_WINDOW = Spec(
    4.0 * 2**20, "B", "calibrated", S.THIS_BOOK_FIT,
    note="bytes in flight per pipeline step across all channels (NCCL moves data in chunks, "
         "e.g. 16 channels x 256 KiB). The first chunk must cross every step of the "
         "algorithm before the pipeline runs full, costing (steps - 1) x window / bandwidth; "
         "small messages use proportionally smaller chunks")
NVLS_PIPELINE_STEPS_PER_GPU = Spec(
    1, "count", "calibrated", S.THIS_BOOK_FIT,
    note="NVLS pipeline depth in chunks per GPU: the switch reduces and multicasts, so the "
         "first chunk crosses g pipeline stages on g GPUs (not a ring's 2(g-1)), at the "
         "NVLS bandwidth (NVLS efficiency x effective NVLink); chosen with the pipeline "
         "window when fitting the Azure ND H100 v5 NVLS curve (Appendix A)")
PIPELINE_CHUNKS = Spec(
    8, "count", "calibrated", S.THIS_BOOK_FIT,
    note="a message is cut into at least this many chunks per step before chunks reach "
         "their full window size")

# Tree correction factors, powers of two from 64 B to 128 MiB (tuning.cc
# treeCorrectionFactor): NCCL's own admission that trees miss its model at medium sizes.
TREE_CORRECTION = {
    "LL": (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9,
           1.0, 1.0, 1.0),
    "LL128": (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7,
              .8, .9, .9, 1.0),
    "Simple": (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6,
               .7, .8, .9),
}
TREE_CORRECTION_SOURCE = Spec(22, "count", "model constant", S.NCCL_TUNING,
                              note="treeCorrectionFactor table: 22 entries per protocol")
