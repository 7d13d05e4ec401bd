"""A demo's in-place ``update`` hook draws exactly what its pure ``func`` draws.

``interlib.widgets.show`` uses ``Demo.update`` (when a demo has one) to change one live
Figure on every slider move instead of building a new one. For every such demo, starting
from the figure at its defaults and stepping through the extreme/default combinations
(the same ones test_demos_extremes drives), each updated figure must render to the same
pixels as a fresh ``func(**params)`` figure, and the alt text must agree.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # this process only

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.image import imread  # noqa: E402

from interlib import widgets  # noqa: E402
from test_demos_extremes import combinations  # noqa: E402

WITH_UPDATE = sorted(n for n, d in widgets.DEMOS.items() if d.update is not None)


def _pixels(fig, bbox):
    return imread(io.BytesIO(widgets.figure_png(fig, bbox, 1)), format="png")


def test_show_builds_every_demo():
    for name in widgets.DEMOS:
        box = widgets.show(name)
        assert box.children and "interlib-demo" in box._dom_classes


@pytest.mark.parametrize("name", WITH_UPDATE)
def test_update_matches_fresh_figure(name):
    """Frames of a LiveFigure (blitted where it can) against fresh figures. Blitting draws
    the changed artists after the spines, so a few antialiased pixels where a line meets
    an axis may differ: at most 0.5% of the pixels, each by any amount."""
    demo = widgets.DEMOS[name]
    live = widgets.LiveFigure(demo)
    combos = combinations(name, demo.controls)[:16]
    for params in [*combos, demo.defaults(), *combos[:3]]:
        a = imread(io.BytesIO(live.frame(params)), format="png")
        fresh = demo.func(**params)
        b = _pixels(fresh, live.bbox)
        assert a.shape[:2] == b.shape[:2], f"{name} at {params}: image size differs"
        diff = np.abs(a[..., :3] - b[..., :3]).max(axis=-1)
        bad = (diff > 0.02).mean()
        assert bad <= 0.005, f"{name} at {params}: {bad:.2%} of pixels differ from func(**params)"
        assert (widgets.figure_alt(live.fig, name, params)
                == widgets.figure_alt(fresh, name, params))
