"""Chapter 6 figures: drops at scale, a PFC pause storm, DCQCN convergence.

Each figure is built in two parts so that a demo can redraw it in place: the plot function
builds the static skeleton (axes, fixed limits, labels, and the artists that change,
created empty or with placeholder data) and then calls one ``_fill_<name>(fig, **params)``
that sets everything that depends on the parameters and returns the artists it changed.
``interlib.widgets.ch06`` uses the same fill functions as the demos' ``update`` hooks, so
the figure a slider move draws and the figure the plot function draws cannot drift apart.
Axes limits never depend on the parameters (they cover the demos' slider ranges), which
is what lets the demo blit only the changed artists.

The expensive model runs (the drop quantiles, the PFC and DCQCN simulations) are pure and
memoised, and shared with the demos' summaries: one slider move runs each model once.
"""

from __future__ import annotations

import inspect
from functools import lru_cache

import numpy as np

from .. import _validate as v
from .. import congestion, display, flowcontrol, reliability
from ..reliability import drop_step_setup
from ..units import bit, kB, ms, us
from . import COLORS, new_figure, si_axis

#: The drop demo's slider ranges (``interlib.widgets.ch06`` uses them; the figure's y range
#: is fixed to cover them).
DROP_RATE_RANGE = (1e-9, 1e-4)
PENALTY_MS_RANGE = (0.01, 100.0)
GPU_RANGE = (1, 32768)
#: Steps simulated, senders and the step at which the receiver gets stuck (PFC demo).
PFC_STEPS = 1100
PFC_SENDERS = 4
PFC_FAIL_AT = 50
#: Height at which the PFC figure draws "switch-to-switch link paused" (its right-hand
#: axis reads this level as "yes").
_LINK_LEVEL = 1.1 * PFC_SENDERS
_GPUS = np.unique(np.rint(np.logspace(0, np.log10(GPU_RANGE[1]), 60)).astype(int))
_MC_SAMPLES = 2000


def _frozen(run):
    """``run`` with its numpy arrays made read-only (it is shared through a cache)."""
    for value in vars(run).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return run


def _parts(fig) -> dict:
    """The changing artists a plot function of this module stored on its figure."""
    parts = getattr(fig, "_interlib_ch06", None)
    if parts is None:
        raise ValueError("fig must be a Figure made by an interlib.plots.ch06 function")
    return parts


# ------------------------------------------------------------------- drops at scale
def _check_drop(drop_rate, n_gpus, penalty_ms):
    v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, hi_open=True)
    v.integer("n_gpus", n_gpus, lo=1, hi=10**8)
    v.non_negative("penalty_ms", penalty_ms)
    if np.ndim(drop_rate) or np.ndim(penalty_ms):
        raise ValueError("drop_rate and penalty_ms must be single numbers")


@lru_cache(maxsize=512)
def _mean_drops(drop_rate: float) -> np.ndarray:
    """Expected maximum drops per step over the GPU counts ``_GPUS`` (read-only)."""
    packets, _ = drop_step_setup()
    out = reliability.expected_max_drops(_GPUS, drop_rate, packets)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=256)
def _p99_drops(drop_rate: float) -> np.ndarray:
    """99th-percentile maximum drops per step over ``_GPUS`` (read-only; 60 exact
    quantiles, the slow part of the figure)."""
    packets, _ = drop_step_setup()
    out = np.array([reliability.max_drop_quantile(int(n), drop_rate, packets)
                    for n in _GPUS])
    out.flags.writeable = False
    return out


@lru_cache(maxsize=512)
def _drop_stats(drop_rate: float, n_gpus: int, penalty_ms: float):
    """Memoised body of :func:`drop_stats` (arguments checked and made hashable)."""
    packets, base = drop_step_setup()
    return reliability.step_time_with_drops(n_gpus, drop_rate, packets, base,
                                            penalty_ms * ms, samples=_MC_SAMPLES)


