"""GPUs, NICs, NVSwitch generations and whole systems (nodes and NVLink domains)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ..units import GB, GB_per_s, Gbit_per_s, TB_per_s
from . import sources as S
from ._base import Spec, Status
from .host_copies import pcie_achieved_per_direction
from .links import (CONNECTX8_SHIPPED, NVLINK, NVLINK_C2C, NVLINK_C2C_SUPERCHIP, PCIE,
                    NVLinkGen, PCIeGen)

HOST_LINKS = ("pcie", "nvlink-c2c", "nvlink-c2c-superchip")
"""How a GPU reaches its CPU's memory: a PCIe x16 link, NVLink-C2C to its own Grace (GH200),
or the NVLink-C2C one Grace shares with two GPUs (GB200/GB300 superchips)."""


@dataclass(frozen=True)
class HostLink:
    """A GPU's link to host memory, as the models use it (per direction).

    Attributes:
        name: e.g. ``"PCIe 5.0 x16"`` or ``"NVLink-C2C"``.
        rung: The ladder rung it is (Chapter 7): ``"PCIe"`` or ``"NVLink-C2C"``.
        peak: Usable line rate, bytes/s per direction.
        achieved: Measured host-copy rate the models use, bytes/s per direction.
        basis: How ``achieved`` is obtained.
    """

    name: str
    rung: str
    peak: float
    achieved: float
    basis: str


# ---------------------------------------------------------------------------- GPUs
@dataclass(frozen=True)
class GPU:
    """One GPU model.

    Attributes:
        name: Marketing name.
        arch: ``"Ampere"``, ``"Hopper"`` or ``"Blackwell"`` (selects NCCL's per-architecture
            model constants).
        nvlink_gen: NVLink generation number (see :data:`interlib.specs.links.NVLINK`).
        pcie_gen: Host PCIe generation, e.g. ``"5.0"``.
        hbm: Memory technology.
        hbm_capacity: Usable memory capacity, bytes.
        hbm_bandwidth: Peak memory bandwidth, bytes/s, shared by reads and writes.
        host_link: ``"pcie"`` (the host link is the PCIe generation above),
            ``"nvlink-c2c"`` (GH200: the GPU reaches host memory over its own NVLink-C2C)
            or ``"nvlink-c2c-superchip"`` (GB200/GB300: two GPUs share one Grace's
            NVLink-C2C; its PCIe then serves devices such as NICs).
        status: Shipped or announced, with the date (None: shipped before this
            catalogue recorded dates).
    """

    name: str
    arch: str
    nvlink_gen: int
    pcie_gen: str
    hbm: str
    hbm_capacity: Spec
    hbm_bandwidth: Spec
    host_link: str = "pcie"
    status: Status | None = None

    def __post_init__(self):
        v.choice("arch", self.arch, ("Ampere", "Hopper", "Blackwell"))
        v.integer("nvlink_gen", self.nvlink_gen, lo=1, hi=5)
        v.choice("pcie_gen", self.pcie_gen, PCIE)
        v.choice("host_link", self.host_link, HOST_LINKS)
        _status("status", self.status)

    @property
    def host(self) -> HostLink:
        """The GPU's link to host memory, per direction (PCIe x16, or NVLink-C2C)."""
        if self.host_link == "nvlink-c2c":
            c = NVLINK_C2C
            return HostLink(c.name, "NVLink-C2C", c.per_direction.value,
                            c.per_direction.value * c.copy_efficiency,
                            f"{c.name} {c.per_direction.value / GB_per_s:g} GB/s per "
                            "direction x measured GH200 copy efficiency (slower direction)")
        if self.host_link == "nvlink-c2c-superchip":
            c = NVLINK_C2C_SUPERCHIP
            share = c.per_gpu_even_split
            m = c.measured_slower
            gb300 = ("; GB300 assumed the same (no GB300 NVL72 measurement in our sources)"
                     if self.name.startswith("GB300") else "")
            return HostLink("NVLink-C2C", "NVLink-C2C", share, share * c.copy_efficiency,
                            f"peak: the superchip's {c.per_direction.value / GB_per_s:g} GB/s "
                            f"per direction shared by its {c.gpus} GPUs, split evenly (the "
                            "per-GPU share is not published); achieved: one GPU's measured "
                            f"copy, the slower direction ({m.value / GB_per_s:g} GB/s, "
                            "nvbandwidth on Azure ND GB200 v6)" + gb300)
        pc = self.pcie
        usable = pc.usable_per_direction(16)
        payload = pc.payload_per_direction(16)
        return HostLink(f"{pc.name} x16", "PCIe", usable,
                        pcie_achieved_per_direction(self.pcie_gen, 16),
                        f"peak: {pc.name} x16 after {pc.encoding}, before TLP headers; "
                        f"achieved: its TLP payload rate ({payload / GB_per_s:.3g} "
                        "GB/s with 256-B payloads) x the copy efficiency measured on Gen 5 "
                        "on the same basis")

    @property
    def nvlink(self) -> NVLinkGen:
        return NVLINK[self.nvlink_gen]

    @property
    def pcie(self) -> PCIeGen:
        return PCIE[self.pcie_gen]


