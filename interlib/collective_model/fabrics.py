"""The network under a collective and what its plugin adds: the fabric's kind, the latency
the plugin reports to NCCL (and, for GPUDirect-TCPXO, what it adds without reporting it),
the latency a network step really takes where the plugin's vendor states it (AWS's tuner
model for the RDMA protocol of p5/p5e/p5en) and the flush NCCL adds to a Simple receive,
the vendor profiles that bind NCCL's buffer, algorithms and protocols, and AWS's region
tuner, which picks the algorithm itself on P6.

Sources: NCCL's net plugin API (``latency`` in the plugin's properties, added to every
network step by ``tuning.cc``), Google's TCPXO release notes
(:data:`interlib.specs.calibration.TCPXO_PROFILES`), aws-ofi-nccl's ``nccl_ofi_regions.cpp``
(``interlib.specs.calibration.AWS_TUNER_P6_ALL_REDUCE``), aws-ofi-nccl's tuner model
(``src/tuner/nccl_ofi_model.cpp`` @ v1.16.0, ``include/nccl_ofi_tuner.h`` @ v1.8.1-aws) and
NCCL's ``ncclTopoNeedFlush`` (``src/graph/paths.cc``).
"""

from __future__ import annotations

import math

from .. import _validate as v
from ..specs import System, calibration as C
from ..specs import nccl_tuning as T
from .calibrated import cal


def fabric_kind(sys_: System) -> str:
    """The network kind that sets the plugin latency: ``InfiniBand``, ``Ethernet``, ``EFA``
    or ``GPUDirect-TCPXO`` (a NIC sold for both IB and Ethernet counts as InfiniBand)."""
    f = sys_.nic.fabric
    for kind in ("GPUDirect-TCPXO", "EFA", "InfiniBand", "Ethernet"):
        if f.startswith(kind):
            return kind
    return "InfiniBand"


def plugin_latency(sys_: System, nccl_view: bool = False) -> float:
    """The network plugin's latency per inter-node step, seconds: what the plugin reports
    to NCCL (``interlib.specs.calibration.NET_PLUGIN_LATENCY``, by fabric and, for EFA, by
    generation: 75 us on the 100 Gb/s ports of p4d and p5, 35 us on p5en and p6;
    ``tuning.cc`` adds it to every network step, twice for Simple), plus, in the book's view over
    GPUDirect-TCPXO, the calibrated per-step latency TCP adds that the plugin does not
    report (``TCPXO_STEP_LATENCY``)."""
    kind = fabric_kind(sys_)
    if kind == "EFA" and sys_.nic.rate.value <= C.EFA_100G_MAX_RATE:
        kind = "EFA 100G"  # aws-ofi-nccl's p4d/p5 platforms: 75 us, not the p5en/p6 35
    plugin = C.NET_PLUGIN_LATENCY[kind].value
    if fabric_kind(sys_) == "GPUDirect-TCPXO" and not nccl_view:
        # what TCP adds per step but the plugin does not tell NCCL (calibrated)
        plugin += cal("TCPXO_STEP_LATENCY")
    return plugin


def aws_rdma_platform(sys_: System) -> str | None:
    """The aws-ofi-nccl platform whose tuner model states the latency of an EFA step of the
    plugin's RDMA protocol (a key of
    ``interlib.specs.calibration.AWS_TUNER_NET_LATENCY``), or None.

    The plugin runs its RDMA protocol on EFA when a node has more EFA devices than GPUs
    (``num_accelerators < ofi_ndevices``: ``src/nccl_ofi_net.c:980-985`` @ v1.8.1-aws; p5 has
    32 EFA ports for 8 GPUs) and SENDRECV otherwise (p4d: 4 for 8); AWS's tuner model
    states the RDMA step's latency for P5/P5e (100 Gb/s ports) and P5en (200 Gb/s).

    >>> from interlib.specs import custom
    >>> aws_rdma_platform(custom.node(gpu="h100-sxm", gpus_per_node=8, nics_per_node=32,
    ...                               nic_gbps=100, fabric="EFA"))
    'p5/p5e'
    """
    if fabric_kind(sys_) != "EFA" or sys_.nics_per_node <= sys_.gpus_per_node:
        return None
    if sys_.nic.rate.value <= C.EFA_100G_MAX_RATE:
        return "p5/p5e"
    if sys_.nic.rate.value <= 2 * C.EFA_100G_MAX_RATE:
        return "p5en"
    return None


def flushes(sys_: System, version: str | None) -> bool:
    """Whether NCCL flushes a GPUDirect network receive of the Simple protocol here
    (``ncclTopoNeedFlush``, ``src/graph/paths.cc:413`` @ v2.19.1-1): always below compute
    capability 9.0 (Ampere), on Hopper and later only before NCCL 2.19.1, when
    ``NCCL_NET_FORCE_FLUSH`` still defaulted to 1 (``paths.cc:403`` @ v2.18.5-1). A release
    not stated counts as a current one (no flush on Hopper). The run's release as the
    tuner reads it (:func:`~interlib.collective_model.tuner.version_of`, the newest read
    release not newer than the stated one) gives the same answer as the stated version,
    since the first release without the flush, 2.19.1, is one of those read."""
    if sys_.gpu.arch in C.NCCL_FLUSH_ALWAYS_ARCHS:
        return True
    if version is None:
        return False
    return T.parse_version(version) < T.parse_version(C.NCCL_FLUSH_OFF_ON_HOPPER_FROM)


