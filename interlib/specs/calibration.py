"""Constants of the collective-communication model.

Two kinds, kept apart:

* ``model constant``: copied from NCCL's own performance model (``src/graph/tuning.cc`` and
  ``topo.h``, NVIDIA/nccl @ 5067397). NCCL uses them to choose an algorithm and protocol.
* ``calibrated``: this book's own constants for what NCCL's model leaves out (kernel launch,
  the slow ramp of mid-size messages, how fast a NIC really runs, the pace of NVLink SHARP
  in a rack-scale NVLink domain). All of them are fitted together, by one procedure in code
  (:func:`interlib.crossval.fit`), to every row of ``interlib/data/nccl_measurements.csv``;
  their values are read from ``interlib/data/crossval.json``, which ``python -m
  interlib.crossval`` writes, and a test refits them. Appendix A's errors are
  cross-validated: each source's points are predicted by the constants fitted without it.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..units import KiB, us
from . import sources as S
from ._base import Spec

PROTOCOLS = ("LL", "LL128", "Simple")

PRE_CV_VALUES = {"NET_EFFICIENCY": 0.96, "NVLS_CHUNK_TIME_RACK": 9.57 * us,
                 "TCPXO_STEP_LATENCY": 13.0 * us, "LL_EFFICIENCY": 0.05,
                 "PIPELINE_WINDOW": 4.0 * 2**20, "PIPELINE_CHUNKS": 8.0,
                 "NVLS_PIPELINE_STEPS_PER_GPU": 1.0, "LAUNCH_OVERHEAD": 10.0 * us}
"""The calibrated constants as each was fitted to its own named rows before
cross-validation (issue 15): where :func:`interlib.crossval.fit` starts its search."""

_CROSSVAL = Path(__file__).resolve().parent.parent / "data" / "crossval.json"
FITTED = (json.loads(_CROSSVAL.read_text(encoding="utf-8"))["all"] if _CROSSVAL.is_file()
          else dict(PRE_CV_VALUES))
"""The calibrated constants fitted to every published row by :func:`interlib.crossval.fit`
(stored in ``interlib/data/crossval.json``), SI units."""

_FIT = ("fitted by interlib.crossval.fit to every row of interlib/data/nccl_measurements.csv "
        "(one procedure for all calibrated constants; Appendix A's errors are "
        "cross-validated by source)")


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
    ("net", "nvls_tree", "Simple"): _lat(20.9, "network hop, NVLSTree/Simple"),
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
NET_EFFICIENCY = Spec(
    FITTED["NET_EFFICIENCY"], "fraction", "calibrated", S.NCCL_812,
    note="fitted, not NCCL's: NCCL takes a NIC at its full line rate (speed in Mb/s / 8000; "
         "topo.h's NET_BW is only the fallback for an unknown speed). Share of the line rate "
         "the network delivers; first fitted to 192 GB/s busbw over 8 x 200 Gb/s on two DGX "
         "A100 (NVIDIA/nccl#812, V9-04: 0.96), now " + _FIT)
RING_SIMPLE_INTERNODE_LATENCY_FACTOR = Spec(
    1.4, "count", "model constant", S.NCCL_TUNING,
    note="plateau effect of multi-node Ring/Simple: latency x1.4 (Ampere and later)")
NVLS_MIN_GPUS = Spec(
    3, "count", "model constant", S.NCCL_NVLS,
    note="NCCL's own gate: ncclNvlsInit (nvls.cc) leaves NVLS off when the node has 2 GPUs "
         "or fewer (gpuCount <= 2 from v2.18 to v2.28.3; < 2 from v2.28.7); above that "
         "NCCL's cost model chooses, and so does the book's 'auto' (from 3 GPUs per NVLink "
         "domain; a 4-GPU tray or partition may pick NVLS if its estimate is faster). The "
         "book's copy of NCCL's NVLS estimate takes the link bound (eta x B x g/(g+1)), not "
         "tuning.cc's per-channel formula, so on 4 GPUs it can pick NVLS where NCCL was seen "
         "to pick Ring (Bekman's 4 x H200 at 8 GiB, row SH-01)")

# NCCL's NVLS and NVLSTree pipeline (src/transport/nvls.cc and src/enqueue.cc, NCCL v2.26.2,
# the version of the rack-scale runs in Appendix A).
NVLS_CHANNELS = {
    "Hopper": Spec(16, "count", "model constant", S.NCCL_NVLS,
                   note="NVLS_NCHANNELS_SM90: NVLS channels (thread blocks) on Hopper"),
    "Blackwell": Spec(32, "count", "model constant", S.NCCL_NVLS,
                      note="NVLS_NCHANNELS_SM100 (v2.26.2): NVLS channels on Blackwell"),
}
NVLS_CHUNK = Spec(128 * KiB, "B", "model constant", S.NCCL_NVLS,
                  note="NCCL_NVLS_CHUNKSIZE default: bytes one NVLS channel moves per step")
NVLS_TREE_CHUNK_MANY_NODES = Spec(
    64 * KiB, "B", "model constant", S.NCCL_NVLS,
    note="NVLSTree chunk from 4 nodes up (maxChunkSize = nNodes >= 4 ? 65536 : chunkSize)")
NVLS_TREE_CHUNK_MIN_NODES = Spec(4, "count", "model constant", S.NCCL_NVLS,
                                 note="node count from which NVLSTree halves its chunk")
NVLS_MAX_HEADS = Spec(32, "count", "model constant", S.NCCL_NVLS,
                      note="NCCL_MAX_NVLS_ARITY: NVLSTree crosses the network through at most "
                           "32 head GPUs (and their NICs) per NVLink domain")

# Per-channel bandwidth caps NCCL's tuning model applies when it chooses an algorithm
# (tuning.cc, GB/s per channel; columns: 1 node, 2 nodes, 3+ nodes). NCCL uses them only
# to choose; the book's model times the chosen algorithm with its own mechanisms.
def _caps(values, what):
    return tuple(Spec(x * 1e9, "GB_per_s", "model constant", S.NCCL_TUNING, "per direction",
                      note=f"{what}, {n}") for x, n in zip(values, ("1 node", "2 nodes",
                                                                    "3+ nodes")))


PER_CHANNEL_TREE_BW = {
    "Ampere": _caps((24.0, 23.6, 17.8), "perChMaxTreeBws, Ampere"),
    "Hopper": _caps((38.7, 41.4, 36.0), "perChMaxTreeBws, Hopper"),
    "Blackwell": _caps((70.0, 42.8, 24.0), "perChMaxTreeBws, Blackwell"),
}
PER_CHANNEL_TREE_BW_BLACKWELL_BEFORE_2283 = _caps(
    (2 * 38.7, 2 * 41.4, 2 * 36.0), "perChMaxTreeBws, Blackwell, NCCL before 2.28.3 "
    "(v2.27.7-1 tuning.cc:188: twice Hopper's)")
TREE_CAPS_CHANGED_IN = (2, 28, 3)
"""NCCL version from which Blackwell's per-channel tree caps are :data:`PER_CHANNEL_TREE_BW`
(commit f1308997, 'NCCL 2.28.3-1'); before it, :data:`PER_CHANNEL_TREE_BW_BLACKWELL_BEFORE_2283`."""
PER_CHANNEL_TREE_LL128_BW_BLACKWELL = _caps(
    (55.6, 31.67, 20.0), "perChMaxTreeLL128Bws, Blackwell (NCCL 2.28.3 and later)")
PER_CHANNEL_NVLS_TREE_BW = {
    "Hopper": _caps((0.0, 57.7, 45.5), "perChMaxNVLSTreeBws, Hopper"),
    "Blackwell": _caps((0.0, 96.0, 80.0), "perChMaxNVLSTreeBws, Blackwell"),
}
COLL_CHANNELS = {
    "Ampere": Spec(16, "count", "secondary", S.NCCL_TUNING,
                   note="channels NCCL runs ring and tree on: 16 assumed for Ampere"),
    "Hopper": Spec(16, "count", "secondary", S.NCCL_TUNING,
                   note="'the default number of SMs is 16' (sjeaugey, NVIDIA/nccl#1649)"),
    "Blackwell": Spec(32, "count", "secondary", S.NCCL_TUNING,
                      note="assumed equal to NCCL's Blackwell NVLS channel count (32)"),
}

# Latency a network plugin reports to NCCL (ncclNetProperties.latency). NCCL adds it to every
# inter-node step (twice for Simple: tuning.cc "Also add the flush extra latency").
NET_PLUGIN_LATENCY = {
    "InfiniBand": Spec(0.0, "us", "model constant", S.NCCL_TUNING,
                       note="NCCL's own IB verbs transport reports no extra latency"),
    "Ethernet": Spec(0.0, "us", "model constant", S.NCCL_TUNING,
                     note="RoCE runs through the same IB verbs transport: no extra latency"),
    "EFA": Spec(35.0 * us, "us", "model constant", S.AWS_OFI_NCCL,
                note="AWS EFA (SRD) through aws-ofi-nccl, p5en/p6-b200 platform entry"),
    "GPUDirect-TCPXO": Spec(0.0, "us", "model constant", S.GCP_TCPXO,
                            note="Google's TCPXO plugin reports props.latency = 0, so NCCL "
                                 "chooses as if the network added nothing"),
}
"""Extra per-step network latency by fabric that the plugin reports to NCCL, seconds
(``InfiniBand``, ``Ethernet`` meaning RoCE, ``EFA``, ``GPUDirect-TCPXO``)."""

TCPXO_PROFILES = {
    "2025-08": {"algorithms": ("ring", "tree", "nvls_tree"), "protocols": ("LL128", "Simple"),
                "source": S.GCP_TCPXO,
                "note": "Google's recommended profile since the Aug 21, 2025 release "
                        "(NCCL 2.26.5 and later): NCCL_PROTO=Simple,LL128 (LL is off), "
                        "NVLSTree allowed, the algorithm left to NCCL and Google's tuner"},
    "2024-10": {"algorithms": ("ring", "tree"), "protocols": ("Simple",),
                "source": S.GCP_TCPXO_RELEASES,
                "note": "the 'required nccl configs' of the Oct 18 and Nov 27, 2024 releases "
                        "(installer NCCL 2.21.5): NCCL_ALGO=Ring,Tree, NCCL_PROTO=Simple, "
                        "NCCL_NVLS_ENABLE=0"},
}
"""Google's recommended NCCL settings for GPUDirect-TCPXO (A3 Mega), by release, with the
algorithms and protocols they leave NCCL. A run is modelled with the profile of the
installer it used (:data:`TCPXO_PROFILE_BY_NCCL`); the reader's own node gets the current
one unless told otherwise."""

TCPXO_DEFAULT_PROFILE = "2025-08"
"""The profile a GPUDirect-TCPXO node gets unless told otherwise: Google's current one."""

