"""PCI Express, the link every GPU has: generations, transfer times, shared uplinks,
staged copies. Chapter 2 introduces it.

Bandwidths are per direction, in bytes/s. Three levels, always kept apart:

* **raw**: lanes x GT/s / 8 (what the wires signal);
* **usable**: raw x the line-coding efficiency (128b/130b for Gen 3-5, 236/256 FLIT
  payload for Gen 6). The two do not remove the same things: Gen 6's 236/256 already
  excludes its link layer and FEC, Gen 3-5's 128b/130b only the line code;
* **payload**: the TLP payload rate on one basis for every generation (256-B payloads,
  16-B headers, Gen 3-5's per-TLP framing, sequence number and LCRC;
  :meth:`interlib.specs.links.PCIeGen.payload_share`): compare generations with this;
* **achieved**: payload x the measured host-copy efficiency on the same basis
  (nvbandwidth on Gen 5 x16; :func:`interlib.specs.host_copies.pcie_achieved_per_direction`),
  assumed the same for every generation.

The vendor "x16" headline is the raw rate counted in both directions.

>>> from interlib.units import GB_per_s
>>> round(link_bandwidth("5.0", 16, "usable") / GB_per_s, 2)
63.02
>>> round(link_bandwidth("5.0", 16, "headline") / GB_per_s)
128
"""

from __future__ import annotations

import numpy as np

from . import _validate as v
from . import display, transfer
from .specs import PCIE, PCIE_HOST_COPY_EFFICIENCY, calibration as C
from .specs.inside_box import HOST_COPIES
from .specs.host_copies import pcie_achieved_per_direction
from .units import GT_per_s

LEVELS = ("raw", "usable", "payload", "achieved", "headline")
LANES = (1, 2, 4, 8, 16)
LATENCY = C.HOP_LATENCY[("pcie", "ring", "Simple")]
"""Per-transfer start-up latency used for PCIe copies: NCCL's PCI per-step latency
(tuning.cc, Ring/Simple), a model constant borrowed for copies, not a measured
``cudaMemcpy`` start-up."""


def prose_figures() -> dict:
    """Figures Chapter 2's prose quotes, as display strings (the chapter glues them into
    its text, so none is typed by hand): the line coding of generations 3-5 and its
    payload share, and the host-copy efficiency.

    >>> prose_figures()["pcie_encoding"]
    '128b/130b'
    """
    g = PCIE["5.0"]
    return {"pcie_encoding": g.encoding,
            "pcie_payload_share": display.fmt_pct(g.encoding_efficiency.value),
            "pcie_copy_efficiency": display.fmt_pct(PCIE_HOST_COPY_EFFICIENCY.value),
            **_expert_figures()}


def _expert_figures() -> dict:
    """Chapter 2's figures for the DGX/HGX H100 PCIe layout, NCCL's PCIe path defaults and
    GPUDirect RDMA (issue 14)."""
    from .specs import NET_GDR_LEVEL, PCIE_P2P_LEVEL, system

    h100 = system("dgx-h100")
    nic_rate = h100.nic.rate.value
    usable = PCIE["5.0"].usable_per_direction(16)
    return {"p2p_level": PCIE_P2P_LEVEL, "gdr_level": NET_GDR_LEVEL,
            "dgx_h100_nics": str(h100.nics_per_node),
            "dgx_h100_gpus": str(h100.gpus_per_node),
            "dgx_h100_nic": h100.nic.name,
            "nic_rate": display.fmt_rate(nic_rate),
            "nic_share_of_x16": display.fmt_pct(nic_rate / usable),
            "pcie5_x16_usable": display.fmt_rate(usable),
            **_gen6_figures()}


