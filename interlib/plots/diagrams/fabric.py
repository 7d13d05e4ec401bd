"""Diagrams of the fabric between nodes (Chapters 5-6): a k-ary fat-tree, a rail-optimised
scalable unit, and the layers of a RoCEv2 packet to scale. Counts come from
:mod:`interlib.topology` and the wiring graphs of :mod:`.graphs`; header sizes from
:mod:`interlib.packets` (which reads them from the catalogue)."""

from __future__ import annotations

from matplotlib.patches import Rectangle

from ... import _validate as v
from ... import display
from ... import packets, topology
from ...specs import SUPERPOD_SU, switch as _switch, system as _system
from .. import COLORS
from . import graphs
from ._draw import (BIG, EDGE, FILL, RAIL_COLORS, SMALL, TEXT, box, canvas, finish, label,
                    link)

FAT_TREE_K = (4, 6)
"""Radices :func:`fat_tree` draws every switch and host of (k = 8 has 128 hosts: too many
to see on a phone)."""


def fat_tree(k: int = 4):
    """Every switch, host and cable of the three-tier k-ary fat-tree (Al-Fares et al.),
    pods shaded, with the counts :func:`interlib.topology.k_ary_fat_tree` gives."""
    if v.integer("k", k, lo=min(FAT_TREE_K), hi=max(FAT_TREE_K)) not in FAT_TREE_K:
        raise ValueError(f"k={k!r} is not one of {FAT_TREE_K}")
    ft = topology.k_ary_fat_tree(k)
    g = graphs.k_ary_fat_tree_graph(k)
    h = k // 2
    fig, ax, top = canvas(8.2)
    x0, x1 = 1.9, 9.9
    rows = {"core": top - 2.4, "agg": top - 3.7, "leaf": top - 4.8, "host": top - 6.1}
    names = {"core": "core", "agg": "aggre-\ngation", "leaf": "edge", "host": "hosts"}
    pos, per_row = {}, {}
    for kind in rows:
        nodes = [n for n, d in g.nodes(data="kind") if d == kind]
        per_row[kind] = len(nodes)
        w = (x1 - x0) / len(nodes)
        for i, n in enumerate(sorted(nodes)):
            pos[n] = (x0 + w * (i + 0.5), rows[kind])
    pod_w = (x1 - x0) / k
    for p in range(k):
        ax.add_patch(Rectangle(
            (x0 + p * pod_w + 0.04, rows["host"] - 0.35), pod_w - 0.08,
            rows["agg"] - rows["host"] + 0.75, facecolor="#f2f2f2", edgecolor="none",
            zorder=0))
    for a, b in g.edges():
        link(ax, pos[a], pos[b], 0.8, color=EDGE, alpha=0.7)
    for n, (x, y) in pos.items():
        kind = g.nodes[n]["kind"]
        w = min(0.7, (x1 - x0) / per_row[kind] * 0.75)
        box(ax, x, y, w, 0.42 if kind != "host" else 0.32, "",
            {"core": "core", "agg": "switch", "leaf": "leaf", "host": "host"}[kind])
    for kind, y in rows.items():
        label(ax, 0.1, y, f"{names[kind]}\n× {per_row[kind]}", SMALL, ha="left")
    label(ax, 5.0, top - 0.45, f"k-ary fat-tree, k = {k}", BIG, bold=True)
    label(ax, 5.0, top - 1.2, f"{k}-port switches · {ft.hosts} hosts · {ft.switches} switches"
          f"\n{ft.cables} cables · {ft.max_hops} switch hops max", SMALL)
    label(ax, 5.0, 0.3, f"{k} pods (shaded), {h} edge + {h} aggregation each",
          SMALL, color=EDGE)
    alt = (f"Diagram of a three-tier k-ary fat-tree with k = {k}: {per_row['core']} core "
           f"switches on top, {per_row['agg']} aggregation and {per_row['leaf']} edge "
           f"switches in {k} pods, {per_row['host']} hosts at the bottom; "
           f"{ft.switches} switches and {ft.cables} cables in all, and the longest path "
           f"crosses {ft.max_hops} switches.")
    return finish(fig, alt, dict(hosts=per_row["host"], switches=len(pos) - per_row["host"],
                                 cables=g.number_of_edges(), core=per_row["core"],
                                 agg=per_row["agg"], edge=per_row["leaf"]))