def _status(name, status):
    if status is not None and not isinstance(status, Status):
        raise ValueError(f"{name}={status!r} must be a Status or None")
    return status


def _gpu(name, arch, nvl, pcie, hbm, cap_gb, bw, src, cap_note="", bw_note="",
         host_link="pcie", status=None):
    return GPU(name, arch, nvl, pcie, hbm,
               Spec(cap_gb * GB, "GB", "vendor peak", src, note=cap_note),
               Spec(bw, "TB_per_s", "vendor peak", src, "read + write", bw_note),
               host_link, status)


_GB300_SHIPPED = Status("shipped", "2025-07", S.GB300_FIRST_RACKS,
                        "first production racks delivered in early July 2025 (CoreWeave, "
                        "built by Dell, announced 2025-07-03); at Hot Chips 2025 (August) "
                        "NVIDIA called GB300 NVL72 'the first deployment of the PCIe Gen6 "
                        "SuperNIC' (sources.HOTCHIPS_CX8)")
_HGX_B300_SHIPPED = Status("shipped", None, S.HGX_B300,
                           "NVIDIA's HGX B300 specifications and server photographs (April "
                           "2025) show the board; no dated shipment in the sources read")


#: The catalogued GPUs by id (``"h100-sxm"``, ...) as :class:`GPU` records, each figure
#: with its source. Look one up with :func:`~interlib.specs.gpu`.
GPUS = {
    "a100-sxm-80gb": _gpu("A100 SXM 80GB", "Ampere", 3, "4.0", "HBM2e", 80,
                          2039 * GB_per_s, S.A100_DATASHEET),
    "h100-sxm": _gpu("H100 SXM", "Hopper", 4, "5.0", "HBM3", 80, 3.35 * TB_per_s,
                     S.H100_DATASHEET,
                     bw_note="measured on Azure ND H100 v5: 2.90 TB/s copy, 3.18 TB/s dot"),
    "h200": _gpu("H200 SXM", "Hopper", 4, "5.0", "HBM3e", 141, 4.8 * TB_per_s,
                 S.H200_DATASHEET),
    "b200": _gpu("B200", "Blackwell", 5, "5.0", "HBM3e", 180, 8 * TB_per_s, S.DGX_B200,
                 cap_note="usable in DGX B200 (1,440 GB / 8); 192 GB is the physical stack "
                          "total",
                 bw_note="DGX B200: 64 TB/s for 8 GPUs"),
    "gb200": _gpu("GB200 (Blackwell GPU)", "Blackwell", 5, "5.0", "HBM3e", 186,
                  8 * TB_per_s, S.MLPERF_GB200,
                  cap_note="exposed per GPU in MLPerf system JSON",
                  bw_note="576 TB/s per NVL72 rack / 72 GPUs (NVIDIA GB200 NVL72 page)",
                  host_link="nvlink-c2c-superchip"),
    "gb300": _gpu("GB300 (Blackwell Ultra GPU)", "Blackwell", 5, "6.0", "HBM3e", 288,
                  8 * TB_per_s, S.BLACKWELL_ULTRA_BLOG,
                  cap_note="'288 GB of HBM3E per GPU' in 8 stacks; the capacity a GB300 "
                           "tray exposes to software is not in a primary source here",
                  bw_note="576 TB/s per NVL72 rack / 72 GPUs",
                  host_link="nvlink-c2c-superchip", status=_GB300_SHIPPED),
    # HGX B300: the same Blackwell Ultra GPU on an 8-GPU NVLink baseboard. Its PCIe Gen6
    # x16 goes to a ConnectX-8 on the GPU board, whose built-in switch also links to the
    # host; the host CPU's own PCIe generation is not in our sources.
    "b300": _gpu("B300 (Blackwell Ultra, HGX)", "Blackwell", 5, "6.0", "HBM3e", 288,
                 8 * TB_per_s, S.BLACKWELL_ULTRA_BLOG,
                 cap_note="'288 GB of HBM3E per GPU' in 8 stacks; usable capacity not in a "
                          "primary source here",
                 bw_note="'8 TB/s per GPU'", status=_HGX_B300_SHIPPED),
}


