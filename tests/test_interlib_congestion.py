"""Tests for interlib.congestion: ECN marking and the DCQCN fluid model.

Expected values: the RED marking ramp (Zhu et al. 2015, Fig. 5) by hand; one sender never
builds a queue and runs at line rate; N senders converge to a fully used link and a fair
share C/N; a higher marking threshold holds a deeper queue.
"""

import math

import numpy as np
import pytest

from interlib import congestion as C
from interlib.units import GB_per_s, kB


def test_marking_ramp_by_hand():
    p = C.marking_probability(np.array([0, 5e3, 102.5e3, 200e3, 200.001e3]))
    assert p == pytest.approx([0, 0, 0.005, 0.01, 1.0])
    assert C.marking_probability(50e3, kmin=0, kmax=100e3, pmax=1.0) == pytest.approx(0.5)


def test_one_sender_line_rate_no_queue():
    r = C.dcqcn(1)
    assert r.queue.max() == 0.0
    assert r.utilisation == pytest.approx(1.0)
    assert r.rates[-1, 0] == pytest.approx(r.capacity)


@pytest.mark.parametrize("n", [4, 8, 16])
def test_converges_to_full_link_and_fair_share(n):
    """After convergence (the default run's last quarter) N identical AIMD senders share
    the link equally (DCQCN's design goal, Zhu et al. 2015 Sec. 5): each gets C/N, the
    late joiner included, and together they fill the link."""
    r = C.dcqcn(n)
    fair = r.capacity / n
    assert r.utilisation == pytest.approx(1.0, abs=0.02)
    assert r.rates[r.tail(), -1].mean() == pytest.approx(fair, rel=0.05)
    assert r.rates[r.tail(), 0].mean() == pytest.approx(fair, rel=0.05)
    assert r.joiner_share == pytest.approx(1.0, rel=0.05)
    assert r.fairness > 0.99
    assert r.rates[-1].sum() == pytest.approx(r.capacity, rel=0.05)
    # it settled before the statistics window opens
    assert r.settle_time() + r.join_times[-1] < r.t[r.tail()][0]


def test_steady_state_queue_is_flat():
    """Statistics are taken after convergence: the queue's mean over the first and the
    second half of the statistics window agree within 5 %."""
    r = C.dcqcn(8)
    q = r.queue[r.tail()]
    half = q.size // 2
    assert q[:half].mean() == pytest.approx(q[half:].mean(), rel=0.05)


def test_settle_time_nan_without_joiner_or_convergence():
    assert np.isnan(C.dcqcn(1).settle_time())
    short = C.dcqcn(8, duration=6e-3)   # joiner at 4 ms has no time to settle
    assert np.isnan(short.settle_time())


def test_higher_threshold_deeper_queue():
    qs = [C.dcqcn(8, kmax=k).mean_queue for k in (50 * kB, 200 * kB, 1000 * kB)]
    assert qs[0] < qs[1] < qs[2]


def test_capacity_argument_and_rates_bounded():
    r = C.dcqcn(4, capacity=25 * GB_per_s)
    assert r.rates.max() <= 25 * GB_per_s + 1e-6
    assert r.queue.min() >= 0


