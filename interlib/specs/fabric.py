"""Scale-out switches and the DGX SuperPOD scalable unit."""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ..units import Gbit_per_s
from . import sources as S
from ._base import Spec


@dataclass(frozen=True)
class Switch:
    """A scale-out switch ASIC/box.

    Attributes:
        name: Display name.
        fabric: ``"InfiniBand"`` or ``"Ethernet"``.
        ports: Ports at ``port_rate``.
        port_rate: bytes/s per direction per port (stored in Gb/s, as vendors quote it).
    """

    name: str
    fabric: str
    ports: Spec
    port_rate: Spec

    @property
    def capacity_per_direction(self) -> float:
        """ports x port rate, bytes/s per direction (vendors often quote this in Tb/s)."""
        return self.ports.value * self.port_rate.value


SWITCHES = {
    "quantum-2": Switch("NVIDIA Quantum-2 (NDR)", "InfiniBand",
                        Spec(64, "count", "vendor peak", S.QUANTUM2,
                             note="or 128 ports at 200 Gb/s"),
                        Spec(400 * Gbit_per_s, "Gbit_per_s", "vendor peak", S.QUANTUM2,
                             "per direction")),
    "spectrum-4": Switch("NVIDIA Spectrum-4 SN5600", "Ethernet",
                         Spec(64, "count", "secondary", S.SPECTRUM4),
                         Spec(800 * Gbit_per_s, "Gbit_per_s", "secondary", S.SPECTRUM4,
                              "per direction")),
}

SUPERPOD_SU = {
    "nodes_per_su": Spec(32, "count", "secondary", S.SUPERPOD_RA,
                         note="DGX H100 nodes per scalable unit (8 GPUs each)"),
    "leaves_per_su": Spec(8, "count", "secondary", S.SUPERPOD_RA),
    "sus_per_pod": Spec(4, "count", "secondary", S.SUPERPOD_RA,
                        note="four SUs under one spine layer make 1,024 GPUs"),
    "spines": Spec(16, "count", "secondary", S.SUPERPOD_RA),
}


def switch(name: str) -> Switch:
    """Look up a switch by id (``"quantum-2"``, ``"spectrum-4"``)."""
    return SWITCHES[v.choice("name", name, SWITCHES)]