def drop_stats(drop_rate: float = 1e-6, n_gpus: int = 1024, penalty_ms: float = 1.0):
    """:func:`interlib.reliability.step_time_with_drops` for the drop demo's givens
    (:func:`drop_step_setup`) with a 2,000-step seeded Monte Carlo; memoised, so the
    figure and the demo's summary share one computation.

    >>> s = drop_stats(0.0, 16, 1.0)
    >>> s.p_step_hit, s.mean_step == s.base_s
    (0.0, True)
    """
    _check_drop(drop_rate, n_gpus, penalty_ms)
    return _drop_stats(float(drop_rate), int(n_gpus), float(penalty_ms))


@lru_cache(maxsize=1)
def _drop_ylim() -> tuple[float, float]:
    """Fixed y range of :func:`drop_slowdown`: from just below 1x to above the highest
    99th-percentile step at the default time lost per drop (1 ms) and the largest drop
    rate and GPU count, so the curves fill the panel at the settings the chapter discusses.
    Longer penalties can leave it at the top; the figure then says how far, and the demo's
    numbers give every value."""
    packets, base = drop_step_setup()
    worst = reliability.max_drop_quantile(GPU_RANGE[1], DROP_RATE_RANGE[1], packets)
    top = max(2.0, float((base + ms * worst) / base))
    return 0.95, 1.25 * top


def _drop_yticks(lo: float, hi: float) -> list[float]:
    """Labelled y ticks of :func:`drop_slowdown` between ``lo`` and ``hi`` (> 0): 1, 1.5,
    2, 3, 5 in the first decade above 1 (where the curves lie at most settings), then 1, 2,
    5 per decade (the fixed range spans more than two decades: denser labels collide)."""
    import math

    ticks = [1.0, 1.5, 2.0, 3.0, 5.0]
    ticks += [m * 10.0**k for k in range(1, math.ceil(math.log10(hi)) + 1) for m in (1, 2, 5)]
    return [t for t in ticks if lo <= t <= hi]


def drop_slowdown(drop_rate: float = 1e-6, n_gpus: int = 1024, penalty_ms: float = 1.0):
    """Expected and 99th-percentile network step time (relative to drop-free) vs GPU
    count, for the chosen drop rate (bold) and two others; crosses: seeded Monte Carlo
    at the chosen GPU count."""
    _check_drop(drop_rate, n_gpus, penalty_ms)
    fig, ax = new_figure()
    ones = np.ones(_GPUS.size)
    # In the legend from the rarest drops to the most frequent: the reference a hundred
    # times rarer, the chosen rate (bold), the reference a hundred times more frequent.
    low = ax.plot(_GPUS, ones, color=COLORS["sky"], lw=1.0, alpha=0.8, label=" ")[0]
    mean = ax.plot(_GPUS, ones, color="black", lw=2.4, label=" ")[0]
    high = ax.plot(_GPUS, ones, color=COLORS["purple"], lw=1.0, alpha=0.8, label=" ")[0]
    refs = [low, high]
    p99 = ax.plot(_GPUS, ones, color=COLORS["vermillion"], lw=1.8, ls="--",
                  label="same, 99th percentile step")[0]
    mc_mean = ax.plot([1], [1], "x", color="black", ms=10, mew=2,
                      label=f"Monte Carlo ({_MC_SAMPLES:,} steps)")[0]
    mc_p99 = ax.plot([1], [1], "x", color=COLORS["vermillion"], ms=10, mew=2)[0]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*GPU_RANGE)
    ax.set_ylim(*_drop_ylim())
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    ax.yaxis.set_major_locator(FixedLocator(_drop_yticks(*ax.get_ylim())))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    si_axis(ax, "x", "")
    ax.set_xlabel("GPUs in the collective")
    ax.set_ylabel("step time / drop-free step time (log)")
    ax.set_title(" ", fontsize=9)
    legend = ax.legend(fontsize=8, loc="upper left", frameon=True, framealpha=0.9,
                       edgecolor="none")  # over a reference curve that may pass under it
    off = ax.text(0.99, 0.97, "", transform=ax.transAxes, ha="right", va="top", fontsize=8,
                  color="#333333")
    fig._interlib_ch06 = dict(refs=refs, mean=mean, p99=p99, mc=(mc_mean, mc_p99),
                              legend=legend, title=ax.title, off=off)
    _fill_drop_slowdown(fig, drop_rate, n_gpus, penalty_ms)
    return fig


