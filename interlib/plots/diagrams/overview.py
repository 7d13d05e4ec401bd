"""Diagrams of the whole picture (Chapters 1, 7, 8): the steps of a ring all-reduce, the
bandwidth ladder drawn to a linear scale, the capstone cluster's layout."""

from __future__ import annotations

from matplotlib import colormaps
from matplotlib.patches import Rectangle

from ... import _validate as v
from ... import capstone, collectives, display, hierarchy
from .. import COLORS
from ._draw import BIG, EDGE, FILL, INK, SMALL, TEXT, box, canvas, finish, label, link

RING_MAX_GPUS = 6
"""Most GPUs :func:`ring_all_reduce_steps` draws (2(n-1)+1 rows of n x n chunks)."""


# ------------------------------------------------------------ Chapter 1: the ring, step by step
def ring_all_reduce_steps(n: int = 4):
    """Every state of a ring all-reduce on ``n`` GPUs, one row per step: each GPU's ``n``
    chunks, numbered by how many GPUs' contributions that copy already sums (from
    :func:`interlib.collectives.ring_all_reduce_state`); the chunk each GPU sends next is
    outlined. Reduce-scatter fills one chunk per GPU; all-gather copies the finished
    chunks around."""
    n = v.integer("n", n, lo=2, hi=RING_MAX_GPUS)
    steps = 2 * (n - 1)
    row = 0.78
    fig, ax, top = canvas(3.0 + (steps + 1) * row + 0.8)
    label(ax, 5.0, top - 0.45, "Ring all-reduce, step by step", BIG, bold=True)
    label(ax, 5.0, top - 1.35, f"{n} GPUs · RS = reduce-scatter, AG = all-gather\n"
          "number: GPUs summed into that copy of a chunk\n"
          "outlined: the chunk sent to the next GPU", SMALL)
    x0, gap = 1.6, 0.3
    strip = (10.0 - x0 - 0.1 - gap * (n - 1)) / n
    cell = strip / n
    y_head = top - 2.45
    for gpu in range(n):
        label(ax, x0 + gpu * (strip + gap) + strip / 2, y_head, f"GPU {gpu}", TEXT, bold=True)
    cmap = colormaps["Blues"]
    cells = outlines = 0
    full_last = 0
    for s in range(steps + 1):
        y = y_head - 0.55 - s * row
        counts = collectives.ring_all_reduce_state(n, s)
        sends = collectives.ring_step_sends(n, s)[0] if s < steps else None
        name = "start" if s == 0 else (f"RS {s}" if s < n else f"AG {s - n + 1}")
        label(ax, 0.1, y, name, SMALL, ha="left")
        for gpu in range(n):
            xs = x0 + gpu * (strip + gap)
            for c in range(n):
                k = int(counts[gpu, c])
                shade = cmap(0.15 + 0.8 * k / n)
                ax.add_patch(Rectangle((xs + c * cell, y - 0.3), cell, 0.6, facecolor=shade,
                                       edgecolor="white", linewidth=1.0, zorder=3))
                label(ax, xs + (c + 0.5) * cell, y, str(k), SMALL,
                      color="white" if k / n > 0.55 else INK, bold=k == n)
                cells += 1
                if s == steps:
                    full_last += k == n
            if sends is not None:
                c = int(sends[gpu])
                ax.add_patch(Rectangle((xs + c * cell + 0.03, y - 0.27), cell - 0.06, 0.54,
                                       fill=False, edgecolor=COLORS["vermillion"],
                                       linewidth=2.2, zorder=4))
                outlines += 1
    y_split = y_head - 0.55 - (n - 0.5) * row  # between the two phases
    link(ax, (0.1, y_split), (9.9, y_split), 1.2, color=EDGE, style=":")
    label(ax, 5.0, 0.35, f"{steps} steps, each moving 1/{n} of the buffer per GPU", SMALL,
          color=EDGE)
    alt = (f"Diagram of a ring all-reduce on {n} GPUs as {steps + 1} rows, the start and "
           f"then one row per step: each GPU's buffer is {n} chunks numbered by how many "
           f"GPUs' contributions they sum. During the {n - 1} reduce-scatter steps each "
           f"GPU sends one outlined chunk to the next GPU, which adds it; afterwards each "
           f"GPU holds one complete chunk (number {n}). The {n - 1} all-gather steps copy "
           f"the complete chunks around until every GPU holds all {n}.")
    return finish(fig, alt, dict(rows=steps + 1, cells=cells, outlines=outlines,
                                 complete_at_end=full_last))