# ---------------------------------------------------------------------------- NICs
@dataclass(frozen=True)
class NIC:
    """A scale-out network adapter.

    Attributes:
        name: e.g. ``"ConnectX-7"``.
        rate: Port data rate, bytes/s per direction (stored in Gb/s, as vendors quote it).
        fabric: ``"InfiniBand"``, ``"Ethernet"``, ``"InfiniBand or Ethernet"``, ``"EFA"``.
        host_interface: Its PCIe link, e.g. ``"PCIe 5.0 x16"``.
        status: Shipped or announced, with the date (None: shipped, undated here).
        ethernet_ports: How many Ethernet ports the NIC runs when it speaks Ethernet
            (1 unless its documentation says otherwise).
        ethernet_port_rate: Each Ethernet port's data rate, bytes/s per direction, where it
            differs from ``rate`` (ConnectX-8: 2 x 400 GbE, no 800 GbE port); None when the
            NIC runs one Ethernet port at ``rate``.
    """

    name: str
    rate: Spec
    fabric: str
    host_interface: str = ""
    status: Status | None = None
    ethernet_ports: int = 1
    ethernet_port_rate: Spec | None = None

    def __post_init__(self):
        _status("status", self.status)
        v.integer("ethernet_ports", self.ethernet_ports, lo=1, hi=8)
        if self.ethernet_port_rate is not None:
            if "Ethernet" not in self.fabric:
                raise ValueError(f"ethernet_port_rate is set but fabric={self.fabric!r} "
                                 "is not Ethernet")
            if not isinstance(self.ethernet_port_rate, Spec) or \
                    self.ethernet_port_rate.direction != "per direction":
                raise ValueError(f"ethernet_port_rate={self.ethernet_port_rate!r} must be a "
                                 "Spec per direction")
            if self.ethernet_ports * self.ethernet_port_rate.value > self.rate.value * (1 + 1e-9):
                raise ValueError(f"ethernet_ports={self.ethernet_ports} x ethernet_port_rate "
                                 f"exceeds rate={self.rate.value * 8 / 1e9:g} Gb/s")
        elif self.ethernet_ports != 1:
            raise ValueError(f"ethernet_ports={self.ethernet_ports} needs an "
                             "ethernet_port_rate")

    @property
    def ethernet_port_spec(self) -> Spec:
        """One Ethernet port's data rate as its catalogue :class:`Spec` (value in bytes/s
        per direction, kind, source): ``ethernet_port_rate``, or ``rate`` for a NIC with
        one Ethernet port at its full rate. Raises ValueError if the NIC has no Ethernet."""
        if "Ethernet" not in self.fabric:
            raise ValueError(f"fabric={self.fabric!r}: {self.name} does not speak Ethernet")
        sp = self.ethernet_port_rate
        return sp if sp is not None else self.rate

    @property
    def ethernet_port(self) -> float:
        """One Ethernet port's data rate, bytes/s per direction (``rate`` for a NIC with
        one Ethernet port at its full rate; :attr:`ethernet_port_spec`'s value). Raises
        ValueError if the NIC has no Ethernet."""
        return self.ethernet_port_spec.value

    @property
    def ethernet_rate(self) -> float:
        """All its Ethernet ports together, bytes/s per direction (ConnectX-8: 2 x 400 GbE
        = 100 GB/s, the same total as its one 800 Gb/s XDR port, in two links)."""
        return self.ethernet_ports * self.ethernet_port