def step_latency(sys_: System, protocol: str, nccl_view: bool = False,
                 version: str | None = None) -> float:
    """The latency the network plugin adds to one inter-node step of ``protocol``, seconds.

    * NCCL's own estimate (``nccl_view``): the latency the plugin reports
      (:func:`plugin_latency`), twice for Simple (``tuning.cc``: "Also add the flush extra
      latency", every release);
    * the book's timing: ``L + [Simple] (c + [flush] L)``, with ``L`` the step's latency
      (AWS's tuner model's ``net_lat`` on an RDMA-protocol EFA platform,
      :func:`aws_rdma_platform`: 20 us on p5/p5e, not the 75 us the plugin reports by
      design; else :func:`plugin_latency`, with TCPXO's calibrated addition), ``c`` that
      model's completion overhead of a Simple step (3 us; 0 elsewhere) and the second ``L``
      only where NCCL flushes a Simple receive (:func:`flushes`: A100, or Hopper before
      NCCL 2.19.1). So two p5 nodes' tree/LL takes ``2 x (hwLat + 20 us)`` on the network
      where NCCL counts ``2 x (hwLat + 75 us)``.
    """
    reported = plugin_latency(sys_, nccl_view)
    if nccl_view:
        return reported * (2 if protocol == "Simple" else 1)
    platform = aws_rdma_platform(sys_)
    lat = C.AWS_TUNER_NET_LATENCY[platform].value if platform else reported
    if protocol != "Simple":
        return lat
    comp = C.AWS_TUNER_NET_COMP_OVERHEAD.value if platform else 0.0
    return lat + comp + (lat if flushes(sys_, version) else 0.0)


def buffsize_scale(sys_: System, algorithm: str, protocol: str, k: int) -> float:
    """How much larger than NCCL's default 4 MiB the Simple buffer is (``NCCL_BUFFSIZE``:
    the run's own setting, or a vendor profile's across nodes), for a ring's or a tree's
    Simple protocol: their chunks, and so the pipeline window, grow in proportion. NVLS and
    NVLSTree cut theirs from ``NCCL_NVLS_CHUNKSIZE`` instead (``enqueue.cc``), so the buffer
    leaves them alone (1.0)."""
    buff_scale = 1.0
    if protocol == "Simple" and algorithm in ("ring", "tree"):
        buff = getattr(sys_, "buffsize", None)
        if buff is None and k > 1 and fabric_kind(sys_) in C.FABRIC_BUFFSIZE:
            buff = C.FABRIC_BUFFSIZE[fabric_kind(sys_)].value
        if buff is not None:
            buff_scale = buff / C.NCCL_DEFAULT_BUFFSIZE.value
    return buff_scale


def profile(sys_: System, k: int):
    """The cloud profile's settings that bind this run (a dict of
    :data:`~interlib.specs.calibration.TCPXO_PROFILES`), or None: only a multi-node run over
    GPUDirect-TCPXO is bound by one (only such a node has a ``tcpxo_profile``)."""
    name = getattr(sys_, "tcpxo_profile", None)
    return C.TCPXO_PROFILES[name] if k > 1 and name is not None else None


def _inside(x: float, y: float, poly) -> bool:
    """Whether ``(x, y)`` lies in the polygon ``poly`` or on its edge (even-odd rule), all
    in log2 coordinates as aws-ofi-nccl's ``is_inside_region``."""
    pts = [(math.log2(max(px, 1e-300)) if px > 0 else -1e9, math.log2(py)) for px, py in poly]
    inside = False
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        dx, dy = x1 - x0, y1 - y0
        t = ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy or 1.0)
        t = min(1.0, max(0.0, t))
        if math.hypot(x - x0 - t * dx, y - y0 - t * dy) < 1e-10:
            return True  # on an edge counts as inside (in_out >= 0)
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * dx / dy:
            inside = not inside
    return inside


def aws_tuner_choice(size_bytes: float, ranks: int):
    """The (algorithm, protocol) AWS's region tuner picks for an all-reduce on P6 (p6-b200,
    8 GPUs per node, EFA) at one size and rank count, or None where it defers to NCCL.

    From aws-ofi-nccl's ``nccl_ofi_regions.cpp``
    (``interlib.specs.calibration.AWS_TUNER_P6_ALL_REDUCE``); NVLSTree is ``"nvls_tree"``.

    >>> aws_tuner_choice(64 * 2**10, 32), aws_tuner_choice(2**30, 32)
    (('tree', 'LL'), ('ring', 'Simple'))
    >>> aws_tuner_choice(2**28, 32)
    ('nvls_tree', 'Simple')
    """
    v.positive("size_bytes", size_bytes)
    r = v.integer("ranks", ranks, lo=1)
    x, y = math.log2(float(size_bytes)), math.log2(r)
    for alg, proto, poly in C.AWS_TUNER_P6_ALL_REDUCE:
        if _inside(x, y, poly):
            return alg, proto
    return None


def aws_tuned(sys_, collective, g, k) -> bool:
    """Whether AWS's region tuner chooses here: all-reduce, B200 nodes of 8 GPUs on EFA
    (the P6 platform table), more than two nodes."""
    return (collective == "all_reduce" and fabric_kind(sys_) == "EFA" and sys_.gpu.name == "B200"
            and g == 8 and k >= C.AWS_TUNER_MIN_NODES.value)
