"""The bandwidths a collective algorithm sees, bytes/s: NVLink (or PCIe) per GPU inside a
node, the node's NICs, and the ceilings NCCL's own tuning puts on a tree (per channel) and
on NVLink SHARP (per NVLS channel in a rack-scale domain).

Sources: NCCL's ``tuning.cc`` (per-channel tree caps, NVLS efficiency), ``init.cc`` and
``search.cc`` (channel counts), ``enqueue.cc`` (NVLS chunks), nccl-tests PR #239 (the NVLS
link bound); the constants live in :mod:`interlib.specs.calibration` with their citations.
"""

from __future__ import annotations

from ..specs import System, calibration as C
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


def blackwell_before_2283(sys_) -> bool:
    """Whether the node is Blackwell on an NCCL older than 2.28.3 (its ``nccl_version``),
    whose per-channel tree caps were NCCL's earlier table."""
    ver = getattr(sys_, "nccl_version", None)
    return sys_.gpu.arch == "Blackwell" and ver is not None \
        and tuple(int(x) for x in ver.split(".")) < C.TREE_CAPS_CHANGED_IN


def tree_cap(sys_, g: int, k: int, protocol: str = "Simple", level: int | None = None) -> float:
    """NCCL's cap on a tree's bus bandwidth, bytes/s: channels x
    ``perChMaxTreeBw[arch][1 node | 2 nodes | 3+]`` (``tuning.cc``: tree busBw = min(0.92 x
    link, nChannels x per-channel cap)). Across nodes the tree runs on the ring graph's
    channels (``init.cc``: the tree graph takes ``ringGraph->nChannels``), one per NIC on
    Hopper and Blackwell nodes and two per NIC on Ampere, whose channels ``search.cc``
    duplicates (only compute capability > 8.0 skips it); in one node on
    ``COLL_CHANNELS`` (:mod:`interlib.specs.calibration`). Blackwell's caps are those of the
    node's NCCL version (they changed in 2.28.3), with LL128's own table on Blackwell from
    2.28.3 (``perChMaxTreeLL128Bws``); ``level`` picks the column (1 node, 2, 3+) if it is
    not the node count's. Measured with ``NCCL_ALGO=Tree`` on B200
    nodes of 8 x 400G: 8 x 42.8 = 342 GB/s on 2 nodes, 8 x 24 = 192 GB/s from 3 nodes.

    >>> from interlib.specs import system
    >>> round(tree_cap(system("dgx-b200"), 8, 4) / 1e9)
    192
    """
    arch = sys_.gpu.arch
    caps = C.PER_CHANNEL_TREE_BW[arch]
    if blackwell_before_2283(sys_):
        caps = C.PER_CHANNEL_TREE_BW_BLACKWELL_BEFORE_2283
    elif protocol == "LL128" and arch == "Blackwell":  # tuning.cc's LL128 tree caps
        caps = C.PER_CHANNEL_TREE_LL128_BW_BLACKWELL
    if k == 1:
        channels = C.COLL_CHANNELS[arch].value
    else:
        channels = min(sys_.nics_per_node, g * sys_.nics_per_gpu) * (2 if arch == "Ampere" else 1)
    return channels * caps[(min(k, 3) if level is None else level) - 1].value


def nvls_algbw(sys_, g, k, links_only=False):
    """Per-GPU algorithm bandwidth of NVLink SHARP in one NVLink domain of ``g`` GPUs,
    bytes/s (:func:`interlib.collectives.nvls_rate` explains it): ``eta x B x g / (g + 1)``
    over the links, and in a domain that spans trays at most ``channels x chunk / chunk
    time`` (``links_only``: the links alone, as NCCL's own estimate takes it)."""
    eta = C.NVLS_EFFICIENCY[sys_.gpu.arch].value
    wire = eta * sys_.gpu.nvlink.per_gpu_effective * g / (g + 1)
    if links_only or sys_.gpus_per_server >= sys_.gpus_per_node:
        return wire
    chunk = (C.NVLS_TREE_CHUNK_MANY_NODES.value if k >= C.NVLS_TREE_CHUNK_MIN_NODES.value
             else C.NVLS_CHUNK.value)
    channels = C.NVLS_CHANNELS[sys_.gpu.arch].value
    return min(wire, channels * chunk / cal("NVLS_CHUNK_TIME_RACK"))
