"""Link generations: PCIe, NVLink, InfiniBand, Ethernet.

Stored figures are the ones the sources state (lane signalling, encodings, per-link rate
per direction). Everything else (x16 bandwidth, per-GPU totals, bidirectional headlines) is
derived by the properties below, so a figure lives in exactly one place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import _validate as v
from ..units import GB_per_s, Gbit_per_s, GT_per_s, bit, us
from . import sources as S
from ._base import Spec, Status


# --------------------------------------------------------------------------- PCIe
@dataclass(frozen=True)
class PCIeGen:
    """One PCI Express generation.

    Attributes:
        name: e.g. ``"PCIe 5.0"``.
        transfer_rate: Per-lane signalling, GT/s (one bit per transfer per lane).
        encoding: Line coding, e.g. ``"128b/130b"`` or ``"FLIT 236/256"``.
        encoding_efficiency: Payload share of line bits after line coding (and, for Gen 6,
            FLIT framing: 236 TLP bytes of every 256).
        modulation: ``"NRZ"`` or ``"PAM4"``.
        tlp_overhead: Bytes each transaction-layer packet (TLP) carries besides its header
            and payload: framing, sequence number and LCRC (8 B on Gen 3-5); 0 in Gen 6's
            FLIT mode, where the sequence number and CRC belong to the flit and are already
            inside the 236/256 of ``encoding_efficiency``.
    """

    name: str
    transfer_rate: Spec
    encoding: str
    encoding_efficiency: Spec
    modulation: str
    tlp_overhead: Spec | None = None

    def __post_init__(self):
        v.choice("modulation", self.modulation, ("NRZ", "PAM4"))
        if not isinstance(self.tlp_overhead, Spec) or self.tlp_overhead.unit != "B":
            raise ValueError(f"tlp_overhead={self.tlp_overhead!r} must be a Spec in bytes")

    def raw_per_direction(self, lanes: int = 16) -> float:
        """Raw signalling bandwidth, bytes/s per direction: GT/s x lanes / 8."""
        lanes = v.integer("lanes", lanes, lo=1, hi=32)
        return self.transfer_rate.value * lanes * bit

    def usable_per_direction(self, lanes: int = 16) -> float:
        """Bandwidth left after line coding, bytes/s per direction (before TLP headers)."""
        return self.raw_per_direction(lanes) * self.encoding_efficiency.value

    def headline_bidirectional(self, lanes: int = 16) -> float:
        """The vendor "x16" headline: raw rate counted in both directions, bytes/s."""
        return 2 * self.raw_per_direction(lanes)

    def payload_share(self, payload_bytes: float | None = None,
                      header_bytes: float | None = None) -> float:
        """Share of the line bits that is TLP payload, on one basis for every generation:
        ``encoding_efficiency x P / (P + header + tlp_overhead)``.

        Gen 3-5 lose 128b/130b plus, per TLP, 8 B of framing, sequence number and LCRC and
        the header; Gen 6 loses the flit's 20 of 256 bytes (DLP, CRC, FEC) and, per TLP,
        only the header. Neither counts Gen 3-5's DLLPs and SKP ordered sets, which depend
        on the implementation (in Gen 6 they ride inside the flit), so Gen 3-5 are slightly
        flattered.

        Args:
            payload_bytes: TLP payload P, bytes (> 0); default :data:`PCIE_PAYLOAD_BYTES`
                (256 B, a common maximum payload size).
            header_bytes: TLP header, bytes (>= 0); default :data:`PCIE_TLP_HEADER` (16 B,
                a memory write with a 64-bit address).

        >>> round(PCIE["5.0"].payload_share(256), 3), round(PCIE["6.0"].payload_share(256), 3)
        (0.9, 0.868)
        """
        p = PCIE_PAYLOAD_BYTES.value if payload_bytes is None else \
            v.positive("payload_bytes", payload_bytes)
        h = PCIE_TLP_HEADER.value if header_bytes is None else \
            v.number("header_bytes", header_bytes, lo=0.0, hi=64.0)
        return self.encoding_efficiency.value * p / (p + h + self.tlp_overhead.value)

    def payload_per_direction(self, lanes: int = 16, payload_bytes: float | None = None,
                              header_bytes: float | None = None) -> float:
        """TLP payload bandwidth, bytes/s per direction: raw x :meth:`payload_share`."""
        return self.raw_per_direction(lanes) * self.payload_share(payload_bytes,
                                                                  header_bytes)


_TLP_FRAMING = Spec(8, "B", "vendor peak", S.INTEL_PCIE_OVERHEAD,
                   note="start/end framing (Gen 3-5: the 4-byte STP token), sequence number "
                        "and 4-byte LCRC of one TLP: Intel's 'six dwords' with a 4-DW "
                        "header, less the header; no ECRC")
_FLIT_TLP_FRAMING = Spec(0, "B", "vendor peak", S.PCISIG_FLIT,
                         note="FLIT mode: sequence number, CRC and FEC are per 256-byte "
                              "flit (inside 236/256), not per TLP")

PCIE_TLP_HEADER = Spec(16, "B", "vendor peak", S.INTEL_PCIE_OVERHEAD,
                       note="a four-dword TLP header (a memory write with a 64-bit address)")
"""The TLP header :meth:`PCIeGen.payload_share` assumes by default."""
PCIE_PAYLOAD_BYTES = Spec(256, "B", "derived", S.INTEL_PCIE_OVERHEAD,
                          note="a common maximum payload size (MPS) of GPU servers; the "
                               "book's like-with-like comparison quotes this size")
"""The TLP payload size Chapter 2's like-with-like column assumes."""


