"""Diagrams of what is inside a node or rack (Chapters 2-4): the PCIe tree of a DGX H100,
NVLink links per GPU by generation, the NVSwitch wiring of a DGX H100, the trays of a
GB200 NVL72 rack. Every count and rate is read from :mod:`interlib.specs`."""

from __future__ import annotations

from ... import _validate as v
from ... import display
from ...specs import NVLINK, nvswitch as _nvswitch, system as _system
from ...specs.inside_box import (DGX_H100_LINKS_PER_SWITCH, NVL72_CHIPS_PER_TRAY,
                                 NVL72_SWITCH_TRAYS)
from ...specs.layouts import NVL72_PORTS_PER_SWITCH_TRAY, pcie_tree as _pcie_tree
from ...units import Gbit_per_s
from .. import COLORS
from . import graphs
from ._draw import BIG, EDGE, SMALL, TEXT, box, canvas, finish, label, link

_CHIP_COLORS = [COLORS[c] for c in ("blue", "vermillion", "green", "purple")]


# ------------------------------------------------------------------- Chapter 2: PCIe tree
def pcie_tree(system: str = "dgx-h100"):
    """The PCIe tree of ``system`` (a key of :data:`interlib.specs.layouts.PCIE_TREES`):
    CPU sockets, the PCIe switches under each, and the GPU and compute NIC under each
    switch, with the link generation and rates from the catalogue."""
    tree = _pcie_tree(system)
    sys_ = _system(system)
    g = graphs.pcie_tree_graph(tree)
    pc = sys_.gpu.pcie
    cpus = int(tree.cpus.value)
    per_cpu = [[s for s, c in enumerate(tree.switch_cpu) if c == k] for k in range(cpus)]
    rows = max(len(p) for p in per_cpu)
    card = 1.5
    fig, ax, top = canvas(3.5 + rows * card + 0.9)
    colw = 10.0 / cpus
    y_cpu = top - 2.2
    for c in range(cpus):
        x0 = c * colw
        box(ax, x0 + 1.7, y_cpu, 2.8, 0.75, f"CPU {c}", "cpu", bold=True)
        for i, s in enumerate(per_cpu[c]):
            y = y_cpu - 1.3 - (i + 0.5) * card
            lane = x0 + 0.45 + 0.14 * i
            link(ax, (lane, y_cpu - 0.38), (lane, y), 2.2)
            link(ax, (lane, y), (x0 + 1.0, y), 2.2)
            box(ax, x0 + 1.6, y, 1.3, 0.95, "PCIe\nswitch", "switch", size=SMALL)
            for j, (kind, dev) in enumerate(
                    [("gpu", x) for x in tree.switch_gpus[s]] +
                    [("nic", x) for x in tree.switch_nics[s]]):
                yy = y + 0.3 - 0.6 * j
                link(ax, (x0 + 2.25, y), (x0 + 2.85, yy), 2.2)
                box(ax, x0 + 3.8, yy, 1.9, 0.5,
                    f"GPU {dev}" if kind == "gpu" else f"NIC {dev}", kind, size=SMALL)
    if cpus > 1:
        for c in range(cpus - 1):
            link(ax, (c * colw + 3.1, y_cpu), ((c + 1) * colw + 0.3, y_cpu), 3.0,
                 style="--")
        label(ax, colw * 0.5 + 1.7, y_cpu - 0.4, "socket link", SMALL)
    label(ax, 5.0, 0.35, "not drawn: storage NICs, drives, NVLink", SMALL,
          color=EDGE)
    rate = display.fmt_rate(pc.usable_per_direction(16))
    nic_gbps = sys_.nic.rate.value / Gbit_per_s
    label(ax, 5.0, top - 0.45, f"{sys_.title}: the PCIe tree", BIG, bold=True)
    label(ax, 5.0, top - 1.1,
          f"each line: {pc.name} x16, {rate} per direction\n"
          f"GPU: {sys_.gpu.name} · NIC: {sys_.nic.name}, {nic_gbps:g} Gb/s", SMALL)
    n_sw, n_gpu, n_nic = (graphs.count(g, k) for k in ("switch", "gpu", "nic"))
    alt = (f"Diagram of the PCIe tree of the {sys_.title}: {cpus} CPU sockets joined by a "
           f"socket link; under each CPU {n_sw // cpus} PCIe switches, each with one "
           f"{pc.name} x16 uplink ({rate} per direction) and one GPU and one "
           f"{sys_.nic.name} NIC below it; {n_gpu} GPUs and {n_nic} NICs in all.")
    return finish(fig, alt, dict(cpus=graphs.count(g, "cpu"), switches=n_sw, gpus=n_gpu,
                                 nics=n_nic, pcie_links=sum(
                                     1 for *_, k in g.edges(data="kind") if k == "pcie")))


