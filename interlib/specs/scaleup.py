"""Scale-up domains beyond the book's NVIDIA systems, and what is announced next.

The book teaches with NVIDIA's NVLink domains (Chapters 3-4). Other vendors build the same
two tiers differently: a fast domain of a few to thousands of accelerators, and a
scale-out network between domains. Each entry here carries its source and a
:class:`~interlib.specs._base.Status` (shipped or only announced, with the date the source
supports). Figures a source does not give are None, never guessed.

>>> scaleup_domain("gaudi3-hls3").per_accelerator.in_unit()
525.0
>>> str(scaleup_domain("vera-rubin-nvl72").status)
'announced (2026-01)'
>>> scaleup_domain("vera-rubin-nvl72").per_accelerator.in_unit("TB_per_s")
1.8
>>> sorted(k for k, d in SCALEUP_DOMAINS.items() if d.vendor == "AMD")
['amd-helios', 'mi300x-8', 'mi325x-8', 'mi355x-8']
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ..units import GB_per_s, Gbit_per_s, TB_per_s, Tbit_per_s
from . import sources as S
from ._base import Spec, Status
from .links import NVLINK

TOPOLOGIES = ("switched", "all-to-all", "3D torus", "2D torus",
              "set of cubes joined by optical circuit switches, a torus per slice")
"""How the accelerators of a scale-up domain are wired: through switches (NVLink Switch,
UALink switches), directly to every other one (Gaudi's box, AMD's 8-GPU platforms), as a
torus of direct links (Trainium2 NeuronLink), or, on TPU v4/v5p, as 4 x 4 x 4 cubes of
direct links whose faces meet in optical circuit switches, which build each job's slice
into a torus (plain or twisted): the pod itself is not one torus."""


@dataclass(frozen=True)
class ScaleUpDomain:
    """One vendor's scale-up domain.

    Attributes:
        name: Display name.
        vendor: Who makes the accelerator.
        accelerator: The accelerator (one package).
        link: The scale-up link and how it is carried.
        topology: ``"switched"``, ``"all-to-all"``, ``"3D torus"`` or ``"2D torus"``.
        domain_size: Accelerators in one domain (packages, not dies).
        per_accelerator: Scale-up bandwidth of one accelerator, bytes/s **per direction**
            (None where no source gives it).
        scale_out_per_accelerator: Scale-out bandwidth of one accelerator, bytes/s per
            direction (None where no source gives it).
        library: The collective library that drives it.
        status: Shipped or announced, with the date.
        note: Caveats.
        memory_bandwidth: The accelerator's memory bandwidth, bytes/s, shared by reads and
            writes (None where no source read gives it).
        stated_per_accelerator: The vendor's per-accelerator scale-up figure when its source
            does not say whether both directions are added (direction ``"not stated"``);
            then ``per_accelerator`` is None: it is quoted, never halved.
        domain_headline: The vendor's figure for the whole domain (all accelerators, both
            directions added), where one is published.
    """

    name: str
    vendor: str
    accelerator: str
    link: str
    topology: str
    domain_size: Spec
    per_accelerator: Spec | None
    scale_out_per_accelerator: Spec | None
    library: str
    status: Status
    note: str = ""
    memory_bandwidth: Spec | None = None
    stated_per_accelerator: Spec | None = None
    domain_headline: Spec | None = None

    def __post_init__(self):
        v.choice("topology", self.topology, TOPOLOGIES)
        if not isinstance(self.status, Status):
            raise ValueError(f"status={self.status!r} must be a Status")
        if not isinstance(self.domain_size, Spec) or self.domain_size.unit != "count" \
                or self.domain_size.value < 2:
            raise ValueError(f"domain_size={self.domain_size!r} must be a count Spec >= 2")
        for f in ("per_accelerator", "scale_out_per_accelerator"):
            s = getattr(self, f)
            if s is not None and s.direction != "per direction":
                raise ValueError(f"{f}.direction={s.direction!r} must be 'per direction'")
        m = self.memory_bandwidth
        if m is not None and m.direction != "read + write":
            raise ValueError(f"memory_bandwidth.direction={m.direction!r} must be "
                             "'read + write'")
        st = self.stated_per_accelerator
        if st is not None:
            if st.direction != "not stated":
                raise ValueError(f"stated_per_accelerator.direction={st.direction!r} must be "
                                 "'not stated' (a figure with a known direction goes in "
                                 "per_accelerator, per direction)")
            if self.per_accelerator is not None:
                raise ValueError("stated_per_accelerator is set but per_accelerator is too: "
                                 "give one of them")
        h = self.domain_headline
        if h is not None and h.direction != "bidirectional":
            raise ValueError(f"domain_headline.direction={h.direction!r} must be "
                             "'bidirectional'")

    @property
    def scale_up_over_scale_out(self) -> float | None:
        """How many times one accelerator's scale-up bandwidth exceeds its scale-out
        bandwidth (per direction), or None where either is unknown."""
        if self.per_accelerator is None or self.scale_out_per_accelerator is None:
            return None
        return self.per_accelerator.value / self.scale_out_per_accelerator.value


def _count(n, src, note=""):
    return Spec(n, "count", "vendor peak", src, note=note)


def _rate(value, unit, src, note="", kind="vendor peak"):
    return Spec(value, unit, kind, src, "per direction", note)


VERA_RUBIN_DOCUMENTED = {
    "tuning guide": ("2026-11-09", S.VERA_RUBIN_TUNING),
    "NCCL 2.32.6": ("2026-11-09", S.NCCL_2326),
}
"""What NVIDIA has published for Vera Rubin NVL72 after its announcement, with dates: the
system's performance tuning guide (last updated on this date) and the NCCL release that adds
Vera Rubin tuning data. Evidence that the system exists in documentation, not a shipment
date: the domain's status stays ``announced``."""