def _pcie(name, gts, enc, eff_num, eff_den, mod, src=S.PCIE_SPEC, framing=_TLP_FRAMING):
    return PCIeGen(
        name,
        Spec(gts * GT_per_s, "GT_per_s", "vendor peak", src, "per direction",
             "per lane, one bit per transfer"),
        enc,
        Spec(eff_num / eff_den, "fraction", "vendor peak", src,
             note=f"{enc}: {eff_num} payload units per {eff_den} line units"),
        mod, framing)


PCIE = {
    "3.0": _pcie("PCIe 3.0", 8, "128b/130b", 128, 130, "NRZ"),
    "4.0": _pcie("PCIe 4.0", 16, "128b/130b", 128, 130, "NRZ"),
    "5.0": _pcie("PCIe 5.0", 32, "128b/130b", 128, 130, "NRZ"),
    "6.0": _pcie("PCIe 6.0", 64, "FLIT 236/256", 236, 256, "PAM4", S.LOCKWOOD_PCIE6,
                 _FLIT_TLP_FRAMING),
}

# -------------------------------------------------------------------------- NVLink
@dataclass(frozen=True)
class NVLinkGen:
    """One NVLink generation, on its flagship GPU.

    Attributes:
        name: e.g. ``"NVLink 4"``.
        gpu: The GPU that introduced it.
        links_per_gpu: NVLink links on that GPU.
        per_link: Line rate of one link, **per direction**.
        lane_signalling: Per-lane **data** rate (bits/s, after encoding), one direction;
            ``lanes_per_direction`` of them make one link's per-direction rate. (The rate on
            the wire is slightly higher: it also carries the encoding overhead, see
            :data:`interlib.specs.inside_box.NVLINK_REPORTED_PER_LINK`.)
        lanes_per_direction: Lanes (signal pairs) per link per direction.
        nccl_effective_per_link: What NCCL's topology model assumes one link delivers to
            an application, per direction (``topo.h``).
    """

    name: str
    gpu: str
    links_per_gpu: Spec
    per_link: Spec
    lane_signalling: Spec
    lanes_per_direction: int
    nccl_effective_per_link: Spec

    def __post_init__(self):
        v.integer("links_per_gpu", self.links_per_gpu.value, lo=1)
        v.positive("per_link", self.per_link.value)
        v.positive("lane_signalling", self.lane_signalling.value)
        v.integer("lanes_per_direction", self.lanes_per_direction, lo=1)
        v.positive("nccl_effective_per_link", self.nccl_effective_per_link.value)
        for name in ("per_link", "lane_signalling", "nccl_effective_per_link"):
            d = getattr(self, name).direction
            if d != "per direction":
                raise ValueError(f"{name}.direction={d!r} must be 'per direction'")
        if not math.isclose(self.lanes_per_direction * self.lane_signalling.value,
                            self.per_link.value, rel_tol=1e-9):
            raise ValueError(
                f"lanes_per_direction x lane_signalling = {self.lanes_per_direction} x "
                f"{self.lane_signalling.value:g} B/s must equal per_link = "
                f"{self.per_link.value:g} B/s")
        if self.nccl_effective_per_link.value > self.per_link.value:
            raise ValueError(f"nccl_effective_per_link={self.nccl_effective_per_link.value:g} "
                             f"B/s must be <= per_link={self.per_link.value:g} B/s")

    @property
    def per_link_bidirectional(self) -> float:
        """One link counted in both directions, bytes/s."""
        return 2 * self.per_link.value

    @property
    def per_gpu_per_direction(self) -> float:
        """links x per-link rate, bytes/s each way (e.g. 450 GB/s for NVLink 4)."""
        return self.links_per_gpu.value * self.per_link.value

    @property
    def per_gpu_bidirectional(self) -> float:
        """The vendor headline, both directions added (e.g. 900 GB/s for NVLink 4)."""
        return 2 * self.per_gpu_per_direction

    @property
    def per_gpu_effective(self) -> float:
        """NCCL's application-level bandwidth per GPU per direction (links x topo.h)."""
        return self.links_per_gpu.value * self.nccl_effective_per_link.value