def _nic(name, gbps, fabric, src, note="", host_interface="", status=None,
         ethernet=None):
    """``ethernet=(ports, gbps_per_port, source, note)`` where the NIC's Ethernet ports
    differ from its one port at ``gbps``."""
    eth_ports, eth_rate = 1, None
    if ethernet is not None:
        eth_ports, eth_gbps, eth_src, eth_note = ethernet
        eth_rate = Spec(eth_gbps * Gbit_per_s, "Gbit_per_s", "vendor peak", eth_src,
                        "per direction", eth_note)
    return NIC(name, Spec(gbps * Gbit_per_s, "Gbit_per_s", "vendor peak", src,
                          "per direction", note), fabric, host_interface, status,
               eth_ports, eth_rate)


NICS = {
    "connectx-6-hdr": _nic("ConnectX-6 HDR", 200, "InfiniBand", S.STAS_NETWORK),
    "connectx-7": _nic("ConnectX-7", 400, "InfiniBand or Ethernet", S.CX7_DOC),
    # Expert read F6.1: on Ethernet ConnectX-8 is two 400 GbE ports, not one 800 GbE port (as
    # of the firmware notes read; review F17: dated, not stated as permanent).
    "connectx-8": _nic("ConnectX-8", 800, "InfiniBand or Ethernet", S.CX8_NOTES,
                       "one XDR InfiniBand port; on Ethernet the same 800 Gb/s is two "
                       "400 GbE ports (ethernet_ports, ethernet_port_rate)",
                       "PCIe 6.0, 48 lanes behind a built-in PCIe Gen 6 switch",
                       CONNECTX8_SHIPPED,
                       ethernet=(2, 400, S.CX8_DIRECT_NIC,
                                 "per 400 GbE port, two ports: '2 x 400GbE link speeds. "
                                 "Note: 800GbE link speed is not supported on a single "
                                 "port', as of the initial firmware 40.44.0208 "
                                 "(repeated in the 40.44.1036 notes); the later notes read "
                                 "(40.45 to the 2025 LTS 40.47) neither repeat nor lift "
                                 "it")),
}


# ------------------------------------------------------------------------ NVSwitch
@dataclass(frozen=True)
class NVSwitchGen:
    """One NVSwitch generation as used in one NVLink baseboard.

    Attributes:
        name: e.g. ``"NVSwitch 3"``.
        system: Where it shipped.
        chips_per_board: Switch chips on one baseboard (None where our sources do not
            confirm the count).
        ports_per_chip: NVLink ports per chip (None where our sources do not confirm it).
        nvlink_gen: NVLink generation of its ports.
        in_network_reduction: Whether it can reduce in the switch (NVLink SHARP / NVLS).
    """

    name: str
    system: str
    chips_per_board: Spec | None
    ports_per_chip: Spec | None
    nvlink_gen: int
    in_network_reduction: bool


NVSWITCH = {
    1: NVSwitchGen("NVSwitch 1", "DGX-2 / HGX-2 (16 x V100)", None,
                   Spec(18, "count", "secondary", S.ANANDTECH_NVSWITCH,
                        note="18 full-bandwidth NVLink 2 ports of 50 GB/s (both directions "
                             "added) each, 900 GB/s per chip; the chip count of DGX-2 is "
                             "not confirmed by a primary source, so it is left out"),
                   2, False),
    2: NVSwitchGen("NVSwitch 2", "DGX/HGX A100", Spec(6, "count", "vendor peak",
                                                        S.A100_WHITEPAPER),
                   Spec(36, "count", "secondary", S.NVSWITCH2_PORTS,
                        note="port count from a secondary source (no primary retrieved)"),
                   3, False),
    3: NVSwitchGen("NVSwitch 3", "DGX/HGX H100 and H200",
                   Spec(4, "count", "vendor peak", S.DGX_BASEPOD),
                   Spec(64, "count", "vendor peak", S.NVSWITCH_BLOG,
                        note="64 NVLink 4 ports per chip (NVIDIA's NVLink page of 2022: "
                             "'each NVSwitch has 64 NVLink ports')"),
                   4, True),
    4: NVSwitchGen("NVLink Switch (Blackwell)", "DGX/HGX B200, GB200 NVL72",
                   Spec(2, "count", "secondary", S.SCALING_BOOK,
                        note="two chips on the HGX B200 baseboard; NVL72 uses 9 trays x 2"),
                   None, 5, True),
}