TCPXO_PROFILE_BY_NCCL = {"2.21.5": "2024-10"}
"""The profile that goes with the NCCL an installer shipped: Google's installers whose
compatible NCCL is 2.21.5 (the Oct 18 and Nov 27, 2024 releases) require the 2024 settings
(``interlib.specs.sources.GCP_TCPXO_RELEASES``). Any other version: the current one."""

UNPUBLISHED_TUNERS = ("GPUDirect-TCPXO",)
"""Fabrics whose cloud runs NCCL with a tuner plugin whose configuration is not published
(Google's ``a3plus_tuner_config.textproto`` ships as a file in the installer image, not in
the source). With more than one node, ``predict(..., algorithm="auto")`` assumes such a
tuner picks the fastest (algorithm, protocol) pair the profile allows, as the model times
them: an assumption, stated in Appendix A, not a published mechanism."""

NCCL_DEFAULT_BUFFSIZE = Spec(4 * 2**20, "B", "model constant", S.NCCL_INIT,
                             note="DEFAULT_BUFFSIZE (1 << 22): NCCL's Simple-protocol buffer "
                                  "per connection (src/init.cc)")
FABRIC_BUFFSIZE = {
    "GPUDirect-TCPXO": Spec(8 * 2**20, "B", "model constant", S.GCP_TCPXO,
                            note="NCCL_BUFFSIZE=8388608 in Google's recommended profile"),
}
"""Simple-protocol buffer a cloud's recommended profile sets instead of NCCL's default; the
pipeline window (:data:`PIPELINE_WINDOW`, fitted with the default) scales with it."""