def _nvl(name, gpu, links, per_link_gbs, lane_gbit, lanes, nccl_gbs, src, kind,
         note="", lane_src=S.STAS_NETWORK, lane_kind="secondary", lane_note=""):
    """One generation; ``src`` and ``kind`` describe where the link count and per-link rate
    come from (``"vendor peak"`` only when the source is NVIDIA's own), ``lane_src`` and
    ``lane_kind`` where the lane count and lane rate come from."""
    return NVLinkGen(
        name, gpu,
        Spec(links, "count", kind, src, note=note),
        Spec(per_link_gbs * GB_per_s, "GB_per_s", kind, src, "per direction",
             "line rate of one link in one direction" + (f"; {note}" if note else "")),
        Spec(lane_gbit * Gbit_per_s, "Gbit_per_s", lane_kind, lane_src,
             "per direction", f"data rate of one lane; {lanes} lanes (signal pairs) per "
                              "direction per link" + (f"; {lane_note}" if lane_note else "")),
        lanes,
        Spec(nccl_gbs * GB_per_s, "GB_per_s", "model constant", S.NCCL_TOPO,
             "per direction", "application-level bandwidth of one link assumed by NCCL"))


#: NVLink generations 1-5 by number (:class:`NVLinkGen` records, each figure with its
#: source); look one up with :func:`~interlib.specs.nvlink`.
NVLINK = {
    1: _nvl("NVLink 1", "P100", 4, 20, 20, 8, 18.0, S.P100_WHITEPAPER, "vendor peak",
            "NVIDIA: 'up to four Links', each 'up to 40 GB/sec of bidirectional bandwidth' "
            "(160 GB/sec per GPU)", S.P100_WHITEPAPER, "vendor peak",
            "'a differential pair running at up to 20 Gb/sec. Eight of these ... form a "
            "Sub-Link that sends data in one direction'"),
    2: _nvl("NVLink 2", "V100", 6, 25, 25, 8, 20.0, S.A100_WHITEPAPER, "vendor peak",
            "NVIDIA's A100 whitepaper on V100: 6 links, 25 GB/s in each direction, 300 GB/s "
            "total", S.A100_WHITEPAPER, "derived",
            "twice A100's 4 pairs ('half the number of signal pairs per link compared to "
            "V100'); 25 GB/s x 8 / 8 pairs = 25 Gb/s of data per pair (signalling 25.78)"),
    3: _nvl("NVLink 3", "A100", 12, 25, 50, 4, 20.0, S.A100_WHITEPAPER, "vendor peak",
            "NVIDIA: 'A single A100 NVLink provides 25 GB/second bandwidth in each direction'; "
            "twelve links, 600 GB/sec total (the 4 pairs per direction also stated by an NCCL "
            "maintainer, nccl-tests#149)", S.A100_WHITEPAPER, "vendor peak",
            "'a data rate of 50 Gbit/sec per signal pair'; 4 pairs per direction (H100 "
            "whitepaper: 'four differential pairs (4 lanes) in each direction')"),
    4: _nvl("NVLink 4", "H100", 18, 25, 100, 2, 20.6, S.H100_WHITEPAPER, "vendor peak",
            "NVIDIA: 'H100 includes 18 fourth-generation NVLink links to provide 900 GB/sec "
            "total bandwidth', 25 GB/s in each direction per link", S.H100_WHITEPAPER,
            "derived", "'two high-speed differential pairs in each direction' for 25 GB/s: "
                       "25 x 8 / 2 = 100 Gb/s of data per pair"),
    5: _nvl("NVLink 5", "B200", 18, 50, 200, 2, 40.1, S.NVLINK_PAGE, "vendor peak",
            "NVIDIA: 18 connections of 100 GB/s (both directions) per GPU"),
}