# ------------------------------------------------------ Chapter 3: links per generation
def nvlink_generations():
    """NVLink links per GPU, one row per generation: each link a line whose length is its
    per-direction rate, so a row's ink is the GPU's NVLink bandwidth."""
    gens = sorted(NVLINK)
    fast = max(NVLINK[g].per_link.value for g in gens)
    row = 2.1
    fig, ax, top = canvas(1.5 + row * len(gens) + 0.75)
    label(ax, 5.0, top - 0.5, "NVLink links per GPU", BIG, bold=True)
    label(ax, 5.0, top - 1.05, "one line per link; length = its rate per direction", SMALL)
    drawn = {}
    for i, gen in enumerate(gens):
        nv = NVLINK[gen]
        n = int(nv.links_per_gpu.value)
        y0 = top - 1.5 - (i + 1) * row
        box(ax, 1.0, y0 + 0.75, 1.7, 1.1, nv.gpu, "gpu", bold=True)
        length = 6.6 * nv.per_link.value / fast
        for j in range(n):
            y = y0 + 0.2 + 1.1 * (j + 0.5) / n
            link(ax, (1.85, y), (1.85 + length, y), 1.6, color=COLORS["blue"])
        label(ax, 2.0, y0 + 1.65,
              f"{nv.name}: {n} × {display.fmt_rate(nv.per_link.value)} = "
              f"{display.fmt_rate(nv.per_gpu_per_direction)}", TEXT, ha="left")
        drawn[gen] = n
    label(ax, 5.0, 0.3, "rates per direction (vendors add both ways)",
          SMALL, color=EDGE)
    parts = "; ".join(f"{NVLINK[g].name} on {NVLINK[g].gpu}: {drawn[g]} links of "
                      f"{display.fmt_rate(NVLINK[g].per_link.value)}" for g in gens)
    alt = ("Diagram: one row per NVLink generation, each GPU drawn with one line per "
           f"NVLink link, line length proportional to the per-direction link rate. {parts}.")
    return finish(fig, alt, dict(links=drawn))


# ---------------------------------------------------------- Chapter 4: NVSwitch wiring
_WIRING = {"dgx-h100": DGX_H100_LINKS_PER_SWITCH}
"""Systems whose GPU-to-switch-chip link split the catalogue has."""


def nvswitch_wiring(system: str = "dgx-h100"):
    """The NVLink wiring of an 8-GPU baseboard: every GPU's links to each NVSwitch chip
    (for the DGX H100: 5 + 4 + 4 + 5 of its 18), line width proportional to the count."""
    v.choice("system", system, _WIRING)
    sys_ = _system(system)
    per = [int(s.value) for s in _WIRING[system]]
    n = sys_.gpus_per_node
    sw = _nvswitch(sys_.nvswitch_gen)
    ports = int(sw.ports_per_chip.value) if sw.ports_per_chip else None
    g = graphs.nvswitch_graph(n, per)
    fig, ax, top = canvas(10.5)
    label(ax, 5.0, top - 0.45, f"{sys_.title}: NVLink wiring", BIG, bold=True)
    label(ax, 5.0, top - 1.2, f"each GPU's {sum(per)} links: " + " + ".join(map(str, per)) +
          f"\nto the {len(per)} {sw.name} chips", SMALL)
    gw = 10.0 / n
    yg, yc = top - 2.5, 1.75
    cw = 10.0 / len(per)
    for i in range(n):
        for c, k in enumerate(per):
            link(ax, (gw * (i + 0.5), yg - 0.45), (cw * (c + 0.5), yc + 0.6), 0.9 * k,
                 color=_CHIP_COLORS[c % len(_CHIP_COLORS)], alpha=0.55)
        box(ax, gw * (i + 0.5), yg, gw - 0.2, 0.9, f"GPU\n{i}", "gpu", size=SMALL)
    for c, k in enumerate(per):
        used = f"\n{n * k}/{ports} ports" if ports else ""
        box(ax, cw * (c + 0.5), yc, cw - 0.2, 1.5, f"chip {c}\n{k} per GPU{used}",
            "switch", size=SMALL)
    label(ax, 5.0, 0.4, f"any GPU reaches any other at\n"
          f"{display.fmt_rate(sys_.gpu.nvlink.per_gpu_per_direction)} per direction",
          SMALL)
    alt = (f"Diagram of the {sys_.title} NVLink wiring: {n} GPUs in a row above "
           f"{len(per)} {sw.name} chips; every GPU sends " +
           ", ".join(f"{k} links to chip {c}" for c, k in enumerate(per)) +
           f" ({sum(per)} in all), drawn as lines whose width grows with the link count" +
           (f"; each chip uses {', '.join(str(n * k) for k in per)} of its {ports} ports."
            if ports else "."))
    return finish(fig, alt, dict(gpus=graphs.count(g, "gpu"), chips=graphs.count(g, "switch"),
                                 links=g.number_of_edges(), per_chip=tuple(per)))