# AWS's region tuner (aws-ofi-nccl src/tuner/nccl_ofi_regions.cpp @ 2daf7d3, P6 platform,
# all-reduce, 8 ranks per node). On EFA nodes of that platform the plugin, not NCCL's own
# model, picks the algorithm and protocol, from polygons in (log2 size, log2 ranks); the
# first polygon that holds the point wins; with two nodes or fewer it defers to NCCL.
AWS_TUNER_MAX_SIZE = 100.0 * 2**30  # TUNER_MAX_SIZE, bytes
AWS_TUNER_MAX_RANKS = 1024.0 * 1024  # TUNER_MAX_RANKS
AWS_TUNER_MIN_NODES = Spec(3, "count", "model constant", S.AWS_OFI_NCCL_TUNER,
                           note="the region tuner applies from three nodes up ('Skip when "
                                "two nodes or lesser')")


def _extend(a, b):
    """aws-ofi-nccl ``extend_region(a, b, (TUNER_MAX_SIZE, TUNER_MAX_RANKS))`` in log2."""
    import math

    lg = lambda p: (math.log2(p[0]), math.log2(p[1]))  # noqa: E731
    (ax, ay), (bx, by) = lg(a), lg(b)
    zx, zy = lg((AWS_TUNER_MAX_SIZE, AWS_TUNER_MAX_RANKS))
    if ax == bx:
        return (2 ** ax, 2 ** zy)
    if ay == by:
        return (2 ** zx, 2 ** ay)
    m = (ay - by) / (ax - bx)
    c = by - m * bx
    pz = m * zx + c
    return (2 ** zx, 2 ** pz) if pz < zy else (2 ** ((zy - c) / m), 2 ** zy)


