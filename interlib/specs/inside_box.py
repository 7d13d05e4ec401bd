"""Catalogue entries for Chapters 2-4 (inside the box): measured PCIe host copies and
NVLink point-to-point bandwidth, DGX H100 NVSwitch wiring, NVLink domains and measured
ring vs NVLS all-reduce bandwidth. (GPU compute peaks live in :mod:`.compute`.)

Measurements are ``measured`` Specs with their conditions in the note; they sit beside
the line rates in :mod:`interlib.specs.links` so a chapter can show theory and practice
side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..units import GB_per_s, TB_per_s
from .. import _validate as v
from . import sources as S
from ._base import Spec
from .hardware import system
from .links import NVLINK, PCIE


from .host_copies import (HOST_COPIES, PCIE_HOST_COPY_EFFICIENCY, HostCopy,  # noqa: F401
                          _measured)


# ------------------------------------------------------------ NVLink point to point
@dataclass(frozen=True)
class P2PMeasurement:
    """A published GPU-to-GPU copy measurement over NVLink.

    Attributes:
        system: Where it was measured.
        nvlink_gen: NVLink generation.
        per_direction: One GPU sending to one other, bytes/s.
        bidirectional: Both GPUs sending to each other at once, added (None if not
            published).
    """

    system: str
    nvlink_gen: int
    per_direction: Spec
    bidirectional: Spec | None


def _p2p(gbs, src, note, direction="per direction"):
    return Spec(gbs * GB_per_s, "GB_per_s", "measured", src, direction, note)


P2P = {
    "a100": P2PMeasurement("A100 node", 3,
                           _p2p(274, S.STAS_NETWORK, "p2pBandwidthLatencyTest"), None),
    "h100": P2PMeasurement("H100 node", 4,
                           _p2p(376, S.STAS_NETWORK, "p2pBandwidthLatencyTest"), None),
    "hgx-h100": P2PMeasurement(
        "HGX H100 (user report)", 4,
        _p2p(380, S.NCCL_1264, "p2pBandwidthLatencyTest, user report"),
        _p2p(749, S.NCCL_1264, "p2pBandwidthLatencyTest, user report", "bidirectional")),
    "h200": P2PMeasurement(
        "8 x H200 node (Bekman)", 4,
        _p2p(396.4, S.STAS_NETWORK, "nvbandwidth -t device_to_device_memcpy_write_ce "
                                    "(copy engine, write): '396.40 GB/s per pair'"),
        _p2p(783.7, S.STAS_NETWORK, "nvbandwidth -t device_to_device_bidirectional_memcpy_"
                                    "write_ce: '783.73 GB/s per pair, total'",
             "bidirectional")),
    "gb200": P2PMeasurement("GB200 node", 5,
                            _p2p(746, S.STAS_NETWORK, "p2pBandwidthLatencyTest"), None),
}

#: The NVLink rate per link as each source reports it, next to the catalogue's figure.
NVLINK_REPORTED_PER_LINK = {
    4: Spec(26.5625 * GB_per_s, "GB_per_s", "measured", S.STAS_NETWORK, "per direction",
            "what `nvidia-smi nvlink -s` reports per link on H100: the rate on the wire, "
            "encoding overhead included (Bekman: data / reported = 0.9412, the encoding "
            "overhead)"),
    5: Spec(53.125 * GB_per_s, "GB_per_s", "measured", S.STAS_NETWORK, "per direction",
            "what `nvidia-smi nvlink -s` reports per link on B200: the rate on the wire, "
            "encoding overhead included"),
}

NVLINK_APP_EFFICIENCY = Spec(
    0.8, "fraction", "secondary", S.SJEAUGEY_212,
    note="NCCL maintainer (nccl#1054, nccl-tests#212): 'Roughly, the app-level bandwidth is "
         "80% of the peak bandwidth'; NCCL's own per-link constants encode it per "
         "generation (e.g. 20.6 of 25 GB/s on H100)")


# --------------------------------------------------------------- NVSwitch wiring
DGX_H100_LINKS_PER_SWITCH = tuple(
    Spec(n, "count", "secondary", S.NVSWITCH_HOTCHIPS,
         note=f"NVLink 4 links from every GPU to NVSwitch chip {i}")
    for i, n in enumerate((5, 4, 4, 5)))
"""How each H100's 18 NVLink links are spread over the four NVSwitch 3 chips."""