def _fill_drop_slowdown(fig, drop_rate, n_gpus, penalty_ms):
    """Set everything in a :func:`drop_slowdown` figure that depends on the parameters;
    returns the artists it may change (always the same ones)."""
    _check_drop(drop_rate, n_gpus, penalty_ms)
    parts = _parts(fig)
    packets, base = drop_step_setup()
    pen = penalty_ms * ms
    legend = parts["legend"]
    texts, handles = legend.get_texts(), legend.get_lines()
    # the two reference curves: a hundred times rarer and a hundred times more frequent
    # (legend entries 0 and 2; the chosen rate is entry 1)
    for i, p, line in zip((0, 2), (drop_rate / 100, drop_rate * 100), parts["refs"]):
        shown = 0 < p < 1
        for artist in (line, texts[i], handles[i]):
            artist.set_visible(shown)
        if shown:
            line.set_ydata((base + pen * _mean_drops(p)) / base)
            texts[i].set_text(f"drop rate {display.fmt_num(p)} (mean)")
    chosen = (base + pen * _mean_drops(float(drop_rate))) / base
    parts["mean"].set_ydata(chosen)
    texts[1].set_text(f"drop rate {display.fmt_num(drop_rate)} (mean)")
    p99 = (base + pen * _p99_drops(float(drop_rate))) / base
    parts["p99"].set_ydata(p99)
    st = drop_stats(drop_rate, n_gpus, penalty_ms)
    mc_mean, mc_p99 = parts["mc"]
    mc_mean.set_data([n_gpus], [st.mc_mean_step / base])
    mc_p99.set_data([n_gpus], [st.mc_p99_step / base])
    parts["title"].set_text(f"{display.fmt_bytes(packets * 4096)} per GPU per step "
                            f"(drop-free {display.fmt_time(base)}), "
                            f"{display.fmt_time(pen)} lost per drop")
    top = fig.axes[0].get_ylim()[1]
    worst = max(float(np.max(chosen)), float(np.max(p99)))
    parts["off"].set_text(f"off the scale above: up to {worst:.3g}×" if worst > top else "")
    low, high = parts["refs"]
    return [low, parts["mean"], high, parts["p99"], mc_mean, mc_p99, legend,
            parts["title"], parts["off"]]


# ------------------------------------------------------------------- PFC pause storm
def _check_pfc(failure, watchdog, watchdog_steps, load):
    for name, val in (("failure", failure), ("watchdog", watchdog)):
        if not isinstance(val, (bool, np.bool_)):
            raise ValueError(f"{name}={val!r} must be True or False")
    v.integer("watchdog_steps", watchdog_steps, lo=1, hi=10_000)
    v.number("load", load, lo=0.0, hi=1.0, lo_open=True)
    if np.ndim(load):
        raise ValueError(f"load={load!r} must be a single number")


@lru_cache(maxsize=64)
def _pfc_run(failure: bool, watchdog: bool, watchdog_steps: int, load: float):
    """Memoised body of :func:`pfc_storm_run` (arguments checked and made hashable)."""
    return _frozen(flowcontrol.pfc_storm(PFC_SENDERS, load, failure, watchdog, PFC_FAIL_AT,
                                         watchdog_steps, steps=PFC_STEPS))


def pfc_storm_run(failure: bool = True, watchdog: bool = True, watchdog_steps: int = 600,
                  load: float = 0.6):
    """The PFC demo's run of :func:`interlib.flowcontrol.pfc_storm` (``PFC_SENDERS``
    senders, the receiver stuck from step ``PFC_FAIL_AT``, ``PFC_STEPS`` steps); memoised
    and read-only, so the figure and the demo's summary share one simulation.

    >>> pfc_storm_run(failure=False).watchdog_fired_at
    -1
    """
    _check_pfc(failure, watchdog, watchdog_steps, load)
    return _pfc_run(bool(failure), bool(watchdog), int(watchdog_steps), float(load))


