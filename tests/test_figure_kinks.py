"""The bends the Chapter 2 and 4 all-reduce figures mark are where the model bends.

Chapter 2's all-reduce figure and Chapter 4's ring-vs-NVLS figure draw a dotted line "model:
pipeline fill stops growing / chunks full size from here" (issue 26, item 4: a kink is
explained on the figure). The line's position is computed by the plot module from the
calibration constants; these tests find the bend in ``collectives.predict`` itself, on a
fine grid, and check that the line is at it: the largest drop of the marginal time per
byte lies in the grid interval holding the marked size. If the model's pipeline changes,
the line would mark nothing and the test fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from interlib import collectives
from interlib.plots import ch02, ch04

MiB = 2**20


def _largest_bend(system, gpus, algorithm):
    """(lo, hi) bytes: the grid interval where d(time)/d(size) drops the most (relative)."""
    s = np.logspace(np.log2(1 * MiB), np.log2(4096 * MiB), 400, base=2)
    t = collectives.predict("all_reduce", s, system, gpus, 1, algorithm).time_s
    slope = np.diff(t) / np.diff(s)
    drop = slope[1:] / slope[:-1]          # < 1 where the marginal cost per byte falls
    i = int(np.argmin(drop))
    return s[i], s[i + 2], float(drop[i])


@pytest.mark.parametrize("system,gpus,algorithm,marked", [
    ("dgx-h100", 8, "ring", lambda: ch02._ar_fill_saturates()),
    ("dgx-h100", 8, "ring", lambda: ch04.full_chunk_size(8)),
    ("gb200-nvl72", 72, "nvls", lambda: ch04.full_chunk_size(72)),
    ("gb200-nvl72", 36, "ring", lambda: ch04.full_chunk_size(36)),
])
def test_marked_size_is_the_models_bend(system, gpus, algorithm, marked):
    lo, hi, drop = _largest_bend(system, gpus, algorithm)
    assert drop < 0.9, f"no bend of 10 % or more: {drop:.3f}"
    assert lo <= marked() <= hi, (f"{system} {gpus} GPUs {algorithm}: the model bends between "
                                  f"{lo / MiB:.1f} and {hi / MiB:.1f} MiB, the figure marks "
                                  f"{marked() / MiB:.1f} MiB")


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
