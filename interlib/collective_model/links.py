"""The bandwidths a collective algorithm sees, bytes/s: NVLink (or PCIe) per GPU inside a
node, the node's NICs, and the ceilings NCCL's own tuning puts on a tree (per channel) and
on NVLink SHARP (per NVLS channel in a rack-scale domain).

Sources: NCCL's ``tuning.cc`` (per-channel tree caps, NVLS efficiency), ``init.cc`` and
``search.cc`` (channel counts), ``enqueue.cc`` (NVLS chunks), nccl-tests PR #239 (the NVLS
link bound); the constants live in :mod:`interlib.specs.calibration` with their citations.
"""

from __future__ import annotations

import math

from ..specs import System, calibration as C
from ..specs import nccl_tuning as T
from ..units import GB_per_s
from .calibrated import cal


def links(sys_: System, g: int, k: int, nccl_view: bool = False):
    """Effective per-GPU intra bandwidth, per-node network bandwidth, intra hop kind.
    NCCL's own view (``nccl_view``) takes a NIC at its full line rate; the book's at the
    fitted share of it (``NET_EFFICIENCY`` in :mod:`interlib.specs.calibration`).

    A node built by :func:`interlib.specs.custom.node` may pair PCIe cards with an NVLink
    bridge: two GPUs then talk over the bridge, more than two still cross PCIe."""
    gpu = sys_.gpu
    if sys_.intra == "nvswitch":
        b_intra = gpu.nvlink.per_gpu_effective
        hop = "nvlink"
    elif getattr(sys_, "nvlink_bridge", False) and g <= 2:
        b_intra = sys_.bridge_effective
        hop = "nvlink"
    else:
        from ..specs import PCIE_HOST_COPY_EFFICIENCY
        b_intra = gpu.pcie.usable_per_direction(16) * PCIE_HOST_COPY_EFFICIENCY.value
        hop = "pcie"
    nics_used = min(sys_.nics_per_node, g * sys_.nics_per_gpu)
    b_node_net = nics_used * sys_.nic.rate.value * (1.0 if nccl_view else cal("NET_EFFICIENCY"))
    return b_intra, b_node_net, hop


def tree_node_traffic(k: int) -> float:
    """Bytes each node sends (and receives) over its NICs per byte of all-reduce in NCCL's
    double binary tree of ``k`` nodes: 1 for two nodes (each is the root of one tree and
    the leaf of the other), 1.5 for three, 2 from four up (each node is interior in one
    tree: 3/2 of the half it carries there, plus 1/2 as a leaf of the other).

    >>> [tree_node_traffic(k) for k in (2, 3, 4, 64)]
    [1.0, 1.5, 2.0, 2.0]
    """
    return {1: 0.0, 2: 1.0, 3: 1.5}.get(k, 2.0)


def tree_channels(sys_, g: int, k: int) -> int:
    """The channels NCCL runs a ring or a tree on: ``COLL_CHANNELS`` on one node
    (:mod:`interlib.specs.calibration`); across nodes the ring graph's, one per NIC on
    Hopper and Blackwell nodes and two per NIC on Ampere, whose channels ``search.cc``
    duplicates (only compute capability > 8.0 skips it); the tree graph takes
    ``ringGraph->nChannels`` (``init.cc``); never more than NCCL's ``MAXCHANNELS``
    (``interlib.specs.NCCL_MAX_CHANNELS``, 64: an NVL72 rack's 72 NICs give 64)."""
    from ..specs import NCCL_MAX_CHANNELS

    arch = sys_.gpu.arch
    if k == 1:
        return int(C.COLL_CHANNELS[arch].value)
    per_nic = 2 if arch == "Ampere" else 1
    nics = min(sys_.nics_per_node, g * sys_.nics_per_gpu)  # a GPU may share a NIC: >= 1
    return int(min(max(1, math.ceil(nics)) * per_nic, NCCL_MAX_CHANNELS.value))


