"""How the parts of a node or rack are wired: the facts the book's drawn diagrams need that
no count elsewhere in the catalogue states (which GPU shares a PCIe switch with which NIC,
under which CPU socket; how many NVLink ports an NVL72 switch tray has).

Every figure is a :class:`~interlib.specs.Spec` (or a tuple of them) with its source, as in
the rest of the catalogue. The diagrams in :mod:`interlib.plots.diagrams` draw from here and
from :mod:`.hardware` / :mod:`.inside_box`, so a corrected fact redraws the picture.

The sources are defined here (not in :mod:`.sources`) because this module was added
alongside the diagrams; they follow the same :class:`~interlib.specs.Source` form.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from . import sources as S
from ._base import Source, Spec

DGX_H100_USER_GUIDE = Source(
    "NVIDIA DGX H100 User Guide, section 1.2.3 Network Modules, Table 6 (as reproduced by "
    "easymanua.ls)",
    "https://www.easymanua.ls/nvidia/dgx-h100/manual?p=19",
    "Two network modules, each consolidating four ConnectX-7 cards, sit on an interposer "
    "board that connects to the CPUs on one end and to the GPU tray on the other. Table 6 "
    "maps every compute port to its ConnectX device, its network module / CPU (0 or 1) and "
    "its GPU: GPUs 0-3 on module/CPU 0, GPUs 4-7 on module/CPU 1, one ConnectX-7 per GPU.")
VENGINEER_CX7 = Source(
    "vengineer (Hatena blog), NVIDIA DGX H100 ConnectX-7 x 4 network module, 2024-03-17",
    "https://vengineer.hatenablog.com/entry/2024/03/17/080000",
    "The ConnectX-7 on the DGX H100 network module contains a PCIe switch: PCIe Gen5 x16 "
    "to the host and x16 to the GPU.")
GB200_NVL72_TRAY = Source(
    "NVIDIA GB200 NVL72 page and NVLink Switch tray figures (facts.md 1.3)",
    "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
    "NVLink Switch tray: 144 NVLink ports, 14.4 TB/s non-blocking; 9 switch trays per "
    "NVL72 rack.")


# ------------------------------------------------------------------ PCIe tree of a node
@dataclass(frozen=True)
class PCIeTree:
    """The PCIe tree of one server, as its diagram needs it.

    Attributes:
        system: Catalogue system id (:data:`interlib.specs.SYSTEMS`): the GPU and NIC
            models, counts and link generations come from there.
        cpus: CPU sockets (root complexes).
        switch_cpu: For each PCIe switch, the CPU socket above it (0-based).
        switch_gpus: For each PCIe switch, the GPUs below it.
        switch_nics: For each PCIe switch, the compute NICs below it (NIC i is the i-th
            compute-fabric ConnectX of the system).
        source: Where the grouping comes from.
        switch_source: Where the switch placement comes from.
        note: What the drawing leaves out.
    """

    system: str
    cpus: Spec
    switch_cpu: tuple
    switch_gpus: tuple
    switch_nics: tuple
    source: Source
    switch_source: Source
    note: str = ""

    def __post_init__(self):
        n_cpu = v.integer("cpus", self.cpus.value, lo=1, hi=8)
        k = len(self.switch_cpu)
        if not (k == len(self.switch_gpus) == len(self.switch_nics)) or k == 0:
            raise ValueError(f"switch_cpu, switch_gpus and switch_nics must have one entry "
                             f"per switch (got {k}, {len(self.switch_gpus)}, "
                             f"{len(self.switch_nics)})")
        for i, c in enumerate(self.switch_cpu):
            v.integer(f"switch_cpu[{i}]", c, lo=0, hi=n_cpu - 1)
        for name in ("switch_gpus", "switch_nics"):
            flat = [x for grp in getattr(self, name) for x in grp]
            if sorted(flat) != list(range(len(flat))):
                raise ValueError(f"{name}={getattr(self, name)!r} must number its devices "
                                 f"0..{len(flat) - 1}, each once")

    @property
    def switches(self) -> int:
        """PCIe switches in the tree."""
        return len(self.switch_cpu)

    @property
    def gpus(self) -> int:
        """GPUs under the switches."""
        return sum(len(g) for g in self.switch_gpus)

    @property
    def nics(self) -> int:
        """Compute NICs under the switches."""
        return sum(len(n) for n in self.switch_nics)


def _dgx_h100_tree() -> PCIeTree:
    # User guide Table 6: (GPU, network module / CPU) for the eight compute ConnectX-7s.
    gpu_cpu = {0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1, 7: 1}
    gpus = tuple(sorted(gpu_cpu))
    return PCIeTree(
        "dgx-h100",
        Spec(2, "count", "vendor peak", S.DGX_BASEPOD,
             note="'Dual Intel Xeon Platinum 8480C processors ... with PCIe 5.0 support'"),
        tuple(gpu_cpu[g] for g in gpus),
        tuple((g,) for g in gpus),
        tuple((g,) for g in gpus),
        DGX_H100_USER_GUIDE, VENGINEER_CX7,
        note="one PCIe switch per GPU and its own ConnectX-7, four under each CPU: the "
             "switch is built into the ConnectX-7 of the network module (secondary source; "
             "nvidia-smi topo -m on DGX-class H100 nodes agrees: each GPU is PIX, one switch, "
             "from exactly one compute NIC). Not drawn: the two dual-port storage/management "
             "ConnectX-7s, NVMe drives, and the NVLink baseboard (Chapter 4).")


PCIE_TREES = {"dgx-h100": _dgx_h100_tree()}
"""PCIe trees the book can draw, by catalogue system id."""


def pcie_tree(system: str) -> PCIeTree:
    """Look up the PCIe tree of a catalogued system (``"dgx-h100"``)."""
    return PCIE_TREES[v.choice("system", system, PCIE_TREES)]


# --------------------------------------------------------------- NVL72 switch trays
NVL72_PORTS_PER_SWITCH_TRAY = Spec(
    144, "count", "vendor peak", GB200_NVL72_TRAY,
    note="NVLink ports per NVLink Switch tray (two switch chips), 14.4 TB/s non-blocking")
"""NVLink ports of one GB200 NVL72 switch tray (:data:`.inside_box.NVL72_SWITCH_TRAYS`
trays of :data:`.inside_box.NVL72_CHIPS_PER_TRAY` chips each)."""
