"""What NCCL does since 2.24: features, the release that brought each, and their defaults.

Each feature is a :class:`~interlib.specs._base.Status` whose date is the release tag's
date in NVIDIA/nccl (the release notes are the tags' commit messages), so Chapters 4, 6 and
8 can say since when a mechanism exists and whether a job gets it without asking.

>>> NCCL_FEATURES["symmetric memory kernels"].note.split(";")[0]
'NCCL 2.27.3'
"""

from __future__ import annotations

from . import sources as S
from ._base import Spec, Status


def _nccl(version, date, what, src=S.NCCL_RELEASE_NOTES):
    return Status("shipped", date, src, f"NCCL {version}; {what}")


NCCL_FEATURES = {
    "RAS": _nccl("2.24.3", "2024-12-18",
                 "a RAS thread tracks every communicator; the ncclras tool reports which "
                 "ranks and nodes are missing or stuck (on by default; JSON output 2.28.7)"),
    "symmetric memory kernels": _nccl(
        "2.27.3", "2025-05-29",
        "buffers registered with ncclCommWindowRegister(..., NCCL_WIN_COLL_SYMMETRIC) at "
        "the same offset on every rank get specialised low-latency kernels, first within "
        "one NVLink domain (P2P and NVLS), fp32 accumulation; opt-in by registration"),
    "Direct NIC": _nccl(
        "2.27.3", "2025-05-29",
        "the internal IB plugin drives ConnectX-8's Data Direct path, GPU to NIC through the "
        "NIC's own PCIe switch instead of the Grace CPU's PCIe (XDR speed detection 2.27.6)"),
    "ncclCommShrink": _nccl(
        "2.27.3", "2025-05-29",
        "a non-collective call like ncclCommSplit that drops (possibly unresponsive) ranks "
        "into a new communicator; ncclCommRevoke (2.28.7) quiesces a broken one first, "
        "ncclCommGrow (2.29.2) adds ranks back"),
    "CollNet AllGather / ReduceScatter": _nccl(
        "2.20.3", "2024-02-13",
        "all-gather and reduce-scatter through CollNet, NCCL's path to in-network reduction "
        "by a network plugin (InfiniBand SHARP with NVIDIA's plugin); all-reduce used "
        "CollNet before", src=S.NCCL_COLLNET_AGRS),
    "NVLS + IB SHARP for AllGather / ReduceScatter": _nccl(
        "2.27.3", "2025-05-29",
        "NVLink SHARP inside the domain and InfiniBand SHARP between domains for "
        "AllGather and ReduceScatter, with user buffer registration"),
    "device API": _nccl(
        "2.28.3", "2025-09-02",
        "experimental device-side API: load/store over NVLink (LSA), NVLink SHARP multicast "
        "(Multimem) and device communicators, so kernels communicate themselves"),
    "Inspector plugin": _nccl(
        "2.28.3", "2025-09-02",
        "a profiler plugin (NCCL_PROFILER_PLUGIN=...libnccl-profiler-inspector.so, "
        "NCCL_INSPECTOR_ENABLE=1) that writes one JSON record per collective of a running "
        "job: size, execution time and its timing source (GPU, or a CPU-timed fallback), "
        "algbw and busbw; Prometheus output (NCCL_INSPECTOR_PROM_DUMP=1) since 2.29.3; "
        "GPU-timed records only by default (NCCL_INSPECTOR_REQUIRE_KERNEL_TIMING=1) since "
        "2.30.3",
        src=S.NCCL_INSPECTOR),
    "GPU-initiated networking (GIN)": _nccl(
        "2.28.7", "2025-10-17",
        "device-side put, signal and counter operations over the network (DOCA GPUNetIO "
        "transport), for fused MoE all-to-all kernels such as DeepEP's"),
    "network planes": Status(
        "shipped", "2026-06-04", S.NCCL_PLANES,
        "NCCL 2.30.7; NCCL's graph search never connects two NICs of different planes (when "
        "both planes are known), and the IB plugin can take a NIC's plane from NCCL_IB_HCA; "
        "the net plugin API v12 of 2.30.3 (2026-04-14) had added the rail and plane fields, "
        "which the core did not yet use; 2.32.3 detects ConnectX-9's rails and planes "
        "itself"),
    "IB port failover": Status(
        "shipped", "2026-02-27", S.NCCL_PORT_FAILOVER,
        "NCCL 2.29.7; NCCL_IB_RESILIENCY_PORT_FAILOVER, off by default: on a retry-exceeded "
        "completion it moves the connection's QPs to the other devices of a multi-port net "
        "device and replays"),
}
"""NCCL features of the 2026 edition (Chapters 4, 6, 8), with the release and date."""

NCCL_SYMMETRIC_SMALL_MESSAGE_GAIN = Spec(
    9, "count", "vendor peak", S.NCCL_227_BLOG,
    note="'up to 9x reduction in latency for small message sizes' with NCCL 2.27's "
         "symmetric-memory kernels on NVLink (NVIDIA's own measurement, not reproduced here)")
"""How much lower NVIDIA reports small-message latency with symmetric memory (a ceiling:
'up to')."""

NCCL_IB_PORT_FAILOVER_DEFAULT = Spec(
    0, "count", "model constant", S.NCCL_PORT_FAILOVER,
    note="NCCL_IB_RESILIENCY_PORT_FAILOVER default (0 = off); MAX_ATTEMPTS 1, PROBE_DELAY 10 ms")
"""The port-failover switch's default: a job gets it only if it asks."""


NCCL_TESTS_JSON = Status(
    "shipped", "2025-10-17", S.NCCL_TESTS_JSON,
    "nccl-tests 2.17.3; '-J file.json' writes the run (command line, environment, NCCL "
    "version, ranks and devices) and every size's algbw, busbw, errors and timings as JSON")
"""nccl-tests' JSON output (Chapter 6): the same numbers as the text report, machine-readable."""


# ------------------------------------------------ the shape of NCCL's double binary tree
def nccl_tree_depth(nodes: int, gpus_per_node: int) -> int:
    """Hops from the deepest GPU to the root of one of NCCL's two trees, as NCCL computes
    it: a chain of ``gpus_per_node`` GPUs inside each node, then a binary tree over the
    ``nodes`` (``connect.cc``: ``depth = nRanks / nNodes - 1 + log2i(nNodes)``, with
    ``log2i`` the floor of log2; ``sources.NCCL_TREE_SRC``).

    Args:
        nodes: Nodes (NVLink domains) in the communicator, 1..65536.
        gpus_per_node: GPUs per node, 1..576.

    >>> nccl_tree_depth(128, 8)
    14
    """
    from .. import _validate as v

    k = v.integer("nodes", nodes, lo=1, hi=65536)
    g = v.integer("gpus_per_node", gpus_per_node, lo=1, hi=576)
    return (g - 1) + (k.bit_length() - 1)


def nccl_tree_steps(nodes: int, gpus_per_node: int) -> int:
    """Step latencies NCCL charges a tree all-reduce (reduce up, broadcast down):
    ``2 x ((g - 1) + floor(log2 k))`` (``tuning.cc``: ``2 * ((nRanks/nNodes - 1) * intraLat
    + log2i(nNodes) * interLat)``). Logarithmic in nodes, linear in GPUs per node: on 128
    nodes of 8 GPUs it is 2 x (7 + 7) = 28, not the 2 x log2(1024) = 20 of a binary tree
    over all 1,024 GPUs.

    >>> nccl_tree_steps(128, 8), nccl_tree_steps(1024, 1)
    (28, 20)
    """
    return 2 * nccl_tree_depth(nodes, gpus_per_node)

