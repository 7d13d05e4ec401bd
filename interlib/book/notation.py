"""Tables for the "Notation and units" page, generated from :mod:`interlib.units` and the
catalogue, so even the unit examples are computed rather than typed."""

from __future__ import annotations

from .. import display as d, specs, units as u


def prefix_table() -> d.Table:
    """Decimal vs binary prefixes, and bits vs bytes, with exact conversions."""
    rows = [
        ["1 kB, 1 MB, 1 GB, 1 TB", "decimal (SI): powers of 1000",
         f"1 GB = {u.GB:,.0f} bytes"],
        ["1 KiB, 1 MiB, 1 GiB, 1 TiB", "binary (IEC): powers of 1024",
         f"1 GiB = {u.GiB:,.0f} bytes = {u.GiB / u.GB:.6g} GB"],
        ["1 Gb/s (also Gbit/s, Gbps)", "bits per second; 8 bits = 1 byte",
         f"1 Gb/s = {u.Gbit_per_s / u.GB_per_s:g} GB/s"],
        ["1 GB/s (also GBps)", "bytes per second",
         f"1 GB/s = {u.GB_per_s / u.Gbit_per_s:g} Gb/s"],
        ["1 GT/s", "giga-transfers per second per lane (PCIe): signalling, before encoding",
         "1 GT/s moves 1 Gb/s raw per lane (one bit per transfer)"],
        ["µs, ns", "microsecond, nanosecond", f"1 µs = {u.us / u.ns:,.0f} ns"],
    ]
    return d.Table(["written", "meaning", "exactly"], rows,
                   "Rates and vendor figures are decimal; message sizes in benchmark sweeps "
                   "are often binary (nccl-tests uses powers of two).")


def binary_gap_table() -> d.Table:
    """How much larger each binary unit is than its decimal namesake (KiB vs kB ... TiB vs
    TB), computed from :mod:`interlib.units`.

    >>> binary_gap_table().rows[2][:2]
    ['1 GiB', '1.07374 GB']
    """
    rows = []
    for b, dec, bname, dname in ((u.KiB, u.kB, "KiB", "kB"), (u.MiB, u.MB, "MiB", "MB"),
                                 (u.GiB, u.GB, "GiB", "GB"), (u.TiB, u.TB, "TiB", "TB")):
        rows.append([f"1 {bname}", f"{b / dec:.6g} {dname}", d.fmt_pct(b / dec - 1)])
    return d.Table(["binary unit", "in decimal units", "larger by"], rows,
                   "The gap grows with each prefix: a GiB-sized benchmark message and a "
                   "GB-sized model figure are not the same size.")


def direction_table() -> d.Table:
    """The same links stated per direction and both directions added, from the catalogue."""
    nv4, nv5, pcie5 = specs.nvlink(4), specs.nvlink(5), specs.pcie("5.0")
    nic = specs.nic("connectx-7")
    hbm = specs.gpu("h100-sxm").hbm_bandwidth
    rows = [
        ["NVLink 4, one H100", d.fmt_rate(nv4.per_gpu_bidirectional),
         d.fmt_rate(nv4.per_gpu_per_direction),
         f"{nv4.links_per_gpu.value:.0f} links x {d.fmt_rate(nv4.per_link.value)} each way"],
        ["NVLink 5, one B200", d.fmt_rate(nv5.per_gpu_bidirectional),
         d.fmt_rate(nv5.per_gpu_per_direction),
         f"{nv5.links_per_gpu.value:.0f} links x {d.fmt_rate(nv5.per_link.value)} each way"],
        ["PCIe 5.0 x16", d.fmt_rate(pcie5.headline_bidirectional(16)),
         d.fmt_rate(pcie5.raw_per_direction(16)),
         f"{d.fmt_rate(pcie5.usable_per_direction(16))} after 128b/130b encoding"],
        [f"{nic.name} NIC", d.fmt_rate(2 * nic.rate.value), d.fmt_rate(nic.rate.value),
         f"vendors quote {d.fmt_bits(nic.rate.value / u.bit)} per direction"],
        ["HBM3, one H100", "n/a", "n/a",
         f"{d.fmt_rate(hbm.value)} shared by reads and writes: not a link, no direction"],
    ]
    return d.Table(["link", "both directions added (headline)", "per direction",
                    "how it adds up"], rows,
                   "From interlib.specs (NVIDIA NVLink and Hopper pages, PCI-SIG, ConnectX-7 "
                   "documentation, H100 datasheet).")