def nvl72_rack(system: str = "gb200-nvl72"):
    """A GB200 NVL72 rack as trays: compute trays of GPUs on the left, NVLink Switch trays
    of two chips on the right; one GPU's links drawn (one to every switch chip)."""
    v.choice("system", system, ("gb200-nvl72",))
    sys_ = _system(system)
    trays, per_tray = sys_.servers_per_node, sys_.gpus_per_server
    s_trays, chips_tray = int(NVL72_SWITCH_TRAYS.value), int(NVL72_CHIPS_PER_TRAY.value)
    chips = s_trays * chips_tray
    links = int(sys_.gpu.nvlink.links_per_gpu.value)
    ports_chip = NVL72_PORTS_PER_SWITCH_TRAY.value / chips_tray
    per_pair = links / chips
    if per_pair != int(per_pair) or ports_chip != sys_.gpus_per_node * per_pair:
        raise ValueError(f"system={system!r}: the catalogue's link and port counts do not "
                         "give every GPU the same number of links to every chip")
    dy = 0.48
    fig, ax, top = canvas(3.1 + trays * dy + 1.1)  # + the two lines below the rack
    label(ax, 5.0, top - 0.45, f"{sys_.title}", BIG, bold=True)
    label(ax, 5.0, top - 1.2, f"{trays} compute trays × {per_tray} GPUs\n"
          f"{s_trays} switch trays × {chips_tray} chips", SMALL)
    y0 = top - 2.4
    gx = [0.55 + 0.62 * j for j in range(per_tray)]
    sdy = trays * dy / s_trays
    chip_xy = []
    for t in range(s_trays):
        y = y0 - (t + 0.5) * sdy
        for c in range(chips_tray):
            chip_xy.append((7.6 + 1.3 * c, y))
    gpu0 = (gx[0], y0 - 0.5 * dy)
    for xy in chip_xy:
        link(ax, (gpu0[0] + 0.25, gpu0[1]), (xy[0] - 0.55, xy[1]), 1.1,
             color=COLORS["vermillion"], alpha=0.8)
    for t in range(trays):
        y = y0 - (t + 0.5) * dy
        for j in range(per_tray):
            box(ax, gx[j], y, 0.5, dy - 0.12, "", "gpu",
                color=COLORS["vermillion"] if (t, j) == (0, 0) else None)
    for xy in chip_xy:
        box(ax, xy[0], xy[1], 1.1, min(sdy - 0.2, 0.6), "", "switch")
    label(ax, 1.5, y0 + 0.25, "compute trays", SMALL)
    label(ax, 8.25, y0 + 0.25, "switch trays", SMALL)
    # below the rack, clear of GPU 0's fan of links
    label(ax, 5.0, y0 - trays * dy - 0.55, f"GPU 0: {links} links, {per_pair:g} "
          f"to each of the {chips} chips\nevery chip: {ports_chip:g} ports, {per_pair:g} per "
          "GPU", SMALL)
    alt = (f"Diagram of the {sys_.title}: {trays} compute trays of {per_tray} GPUs "
           f"({sys_.gpus_per_node} GPUs) beside {s_trays} NVLink Switch trays of "
           f"{chips_tray} chips ({chips} chips); the first GPU is highlighted with its "
           f"{links} NVLink links, one to each switch chip; every chip has "
           f"{ports_chip:g} ports, one per GPU.")
    return finish(fig, alt, dict(gpus=trays * per_tray, chips=len(chip_xy),
                                 drawn_links=len(chip_xy), compute_trays=trays,
                                 switch_trays=s_trays))


__all__ = ["pcie_tree", "nvlink_generations", "nvswitch_wiring", "nvl72_rack"]