NVLINK_BIDIRECTIONAL_NOTE = (
    "Vendors quote NVLink per GPU with both directions added: 900 GB/s for NVLink 4 is "
    "450 GB/s each way (18 links x 25 GB/s per direction). A transfer from GPU A to GPU B "
    "uses one direction and can never exceed the per-direction figure.")


# -------------------------------------------------------------------- NVLink-C2C
@dataclass(frozen=True)
class ChipToChipLink:
    """NVLink-C2C: the coherent chip-to-chip link between a Grace CPU and its GPU (GH200,
    GB200), which replaces PCIe as the GPU's host link.

    Attributes:
        name: ``"NVLink-C2C"``.
        per_direction: Line rate, bytes/s **per direction** (NVIDIA's "900 GB/s" adds both).
        measured_h2d: A published host-to-device copy over the link, per direction.
        measured_d2h: The device-to-host copy of the same measurement, per direction.
        systems: Where it ships.
        gpus: GPUs that share the link's ``per_direction`` (1 on GH200; 2 on a GB200
            superchip, where NVIDIA quotes one figure for one Grace and two GPUs).
        measured_per_gpu: True when the measurements are one GPU's copies (GB200: nvbandwidth
            per GPU), so the copy efficiency is taken against the per-GPU share, not the
            whole link (on a one-GPU link, GH200, the two are the same).
    """

    name: str
    per_direction: Spec
    measured_h2d: Spec
    measured_d2h: Spec
    systems: str
    gpus: int = 1
    measured_per_gpu: bool = False

    def __post_init__(self):
        for f in ("per_direction", "measured_h2d", "measured_d2h"):
            d = getattr(self, f).direction
            if d != "per direction":
                raise ValueError(f"{f}.direction={d!r} must be 'per direction'")
        v.integer("gpus", self.gpus, lo=1, hi=8)
        v.flag("measured_per_gpu", self.measured_per_gpu)
        for f in ("measured_h2d", "measured_d2h"):
            if getattr(self, f).value > self.per_direction.value:
                raise ValueError(f"{f}={getattr(self, f).value:g} B/s must be <= "
                                 f"per_direction={self.per_direction.value:g} B/s")

    @property
    def bidirectional(self) -> float:
        """Both directions added, bytes/s (NVIDIA's headline)."""
        return 2 * self.per_direction.value

    @property
    def per_gpu_even_split(self) -> float:
        """Each GPU's share when all ``gpus`` copy at once and split the link evenly,
        bytes/s per direction. On GB200 the split is not published: this is the floor of
        the unknown share (one GPU copying alone may get more, up to ``per_direction``)."""
        return self.per_direction.value / self.gpus

    @property
    def measured_slower(self) -> Spec:
        """The slower of the two measured copy directions (the rule of
        :data:`PCIE_HOST_COPY_EFFICIENCY`: the lower measurement)."""
        return min(self.measured_h2d, self.measured_d2h, key=lambda sp: sp.value)

    @property
    def copy_efficiency(self) -> float:
        """The slower measured copy direction over the line rate it was measured against:
        the per-GPU even share when the measurement is one GPU's (``measured_per_gpu``),
        else the whole link's per-direction rate."""
        base = self.per_gpu_even_split if self.measured_per_gpu else self.per_direction.value
        return self.measured_slower.value / base


