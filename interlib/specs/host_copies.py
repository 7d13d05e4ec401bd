"""Measured PCIe host<->device copies and the host-copy efficiency derived from them
(catalogue; Chapter 2). Below :mod:`.hardware` and :mod:`.inside_box`, which both use
:data:`PCIE_HOST_COPY_EFFICIENCY`."""

from __future__ import annotations

from dataclasses import dataclass

from ..units import GB_per_s
from . import sources as S
from ._base import Spec
from .links import PCIE


# ------------------------------------------------------------ PCIe host <-> device
@dataclass(frozen=True)
class HostCopy:
    """A published host<->device copy measurement (pinned memory, copy engine).

    Attributes:
        system: Where it was measured.
        pcie_gen: PCIe generation of the GPU's link, e.g. ``"5.0"``.
        lanes: Link width.
        h2d: Host-to-device bandwidth, per direction.
        d2h: Device-to-host bandwidth, per direction.
    """

    system: str
    pcie_gen: str
    lanes: int
    h2d: Spec
    d2h: Spec


def _measured(gbs, src, note):
    """A measured bandwidth in GB/s, per direction (host copies and busbw alike)."""
    return Spec(gbs * GB_per_s, "GB_per_s", "measured", src, "per direction", note)


HOST_COPIES = {
    "azure-nd-h100-v5": HostCopy(
        "Azure ND H100 v5 (8 x H100 SXM)", "5.0", 16,
        _measured(51, S.AZURE_BENCH, "nvbandwidth host_to_device_memcpy_ce"),
        _measured(52, S.AZURE_BENCH, "nvbandwidth device_to_host_memcpy_ce")),
    "azure-nd-h200-v5": HostCopy(
        "Azure ND H200 v5 (8 x H200)", "5.0", 16,
        _measured(52, S.AZURE_H200_BENCH, "nvbandwidth host_to_device_memcpy_ce"),
        _measured(52, S.AZURE_H200_BENCH, "nvbandwidth device_to_host_memcpy_ce")),
    "bekman-h200": HostCopy(
        "8 x H200 node (Bekman)", "5.0", 16,
        _measured(55.43, S.STAS_NETWORK, "nvbandwidth host_to_device_memcpy_ce"),
        _measured(55.06, S.STAS_NETWORK, "nvbandwidth device_to_host_memcpy_ce")),
}
"""Measured host<->device copies on PCIe 5.0 x16. (The ND A100 v4 Gen 4 device-to-host
figure, 6.27 GB/s, looks like a platform artefact and is deliberately left out.)"""


def _host_copy_efficiency() -> Spec:
    """Measured host-to-device copy rate over the usable line rate, PCIe 5.0 x16, derived
    from the Azure ND H100 v5 entry of :data:`HOST_COPIES` (the
    lowest of the published measurements relative to the usable rate)."""
    m = HOST_COPIES["azure-nd-h100-v5"]
    usable = PCIE[m.pcie_gen].usable_per_direction(m.lanes)
    return Spec(m.h2d.value / usable, "fraction", "derived", m.h2d.source,
                note=f"{m.system}: host-to-device {m.h2d.value / GB_per_s:g} GB/s measured "
                     f"({m.h2d.note}) over {usable / GB_per_s:.3g} GB/s usable "
                     f"({PCIE[m.pcie_gen].name} x{m.lanes}, {PCIE[m.pcie_gen].encoding})")


PCIE_HOST_COPY_EFFICIENCY = _host_copy_efficiency()
"""Measured host-to-device copy rate over PCIe 5.0 x16's usable line rate (lives here,
not in :mod:`.links`, so that links never imports the measurements)."""


def pcie_achieved_per_direction(gen: str, lanes: int = 16) -> float:
    """Modelled host-copy rate over a PCIe link, bytes/s per direction (issue 28, error 4).

    The generation's TLP payload bandwidth on one basis for every generation
    (:meth:`~interlib.specs.links.PCIeGen.payload_per_direction`: 256-B payloads, 16-B
    headers) x the measured Gen 5 copy over Gen 5's payload bandwidth. For Gen 3-5 this
    equals usable x :data:`PCIE_HOST_COPY_EFFICIENCY` (their payload share is the same
    fraction of their usable rate); for Gen 6 it carries the measured efficiency over on
    the basis that also counts the flit's link-layer and FEC bytes, instead of applying it
    to a usable rate that already excludes them.

    Args:
        gen: ``"3.0"`` ... ``"6.0"``.
        lanes: Link width.
    """
    from .. import _validate as v

    g = PCIE[v.choice("gen", gen, PCIE)]
    m = HOST_COPIES["azure-nd-h100-v5"]
    measured_share = m.h2d.value / PCIE[m.pcie_gen].payload_per_direction(m.lanes)
    return g.payload_per_direction(lanes) * measured_share