TPU_V5P_LARGEST_JOB = Spec(
    6144, "count", "vendor peak", S.TPU_V5P,
    note="'The largest job that can be scheduled is a 96 cube (6144 chip) job' (maximum "
         "slice shape 16x16x24); a pod has 8,960 chips")
"""The most TPU v5p chips one job (one slice) gets: fewer than a pod's chips."""

NVLINK6_PER_GPU = Spec(
    3.6 * TB_per_s, "TB_per_s", "vendor peak", S.VERA_RUBIN, "bidirectional",
    "NVLink 6 per Rubin GPU, both directions added (NVLink 5's 1.8 TB/s doubled)")
"""NVLink 6, as NVIDIA quotes it: per GPU, both directions added (Chapters 3-4)."""
CONNECTX9_PER_GPU = Spec(
    1.6 * Tbit_per_s, "Tbit_per_s", "vendor peak", S.VERA_RUBIN, "per direction",
    "ConnectX-9 SuperNIC scale-out bandwidth per Rubin GPU (a NIC rate: per direction)")
"""ConnectX-9, Vera Rubin's scale-out NIC: 1.6 Tb/s per GPU (Chapters 4 and 6)."""
XGMI_LINK = Spec(
    32 * 16 * Gbit_per_s, "GB_per_s", "vendor peak", S.AMD_XGMI_DRIVER, "per direction",
    "one xGMI (Infinity Fabric) link of MI300X and MI325X: 32 GT/s x 16 lanes = 512 Gb/s = "
    "64 GB/s, 'unidirectional' (AMD's amdgpu driver); 128 GB/s both directions, AMD's 'Peak "
    "Infinity Fabric Link Bandwidth' for MI300X/MI325X (sources.AMD_MI350_SPECS)")