NVLINK_C2C = ChipToChipLink(
    "NVLink-C2C",
    Spec(450 * GB_per_s, "GB_per_s", "vendor peak", S.GRACE_HOPPER_BLOG, "per direction",
         "NVIDIA: 'up to 900 GB/s total bandwidth, 450 GB/s per direction' between Grace "
         "and Hopper in GH200. GB200 uses NVLink-C2C as its GPU's host link too (MLPerf "
         "system description: accelerator_host_interconnect NVLink-C2C), but there one "
         "Grace's link serves two GPUs: see NVLINK_C2C_SUPERCHIP"),
    Spec(375 * GB_per_s, "GB_per_s", "measured", S.SCHIEFFER_GH200, "per direction",
         "GH200, host-to-device copy over NVLink-C2C"),
    Spec(297 * GB_per_s, "GB_per_s", "measured", S.SCHIEFFER_GH200, "per direction",
         "GH200, device-to-host copy over NVLink-C2C"),
    "GH200 Grace Hopper")
"""The Grace-to-GPU link of GH200 (Chapter 3; Chapter 7's host rung)."""

NVLINK_C2C_SUPERCHIP = ChipToChipLink(
    "NVLink-C2C (GB200 superchip: 1 Grace, 2 GPUs)",
    Spec(450 * GB_per_s, "GB_per_s", "secondary", S.GB200_SUPERCHIP_C2C, "per direction",
         "NVIDIA quotes 900 GB/s (both directions added) for the GB200 superchip's "
         "NVLink-C2C, which joins one Grace CPU and two Blackwell GPUs; how that splits per "
         "GPU is not in our sources. One GPU copying alone measures 201/193 GB/s (Azure ND "
         "GB200 v6), below the even share of 225 GB/s per direction"),
    Spec(201 * GB_per_s, "GB_per_s", "measured", S.AZURE_GB200_BENCH, "per direction",
         "GB200, host-to-device copy of one GPU (nvbandwidth on Azure ND GB200 v6: 'Host to "
         "Device 201')"),
    Spec(193 * GB_per_s, "GB_per_s", "measured", S.AZURE_GB200_BENCH, "per direction",
         "GB200, device-to-host copy of one GPU (nvbandwidth on Azure ND GB200 v6: 'Device "
         "to Host 193')"),
    "GB200 (GB300 assumed the same: our sources give it no separate NVL72 figure)", gpus=2,
    measured_per_gpu=True)
"""The Grace-to-GPUs link of a GB200 superchip: one figure for two GPUs (issue 28, error
2). The peak the models give each GPU is the even split
(:attr:`ChipToChipLink.per_gpu_even_split`, 225 GB/s per direction); the achieved rate is
the slower direction of a published GB200 measurement of one GPU (193 GB/s, device to host;
review R3), not the even split times GH200's copy efficiency (148.5 GB/s, 25 % low)."""


# --------------------------------------------------- reduced-NVLink export parts
@dataclass(frozen=True)
class ReducedNVLinkPart:
    """An export variant of a flagship GPU with fewer NVLink bandwidth (H800, A800).

    Attributes:
        name: e.g. ``"H800 SXM"``.
        full_part: The flagship it is cut down from (``"H100 SXM"``).
        nvlink_gen: NVLink generation of the flagship.
        headline: The vendor's NVLink figure, both directions added.
        measured: A published one-direction measurement, or None.
    """

    name: str
    full_part: str
    nvlink_gen: int
    headline: Spec
    measured: Spec | None

    def __post_init__(self):
        v.integer("nvlink_gen", self.nvlink_gen, lo=1, hi=5)
        if self.headline.direction != "bidirectional":
            raise ValueError(f"headline.direction={self.headline.direction!r} must be "
                             "'bidirectional'")

    @property
    def per_direction(self) -> float:
        """The headline halved, bytes/s each way."""
        return self.headline.value / 2

    @property
    def share_of_full(self) -> float:
        """Per-direction line rate over the flagship's (:data:`NVLINK`)."""
        return self.per_direction / NVLINK[self.nvlink_gen].per_gpu_per_direction


