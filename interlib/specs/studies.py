"""Figures from published studies and reports (Chapters 7 and 8, Appendix B).

Not hardware datasheets but what papers and careful secondary sources report about real
clusters and training runs: Meta's 24K-GPU clusters and Llama 3 405B, the dragonfly cost
comparison of Kim et al., Bekman's measured NVLink-vs-network gap, NVIDIA's GB200 NVL72
memory total. Each is a :class:`~._base.Spec` with its source, like every other figure in
the catalogue; :mod:`.fabric` exposes the cluster figures to Chapter 6 under its own names (the same Specs).

>>> META_CLUSTER_GPUS.value == META_PODS.value * META_POD_GPUS.value
True
>>> META_POD_GPUS.value == META_POD_RACKS.value * META_RACK_GPUS.value
True
>>> f"{LLAMA3_MFU['low'].value:.0%}-{LLAMA3_MFU['high'].value:.0%}"
'38%-43%'
"""

from __future__ import annotations

from . import links as _links
from . import sources as S
from ._base import Spec
from ..units import GB, GB_per_s, TB, TB_per_s, Gbit_per_s

_META_NOTE = "Meta engineering blog (12 March 2024)"

META_CLUSTERS_COUNT = Spec(2, "count", "secondary", S.META_CLUSTERS,
                           note="two clusters: one RoCE (Arista 7800), one NVIDIA Quantum-2 "
                                "InfiniBand, both with 400 Gbps endpoints; " + _META_NOTE)
META_CLUSTER_GPUS = Spec(24576, "count", "secondary", S.META_CLUSTERS,
                         note="GPUs per cluster; " + _META_NOTE)
META_ENDPOINT_RATE = Spec(400 * Gbit_per_s, "Gbit_per_s", "secondary", S.META_CLUSTERS,
                          "per direction", note="per endpoint, both clusters; " + _META_NOTE)
_LLAMA3_NET = "Llama 3 paper, section 3.3.1 (not the March 2024 blog, which gives neither)"
META_RACK_GPUS = Spec(16, "count", "secondary", S.LLAMA3_NETWORK,
                      note="GPUs per rack (two 8-GPU servers) under one Minipack2 ToR switch; "
                           + _LLAMA3_NET)
META_POD_RACKS = Spec(192, "count", "secondary", S.LLAMA3_NETWORK,
                      note="racks joined by cluster switches into one pod; " + _LLAMA3_NET)
META_POD_GPUS = Spec(3072, "count", "secondary", S.LLAMA3_NETWORK,
                     note="GPUs per pod (192 racks x 16), full bisection bandwidth inside the "
                          "pod; " + _LLAMA3_NET)
META_PODS = Spec(8, "count", "secondary", S.LLAMA3_NETWORK,
                 note="pods per 24K-GPU cluster, joined at the aggregation layer; "
                      + _LLAMA3_NET)
META_AGG_OVERSUBSCRIPTION = Spec(7, "count", "secondary", S.LLAMA3_NETWORK,
                                 note="the aggregation layer joining the pods is 1:7 "
                                      "oversubscribed (a 7:1 taper); inside a pod the "
                                      "network is non-blocking; " + _LLAMA3_NET)
META_FLOWS_PER_GPU_PAIR = Spec(16, "count", "secondary", S.LLAMA3_NETWORK,
                               note="network flows (queue pairs) the collective library "
                                    "opens between two GPUs, instead of one, so that ECMP "
                                    "has more flows to spread; " + _LLAMA3_NET)
META_EECMP_ALLREDUCE_GAIN = Spec(0.40, "fraction", "secondary", S.GANGIDI_ROCE,
                                 note="'up to 40%' better AllReduce performance with "
                                      "E-ECMP (hash on the destination QP) plus QP scaling, "
                                      "against baseline ECMP without QP scaling (Meta's "
                                      "blog summary of the SIGCOMM 2024 paper)")

LLAMA3_MFU = {
    "low": Spec(0.38, "fraction", "measured", S.LLAMA3_TABLE4,
                note="BF16 MFU, Llama 3 405B pre-training, Table 4: 38% on 16,384 H100 GPUs "
                     "in the long-context stage (CP 16, 131,072-token sequences)"),
    "high": Spec(0.43, "fraction", "measured", S.LLAMA3_TABLE4,
                 note="BF16 MFU, Llama 3 405B pre-training, Table 4: 43% on 8,192 H100 GPUs "
                      "(DP 64); 41% on 16,384 (DP 128)"),
}
"""Llama 3 405B's reported model FLOPs utilisation, Table 4 of the paper (Table 5 is the
interruptions table): 38-43 % on 8K-16K H100 GPUs. The highest MFU is on the fewest GPUs
(43 % on 8,192); the lowest on 16,384 in the long-context stage."""

