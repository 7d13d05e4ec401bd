"""Chapter 5 figures: multi-node all-reduce, fat-tree sizing, the three topologies side by
side, credit flow control.

Each figure is built in two steps, so a demo can change it in place on a slider move
(``interlib.widgets.Demo.update``) with the very code that draws it: the plot function
builds a static skeleton (figure, axes, fixed limits, labels, and the changing artists
empty or at placeholder data), then calls one ``_fill_<name>(fig, **params)`` that sets
everything that depends on the parameters and returns those artists, always the same
ones. Axes limits never depend on the parameters, so a moved slider can be redrawn by
blitting only the returned artists.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

import numpy as np
from matplotlib.ticker import FuncFormatter, PercentFormatter

from .. import _validate as v
from .. import collectives, display, flowcontrol, scaleout, topology
from ..units import MiB
from . import COLORS, binary_size_axis, new_figure, si_axis

# ------------------------------------------------------------ multi-node all-reduce
_ALG_STYLE = {
    "ring": (COLORS["blue"], "-", "flat ring (all GPUs, NCCL channels over every NIC)"),
    "hierarchical": (COLORS["green"], "-", "hierarchical: NVLink RS, NIC all-reduce, NVLink AG"),
    "sharp": (COLORS["purple"], "-", "hierarchical + SHARP (switches reduce)"),
    "auto": (COLORS["black"], "--", "NCCL's choice (ring / tree / NVLSTree)"),
}


def nccl_algorithm_label(algorithm: str, nodes: int) -> str:
    """NCCL's name for the algorithm ``collectives.predict`` chose
    (:data:`interlib.collectives.NCCL_NAMES`): ``"nvls_tree"`` is NVLSTree (NVLink SHARP
    inside each node, a tree between nodes); an ``"nvls"`` across nodes is timed as
    NVLSTree too. The book's own algorithms keep their names.

    >>> nccl_algorithm_label("nvls_tree", 16), nccl_algorithm_label("nvls", 1)
    ('NVLSTree', 'NVLS')
    """
    name = v.choice("algorithm", algorithm, [a for a in collectives.ALGORITHMS if a != "auto"])
    nodes = v.integer("nodes", nodes, lo=1)
    if name == "nvls" and nodes > 1:
        name = "nvls_tree"
    return collectives.NCCL_NAMES.get(name, name) if name.startswith("nvls") else name
_SIZES = 2.0 ** np.arange(20, 33)     # 1 MiB .. 4 GiB
#: The node every all-reduce figure and demo models (with what-if NICs).
ALLREDUCE_SYSTEM = "dgx-h100"
#: Beyond this share of the size axis the time label goes to the left of the marker, so
#: it stays inside the figure at the largest sizes.
_LABEL_FLIP_AT = 0.9


@functools.lru_cache(maxsize=128, typed=True)
def _allreduce_curves(nodes, nic, nics_per_node):
    """The system and ``{algorithm: Prediction}`` over :data:`_SIZES` (memoised: a
    size-slider move does not change the curves)."""
    sys_ = scaleout.with_nics(ALLREDUCE_SYSTEM, nic, nics_per_node)
    return sys_, MappingProxyType(scaleout.multinode_all_reduce(_SIZES, nodes, sys_))


@functools.lru_cache(maxsize=512, typed=True)
def allreduce_at(size_mib, nodes: int = 16, nic: str = "connectx-7",
                 nics_per_node: int = 8):
    """The what-if system and the all-reduce predictions ``{algorithm: Prediction}`` for
    ``size_mib`` MiB per GPU on ``nodes`` DGX H100-class nodes with ``nics_per_node``
    ``nic`` NICs: what :func:`allreduce_multinode` marks and the ``ib_allreduce`` demo
    prints. Memoised (the figure and the demo's text share one computation); the mapping
    is read-only.

    >>> sys_, preds = allreduce_at(1024.0)
    >>> sys_.gpus_per_node, sorted(preds) == sorted(scaleout.ALLREDUCE_ALGORITHMS)
    (8, True)
    """
    v.positive("size_mib", size_mib)
    sys_ = scaleout.with_nics(ALLREDUCE_SYSTEM, nic, nics_per_node)
    return sys_, MappingProxyType(scaleout.multinode_all_reduce(size_mib * MiB, nodes, sys_))


def allreduce_multinode(nodes: int = 16, nic: str = "connectx-7", nics_per_node: int = 8,
                        size_mib: float = 1024.0):
    """All-reduce time vs message size on ``nodes`` DGX H100-class nodes, for each
    algorithm, with a what-if NIC model and NIC count; the marker is the chosen size."""
    fig, ax = new_figure()
    for alg in scaleout.ALLREDUCE_ALGORITHMS:
        col, ls, label = _ALG_STYLE[alg]
        ax.plot([], [], color=col, ls=ls, lw=2.2 if alg == "auto" else 1.6, label=label,
                gid=f"curve:{alg}")
    for alg in scaleout.ALLREDUCE_ALGORITHMS:
        ax.plot([], [], "o", color=_ALG_STYLE[alg][0], ms=6, zorder=5, gid=f"marker:{alg}")
    ax.annotate("", (_SIZES[0], 1.0), textcoords="offset points", xytext=(8, -14),
                fontsize=10, fontweight="bold", gid="time")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(1e-5, 10.0)
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "s")
    ax.set_xlabel("all-reduce size per GPU")
    ax.set_ylabel("time (log)")
    ax.set_title(" ", fontsize=9)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_allreduce(fig, nodes=nodes, nic=nic, nics_per_node=nics_per_node,
                    size_mib=size_mib)
    return fig


def _fill_allreduce(fig, nodes, nic, nics_per_node, size_mib):
    """Set what :func:`allreduce_multinode` draws for these parameters (curves, markers,
    time label, title) on a figure it made; returns those artists."""
    ax = fig.axes[0]
    a = _by_gid(ax)
    sys_, preds = _allreduce_curves(nodes, nic, nics_per_node)
    _, chosen = allreduce_at(size_mib, nodes, nic, nics_per_node)
    size = size_mib * MiB
    for alg in scaleout.ALLREDUCE_ALGORITHMS:
        a[f"curve:{alg}"].set_data(_SIZES, preds[alg].time_s)
        a[f"marker:{alg}"].set_data([size], [chosen[alg].time_s])
    best = chosen["auto"]
    note = a["time"]
    note.xy = (size, best.time_s)
    note.set_text(display.fmt_time(best.time_s))
    left = np.log(size / _SIZES[0]) / np.log(_SIZES[-1] / _SIZES[0]) > _LABEL_FLIP_AT
    note.set_position((-8, -14) if left else (8, -14))
    note.set_horizontalalignment("right" if left else "left")
    g = sys_.gpus_per_node
    ax.set_title(f"{nodes} nodes × {g} GPUs ({nodes * g} GPUs), {scaleout.fmt_nic(sys_)}",
                 fontsize=9)
    return [*(a[f"curve:{alg}"] for alg in scaleout.ALLREDUCE_ALGORITHMS),
            *(a[f"marker:{alg}"] for alg in scaleout.ALLREDUCE_ALGORITHMS), note, ax.title]


# ------------------------------------------------------------------ fat-tree sizing
_HOSTS = np.unique(np.rint(np.logspace(1, 6, 120)).astype(int))   # x axis: 10 .. 10^6
_MAX_TIERS = 5          # the deepest tree topology.fat_tree_counts sizes
_TIER_MARKS = range(1, _MAX_TIERS)   # "t tiers max" lines for 1..4 tiers


def fat_tree_sizing(hosts: int = 4096, radix: int = 64, oversubscription: float = 1.0):
    """Switches and cables vs hosts for ``radix``-port switches (left) and the chosen
    build's bisection against full bisection (right)."""
    fig, (ax, bx) = new_figure(1, 2, gridspec_kw={"width_ratios": [2.2, 1]})
    ax.plot([], [], color=COLORS["blue"], label="switches", gid="switches")
    ax.plot([], [], color=COLORS["vermillion"], label="cables", gid="cables")
    for t in _TIER_MARKS:
        ax.axvline(_HOSTS[0], color=COLORS["grey"], lw=0.8, ls=":", gid=f"tier:{t}")
        # Horizontal, at the top (the curves rise to the right and stay below it).
        # Alternate heights, so neighbouring labels never overlap.
        ax.text(_HOSTS[0], 0.97 if t % 2 else 0.90, f" {t} tier{'s' if t > 1 else ''} max ",
                fontsize=8,
                va="top", color="#444444", transform=ax.get_xaxis_transform(),
                gid=f"tier-label:{t}")
    ax.plot([], [], "o", color=COLORS["blue"], ms=7, gid="switches:chosen")
    ax.plot([], [], "o", color=COLORS["vermillion"], ms=7, gid="cables:chosen")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(_HOSTS[0], _HOSTS[-1])
    ax.set_ylim(1, 1e7)
    si_axis(ax, "x", "")
    si_axis(ax, "y", "")
    ax.set_xlabel("hosts (NIC ports)")
    ax.set_ylabel("count (log)")
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    ax.set_title(" ", fontsize=9)
    # Bisection as a share of full: the axis stays fixed for every host count (in B/s its
    # range would follow the hosts); the bar labels give the rates.
    full, build = bx.bar(["full", "this build"], [1.0, 0.0],
                         color=[COLORS["grey"], COLORS["green"]])
    build.set_gid("bisection")
    bx.set_axisbelow(True)   # grid under the bars, so redrawing only a bar is exact
    bx.set_ylim(0, 1.25)
    bx.yaxis.set_major_formatter(FuncFormatter(lambda y, _: display.fmt_ratio(y)))
    bx.set_ylabel("share of full bisection")
    bx.set_title("bisection, per direction", fontsize=9)
    bx.text(0, 1.0, "", ha="center", va="bottom", fontsize=9, gid="full:rate")
    bx.text(1, 0.0, "", ha="center", va="bottom", fontsize=9, gid="bisection:rate")
    _fill_fat_tree(fig, hosts=hosts, radix=radix, oversubscription=oversubscription)
    return fig


def _fill_fat_tree(fig, hosts, radix, oversubscription):
    """Set what :func:`fat_tree_sizing` draws for these parameters (count curves, tier
    limits, chosen build, title, bisection bar and labels) on a figure it made; returns
    those artists."""
    ax, bx = fig.axes
    a, b = _by_gid(ax), _by_gid(bx)
    ft = topology.fat_tree(hosts, radix, oversubscription)
    xs = _HOSTS[_HOSTS <= topology.max_hosts(radix, _MAX_TIERS, oversubscription)]
    _, sw, cab = topology.fat_tree_counts(xs, radix, oversubscription)
    a["switches"].set_data(xs, sw)
    a["cables"].set_data(xs, cab)
    for t in _TIER_MARKS:
        edge = topology.max_hosts(radix, t, oversubscription)
        shown = edge < _HOSTS[-1]
        a[f"tier:{t}"].set_xdata([edge, edge])
        a[f"tier-label:{t}"].set_x(edge)
        # Right of its line, or left of it near the axis' end (it would leave the axes).
        a[f"tier-label:{t}"].set_horizontalalignment("left" if edge < _HOSTS[-1] / 8
                                                     else "right")
        a[f"tier:{t}"].set_visible(shown)
        a[f"tier-label:{t}"].set_visible(shown)
    a["switches:chosen"].set_data([ft.hosts], [ft.switches])
    a["cables:chosen"].set_data([ft.hosts], [ft.cables])
    ax.set_title(f"{radix}-port switches, leaf {ft.leaf_down}:{ft.leaf_up} down:up",
                 fontsize=9)
    b["bisection"].set_height(ft.bisection_ratio)
    b["full:rate"].set_text(display.fmt_rate(ft.full_bisection_per_direction))
    label = b["bisection:rate"]
    label.set_y(ft.bisection_ratio)
    label.set_text(f"{display.fmt_rate(ft.bisection_per_direction)}\n"
                   f"{display.fmt_ratio(ft.bisection_ratio)}")
    return [a["switches"], a["cables"], *(a[f"tier:{t}"] for t in _TIER_MARKS),
            *(a[f"tier-label:{t}"] for t in _TIER_MARKS), a["switches:chosen"],
            a["cables:chosen"], ax.title, b["bisection"], b["full:rate"], label]


# ------------------------------------------------------- three topologies compared
_TOPO_COLORS = {"fat-tree": COLORS["blue"], "dragonfly": COLORS["green"],
                "3D torus": COLORS["orange"]}
_TOPO_PANELS = (("switches", "switches / routers", (0.5, 1e6)),
                ("cables", "cables (links)", (0.5, 1e7)),
                ("bisection", "bisection / full", (0.0, 1.25)),
                ("path", "longest path (links)", (0.5, 200.0)))
#: The topology calculator's ranges (``interlib.widgets.ch05`` uses them; the figure's
#: axes are fixed to cover them).
TOPOLOGY_HOSTS = (64, 65536)
TOPOLOGY_RADIXES = (16, 32, 48, 64, 128)


def _topo_values(c) -> dict:
    """``{topology: (switches, cables, bisection share, longest path)}``; ``None`` where
    the topology cannot be built at this radix."""
    out = {}
    for name in topology.TOPOLOGIES:
        t = c[name]
        out[name] = None if t is None else (t.switches, t.cables, t.bisection_ratio,
                                            t.max_links)
    return out


def topology_comparison(hosts: int = 4096, radix: int = 64, highlight: str = "dragonfly"):
    """Fat-tree, dragonfly and 3D torus for ``hosts`` endpoints with ``radix``-port
    switches (:func:`interlib.topology.compare`): switches, cables, bisection as a share
    of full, and the longest host-to-host path in links, one panel each; the
    ``highlight`` topology is drawn solid, the others faded."""
    fig, axes = new_figure(1, 4)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.84, bottom=0.16, wspace=0.45)
    x = np.arange(len(topology.TOPOLOGIES))
    for ax, (key, label, lim) in zip(axes, _TOPO_PANELS):
        bars = ax.bar(x, [lim[0]] * len(x), color=[_TOPO_COLORS[n] for n in
                                                   topology.TOPOLOGIES])
        for b, name in zip(bars, topology.TOPOLOGIES):
            b.set_gid(f"{key}:{name}")
        for i, name in enumerate(topology.TOPOLOGIES):
            ax.text(i, lim[0], "", ha="center", va="bottom", fontsize=8,
                    gid=f"{key}:{name}:label")
        ax.set_axisbelow(True)
        if key == "bisection":
            ax.set_ylim(*lim)
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: display.fmt_ratio(y)))
        else:
            ax.set_yscale("log")
            ax.set_ylim(*lim)
            si_axis(ax, "y", "")
        ax.set_xticks(x, [n.replace("3D ", "3D\n").replace("fat-", "fat-\n")
                          for n in topology.TOPOLOGIES], fontsize=8.5)
        ax.set_title(label, fontsize=9)
    fig.suptitle(" ", fontsize=9)
    _fill_topologies(fig, hosts=hosts, radix=radix, highlight=highlight)
    return fig