def _gen6_figures() -> dict:
    """Chapter 2's figures for Gen 6 on one basis with Gen 5 and the Gen 6 hardware that
    ships (issue 28, errors 1 and 4)."""
    from .specs import PCIE_PAYLOAD_BYTES, nic, system

    p5, p6 = PCIE["5.0"], PCIE["6.0"]
    gb300, hgx, cx8 = system("gb300-nvl72"), system("hgx-b300"), nic("connectx-8")
    return {"payload_bytes": f"{PCIE_PAYLOAD_BYTES.value:g}-byte",
            "pcie5_payload_share": display.fmt_pct(p5.payload_share()),
            "pcie6_payload_share": display.fmt_pct(p6.payload_share()),
            "pcie5_payload": display.fmt_rate(p5.payload_per_direction(16)),
            "pcie6_payload": display.fmt_rate(p6.payload_per_direction(16)),
            "pcie6_usable": display.fmt_rate(p6.usable_per_direction(16)),
            "pcie6_over_5": display.fmt_ratio(p6.payload_per_direction(16)
                                              / p5.payload_per_direction(16), 3),
            "pcie6_share_128": display.fmt_pct(p6.payload_share(128)),
            "pcie5_share_128": display.fmt_pct(p5.payload_share(128)),
            "cx8_rate": display.fmt_bits(cx8.rate.value * 8),
            "cx8_interface": cx8.host_interface,
            "cx8_share_of_gen6": display.fmt_pct(cx8.rate.value
                                                 / p6.payload_per_direction(16)),
            "gb300_title": gb300.title.split(" (")[0], "hgx_b300_title": hgx.title,
            "gb300_status": str(gb300.status)}


def link_bandwidth(gen: str = "5.0", lanes: int = 16, level: str = "achieved") -> float:
    """Bandwidth of one PCIe link, bytes/s.

    Args:
        gen: ``"3.0"`` ... ``"6.0"``.
        lanes: Link width, one of 1, 2, 4, 8, 16.
        level: ``"raw"`` (GT/s x lanes / 8, per direction), ``"usable"`` (after line
            coding, per direction), ``"payload"`` (TLP payload with 256-B payloads, per
            direction: the like-with-like basis), ``"achieved"`` (payload x measured
            host-copy efficiency on that basis, per direction) or ``"headline"`` (raw,
            both directions added: the vendor figure).

    Returns:
        Bytes/s; per direction except for ``"headline"``.
    """
    g = PCIE[v.choice("gen", gen, PCIE)]
    _lanes("lanes", lanes)
    v.choice("level", level, LEVELS)
    if level == "raw":
        return g.raw_per_direction(lanes)
    if level == "headline":
        return g.headline_bidirectional(lanes)
    if level == "usable":
        return g.usable_per_direction(lanes)
    if level == "payload":
        return g.payload_per_direction(lanes)
    return pcie_achieved_per_direction(gen, lanes)


def transfer_time(size_bytes, gen: str = "5.0", lanes: int = 16, achieved: bool = True):
    """Seconds to copy ``size_bytes`` one way over a PCIe link (host <-> device).

    ``t = alpha + S / B`` with alpha = :data:`LATENCY` and B the achieved (or, with
    ``achieved=False``, usable) per-direction bandwidth of :func:`link_bandwidth`.

    Args:
        size_bytes: Bytes (>= 0), scalar or array.
        gen: PCIe generation.
        lanes: Link width.
        achieved: Measured efficiency (True) or the usable line rate (False).
    """
    achieved = v.flag("achieved", achieved)
    bw = link_bandwidth(gen, lanes, "achieved" if achieved else "usable")
    return transfer.transfer_time(size_bytes, bw, latency=LATENCY.value)


def effective_bandwidth(size_bytes, gen: str = "5.0", lanes: int = 16,
                        achieved: bool = True):
    """Bytes/s actually delivered for a copy of ``size_bytes``: ``S / t``, per direction.

    Small copies are dominated by the start-up latency; large ones approach
    :func:`link_bandwidth`.

    Args:
        size_bytes: Bytes (> 0), scalar or array.
        gen, lanes, achieved: As in :func:`transfer_time`.
    """
    v.positive("size_bytes", size_bytes)
    return v.result(np.asarray(size_bytes, dtype=float)
                    / transfer_time(size_bytes, gen, lanes, achieved))


