"""Tests for interlib.congestion: ECN marking and the DCQCN fluid model.

Expected values: the RED marking ramp (Zhu et al. 2015, Fig. 5) by hand; one sender never
builds a queue and runs at line rate; N senders converge to a fully used link and a fair
share C/N; a higher marking threshold holds a deeper queue.
"""

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
    (lambda: C.marking_probability(-1), "queue_bytes"),
    (lambda: C.marking_probability(1, kmin=10, kmax=5), "kmax"),
    (lambda: C.marking_probability(1, pmax=0), "pmax"),
    (lambda: C.dcqcn(0), "senders"),
    (lambda: C.dcqcn(2, duration=1.0), "duration"),
    (lambda: C.dcqcn(2, dt=1e-9), "dt"),
    (lambda: C.dcqcn(2, g=2.0), "g"),
    (lambda: C.dcqcn(2, capacity=0), "capacity"),
    (lambda: C.dcqcn(2, duration=10e-3, join_time=20e-3), "join_time"),
    (lambda: C.dcqcn(2, duration=10e-3, join_time=10e-3), "join_time"),
    (lambda: C.dcqcn(8).settle_time(0), "tolerance"),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_queueing_delay_is_queue_over_capacity():
    r = C.dcqcn(4, capacity=25 * GB_per_s)
    assert r.queueing_delay == pytest.approx(r.mean_queue / (25 * GB_per_s))