NVL72_SWITCH_TRAYS = Spec(
    9, "count", "secondary", S.SCALING_BOOK,
    note="NVLink Switch trays in one GB200 NVL72 rack (the switch chips sit in these trays, "
         "not on the GPU boards)")
NVL72_CHIPS_PER_TRAY = Spec(
    2, "count", "secondary", S.SCALING_BOOK,
    note="NVLink Switch chips per NVL72 switch tray")


DGX_H100_NVLINK_AGGREGATE = Spec(
    7.2 * TB_per_s, "TB_per_s", "vendor peak", S.DGX_H100_PAGE, "bidirectional",
    "NVIDIA's DGX H100 headline, '7.2TB/s of bidirectional GPU-to-GPU bandwidth': the "
    "aggregate, 8 GPUs x 900 GB/s; the 3.6 TB/s bisection (NVLINK_DOMAINS['dgx-h100']) is "
    "from NVIDIA's Hot Chips 34 talk")
"""What NVIDIA's DGX H100 page headlines for NVLink: the aggregate, not the bisection."""


FABRICS = ("one switch tier", "multi-tier, assumed non-blocking", "multi-tier, not published",
           "multi-tier, bisection published")

STATUSES = ("shipped", "announced, not shipped", "announced, not publicly released",
            "supported, no shipped system in our sources")
"""Whether an NVLink domain was sold: ``"announced, not shipped"`` where the vendor said
it is not available (DGX H100 NVLink Switch System); ``"announced, not publicly
released"`` where NVIDIA's own NCCL maintainers wrote (May 2024) that no multi-level
NVLink Switch product was publicly available (DGX GH200); ``"supported, no shipped
system in our sources"`` where documentation supports the size but our sources show no
product of it (576-GPU GB200 domains)."""
"""How a domain's switches are arranged, which decides whether its bisection can be
computed as ``floor(n/2) x per-GPU bandwidth``:

* ``"one switch tier"``: every GPU link lands on a switch chip that reaches every GPU (a
  baseboard, an NVL72 rack), so the domain is non-blocking by construction;
* ``"multi-tier, assumed non-blocking"``: switches joined by further switches; the book
  *assumes* full bisection (an upper bound, not a published figure);
* ``"multi-tier, not published"``: switches joined by further switches whose bisection our
  sources do not give; no bisection is computed;
* ``"multi-tier, bisection published"``: switches joined by further switches whose
  bisection the vendor publishes; the headline is that bisection (both directions added) and
  it is quoted, never recomputed from the GPU count (the tier above the nodes may be
  tapered)."""


