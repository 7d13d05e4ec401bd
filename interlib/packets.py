"""What an RDMA packet carries: RoCEv2 and native InfiniBand header overhead per MTU.

Header sizes (bytes), from the standards (stored with their sources in the catalogue,
:data:`interlib.specs.PACKET_HEADERS`):

* Ethernet: MAC header 14 (destination 6, source 6, EtherType 2) + FCS 4 (IEEE 802.3);
  on the wire every frame also costs preamble + start delimiter 8 and an inter-frame
  gap of 12: 20 bytes.
* IPv4 header 20 (RFC 791, no options); UDP header 8 (RFC 768), destination port 4791.
* InfiniBand Base Transport Header (BTH) 12 and invariant CRC (ICRC) 4 (IBTA
  InfiniBand Architecture Specification, Vol. 1; RoCEv2 is its Annex A17).
* Native InfiniBand adds a Local Route Header (LRH) 8 and a variant CRC (VCRC) 2
  (plus a 40-byte GRH only when routed between subnets).
* An RDMA WRITE's first packet also carries a 16-byte RETH (address, key, length).

"MTU" here is the RDMA (InfiniBand) path MTU: payload bytes per packet, 256..4096. A
RoCEv2 packet with a 4096-byte payload needs an Ethernet MTU of at least
4096 + 12 + 4 + 8 + 20 = 4140 bytes (hence the common 4200 or 9000 jumbo setting).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .display import Table

from .specs import PACKET_HEADERS

#: Header and framing sizes in bytes, read from the catalogue
#: (:data:`interlib.specs.PACKET_HEADERS`, each with its source).
HEADERS = {name: int(spec.value) for name, spec in PACKET_HEADERS.items()}

IB_MTUS = (256, 512, 1024, 2048, 4096)
"""RDMA path MTUs (payload bytes) the InfiniBand specification defines."""


@dataclass(frozen=True)
class PacketLayout:
    """Bytes of one packet, by layer.

    Attributes:
        transport: ``"rocev2"`` or ``"infiniband"``.
        payload: Data bytes.
        layers: Ordered (name, bytes) pairs of every header and trailer.
        frame: Bytes of the frame (headers + payload + trailers), no wire framing.
        wire: Bytes the link spends, including Ethernet preamble and gap (RoCEv2).
    """

    transport: str
    payload: int
    layers: tuple
    frame: int
    wire: int

    @property
    def efficiency(self) -> float:
        """Payload share of the bytes on the wire."""
        return self.payload / self.wire

    @property
    def overhead(self) -> int:
        """Bytes on the wire that are not payload."""
        return self.wire - self.payload


def packet_layout(payload: int, transport: str = "rocev2", ipv6: bool = False,
                  reth: bool = False, wire_framing: bool = True) -> PacketLayout:
    """The header stack of one RDMA packet.

    RoCEv2: Ethernet MAC 14 + IPv4 20 (IPv6 40) + UDP 8 + BTH 12 [+ RETH 16] + payload +
    ICRC 4 + FCS 4, plus preamble/IFG 20 on the wire. Native InfiniBand: LRH 8 + BTH 12
    [+ RETH 16] + payload + ICRC 4 + VCRC 2 (its link-layer framing symbols are not
    counted: they cost a few bytes, not tens).

    Args:
        payload: Payload bytes, 0..9000.
        transport: ``"rocev2"`` or ``"infiniband"``.
        ipv6: RoCEv2 over IPv6 instead of IPv4.
        reth: Include the RDMA WRITE extended header (first packet of a write).
        wire_framing: Count Ethernet preamble, start delimiter and inter-frame gap.

    >>> packet_layout(4096).wire, packet_layout(4096, "infiniband").wire
    (4178, 4122)
    """
    p = v.integer("payload", payload, lo=0, hi=9000)
    v.choice("transport", transport, ("rocev2", "infiniband"))
    v.flag("ipv6", ipv6)
    v.flag("reth", reth)
    v.flag("wire_framing", wire_framing)
    H = HEADERS
    if transport == "rocev2":
        layers = [("Ethernet MAC", H["ethernet_mac"]),
                  ("IPv6" if ipv6 else "IPv4", H["ipv6" if ipv6 else "ipv4"]),
                  ("UDP", H["udp"]), ("IB BTH", H["ib_bth"])]
        if reth:
            layers.append(("IB RETH", H["ib_reth"]))
        layers += [("IB ICRC", H["ib_icrc"]), ("Ethernet FCS", H["ethernet_fcs"])]
        frame = p + sum(b for _, b in layers)
        wire = frame + (H["ethernet_preamble_ifg"] if wire_framing else 0)
        if wire_framing:
            layers.append(("preamble + SFD + inter-frame gap", H["ethernet_preamble_ifg"]))
    else:
        layers = [("IB LRH", H["ib_lrh"]), ("IB BTH", H["ib_bth"])]
        if reth:
            layers.append(("IB RETH", H["ib_reth"]))
        layers += [("IB ICRC", H["ib_icrc"]), ("IB VCRC", H["ib_vcrc"])]
        frame = p + sum(b for _, b in layers)
        wire = frame
    return PacketLayout(transport, p, tuple(layers), int(frame), int(wire))


def payload_efficiency(payload, transport: str = "rocev2", ipv6: bool = False):
    """Payload share of wire bytes for each payload size (vectorised).

    Args:
        payload: Payload bytes per packet (> 0, <= 9000), scalar or array.
        transport: ``"rocev2"`` or ``"infiniband"``.
        ipv6: RoCEv2 over IPv6.

    >>> round(payload_efficiency(4096), 4)
    0.9804
    """
    v.number("payload", payload, lo=0.0, hi=9000.0, lo_open=True)
    v.whole("payload", payload)
    v.choice("transport", transport, ("rocev2", "infiniband"))
    over = packet_layout(0, transport, ipv6).wire
    p = np.asarray(payload, dtype=float)
    eff = p / (p + over)
    return float(eff) if eff.ndim == 0 else eff


def goodput(link_rate, payload, transport: str = "rocev2"):
    """Payload bytes/s a link of ``link_rate`` (bytes/s per direction, MAC data rate)
    carries when every packet holds ``payload`` bytes: ``link_rate x efficiency``.

    Args:
        link_rate: bytes/s per direction (> 0).
        payload: Payload bytes per packet, scalar or array.
        transport: ``"rocev2"`` or ``"infiniband"``.
    """
    v.positive("link_rate", link_rate)
    return link_rate * payload_efficiency(payload, transport)


def goodput_loss(link_rate, payload, reference: int = 4096, transport: str = "rocev2"):
    """Payload bytes/s per direction lost by carrying ``payload`` bytes per packet instead
    of ``reference`` bytes (Chapter 6, Problem 1): ``goodput(reference) - goodput(payload)``
    (negative when ``payload`` is the larger).

    Args:
        link_rate: bytes/s per direction (> 0).
        payload: Payload bytes per packet (> 0, <= 9000), scalar or array.
        reference: Payload bytes per packet to compare with (> 0, <= 9000).
        transport: ``"rocev2"`` or ``"infiniband"``.

    >>> goodput_loss(4178.0, 4096, 4096)
    0.0
    """
    v.number("reference", reference, lo=0.0, hi=9000.0, lo_open=True)
    v.whole("reference", reference)
    if np.ndim(reference):
        raise ValueError(f"reference={reference!r} must be a single number")
    return goodput(link_rate, reference, transport) - goodput(link_rate, payload, transport)


def header_table(payloads=IB_MTUS) -> Table:
    """Header overhead of RoCEv2 (IPv4) and native InfiniBand at each RDMA MTU."""
    rows = []
    for p in v.items("payloads", payloads):
        v.integer("payloads", p, lo=0, hi=9000)
        r = packet_layout(p, "rocev2")
        ib = packet_layout(p, "infiniband")
        rows.append([f"{p} B", f"{r.overhead} B", f"{r.wire} B", f"{100 * r.efficiency:.2f} %",
                     f"{ib.overhead} B", f"{100 * ib.efficiency:.2f} %"])
    H = HEADERS
    roce = " + ".join(f"{lab} {H[k]}" for lab, k in (
        ("Ethernet", "ethernet_mac"), ("IPv4", "ipv4"), ("UDP", "udp"), ("BTH", "ib_bth"),
        ("ICRC", "ib_icrc"), ("FCS", "ethernet_fcs")))
    ib = " + ".join(f"{lab} {H[k]}" for lab, k in (
        ("LRH", "ib_lrh"), ("BTH", "ib_bth"), ("ICRC", "ib_icrc"), ("VCRC", "ib_vcrc")))
    used = ("ethernet_mac", "ipv4", "udp", "ib_bth", "ib_icrc", "ethernet_fcs", "ib_lrh",
            "ib_vcrc", "ethernet_preamble_ifg")
    cited = sorted({PACKET_HEADERS[k].source.title.split(",")[0] for k in used})
    return Table(["RDMA MTU (payload)", "RoCEv2 overhead", "RoCEv2 wire bytes",
                  "RoCEv2 efficiency", "IB overhead", "IB efficiency"], rows,
                 f"RoCEv2: {roce}, plus {H['ethernet_preamble_ifg']} B preamble/gap on the "
                 f"wire. InfiniBand: {ib} (specs.PACKET_HEADERS; sources: "
                 f"{'; '.join(cited)}).")


def layout_table(payload: int = 4096) -> Table:
    """One RoCEv2 packet, layer by layer, with the byte count of each."""
    r = packet_layout(payload, "rocev2")
    rows = [[name, f"{b} B"] for name, b in r.layers[:4]]
    rows.append(["payload", f"{payload} B"])
    rows += [[name, f"{b} B"] for name, b in r.layers[4:]]
    rows.append(["total on the wire", f"{r.wire} B"])
    return Table(["field", "bytes"], rows,
                 f"A RoCEv2 packet carrying {payload} B of RDMA payload (IPv4, no RETH).")