# ------------------------------------------------------------------------- systems
@dataclass(frozen=True)
class System:
    """A node design: one NVLink domain and the scale-out NICs that serve it.

    The models treat one NVLink domain as one *node*: every GPU in it reaches every other
    over NVLink (through NVSwitch), and traffic between nodes crosses the scale-out NICs.
    For an 8-GPU DGX/HGX server the domain is the server; for GB200 NVL72 it is a whole
    rack of 18 compute trays with 4 GPUs each, so ``gpus_per_node`` (72) and
    ``gpus_per_server`` (4) differ.

    Attributes:
        name: Catalogue id, e.g. ``"dgx-h100"``.
        title: Display name.
        gpu: Its GPU.
        gpus_per_node: GPUs in one NVLink domain, what the models call a node (8 for DGX,
            72 for NVL72).
        intra: ``"nvswitch"`` (every GPU reaches every other at full NVLink rate) or
            ``"pcie"`` (GPUs talk through PCIe switches and the host).
        nvswitch_gen: NVSwitch generation, or None.
        nics_per_node: Scale-out (compute fabric) NICs per NVLink domain; storage and
            management NICs are not counted.
        nic: Their model (:attr:`NIC.rate` gives their speed, per direction).
        source: Where the node design comes from.
        gpus_per_server: GPUs in one physical chassis or compute tray (default: the whole
            NVLink domain, i.e. ``gpus_per_node``); must divide ``gpus_per_node``.
        network_source: Where the scale-out NIC count and model come from (default:
            ``source``).
        status: Shipped or announced, with the date (None: shipped before this catalogue
            recorded dates).
        nic_path: How a GPU reaches its scale-out NIC: ``"pcie-switch"`` (the NIC under
            the GPU's PCIe switch, DGX/HGX), ``"via-grace"`` (the NIC on the Grace CPU's
            PCIe, reached over NVLink-C2C: GB200 with ConnectX-7) or ``"direct-nic"`` (a
            ConnectX-8 whose built-in PCIe Gen6 switch links the GPU straight to the NIC:
            GB300, HGX B300).
    """

    name: str
    title: str
    gpu: GPU
    gpus_per_node: int
    intra: str
    nvswitch_gen: int | None
    nics_per_node: int
    nic: NIC
    source: "S.Source"
    gpus_per_server: int | None = None
    network_source: "S.Source | None" = None
    status: Status | None = None
    nic_path: str = "pcie-switch"

    def __post_init__(self):
        _status("status", self.status)
        v.choice("nic_path", self.nic_path, ("pcie-switch", "via-grace", "direct-nic"))
        v.integer("gpus_per_node", self.gpus_per_node, lo=1, hi=576)
        v.choice("intra", self.intra, ("nvswitch", "pcie"))
        v.integer("nics_per_node", self.nics_per_node, lo=1, hi=1024)
        if self.gpus_per_server is None:
            object.__setattr__(self, "gpus_per_server", self.gpus_per_node)
        v.integer("gpus_per_server", self.gpus_per_server, lo=1, hi=self.gpus_per_node)
        if self.gpus_per_node % self.gpus_per_server:
            raise ValueError(f"gpus_per_server={self.gpus_per_server!r} is out of range: "
                             f"must divide gpus_per_node={self.gpus_per_node}")
        if self.network_source is None:
            object.__setattr__(self, "network_source", self.source)

    @property
    def nvlink_domain(self) -> int:
        """GPUs in one NVLink domain (the same as ``gpus_per_node``)."""
        return self.gpus_per_node

    @property
    def servers_per_node(self) -> int:
        """Physical servers (or compute trays) in one NVLink domain."""
        return self.gpus_per_node // self.gpus_per_server

    @property
    def nics_per_server(self) -> float:
        """Scale-out NICs per physical server or compute tray."""
        return self.nics_per_node / self.servers_per_node

    @property
    def nics_per_gpu(self) -> float:
        """Scale-out NICs per GPU (1.0 means one NIC per GPU, "1:1")."""
        return self.nics_per_node / self.gpus_per_node

    @property
    def node_injection(self) -> float:
        """Scale-out bandwidth of the whole node, bytes/s per direction."""
        return self.nics_per_node * self.nic.rate.value

    @property
    def nic_bw_per_gpu(self) -> float:
        """Scale-out bandwidth per GPU, bytes/s per direction."""
        return self.node_injection / self.gpus_per_node

    @property
    def intra_peak_per_gpu(self) -> float:
        """Line-rate intra-node bandwidth per GPU, bytes/s per direction."""
        if self.intra == "nvswitch":
            return self.gpu.nvlink.per_gpu_per_direction
        return self.gpu.pcie.usable_per_direction(16)