_E_LL = _extend((393216, 16), (393216, 1024))
_E_LL128 = _extend((96993280, 1024), (106430464, 2048))
_E_NVLST = _extend((10737418240, 512), (34359738368, 1500))
_MAXS = AWS_TUNER_MAX_SIZE
AWS_TUNER_P6_ALL_REDUCE = (
    ("tree", "LL", ((0, 16), (393216, 16), _E_LL, (0, AWS_TUNER_MAX_RANKS))),
    ("tree", "LL128", (_E_LL, (393216, 16), (4718592, 16), (18350080, 32), (40370176, 64),
                       (57147392, 128), (72876032, 256), (96993280, 1024),
                       (106430464, 2048), _E_LL128)),
    ("ring", "LL128", ((90701824, 128), (50855936, 64), (18350080, 32), (133693440, 32),
                       (120061952, 64))),
    ("nvls_tree", "Simple", (_E_LL128, (106430464, 2048), (96993280, 1024), (72876032, 256),
                        (57147392, 128), (40370176, 64), (18350080, 32), (50855936, 64),
                        (90701824, 128), (120061952, 64), (133693440, 32), (18350080, 32),
                        (4718592, 16), (_MAXS, 16), (435159040, 32), (1072693248, 64),
                        (10737418240, 512), (34359738368, 1500), _E_NVLST)),
    ("ring", "Simple", (_E_NVLST, (10737418240, 512), (1072693248, 64), (435159040, 32),
                        (_MAXS, 16))),
)
"""AWS's P6 all-reduce regions: ``(algorithm, protocol, vertices)``, vertices as
``(bytes, ranks)``, copied from aws-ofi-nccl (NVLSTree is this book's ``"nvls_tree"``)."""

# ----------------------------------------------------------------- calibrated (this book)
LAUNCH_OVERHEAD = Spec(
    FITTED["LAUNCH_OVERHEAD"], "us", "calibrated", S.THIS_BOOK_FIT,
    note="kernel launch and host-side cost of one nccl-tests iteration, not in tuning.cc; "
         + _FIT)
LL_EFFICIENCY = Spec(
    FITTED["LL_EFFICIENCY"], "fraction", "calibrated", S.THIS_BOOK_FIT,
    note="LL's achieved share of link bandwidth at the sizes where it is chosen (few channels,"
         " 4 flag bytes per 8); NCCL's model assumes 0.5 x a per-channel cap; " + _FIT)
PIPELINE_WINDOW = Spec(
    FITTED["PIPELINE_WINDOW"], "B", "calibrated", S.THIS_BOOK_FIT,
    note="bytes in flight per pipeline step across all channels (NCCL moves data in chunks, "
         "e.g. 16 channels x 256 KiB). The first chunk must cross every step of the "
         "algorithm before the pipeline runs full, costing (steps - 1) x window / bandwidth; "
         "small messages use proportionally smaller chunks; " + _FIT)
