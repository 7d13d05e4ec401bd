"""Scale-out switches and the DGX SuperPOD scalable unit."""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ..units import Gbit_per_s, ms, ns, us
from . import sources as S
from . import studies as _studies
from ._base import Spec, Status


@dataclass(frozen=True)
class Switch:
    """A scale-out switch ASIC/box.

    Attributes:
        name: Display name.
        fabric: ``"InfiniBand"`` or ``"Ethernet"``.
        ports: Ports at ``port_rate``.
        port_rate: bytes/s per direction per port (stored in Gb/s, as vendors quote it).
        optics: ``"pluggable"`` (transceivers in the switch's cages) or ``"co-packaged"``
            (optical engines in the switch package, fibre straight out).
        status: Shipped or announced, with the date (None: shipped, undated here; the
            switches the book used before 2026 are all in service).
    """

    name: str
    fabric: str
    ports: Spec
    port_rate: Spec
    optics: str = "pluggable"
    status: Status | None = None

    def __post_init__(self):
        v.choice("fabric", self.fabric, ("InfiniBand", "Ethernet"))
        v.choice("optics", self.optics, ("pluggable", "co-packaged"))
        if self.status is not None and not isinstance(self.status, Status):
            raise ValueError(f"status={self.status!r} must be a Status or None")

    @property
    def radix(self) -> int:
        """Ports per switch (what sets a fat tree's size per tier)."""
        return int(self.ports.value)

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
                         Spec(64, "count", "vendor peak", S.SPECTRUM4,
                              note="'SN5600 | 64 | 800GbE (100Gbps/lane)'"),
                         Spec(800 * Gbit_per_s, "Gbit_per_s", "vendor peak", S.SPECTRUM4,
                              "per direction")),
    # The 2026 edition (issue 28): XDR InfiniBand and co-packaged optics
    "quantum-x800": Switch("NVIDIA Quantum-X800 Q3400 (XDR)", "InfiniBand",
                           Spec(144, "count", "secondary", S.QUANTUM_X800,
                                note="144 ports of 800 Gb/s (115.2 Tb/s), 200 Gb/s SerDes"),
                           Spec(800 * Gbit_per_s, "Gbit_per_s", "vendor peak",
                                S.NVIDIA_XDR_SWITCH, "per direction"),
                           status=Status("shipped", "2025-10", S.AZURE_GB300_X800,
                                         "in production in Microsoft Azure's first GB300 "
                                         "NVL72 cluster, as reported: the first dated "
                                         "deployment in our sources (the first user manual, "
                                         "XDR_SWITCH_FIRST_MANUAL, is from 2024-09)")),
    "quantum-x-photonics": Switch(
        "NVIDIA Quantum-X Photonics (XDR, co-packaged optics)", "InfiniBand",
        Spec(144, "count", "vendor peak", S.CPO_AVAILABILITY,
             note="'115 Tb/s of switching capacity, supporting 144 ports at 800 Gb/s each'"),
        Spec(800 * Gbit_per_s, "Gbit_per_s", "vendor peak", S.CPO_AVAILABILITY,
             "per direction"),
        optics="co-packaged",
        status=Status("announced", "2025-03-18", S.CPO_AVAILABILITY,
                      "announced at GTC 2025; NVIDIA gave commercial availability as early "
                      "2026 (CPO_AVAILABILITY_GIVEN). NVIDIA documents the Q3450-LD (the "
                      "co-packaged model) in its XDR switch manual, rev 1.3 of November 2025 "
                      "('Preliminary version with the Q3401-RD and Q3450-LD systems'), and "
                      "operators report evaluation units (Lambda, as reported by Converge "
                      "Digest); no dated volume shipment found as of 2026-11")),
    "spectrum-x-photonics": Switch(
        "NVIDIA Spectrum-X Photonics SN6810 (Spectrum-6, co-packaged optics)", "Ethernet",
        Spec(128, "count", "vendor peak", S.CPO_AVAILABILITY,
             note="'Spectrum SN6810: 102.4 Tb/s bandwidth with 128 ports at 800 Gb/s'; the "
                  "SN6800 has 512 ports (409.6 Tb/s)"),
        Spec(800 * Gbit_per_s, "Gbit_per_s", "vendor peak", S.CPO_AVAILABILITY,
             "per direction"),
        optics="co-packaged",
        status=Status("announced", "2025-03-18", S.CPO_AVAILABILITY,
                      "announced at GTC 2025; commercial availability given as the second "
                      "half of 2026 (CPO_AVAILABILITY_GIVEN); no source read (as of 2026-11) "
                      "confirms shipment")),
}