def _fill_topologies(fig, hosts, radix, highlight):
    """Set what :func:`topology_comparison` draws for these parameters (bar heights,
    labels, highlight, title) on a figure it made; returns those artists."""
    v.choice("highlight", highlight, topology.TOPOLOGIES)
    c = topology.compare(hosts, radix)
    vals = _topo_values(c)
    changed = []
    for ax, (key, _, lim) in zip(fig.axes, _TOPO_PANELS):
        a = _by_gid(ax)
        for i, name in enumerate(topology.TOPOLOGIES):
            bar, text = a[f"{key}:{name}"], a[f"{key}:{name}:label"]
            val = None if vals[name] is None else vals[name][[p[0] for p in _TOPO_PANELS]
                                                           .index(key)]
            shown = lim[0] if not val else max(val, lim[0])
            bar.set_height(shown)
            bar.set_alpha(1.0 if name == highlight else 0.35)
            if val is None:
                text.set_text("n/a")
            elif key == "switches" and val == 0:
                text.set_text("none")  # a torus links hosts directly: no bar on a log axis
            elif key == "bisection":
                text.set_text(display.fmt_ratio(val))
            else:
                text.set_text(display.fmt_si(val, "", 3).strip())
            text.set_y(shown)
            changed += [bar, text]
    ft = c["fat-tree"]
    fig._suptitle.set_text(f"about {hosts:,} hosts, switches of at most {radix} ports, "
                           f"links {display.fmt_rate(ft.link_rate)} per direction")
    return [*changed, fig._suptitle]


