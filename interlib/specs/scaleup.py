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
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ..units import GB_per_s, Gbit_per_s
from . import sources as S
from ._base import Spec, Status
from .links import NVLINK

TOPOLOGIES = ("switched", "all-to-all", "3D torus", "2D torus")
"""How the accelerators of a scale-up domain are wired: through switches (NVLink Switch,
UALink switches), directly to every other one (Gaudi's box), or as a torus of direct links
(TPU ICI, Trainium NeuronLink)."""


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

SCALEUP_DOMAINS = {
    "vera-rubin-nvl72": ScaleUpDomain(
        "NVIDIA Vera Rubin NVL72 (first called NVL144)", "NVIDIA", "Rubin",
        "NVLink 6 through NVLink 6 Switch trays", "switched",
        _count(72, S.VERA_RUBIN, "GPU packages; the GTC 2025 name NVL144 counted two dies "
                                 "per package (sources.VERA_RUBIN_NAMING)"),
        None, None, "NCCL",
        Status("announced", "2026-01", S.VERA_RUBIN,
               "specifications at CES 2026; production targeted for the second half of "
               "2026. By 2026-11 NVIDIA documents the system (a Vera-Rubin NVL72 "
               "performance tuning guide, sources.VERA_RUBIN_TUNING) and NCCL 2.32.6 tunes "
               "for it (sources.NCCL_2326), but no primary source read states that it "
               "ships, so it stays 'announced' (VERA_RUBIN_DOCUMENTED)")),
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
               "launch date in the sources read")),
    "tpu-v5p-pod": ScaleUpDomain(
        "Google Cloud TPU v5p pod", "Google", "TPU v5p",
        "inter-chip interconnect (ICI), direct chip-to-chip links", "3D torus",
        _count(8960, S.TPU_V5P, "chips per pod; the largest slice a job gets is 6,144 "
                                "(TPU_V5P_LARGEST_JOB)"),
        Spec(1200 * GB_per_s / 2, "GB_per_s", "derived", S.TPU_V5P, "per direction",
             "Google's 1,200 GB/s per chip is bidirectional"),
        _rate(50 * Gbit_per_s, "Gbit_per_s", S.TPU_V5P, "data center network (DCN) per chip"),
        "XLA collectives over ICI",
        Status("shipped", None, S.TPU_V5P,
               "a Cloud TPU product in Google's documentation (page updated 2025-09-09); "
               "launch date not in the sources read"),
        memory_bandwidth=Spec(2765 * GB_per_s, "GB_per_s", "vendor peak", S.TPU_V5P,
                              "read + write", "HBM bandwidth per chip (GBps) 2765")),
    "trainium2-trn2": ScaleUpDomain(
        "AWS Trainium2 (trn2.48xlarge)", "AWS", "Trainium2",
        "4 NeuronLink-v3 per chip", "2D torus",
        _count(16, S.TRAINIUM_DOCS, "chips in one instance, a 4 x 4 torus; UltraServers join "
                                    "instances over NeuronLink"),
        None,
        None, "Neuron collective communication (EFA between instances)",
        Status("shipped", None, S.TRAINIUM_DOCS,
               "AWS Neuron documentation (Trainium2 pages dated 2025-12-01) describes trn2 "
               "instances in service; launch date not in the sources read")),
    "mi300x-8": ScaleUpDomain(
        "AMD Instinct MI300X (8-GPU platform)", "AMD", "MI300X",
        "Infinity Fabric (xGMI) links between the 8 GPUs", "all-to-all",
        _count(8, S.MLPERF_AMD, "accelerators_per_node"),
        None, None, "RCCL (the NCCL API on ROCm)",
        Status("shipped", None, S.MLPERF_AMD,
               "MLPerf Inference v4.1 results in the 'available' category; per-link xGMI "
               "rate not in a primary source read")),
    "ualink-pod": ScaleUpDomain(
        "UALink 200G 1.0 pod (open standard)", "UALink Consortium", "any accelerator",
        "UALink: 200 Gb/s lanes (IEEE 802.3dj PHY), x1/x2/x4 links, through UALink switches",
        "switched",
        _count(1024, S.UALINK_10, "accelerators per pod, the specification's maximum"),
        None, None, "vendor libraries",
        Status("announced", "2025-04-08", S.UALINK_10,
               "the 1.0 specification was released; first products expected 2026-27")),
}
"""Scale-up domains for contrast (Chapters 4 and 7) and what is announced next. NVIDIA's
shipping systems (GB200/GB300 NVL72, HGX B300 ...) are :data:`interlib.specs.SYSTEMS`."""


def scaleup_domain(name: str) -> ScaleUpDomain:
    """Look up a scale-up domain by id (``"gaudi3-hls3"``, ...)."""
    return SCALEUP_DOMAINS[v.choice("name", name, SCALEUP_DOMAINS)]


NVLINK_FUSION = Status(
    "announced", "2025-05-19", S.NVLINK_FUSION,
    "NVLink-C2C and NVLink IP for third-party CPUs and accelerators (semi-custom "
    "infrastructure); partners named, no shipping product in the sources read")
"""NVLink Fusion: NVIDIA's scale-up opened to other vendors' silicon (Chapter 4)."""
