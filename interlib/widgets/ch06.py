"""Chapter 6 demos."""

from __future__ import annotations

from .. import display, reliability
from ..plots import ch06 as P
from ..units import ms
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch06 as A


def _drop_summary(drop_rate, n_gpus, penalty_ms):
    packets, base = reliability.drop_step_setup()
    s = P.drop_stats(drop_rate, n_gpus, penalty_ms)  # memoised: shared with the figure
    return (f"{display.fmt_count(n_gpus, 'GPU')}, drop rate {display.fmt_num(drop_rate)}, "
            f"{packets:,} packets per GPU per "
            f"step, {display.fmt_time(penalty_ms * ms)} per drop: a step sees a drop "
            f"somewhere with probability {display.fmt_num(s.p_step_hit)}; mean step "
            f"{s.mean_slowdown:.3f}× and 99th percentile {s.p99_slowdown:.3f}× the "
            f"drop-free {display.fmt_time(base)} (Monte Carlo: "
            f"{s.mc_mean_step / base:.3f}×, {s.mc_p99_step / base:.3f}×)")


register(Demo(
    "drop_slowdown", P.drop_slowdown,
    {"drop_rate": FloatSlider(*P.DROP_RATE_RANGE, 1e-6, "drop probability per packet",
                              step=0.1, log=True, readout_format="num"),
     "n_gpus": IntSlider(*P.GPU_RANGE, 1024, "GPUs", log=True, readout_format="num"),
     "penalty_ms": FloatSlider(*P.PENALTY_MS_RANGE, 1.0, "time lost per drop (ms)",
                               step=0.1, log=True, readout_format="num")},
    _drop_summary,
    (("At a drop rate of one in a billion, how many GPUs does it take before most steps "
      "contain at least one drop?",
      A.drop_billion),
     ("Why does the 99th-percentile step matter more than the mean for a synchronous "
      "training job of thousands of steps?",
      A.drop_p99),
     ("Which lever helps more at 16K GPUs: halving the drop rate or halving the time lost "
      "per drop? Try both.",
      A.drop_levers)),
    update=P._fill_drop_slowdown))


def _pfc_summary(failure, watchdog, watchdog_steps, load):
    r = P.pfc_storm_run(failure, watchdog, watchdog_steps, load)  # shared with the figure
    last = r.good_rx[-100:].mean()
    offered = (P.PFC_SENDERS - 1) / P.PFC_SENDERS * load
    fired = (f"watchdog fired at t = {r.watchdog_fired_at:,}, dropping "
             f"{display.fmt_count(round(r.dropped[-1]), 'packet')} for the dead port"
             if r.watchdog_fired_at >= 0 else "watchdog did not fire")
    gets = (f"healthy receiver gets {display.fmt_num(last)} packets/step at the end (it is "
            f"offered {display.fmt_num(offered)}")
    if last > offered * 1.001:
        # More than offered: the switches' queues, filled while the links were paused,
        # are still draining through the uplink (1 packet per step, shared with host 0's
        # packets for the dead port, which the watchdog drops at switch 2).
        gets += ("; the extra is the backlog queued in the switches while the links were "
                 f"paused, still draining: switch 1 holds "
                 f"{display.fmt_count(round(r.q_leaf[-1]), 'packet')} at the end")
    return (f"load {display.fmt_num(load)}, failure {'on' if failure else 'off'}, watchdog "
            f"{'on' if watchdog else 'off'} ({watchdog_steps} steps): {gets}); most senders "
            f"paused at once: {int(r.paused_hosts.max())} of {P.PFC_SENDERS}; {fired}")


register(Demo(
    "pfc_storm", P.pfc_storm,
    {"failure": Dropdown((True, False), True, "receiver gets stuck"),
     "watchdog": Dropdown((True, False), True, "PFC watchdog"),
     "watchdog_steps": IntSlider(50, 800, 600, "watchdog trigger (steps paused)", step=10),
     "load": FloatSlider(0.2, 1.0, 0.6, "total offered load", step=0.05)},
    _pfc_summary,
    (("Turn the watchdog off. Which senders end up paused, and which of them were sending "
      "to the broken receiver?",
      A.pfc_off),
     ("Shorten the watchdog trigger. What does the network gain, and what is the risk of "
      "a trigger that is too short (think of a receiver that is only briefly slow)?",
      A.pfc_short)),
    update=P._fill_pfc_storm))