# ------------------------------------------------------------- credit flow control
_STEPS = 2000           # simulated packet times
_MODES = ("credit", "lossy")
#: Packet times shown in the buffer-occupancy panel.
OCCUPANCY_WINDOW = 300
_MODE_STYLE = {"credit": (COLORS["blue"], "credit-based (InfiniBand)"),
               "lossy": (COLORS["vermillion"], "lossy, go-back-N")}


@functools.lru_cache(maxsize=256, typed=True)
def credit_runs(buffer_packets: int = 16, load: float = 0.5, rtt_steps: int = 32):
    """The credit-based and the lossy run of :func:`interlib.flowcontrol.credit_vs_lossy`
    over the figure's time span, as a read-only ``{"credit": LinkRun, "lossy": LinkRun}``
    (memoised: :func:`credit_flow` and the ``credit_flow`` demo's text share one
    simulation; the arrays are made read-only).

    >>> runs = credit_runs(16, 0.0, 8)
    >>> runs["credit"].drops, round(runs["credit"].goodput, 2)
    (0, 1.0)
    """
    runs = {m: flowcontrol.credit_vs_lossy(m, buffer_packets, load, rtt_steps, steps=_STEPS)
            for m in _MODES}
    for r in runs.values():
        r.occupancy.flags.writeable = False
        r.delivered.flags.writeable = False
    return MappingProxyType(runs)