def pfc_storm(failure: bool = True, watchdog: bool = True, watchdog_steps: int = 600,
              load: float = 0.6):
    """Throughput at the healthy receiver (top) and who is paused (bottom) over time
    when one receiver gets stuck sending pause frames."""
    _check_pfc(failure, watchdog, watchdog_steps, load)
    fig, (ax, bx) = new_figure(2, 1, sharex=True)
    good = ax.plot([], [], color=COLORS["blue"], label="healthy receiver")[0]
    bad = ax.plot([], [], color=COLORS["vermillion"], label="failing receiver")[0]
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel("packets per step")
    ax_legend = ax.legend(fontsize=8, loc="upper right", frameon=False)
    hosts = bx.plot([], [], color=COLORS["purple"],
                    label=f"senders paused (of {PFC_SENDERS})")[0]
    uplink = bx.plot([], [], color=COLORS["green"], label="switch-to-switch link paused")[0]
    bx.set_ylim(-0.2, 1.2 * PFC_SENDERS)
    bx.set_xlim(0, PFC_STEPS)
    bx.set_xlabel("time (packet times)")
    bx.set_ylabel("senders paused")
    # the link's 0/1 is drawn at 0 and _LINK_LEVEL (just above the senders' count); a
    # right-hand axis on the same scale reads it as no / yes
    lx = bx.twinx()
    lx.set_ylim(*(y / _LINK_LEVEL for y in bx.get_ylim()))
    lx.set_yticks([0, 1], ["no", "yes"])
    lx.set_ylabel("link paused", color=COLORS["green"])
    lx.tick_params(axis="y", colors=COLORS["green"])
    lx.spines[["top", "left"]].set_visible(False)
    lx.spines["right"].set_color(COLORS["green"])
    fig.subplots_adjust(right=0.9)
    bx_legend = bx.legend(fontsize=8, loc="upper left", frameon=False)
    marks = [(a.axvline(PFC_FAIL_AT, color=COLORS["grey"], ls=":", lw=1),
              a.axvline(0, color=COLORS["black"], ls="--", lw=1)) for a in (ax, bx)]
    ax.set_title(" ", fontsize=9)
    fig._interlib_ch06 = dict(top=(good, bad), bottom=(hosts, uplink), marks=marks,
                              legends=(ax_legend, bx_legend), title=ax.title)
    _fill_pfc_storm(fig, failure, watchdog, watchdog_steps, load)
    return fig


def _fill_pfc_storm(fig, failure, watchdog, watchdog_steps, load):
    """Set everything in a :func:`pfc_storm` figure that depends on the parameters;
    returns the artists it may change (always the same ones)."""
    parts = _parts(fig)
    r = pfc_storm_run(failure, watchdog, watchdog_steps, load)
    good, bad = parts["top"]
    hosts, uplink = parts["bottom"]
    good.set_data(r.t, r.good_rx)
    bad.set_data(r.t, r.bad_rx)
    hosts.set_data(r.t, r.paused_hosts)
    # the link's 0/1 drawn just above the senders' count, so the two lines never overlap
    uplink.set_data(r.t, r.paused_uplink * _LINK_LEVEL)
    fired = r.watchdog_fired_at
    for fail_mark, watchdog_mark in parts["marks"]:
        fail_mark.set_visible(bool(failure))
        watchdog_mark.set_visible(fired >= 0)
        watchdog_mark.set_xdata([max(fired, 0)] * 2)
    title = f"receiver stuck at t = {PFC_FAIL_AT}" if failure else "no failure"
    if fired >= 0:
        title += f"; watchdog fires at t = {fired}"
    parts["title"].set_text(title)
    (top_fail, top_wd), (bottom_fail, bottom_wd) = parts["marks"]
    return [good, bad, top_fail, top_wd, hosts, uplink, bottom_fail, bottom_wd,
            *parts["legends"], parts["title"]]


