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
    "NVLS + IB SHARP for AllGather / ReduceScatter": _nccl(
        "2.27.3", "2025-05-29",
        "NVLink SHARP inside the domain and InfiniBand SHARP between domains for "
        "AllGather and ReduceScatter, with user buffer registration"),
    "device API": _nccl(
        "2.28.3", "2025-09-02",
        "experimental device-side API: load/store over NVLink (LSA), NVLink SHARP multicast "
        "(Multimem) and device communicators, so kernels communicate themselves"),
    "GPU-initiated networking (GIN)": _nccl(
        "2.28.7", "2025-10-17",
        "device-side put, signal and counter operations over the network (DOCA GPUNetIO "
        "transport), for fused MoE all-to-all kernels such as DeepEP's"),
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