REDUCED_NVLINK = {
    "h800": ReducedNVLinkPart(
        "H800 SXM", "H100 SXM", 4,
        Spec(400 * GB_per_s, "GB_per_s", "secondary", S.DEEPSEEK_V3, "bidirectional",
             "DeepSeek's authors: '400 GB/s is the bidirectional theoretical value'"),
        Spec(160 * GB_per_s, "GB_per_s", "measured", S.DEEPSEEK_V3, "per direction",
             "DeepSeek-V3 H800 cluster: 'our unidirectional measurement'")),
    "a800": ReducedNVLinkPart(
        "A800 SXM", "A100 SXM", 3,
        Spec(400 * GB_per_s, "GB_per_s", "vendor peak", S.A800_DATASHEET, "bidirectional",
             "NVIDIA A800 datasheet: NVLink 400 GB/s (A100: 600 GB/s)"),
        None),
}
"""Export parts with cut-down NVLink (Chapter 3)."""

# ------------------------------------------------------------ NCCL wire formats
NCCL_PROTOCOL_LINES = {
    "LL": (Spec(16, "B", "model constant", S.NCCL_DEVICE_H,
                note="union ncclLLFifoLine: 4 data + 4 flag bytes, twice"),
           Spec(8, "B", "model constant", S.NCCL_DEVICE_H,
                note="data bytes per LL line (the rest are flags)")),
    "LL128": (Spec(128, "B", "model constant", S.NCCL_DEVICE_H,
                   note="NCCL_LL128_LINESIZE"),
              Spec(120, "B", "model constant", S.NCCL_DEVICE_H,
                   note="NCCL_LL128_DATAELEMS = 15 of 16 eight-byte words; one is the "
                        "flag")),
}
"""NCCL's low-latency protocols: (line size, data bytes per line). Simple has no per-line
flags: it synchronises whole chunks with memory fences (Chapter 1)."""

NCCL_MAX_CHANNELS = Spec(64, "count", "model constant", S.NCCL_DEVICE_H,
                         note="MAXCHANNELS: the most channels (each one CUDA block "
                              "working on its own slice of the buffer) a communicator uses")

PCIE_P2P_LEVEL = "PXB"
"""NCCL's default: GPU peer-to-peer over PCIe only up to PXB (through PCIe switches, not
through a CPU host bridge); ``NCCL_P2P_LEVEL`` overrides it (src/graph/paths.cc). One
exception (expert read F2.1): on AMD x86 hosts with at most two GPUs NCCL allows P2P at any
distance (``p2pLevel = PATH_SYS``, paths.cc:327-328 at v2.29.7-1)."""
NET_GDR_LEVEL = "PXB"
"""NCCL's default for GPUDirect RDMA on PCIe-only hosts: the NIC reads/writes GPU memory
directly only up to PXB. The default limit is really ``P2C`` (:data:`NET_GDR_LEVEL_C2C`),
``int netGdrLevel = ncclParamNetGdrC2c() ? PATH_P2C : PATH_PXB`` with ``NCCL_NET_GDR_C2C``
defaulting to 1 (src/graph/paths.cc:420,460 at v2.29.7-1; paths.cc:465,511 at v2.30.7-1);
a PCIe-only host has no P2C path, so PXB is where it stops there.
``NCCL_NET_GDR_LEVEL`` overrides it."""
NET_GDR_LEVEL_C2C = "P2C"
"""NCCL's default GPUDirect RDMA limit on Grace systems (NCCL_NET_GDR_C2C=1, the default):
up to P2C, a GPU reaching a NIC through NVLink-C2C and the CPU's PCIe (GB200 NVL72)."""


NVLINK_MAX_PAYLOAD = {
    "SM": Spec(128, "B", "secondary", S.SJEAUGEY_149,
               note="NCCL maintainer: 'SMs are limited to 128B payload size'; with per-"
                    "packet headers this is why NCCL gets ~20 of 25 GB/s per link"),
    "copy engine": Spec(256, "B", "secondary", S.SJEAUGEY_149,
                        note="'Copy Engines can use 256B': cudaMemcpy between GPUs (and "
                             "p2pBandwidthLatencyTest by default) beats SM-driven copies"),
}
"""Largest NVLink packet payload by who issues the copy (Chapter 3)."""