@dataclass(frozen=True)
class NVLinkDomain:
    """A set of GPUs that all reach each other over NVLink through switches.

    Attributes:
        name: Display name.
        size: Where the GPU count comes from: a catalogued system id (the count is then read
            from :data:`interlib.specs.SYSTEMS`, where it is stored once) or, for a domain
            that is not a catalogued system, a count Spec with its own source. Read it as
            :attr:`gpus`.
        nvlink_gen: NVLink generation of the GPUs.
        headline: The headline figure for the domain: the vendor's, as published, or (kind
            ``"derived"``) this book's arithmetic where the vendor gives none.
        headline_says: What the headline is, in words.
        fabric: One of :data:`FABRICS`.
        status: One of :data:`STATUSES` (default ``"shipped"``).
        status_source: Where the status comes from (required unless shipped).
    """

    name: str
    size: "str | Spec"
    nvlink_gen: int
    headline: Spec
    headline_says: str
    fabric: str
    status: str = "shipped"
    status_source: "S.Source | None" = None

    def __post_init__(self):
        if isinstance(self.size, Spec):
            v.integer("size", self.size.value, lo=2)
        elif not isinstance(self.size, str):
            raise ValueError(f"size={self.size!r} must be a system id or a count Spec")
        v.integer("nvlink_gen", self.nvlink_gen, lo=1, hi=5)
        v.choice("fabric", self.fabric, FABRICS)
        if self.fabric == "multi-tier, bisection published" and \
                self.headline.direction != "bidirectional":
            raise ValueError(f"headline.direction={self.headline.direction!r} must be "
                             "'bidirectional' for a published bisection (both directions "
                             "added, as vendors count it)")
        v.choice("status", self.status, STATUSES)
        if self.status != "shipped" and not isinstance(self.status_source, S.Source):
            raise ValueError(f"status_source={self.status_source!r} must be a Source when "
                             f"status={self.status!r}")

    @property
    def gpus(self) -> Spec:
        """GPUs in the domain, as a count Spec (a catalogued system's count cites the
        system's source)."""
        if isinstance(self.size, Spec):
            return self.size

        s = system(self.size)
        return Spec(s.gpus_per_node, "count", "vendor peak", s.source,
                    note=f"GPUs of {s.title} (interlib.specs.SYSTEMS[{self.size!r}])")

    @property
    def bisection_known(self) -> bool:
        """Whether ``floor(n/2) x per-GPU bandwidth`` is a bisection our sources support
        (one switch tier) rather than an assumption or unknown."""
        return self.fabric == "one switch tier"

    @property
    def published_bisection(self) -> Spec | None:
        """The vendor's published bisection, both directions added, for a
        ``"multi-tier, bisection published"`` domain (its headline); None otherwise."""
        return self.headline if self.fabric == "multi-tier, bisection published" else None


_NVL576_GPUS = Spec(576, "count", "vendor peak", S.NVLINK_576,
                    note="'up to 576 GPUs in a single NVLink domain'")