LLAMA3_MFU_GPUS = {
    "low": Spec(8192, "count", "measured", S.LLAMA3_TABLE4,
                note="8,192 H100 GPUs, Table 4's smallest configuration (43% MFU)"),
    "high": Spec(16384, "count", "measured", S.LLAMA3_TABLE4,
                 note="16,384 H100 GPUs, Table 4's largest configuration (41% and 38% MFU)"),
}
"""The range of GPU counts of Table 4 (not paired key by key with :data:`LLAMA3_MFU`:
the 43 % is on 8,192 GPUs, the 38 % on 16,384)."""

LLAMA3_405B_FABRIC = "RoCE"
"""Llama 3 405B trained on up to 16K H100s on Meta's RoCE cluster (Llama 3 paper)."""

LLAMA3_LAYOUT_16K = {
    "tp": Spec(8, "count", "measured", S.LLAMA3_TABLE4, note="tensor parallel, 16,384 GPUs"),
    "cp": Spec(1, "count", "measured", S.LLAMA3_TABLE4,
               note="context parallel (16 only in the long-context stage)"),
    "pp": Spec(16, "count", "measured", S.LLAMA3_TABLE4, note="pipeline parallel"),
}
"""Llama 3 405B's 3D layout on 16,384 H100 GPUs (8K-context stage); data parallelism is
what is left: :func:`llama3_dp_16k`.

>>> llama3_dp_16k()
128
"""


LLAMA3_STORAGE = {
    "sustained": Spec(2 * TB_per_s, "TB_per_s", "secondary", S.LLAMA3_NETWORK, "read + write",
                      note="Tectonic storage fabric for Llama 3 pre-training (240 PB on "
                           "7,500 SSD servers): sustainable throughput"),
    "peak": Spec(7 * TB_per_s, "TB_per_s", "secondary", S.LLAMA3_NETWORK, "read + write",
                 note="peak throughput of the same storage fabric"),
}
"""Llama 3's storage fabric, reached over the front-end network, not the RDMA back end."""

LLAMA3_CHECKPOINT_PER_GPU = Spec(4 * GB, "GB", "secondary", S.LLAMA3_NETWORK,
                                 note="largest model state one GPU saves per checkpoint "
                                      "('1 MB to 4 GB per GPU')")

DEEPSEEK_V3_LINKS = {
    "NVLink": _links.REDUCED_NVLINK["h800"].measured,  # the same Spec, kept once in .links
    "InfiniBand": Spec(50 * GB_per_s, "GB_per_s", "secondary", S.DEEPSEEK_V3,
                       "per direction", note="one 400 Gb/s InfiniBand NIC per GPU"),
}
"""The two rungs DeepSeek-V3's expert-parallel all-to-all was designed around."""

DEEPSEEK_V3_MAX_NODES_PER_TOKEN = Spec(4, "count", "secondary", S.DEEPSEEK_V3,
                                       note="each token is dispatched to experts on at most "
                                            "4 nodes, to limit InfiniBand traffic")
DEEPSEEK_V3_COMM_SMS = Spec(20, "count", "secondary", S.DEEPSEEK_V3,
                            note="SMs of an H800 given to the all-to-all kernels")


def llama3_checkpoint_seconds(rate: str = "peak") -> float:
    """Seconds to write the largest Llama 3 checkpoint from every GPU of the 16K-GPU job at
    the storage fabric's ``rate`` (``"peak"`` or ``"sustained"``):
    ``16,384 x 4 GB / rate``.

    >>> round(llama3_checkpoint_seconds("sustained"), 1)
    32.8
    """
    from .. import _validate as v

    r = LLAMA3_STORAGE[v.choice("rate", rate, LLAMA3_STORAGE)].value
    return float(LLAMA3_MFU_GPUS["high"].value * LLAMA3_CHECKPOINT_PER_GPU.value / r)