# ------------------------------------------------------------------- DCQCN
_DCQCN_DEFAULTS = {k: p.default for k, p in inspect.signature(congestion.dcqcn)
                   .parameters.items()}


#: Points drawn per DCQCN curve (the run's steps are decimated to about this many; at the
#: default 10,000 steps of 8 us, every 5th step, 40 us apart, finer than a pixel).
_DCQCN_POINTS = 2000


def _check_dcqcn(senders, kmin_kb, kmax_kb, pmax):
    v.integer("senders", senders, lo=1, hi=64)
    for name, val in (("kmin_kb", kmin_kb), ("kmax_kb", kmax_kb), ("pmax", pmax)):
        if np.ndim(v.number(name, val)):
            raise ValueError(f"{name}={val!r} must be a single number")
    v.non_negative("kmin_kb", kmin_kb)
    v.number("kmax_kb", kmax_kb, lo=float(kmin_kb), hi=_DCQCN_DEFAULTS["buffer_bytes"] / kB,
             lo_open=True, hi_open=True)
    congestion.marking_probability(0.0, kmin_kb * kB, kmax_kb * kB, pmax)  # pmax and the rest


@lru_cache(maxsize=16)
def _dcqcn_run(senders: int, kmin_kb: float, kmax_kb: float, pmax: float):
    """Memoised body of :func:`dcqcn_run` (arguments checked and made hashable)."""
    return _frozen(congestion.dcqcn(senders, kmin=kmin_kb * kB, kmax=kmax_kb * kB,
                                    pmax=pmax))


def dcqcn_run(senders: int = 8, kmin_kb: float = 5.0, kmax_kb: float = 200.0,
              pmax: float = 0.01):
    """The DCQCN demo's run of :func:`interlib.congestion.dcqcn` (thresholds in kB, the
    model's other defaults); memoised and read-only, so the figure and the demo's summary
    share one simulation.

    >>> round(dcqcn_run(1).utilisation, 3)
    1.0
    """
    _check_dcqcn(senders, kmin_kb, kmax_kb, pmax)
    return _dcqcn_run(int(senders), float(kmin_kb), float(kmax_kb), float(pmax))


def dcqcn(senders: int = 8, kmin_kb: float = 5.0, kmax_kb: float = 200.0,
          pmax: float = 0.01):
    """DCQCN fluid model: per-sender rates (top) and the bottleneck queue with the ECN
    thresholds (bottom); one sender joins later (``congestion.dcqcn``'s join time)."""
    r = dcqcn_run(senders, kmin_kb, kmax_kb, pmax)  # capacity and time axis: fixed
    fig, (ax, bx) = new_figure(2, 1, sharex=True)
    first = ax.plot([], [], color=COLORS["blue"], label=" ")[0]
    late = ax.plot([], [], color=COLORS["vermillion"], label="late joiner")[0]
    fair = ax.axhline(0, color=COLORS["grey"], ls=":", lw=1, label="fair share")
    ax.set_ylim(0, r.capacity * 1.05)
    si_axis(ax, "y", "B/s")
    ax.set_ylabel("sending rate", labelpad=2)  # its tick labels are wide: stay in the figure
    ax_legend = ax.legend(fontsize=8, loc="upper right", frameon=False)
    queue = bx.plot([], [], color=COLORS["black"], lw=1)[0]
    kmin = bx.axhline(0, color=COLORS["green"], ls="--", lw=0.8, label="Kmin")
    kmax = bx.axhline(0, color=COLORS["vermillion"], ls="--", lw=0.8, label="Kmax")
    bx.set_yscale("symlog", linthresh=1 * kB)
    top = 2 * _DCQCN_DEFAULTS["buffer_bytes"]  # the queue is capped at the buffer
    bx.set_ylim(0, top)
    from matplotlib.ticker import FixedLocator, NullLocator

    # 0, then one tick per decade from 1 kB (symlog's own ticks crowd 0 B and 100 B)
    decades = [0.0] + [kB * 10.0**d for d in range(int(np.log10(top / kB)) + 1)]
    bx.yaxis.set_major_locator(FixedLocator(decades))
    bx.yaxis.set_minor_locator(NullLocator())
    si_axis(bx, "y", "B")
    bx.set_ylabel("queue (symlog)")
    bx.set_xlim(0, r.t[-1])
    si_axis(bx, "x", "s")
    bx.set_xlabel("time")
    bx_legend = bx.legend(fontsize=8, loc="upper right", frameon=False)
    ax.set_title(" ", fontsize=9)
    fig._interlib_ch06 = dict(top=(first, late, fair), bottom=(queue, kmin, kmax),
                              legends=(ax_legend, bx_legend), title=ax.title)
    _fill_dcqcn(fig, senders, kmin_kb, kmax_kb, pmax)
    return fig