NVLINK_DOMAINS = {
    "dgx-h100": NVLinkDomain(
        "DGX H100 (8 GPUs)", "dgx-h100", 4,
        Spec(3.6 * TB_per_s, "TB_per_s", "secondary", S.NVSWITCH_HOTCHIPS, "bidirectional",
             "bisection: 8 x 450 GB/s; both directions across the cut added"),
        "bisection bandwidth, both directions added", "one switch tier"),
    "dgx-b200": NVLinkDomain(
        "DGX B200 (8 GPUs)", "dgx-b200", 5,
        Spec(14.4 * TB_per_s, "TB_per_s", "vendor peak", S.DGX_B200, "bidirectional",
             "aggregate NVLink: 8 GPUs x 1.8 TB/s"),
        "aggregate: every GPU's bidirectional bandwidth added", "one switch tier"),
    "dgx-h100-nvlink-256": NVLinkDomain(
        "DGX H100 SuperPOD with NVLink Switch System (256 H100)",
        Spec(256, "count", "vendor peak", S.NVSWITCH_BLOG), 4,
        Spec(57.6 * TB_per_s, "TB_per_s", "vendor peak", S.NVSWITCH_BLOG, "bidirectional",
             "NVIDIA: '57.6 TB/s of all-to-all bandwidth' and '9x more bisection bandwidth "
             "than was possible with HDR InfiniBand on NVIDIA Ampere Architecture GPUs': a "
             "bisection counted in both directions, as for 32 DGX A100 with 8 HDR NICs each "
             "(16 x 8 x 25 GB/s x 2 = 6.4 TB/s; 9 x 6.4 = 57.6). Per direction 28.8 TB/s. "
             "The external NVLink tier was tapered 2:1, as reported from NVIDIA's Hot Chips "
             "34 deck ('OSFP support (4 NVLinks per cage)', 18 cages: 72 of each node's "
             "144 GPU links leave the node; 16 x 72 x 25 GB/s = 28.8 TB/s), so it is not "
             "128 x 450 GB/s per direction"),
        "bisection, both directions added (NVIDIA's 'all-to-all' figure)",
        "multi-tier, bisection published",
        status="announced, not shipped",
        status_source=S.HOPPER_INDEPTH),
    "dgx-gh200-256": NVLinkDomain(
        "DGX GH200 with NVLink Switch System (256 Grace Hopper)",
        Spec(256, "count", "vendor peak", S.HOPPER_PAGE_GH200), 4,
        Spec(57.6 * TB_per_s, "TB_per_s", "vendor peak", S.HOPPER_PAGE_GH200,
             "not stated",
             "NVIDIA: DGX GH200 'support[s] clusters of up to 256 connected H200s and "
             "deliver[s] 57.6 TB/s of all-to-all bandwidth'; the same figure NVIDIA gave "
             "the DGX H100 NVLink Switch System, direction not stated; a two-tier NVLink "
             "Switch fabric whose bisection our sources do not give"),
        "NVIDIA's 'all-to-all bandwidth', as NVIDIA states it", "multi-tier, not published",
        status="announced, not publicly released",
        status_source=S.NCCL_1286),
    "gb200-nvl72": NVLinkDomain(
        "GB200 NVL72 (72 GPUs)", "gb200-nvl72", 5,
        Spec(130 * TB_per_s, "TB_per_s", "vendor peak", S.GB200_PAGE, "bidirectional",
             "'130TB/s of GPU bandwidth' = 72 x 1.8 TB/s (129.6), an aggregate"),
        "aggregate: every GPU's bidirectional bandwidth added (not bisection)",
        "one switch tier"),
    "gb200-nvl576": NVLinkDomain(
        "GB200 NVLink domain (576 GPUs)", _NVL576_GPUS,
        5,
        Spec(_NVL576_GPUS.value * NVLINK[5].per_gpu_bidirectional, "TB_per_s", "derived",
             S.NVLINK_576, "bidirectional",
             "GPUs x NVLink 5 per-GPU bandwidth (both directions), this book's arithmetic: "
             "the source gives only 'up to 576 GPUs in a single NVLink domain'"),
        "aggregate: every GPU's bidirectional bandwidth added (this book's arithmetic; the "
        "source gives only the GPU count)",
        "multi-tier, assumed non-blocking",
        status="supported, no shipped system in our sources", status_source=S.NVLINK_576),
}


# ------------------------------------------------------ NVLS vs ring, measured
@dataclass(frozen=True)
class NVLSMeasurement:
    """Published large-message all-reduce busbw with the ring and with NVLS.

    Attributes:
        system: Catalogue system id.
        gpus: GPUs in the all-reduce.
        ring: Ring busbw (nccl-tests definition).
        nvls: NVLS busbw.
        gpus_stated: False where the source does not state the GPU count and ``gpus`` is
            this book's assumption (the whole domain).
    """

    system: str
    gpus: int
    ring: Spec
    nvls: Spec
    gpus_stated: bool = True

    def __post_init__(self):
        v.integer("gpus", self.gpus, lo=2)
        v.flag("gpus_stated", self.gpus_stated)


NVLS_MEASURED = {
    "dgx-h100": NVLSMeasurement(
        "dgx-h100", 8,
        _measured(370, S.SJEAUGEY_212, "8 x H100, ring, large messages (maintainer)"),
        _measured(480, S.SJEAUGEY_212, "8 x H100, NVLS peak busbw (maintainer)")),
    "gb200-nvl72": NVLSMeasurement(
        "gb200-nvl72", 72,
        _measured(680, S.NCCL_1374, "NVL72, ring; GPU count not stated in our source, taken as "
                               "the full 72-GPU domain"),
        _measured(850, S.NCCL_1374, "NVL72, with NVLink SHARP; GPU count as for the ring"),
        gpus_stated=False),
}
"""Large-message all-reduce busbw, ring vs NVLS, as published (per direction, busbw)."""