def switch_bandwidth_per_device(devices, gen: str = "5.0", traffic: str = "host",
                                uplink_lanes: int = 16, device_lanes: int = 16):
    """Achieved bandwidth per device when ``devices`` devices under one PCIe switch
    transfer at the same time, bytes/s per direction.

    * ``traffic="host"``: every device copies to or from host memory, so all of it crosses
      the switch's single uplink to the root complex:
      ``min(B_device, B_uplink / devices)``.
    * ``traffic="peer"``: devices exchange data in pairs under the same switch (GPU <->
      NIC with GPUDirect RDMA, GPU <-> GPU peer-to-peer); the switch forwards it without
      touching the uplink, so each keeps ``B_device``.

    Args:
        devices: Devices transferring at once (>= 1), a whole number or an array of them.
        gen: PCIe generation of all links.
        traffic: ``"host"`` or ``"peer"``.
        uplink_lanes: Width of the switch's uplink.
        device_lanes: Width of each device's link.
    """
    _devices(devices)
    v.choice("traffic", traffic, ("host", "peer"))
    _lanes("uplink_lanes", uplink_lanes)
    _lanes("device_lanes", device_lanes)
    b_dev = link_bandwidth(gen, device_lanes)
    if traffic == "peer":
        return v.result(np.full_like(np.asarray(devices, dtype=float), b_dev))
    return v.result(transfer.shared_uplink_bandwidth(devices, link_bandwidth(gen, uplink_lanes),
                                                     b_dev))


def _lanes(name: str, lanes):
    """Check a link width: one of :data:`LANES`."""
    if isinstance(lanes, (bool, np.bool_)) or not isinstance(lanes, (int, float, np.number)) \
            or lanes not in LANES:
        raise ValueError(f"{name}={lanes!r} is not one of {list(LANES)}")
    return lanes


def _devices(devices):
    """Check a device count (or an array of them): whole numbers >= 1."""
    if np.ndim(devices) == 0:
        return v.integer("devices", devices.item() if isinstance(devices, np.ndarray)
                         else devices, lo=1)
    return np.asarray(v.whole("devices", devices, lo=1), dtype=float)


def shared_transfer_time(size_bytes, devices, gen: str = "5.0", traffic: str = "host",
                         uplink_lanes: int = 16, device_lanes: int = 16):
    """Seconds for each of ``devices`` devices under one PCIe switch to copy
    ``size_bytes`` at the same time: ``t = alpha + S / B_shared`` with alpha =
    :data:`LATENCY` and ``B_shared`` from :func:`switch_bandwidth_per_device`.

    Args:
        size_bytes: Bytes each device copies (>= 0), scalar or array.
        devices, gen, traffic, uplink_lanes, device_lanes: As in
            :func:`switch_bandwidth_per_device`.

    >>> from interlib.units import GB
    >>> round(shared_transfer_time(10 * GB, 2) / transfer_time(10 * GB), 2)
    2.0
    """
    bw = switch_bandwidth_per_device(devices, gen, traffic, uplink_lanes, device_lanes)
    return transfer.transfer_time(size_bytes, bw, latency=LATENCY.value)


def staged_copy_time(size_bytes, gen: str = "5.0", lanes: int = 16, pipelined: bool = False):
    """Seconds to copy GPU -> GPU through host memory when the GPUs cannot reach each
    other directly: device-to-host then host-to-device, each over PCIe at the achieved rate.

    * ``pipelined=False``: the second copy starts after the first ends:
      ``2 (alpha + S / B)``.
    * ``pipelined=True``: the copy is cut into chunks and both legs overlap (what CUDA does
      for a peer copy without peer access): ``2 alpha + S / B``.

    Args:
        size_bytes: Bytes (>= 0), scalar or array.
        gen, lanes: PCIe link of each GPU.
        pipelined: Overlap the two legs.
    """
    pipelined = v.flag("pipelined", pipelined)
    leg = transfer_time(size_bytes, gen, lanes)
    if pipelined:
        return leg + LATENCY.value
    return 2 * leg