"""One Infinity Fabric (xGMI) link between AMD Instinct MI300X/MI325X GPUs, per direction."""
XGMI_LINK_MI350 = Spec(
    153.6 * GB_per_s / 2, "GB_per_s", "secondary", S.AMD_MI350_SPECS, "per direction",
    "one Infinity Fabric link of MI350X/MI355X: AMD's 'Peak Infinity Fabric Link Bandwidth' "
    "of 153.6 GB/s counts both directions (as MI300X's 128 GB/s is twice the driver's "
    "unidirectional 64), so 76.8 GB/s each way (38.4 GT/s x 16 lanes). AMD's page read "
    "only through reproductions; the amdgpu driver's 32 GT/s for GC 9.5.0 (64 GB/s) is a "
    "reporting constant that this contradicts")
"""One Infinity Fabric link between AMD Instinct MI350X/MI355X GPUs, per direction (review R4,
F3: not the driver's 64 GB/s)."""
AMD_8GPU_LINKS = Spec(
    7, "count", "vendor peak", S.AMD_ROCM_MI300,
    note="'seven high-bandwidth, low-latency AMD Infinity Fabric links ... to form a fully "
         "connected 8-GPU system' (MI300X); one link to each of the 7 peers")
"""xGMI links per GPU on AMD's fully connected 8-GPU platforms."""
UALINK_X4_PORT = Spec(
    4 * 200 * Gbit_per_s, "Gbit_per_s", "derived", S.UALINK_10, "per direction",
    "the widest UALink 1.0 port, x4 at 200 Gb/s per lane, in each direction; how many ports "
    "an accelerator has is its maker's choice, so UALink fixes no per-accelerator figure")
"""A UALink 1.0 x4 port, per direction (Chapter 4)."""
TPU_V5P_CUBE = Spec(64, "count", "vendor peak", S.TPU_V5P,
                    note="a cube is 4 x 4 x 4 chips (the '# of Cubes' of Google's slice table)")
"""Chips in one TPU v5p cube, the unit the optical switches join (4 x 4 x 4)."""
TPU_V5P_MAX_SLICE_SHAPE = (16, 16, 24)
"""The largest v5p slice, 'The maximum v5p shape is 16x16x24 (6144 chips, 96 cubes)'
(:data:`TPU_V5P_LARGEST_JOB` chips)."""
TRAINIUM3_ULTRASERVER_GA = Status(
    "shipped", "2025-12-02", S.TRN3_GA,
    "AWS: 'general availability of Amazon EC2 Trn3 UltraServers'")


def _amd8(accel, gc, status, memory=None, links_note="", link=XGMI_LINK):
    per_link = link.value / GB_per_s
    total = AMD_8GPU_LINKS.value * link.value
    return ScaleUpDomain(
        f"AMD Instinct {accel} (8-GPU platform)", "AMD", accel,
        "7 Infinity Fabric (xGMI) links, one to each of the 7 peers", "all-to-all",
        _count(8, S.AMD_GIM_XGMI, "'Infinity Fabric (XGMI) Configuration: between 8 GPUs'"),
        Spec(total, "GB_per_s", "derived", link.source, "per direction",
             f"7 links x {per_link:g} GB/s per direction = {total / GB_per_s:g} GB/s "
             f"({2 * total / GB_per_s:g} GB/s both directions); {accel} is amdgpu GC {gc}"
             + links_note),
        None, "RCCL (the NCCL API on ROCm)", status, memory_bandwidth=memory)