# ----------------------------------------------------------- Chapter 7: the ladder to scale
_RUNG_TEXT = {"HBM": "GPU ⇄ its own memory (HBM)", "NVLink": "GPU ⇄ GPU in the node (NVLink)",
              "PCIe": "GPU ⇄ CPU or NIC (PCIe)", "Scale-out NIC": "GPU ⇄ other nodes (its NIC)",
              "Spine": "across the spine (leaf uplinks)"}


def bandwidth_ladder(system: str = "dgx-h100", oversubscription: float = 1.0):
    """The bandwidth ladder of one GPU of ``system`` as bars whose length is proportional
    to the peak rate (linear, so the low rungs look as small as they are), the achieved
    rate as the dark core (:func:`interlib.hierarchy.ladder`)."""
    rungs = hierarchy.ladder(system, oversubscription)
    sys_ = hierarchy._system(system)
    widest = max(r.peak for r in rungs)
    row = 1.75
    fig, ax, top = canvas(2.5 + row * len(rungs) + 0.6)
    label(ax, 5.0, top - 0.45, "The bandwidth ladder", BIG, bold=True)
    label(ax, 5.0, top - 1.4, f"one GPU of {sys_.title}\nbar length = peak rate (linear "
          "scale)\ndark core = achieved", SMALL)
    full = 9.4
    for i, r in enumerate(rungs):
        y = top - 2.6 - i * row
        label(ax, 0.3, y, _RUNG_TEXT.get(r.name, r.name), TEXT, ha="left", bold=True)
        unit = "read + write" if r.name == "HBM" else "per direction"
        label(ax, 0.3, y - 0.48, f"{display.fmt_rate(r.peak)} peak, "
              f"{display.fmt_rate(r.effective)} achieved, {unit}", SMALL, ha="left")
        w_peak = max(full * r.peak / widest, 0.04)
        w_eff = max(full * r.effective / widest, 0.02)
        yy = y - 1.05
        ax.add_patch(Rectangle((0.3, yy - 0.25), w_peak, 0.5, facecolor=FILL["gpu"],
                               edgecolor=EDGE, linewidth=0.8, zorder=3))
        ax.add_patch(Rectangle((0.3, yy - 0.12), w_eff, 0.24, facecolor=COLORS["blue"],
                               edgecolor="none", zorder=4))
    ratio = widest / min(r.peak for r in rungs)
    label(ax, 5.0, 0.3, f"longest / shortest bar: {display.fmt_ratio(ratio)}", SMALL,
          color=EDGE)
    alt = (f"Diagram of the bandwidth ladder of one GPU of {sys_.title} as horizontal bars "
           f"whose lengths are proportional to the peak rate, with the achieved rate as a "
           f"darker core: " + "; ".join(
               f"{r.name} {display.fmt_rate(r.peak)} peak, {display.fmt_rate(r.effective)} "
               f"achieved" for r in rungs) + f". The longest bar is "
           f"{display.fmt_ratio(ratio)} the shortest.")
    return finish(fig, alt, dict(rungs=len(rungs), names=tuple(r.name for r in rungs)))


# --------------------------------------------------------- Chapter 8: capstone layout
_STAGE_COLORS = [COLORS[c] for c in ("sky", "orange", "green", "purple", "yellow",
                                     "vermillion", "blue", "grey")]