SYSTEMS = {
    "dgx-a100": System("dgx-a100", "NVIDIA DGX A100", GPUS["a100-sxm-80gb"], 8, "nvswitch", 2,
                       8, NICS["connectx-6-hdr"], S.A100_WHITEPAPER,
                       network_source=S.NCCL_812),
    "dgx-h100": System("dgx-h100", "NVIDIA DGX H100", GPUS["h100-sxm"], 8, "nvswitch", 3,
                       8, NICS["connectx-7"], S.DGX_BASEPOD),
    "hgx-h200": System("hgx-h200", "NVIDIA HGX H200", GPUS["h200"], 8, "nvswitch", 3,
                       8, NICS["connectx-7"], S.H200_DATASHEET,
                       network_source=S.HGX_H200_ASSUMED),
    "dgx-b200": System("dgx-b200", "NVIDIA DGX B200", GPUS["b200"], 8, "nvswitch", 4,
                       8, NICS["connectx-7"], S.DGX_B200),
    "gb200-nvl72": System("gb200-nvl72", "NVIDIA GB200 NVL72 (one rack)", GPUS["gb200"], 72,
                          "nvswitch", 4, 72, NICS["connectx-7"], S.GB200_PAGE,
                          gpus_per_server=4, network_source=S.MLPERF_GB200,
                          nic_path="via-grace"),
    "gb300-nvl72": System("gb300-nvl72", "NVIDIA GB300 NVL72 (one rack)", GPUS["gb300"], 72,
                          "nvswitch", 4, 72, NICS["connectx-8"], S.LOCKWOOD_B300,
                          gpus_per_server=4, network_source=S.HOTCHIPS_CX8,
                          status=_GB300_SHIPPED, nic_path="direct-nic"),
    "hgx-b300": System("hgx-b300", "NVIDIA HGX B300", GPUS["b300"], 8, "nvswitch", 4, 8,
                       NICS["connectx-8"], S.HGX_B300, status=_HGX_B300_SHIPPED,
                       nic_path="direct-nic"),
    # Hypothetical, for comparison only (Chapter 2): the DGX H100's GPUs and NICs with the
    # NVSwitch baseboard removed, so GPUs reach each other only over PCIe 5.0 x16.
    "h100-pcie-only": System("h100-pcie-only",
                             "8 x H100 PCIe-attached, no NVLink (hypothetical, derived)",
                             GPUS["h100-sxm"], 8, "pcie", None, 8, NICS["connectx-7"],
                             S.PCIE_ONLY_HYPOTHETICAL),
}


def _lookup(kind: str, name, table: dict):
    return table[v.choice(kind, name, table)]


def gpu(name: str) -> GPU:
    """Look up a GPU by catalogue id (``"h100-sxm"``, ...)."""
    return _lookup("name", name, GPUS)


def nic(name: str) -> NIC:
    """Look up a NIC by catalogue id (``"connectx-7"``, ...)."""
    return _lookup("name", name, NICS)


def nvswitch(gen: int) -> NVSwitchGen:
    """Look up an NVSwitch generation (1, 2, 3 or 4).

    >>> nvswitch(3).ports_per_chip.value
    64
    """
    v.integer("gen", gen, lo=min(NVSWITCH), hi=max(NVSWITCH))
    return NVSWITCH[gen]


def system(name: str) -> System:
    """Look up a system by catalogue id, with a "did you mean" on a miss.

    >>> system("dgx-h100").gpus_per_node
    8
    """
    return _lookup("name", name, SYSTEMS)