NVLS_PIPELINE_STEPS_PER_GPU = Spec(
    FITTED["NVLS_PIPELINE_STEPS_PER_GPU"], "count", "calibrated", S.THIS_BOOK_FIT,
    note="NVLS pipeline depth in chunks per GPU: the switch reduces and multicasts, so the "
         "first chunk crosses a number of stages proportional to g (not a ring's 2(g-1)), at "
         "the NVLS bandwidth; a chunk is at most a GPU's 1/g share of the message; " + _FIT)
NVLS_CHUNK_TIME_RACK = Spec(
    FITTED["NVLS_CHUNK_TIME_RACK"], "us", "calibrated", S.THIS_BOOK_FIT,
    note="time one NVLS channel takes per chunk in an NVLink domain that spans trays (GB200 "
         "NVL72): channels x 128 KiB / chunk time is the algbw NVLS reaches there. In such a "
         "domain NVLS runs at the pace of its chunks, not of its links, so its busbw stops "
         "growing with the GPU count; with NVLSTree's 64 KiB chunks from 4 nodes up it "
         "halves. Not applied to 8-GPU baseboards, whose NVLS is link-bound; " + _FIT)
TCPXO_STEP_LATENCY = Spec(
    FITTED["TCPXO_STEP_LATENCY"], "us", "calibrated", S.THIS_BOOK_FIT,
    note="time GPUDirect-TCPXO adds to every inter-node step (twice for Simple, as NCCL "
         "counts a plugin's latency), which its plugin does not report to NCCL (it says 0); "
         + _FIT)
PIPELINE_CHUNKS = Spec(
    FITTED["PIPELINE_CHUNKS"], "count", "calibrated", S.THIS_BOOK_FIT,
    note="a message is cut into at least this many chunks per step before chunks reach "
         "their full window size; " + _FIT)

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

# NCCL v2.29's correction of NVLSTree on Blackwell with an x86 host (tuning.cc
# ncclTopoGetAlgoTime), Simple protocol, powers of two from 64 B to 512 MiB (24 entries).
NVLS_TREE_CORRECTION_BLACKWELL_X86 = (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5,
                                      .5, .6, .7, .8, .7, .7, .8, .9, .9, .9)
NVLS_TREE_CORRECTION_SOURCE = Spec(
    24, "count", "model constant", S.NCCL_TUNING_229,
    note="NVLSTree all-reduce below 1 GiB on Blackwell GPUs with an x86 host runs at "
         "treeCorrectionFactor[Simple][log2(size/64)] of NCCL's bandwidth (added in NCCL "
         "v2.29 with 'improves performance tuning of 256M-512M message sizes on Blackwell'); "
         "taken as what the hardware does in every NCCL version, but NCCL's own choice "
         "(how auto picks) sees it only from v2.29, so the book's choice leaves it out")
X86_HOST_GPUS = ("B200",)
"""GPU names (``specs.GPUS[...].name``) whose boards sit in x86 hosts: HGX/DGX B200 (Intel
Xeon). GB200 pairs its Blackwell GPUs with a Grace (Arm) CPU, so NCCL's x86-only NVLSTree
correction does not apply there."""

TORCH_HOST_OVERHEAD = Spec(
    25.0 * us, "us", "measured", S.BEKMAN_ALLREDUCE_BENCH,
    note="PyTorch's per-call host overhead 'of some 20-30us' (middle of the range the "
         "benchmark's author states), paid by every call when all_reduce_bench.py timed one "
         "dist.all_reduce per trial on an idle device (its version of 2026-07-31, with which "
         "the SB1/SB4 tables were published); not part of the collective model: Appendix A "
         "adds it to the prediction of those rows only")

CALIBRATED_FROM = {name: ("*",) for name in PRE_CV_VALUES}
"""Which rows of ``interlib/data/nccl_measurements.csv`` each calibrated constant is fitted
to: all of them (``"*"``), by :func:`interlib.crossval.fit`; every error the book prints is
cross-validated by source (:func:`interlib.crossval.cross_validate`)."""