# ------------------------------------------------------ hardware (not model) latency
PCIE_P2P_LATENCY = Spec(
    0.36 * us, "us", "measured", S.RTX6KPRO_P2P,
    note="GPU-to-GPU peer-to-peer write over PCIe 5.0 x16 through one CPU root complex, "
         "same NUMA node (RTX PRO 6000 Blackwell server; a secondary, community "
         "measurement). A hardware figure, unlike NCCL's tuning.cc step latencies")


# ---------------------------------------------------------------------- InfiniBand
@dataclass(frozen=True)
class InfiniBandGen:
    """One InfiniBand generation (a 4x port unless ``lanes`` says otherwise).

    Attributes:
        name: SDR ... XDR.
        lane_signalling: Per-lane signalling rate, bits/s.
        encoding: Line coding.
        lane_data: Per-lane data rate after line coding, bits/s.
        year: Approximate year of first products, from the IBTA roadmap as tabulated
            (``None`` where the generation is dated by ``announced``/``shipped`` instead,
            or our sources give nothing).
        announced: When the generation's first products were announced, with its source.
        shipped: When they first shipped, with its source (the 2026 edition dates XDR
            this way: its announcement and its first shipment are a year and more apart).
    """

    name: str
    lane_signalling: Spec
    encoding: str
    lane_data: Spec
    year: int | None
    announced: Status | None = None
    shipped: Status | None = None

    def __post_init__(self):
        for field, state in (("announced", "announced"), ("shipped", "shipped")):
            st = getattr(self, field)
            if st is not None and (not isinstance(st, Status) or st.state != state):
                raise ValueError(f"{field}={st!r} must be a Status with state {state!r} "
                                 "or None")
        if (self.announced is not None and self.shipped is not None
                and self.announced.date and self.shipped.date
                and self.shipped.date[:len(self.announced.date)] < self.announced.date):
            raise ValueError(f"shipped={self.shipped.date!r} is before "
                             f"announced={self.announced.date!r}")

    @property
    def first_products(self) -> str:
        """When the first products came, as the sources say it: ``"2022"`` (approximate
        year) or ``"announced 2024-03; shipped 2025-07"``; ``"not in our sources"``."""
        dated = [f"{st.state} {st.date or '(date not in our sources)'}"
                 for st in (self.announced, self.shipped) if st is not None]
        if dated:
            return "; ".join(dated)
        return str(self.year) if self.year is not None else "not in our sources"

    @property
    def coding_efficiency(self) -> float:
        """Share of the lane's signalling rate that carries data (lane data / lane
        signalling): 0.8 for 8b/10b, 64/66 for 64b/66b."""
        return self.lane_data.value / self.lane_signalling.value

    def port_rate(self, lanes: int = 4) -> float:
        """Port data rate, bytes/s per direction (a 4x NDR port: 400 Gb/s = 50 GB/s)."""
        lanes = v.integer("lanes", lanes, lo=1, hi=12)
        return self.lane_data.value * lanes


def _ib(name, sig, enc, data, year, sig_note="per lane", coding=None, src=S.IB_ROADMAP,
        announced=None, shipped=None):
    """``coding=(num, den)``: derive the lane data rate as signalling x num/den instead of
    storing a rounded figure."""
    if coding is not None:
        num, den = coding
        lane = Spec(sig * num / den * Gbit_per_s, "Gbit_per_s", "derived", src,
                    "per direction", f"per lane: {sig} Gb/s signalling x {num}/{den} "
                                     "line code")
    else:
        lane = Spec(data * Gbit_per_s, "Gbit_per_s", "vendor peak", src,
                    "per direction", "per lane, after line coding")
    return InfiniBandGen(
        name,
        Spec(sig * Gbit_per_s, "Gbit_per_s", "vendor peak", src, "per direction",
             sig_note),
        enc, lane, year, announced, shipped)


CONNECTX8_SHIPPED = Status("shipped", "2025-07", S.GB300_FIRST_RACKS,
                           "ConnectX-8 first shipped in the first production GB300 NVL72 "
                           "racks, delivered in early July 2025 (CoreWeave, announced "
                           "2025-07-03); at Hot Chips 2025 NVIDIA called GB300 NVL72 its first "
                           "deployment")
