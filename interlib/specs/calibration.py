"""Constants of the collective-communication model.

Two kinds, kept apart:

* ``model constant``: copied from NCCL's own performance model (``src/graph/tuning.cc`` and
  ``topo.h``). NCCL uses them to choose an algorithm and protocol. The tuner constants of
  every release from 2.18.1 to 2.30.7 are in :mod:`interlib.specs.nccl_tuning`; the ones
  here are those of :data:`interlib.specs.nccl_tuning.DEFAULT_VERSION` (2.30.7, the same
  ``tuning.cc`` as NVIDIA/nccl master at 5067397), read from that table.
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
from . import nccl_tuning as T
from . import sources as S
from ._base import Spec

PROTOCOLS = ("LL", "LL128", "Simple")

PRE_CV_VALUES = {"NET_EFFICIENCY": 0.96, "NVLS_CHUNK_TIME_RACK": 9.57 * us,
                 "TCPXO_STEP_LATENCY": 13.0 * us,
                 "PIPELINE_WINDOW": 4.0 * 2**20, "PIPELINE_CHUNKS": 8.0,
                 "NVLS_PIPELINE_STEPS_PER_GPU": 1.0, "LAUNCH_OVERHEAD": 10.0 * us,
                 "HOST_LAUNCH_PER_GPU": 4.0 * us}
"""The calibrated constants as each was fitted to its own named rows before
cross-validation (issue 15), and the per-GPU host launch cost added for issue 37 (started
at 4 us, a round value inside its 0-10 us grid): where :func:`interlib.crossval.fit` starts
its search."""

_CROSSVAL = Path(__file__).resolve().parent.parent / "data" / "crossval.json"
FITTED = {**PRE_CV_VALUES,
          **(json.loads(_CROSSVAL.read_text(encoding="utf-8"))["all"] if _CROSSVAL.is_file()
             else {})}
"""The calibrated constants fitted to every published row by :func:`interlib.crossval.fit`
(stored in ``interlib/data/crossval.json``), SI units."""

_FIT = ("fitted by interlib.crossval.fit to every row of interlib/data/nccl_measurements.csv "
        "(one procedure for all calibrated constants; Appendix A's errors are "
        "cross-validated by source)")


_TUNING = S.NCCL_TUNING
"""``tuning.cc`` (NVIDIA/nccl master at 5067397, the same file as tag v2.30.7-1, the default
release): the source of the NCCL constants below, each of which names its line at the tag
where it first took its value."""


def _tuned(key, unit: str, note: str, scale: float = 1.0, direction: str = "n/a") -> Spec:
    """The default release's value of tuner constant ``key`` as a Spec, citing the line it
    was read from (:data:`interlib.specs.nccl_tuning.HISTORY`)."""
    r = T.reading(key)
    return Spec(r.value * scale, unit, "model constant", _TUNING, direction,
                note=f"{note} (tuning.cc line {r.line} at v{r.since}-1: {r.text!r}; "
                     f"unchanged to v{T.DEFAULT_VERSION}-1)")


def _lat(alg: str, proto: str, hop: str | None, note: str) -> Spec:
    key = ("baseLat", alg, proto) if hop is None else ("hwLat", hop, alg, proto)
    return _tuned(key, "us", note, us)


# Base latency of one collective call, per algorithm and protocol (tuning.cc baseLat).
BASE_LATENCY = {
    (a, p): _lat(a, p, None, f"{name}/{p} base latency")
    for a, name in (("ring", "Ring"), ("tree", "Tree")) for p in ("LL", "LL128", "Simple")}
BASE_LATENCY[("nvls", "Simple")] = _lat("nvls", "Simple", None,
                                        "NVLS has no base term; its hop latency carries it")

# Latency per step over each kind of hop (tuning.cc hwLat), per algorithm and protocol.
_HOPS = {"nvlink": "NVLink hop", "pcie": "PCI hop", "net": "network hop"}
HOP_LATENCY = {
    (h, a, p): _lat(a, p, h, f"{_HOPS[h]}, {name}/{p}")
    for h in ("nvlink", "pcie", "net") for a, name in (("ring", "Ring"), ("tree", "Tree"))
    for p in ("LL", "LL128", "Simple")}
HOP_LATENCY[("nvlink", "nvls", "Simple")] = _lat("nvls", "Simple", "nvlink",
                                                 "NVLink SHARP (NVLS), Simple")
HOP_LATENCY[("net", "nvls_tree", "Simple")] = _lat("nvls_tree", "Simple", "net",
                                                   "network hop, NVLSTree/Simple")

NCCL_NET_OVERHEAD = {
    "Intel": Spec(1.0 * us, "us", "model constant", _TUNING,
                  note="getNetOverhead: 'if (cpuArch == NCCL_TOPO_CPU_ARCH_X86 && cpuVendor == "
                       "NCCL_TOPO_CPU_VENDOR_INTEL) return 1.0;'"),
    "AMD": Spec(2.0 * us, "us", "model constant", _TUNING,
                note="getNetOverhead: 'if (cpuArch == NCCL_TOPO_CPU_ARCH_X86 && cpuVendor == "
                     "NCCL_TOPO_CPU_VENDOR_AMD) return 2.0;'"),
    "Arm": Spec(1.0 * us, "us", "model constant", _TUNING,
                note="getNetOverhead: 'return 1.0;' for any other host (Grace, Arm)"),
}
"""NCCL's network post overhead by host CPU (``tuning.cc`` ``getNetOverhead``, every release
read): an inter-node ring's every step costs at least this (three times for Simple)."""