def capstone_layout(nodes: int | None = None, tp: int | None = None, pp: int | None = None,
                    radix: int | None = None):
    """The capstone cluster (:func:`interlib.capstone.design`, defaults
    :data:`interlib.capstone.REFERENCE`): spine and leaf switches with their counts, and
    every node as a row of GPUs coloured by pipeline stage (Megatron order: TP inside a
    node, then PP, then DP). When a pipeline fills a whole number of nodes (at most 8),
    each row of nodes is one pipeline (one model replica) and each column one
    data-parallel group."""
    ref = capstone.REFERENCE
    kw = dict(nodes=ref["nodes"] if nodes is None else nodes,
              tp=ref["tp"] if tp is None else tp, pp=ref["pp"] if pp is None else pp,
              radix=ref["radix"] if radix is None else radix)
    v.integer("nodes", kw["nodes"], lo=1, hi=64)
    d = capstone.design(**kw)
    g = d.system.gpus_per_node
    t, p = kw["tp"], kw["pp"]
    n_nodes = kw["nodes"]
    if p > len(_STAGE_COLORS):
        raise ValueError(f"pp={p} is out of range: at most {len(_STAGE_COLORS)} stages "
                         "can be coloured")
    # Megatron order: rank = tp_i + tp x (pp_i + pp x dp_i); node = rank // g
    stage = [(r // t) % p for r in range(d.n_gpus)]
    replica = [r // (t * p) for r in range(d.n_gpus)]
    per_pipe = t * p / g  # nodes holding one pipeline (one model replica)
    cols = int(per_pipe) if per_pipe == int(per_pipe) and 1 <= per_pipe <= 8 else 8
    cols = min(cols, n_nodes)
    rows = -(-n_nodes // cols)
    tiers = d.tree.switches_per_tier
    fig, ax, top = canvas(5.3 + 0.75 * rows + 0.3)
    label(ax, 5.0, top - 0.45, "Capstone cluster layout", BIG, bold=True)
    label(ax, 5.0, top - 1.0, f"{d.n_gpus} GPUs = TP {t} × PP {p} × DP {d.dp}", SMALL)
    names = ["leaf", "spine", "core", "tier 4", "tier 5"]
    for i, count in enumerate(reversed(tiers)):
        name = names[len(tiers) - 1 - i]
        y = top - 1.7 - 0.75 * i
        box(ax, 5.0, y, 6.0, 0.5, f"{count} {name} switches ({d.tree.radix}-port)",
            "spine" if name != "leaf" else "leaf", size=SMALL)
    y_sw = top - 1.7 - 0.75 * (len(tiers) - 1)
    x0 = 2.2
    pipes = cols == per_pipe
    cw = (10.0 - x0) / cols
    label(ax, 5.0, y_sw - 1.0, f"every node: {d.system.nics_per_node} NICs to the leaves" +
          ("\nrow: one pipeline (a model replica)\ncolumn: one data-parallel group"
           if pipes else ""), SMALL, color=EDGE)
    for k in range(n_nodes):
        r_, c_ = divmod(k, cols)
        cx, cy = x0 + cw * (c_ + 0.5), y_sw - 2.3 - r_ * 0.75
        if c_ == 0:
            label(ax, 0.1, cy, f"replica {r_}" if pipes else
                  f"nodes {k}-{min(k + cols, n_nodes) - 1}", SMALL, ha="left")
        gw = (cw - 0.3) / g
        for j in range(g):
            rank = k * g + j
            ax.add_patch(Rectangle((cx - (cw - 0.3) / 2 + j * gw, cy - 0.25), gw, 0.5,
                                   facecolor=_STAGE_COLORS[stage[rank]], edgecolor="white",
                                   linewidth=0.5, zorder=3))
        ax.add_patch(Rectangle((cx - (cw - 0.3) / 2, cy - 0.25), cw - 0.3, 0.5, fill=False,
                               edgecolor=EDGE, linewidth=1.0, zorder=4))
    y_leg = 0.45
    step = 2.2 if p <= 4 else 1.05
    for s in range(p):
        x = 5.0 + (s - (p - 1) / 2) * step
        ax.add_patch(Rectangle((x - 0.65, y_leg - 0.18), 0.36, 0.36,
                               facecolor=_STAGE_COLORS[s], zorder=3))
        label(ax, x - 0.2, y_leg, f"stage {s}" if p <= 4 else str(s), SMALL, ha="left")
    if p > 4:
        label(ax, 0.05, y_leg, "stage", SMALL, ha="left")
    switches = " and ".join(f"{c} {names[i]}" for i, c in enumerate(tiers))
    alt = (f"Diagram of the capstone cluster: {switches} switches of {d.tree.radix} ports "
           f"above {n_nodes} nodes of {g} GPUs ({d.n_gpus} GPUs) drawn in rows of {cols}; "
           f"each GPU is coloured by its pipeline stage (TP {t} inside a node, PP {p}, "
           f"DP {d.dp}); matching GPUs of one stage in all {d.dp} replicas form its "
           f"data-parallel groups. The network has {d.tree.cables} cables.")
    return finish(fig, alt, dict(nodes=n_nodes, gpus=d.n_gpus, switches=tuple(tiers),
                                 stages=p, replicas=max(replica) + 1))


__all__ = ["ring_all_reduce_steps", "bandwidth_ladder", "capstone_layout"]
