"""Chapter 1 figures: the ring all-reduce, gradient-sync time, stragglers, traffic."""

from __future__ import annotations

import numpy as np

from .. import collectives, display, hierarchy, scaling
from ..units import billion
from . import COLORS, new_figure, si_axis


def ring_all_reduce(n: int = 4, step: int = 0):
    """Grid of GPUs x chunks after ``step`` steps of a ring all-reduce on ``n`` GPUs.

    Each cell shows how many GPUs' contributions that copy of the chunk holds (``k/n``);
    dark cells are fully reduced. Arrows mark what each GPU sends in the next step.
    ``step`` is clamped to 2(n-1).
    """
    step = min(step, 2 * (n - 1))
    counts = collectives.ring_all_reduce_state(n, step)
    fig, ax = new_figure(figsize=(7.5, 4.6))
    fig.subplots_adjust(left=0.12, right=0.78, top=0.86, bottom=0.12)
    ax.grid(False)
    im = ax.imshow(counts / n, cmap="Blues", vmin=0, vmax=1, aspect="auto")
    for g in range(n):
        for c in range(n):
            full = counts[g, c] == n
            ax.text(c, g, f"{counts[g, c]}/{n}", ha="center", va="center", fontsize=9,
                    color="white" if counts[g, c] / n > 0.6 else "black",
                    fontweight="bold" if full else "normal")
    if step < 2 * (n - 1):
        sends, phase = collectives.ring_step_sends(n, step)
        for g in range(n):
            ax.add_patch(_box(sends[g], g, COLORS["vermillion"]))
        nxt = f"next: step {step + 1} ({phase}), outlined chunks move to GPU g+1"
    else:
        nxt = "done: every GPU holds every fully reduced chunk"
    ax.set_xticks(range(n), [f"chunk {c}" for c in range(n)], fontsize=8,
                  rotation=30 if n > 6 else 0)
    ax.set_yticks(range(n), [f"GPU {g}" for g in range(n)], fontsize=8)
    ax.set_title(f"Ring all-reduce, {n} GPUs: after {step} of {2 * (n - 1)} steps\n{nxt}",
                 fontsize=10)
    cb = fig.colorbar(im, ax=ax, fraction=0.05, pad=0.03)
    cb.set_label("share of GPUs summed into this copy")
    return fig


def _box(x, y, color):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, fill=False, edgecolor=color, linewidth=2)


_LINK_COLORS = {"PCIe 5.0 x16": COLORS["orange"], "NVLink 4": COLORS["blue"],
                "NVLink 5": COLORS["green"], "InfiniBand NDR (1 NIC/GPU)": COLORS["purple"]}


def gradient_sync(params_billion: float = 70.0, n_gpus: int = 8, link: str = "NVLink 4",
                  bytes_per_param: int = 2):
    """Ring all-reduce time of one bf16 gradient vs model size, for each link.

    Solid: achieved bandwidth; dashed: line rate. The marker is the chosen model and link.
    """
    sizes = np.logspace(0, 3, 60) * billion
    fig, ax = new_figure()
    for name, rung in hierarchy.link_options().items():
        lw = 2.6 if name == link else 1.2
        col = _LINK_COLORS[name]
        ax.plot(sizes, scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param),
                color=col, lw=lw, label=f"{name}: {display.fmt_rate(rung.effective)} achieved")
        ax.plot(sizes, scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param, False),
                color=col, lw=0.9, ls="--", alpha=0.8)
    p = params_billion * billion
    t = scaling.ring_sync_time(p, n_gpus, link, bytes_per_param)
    ax.plot([p], [t], "o", color="black", ms=8, zorder=5)
    ax.annotate(display.fmt_time(t), (p, t), textcoords="offset points", xytext=(8, -14),
                fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(sizes[0], sizes[-1])
    ax.set_ylim(1e-3, 1e3)
    si_axis(ax, "x", "")
    si_axis(ax, "y", "s")
    ax.set_xlabel("model parameters")
    ax.set_ylabel("gradient all-reduce time (log)")
    ax.set_title(f"Ring all-reduce of a {bytes_per_param}-byte gradient on {n_gpus} GPUs "
                 "(dashed: line rate)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


def straggler(n_gpus: int = 64, jitter: float = 0.05):
    """Expected synchronous step time (in units of the mean compute time) vs GPU count.

    Curves for three jitters, the chosen one bold; dots are a seeded simulation at the
    chosen GPU count (the mean over 200 steps of the slowest GPU).
    """
    ns = np.unique(np.rint(np.logspace(0, 5, 40)))
    fig, ax = new_figure()
    for j, col in ((0.02, COLORS["sky"]), (0.05, COLORS["blue"]), (0.10, COLORS["purple"])):
        ax.plot(ns, scaling.expected_step_time(ns, 1.0, j), color=col, lw=1.0, alpha=0.7,
                label=f"jitter {display.fmt_pct(j)}")
    ax.plot(ns, scaling.expected_step_time(ns, 1.0, jitter), color="black", lw=2.4,
            label=f"chosen jitter {display.fmt_pct(jitter)}")
    t = scaling.expected_step_time(n_gpus, 1.0, jitter)
    sim = scaling.simulated_step_time(n_gpus, 1.0, jitter)
    ax.plot([n_gpus], [t], "o", color="black", ms=8)
    ax.plot([n_gpus], [sim], "x", color=COLORS["vermillion"], ms=10, mew=2,
            label=f"simulated ({scaling.simulation_steps(n_gpus)} steps)")
    ax.annotate(f"{t:.3f}× the mean", (n_gpus, t), textcoords="offset points",
                xytext=(8, 8), fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_xlim(1, 1e5)
    ax.set_ylim(0.95, 1.6)
    si_axis(ax, "x", "")
    ax.set_xlabel("GPUs that must finish before the step ends")
    ax.set_ylabel("expected step time / mean GPU time")
    ax.set_title("Everyone waits for the slowest GPU", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


def parallelism_traffic(tp: int = 8, pp: int = 4, dp: int = 16, model: str = "llama-3-70b",
                        seq_len: int = 4096, micro_batches: int = 8):
    """Bytes one GPU sends per step for DP, TP and PP (bf16), one sequence per
    micro-batch."""
    m = scaling.model(model)
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, seq_len, 1, micro_batches,
                                     tp=tp, pp=pp, dp=dp)
    fig, ax = new_figure(figsize=(7.5, 3.4))
    names = ["data (DP)", "tensor (TP)", "pipeline (PP)"]
    vals = [tr.dp, tr.tp, tr.pp]
    cols = [COLORS["blue"], COLORS["vermillion"], COLORS["green"]]
    ax.barh(names, vals, color=cols)
    for i, val in enumerate(vals):
        ax.text(val, i, " " + display.fmt_bytes(val), va="center", fontsize=9)
    si_axis(ax, "x", "B")
    ax.set_xlim(0, max(max(vals), 1.0) * 1.3)
    ax.set_xlabel("bytes sent per GPU per training step")
    ax.set_title(f"{m.name}: traffic per GPU per step, TP={tp} × PP={pp} × DP={dp}",
                 fontsize=10)
    return fig