def tree_cap(sys_, g: int, k: int, protocol: str = "Simple", level: int | None = None) -> float:
    """NCCL's cap on a tree's bus bandwidth, bytes/s: channels
    (:func:`tree_channels`) x ``perChMaxTreeBws[arch][1 node | 2 nodes | 3+]``
    (``tuning.cc``: tree busBw = min(0.92 x link, nChannels x per-channel cap)), with
    LL128's own table (``perChMaxTreeLL128Bws``) on Blackwell from NCCL 2.28.3. The caps
    are those of the node's NCCL release (``Node.nccl_version``, else the newest read:
    :mod:`interlib.specs.nccl_tuning`); Blackwell's changed in 2.28.3, before which a
    Blackwell GPU had twice Hopper's. ``level`` picks the column (1 node, 2, 3+) if it
    is not the node count's. Measured with ``NCCL_ALGO=Tree`` on B200 nodes of 8 x 400G:
    8 x 42.8 = 342 GB/s on 2 nodes, 8 x 24 = 192 GB/s from 3 nodes.

    >>> from interlib.specs import system
    >>> round(tree_cap(system("dgx-b200"), 8, 4) / 1e9)
    192
    """
    arch = sys_.gpu.arch
    consts = T.constants(getattr(sys_, "nccl_version", None))
    table = "perChMaxTreeBws"
    if protocol == "LL128" and arch == "Blackwell" and \
            T.parse_version(T.release(getattr(sys_, "nccl_version", None))) >= (2, 28, 3):
        table = "perChMaxTreeLL128Bws"  # tuning.cc's LL128 tree caps on Blackwell
    caps = consts.get((table, arch), consts[(table, "Hopper")])
    return tree_channels(sys_, g, k) * caps[(min(k, 3) if level is None else level) - 1] * GB_per_s


def nvls_channels(sys_, g: int, k: int, version: str | None = None) -> int:
    """The channels (CTAs) NCCL gives NVLS on ``k`` nodes of ``g`` GPUs at ``version``
    (None: the node's own release, else the default; :func:`interlib.specs.nccl_tuning.nvls_channels`:
    16 on Hopper; on Blackwell 32, 24 inside one NVLink domain from NCCL 2.27.3, and by NIC
    speed and GPUs per node across nodes from 2.30.3).

    >>> from interlib.specs import system
    >>> nvls_channels(system("gb200-nvl72"), 72, 1, "2.26.2"), nvls_channels(system("gb200-nvl72"), 72, 1, "2.27.3")
    (32, 24)
    """
    nic = getattr(sys_, "nic", None)
    nic_gbyte = nic.rate.value / 1e9 if nic is not None else 0.0
    version = version if version is not None else getattr(sys_, "nccl_version", None)
    return T.nvls_channels(sys_.gpu.arch, k, g, nic_gbyte, version)


def nvls_heads(sys_, g: int, k: int) -> int:
    """The channels of NCCL's NVLS graph, one per head GPU (``search.cc``: ``maxChannels =
    min(NCCL_MAX_NVLS_ARITY, GPUs)``, and across nodes one head per GPU with a NIC of its
    own): the ``nChannels`` of ``tuning.cc``'s NVLS and NVLSTree bandwidth, not the NVLS
    CTAs of :func:`nvls_channels`.

    >>> from interlib.specs import system
    >>> nvls_heads(system("dgx-h100"), 8, 1), nvls_heads(system("gb200-nvl72"), 72, 2)
    (8, 32)
    """
    heads = min(g, int(C.NVLS_MAX_HEADS.value))
    if k > 1:
        heads = min(heads, max(1, math.ceil(min(sys_.nics_per_node, g * sys_.nics_per_gpu))))
    return int(heads)


def nvls_algbw(sys_, g, k, links_only=False, version: str | None = None):
    """Per-GPU algorithm bandwidth of NVLink SHARP in one NVLink domain of ``g`` GPUs,
    bytes/s (:func:`interlib.collectives.nvls_rate` explains it): ``eta x B x g / (g + 1)``
    over the links, and in a domain that spans trays at most ``channels x chunk / chunk
    time`` (``links_only``: the links alone, as NCCL's own estimate takes it).

    ``channels`` is NCCL 2.26.2's CTA count (``NVLS_CHANNELS``: 32 on Blackwell) for every
    release (``version`` is accepted for the day it matters): from 2.27.3 NCCL gives one
    Blackwell NVLink domain 24 CTAs (:func:`nvls_channels`), but taking that as 24/32 of
    the pace made the rack-scale runs' cross-validated error worse (all points 10.7 % ->
    11.7 %, 73-512 GPUs 8.9 % -> 20.4 %; issue 37), so the published runs do not show
    one rack's NVLS slowing with fewer CTAs, and the model does not slow it."""
    eta = C.NVLS_EFFICIENCY[sys_.gpu.arch].value
    wire = eta * sys_.gpu.nvlink.per_gpu_effective * g / (g + 1)
    if links_only or sys_.gpus_per_server >= sys_.gpus_per_node:
        return wire
    chunk = (C.NVLS_TREE_CHUNK_MANY_NODES.value if k >= C.NVLS_TREE_CHUNK_MIN_NODES.value
             else C.NVLS_CHUNK.value)
    channels = C.NVLS_CHANNELS[sys_.gpu.arch].value
    return min(wire, channels * chunk / cal("NVLS_CHUNK_TIME_RACK"))