@pytest.mark.parametrize("call, name", [
    (lambda: C.marking_probability(-1), "^queue_bytes="),
    (lambda: C.marking_probability(1, kmin=10, kmax=5), "^kmax="),
    (lambda: C.marking_probability(1, pmax=0), "^pmax="),
    (lambda: C.dcqcn(0), "^senders="),
    (lambda: C.dcqcn(2, duration=1.0), "^duration="),
    (lambda: C.dcqcn(2, dt=1e-9), "^dt="),
    (lambda: C.dcqcn(2, g=2.0), "^g="),
    (lambda: C.dcqcn(2, capacity=0), "^capacity="),
    (lambda: C.dcqcn(2, duration=10e-3, join_time=20e-3), "^join_time="),
    (lambda: C.dcqcn(2, duration=10e-3, join_time=10e-3), "^join_time="),
    (lambda: C.dcqcn(8).settle_time(0), "^tolerance="),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_queueing_delay_is_queue_over_capacity():
    r = C.dcqcn(4, capacity=25 * GB_per_s)
    assert r.queueing_delay == pytest.approx(r.mean_queue / (25 * GB_per_s))


# ------------------------------------------------------------- ECMP hash collisions
def test_ecmp_birthday_probability_by_hand():
    """All flows on different paths: 1 x (P-1)/P x ... (the birthday problem)."""
    assert C.ecmp_collision_free_probability(2, 2) == pytest.approx(0.5)
    assert C.ecmp_collision_free_probability(3, 4) == pytest.approx(1 * 3 / 4 * 2 / 4)
    assert C.ecmp_collision_free_probability(8, 8) == pytest.approx(40320 / 8**8)
    assert C.ecmp_collision_free_probability(9, 8) == 0.0
    assert C.ecmp_collision_free_probability(1, 1) == 1.0


@pytest.mark.parametrize("flows,paths", [(2, 2), (3, 4), (4, 8), (8, 8)])
def test_ecmp_monte_carlo_matches_birthday(flows, paths):
    """With one QP per flow and flows <= paths, a trial is as fast as perfect balance
    exactly when no two flows share a path: the Monte Carlo share must agree with the
    closed form within 4 binomial standard errors."""
    r = C.ecmp_balance(flows, paths, 1, trials=20_000, seed=1)
    p = C.ecmp_collision_free_probability(flows, paths)
    se = math.sqrt(p * (1 - p) / 20_000) + 1e-9
    assert abs(r.p_balanced - p) < 4 * se + 1e-4


def test_ecmp_two_flows_two_paths_by_hand():
    """Half the time both flows share a path and take twice as long: mean 1.5."""
    r = C.ecmp_balance(2, 2, 1, trials=40_000, seed=3)
    assert r.mean_slowdown == pytest.approx(1.5, abs=0.02)
    assert set(np.unique(r.slowdowns)) <= {1.0, 2.0}


def test_ecmp_single_path_or_single_flow_is_balanced():
    assert C.ecmp_balance(1, 8, 1, trials=200).mean_slowdown == 1.0
    r = C.ecmp_balance(6, 1, 3, trials=200)  # one path: everything shares it anyway
    assert r.mean_slowdown == 1.0 and r.p_balanced == 1.0


def test_ecmp_more_qps_balance_better_towards_spraying():
    """More hash inputs per flow: the mean slowdown falls towards 1 (per-packet
    spraying), never below it."""
    means = [C.ecmp_balance(8, 8, q, trials=4000, seed=2).mean_slowdown
             for q in (1, 4, 16, 256)]
    assert all(a > b for a, b in zip(means, means[1:]))
    assert means[0] > 2.0           # max load of 8 balls in 8 bins averages ~2.6
    assert 1.0 <= means[-1] < 1.15
    r = C.ecmp_balance(8, 8, 4, trials=4000)
    assert np.all(r.slowdowns >= 1.0) and r.mean_efficiency <= 1.0


def test_ecmp_seeded_is_deterministic():
    a = C.ecmp_balance(8, 8, 2, trials=500, seed=7).slowdowns
    b = C.ecmp_balance(8, 8, 2, trials=500, seed=7).slowdowns
    assert np.array_equal(a, b)


@pytest.mark.parametrize("call,param", [
    (lambda: C.ecmp_balance(0), "^flows=0"),
    (lambda: C.ecmp_balance(8, 0), "^paths=0"),
    (lambda: C.ecmp_balance(8, 8, 0), "^qps_per_flow=0"),
    (lambda: C.ecmp_balance(8, 8, 1.5), "^qps_per_flow=1.5"),
    (lambda: C.ecmp_balance(8, 8, 1, trials=10), "^trials=10"),
    (lambda: C.ecmp_balance(8, 8, 1, seed=-1), "^seed=-1"),
    (lambda: C.ecmp_collision_free_probability(0, 4), "^flows=0"),
    (lambda: C.ecmp_collision_free_probability(2, "x"), "^paths='x'"),
])
def test_ecmp_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_ecmp_demo_curves_stay_inside_the_fixed_axes():
    """Chapter 6's ECMP figure fixes its y range; every curve the sliders can reach (the
    worst is flows = paths at the largest count) must fit under it, and above 1."""
    from interlib.plots import ch06 as P
    top = 0.0
    for flows in P.ECMP_FLOWS_RANGE:
        for paths in P.ECMP_PATHS_RANGE:
            mean, p99 = P._ecmp_curve(flows, paths)
            assert np.all(mean >= 1.0) and np.all(p99 >= mean - 1e-12)
            top = max(top, p99.max())
    mean, p99 = P._ecmp_curve(P.ECMP_FLOWS_RANGE[1], P.ECMP_FLOWS_RANGE[1])
    top = max(top, p99.max())
    assert top < P.ECMP_YLIM[1]
    with pytest.raises(ValueError, match="^qps=3"):
        P.ecmp_point(8, 8, 3)


# ------------------------------------------- the fluid model against a plain re-statement
def _dcqcn_reference(senders, capacity=50e9, kmin=5e3, kmax=200e3, pmax=0.01,
                     duration=80e-3, dt=8e-6, join_time=4e-3, g=1 / 256, cnp=50e-6,
                     t_alpha=55e-6, t_inc=55e-6, byte_counter=10e6, F=5, rate_ai=None,
                     mtu=4096.0, buffer_bytes=32e6):
    """DCQCN's fluid model written out step by step from Zhu et al. 2015 (Sec. 5) and the
    module docstring, with the paper's defaults (Kmin 5 KB, Kmax 200 KB, Pmax 1 %,
    g = 1/256, 50 us CNP interval, 55 us alpha and increase timers, 10 MB byte counter,
    F = 5) and R_AI = 0.1 % of the line rate; 400 GbE = 50 GB/s. Plain powers (1 - p)^k
    where the module uses log1p/expm1; explicit Euler from the previous step's values;
    rates held in [1e-6 C, C]. Returns (rates per sender, queue, marking) per step."""
    rate_ai = 1e-3 * capacity if rate_ai is None else rate_ai
    steps = int(round(duration / dt))
    starts = [0.0] * (senders - 1) + [join_time if senders > 1 else 0.0]
    rc, rt, al = [capacity] * senders, [capacity] * senders, [1.0] * senders
    q = p = 0.0
    rates, queue, mark = np.zeros((steps, senders)), np.zeros(steps), np.zeros(steps)
    for s in range(steps):
        total = 0.0
        for i in range(senders):
            if s * dt < starts[i]:
                continue
            r, t, a = rc[i], rt[i], al[i]

            def seen(x):  # a mark among the r x / mtu packets of an interval x
                return 1 - (1 - p) ** (r * x / mtu)
            p_cnp, p_alpha, p_t = seen(cnp), seen(t_alpha), seen(t_inc)
            p_b = 1 - (1 - p) ** (byte_counter / mtu)
            e = (1 - p_t) / t_inc + (1 - p_b) * r / byte_counter
            r_new = r - r * a / 2 * p_cnp / cnp * dt + e * (t - r) / 2 * dt
            t_new = t + (r - t) * p_cnp / cnp * dt + e * (1 - p_t) ** F * rate_ai * dt
            al[i] = a + g * (p_alpha - a) / t_alpha * dt
            rc[i] = min(max(r_new, 1e-6 * capacity), capacity)
            rt[i] = min(max(t_new, 1e-6 * capacity), capacity)
            rates[s, i] = rc[i]
            total += rc[i]
        q = min(max(q + (total - capacity) * dt, 0.0), buffer_bytes)
        p = 0.0 if q <= kmin else (pmax * (q - kmin) / (kmax - kmin) if q <= kmax else 1.0)
        queue[s], mark[s] = q, p
    return rates, queue, mark


def _same_run(run, ref):
    rates, queue, mark = ref
    assert run.rates == pytest.approx(rates, rel=1e-9, abs=1e-3)
    assert run.queue == pytest.approx(queue, rel=1e-9, abs=1e-6)
    assert run.mark == pytest.approx(mark, rel=1e-9, abs=1e-12)


def test_dcqcn_defaults_follow_the_fluid_model_step_by_step():
    # the default run (4 senders, 80 ms at 8 us, joiner at 4 ms, the paper's parameters)
    r = C.dcqcn(4)
    _same_run(r, _dcqcn_reference(4))
    assert r.capacity == 50e9 and list(r.join_times) == [0, 0, 0, 4e-3]
    assert r.t[1] - r.t[0] == pytest.approx(8e-6) and r.t.size == 10_000


def test_dcqcn_every_parameter_reaches_the_fluid_model():
    # every parameter away from its default, a buffer small enough to fill (so its cap
    # binds: 3 senders at line rate add 2 x 25 GB/s x 2 us = 100 kB a step) and a single
    # sender (no incumbents)
    kw = dict(capacity=25e9, kmin=10e3, kmax=120e3, pmax=0.05, duration=3e-3, dt=2e-6,
              join_time=0.5e-3, g=1 / 16, cnp=40e-6, t_alpha=60e-6, t_inc=30e-6,
              byte_counter=1e6, F=2, rate_ai=50e6, mtu=1024.0, buffer_bytes=300e3)
    names = dict(cnp="cnp_interval", t_alpha="alpha_interval", t_inc="increase_interval",
                 F="fast_recovery")
    run = C.dcqcn(3, **{names.get(k, k): x for k, x in kw.items()})
    ref = _dcqcn_reference(3, **kw)
    assert ref[1].max() == 300e3          # the cap binds in this run
    _same_run(run, ref)
    _same_run(C.dcqcn(1, **{names.get(k, k): x for k, x in kw.items()}),
              _dcqcn_reference(1, **kw))


def test_run_statistics_by_hand():
    # a hand-made 8-step run, capacity 10: fair share 5 for 2 senders; the joiner starts
    # at t = 2 s. Last quarter = steps 6 and 7.
    t = np.arange(8.0)
    inc = [10, 10, 8, 6, 5, 5, 4.9, 4.9]
    new = [0, 0, 9, 7, 5.2, 4.9, 5.1, 5.0]
    r = C.DCQCNRun(t, np.column_stack([inc, new]), np.array([0, 0, 1, 2, 3, 4, 6, 8.0]),
                   np.zeros(8), 10.0, np.array([0.0, 2.0]))
    assert r.tail() == slice(6, 8) and r.tail(0.5) == slice(4, 8)
    # within 5 % (0.25) of 5 from step 4 on (step 3 is 2 away): settled 4 - 2 = 2 s after
    # joining; within 3 % (0.15) only from step 5: 3 s; within 50 % from step 3: 1 s
    assert r.settle_time() == 2.0
    assert r.settle_time(0.03) == 3.0 and r.settle_time(0.5) == 1.0
    assert r.joiner_share == pytest.approx((5.1 + 5.0) / 2 / 5)
    assert r.utilisation == pytest.approx((10.0 + 9.9) / 2 / 10)
    assert r.mean_queue == pytest.approx(7.0) and r.queueing_delay == pytest.approx(0.7)
    # Jain: (4.9 + 5.05)^2 / (2 (4.9^2 + 5.05^2))
    assert r.fairness == pytest.approx(9.95**2 / (2 * (4.9**2 + 5.05**2)))
    # not settled at the end: nan; no traffic at all counts as fair
    late = C.DCQCNRun(t, np.column_stack([inc, new[:-1] + [9.0]]), np.zeros(8), np.zeros(8),
                      10.0, np.array([0.0, 2.0]))
    assert np.isnan(late.settle_time())
    idle = C.DCQCNRun(t, np.zeros((8, 2)), np.zeros(8), np.zeros(8), 10.0,
                      np.array([0.0, 2.0]))
    assert idle.fairness == 1.0


def test_settle_time_three_senders_by_hand():
    # 3 senders on capacity 15: fair share 5; the joiner (last column) starts at t = 2;
    # the incumbents sit at 7.5, 2.5 away from fair
    t = np.arange(8.0)
    inc = [7.5] * 8
    new = [0, 0, 5, 7.5, 5, 5, 5, 5]
    r = C.DCQCNRun(t, np.column_stack([inc, inc, new]), np.zeros(8), np.zeros(8), 15.0,
                   np.array([0.0, 0.0, 2.0]))
    # within 5 % (0.25) from t = 4: 2 s after joining; within 50 % (2.5, a bound that
    # counts as in) from its first step: 0 s (the steps before the join do not count)
    assert r.settle_time() == 2.0
    assert r.settle_time(0.5) == 0.0
    assert r.settle_time(1.0) == 0.0          # the widest tolerance allowed
    with pytest.raises(ValueError, match="^tolerance=1.5 "):
        r.settle_time(1.5)
    # a joiner at the fair share from t = 0 settled at once
    at_once = C.DCQCNRun(t, np.column_stack([inc, inc, [5.0] * 8]), np.zeros(8),
                         np.zeros(8), 15.0, np.zeros(3))
    assert at_once.settle_time() == 0.0