def host_cpu(sys_) -> str:
    """The host CPU vendor NCCL sees on a node, ``"Intel"``, ``"AMD"`` or ``"Arm"``: it
    sets NCCL's network overhead (:data:`NCCL_NET_OVERHEAD`) and which ``llMaxBws`` row
    NCCL's LL estimate reads across nodes. Grace (GB200, GB300) is Arm; DGX A100 has two
    AMD EPYC 7742 (its user guide), AWS p5 instances (H100, EFA over 100 Gb/s ports) AMD
    EPYC 7R13 (AWS's P5 page); the other 8-GPU servers of the catalogue and of the
    published runs (DGX H100/B200, HGX H200/B300, p4d, p5en, p6) Intel Xeon."""

    gpu = sys_.gpu.name
    if gpu.startswith("GB"):
        return "Arm"
    fabric = sys_.nic.fabric
    if gpu.startswith("A100") and not fabric.startswith("EFA"):
        return "AMD"
    if gpu.startswith("H100") and fabric.startswith("EFA") and \
            abs(sys_.nic.rate.value - 12.5e9) < 1.0:
        return "AMD"
    return "Intel"


# Share of the link bandwidth each protocol delivers (tuning.cc, every release read).
PROTOCOL_EFFICIENCY = {
    "LL128": Spec(0.92, "fraction", "model constant", _TUNING,
                  note="LL128: 120 data bytes per 128-byte line (busBw * 0.92)"),
    "Simple": Spec(1.0, "fraction", "model constant", _TUNING,
                   note="Simple: full bandwidth, highest latency"),
}
TREE_EFFICIENCY = Spec(0.92, "fraction", "model constant", _TUNING,
                       note="tree all-reduce bandwidth x0.92")
NVLS_EFFICIENCY = {
    arch: _tuned(("nvlsEfficiency", arch), "fraction", f"NVLS efficiency factor on {arch}")
    for arch in ("Hopper", "Blackwell")}
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
# the version of most rack-scale runs in Appendix A); the NVLS channel counts by release are
# in nccl_tuning.NVLS_HISTORY (nvls.cc at each tag), and the ones below are the default
# release's.


def _nvls_ch(key, note: str) -> Spec:
    r = T.NVLS_HISTORY[key][-1]
    return Spec(r.value, "count", "model constant", T.nvls_source(r.since),
                note=f"{note} (nvls.cc line {r.line} at v{r.since}-1: {r.text!r}; "
                     f"unchanged to v{T.DEFAULT_VERSION}-1)")


