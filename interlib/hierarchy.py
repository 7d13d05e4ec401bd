"""The bandwidth ladder: the links a GPU's bytes can take, per direction, peak and achieved.

Chapter 1 compares a few rungs for gradient sync; Chapter 7 climbs the whole ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _validate as v
from .specs import PCIE, PCIE_HOST_COPY_EFFICIENCY, NVLINK, calibration as C, system


@dataclass(frozen=True)
class Rung:
    """One kind of link as one GPU sees it.

    Attributes:
        name: Display name.
        peak: Line rate per GPU, bytes/s per direction.
        effective: What applications achieve, bytes/s per direction.
        latency: Per-hop latency used in alpha-beta models, s.
        basis: How ``effective`` and ``latency`` were obtained.
    """

    name: str
    peak: float
    effective: float
    latency: float
    basis: str

    @property
    def efficiency(self) -> float:
        """effective / peak."""
        return self.effective / self.peak


def _hop(kind: str) -> float:
    return C.HOP_LATENCY[(kind, "ring", "Simple")].value


def link_options() -> dict[str, Rung]:
    """The four links Chapter 1 compares, per GPU and per direction.

    * PCIe 5.0 x16: usable rate after 128b/130b; achieved = measured host-copy efficiency.
    * NVLink 4 (H100) and NVLink 5 (B200): line rate = links x per-link rate; achieved =
      links x NCCL's per-link effective bandwidth (topo.h).
    * InfiniBand NDR, one 400 Gb/s NIC per GPU: achieved = NCCL's NET efficiency.
    Latencies are NCCL's per-hop Ring/Simple latencies (tuning.cc).
    """
    pcie5 = PCIE["5.0"]
    nic = system("dgx-h100").nic
    out = {
        "PCIe 5.0 x16": Rung("PCIe 5.0 x16", pcie5.usable_per_direction(16),
                             pcie5.usable_per_direction(16) * PCIE_HOST_COPY_EFFICIENCY.value,
                             _hop("pcie"), "usable rate x measured host-copy efficiency"),
    }
    for gen in (4, 5):
        nv = NVLINK[gen]
        out[f"NVLink {gen}"] = Rung(f"NVLink {gen}", nv.per_gpu_per_direction,
                                    nv.per_gpu_effective, _hop("nvlink"),
                                    "links x NCCL's effective per-link bandwidth")
    out["InfiniBand NDR (1 NIC/GPU)"] = Rung(
        "InfiniBand NDR (1 NIC/GPU)", nic.rate.value, nic.rate.value * C.NET_EFFICIENCY.value,
        _hop("net"), "port rate x NCCL's network efficiency")
    return out


def link(name: str) -> Rung:
    """One of :func:`link_options` by name."""
    opts = link_options()
    return opts[v.choice("name", name, opts)]


def link_table():
    """Chapter 1's spec table: the four links, per GPU, per direction, line rate vs achieved
    (a :class:`~interlib.display.Table` generated from the catalogue)."""
    from .display import Table, fmt_pct, fmt_rate, fmt_time

    rows = [[r.name, fmt_rate(r.peak), fmt_rate(2 * r.peak), fmt_rate(r.effective),
             fmt_pct(r.efficiency), fmt_time(r.latency), r.basis]
            for r in link_options().values()]
    return Table(["link", "line rate, per direction", "both directions added",
                  "achieved, per direction", "achieved / line rate", "per-hop latency",
                  "how achieved is obtained"], rows,
                 "Sources: PCI-SIG and Azure nvbandwidth (PCIe); NVIDIA NVLink pages and NCCL "
                 "topo.h (NVLink); ConnectX-7 docs and NCCL topo.h (InfiniBand); NCCL "
                 "tuning.cc (latencies).")