def rail_optimised(system: str = "dgx-h100", nodes: int | None = None,
                   switch: str = "quantum-2"):
    """A rail-optimised leaf/spine unit: NIC r of every node goes to the leaf of rail r,
    every leaf to every spine. Defaults: one DGX SuperPOD scalable unit (its node count
    from :data:`interlib.specs.SUPERPOD_SU`) on Quantum-2 switches. A few nodes are drawn
    and the rest elided; the counts cover them all."""
    sys_ = _system(system)
    sw = _switch(switch)
    radix = int(sw.ports.value)
    n = int(SUPERPOD_SU["nodes_per_su"].value) if nodes is None else nodes
    n = v.integer("nodes", n, lo=1, hi=radix // 2)
    rails = sys_.nics_per_node
    if rails > len(RAIL_COLORS) * 2:
        raise ValueError(f"system={system!r} has {rails} NICs per node: at most "
                         f"{len(RAIL_COLORS) * 2} rails can be drawn")
    g = graphs.rail_graph(n, rails, radix)
    spines = graphs.count(g, "spine")
    shown = list(range(n)) if n <= 4 else [0, 1, 2, n - 1]
    fig, ax, top = canvas(11.0)
    ys, yl, yn = top - 2.75, top - 4.95, 1.3
    sp_w = 10.0 / spines
    lf_w = 10.0 / rails
    node_w = 10.0 / (len(shown) + (1 if n > 4 else 0))
    leaf_xy = [(lf_w * (r + 0.5), yl) for r in range(rails)]
    for r, (x, y) in enumerate(leaf_xy):
        for s in range(spines):
            link(ax, (x, y + 0.25), (sp_w * (s + 0.5), ys - 0.25), 1.2, color=EDGE,
                 alpha=0.6)
    slots = [i for i in range(len(shown))]
    if n > 4:
        slots = [0, 1, 2, 4]
    for slot, node in zip(slots, shown):
        cx = node_w * (slot + 0.5)
        for r in range(rails):
            nx_ = cx - node_w * 0.38 + node_w * 0.76 * (r + 0.5) / rails
            link(ax, (nx_, yn + 0.35), (leaf_xy[r][0], yl - 0.25), 1.3,
                 color=RAIL_COLORS[r % len(RAIL_COLORS)], alpha=0.8)
            ax.plot([nx_], [yn + 0.33], "o", ms=5, color=RAIL_COLORS[r % len(RAIL_COLORS)],
                    zorder=6)
        box(ax, cx, yn, node_w * 0.86, 0.6, f"node {node}", "gpu", size=SMALL)
    if n > 4:
        label(ax, node_w * 3.5, yn, f"⋯ {n - 4}\nmore", SMALL)
    for s in range(spines):
        box(ax, sp_w * (s + 0.5), ys, min(sp_w - 0.3, 1.6), 0.5, f"spine {s}", "spine",
            size=SMALL)
    for r, (x, y) in enumerate(leaf_xy):
        box(ax, x, y, lf_w - 0.15, 0.5, f"{r}", "leaf", size=SMALL)
    per_pair = g.number_of_edges(("leaf", 0), ("spine", 0))
    cables = g.number_of_edges()
    label(ax, 5.0, top - 0.45, "Rail-optimised leaf/spine", BIG, bold=True)
    # the counts above the spines, clear of the leaf-spine cables
    label(ax, 5.0, top - 1.4, f"{n} nodes × {rails} NICs · {rails} leaves + {spines} spines"
          f"\n{radix}-port switches · {cables} cables\na leaf per rail · "
          f"{display.fmt_count(per_pair, 'cable')} per leaf-spine pair", SMALL)
    label(ax, 5.0, 0.35, "NIC r of every node → leaf r (colour = rail)", SMALL,
          color=EDGE)
    alt = (f"Diagram of a rail-optimised leaf/spine network: {n} {sys_.title} nodes with "
           f"{rails} NICs each; NIC r of every node is cabled to the leaf switch of rail r "
           f"({rails} leaves, one colour per rail), and every leaf to each of {spines} "
           f"spines with {per_pair} cables per pair; {radix}-port switches, {cables} "
           f"cables in all. {len(shown)} nodes are drawn, the others elided.")
    return finish(fig, alt, dict(nodes=n, leaves=graphs.count(g, "leaf"), spines=spines,
                                 cables=cables, host_cables=n * rails,
                                 drawn_nodes=len(shown)))


# ----------------------------------------------------------------- Chapter 6: the packet
_LAYER_COLORS = {"Ethernet": "#f7d38a", "IP": "#b3e6d5", "UDP": "#9fd3c1",
                 "IB": "#a6d8f5", "preamble": "#d9d9d9"}


def _color(name: str) -> str:
    for key, c in _LAYER_COLORS.items():
        if key in name or (key == "IP" and name.startswith("IPv")):
            return c
    return _LAYER_COLORS["preamble"]


def _split(layers):
    """(headers, trailers) of a packet's layers, in wire order."""
    tail_names = ("IB ICRC", "Ethernet FCS", "IB VCRC")
    heads = [x for x in layers if x[0] not in tail_names and not x[0].startswith("preamble")]
    return heads, [x for x in layers if x not in heads]


def _short(name: str) -> str:
    return "preamble + gap" if name.startswith("preamble") else name


def _stack(ax, x, y_top, width, layers, payload, scale, title):
    """Headers, a payload break and trailers, top down; heights ``bytes x scale``. A layer
    too thin for its label shares the label of the layer above. Returns the bottom y."""
    label(ax, x, y_top + 0.4, title, TEXT, bold=True)
    heads, tails = _split(layers)
    y, groups = y_top, []
    for name, nbytes in heads + [("payload", None)] + tails:
        hgt = 1.0 if nbytes is None else nbytes * scale
        if nbytes is None:
            box(ax, x, y - hgt / 2, width, hgt, f"payload {payload:,} B\n(not to scale)",
                "payload", size=SMALL)
            groups.append(None)
        else:
            box(ax, x, y - hgt / 2, width, hgt, color=_color(name))
            text = f"{_short(name)} {nbytes} B"
            if hgt < 0.32 and groups and groups[-1] is not None:
                groups[-1][0].append(text)
                groups[-1][2] = y - hgt
            else:
                groups.append([[text], y, y - hgt])
        y -= hgt
    for grp in groups:
        if grp is not None:
            texts, ya, yb = grp
            if len(texts) > 1:  # a shared label: drop the common "IB " prefix to fit
                texts = [t.removeprefix("IB ") for t in texts]
            label(ax, x, (ya + yb) / 2, " + ".join(texts), SMALL,
                  bbox=dict(facecolor="white", edgecolor="none", pad=1.0)
                  if len(texts) > 1 else None)
    return y


def packet_layers(payload: int = 4096, ipv6: bool = False):
    """The layers of one RoCEv2 packet beside a native InfiniBand packet's, headers and
    trailers magnified at one bytes-per-height scale, and below them the whole RoCEv2
    packet to scale (:func:`interlib.packets.packet_layout`, header sizes from the
    catalogue)."""
    roce = packets.packet_layout(payload, "rocev2", ipv6=ipv6)
    ib = packets.packet_layout(payload, "infiniband")
    over = max(roce.overhead, ib.overhead)
    fig, ax, top = canvas(15.0)
    label(ax, 5.0, top - 0.45, f"One RDMA packet, {payload:,} B", BIG, bold=True)
    label(ax, 5.0, top - 1.05, "headers and trailers magnified,\nboth at one scale", SMALL)
    y0 = top - 2.4
    scale = (y0 - 3.4 - 1.0) / over
    _stack(ax, 2.55, y0, 4.5, roce.layers, payload, scale,
           "RoCEv2" + (" (IPv6)" if ipv6 else ""))
    _stack(ax, 7.45, y0, 4.5, ib.layers, payload, scale, "InfiniBand")
    for x, lay in ((2.55, roce), (7.45, ib)):
        label(ax, x, 2.85,
              f"{lay.overhead} B overhead\n{display.fmt_pct(lay.efficiency)} payload",
              SMALL)
    # the whole RoCEv2 packet on the wire, to scale, as one bar
    heads, tails = _split(roce.layers)
    parts = [(sum(b for _, b in heads), True), (roce.payload, False),
             (sum(b for _, b in tails), True)]
    x, y = 0.3, 0.75
    for nbytes, red in parts:
        w = 9.4 * nbytes / roce.wire
        ax.add_patch(Rectangle((x, y - 0.3), w, 0.6, zorder=3, edgecolor="none",
                               facecolor=COLORS["vermillion"] if red else FILL["payload"]))
        x += w
    label(ax, 5.0, y + 0.75, f"the whole RoCEv2 packet to scale:\n{roce.wire:,} B on the "
          f"wire, {roce.overhead} B (red) not payload", SMALL)
    alt = (f"Diagram of one RDMA packet with a {payload:,}-byte payload. The RoCEv2 "
           f"layers (" + ", ".join(f"{n} {b} B" for n, b in roce.layers) + ") are drawn "
           f"beside native InfiniBand's (" + ", ".join(f"{n} {b} B" for n, b in ib.layers)
           + f"), heights proportional to bytes, the payload shortened; below, the whole "
           f"RoCEv2 packet to scale, {roce.wire:,} bytes on the wire of which "
           f"{roce.overhead} are thin red slivers. Payload share "
           f"{display.fmt_pct(roce.efficiency)} for RoCEv2 vs "
           f"{display.fmt_pct(ib.efficiency)} for InfiniBand.")
    return finish(fig, alt, dict(rocev2_layers=len(roce.layers), ib_layers=len(ib.layers),
                                 rocev2_overhead=roce.overhead, ib_overhead=ib.overhead))


__all__ = ["fat_tree", "rail_optimised", "packet_layers"]
