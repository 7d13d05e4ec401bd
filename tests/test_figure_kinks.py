"""The bends the Chapter 2 and 4 all-reduce figures mark are where the model bends.

Chapter 2's all-reduce figure and Chapter 4's ring-vs-NVLS figure draw a dotted line "model:
pipeline fill stops growing / chunks full size from here" (issue 26, item 4: a kink is
explained on the figure). The line's position is computed by the plot module from the
calibration constants; these tests look for the bend in ``collectives.predict`` itself, on
a fine grid: the marginal time per byte drops by 10 % or more in the grid intervals at the
marked size (within one protocol), and by less four times away on either side. If the
model's pipeline changes, the line would mark nothing and the test fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from interlib import collectives
from interlib.plots import ch02, ch04

MiB = 2**20


def _bend_at(system, gpus, algorithm, size):
    """The largest relative drop of d(time)/d(size) in the grid intervals around ``size``
    (the two grid steps either side), within one protocol. Since the per-release tuner
    constants a forced algorithm's curve also steps where NCCL changes protocol or channel
    count with size (Chapter 2's figure marks NCCL's choice switches on their own:
    test_nccl_choice_switches_are_where_the_pick_changes), so the pipeline fill's bend is
    no longer always the largest one; what the figure claims is that the model bends at
    the line, and that is what is checked."""
    s = np.logspace(np.log2(1 * MiB), np.log2(4096 * MiB), 400, base=2)
    p = collectives.predict("all_reduce", s, system, gpus, 1, algorithm)
    t, proto = p.time_s, np.asarray(p.protocol)
    slope = np.diff(t) / np.diff(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        drop = slope[1:] / slope[:-1]      # < 1 where the marginal cost per byte falls
    same = (proto[:-2] == proto[1:-1]) & (proto[1:-1] == proto[2:])
    drop = np.where(same & np.isfinite(drop) & (slope[:-1] > 0), drop, np.inf)
    j = int(np.searchsorted(s, size))
    near = drop[max(0, j - 3):j + 1]
    return float(near.min()), s[max(0, j - 3)], s[min(len(s) - 1, j + 2)]


@pytest.mark.parametrize("system,gpus,algorithm,marked", [
    ("dgx-h100", 8, "ring", lambda: ch02._ar_fill_saturates()),
    ("dgx-h100", 8, "ring", lambda: ch04.full_chunk_size(8)),
    ("gb200-nvl72", 72, "nvls", lambda: ch04.full_chunk_size(72)),
    ("gb200-nvl72", 36, "ring", lambda: ch04.full_chunk_size(36)),
])
def test_marked_size_is_a_bend_of_the_model(system, gpus, algorithm, marked):
    drop, lo, hi = _bend_at(system, gpus, algorithm, marked())
    assert drop < 0.9, (f"{system} {gpus} GPUs {algorithm}: the figure marks "
                        f"{marked() / MiB:.1f} MiB, but the model's marginal cost per byte "
                        f"drops by less than 10 % between {lo / MiB:.1f} and {hi / MiB:.1f} "
                        f"MiB ({drop:.3f})")
    # and it is a bend only there: 4x away on either side the curve is straight
    for far in (marked() / 4, marked() * 4):
        if far > 1.2 * MiB:
            assert _bend_at(system, gpus, algorithm, far)[0] > drop


def test_nccl_choice_switches_are_where_the_pick_changes():
    # 4 GPUs of a DGX H100: NCCL's pick changes (tree to ring, LL128 to Simple); each marked
    # size is the first grid size with the new pick, and the size before it has the old one
    sw = ch02._ar_switches(4)
    assert len(sw) >= 1
    for x, before, after in sw:
        i = int(np.argmin(abs(ch02._AR_SIZES - x)))
        prev = collectives.predict("all_reduce", ch02._AR_SIZES[i - 1], "dgx-h100", 4, 1, "auto")
        now = collectives.predict("all_reduce", x, "dgx-h100", 4, 1, "auto")
        assert f"{prev.algorithm}/{prev.protocol}" == before != after == \
            f"{now.algorithm}/{now.protocol}"
    fig = ch02.allreduce_pcie_vs_nvlink(1024.0, 4)
    ticks = fig.axes[0].lines[2 * len(ch02._SYSTEMS)]
    assert list(ticks.get_xdata()) == [x for x, *_ in sw]
    assert "(| marks a switch)" in fig.axes[0].get_legend().get_texts()[2].get_text()
    fig8 = ch02.allreduce_pcie_vs_nvlink(1024.0, 8)   # NVLS throughout: no ticks, no note
    assert len(fig8.axes[0].lines[2 * len(ch02._SYSTEMS)].get_xdata()) == len(ch02._ar_switches(8))