def llama3_dp_span_servers(gpus_per_server: int = 8) -> int:
    """Servers one data-parallel group of :data:`LLAMA3_LAYOUT_16K` spans when, as in
    Llama 3's [TP, CP, PP, DP] order, each model replica (TP x CP x PP GPUs) fills whole
    servers: DP x replica GPUs / GPUs per server (the whole 16K-GPU job).

    >>> llama3_dp_span_servers()
    2048
    """
    from .. import _validate as v

    g = v.integer("gpus_per_server", gpus_per_server, lo=1, hi=1024)
    L = LLAMA3_LAYOUT_16K
    replica = int(L["tp"].value * L["cp"].value * L["pp"].value)
    return int(llama3_dp_16k() * -(-replica // g))


def llama3_replica_servers(gpus_per_server: int = 8) -> int:
    """Servers one model replica (TP x CP x PP GPUs) of :data:`LLAMA3_LAYOUT_16K` fills. In
    Llama 3's [TP, CP, PP, DP] order the members of one data-parallel group sit one per
    replica, so they are this many servers apart: a DP group has
    :func:`llama3_dp_16k` members spread over :func:`llama3_dp_span_servers` servers.

    >>> llama3_replica_servers()
    16
    """
    from .. import _validate as v

    g = v.integer("gpus_per_server", gpus_per_server, lo=1, hi=1024)
    L = LLAMA3_LAYOUT_16K
    replica = int(L["tp"].value * L["cp"].value * L["pp"].value)
    return -(-replica // g)


def meta_pod_servers(gpus_per_server: int = 8) -> int:
    """Servers in one of Meta's non-blocking pods: pod GPUs / GPUs per server.

    Args:
        gpus_per_server: GPUs per server (8 in Meta's Grand Teton servers).

    >>> meta_pod_servers()
    384
    """
    from .. import _validate as v

    g = v.integer("gpus_per_server", gpus_per_server, lo=1, hi=int(META_POD_GPUS.value))
    return int(META_POD_GPUS.value // g)


def llama3_dp_16k() -> int:
    """Data-parallel degree of :data:`LLAMA3_LAYOUT_16K`: GPUs / (TP x CP x PP)."""
    L = LLAMA3_LAYOUT_16K
    gpus = LLAMA3_MFU_GPUS["high"].value
    per_replica = L["tp"].value * L["cp"].value * L["pp"].value
    return int(gpus // per_replica)

KIM_DRAGONFLY_COST = {
    "folded Clos": Spec(0.52, "fraction", "derived", S.KIM_DRAGONFLY,
                           note="network cost reduction of a dragonfly against a folded Clos "
                                "(fat-tree), 16K nodes: the paper's own cost model, dominated "
                                "by global cables"),
    "flattened butterfly": Spec(0.20, "fraction", "derived", S.KIM_DRAGONFLY,
                                   note="network cost reduction of a dragonfly against a "
                                        "flattened butterfly, 16K nodes"),
}
"""Kim, Dally, Scott and Abts (ISCA 2008): cost reductions of a dragonfly (not switch
counts)."""

BEKMAN_B200_NODE_GAP = {
    "low": Spec(2.0, "count", "measured", S.STAS_NETWORK,
                note="all-reduce busbw, 1 node / 4 nodes of B200, messages >= 1 GiB (ratio)"),
    "high": Spec(2.2, "count", "measured", S.STAS_NETWORK,
                 note="all-reduce busbw, 1 node / 4 nodes of B200, messages >= 1 GiB (ratio)"),
}
"""Bekman's measured gap between one B200 node and four, at large messages: 2.0-2.2x."""

NVL72_HBM_TOTAL = Spec(13.4 * TB, "TB", "vendor peak", S.GB200_PAGE,
                       note="'Up to 13.4 TB HBM3e' for the 72 GPUs (launch materials said "
                            "13.5 TB)")

__all__ = ["META_CLUSTERS_COUNT", "META_CLUSTER_GPUS", "META_ENDPOINT_RATE", "META_POD_GPUS",
           "META_PODS", "META_AGG_OVERSUBSCRIPTION", "META_RACK_GPUS", "META_POD_RACKS",
           "META_FLOWS_PER_GPU_PAIR", "META_EECMP_ALLREDUCE_GAIN", "meta_pod_servers",
           "LLAMA3_STORAGE", "LLAMA3_CHECKPOINT_PER_GPU", "llama3_checkpoint_seconds",
           "llama3_dp_span_servers", "DEEPSEEK_V3_LINKS", "DEEPSEEK_V3_MAX_NODES_PER_TOKEN",
           "DEEPSEEK_V3_COMM_SMS", "LLAMA3_MFU", "LLAMA3_MFU_GPUS",
           "LLAMA3_405B_FABRIC", "LLAMA3_LAYOUT_16K", "llama3_dp_16k", "KIM_DRAGONFLY_COST", "BEKMAN_B200_NODE_GAP",
           "NVL72_HBM_TOTAL"]