def credit_flow(buffer_packets: int = 16, load: float = 0.5, rtt_steps: int = 32):
    """Credit-based (lossless) vs lossy sender: cumulative in-order delivery (left; the
    legend gives each sender's goodput and how busy it kept the link) and receive-buffer
    occupancy, as a share of the buffer, over the first :data:`OCCUPANCY_WINDOW` packet
    times (right: the whole run is too dense to read).

    The default buffer is half a round trip's worth of packets: the credit-based sender
    then delivers less than the receiver could drain (its credits run out before they
    come back) while the lossy one keeps the link busy and drops; with a buffer of one
    round trip both deliver what the receiver drains and the difference left is the lossy
    sender's drops and busy link."""
    fig, (ax, bx) = new_figure(1, 2)
    ax.plot([], [], color=COLORS["grey"], ls=":", lw=1, label="receiver's drain rate",
            gid="drain")
    for m in _MODES:
        ax.plot([], [], color=_MODE_STYLE[m][0], label=" ", gid=f"delivered:{m}")
        bx.plot([], [], color=_MODE_STYLE[m][0], lw=1.2, gid=f"occupancy:{m}",
                drawstyle="steps-post", zorder=3 if m == "credit" else 2)
    ax.set_xlim(0, _STEPS)
    ax.set_ylim(0, _STEPS)
    ax.set_xlabel("time (packet times)")
    ax.set_ylabel("packets delivered in order")
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    ax.set_title(" ", fontsize=9)
    # Occupancy as a share of the buffer: one fixed axis for every buffer size.
    bx.axhline(1.0, color=COLORS["grey"], ls="--", lw=0.8, gid="size")
    bx.set_xlim(0, OCCUPANCY_WINDOW)
    bx.set_ylim(0, 1.15)
    bx.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    bx.set_xlabel("time (packet times)")
    bx.set_ylabel("receive buffer (share of its size)")
    bx.set_title(f"receive buffer, first {OCCUPANCY_WINDOW} packet times", fontsize=9)
    _fill_credit_flow(fig, buffer_packets=buffer_packets, load=load, rtt_steps=rtt_steps)
    return fig


