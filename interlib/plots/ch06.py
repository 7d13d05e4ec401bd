"""Chapter 6 figures: drops at scale, a PFC pause storm, DCQCN convergence."""

from __future__ import annotations

import numpy as np

from .. import congestion, display, flowcontrol, reliability
from ..units import kB, ms, us
from . import COLORS, new_figure, si_axis

PFC_STEPS = 1100
_GPUS = np.unique(np.rint(np.logspace(0, np.log10(32768), 60)).astype(int))


def drop_step_setup():
    """The fixed givens of the drop demo: bytes each GPU sends per step over its 400 GbE
    NIC (1 GB), packets (4096-byte payloads) and the drop-free network time.

    Returns ``(packets, base_s)``."""
    from ..specs import ethernet
    from ..units import GB

    size = 1 * GB
    packets = reliability.packets_for(size, 4096)
    return packets, size / ethernet(400).value


def drop_slowdown(drop_rate: float = 1e-6, n_gpus: int = 1024, penalty_ms: float = 1.0):
    """Expected and 99th-percentile network step time (relative to drop-free) vs GPU
    count, for the chosen drop rate (bold) and two others; crosses: seeded Monte Carlo
    at the chosen GPU count."""
    packets, base = drop_step_setup()
    pen = penalty_ms * ms
    fig, ax = new_figure()
    top = 2.0
    for p, col in ((drop_rate / 100, COLORS["sky"]), (drop_rate * 100, COLORS["purple"])):
        if 0 < p < 1:
            mean = base + pen * reliability.expected_max_drops(_GPUS, p, packets)
            ax.plot(_GPUS, mean / base, color=col, lw=1.0, alpha=0.8,
                    label=f"drop rate {p:.0e} (mean)")
            top = max(top, float(mean[-1] / base))
    mean = base + pen * reliability.expected_max_drops(_GPUS, drop_rate, packets)
    p99 = base + pen * np.array([reliability.max_drop_quantile(int(n), drop_rate, packets)
                                 for n in _GPUS])
    ax.plot(_GPUS, mean / base, color="black", lw=2.4, label=f"drop rate {drop_rate:.0e} (mean)")
    ax.plot(_GPUS, p99 / base, color=COLORS["vermillion"], lw=1.8, ls="--",
            label="same, 99th percentile step")
    st = reliability.step_time_with_drops(n_gpus, drop_rate, packets, base, pen,
                                          samples=2000)
    ax.plot([n_gpus], [st.mc_mean_step / base], "x", color="black", ms=10, mew=2,
            label="Monte Carlo (2,000 steps)")
    ax.plot([n_gpus], [st.mc_p99_step / base], "x", color=COLORS["vermillion"], ms=10, mew=2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(1, 32768)
    top = max(top, float(p99[-1] / base))
    ax.set_ylim(0.9, 1.6 * top)
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 1.2, 1.5, 2.0, 3.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    si_axis(ax, "x", "")
    ax.set_xlabel("GPUs in the collective")
    ax.set_ylabel("step time / drop-free step time (log)")
    ax.set_title(f"{display.fmt_bytes(packets * 4096)} per GPU per step "
                 f"(drop-free {display.fmt_time(base)}), "
                 f"{display.fmt_time(pen)} lost per drop", fontsize=9)
    ax.legend(fontsize=7.5, loc="upper left", frameon=False)
    return fig


def pfc_storm(failure: bool = True, watchdog: bool = True, watchdog_steps: int = 600,
              load: float = 0.6):
    """Throughput at the healthy receiver (top) and who is paused (bottom) over time
    when one receiver gets stuck sending pause frames."""
    r = flowcontrol.pfc_storm(4, load, failure, watchdog, 50, watchdog_steps, steps=PFC_STEPS)
    fig, (ax, bx) = new_figure(2, 1, sharex=True)
    ax.plot(r.t, r.good_rx, color=COLORS["blue"], label="healthy receiver")
    ax.plot(r.t, r.bad_rx, color=COLORS["vermillion"], label="failing receiver")
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel("packets per step")
    ax.legend(fontsize=7.5, loc="upper right", frameon=False)
    bx.plot(r.t, r.paused_hosts, color=COLORS["purple"], label="senders paused (of 4)")
    bx.plot(r.t, r.paused_uplink * 4.4, color=COLORS["green"],
            label="switch-to-switch link paused")
    bx.set_ylim(-0.2, 4.8)
    bx.set_xlim(0, PFC_STEPS)
    bx.set_xlabel("time (packet times)")
    bx.set_ylabel("paused")
    bx.legend(fontsize=7.5, loc="upper left", frameon=False)
    for a in (ax, bx):
        if failure:
            a.axvline(50, color=COLORS["grey"], ls=":", lw=1)
        if r.watchdog_fired_at >= 0:
            a.axvline(r.watchdog_fired_at, color=COLORS["black"], ls="--", lw=1)
    title = "receiver stuck at t = 50" if failure else "no failure"
    if r.watchdog_fired_at >= 0:
        title += f"; watchdog fires at t = {r.watchdog_fired_at}"
    ax.set_title(title, fontsize=9)
    return fig


def dcqcn(senders: int = 8, kmin_kb: float = 5.0, kmax_kb: float = 200.0,
          pmax: float = 0.01):
    """DCQCN fluid model: per-sender rates (top) and the bottleneck queue with the ECN
    thresholds (bottom); one sender joins at 4 ms."""
    r = congestion.dcqcn(senders, kmin=kmin_kb * kB, kmax=kmax_kb * kB, pmax=pmax)
    fig, (ax, bx) = new_figure(2, 1, sharex=True)
    ax.plot(r.t, r.rates[:, 0], color=COLORS["blue"],
            label=f"each of the first {senders - 1}" if senders > 1 else "sender")
    if senders > 1:
        ax.plot(r.t, r.rates[:, -1], color=COLORS["vermillion"], label="late joiner")
        ax.axhline(r.capacity / senders, color=COLORS["grey"], ls=":", lw=1,
                   label="fair share")
    ax.set_ylim(0, r.capacity * 1.05)
    si_axis(ax, "y", "B/s")
    ax.set_ylabel("sending rate")
    ax.legend(fontsize=7.5, loc="upper right", frameon=False)
    bx.plot(r.t, r.queue, color=COLORS["black"], lw=1)
    bx.axhline(kmin_kb * kB, color=COLORS["green"], ls="--", lw=0.8, label="Kmin")
    bx.axhline(kmax_kb * kB, color=COLORS["vermillion"], ls="--", lw=0.8, label="Kmax")
    bx.set_yscale("symlog", linthresh=1 * kB)
    bx.set_ylim(0, 64e6)
    si_axis(bx, "y", "B")
    bx.set_ylabel("queue (symlog)")
    bx.set_xlim(0, r.t[-1])
    si_axis(bx, "x", "s")
    bx.set_xlabel("time")
    bx.legend(fontsize=7.5, loc="upper right", frameon=False)
    ax.set_title(f"{senders} senders into one 400 GbE link: utilisation "
                 f"{display.fmt_pct(r.utilisation)}, mean queue "
                 f"{display.fmt_bytes(r.mean_queue)} (last quarter)", fontsize=9)
    return fig


__all__ = ["drop_slowdown", "pfc_storm", "dcqcn", "drop_step_setup", "us"]