def _dcqcn_summary(senders, kmin_kb, kmax_kb, pmax):
    r = P.dcqcn_run(senders, kmin_kb, kmax_kb, pmax)  # memoised: shared with the figure
    tail = r.tail()
    text = (f"{senders} senders, Kmin {display.fmt_num(kmin_kb)} kB, Kmax "
            f"{display.fmt_num(kmax_kb)} kB, Pmax {display.fmt_num(pmax)}, "
            f"steady state from {display.fmt_time(r.t[tail][0])} to "
            f"{display.fmt_time(r.t[-1])}: utilisation {display.fmt_pct(r.utilisation)}, "
            f"mean queue {display.fmt_bytes(r.mean_queue)}, fairness (Jain) "
            f"{r.fairness:.4f}")
    if senders > 1:
        settle = r.settle_time()
        text += (f"; late joiner {display.fmt_rate(r.rates[tail, -1].mean())} vs fair "
                 f"share {display.fmt_rate(r.capacity / senders)} "
                 f"({display.fmt_pct(r.joiner_share)} of it), within 5 % of the fair "
                 "share " + (f"{display.fmt_time(settle)} after joining" if settle == settle
                             else "not yet by the end of the run"))
    return text


register(Demo(
    "dcqcn", P.dcqcn,
    {"senders": IntSlider(2, 32, 8, "senders"),
     "kmin_kb": FloatSlider(1.0, 100.0, 5.0, "Kmin (kB)", step=1.0),
     "kmax_kb": FloatSlider(101.0, 2000.0, 200.0, "Kmax (kB)", step=0.01, log=True,
                            readout_format="num"),
     "pmax": FloatSlider(0.001, 1.0, 0.01, "Pmax", step=0.01, log=True, readout_format="num")},
    _dcqcn_summary,
    (("Raise Kmax from 200 kB to 2 MB. What happens to the queue, and what does a deeper "
      "queue cost a latency-sensitive small message behind it?",
      A.dcqcn_kmax),
     ("Make marking steep: Kmax 101 kB and Pmax 1. In this fluid model the link stays fully "
      "used and the queue shrinks. What do you lose instead? (Watch the late joiner.)",
      A.dcqcn_steep),
     ("Watch the late joiner. How long does it take to get near its fair share (the "
      "summary prints it), and what sets that time?",
      A.dcqcn_joiner)),
    update=P._fill_dcqcn))


# ------------------------------------------------------------ ECMP (expert review, issue 14)
def _ecmp_summary(qps, flows, paths):
    from .. import congestion

    mean, p99 = P.ecmp_point(flows, paths, qps)
    clean = congestion.ecmp_collision_free_probability(flows, paths) if qps == 1 else None
    text = (f"{display.fmt_count(flows, 'flow')} of one path's rate hashed onto {paths} "
            f"equal paths, {display.fmt_count(qps, 'queue pair')} per flow: the transfer takes {display.fmt_ratio(mean)} the perfectly "
            f"balanced time on average, {display.fmt_ratio(p99)} at the 99th percentile")
    if clean is not None:
        text += f"; no two flows share a path in {display.fmt_pct(clean)} of placements"
    return text


def _ecmp_answer_qps():
    flows = paths = 8
    one, _ = P.ecmp_point(flows, paths, 1)
    many, _ = P.ecmp_point(flows, paths, P.ECMP_QPS[-1])
    return (f"With {flows} flows on {paths} paths the mean falls from {display.fmt_ratio(one)} with one "
            f"queue pair to {display.fmt_ratio(many)} with {P.ECMP_QPS[-1]}: each path's "
            "load becomes a sum of many small shares, which averages out. It never reaches "
            "the balanced time exactly; only spreading every packet does, and that needs a transport that "
            "accepts reordering.")


def _ecmp_answer_paths():
    flows, paths = 8, 8
    a, _ = P.ecmp_point(flows, paths, 1)
    b, _ = P.ecmp_point(flows, 4 * paths, 1)
    return (f"Four times as many paths for the same {flows} flows takes the mean from "
            f"{display.fmt_ratio(a)} to {display.fmt_ratio(b)}: collisions get rarer, but "
            "with only a few flows some still land together, and the spare paths sit idle. "
            "More paths alone buy less than more hash inputs.")


register(Demo(
    "ecmp", P.ecmp,
    {"qps": Dropdown(P.ECMP_QPS, 1, "queue pairs per flow"),
     "flows": IntSlider(*P.ECMP_FLOWS_RANGE, 8, "elephant flows"),
     "paths": IntSlider(*P.ECMP_PATHS_RANGE, 8, "equal-cost paths")},
    _ecmp_summary,
    (("How much do more queue pairs per flow help at 8 flows on 8 paths, and why does the "
      "curve never reach 1?", _ecmp_answer_qps),
     ("Keep one queue pair and give the same 8 flows four times as many paths. Is that as "
      "good as more queue pairs?", _ecmp_answer_paths),
     ("Why does NCCL not simply open many queue pairs per connection by default?",
      "Every queue pair is state the NIC must hold and cache, and a GPU has connections to "
      "many peers, so queue pairs multiply. Where the fabric already spreads packets "
      "(InfiniBand adaptive routing, packet spraying) more queue pairs buy nothing; where "
      "it hashes flows (ECMP), the operator raises NCCL_IB_QPS_PER_CONNECTION, as Meta "
      "did.")),
    update=P._fill_ecmp))