"""ConnectX-8, the first XDR (and 800 Gb/s) NIC: the first XDR shipment our sources date.
``specs.NICS["connectx-8"].status`` and ``INFINIBAND["XDR"].shipped`` are this record."""

INFINIBAND = {
    "SDR": _ib("SDR", 2.5, "8b/10b", 2, 2001),
    "DDR": _ib("DDR", 5, "8b/10b", 4, 2005),
    "QDR": _ib("QDR", 10, "8b/10b", 8, 2007),
    "FDR": _ib("FDR", 14.0625, "64b/66b", None, 2011, coding=(64, 66)),
    "EDR": _ib("EDR", 25.78125, "64b/66b", 25, 2014),
    # HDR/NDR lanes: 64b/66b blocks transcoded to 256b/257b, then RS(544,514) FEC, as in
    # IEEE 802.3 Clause 91 (100GBASE-KP4) and 200G/400G Ethernet: 50 x 257/256 x 544/514
    # = 53.125 Gb/s, data/signalling = 16/17 (sources.INTEL_FEC_AN846).
    "HDR": _ib("HDR", 53.125, "256b/257b + RS(544,514) FEC, PAM4", 50, 2019),
    "NDR": _ib("NDR", 106.25, "256b/257b + RS(544,514) FEC, PAM4", 100, 2022),
    # XDR: the 200 Gb/s lanes of IEEE 802.3dj, 106.25 GBd PAM4 = 212.5 Gb/s, with the same
    # 256b/257b + RS(544,514) as HDR/NDR: 200 x 257/256 x 544/514 = 212.5, data/signalling
    # = 16/17 (NVLink 5's 53.125 GB/s per link, measured, is 2 such lanes). First products:
    # NVIDIA's Quantum-X800 XDR switch systems and ConnectX-8, announced at GTC 2024; the
    # switch's first user manual (rev 1.0, preliminary) is dated 2024-09 and ConnectX-8's
    # initial firmware is 40.44.0208; the first shipment our sources date is ConnectX-8's
    # (in deployment by Hot Chips 2025, first in GB300 NVL72). NCCL detects XDR speed from
    # 2.27.6. Expert read F5.3: 2024 is the announcement, not a shipment.
    "XDR": _ib("XDR", 212.5, "256b/257b + RS(544,514) FEC, PAM4", None, None,
               "per lane: 106.25 GBd PAM4 (IEEE 802.3dj 200 Gb/s lanes)", coding=(16, 17),
               src=S.IEEE_8023DJ,
               announced=Status("announced", "2024-03", S.GTC2024_XDR,
                                "Quantum-X800 (XDR InfiniBand) introduced with Blackwell at "
                                "GTC 2024"),
               shipped=CONNECTX8_SHIPPED),
}


# ------------------------------------------------------------------------ Ethernet
ETHERNET = {
    gbps: Spec(gbps * Gbit_per_s, "Gbit_per_s", "vendor peak", S.IEEE_8023, "per direction",
               f"{gbps} GbE MAC data rate, full duplex")
    for gbps in (100, 200, 400, 800)
}


def pcie(gen: str) -> PCIeGen:
    """Look up a PCIe generation by ``"3.0"`` ... ``"6.0"``."""
    return PCIE[v.choice("gen", gen, PCIE)]


def nvlink(gen: int) -> NVLinkGen:
    """Look up an NVLink generation by number 1..5."""
    v.integer("gen", gen, lo=1, hi=5)
    return NVLINK[gen]


def infiniband(name: str) -> InfiniBandGen:
    """Look up an InfiniBand generation by name, ``"SDR"`` ... ``"XDR"``."""
    return INFINIBAND[v.choice("name", name, INFINIBAND)]


def ethernet(gbps: int) -> Spec:
    """Look up an Ethernet port speed (100, 200, 400 or 800 Gb/s) as a per-direction Spec."""
    if not isinstance(gbps, (int, float)) or isinstance(gbps, bool) or gbps not in ETHERNET:
        raise ValueError(f"gbps={gbps!r} is not one of {sorted(ETHERNET)}")
    return ETHERNET[gbps]