def generation_table(lanes: int = 16) -> display.Table:
    """PCIe generations 3-6 at ``lanes`` lanes: signalling, encoding, raw and usable
    bandwidth per direction, the TLP payload rate on one basis for every generation (256-B
    payloads), the model's achieved rate and the vendor bidirectional headline. Generated
    from :data:`interlib.specs.PCIE`."""
    from .specs import PCIE_PAYLOAD_BYTES, gpu

    p = int(PCIE_PAYLOAD_BYTES.value)
    rows = []
    for key, g in PCIE.items():
        rows.append([
            g.name, f"{g.transfer_rate.value / GT_per_s:g} GT/s {g.modulation}", g.encoding,
            display.fmt_rate(link_bandwidth(key, lanes, "raw")),
            display.fmt_rate(link_bandwidth(key, lanes, "usable")),
            display.fmt_pct(g.payload_share()),
            display.fmt_rate(link_bandwidth(key, lanes, "payload")),
            display.fmt_rate(link_bandwidth(key, lanes, "achieved")),
            display.fmt_rate(link_bandwidth(key, lanes, "headline")),
        ])
    gen6 = [x.name.split(" (")[0] for x in (gpu("b300"), gpu("gb300")) if x.pcie_gen == "6.0"]
    return display.Table(
        ["generation", "per-lane signalling", "encoding", f"raw x{lanes}, per direction",
         f"after line coding x{lanes}, per direction",
         f"TLP payload share ({p}-B payloads)", f"TLP payload x{lanes}, per direction",
         f"achieved x{lanes}, per direction (model)", "vendor headline, both directions"],
        rows,
        "Sources: PCI-SIG base specifications (rates, encodings); Lockwood (Gen 6 FLIT "
        "layout); Intel (per-TLP overhead). 'After line coding' is not one basis: Gen 3-5 "
        "lose only 128b/130b, Gen 6's 236/256 also removes its link layer and FEC. The TLP "
        f"payload columns compare like with like at {p}-B payloads and 16-B headers (Gen 3-5 "
        "also pay 8 B of framing, sequence number and LCRC per TLP; their DLLPs are not "
        "counted, which flatters them slightly). Achieved = TLP payload x the host-copy "
        "efficiency measured on Gen 5 x16 "
        f"({HOST_COPIES['azure-nd-h100-v5'].system.split(' (')[0]}) on the same basis. "
        f"Gen 6 GPUs: {' and '.join(gen6)} attach at Gen 6 x16 to a ConnectX-8's built-in "
        "switch (Hot Chips 2025); no Gen 6 host-copy measurement is in our sources, so its "
        "achieved figure is an extrapolation.")


def host_copy_table() -> display.Table:
    """Published host <-> device copy measurements next to the link's usable rate
    (:data:`interlib.specs.inside_box.HOST_COPIES`)."""
    rows = []
    for m in HOST_COPIES.values():
        usable = link_bandwidth(m.pcie_gen, m.lanes, "usable")
        rows.append([m.system, f"PCIe {m.pcie_gen} x{m.lanes}",
                     display.fmt_rate(m.h2d.value), display.fmt_rate(m.d2h.value),
                     display.fmt_rate(usable), display.fmt_pct(m.h2d.value / usable),
                     m.h2d.source.title.split(",")[0]])
    return display.Table(
        ["system", "link", "host to device", "device to host", "usable line rate",
         "H2D / usable", "source"],
        rows, "All figures per direction; nvbandwidth copy-engine copies from pinned memory.")


def box_comparison_table(systems=("h100-pcie-only", "dgx-h100")) -> display.Table:
    """The systems Chapter 2 compares: GPUs, GPU-to-GPU path and per-GPU line rate per
    direction (from :mod:`interlib.specs`)."""
    from .specs import SYSTEMS, system

    rows = []
    for name in v.items("systems", systems):
        s = system(v.choice("systems", name, SYSTEMS))
        path = (f"{s.gpu.pcie.name} x16 only" if s.intra == "pcie" else f"{s.gpu.nvlink.name} via NVSwitch")
        rows.append([s.title, str(s.gpus_per_node), path, display.fmt_rate(s.intra_peak_per_gpu)])
    return display.Table(["system", "GPUs", "GPU-to-GPU path",
                          "per GPU, per direction (line rate)"], rows,
                         "The PCIe-only box is hypothetical, derived from the DGX H100 entry.")
