"""ECN marking and DCQCN: a fluid model of N RDMA senders sharing one bottleneck link.

DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015)
has three parts:

* the switch (congestion point) marks packets with ECN with a probability that rises
  linearly from 0 at queue ``kmin`` to ``pmax`` at ``kmax`` and is 1 above ``kmax``
  (RED-style marking);
* the receiver (notification point) sends at most one Congestion Notification Packet
  (CNP) per ``cnp_interval`` when marked packets arrived;
* the sender (reaction point) on a CNP sets its target rate ``R_T = R_C`` and cuts its
  current rate ``R_C <- R_C (1 - alpha/2)``, with ``alpha <- (1-g) alpha + g``; without
  CNPs alpha decays ``alpha <- (1-g) alpha`` every ``alpha_interval``. A timer
  (``increase_interval``) and a byte counter raise the rate: the first ``fast_recovery``
  increase events move ``R_C`` halfway to ``R_T`` (fast recovery), later ones also add
  ``rate_ai`` to ``R_T`` (additive increase).

This module integrates the *expected* behaviour (a fluid model in the style of the
paper's Section 5): with marking probability p and R_C x tau / MTU packets in an interval
tau, a sender sees at least one mark with probability ``1 - (1 - p)^(R_C tau / MTU)``.
The queue obeys ``dq/dt = sum(R_C) - C`` (at least 0, at most ``buffer_bytes``; a full
buffer is held by PFC, not dropped). Senders join one after another, so the figure shows
the newcomer being pulled down and the rates converging to a fair share.

The default parameters are the paper's values for its 40 Gb/s testbed (Kmin 5 KB,
Kmax 200 KB, Pmax 1 %, g = 1/256, 50 us CNP interval, 55 us alpha and timer intervals,
10 MB byte counter, F = 5), used unchanged at 400 Gb/s; only the additive-increase step
R_AI is scaled with the line rate (the paper's 40 Mb/s at 40 Gb/s is 0.1 % of it). Treat
them as illustrative: a 400 Gb/s deployment would retune them.

The default run (80 ms, time step 8 us) is long enough for the late joiner to converge:
steady-state statistics (:attr:`DCQCNRun.utilisation`, ``mean_queue``, ``fairness``) are
taken over the last quarter, after :meth:`DCQCNRun.settle_time`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .units import MB, Mbit, kB, ms, s as _s, us

Mbit_per_s = Mbit / _s


def marking_probability(queue_bytes, kmin: float = 5 * kB, kmax: float = 200 * kB,
                        pmax: float = 0.01):
    """ECN marking probability of a RED-style switch queue (DCQCN's congestion point).

    ``0`` below ``kmin``; ``pmax x (q - kmin) / (kmax - kmin)`` between; ``1`` above
    ``kmax`` (Zhu et al. 2015, Figure 5).

    Args:
        queue_bytes: Queue depth, bytes (>= 0), scalar or array.
        kmin: Marking starts, bytes (>= 0).
        kmax: Marking reaches pmax, bytes (> kmin).
        pmax: Probability at kmax, (0, 1].

    >>> marking_probability([0, 102_500, 300_000])
    array([0.   , 0.005, 1.   ])
    """
    v.non_negative("queue_bytes", queue_bytes)
    v.non_negative("kmin", kmin)
    v.number("kmax", kmax, lo=float(kmin), lo_open=True)
    v.fraction("pmax", pmax)
    q = np.asarray(queue_bytes, dtype=float)
    p = np.where(q <= kmin, 0.0,
                 np.where(q <= kmax, pmax * (q - kmin) / (kmax - kmin), 1.0))
    return float(p) if p.ndim == 0 else p


@dataclass(frozen=True)
class DCQCNRun:
    """Result of :func:`dcqcn`; arrays have one entry per time step.

    Attributes:
        t: Time, s.
        rates: Current rate of each sender, bytes/s, shape (steps, senders).
        queue: Bottleneck queue, bytes.
        mark: ECN marking probability.
        capacity: Bottleneck rate, bytes/s.
        join_times: When each sender starts, s.
    """

    t: np.ndarray
    rates: np.ndarray
    queue: np.ndarray
    mark: np.ndarray
    capacity: float
    join_times: np.ndarray

    def tail(self, share: float = 0.25) -> slice:
        """The last ``share`` of the run (where steady-state statistics are taken)."""
        n = self.t.size
        return slice(int(n * (1 - share)), n)

    def settle_time(self, tolerance: float = 0.05) -> float:
        """When the late joiner's rate enters and stays within ``tolerance`` (a share) of
        the fair share ``capacity / senders``, measured from its join time, s; ``nan`` if
        it has not settled by the end of the run (or there is only one sender)."""
        tol = v.number("tolerance", tolerance, lo=0.0, hi=1.0, lo_open=True)
        n = self.rates.shape[1]
        if n < 2:
            return float("nan")
        fair = self.capacity / n
        off = np.abs(self.rates[:, -1] - fair) > tol * fair
        off |= self.t < self.join_times[-1]
        if off[-1]:
            return float("nan")
        last_off = np.flatnonzero(off)
        first_in = last_off[-1] + 1 if last_off.size else 0
        return float(self.t[first_in] - self.join_times[-1])

    @property
    def joiner_share(self) -> float:
        """The late joiner's mean rate over the last quarter / the fair share C/N."""
        n = self.rates.shape[1]
        return float(self.rates[self.tail(), -1].mean() / (self.capacity / n))

    @property
    def utilisation(self) -> float:
        """Mean total rate / capacity over the last quarter of the run."""
        return float(self.rates[self.tail()].sum(axis=1).mean() / self.capacity)

    @property
    def queueing_delay(self) -> float:
        """Mean queue over the last quarter drained at the bottleneck rate, s: the
        delay a packet arriving behind it waits (``mean_queue / capacity``)."""
        return self.mean_queue / self.capacity

    @property
    def mean_queue(self) -> float:
        """Mean queue over the last quarter, bytes."""
        return float(self.queue[self.tail()].mean())

    @property
    def fairness(self) -> float:
        """Jain's fairness index of the senders' mean rates over the last quarter:
        ``(sum x)^2 / (n sum x^2)`` (1 = perfectly fair)."""
        x = self.rates[self.tail()].mean(axis=0)
        return float(x.sum() ** 2 / (x.size * (x**2).sum())) if x.any() else 1.0


def dcqcn(senders: int = 4, capacity: float | None = None, kmin: float = 5 * kB,
          kmax: float = 200 * kB, pmax: float = 0.01, duration: float = 80 * ms,
          dt: float = 8 * us, join_time: float = 4 * ms, g: float = 1 / 256,
          cnp_interval: float = 50 * us, alpha_interval: float = 55 * us,
          increase_interval: float = 55 * us, byte_counter: float = 10 * MB,
          fast_recovery: int = 5, rate_ai: float | None = None,
          mtu: float = 4096.0, buffer_bytes: float = 32 * MB) -> DCQCNRun:
    """Integrate the DCQCN fluid model for ``senders`` flows into one link.

    ``senders - 1`` identical flows start at t = 0 at line rate (DCQCN starts flows at
    line rate); one more flow joins at ``join_time`` (with one sender, it starts at 0).
    Identical flows stay identical in a fluid model, so the state is two classes: the
    incumbents and the newcomer. Per step of ``dt`` (marking uses the queue one step
    earlier: the feedback delay):

    * ``P_x = 1 - (1 - p)^(R_C x / mtu)`` for an interval x;
    * decrease: ``dR_C = -R_C alpha/2 x P_cnp / cnp_interval dt``,
      ``dR_T = (R_C - R_T) P_cnp / cnp_interval dt``;
    * ``d alpha = g (P_alpha - alpha) / alpha_interval dt``;
    * increase events at rate ``e = (1-P_T)/increase_interval + (1-P_B) R_C/byte_counter``
      (timer and byte counter expiring without a CNP); ``dR_C = e (R_T - R_C)/2 dt``,
      ``dR_T = e w rate_ai dt`` with ``w = (1 - P_T)^fast_recovery`` the share of events
      past fast recovery;
    * ``dq = (sum R_C - capacity) dt``, clipped to [0, buffer_bytes].

    Args:
        senders: Flows, 1..64.
        capacity: Bottleneck (and line) rate, bytes/s per direction; default 400 GbE.
        kmin, kmax, pmax: ECN marking thresholds (bytes) and maximum probability.
        duration: Simulated time, s (0 < duration <= 0.1).
        dt: Time step, s (0.1 us .. 50 us); duration / dt at most 20,000 steps.
        join_time: When the last sender starts, s (0 <= join_time < duration).
        g: alpha gain, (0, 1].
        cnp_interval, alpha_interval, increase_interval: s (> 0).
        byte_counter: bytes (> 0).
        fast_recovery: Increase events before additive increase (0..20).
        rate_ai: Additive increase step, bytes/s (>= 0); default 0.1 % of the line rate
            (the paper's 40 Mb/s at 40 Gb/s, scaled).
        mtu: Bytes per packet (> 0).
        buffer_bytes: Queue cap, bytes (> kmax).

    Returns:
        :class:`DCQCNRun` (``rates`` has one column per sender).

    >>> r = dcqcn(1)
    >>> round(r.utilisation, 3), r.mean_queue
    (1.0, 0.0)
    """
    import math

    from .specs import ethernet

    n = v.integer("senders", senders, lo=1, hi=64)
    C = float(ethernet(400).value) if capacity is None else float(v.positive("capacity",
                                                                             capacity))
    marking_probability(0.0, kmin, kmax, pmax)
    v.number("duration", duration, lo=0.0, hi=0.1, lo_open=True)
    v.number("dt", dt, lo=0.1 * us, hi=50 * us)
    steps = int(round(duration / dt))
    if steps > 20_000 or steps < 2:
        raise ValueError(f"dt={dt!r} is out of range for duration={duration!r}: "
                         "duration / dt must be between 2 and 20,000 steps")
    v.number("join_time", join_time, lo=0.0, hi=float(duration), hi_open=True)
    v.fraction("g", g)
    for name, val in (("cnp_interval", cnp_interval), ("alpha_interval", alpha_interval),
                      ("increase_interval", increase_interval),
                      ("byte_counter", byte_counter), ("mtu", mtu)):
        v.positive(name, val)
    F = v.integer("fast_recovery", fast_recovery, lo=0, hi=20)
    rai = 1e-3 * C if rate_ai is None else float(v.non_negative("rate_ai", rate_ai))
    v.number("buffer_bytes", buffer_bytes, lo=float(kmax), lo_open=True)

    # two classes: 0 = the (n-1) incumbents, 1 = the newcomer
    mult = (n - 1, 1)
    start = (0.0, float(join_time) if n > 1 else 0.0)
    rc, rt, al = [C, C], [C, C], [1.0, 1.0]
    q, p_prev = 0.0, 0.0
    span = kmax - kmin
    out_rc = [[0.0] * steps, [0.0] * steps]
    Q = [0.0] * steps
    Pm = [0.0] * steps
    lo = 1e-6 * C
    # loop invariants (the arithmetic per step is the formulas of the docstring)
    expm1, exp, log1p = math.expm1, math.exp, math.log1p
    inv_mtu, bc_mtu = 1.0 / mtu, byte_counter / mtu
    cut_k, inc_k, g_k = dt / cnp_interval, 1.0 / increase_interval, g / alpha_interval * dt
    ai_k, half_dt = rai * dt, dt / 2
    p_top = 1.0 - 1e-12
    for s in range(steps):
        now = s * dt
        lq = log1p(-min(p_prev, p_top))
        total = 0.0
        for c in (0, 1):
            if mult[c] == 0 or now < start[c]:
                continue
            r, tr, a = rc[c], rt[c], al[c]
            pk = r * inv_mtu * lq
            cut = -expm1(pk * cnp_interval) * cut_k
            p_alpha = -expm1(pk * alpha_interval)
            no_t = exp(pk * increase_interval)
            ev = no_t * inc_k + exp(bc_mtu * lq) * r / byte_counter
            r_new = r - r * a * 0.5 * cut + ev * (tr - r) * half_dt
            tr_new = tr + (r - tr) * cut + ev * no_t**F * ai_k
            al[c] = a + (p_alpha - a) * g_k
            r_new = C if r_new > C else (lo if r_new < lo else r_new)
            rc[c] = r_new
            rt[c] = C if tr_new > C else (lo if tr_new < lo else tr_new)
            out_rc[c][s] = r_new
            total += mult[c] * r_new
        q += (total - C) * dt
        q = 0.0 if q < 0.0 else (buffer_bytes if q > buffer_bytes else q)
        p_prev = 0.0 if q <= kmin else (pmax * (q - kmin) / span if q <= kmax else 1.0)
        Q[s] = q
        Pm[s] = p_prev
    inc = np.asarray(out_rc[0])
    new = np.asarray(out_rc[1])
    rates = np.empty((steps, n))
    rates[:, :n - 1] = inc[:, None]
    rates[:, n - 1] = new
    joins = np.array([start[0]] * (n - 1) + [start[1]])
    return DCQCNRun(np.arange(steps) * dt, rates, np.asarray(Q), np.asarray(Pm), C, joins)


# ------------------------------------------------------- ECMP hash collisions (Chapter 6)
@dataclass(frozen=True)
class ECMPResult:
    """Result of :func:`ecmp_balance`: how much a hashed placement slows a bulk transfer.

    Attributes:
        flows, paths, qps_per_flow: The inputs.
        slowdowns: One completion time per trial, relative to a perfectly balanced
            placement (1 = as fast as perfect balance).
    """

    flows: int
    paths: int
    qps_per_flow: int
    slowdowns: np.ndarray

    @property
    def mean_slowdown(self) -> float:
        """Mean completion time over perfect balance."""
        return float(self.slowdowns.mean())

    @property
    def p99_slowdown(self) -> float:
        """99th percentile of the completion time over perfect balance."""
        return float(np.quantile(self.slowdowns, 0.99))

    @property
    def p_balanced(self) -> float:
        """Share of trials that were as fast as perfect balance."""
        return float(np.mean(self.slowdowns <= 1.0 + 1e-12))

    @property
    def mean_efficiency(self) -> float:
        """Mean of the achieved share of the balanced throughput (1 / slowdown)."""
        return float((1.0 / self.slowdowns).mean())


def ecmp_balance(flows: int = 8, paths: int = 8, qps_per_flow: int = 1,
                 trials: int = 20_000, seed: int = 0) -> ECMPResult:
    """Hash ``flows`` equal elephant flows onto ``paths`` equal uplinks, the way ECMP does.

    Each flow wants one path's full rate (an NIC-rate collective flow) and is split into
    ``qps_per_flow`` queue pairs that carry equal shares (NCCL hands messages to a
    connection's QPs in turn, ``NCCL_IB_QPS_PER_CONNECTION``); ECMP hashes every QP
    independently and uniformly onto one path (Enhanced ECMP includes the destination QP in
    the hash, so different QPs of one connection can take different paths). A path
    carrying load ``L`` (in flows) drains in ``L`` flow-times; a flow cannot go faster than
    its own NIC, so the transfer takes ``max(1, max_j L_j)`` against the perfectly balanced
    ``max(1, flows / paths)``. ``qps_per_flow`` very large approaches per-packet spraying.
    Seeded Monte Carlo, vectorised over trials.

    Args:
        flows: Concurrent elephant flows crossing the layer (>= 1).
        paths: Equal-cost uplinks (>= 1).
        qps_per_flow: Queue pairs (hash inputs) per flow (>= 1).
        trials: Monte Carlo trials (>= 100).
        seed: Random seed (>= 0).

    Returns:
        :class:`ECMPResult`.

    With as many flows as paths and one QP each, all land on different paths only with
    probability ``paths! / paths^paths`` (:func:`ecmp_collision_free_probability`):

    >>> r = ecmp_balance(2, 2, 1, trials=4000)
    >>> round(r.p_balanced, 1), round(r.mean_slowdown, 1)
    (0.5, 1.5)
    """
    flows = v.integer("flows", flows, lo=1, hi=4096)
    paths = v.integer("paths", paths, lo=1, hi=4096)
    q = v.integer("qps_per_flow", qps_per_flow, lo=1, hi=1024)
    trials = v.integer("trials", trials, lo=100, hi=1_000_000)
    seed = v.integer("seed", seed, lo=0)
    rng = np.random.default_rng(seed)
    total = flows * q
    slow = np.empty(trials)
    ideal = max(1.0, flows / paths)
    chunk = max(1, 2_000_000 // max(total, 1))
    for lo in range(0, trials, chunk):
        n = min(chunk, trials - lo)
        pick = rng.integers(0, paths, size=(n, total))
        # drawn as int64 everywhere (the same stream on every platform), then the index
        # type bincount needs (int32 on wasm32, where numpy refuses the int64 cast)
        idx = (np.arange(n)[:, None] * paths + pick).ravel().astype(np.intp)
        load = np.bincount(idx, minlength=n * paths).reshape(n, paths) / q
        slow[lo:lo + n] = np.maximum(1.0, load.max(axis=1)) / ideal
    return ECMPResult(flows, paths, q, slow)


def ecmp_collision_free_probability(flows: int, paths: int) -> float:
    """Probability that ``flows`` single-QP flows hashed uniformly onto ``paths`` paths all
    land on different paths: ``prod_{i<flows} (paths - i) / paths`` (the birthday
    problem; 0 when flows > paths).

    Args:
        flows: Flows (>= 1).
        paths: Paths (>= 1).

    >>> round(ecmp_collision_free_probability(8, 8), 4)
    0.0024
    """
    flows = v.integer("flows", flows, lo=1, hi=1_000_000)
    paths = v.integer("paths", paths, lo=1, hi=1_000_000)
    if flows > paths:
        return 0.0
    i = np.arange(flows)
    return float(np.prod((paths - i) / paths))


__all__ = ["marking_probability", "DCQCNRun", "dcqcn", "ECMPResult", "ecmp_balance",
           "ecmp_collision_free_probability"]