XDR_SWITCH_FIRST_MANUAL = ("2024-09", S.NVIDIA_XDR_SWITCH)
"""When NVIDIA's first user manual of the Quantum-X800 switch systems (Q32xx/Q34xx, rev 1.0,
'preliminary and subject to change') is dated: a document, not a shipment (rev 1.3, Nov 2025,
adds the Q3401-RD and Q3450-LD)."""

CPO_AVAILABILITY_GIVEN = {
    "quantum-x-photonics": ("early 2026", S.CPO_AVAILABILITY),
    "spectrum-x-photonics": ("second half of 2026", S.CPO_AVAILABILITY),
}
"""When NVIDIA said each co-packaged-optics switch would be commercially available (NVIDIA's
technical blog of 2025-08-18): a date given in advance, not a shipment. Both have passed by
this edition (2026-11); NVIDIA's switch manual documents the Quantum-X Photonics model and
evaluation units are reported, but no source read dates a volume shipment of either."""

SUPERPOD_SU = {
    "nodes_per_su": Spec(32, "count", "vendor peak", S.SUPERPOD_RA,
                         note="'SUs of 32 DGX H100 systems each' (8 GPUs each)"),
    "leaves_per_su": Spec(8, "count", "vendor peak", S.SUPERPOD_RA,
                          note="one leaf per rail: NVIDIA's table gives 32 leaves for 4 SUs"),
    "sus_per_pod": Spec(4, "count", "vendor peak", S.SUPERPOD_RA,
                        note="'A fully tested system scales to four SUs': 1,024 GPUs under "
                             "one spine layer"),
    "spines": Spec(16, "count", "vendor peak", S.SUPERPOD_RA,
                   note="16 spine switches for 4 SUs (NVIDIA's component table)"),
}


def switch(name: str) -> Switch:
    """Look up a switch by id (``"quantum-2"``, ``"spectrum-4"``, ``"quantum-x800"`` ...)."""
    return SWITCHES[v.choice("name", name, SWITCHES)]


# ------------------------------------------- latencies, headers, clusters (Chapters 5-6)
ADAPTER_LATENCY = {
    "EDR": Spec(0.5 * us, "us", "secondary", S.BEKMAN_IB_LATENCY,
                note="EDR InfiniBand adapter latency, end to end (the sending and the "
                     "receiving adapter together, as the table quotes it): a community "
                     "figure, no NVIDIA datasheet read"),
    "HDR": Spec(0.6 * us, "us", "vendor peak", S.CX6_USER_MANUAL,
                note="HDR (ConnectX-6): NVIDIA's 'sub-600ns latency', an upper bound; NVIDIA "
                     "does not say whether it is one adapter or both ends of a link, and "
                     "the book charges it once per message, as an end-to-end figure "
                     "(Bekman's community table gives the same 0.6 us end to end). NDR and "
                     "later adapters publish none in the sources read"),
}
"""Adapter (end-to-end) latency by InfiniBand generation: one figure for both NICs of a
message's path, not per NIC."""

SWITCH_HOP_LATENCY = {
    "low": Spec(100 * ns, "ns", "secondary", S.WWT_SWITCH_LATENCY,
                note="NIC-to-NIC through one switch ASIC, low end of the quoted range (a "
                     "community figure: no NVIDIA switch datasheet read gives a "
                     "port-to-port latency)"),
    "high": Spec(300 * ns, "ns", "secondary", S.WWT_SWITCH_LATENCY,
                 note="NIC-to-NIC through one switch ASIC, high end of the quoted range (a "
                      "community figure)"),
}
"""The quoted range of one switch ASIC hop (vendor figures such as "sub-130 ns" for
Quantum HDR are UNCONFIRMED here and not stored)."""


def _hdr(nbytes, src, note):
    return Spec(nbytes, "B", "vendor peak", src, note=note)


PACKET_HEADERS = {
    "ethernet_preamble_ifg": _hdr(20, S.IEEE_8023_FRAME,
                                  "preamble 7 + start frame delimiter 1 + minimum "
                                  "inter-packet gap 12 (wire time, not frame bytes)"),
    "ethernet_mac": _hdr(14, S.IEEE_8023_FRAME, "destination 6 + source 6 + EtherType 2"),
    "ethernet_fcs": _hdr(4, S.IEEE_8023_FRAME, "frame check sequence (CRC-32)"),
    "ipv4": _hdr(20, S.RFC_791, "IPv4 header without options"),
    "ipv6": _hdr(40, S.RFC_8200, "fixed IPv6 header"),
    "udp": _hdr(8, S.RFC_768, "UDP header; RoCEv2 destination port 4791"),
    "ib_bth": _hdr(12, S.IBTA_SPEC, "Base Transport Header"),
    "ib_icrc": _hdr(4, S.IBTA_SPEC, "invariant CRC"),
    "ib_lrh": _hdr(8, S.IBTA_SPEC, "Local Route Header (native InfiniBand)"),
    "ib_vcrc": _hdr(2, S.IBTA_SPEC, "variant CRC (native InfiniBand)"),
    "ib_grh": _hdr(40, S.IBTA_SPEC, "Global Route Header (routed between subnets)"),
    "ib_reth": _hdr(16, S.IBTA_SPEC, "RDMA Extended Transport Header (first packet of a "
                                     "write)"),
}
"""Header and framing sizes of RoCEv2 and native InfiniBand packets, bytes."""

