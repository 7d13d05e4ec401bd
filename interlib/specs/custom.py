"""The reader's own node: a :class:`~interlib.specs.System` built from catalogue parts.

:func:`node` assembles a node that is not in the catalogue (a cloud instance, a PCIe
server, a partition of an NVL72 rack) from a catalogue GPU, the way its GPUs talk to each
other, and its scale-out NICs. The result works wherever a catalogue system does:
:func:`interlib.collectives.predict`, :func:`interlib.steptime.step_time` and
:func:`interlib.capstone.design`.

    >>> from interlib.specs import custom
    >>> n = custom.node("h100-sxm", 8, nics_per_gpu=1, nic_gbps=200, fabric="Ethernet")
    >>> n.nics_per_node, n.nic.rate.value / 1e9
    (8, 25.0)
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from .. import _validate as v
from ..units import Gbit_per_s
from . import calibration as C
from . import sources as S
from ._base import Spec
from .hardware import GPU, GPUS, NIC, System

INTRA = ("nvswitch", "pcie", "nvlink-bridge")
"""How the GPUs of one node reach each other, through NVSwitch (every GPU at its full
NVLink rate), over PCIe only, or PCIe cards paired by an NVLink bridge."""

FABRICS = ("InfiniBand", "Ethernet", "EFA", "GPUDirect-TCPXO")
"""The scale-out networks a node may use, InfiniBand, Ethernet with RoCE (RDMA over Converged Ethernet),
AWS's EFA (SRD transport through the aws-ofi-nccl plugin), or Google Cloud's
GPUDirect-TCPXO (TCP over Ethernet through Google's NCCL plugin, A3 Mega)."""

NVSWITCH_FOR_NVLINK = {3: 2, 4: 3, 5: 4}
"""NVSwitch generation that serves each NVLink generation (A100: 2, H100/H200: 3,
Blackwell: 4; :data:`interlib.specs.NVSWITCH`)."""

MAX_NVSWITCH_GPUS = {3: 8, 4: 8, 5: 72}
"""Largest NVSwitch node per NVLink generation in the catalogue: an 8-GPU HGX baseboard
for NVLink 3 and 4, a GB200 NVL72 rack (72 GPUs in trays of 4) for NVLink 5."""

TRAY_GPUS = 4
"""GPUs per compute tray in a rack-scale NVLink domain (GB200 NVL72: 18 trays of 4)."""

BRIDGE_LINKS = Spec(12, "count", "vendor peak", S.NVLINK_BRIDGE,
                    note="600 GB/s bidirectional = 12 links x 50 GB/s (25 GB/s per direction per link)")
"""NVLink links an NVLink bridge gives a pair of PCIe cards."""

CUSTOM_SOURCE = S.CUSTOM_NODE


@dataclass(frozen=True)
class Node(System):
    """A :class:`~interlib.specs.System` with the two facts a catalogue system leaves
    implicit: its network kind and whether PCIe cards are paired by an NVLink bridge.

    Attributes:
        fabric: One of :data:`FABRICS`: the fabric of its NIC (``nic.fabric``), which is what
            the models read; a node whose NIC says otherwise is refused.
        nvlink_bridge: Pairs of PCIe cards joined by an NVLink bridge (``intra`` is then
            ``"pcie"``: beyond a pair, traffic crosses PCIe).
        tcpxo_profile: With GPUDirect-TCPXO, which of Google's recommended NCCL profiles
            the node runs (:data:`interlib.specs.calibration.TCPXO_PROFILES`); else None.
        buffsize: ``NCCL_BUFFSIZE`` the run sets, bytes (None: NCCL's default, or the
            cloud profile's).
        nccl_version: The NCCL version the node runs, ``"2.28.9"`` (None: a current one),
            where NCCL's tuning tables changed between versions.
    """

    fabric: str = "InfiniBand"
    nvlink_bridge: bool = False
    tcpxo_profile: str | None = None
    buffsize: int | None = None
    nccl_version: str | None = None

    def __post_init__(self):
        super().__post_init__()
        v.choice("fabric", self.fabric, FABRICS)
        if self.nic.fabric != self.fabric:
            raise ValueError(f"fabric={self.fabric!r} is out of range: must be the NIC's "
                             f"fabric, {self.nic.fabric!r}")
        v.flag("nvlink_bridge", self.nvlink_bridge)
        if self.fabric == "GPUDirect-TCPXO":
            v.choice("tcpxo_profile", self.tcpxo_profile, tuple(C.TCPXO_PROFILES))
        elif self.tcpxo_profile is not None:
            raise ValueError(f"tcpxo_profile={self.tcpxo_profile!r} is only for "
                             f"fabric='GPUDirect-TCPXO' (fabric is {self.fabric!r}): "
                             "leave it None")
        if self.buffsize is not None:
            v.integer("buffsize", self.buffsize, lo=BUFFSIZE_RANGE[0], hi=BUFFSIZE_RANGE[1])
        if self.nccl_version is not None and not (
                isinstance(self.nccl_version, str)
                and re.fullmatch(r"2\.\d+\.\d+", self.nccl_version)):
            raise ValueError(f"nccl_version={self.nccl_version!r} must be a version like "
                             "'2.28.9', or None")

    @property
    def bridge_effective(self) -> float:
        """Effective per-direction rate of the NVLink bridge between two cards, bytes/s:
        :data:`BRIDGE_LINKS` links at NCCL's effective per-link rate."""
        nvl = self.gpu.nvlink
        return BRIDGE_LINKS.value * nvl.per_gpu_effective / nvl.links_per_gpu.value


def intra_of(system: System) -> str:
    """How the GPUs of ``system`` reach each other, in :data:`INTRA`'s words (what
    :func:`node` takes as ``intra``): ``"nvlink-bridge"`` for PCIe cards paired by an NVLink
    bridge, else ``system.intra``. A catalogue system has no bridge.

        >>> from interlib.specs import custom
        >>> custom.intra_of(custom.node("h100-sxm", 4, intra="nvlink-bridge"))
        'nvlink-bridge'
        >>> custom.intra_of(custom.node("h100-sxm", 4, intra="pcie"))
        'pcie'
    """
    v.instance("system", system, System, "an interlib.specs.System")
    return "nvlink-bridge" if getattr(system, "nvlink_bridge", False) else system.intra


BUFFSIZE_RANGE = (64 * 1024, 1024 * 2**20)
"""``NCCL_BUFFSIZE`` values a node accepts, bytes: 64 KiB .. 1 GiB (NCCL's default is
4 MiB)."""


def _gpu(gpu) -> GPU:
    if isinstance(gpu, GPU):
        return gpu
    return GPUS[v.choice("gpu", gpu, GPUS)]


def node(gpu="h100-sxm", gpus_per_node: int = 8, *, nics_per_node: int | None = None,
         nics_per_gpu: float | None = None, nic_gbps: float = 400.0,
         fabric: str = "InfiniBand", intra: str = "nvswitch", name: str = "custom",
         tcpxo_profile: str | None = None, buffsize: int | None = None,
         nccl_version: str | None = None) -> Node:
    """A node of your own design, checked against what can be built.

    Args:
        gpu: GPU catalogue id (:data:`interlib.specs.hardware.GPUS`) or a :class:`~interlib.specs.GPU`.
        gpus_per_node: GPUs in the node (one NVLink domain): 1..8 for an NVSwitch
            baseboard with NVLink 3 or 4, up to 72 (a multiple of 4 above 8: trays of 4)
            with NVLink 5, 1..8 over PCIe, 2..8 and even with NVLink bridges.
        nics_per_node: Scale-out NICs in the node, 1..4 per GPU. Give this or
            ``nics_per_gpu``, not both (default: one NIC per GPU).
        nics_per_gpu: NICs per GPU, 0.125..4; ``gpus_per_node x nics_per_gpu`` must be a
            whole number.
        nic_gbps: Port rate of each NIC, Gb/s per direction, 10..1600.
        fabric: ``"InfiniBand"``, ``"Ethernet"`` (RoCE), ``"EFA"`` or
            ``"GPUDirect-TCPXO"``.
        intra: ``"nvswitch"``, ``"pcie"`` or ``"nvlink-bridge"`` (:data:`INTRA`).
        name: Id of the result.
        tcpxo_profile: Only with ``fabric="GPUDirect-TCPXO"``: Google's recommended NCCL
            settings the node runs, ``"2025-08"`` (the current profile, the default: LL128
            and Simple, NVLSTree allowed) or ``"2024-10"`` (the profile of the NCCL 2.21.5
            installers: Ring and Tree only, Simple only, NVLS off);
            :data:`interlib.specs.calibration.TCPXO_PROFILES`.
        buffsize: ``NCCL_BUFFSIZE`` in bytes, when the run sets it (:data:`BUFFSIZE_RANGE`;
            default None: NCCL's 4 MiB, or the cloud profile's). NCCL cuts a ring's and a
            tree's Simple chunks from this buffer, so the model's pipeline window for them
            scales with it.
        nccl_version: The NCCL version the run used (``"2.27.3"``), where NCCL's tuning
            tables differ by version (Blackwell's tree caps changed in 2.28.3); default
            None: a current NCCL.

    Returns:
        A :class:`Node`, usable wherever a catalogue system is.

    Raises:
        ValueError: naming the argument, its value and what is allowed.

    >>> node("gb200", 72).servers_per_node
    18
    >>> node("h100-sxm", 16)
    Traceback (most recent call last):
    ...
    ValueError: gpus_per_node=16 is out of range for an NVSwitch node of H100 SXM (NVLink 4): 1..8 (NVLink 5 domains go to 72)
    """
    g = _gpu(gpu)
    v.instance("name", name, str, "a string (the id of the result)")
    v.choice("intra", intra, INTRA)
    v.choice("fabric", fabric, FABRICS)
    n = v.integer("gpus_per_node", gpus_per_node, lo=1, hi=72)
    per_server = n
    if intra == "nvswitch":
        top = MAX_NVSWITCH_GPUS.get(g.nvlink_gen)
        if top is None:
            raise ValueError(f"intra='nvswitch' is not available for {g.name} (NVLink "
                             f"{g.nvlink_gen}): NVSwitch nodes need NVLink 3 or later")
        if n > top:
            raise ValueError(f"gpus_per_node={n} is out of range for an NVSwitch node of "
                             f"{g.name} (NVLink {g.nvlink_gen}): 1..{top} (NVLink 5 domains "
                             "go to 72)")
        if n > 8:
            if n % TRAY_GPUS:
                raise ValueError(f"gpus_per_node={n} is out of range: above 8 an NVLink "
                                 f"domain is built of {TRAY_GPUS}-GPU trays, so it must be "
                                 f"a multiple of {TRAY_GPUS} (12, 16, ..., 72)")
            per_server = TRAY_GPUS
    elif n > 8:
        raise ValueError(f"gpus_per_node={n} is out of range for intra={intra!r}: 1..8")
    if intra == "nvlink-bridge" and (n < 2 or n % 2):
        raise ValueError(f"gpus_per_node={n} is out of range for intra='nvlink-bridge': "
                         "an even number 2..8 (the bridge joins cards in pairs)")
    if nics_per_node is not None and nics_per_gpu is not None:
        raise ValueError(f"nics_per_node={nics_per_node!r} and nics_per_gpu={nics_per_gpu!r}"
                         ": give one of them, not both")
    if nics_per_node is None:
        per_gpu = 1.0 if nics_per_gpu is None else v.number("nics_per_gpu", nics_per_gpu,
                                                            lo=0.125, hi=4.0)
        total = n * per_gpu
        if abs(total - round(total)) > 1e-9 or round(total) < 1:
            raise ValueError(f"nics_per_gpu={nics_per_gpu!r} is out of range for "
                             f"gpus_per_node={n}: gpus_per_node x nics_per_gpu must be a "
                             "whole number >= 1")
        nics = int(round(total))
    else:
        nics = v.integer("nics_per_node", nics_per_node, lo=1, hi=4 * n)
    rate = v.number("nic_gbps", nic_gbps, lo=10.0, hi=1600.0)
    if fabric == "GPUDirect-TCPXO" and tcpxo_profile is None:
        tcpxo_profile = C.TCPXO_DEFAULT_PROFILE  # Node checks it against the fabric
    src = S.IEEE_8023 if fabric != "InfiniBand" else S.IB_ROADMAP
    nic = NIC(f"{rate:g} Gb/s {fabric} NIC",
              Spec(float(rate) * Gbit_per_s, "Gbit_per_s", "derived", src, "per direction",
                   "reader-chosen port rate"), fabric)
    link = {"nvswitch": "NVSwitch", "pcie": "PCIe", "nvlink-bridge": "PCIe + NVLink bridges"}
    title = f"{n} x {g.name}, {link[intra]}, {nics} x {rate:g}G {fabric}"
    return Node(name, title, g, n, "nvswitch" if intra == "nvswitch" else "pcie",
                NVSWITCH_FOR_NVLINK.get(g.nvlink_gen) if intra == "nvswitch" else None,
                nics, nic, CUSTOM_SOURCE, gpus_per_server=per_server, fabric=fabric,
                nvlink_bridge=intra == "nvlink-bridge", tcpxo_profile=tcpxo_profile,
                buffsize=buffsize, nccl_version=nccl_version)