def _fill_credit_flow(fig, buffer_packets, load, rtt_steps):
    """Set what :func:`credit_flow` draws for these parameters (drain line, delivery and
    occupancy curves, legend texts, title) on a figure it made; returns those artists
    (with the buffer-size line, which is drawn over the occupancy curves)."""
    ax, bx = fig.axes
    a, b = _by_gid(ax), _by_gid(bx)
    runs = credit_runs(buffer_packets, load, rtt_steps)
    t = np.arange(_STEPS)
    a["drain"].set_data(t, (1 - load) * t)
    legend = ax.get_legend()
    for m, text in zip(_MODES, legend.get_texts()[1:]):
        r = runs[m]
        a[f"delivered:{m}"].set_data(t, r.delivered)
        b[f"occupancy:{m}"].set_data(t, r.occupancy / buffer_packets)
        text.set_text(f"{_MODE_STYLE[m][1]}: {r.goodput:.2f}\n"
                      f"  link busy {display.fmt_pct(r.offered, 2)}, "
                      f"{display.fmt_count(r.drops, 'drop')}")
    # two lines: on one, the left title ran into the right panel's
    ax.set_title(f"delivered with {buffer_packets} credits, round trip {rtt_steps}\n"
                 "(legend: goodput, share of the link)", fontsize=9)
    return [a["drain"], *(a[f"delivered:{m}"] for m in _MODES),
            *(b[f"occupancy:{m}"] for m in _MODES), b["size"], legend, ax.title]


def _by_gid(ax) -> dict:
    """The axes' artists that carry a gid, by gid (how a fill finds what to change)."""
    return {a.get_gid(): a for a in ax.get_children() if a.get_gid() is not None}
