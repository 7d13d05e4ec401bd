"""Every interactive demo draws at its slider extremes (Neuromatch Academy's check).

Contract with ``interlib.widgets``:

* ``DEMOS``: dict, name -> Demo;
* ``Demo.func``: a pure function of keyword parameters returning a matplotlib Figure;
* ``Demo.controls``: dict, parameter name -> Control, where ``Control.values()`` gives the
  values to try: min, max and default for numeric sliders, every option for dropdowns.

Each demo is called at every combination of its parameters' values (at most 256; beyond
that a fixed pseudo-random sample, the same on every run, always including the first
combination), and must return a Figure.
"""

from __future__ import annotations

import itertools
import math
import random

import matplotlib

matplotlib.use("Agg")  # this process only; notebook kernels are separate processes

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

MAX_COMBOS = 256


def _load_demos():
    """Test parameters; an import failure becomes one failing case rather than a collection
    error, so the rest of the suite still runs while interlib.widgets is being written."""
    try:
        from interlib.widgets import DEMOS
    except Exception as exc:  # noqa: BLE001 - reported by the test below
        return [pytest.param(None, None, exc, id="import-interlib.widgets")]
    return [pytest.param(name, demo, None, id=name) for name, demo in sorted(DEMOS.items())]


def _unique(values) -> list:
    out = []
    for v in values:
        if not any(v is u or (type(v) is type(u) and _eq(v, u)) for u in out):
            out.append(v)
    return out


def _eq(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - arrays and other odd types: keep both
        return False


def combinations(name: str, controls: dict) -> list[dict]:
    names = sorted(controls)
    values = [_unique(list(controls[n].values())) for n in names]
    for n, vals in zip(names, values):
        assert vals, f"demo {name!r}: control {n!r} offers no values"
    total = math.prod(len(v) for v in values)
    if total <= MAX_COMBOS:
        return [dict(zip(names, c)) for c in itertools.product(*values)]

    def decode(index: int) -> dict:
        combo = {}
        for n, vals in zip(reversed(names), reversed(values)):
            index, k = divmod(index, len(vals))
            combo[n] = vals[k]
        return combo

    rng = random.Random(f"interconnects-demo:{name}")
    picks = sorted({0, *rng.sample(range(total), MAX_COMBOS - 1)})
    while len(picks) < MAX_COMBOS:  # index 0 was also drawn: top up deterministically
        picks = sorted({*picks, rng.randrange(total)})
    return [decode(i) for i in picks]


PARAMS = _load_demos()


@pytest.mark.parametrize("name, demo, import_error", PARAMS)
def test_demo_draws_at_extremes(name, demo, import_error):
    if import_error is not None:
        pytest.fail(f"cannot import interlib.widgets.DEMOS: {import_error!r}")
    assert callable(demo.func), f"demo {name!r}: func is not callable"
    assert demo.controls, f"demo {name!r}: no controls"
    for params in combinations(name, demo.controls):
        try:
            fig = demo.func(**params)
        except Exception as exc:  # noqa: BLE001 - re-raised with the parameters
            raise AssertionError(f"demo {name!r} raised at {params}: {exc!r}") from exc
        try:
            assert isinstance(fig, Figure), (
                f"demo {name!r} returned {type(fig).__name__}, not a Figure, at {params}")
        finally:
            plt.close("all")
            if isinstance(fig, Figure):
                plt.close(fig)


def test_combination_sampling_is_deterministic_and_capped():
    class C:
        def __init__(self, vals):
            self._vals = vals

        def values(self):
            return self._vals

    controls = {f"p{i}": C([0, 1, 2]) for i in range(7)}  # 3**7 = 2187 > cap
    a = combinations("x", controls)
    b = combinations("x", controls)
    assert a == b and len(a) == MAX_COMBOS and a[0] == {f"p{i}": 0 for i in range(7)}
    small = combinations("y", {"a": C([1, 2, 2]), "b": C(["u", "v"])})
    assert len(small) == 4