def _fill_dcqcn(fig, senders, kmin_kb, kmax_kb, pmax):
    """Set everything in a :func:`dcqcn` figure that depends on the parameters; returns
    the artists it may change (always the same ones)."""
    parts = _parts(fig)
    r = dcqcn_run(senders, kmin_kb, kmax_kb, pmax)
    first, late, fair = parts["top"]
    queue, kmin, kmax = parts["bottom"]
    ax_legend = parts["legends"][0]
    texts, handles = ax_legend.get_texts(), ax_legend.get_lines()
    k = max(1, r.t.size // _DCQCN_POINTS)   # draw at most ~_DCQCN_POINTS points per line
    first.set_data(r.t[::k], r.rates[::k, 0])
    texts[0].set_text(f"each of the first {senders - 1}" if senders > 1 else "sender")
    late.set_data(r.t[::k], r.rates[::k, -1])
    fair.set_ydata([r.capacity / senders] * 2)
    for artist in (late, fair, *texts[1:], *handles[1:]):  # one sender: no joiner, share
        artist.set_visible(senders > 1)
    queue.set_data(r.t[::k], r.queue[::k])
    kmin.set_ydata([kmin_kb * kB] * 2)
    kmax.set_ydata([kmax_kb * kB] * 2)
    parts["title"].set_text(f"{senders} senders into one "
                            f"{display.fmt_bits(r.capacity / bit)} link: utilisation "
                            f"{display.fmt_pct(r.utilisation)}, mean queue "
                            f"{display.fmt_bytes(r.mean_queue)} "
                            f"(after {display.fmt_time(r.t[r.tail()][0])})")
    return [first, late, fair, *parts["legends"], queue, kmin, kmax, parts["title"]]


__all__ = ["drop_slowdown", "pfc_storm", "dcqcn", "drop_stats",
           "pfc_storm_run", "dcqcn_run", "DROP_RATE_RANGE", "PENALTY_MS_RANGE",
           "GPU_RANGE", "PFC_STEPS", "PFC_SENDERS",
           "PFC_FAIL_AT", "us"]


# ------------------------------------------------------------ ECMP hash collisions
#: The ECMP demo's ranges: flows and paths (sliders) and queue pairs per flow (menu).
ECMP_FLOWS_RANGE = (1, 32)
ECMP_PATHS_RANGE = (2, 32)
ECMP_QPS = (1, 2, 4, 8, 16, 32, 64)
#: Fixed y range of :func:`ecmp`: above the highest 99th-percentile slowdown the sliders
#: can reach (32 flows on 32 paths, one QP each; tests/test_interlib_congestion.py checks).
ECMP_YLIM = (0.9, 7.5)
_ECMP_BUDGET = 1_000_000  # hashed QPs per curve point (trials x flows x QPs), for speed


def _check_ecmp(flows, paths, qps):
    v.integer("flows", flows, lo=ECMP_FLOWS_RANGE[0], hi=ECMP_FLOWS_RANGE[1])
    v.integer("paths", paths, lo=ECMP_PATHS_RANGE[0], hi=ECMP_PATHS_RANGE[1])
    if isinstance(qps, bool) or qps not in ECMP_QPS:
        raise ValueError(f"qps={qps!r} is not one of {list(ECMP_QPS)}")


@lru_cache(maxsize=64)
def _ecmp_curve(flows: int, paths: int):
    """Mean and 99th-percentile slowdown for every entry of :data:`ECMP_QPS` (seeded;
    fewer trials where one trial hashes many QPs, at least 200)."""
    mean, p99 = [], []
    for q in ECMP_QPS:
        trials = max(200, min(2000, _ECMP_BUDGET // (flows * q)))
        r = congestion.ecmp_balance(flows, paths, q, trials=trials)
        mean.append(r.mean_slowdown)
        p99.append(r.p99_slowdown)
    out = (np.array(mean), np.array(p99))
    for a in out:
        a.flags.writeable = False
    return out


def ecmp_point(flows: int = 8, paths: int = 8, qps: int = 1) -> tuple[float, float]:
    """``(mean, 99th percentile)`` completion time over the balanced one at one setting
    (the values :func:`ecmp` marks and the demo's summary prints)."""
    _check_ecmp(flows, paths, qps)
    mean, p99 = _ecmp_curve(int(flows), int(paths))
    i = ECMP_QPS.index(qps)
    return float(mean[i]), float(p99[i])


def ecmp(flows: int = 8, paths: int = 8, qps: int = 1):
    """Completion time of equal elephant flows hashed onto equal paths (ECMP), relative to
    perfect balance, against queue pairs per flow: mean and 99th percentile, the chosen
    setting marked; the dotted line at 1 is what per-packet spraying approaches."""
    _check_ecmp(flows, paths, qps)
    fig, ax = new_figure()
    x = np.array(ECMP_QPS, float)
    ax.axhline(1.0, color=COLORS["green"], ls=":", lw=1.5,
               label="perfect balance (per-packet spraying)")
    mean = ax.plot(x, np.ones(x.size), color="black", lw=2.2, marker="o", ms=4,
                   label="mean")[0]
    p99 = ax.plot(x, np.ones(x.size), color=COLORS["vermillion"], lw=1.6, ls="--",
                  marker="o", ms=3, label="99th percentile")[0]
    mark = ax.plot([1], [1], "x", color="black", ms=11, mew=2.2)[0]
    mark99 = ax.plot([1], [1], "x", color=COLORS["vermillion"], ms=11, mew=2.2)[0]
    ax.set_xscale("log", base=2)
    ax.set_xlim(0.8, ECMP_QPS[-1] * 1.25)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{q:g}" for q in ECMP_QPS])
    ax.set_ylim(*ECMP_YLIM)
    ax.set_xlabel("queue pairs (hash inputs) per flow")
    ax.set_ylabel("completion time / perfectly balanced")
    ax.set_title(" ", fontsize=9)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    fig._interlib_ch06 = dict(mean=mean, p99=p99, mark=(mark, mark99), title=ax.title)
    _fill_ecmp(fig, flows, paths, qps)
    return fig


def _fill_ecmp(fig, flows, paths, qps):
    """Set everything in an :func:`ecmp` figure that depends on the parameters; returns the
    artists it changed."""
    _check_ecmp(flows, paths, qps)
    parts = _parts(fig)
    m, p = _ecmp_curve(int(flows), int(paths))
    parts["mean"].set_ydata(m)
    parts["p99"].set_ydata(p)
    pm, pp = ecmp_point(flows, paths, qps)
    parts["mark"][0].set_data([qps], [pm])
    parts["mark"][1].set_data([qps], [pp])
    parts["title"].set_text(f"{display.fmt_count(flows, 'flow')} hashed onto {paths} equal "
                            f"paths; {qps} QP per "
                            f"flow: mean {display.fmt_ratio(pm)}, 99th percentile "
                            f"{display.fmt_ratio(pp)} the balanced time")
    return [parts["mean"], parts["p99"], *parts["mark"], parts["title"]]