NVLS_CHANNELS = {
    "Hopper": _nvls_ch(("nvlsChannels", "SM90"),
                       "NVLS channels (thread blocks) on Hopper; 16 on every GPU before "
                       "2.25.1 (the NCCL_NVLS_NCHANNELS default)"),
    "Blackwell": _nvls_ch(("nvlsChannels", "SM100"),
                          "NVLS channels on Blackwell across NVLink domains (from 2.30.3 "
                          "NIC speed and GPUs per node may lower it to 24: "
                          "nccl_tuning.nvls_channels)"),
    "Blackwell, one NVLink domain": _nvls_ch(
        ("nvlsChannels", "SM100_NVL"),
        "NVLS channels on Blackwell inside one NVLink domain (one node or one NVL72 rack), "
        "from NCCL 2.27.3; 32 before"),
}
"""NVLS channels (CTAs) at the default release; a run's own release and shape give its
count through :func:`interlib.specs.nccl_tuning.nvls_channels`."""
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
# (tuning.cc, GB/s per channel; columns: 1 node, 2 nodes, 3+ nodes), at the default release
# (every release's are in interlib.specs.nccl_tuning). NCCL uses them only to choose; the
# book's model times the chosen algorithm with its own mechanisms.
def _caps(table, arch):
    r = T.reading((table, arch))
    return tuple(Spec(x * 1e9, "GB_per_s", "model constant", _TUNING, "per direction",
                      note=f"{table}, {arch}, {n} (tuning.cc line {r.line} at v{r.since}-1)")
                 for x, n in zip(r.value, ("1 node", "2 nodes", "3+ nodes")))


PER_CHANNEL_TREE_BW = {arch: _caps("perChMaxTreeBws", arch)
                       for arch in ("Ampere", "Hopper", "Blackwell")}
PER_CHANNEL_TREE_LL128_BW_BLACKWELL = _caps("perChMaxTreeLL128Bws", "Blackwell")
PER_CHANNEL_NVLS_TREE_BW = {arch: _caps("perChMaxNVLSTreeBws", arch)
                            for arch in ("Hopper", "Blackwell")}
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
                note="AWS EFA (SRD) through aws-ofi-nccl, p5en/p6-b200 and p6-b300 platform "
                     "entries ('.latency = 35.0'): EFA over 200 and 400 Gb/s ports"),
    "EFA 100G": Spec(75.0 * us, "us", "model constant", S.AWS_OFI_NCCL,
                     note="aws-ofi-nccl's p4d.24xlarge, p4de.24xlarge and p5/p5e platform "
                          "entries ('.latency = 75.0', every release from v1.7.3): EFA over "
                          "100 Gb/s ports (4 per p4d, 32 per p5)"),
    "GPUDirect-TCPXO": Spec(0.0, "us", "model constant", S.GCP_TCPXO,
                            note="Google's TCPXO plugin reports props.latency = 0, so NCCL "
                                 "chooses as if the network added nothing"),
}
"""Extra per-step network latency by fabric that the plugin reports to NCCL, seconds
(``InfiniBand``, ``Ethernet`` meaning RoCE, ``EFA``, ``GPUDirect-TCPXO``), and by EFA
generation: aws-ofi-nccl's platform table gives the instances with 100 Gb/s EFA ports
(p4d, p4de, p5, p5e) 75 us and the later ones (p5en, p6) 35 us (``EFA 100G`` and ``EFA``;
:func:`interlib.collective_model.fabrics.plugin_latency` picks by the NIC's port rate).
NCCL's choice uses it; the book's timing uses it too, except where AWS's tuner model states
the latency of the plugin's RDMA protocol (:data:`AWS_TUNER_NET_LATENCY`)."""

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

EFA_100G_MAX_RATE = 12.5e9 * 1.01
"""An EFA NIC at this rate or below (bytes/s: 100 Gb/s) is one of aws-ofi-nccl's 75 us
platforms (p4d, p4de, p5, p5e); faster ports are p5en (200 Gb/s) and p6 (400 Gb/s), 35 us."""

AWS_TUNER_NET_LATENCY = {
    "p5/p5e": Spec(20.0 * us, "us", "model constant", S.AWS_OFI_NCCL_TUNER_MODEL,
                   note="aws-ofi-nccl's P5 tuner model, 'P5 & P5e platform' '.net_lat = "
                        "20.0' (src/tuner/nccl_ofi_model.cpp:15 @ v1.16.0; the default of "
                        "TUNER_NET_LATENCY, include/nccl_ofi_tuner.h:24 @ v1.8.1-aws): the "
                        "latency of one EFA step of the RDMA protocol, 'different from the "
                        "network plugin's param for net latency by design' (75 us)"),
    "p5en": Spec(18.0 * us, "us", "model constant", S.AWS_OFI_NCCL_TUNER_MODEL,
                 note="aws-ofi-nccl's tuner model, 'P5en platform' '.net_lat = 18.0' "
                      "(src/tuner/nccl_ofi_model.cpp:30 @ v1.16.0)"),
}
"""The latency of one network step on the EFA platforms whose plugin runs its RDMA protocol
(more EFA devices than GPUs: p5, p5e, p5en), as AWS's own tuner model states it, seconds;
the plugin still reports :data:`NET_PLUGIN_LATENCY` to NCCL (75 or 35 us), which NCCL's
choice uses (:func:`interlib.collective_model.fabrics.step_latency`)."""