# Meta's two 24,576-GPU training clusters: the figures live once, in .studies.
META_CLUSTERS_24K = {"clusters": _studies.META_CLUSTERS_COUNT,
                     "gpus_per_cluster": _studies.META_CLUSTER_GPUS,
                     "endpoint_rate": _studies.META_ENDPOINT_RATE}
"""Meta's two 24,576-GPU training clusters (March 2024; Appendix B, claim k): a view of
:mod:`.studies` under the names Chapter 6 uses."""


# ------------------------------------- expert review (issue 14): Chapters 5-6 additions
NCCL_IB_DEFAULTS = {
    "qps_per_connection": Spec(1, "count", "model constant", S.NCCL_NET_IB,
                               note="NCCL_IB_QPS_PER_CONNECTION default: one queue pair per "
                                    "connection (one flow for ECMP to place)"),
    "timeout_exponent": Spec(20, "count", "model constant", S.NCCL_NET_IB,
                             note="NCCL_IB_TIMEOUT default: the QP's local ACK timeout "
                                  "exponent, 4.096 us x 2^20"),
    "retry_count": Spec(7, "count", "model constant", S.NCCL_NET_IB,
                        note="NCCL_IB_RETRY_CNT default: retransmissions before the QP "
                             "fails"),
    "ar_threshold": Spec(8192, "B", "model constant", S.NCCL_NET_IB,
                         note="with adaptive routing, messages above this size are sent as "
                              "an RDMA write plus a separate completion write (packets may "
                              "arrive out of order)"),
}
"""Defaults of NCCL's InfiniBand/RoCE transport (``src/transport/net_ib``): not tuned
figures but what a job gets unless an environment variable changes them."""

SHARP_TREES = {
    "Quantum (HDR)": Spec(126, "count", "vendor peak", S.SHARP_DOC,
                          note="aggregation trees per subnet (63 low latency + 63 streaming); "
                               "one active streaming tree per switch"),
    "Quantum-2 (NDR)": Spec(1023, "count", "vendor peak", S.SHARP_DOC,
                            note="aggregation trees per subnet (511 + 511); several streaming "
                                 "operations in parallel, one active tree per port"),
}
"""How many SHARP aggregation trees a subnet supports, by switch generation (how many jobs
or communicators can reduce in the network at once)."""

XDR_SWITCH_PORT_RATE = Spec(800 * Gbit_per_s, "Gbit_per_s", "vendor peak",
                            S.NVIDIA_XDR_SWITCH, "per direction",
                            note="port rate of NVIDIA's XDR InfiniBand switch systems "
                                 "(Quantum-X800 platform)")

DEEP_BUFFER_QUEUE_LIMIT = Spec(5 * ms, "ms", "secondary", S.ARISTA_VOQ,
                               note="default maximum depth of one virtual output queue of "
                                    "a deep-buffer (Jericho-based, HBM-backed) Arista R-series "
                                    "switch, for output ports of 10 to 100 Gb/s: time to "
                                    "drain a full queue at the port's rate")
"""How long a packet can wait in one queue of a deep-buffer chassis switch by default: the
buffer is sized in milliseconds of the port's rate, against the ~100-300 ns of an idle
shallow-buffer hop (:data:`SWITCH_HOP_LATENCY`)."""


def deep_buffer_queue_bytes(port_rate: float | None = None) -> float:
    """Bytes one full deep-buffer queue holds at ``port_rate``: rate x
    :data:`DEEP_BUFFER_QUEUE_LIMIT`.

    Args:
        port_rate: Output port rate, bytes/s per direction (> 0); default a 400 GbE port.

    >>> from interlib.units import Gbit_per_s, MB
    >>> deep_buffer_queue_bytes(100 * Gbit_per_s) / MB
    62.5
    """
    from .links import ethernet

    rate = ethernet(400).value if port_rate is None else v.positive("port_rate", port_rate)
    return float(rate * DEEP_BUFFER_QUEUE_LIMIT.value)