SCALEUP_DOMAINS = {
    "vera-rubin-nvl72": ScaleUpDomain(
        "NVIDIA Vera Rubin NVL72 (first called NVL144)", "NVIDIA", "Rubin",
        "NVLink 6 through NVLink 6 Switch trays", "switched",
        _count(72, S.VERA_RUBIN, "GPU packages; the GTC 2025 name NVL144 counted two dies "
                                 "per package (sources.VERA_RUBIN_NAMING)"),
        Spec(NVLINK6_PER_GPU.value / 2, "TB_per_s", "derived", S.VERA_RUBIN,
             "per direction", "NVIDIA's 3.6 TB/s per GPU counts both directions"),
        CONNECTX9_PER_GPU, "NCCL",
        Status("announced", "2026-01", S.VERA_RUBIN,
               "specifications at CES 2026; production targeted for the second half of "
               "2026. By 2026-11 NVIDIA documents the system (a Vera-Rubin NVL72 "
               "performance tuning guide, sources.VERA_RUBIN_TUNING) and NCCL 2.32.6 tunes "
               "for it (sources.NCCL_2326), but no primary source read states that it "
               "ships, so it stays 'announced' (VERA_RUBIN_DOCUMENTED). Searched for "
               "NVIDIA's own Computex 2026 (June) statement: only secondary reports were "
               "found ('ramping into full production ... production shipments begin this "
               "fall', ngtimes.org 2026-06-03), no NVIDIA newsroom text"),
        domain_headline=Spec(260 * TB_per_s, "TB_per_s", "vendor peak", S.VERA_RUBIN,
                             "bidirectional", "NVLink 6 across the rack: 72 x 3.6 TB/s, "
                                              "rounded by NVIDIA"),
        memory_bandwidth=Spec(22 * TB_per_s, "TB_per_s", "vendor peak", S.VERA_RUBIN,
                              "read + write", "'Up to 288 GB of HBM4 per GPU', 'Aggregate "
                                              "bandwidth of up to 22 TB/s' per Rubin GPU")),
    "gaudi3-hls3": ScaleUpDomain(
        "Intel Gaudi 3 (HLS-3 box)", "Intel", "Gaudi 3",
        "21 of 24 integrated 200 GbE RoCE v2 ports (3 to each of the 7 peers)", "all-to-all",
        _count(8, S.GAUDI3_NETWORK),
        _rate(21 * 200 * Gbit_per_s, "GB_per_s", S.GAUDI3_NETWORK,
              "21 x 200 Gb/s = 525 GB/s per direction ('unidirectional')"),
        _rate(3 * 200 * Gbit_per_s, "GB_per_s", S.GAUDI3_NETWORK,
              "the other 3 ports of the same kind: 75 GB/s per direction"),
        "HCCL (Habana Collective Communications Library)",
        Status("shipped", None, S.GAUDI3_NETWORK,
               "Intel's current Gaudi documentation describes shipping HLS-3 systems; no "
               "launch date in the sources read"),
        memory_bandwidth=Spec(3.7 * TB_per_s, "TB_per_s", "vendor peak",
                              S.GAUDI3_WHITEPAPER, "read + write",
                              "128 GB HBM2e at 3.7 TB/s per Gaudi 3")),
    "tpu-v5p-pod": ScaleUpDomain(
        "Google Cloud TPU v5p pod", "Google", "TPU v5p",
        "inter-chip interconnect (ICI): direct links inside each 4 x 4 x 4 cube, optical "
        "circuit switches between cubes", "set of cubes joined by optical circuit switches, a torus per slice",
        _count(8960, S.TPU_V5P, "chips per pod, 'interconnected with reconfigurable high-speed "
                                "links'; one job's slice is at most 16 x 16 x 24 = 6,144 chips "
                                "(TPU_V5P_LARGEST_JOB), a 3D torus"),
        Spec(1200 * GB_per_s / 2, "GB_per_s", "derived", S.TPU_V5P, "per direction",
             "Google's 1,200 GB/s per chip is bidirectional"),
        _rate(50 * Gbit_per_s, "Gbit_per_s", S.TPU_V5P, "data center network (DCN) per chip"),
        "XLA collectives over ICI",
        Status("shipped", None, S.TPU_V5P,
               "a Cloud TPU product in Google's documentation (page updated 2025-09-09); "
               "launch date not in the sources read"),
        note="the optical circuit switches are described in Google's TPU v4 paper "
             "(sources.TPU_V4_OCS); for v5p Google's page says 'reconfigurable high-speed "
             "links'",
        memory_bandwidth=Spec(2765 * GB_per_s, "GB_per_s", "vendor peak", S.TPU_V5P,
                              "read + write", "HBM bandwidth per chip (GBps) 2765")),
    "trainium2-trn2": ScaleUpDomain(
        "AWS Trainium2 (trn2.48xlarge)", "AWS", "Trainium2",
        "4 NeuronLink-v3 per chip", "2D torus",
        _count(16, S.TRAINIUM_DOCS, "chips in one instance, a 4 x 4 torus; UltraServers join "
                                    "4 instances (64 chips) over NeuronLink"),
        None,
        None, "Neuron collective communication (EFA between instances)",
        Status("shipped", None, S.TRAINIUM_DOCS,
               "AWS Neuron documentation (Trainium2 pages dated 2025-12-01) describes trn2 "
               "instances in service; launch date not in the sources read"),
        memory_bandwidth=Spec(2.9 * TB_per_s, "TB_per_s", "vendor peak", S.TRAINIUM2_DOCS,
                              "read + write", "'96 GiB of device memory with 2.9 TB/sec of "
                                              "bandwidth'"),
        stated_per_accelerator=Spec(
            1.28 * TB_per_s, "TB_per_s", "vendor peak", S.TRAINIUM2_DOCS, "not stated",
            "'NeuronLink-v3 ... provides 1.28 TB/sec bandwidth per device'")),
    "trainium3-ultraserver": ScaleUpDomain(
        "AWS Trainium3 (Trn3 UltraServer)", "AWS", "Trainium3",
        "NeuronLink-v4 through NeuronSwitch-v1 ('an all-to-all fabric')", "switched",
        _count(144, S.TRN3_GA, "'Trn3 UltraServers can scale up to 144 Trainium3 chips'"),
        None, None, "Neuron collective communication (EFA between UltraServers)",
        TRAINIUM3_ULTRASERVER_GA,
        memory_bandwidth=Spec(4.9 * TB_per_s, "TB_per_s", "vendor peak", S.TRN3_GA,
                              "read + write", "'144 GB of HBM3e memory, and 4.9 TB/s of "
                                              "memory bandwidth' per chip"),
        stated_per_accelerator=Spec(
            2.56 * TB_per_s, "TB_per_s", "vendor peak", S.TRAINIUM_DOCS, "not stated",
            "'NeuronLink-v4 ... provides 2.56 TB/sec bandwidth per device' (twice "
            "Trainium2's 1.28: AWS says NeuronSwitch-v1 'doubles interchip interconnect "
            "bandwidth over Trn2 UltraServer')")),
    "mi300x-8": _amd8(
        "MI300X", "9.4.3",
        Status("shipped", None, S.MLPERF_AMD,
               "MLPerf Inference v4.1 results in the 'available' category; launch date not "
               "in a primary source read"),
        memory=Spec(5.3 * TB_per_s, "TB_per_s", "vendor peak", S.AMD_ROCM_MI300,
                    "read + write", "'theoretical aggregated peak memory bandwidth of the "
                                    "GPU is 5.3 TB per second'"),
        links_note="; 32 GT/s x16 per link"),
    "mi325x-8": _amd8(
        "MI325X", "9.4.4",
        Status("shipped", None, S.AMD_GIM_XGMI,
               "supported by AMD's GIM 8.5.0.K virtualization driver with xGMI between 8 "
               "GPUs; launch date not in a primary source read"),
        memory=Spec(6 * TB_per_s, "TB_per_s", "secondary", S.AMD_MI350_SPECS,
                    "read + write", "MI325X: 256 GB HBM3E at 6.00 TB/s (AMD's figure as "
                                    "tabulated by Bekman)"),
        links_note="; 32 GT/s x16 per link; 7 links assumed from the fully connected 8-GPU "
                   "xGMI platform (AMD states 7 for MI300X)"),
    "mi355x-8": _amd8(
        "MI355X", "9.5.0",
        Status("shipped", None, S.MLPERF_AMD,
               "MLPerf Inference v6.0 results for 8 x MI355X in the 'available' category; "
               "launch date not in a primary source read"),
        memory=Spec(8 * TB_per_s, "TB_per_s", "secondary", S.AMD_MI350_SPECS,
                    "read + write", "MI355X: 288 GB HBM3E at 8 TB/s (AMD's figure as "
                                    "tabulated by Bekman)"),
        links_note="; per link AMD's 153.6 GB/s both directions (XGMI_LINK_MI350), not the "
                   "driver's 32 GT/s x16; 7 links, one to each peer (AMD's Hot Chips 2025 "
                   "talk as reported: '7 IF links per socket')",
        link=XGMI_LINK_MI350),
    "amd-helios": ScaleUpDomain(
        "AMD Helios (72 x MI455X, one rack)", "AMD", "MI455X",
        "UALink over Ethernet (UALoE): single-hop, multi-plane, 12 switches in 6 switch "
        "trays", "switched",
        _count(72, S.AMD_HELIOS, "'72 AMD Instinct MI455X GPUs' per rack"),
        Spec(3.6 * TB_per_s / 2, "TB_per_s", "derived", S.AMD_HELIOS, "per direction",
             "'up to 3.6 TB/s (bi-directional) per GPU'"),
        None, "RCCL (the NCCL API on ROCm)",
        Status("announced", "2026-08-04", S.AMD_HELIOS,
               "AMD's technical introduction of Helios (first previewed 2025-06-12, as "
               "reported); no primary source read states that it ships"),
        note="'up to 43 TB/s scale-out bandwidth' per rack over Ethernet, direction not "
             "stated, so no per-GPU scale-out figure is printed",
        domain_headline=Spec(260 * TB_per_s, "TB_per_s", "vendor peak", S.AMD_HELIOS,
                             "bidirectional", "'up to 260 TB/s of scale-up bandwidth' "
                                              "(72 x 3.6 TB/s, both directions)")),
    "ualink-pod": ScaleUpDomain(
        "UALink 200G 1.0 pod (open standard)", "UALink Consortium", "any accelerator",
        "UALink: 200 Gb/s lanes (IEEE 802.3dj PHY), x1/x2/x4 ports, through UALink switches",
        "switched",
        _count(1024, S.UALINK_10, "accelerators per pod, the specification's maximum"),
        None, None, "vendor libraries",
        Status("announced", "2025-04-08", S.UALINK_10,
               "the 1.0 specification was released; first silicon in labs in the second "
               "half of 2026, products in 2027 (as reported); AMD's Helios runs UALink's "
               "protocol over Ethernet switches first"),
        note="per accelerator: the number of x4 ports (UALINK_X4_PORT, 800 Gb/s per "
             "direction each) the accelerator's maker chooses"),
}
"""Scale-up domains for contrast (Chapters 4 and 7) and what is announced next, by a stable
id (the cluster chapter's log checker looks AMD entries up by id: ``"mi300x-8"``,
``"mi325x-8"``, ``"mi355x-8"``, ``"amd-helios"``). NVIDIA's shipping systems (GB200/GB300
NVL72, HGX B300 ...) are :data:`interlib.specs.SYSTEMS`."""


def scaleup_domain(name: str) -> ScaleUpDomain:
    """Look up a scale-up domain by id (``"gaudi3-hls3"``, ...)."""
    return SCALEUP_DOMAINS[v.choice("name", name, SCALEUP_DOMAINS)]


NVLINK_FUSION = Status(
    "announced", "2025-05-19", S.NVLINK_FUSION,
    "NVLink-C2C and NVLink IP for third-party CPUs and accelerators (semi-custom "
    "infrastructure); partners named, no shipping product in the sources read")
"""NVLink Fusion: NVIDIA's scale-up opened to other vendors' silicon (Chapter 4)."""