AWS_TUNER_NET_COMP_OVERHEAD = Spec(
    3.0 * us, "us", "model constant", S.AWS_OFI_NCCL_TUNER_MODEL,
    note="TUNER_NET_COMP_OVERHEAD default 3 (include/nccl_ofi_tuner.h:30 @ v1.8.1-aws): 'With "
         "EFA, we expect a ~2usec cost in the device and ~1usec cost to write that completion "
         "up to the host stack', added to a Simple step's latency (nccl_ofi_model.c:35-37 "
         "@ v1.8.1-aws)")

NCCL_FLUSH_OFF_ON_HOPPER_FROM = "2.19.1"
"""The first NCCL release that no longer flushes a GPUDirect receive on Hopper and later
GPUs by default (``NCCL_NET_FORCE_FLUSH`` default 1 up to 2.18, ``src/graph/paths.cc:403``
@ v2.18.5-1; 0 from 2.19.1, ``paths.cc:405`` @ v2.19.1-1); below compute capability 9.0 a
receive is always flushed (``paths.cc:413``: ``cudaCompCap < 90 ? 1 : ...``)."""

NCCL_FLUSH_ALWAYS_ARCHS = ("Ampere",)
"""GPU architectures below compute capability 9.0, whose GPUDirect receives NCCL always
flushes (``paths.cc:413`` @ v2.19.1-1)."""

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
    note="time GPUDirect-TCPXO adds to every inter-node step (once per step in the book's "
         "timing, twice for Simple where NCCL flushes a receive: "
         "collective_model.fabrics.step_latency), which its plugin does not report to NCCL "
         "(it says 0); " + _FIT)
HOST_LAUNCH_PER_GPU = Spec(
    FITTED["HOST_LAUNCH_PER_GPU"], "us", "calibrated", S.THIS_BOOK_FIT,
    note="host time to enqueue and launch one GPU's collective: nccl-tests run as one "
         "thread driving N GPUs (-g N) launches them one after another, so an iteration "
         "takes at least N x this on the host while the GPUs work (a call's time is the "
         "larger of the two; one process per GPU, -g 1, never waits on it); applied to "
         "the rows whose note states -g (validation.gpus_per_thread); " + _FIT)
PIPELINE_CHUNKS = Spec(
    FITTED["PIPELINE_CHUNKS"], "count", "calibrated", S.THIS_BOOK_FIT,
    note="a message is cut into at least this many chunks per step before chunks reach "
         "their full window size; " + _FIT)

# Tree correction factors, powers of two from 64 B (tuning.cc treeCorrectionFactor, index
# log2(size / 64)): NCCL's own admission that trees miss its model at medium sizes. The
# default release's rows (24 entries from 2.29.2; a tree reads the first 23, NVLSTree on an
# x86 Blackwell host all 24); every release's are in interlib.specs.nccl_tuning.
TREE_CORRECTION = {p: T.reading(("treeCorrectionFactor", p)).value
                   for p in ("LL", "LL128", "Simple")}
TREE_CORRECTION_SOURCE = Spec(len(TREE_CORRECTION["Simple"]), "count", "model constant",
                              _TUNING, note="treeCorrectionFactor table: entries per protocol")

# NCCL v2.29's correction of NVLSTree on Blackwell with an x86 host (tuning.cc
# ncclTopoGetAlgoTime), Simple protocol, powers of two from 64 B to 512 MiB (24 entries).
NVLS_TREE_CORRECTION_BLACKWELL_X86 = TREE_CORRECTION["Simple"]
NVLS_TREE_CORRECTION_SOURCE = Spec(
    24, "count", "model constant", S.NCCL_TUNING_229,
    note="NVLSTree all-reduce below 1 GiB on Blackwell GPUs with an x86 host runs at "
         "treeCorrectionFactor[Simple][log2(size/64)] of NCCL's bandwidth (added in NCCL "
         "v2.29 with 'improves performance tuning of 256M-512M message sizes on Blackwell'); "
         "taken as what the hardware does in every NCCL version, but NCCL's own choice "
         "(how auto picks) sees it only from v2.29, so the book's choice leaves it out")
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
