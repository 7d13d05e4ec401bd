"""Appendix A's tables and figure data (interlib.validation), each against a second witness.

The functions here (``calibration_table``, ``not_trusted``, ``gpu_count_sweep``,
``regime_scale_table``, ``scale_table``, ``published_at_scale``, ``buckets_over_target``,
and ``interlib.intervals.bucket_name``) are what a reader of Appendix A sees; before issue
38 only the appendix's notebooks called them. The expected values come from:

* hand derivation on small synthetic results whose every error is chosen (dyadic ratios,
  so each cell is known exactly: ``predicted / measured = 1.25`` is an error of 25 %, a
  fold of 1.25), including points exactly on every GPU-count and threshold boundary;
* the same figures recomputed on the shipped data by simple code in this file
  (``statistics.median`` over a grouping written here, the book's bucket and regime bounds
  typed from its text, the CSV read with the ``csv`` module);
* the sources: NCCL's, AWS's and PyTorch's constants as their source code or author states
  them (the line is quoted next to each), the fitted constants as
  ``interlib/data/crossval.json`` stores them, and ``collectives.predict`` called here for
  the figure's sweep.

Nothing expected is read from the function under test.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import json
import math
import statistics
from pathlib import Path

import numpy as np
import pytest

from interlib import collectives, display, intervals as I, validation as V
from interlib.specs import calibration as C
from interlib.specs._base import Spec
from interlib.units import GiB, KiB, MiB

# ---------------------------------------------------------------- the book's definitions
# GPU-count buckets as Appendix A states them: one 8-GPU node; one NVL72 rack or a few
# nodes; up to a few hundred GPUs; beyond
BUCKETS = (("<= 8", 1, 8), ("9-72", 9, 72), ("73-512", 73, 512), ("> 512", 513, math.inf))
# size regimes: below 1 MiB, 1 MiB up to 256 MiB, 256 MiB and above (a size on a boundary
# belongs to the upper regime)
REGIMES = (("latency-bound", "latency-bound (below 1 MiB)", 0.0, MiB),
           ("transition", "transition (1 MiB to 256 MiB)", MiB, 256 * MiB),
           ("bandwidth-bound", "bandwidth-bound (256 MiB and above)", 256 * MiB, math.inf))


def _bucket(n: int) -> str:
    return next(name for name, lo, hi in BUCKETS if lo <= n <= hi)


def _regime(size: float) -> str:
    return next(name for name, _, lo, hi in REGIMES if lo <= size < hi)


def _size_words(size: float) -> str:
    # nccl-tests' binary sizes for whole MiB (and below 1 MiB), decimal otherwise
    binary = size < MiB or size % MiB == 0
    return display.fmt_bytes(size, binary=binary)


# ---------------------------------------------------------------- synthetic results
BW = 2.0 ** 36  # measured busbw of every synthetic point: a power of two, so ratios are exact


def _m(rid, *, role="holdout", g=8, k=1, size=GiB, system="dgx-h100", fabric="InfiniBand",
       collective="all_reduce", algorithm="auto"):
    return V.Measurement(rid, role, "a synthetic source", "https://example.org/table",
                         system, "h100-sxm", g, k, 8, 400.0, fabric, "2.21.5", collective,
                         algorithm, float(size), BW, "")


def _r(m, ratio):
    """The result of a point predicted at ``ratio`` x its measured busbw."""
    return V.PointResult(m, ratio * m.busbw, abs(ratio - 1.0), max(ratio, 1.0 / ratio),
                         _regime(m.size_bytes), "ring", "Simple")


# Points on every bucket boundary (totals 1, 8 | 9, 72 | 73, 512 | 513) and every regime
# boundary (1 MiB - 1, 1 MiB; 256 MiB); by hand:
#   id    GPUs  total size       ratio  error  fold   role
#   S-01  8x1   8     1 MiB      1.25   0.25   1.25   holdout
#   S-02  4x2   8     512 KiB    0.25   0.75   4      holdout   (below 1 MiB)
#   S-03  1x1   1     1 GiB      0.5    0.5    2      holdout   (exactly 2x: not over)
#   S-04  9x1   9     2 GiB      2.5    1.5    2.5    holdout
#   S-05  72x1  72    1 MiB - 1  1.25   0.25   1.25   holdout   (below 1 MiB)
#   S-06  8x64  512   4 MiB      0.85   0.15   1.176  holdout
#   S-07  1x73  73    1 GiB      4      3      4      calibration
#   S-08  27x19 513   8 GiB      67/64  3/64   67/64  holdout
#   S-09  2x2   4     256 MiB    1.3    0.3    1.3    holdout
SCALE_SET = [
    _r(_m("S-01", g=8, k=1, size=MiB), 1.25),
    _r(_m("S-02", g=4, k=2, size=512 * KiB), 0.25),
    _r(_m("S-03", g=1, k=1, size=GiB), 0.5),
    _r(_m("S-04", g=9, k=1, size=2 * GiB), 2.5),
    _r(_m("S-05", g=72, k=1, size=MiB - 1, system="gb200-nvl72"), 1.25),
    _r(_m("S-06", g=8, k=64, size=4 * MiB), 0.85),
    _r(_m("S-07", role="calibration", g=1, k=73, size=GiB), 4.0),
    _r(_m("S-08", g=27, k=19, size=8 * GiB), 67 / 64),
    _r(_m("S-09", g=2, k=2, size=256 * MiB), 1.3),
]

SCALE_COLUMNS = ["GPUs", "points", "median error", "worst fold", "worst point",
                 "points >= 1 MiB off by more than 2x"]


_ROLE = {"holdout": "the holdout points", "calibration": "the calibration points",
         "all": "all the points"}                # not "the all points"


def _scale_caption(role):
    return (f"Error of collectives.predict on {_ROLE[role]} of "
            "interlib/data/nccl_measurements.csv by total GPU count (relative error "
            "|predicted - measured| / measured; fold = max(p/m, m/p)).")


# ---------------------------------------------------------------- the shipped data
@functools.cache
def _shipped():
    """The shipped rows and the model's results on them (evaluated once per process)."""
    rows = V.load_measurements()
    return rows, V.evaluate(rows)


@pytest.fixture
def shipped(monkeypatch):
    """The shipped rows and results; ``evaluate()`` with no argument (what every function
    here does with ``results=None``) returns those same results without re-running."""
    rows, results = _shipped()
    monkeypatch.setattr(V, "evaluate", lambda rows=None: results)
    return rows, results


# ==================================================================== intervals.bucket_name
@pytest.mark.parametrize("n, name", [
    (1, "<= 8"), (8, "<= 8"), (9, "9-72"), (72, "9-72"), (73, "73-512"), (512, "73-512"),
    (513, "> 512"), (1440, "> 512"), (10**9, "> 512")])
def test_bucket_name_on_each_boundary(n, name):
    assert I.bucket_name(n) == name
    assert V.scale_bucket(n) == name


# ==================================================================== scale_table
def test_scale_table_by_hand():
    t = V.scale_table(SCALE_SET)
    assert t.columns == SCALE_COLUMNS
    assert t.rows == [
        # S-01, S-02, S-03, S-09: median of 0.25, 0.75, 0.5, 0.3 = 0.4; worst S-02 (4x,
        # below 1 MiB: not counted); of the three >= 1 MiB none is over 2x (S-03 is 2x)
        ["<= 8", "4", "40 %", "4×", "S-02", "0 of 3"],
        # S-04, S-05: median of 1.5 and 0.25; S-05 is below 1 MiB
        ["9-72", "2", "87.5 %", "2.5×", "S-04", "1 of 1"],
        # S-06 only: S-07 is a calibration point
        ["73-512", "1", "15 %", "1.18×", "S-06", "0 of 1"],
        ["> 512", "1", "4.69 %", "1.05×", "S-08", "0 of 1"]]
    assert t.caption == _scale_caption("holdout")


def test_scale_table_other_roles_by_hand():
    t = V.scale_table(SCALE_SET, role="calibration")
    # only the bucket with a calibration point has a row
    assert t.rows == [["73-512", "1", "300 %", "4×", "S-07", "1 of 1"]]
    assert t.caption == _scale_caption("calibration")
    t = V.scale_table(SCALE_SET, role="all")
    # 73-512: S-06 (0.15) and S-07 (3): median 1.575
    assert t.rows[2] == ["73-512", "2", "158 %", "4×", "S-07", "1 of 2"]
    assert [r[1] for r in t.rows] == ["4", "2", "2", "1"]
    assert t.caption == _scale_caption("all")


def test_scale_table_on_the_shipped_data(shipped):
    rows, results = shipped
    expected = []
    for name, _, _ in BUCKETS:
        grp = [r for r in results if r.measurement.role == "holdout"
               and _bucket(r.measurement.gpus_per_node * r.measurement.nodes) == name]
        if not grp:
            continue
        worst = max(grp, key=lambda r: r.fold)
        big = [r for r in grp if r.measurement.size_bytes >= MiB]
        expected.append([name, str(len(grp)),
                         display.fmt_pct(statistics.median(r.rel_error for r in grp), 3),
                         display.fmt_ratio(worst.fold, 3), worst.measurement.id,
                         f"{sum(r.fold > 2 for r in big)} of {len(big)}"])
    assert len(expected) == 4  # the shipped data has holdout points in every bucket
    assert V.scale_table().rows == expected  # default: the shipped data, holdout points
    assert sum(int(r[1]) for r in expected) == sum(r.role == "holdout" for r in rows)


def test_scale_table_bad_arguments():
    with pytest.raises(ValueError, match=r"^role='train' is not one of"):
        V.scale_table(SCALE_SET, role="train")
    with pytest.raises(ValueError, match=r"^results=\[\] must not be empty"):
        V.scale_table([])
    with pytest.raises(ValueError, match=r"^results=\[1\] must be a non-empty list of "
                                         r"validation.PointResult"):
        V.scale_table([1])


# ==================================================================== regime_scale_table
REGIME_COLUMNS = ["size regime", "<= 8 GPUs", "9-72 GPUs", "73-512 GPUs", "> 512 GPUs"]


def _regime_caption(role):
    return (f"Median error of {_ROLE[role]} by message size and GPU count (number of "
            "points in brackets).")


def test_regime_scale_table_by_hand():
    t = V.regime_scale_table(SCALE_SET)
    assert t.columns == REGIME_COLUMNS
    assert t.rows == [
        # S-02 (8 GPUs, 0.75), S-05 (72 GPUs, 0.25)
        ["latency-bound (below 1 MiB)", "75 % (1)", "25 % (1)", "-", "-"],
        # S-01 (8 GPUs at exactly 1 MiB, 0.25), S-06 (512 GPUs, 0.15)
        ["transition (1 MiB to 256 MiB)", "25 % (1)", "-", "15 % (1)", "-"],
        # S-03 and S-09 (exactly 256 MiB): median of 0.5 and 0.3; S-04; S-07 is calibration;
        # S-08 (513 GPUs, 3/64 = 4.6875 %)
        ["bandwidth-bound (256 MiB and above)", "40 % (2)", "150 % (1)", "-", "4.7 % (1)"]]
    assert t.caption == _regime_caption("holdout")


def test_regime_scale_table_other_roles_by_hand():
    t = V.regime_scale_table(SCALE_SET, role="all")
    assert t.rows[2] == ["bandwidth-bound (256 MiB and above)", "40 % (2)", "150 % (1)",
                         "300 % (1)", "4.7 % (1)"]
    assert t.rows[:2] == V.regime_scale_table(SCALE_SET).rows[:2]
    assert t.caption == _regime_caption("all")
    t = V.regime_scale_table(SCALE_SET, role="calibration")
    assert t.rows == [["latency-bound (below 1 MiB)", "-", "-", "-", "-"],
                      ["transition (1 MiB to 256 MiB)", "-", "-", "-", "-"],
                      ["bandwidth-bound (256 MiB and above)", "-", "-", "300 % (1)", "-"]]
    assert t.caption == _regime_caption("calibration")


@pytest.mark.parametrize("role", ["holdout", "all"])
def test_regime_scale_table_on_the_shipped_data(shipped, role):
    rows, results = shipped
    expected = []
    for name, words, _, _ in REGIMES:
        line = [words]
        for bucket, _, _ in BUCKETS:
            errs = [r.rel_error for r in results
                    if (role == "all" or r.measurement.role == role)
                    and _regime(r.measurement.size_bytes) == name
                    and _bucket(r.measurement.gpus_per_node * r.measurement.nodes) == bucket]
            line.append(f"{display.fmt_pct(statistics.median(errs), 2)} ({len(errs)})"
                        if errs else "-")
        expected.append(line)
    t = V.regime_scale_table() if role == "holdout" else V.regime_scale_table(role=role)
    assert t.rows == expected
    # every point of the role is in exactly one cell
    counts = [int(c.rsplit("(", 1)[1].rstrip(")")) for row in t.rows for c in row[1:]
              if c != "-"]
    assert sum(counts) == sum(role == "all" or r.role == role for r in rows)


def test_regime_scale_table_bad_arguments():
    with pytest.raises(ValueError, match=r"^role='train' is not one of"):
        V.regime_scale_table(SCALE_SET, role="train")
    with pytest.raises(ValueError, match=r"^role=None is not one of"):
        V.regime_scale_table(SCALE_SET, role=None)
    with pytest.raises(ValueError, match=r"^results=\[\] must not be empty"):
        V.regime_scale_table([])
    with pytest.raises(ValueError, match=r"^results=\[1\] must be a non-empty list of "
                                         r"validation.PointResult"):
        V.regime_scale_table([1])


# ==================================================================== buckets_over_target
def test_buckets_over_target_by_hand():
    # medians of the holdout points: 0.4, 0.875, 0.15, 3/64 (the calibration point's 300 %
    # does not count)
    assert V.buckets_over_target(SCALE_SET) == ["<= 8", "9-72", "73-512"]


def test_buckets_over_target_is_strictly_over_ten_percent():
    # a median of exactly 10 % meets the target; a hair above it does not
    at = _r(_m("T-01", g=8, k=1), 1.1)
    at = dataclasses.replace(at, rel_error=0.1)
    above = dataclasses.replace(_r(_m("T-02", g=8, k=8), 1.1), rel_error=0.1 + 1e-9)
    # a calibration point in the first bucket, off by 3x: not counted (holdout points only)
    worse = _r(_m("T-03", role="calibration", g=4, k=2), 3.0)
    assert V.TARGET_MEDIAN_ERROR == 0.10
    assert V.buckets_over_target([at, above, worse]) == ["9-72"]
    assert V.buckets_over_target([at, worse]) == []


def test_buckets_over_target_on_the_shipped_data(shipped):
    _, results = shipped
    expected = []
    for name, _, _ in BUCKETS:
        errs = [r.rel_error for r in results if r.measurement.role == "holdout"
                and _bucket(r.measurement.gpus_per_node * r.measurement.nodes) == name]
        if errs and statistics.median(errs) > 0.10:
            expected.append(name)
    assert V.buckets_over_target() == expected


def test_buckets_over_target_bad_arguments():
    with pytest.raises(ValueError, match=r"^results=\[\] must not be empty"):
        V.buckets_over_target([])
    with pytest.raises(ValueError, match=r"^results='abc' must be a non-empty list"):
        V.buckets_over_target("abc")


# ==================================================================== not_trusted
# By hand (holdout unless said; error = |ratio - 1|, fold = max(ratio, 1/ratio)):
#   AA on 8 x 1: 1 MiB 1.25 (0.25), 2 MiB 67/64 (3/64), 4 MiB 1.5 (0.5): median 0.25
#   AA on 8 x 2: 1 GiB and 2 GiB 67/64, 8 GiB 0.375 (0.625, fold 8/3): median 3/64, 2.67x
#   BB on 8 x 1: 67/64, 67/64, 0.5 (fold exactly 2): median 3/64, never over 2x
#   CC on 8 x 1 over RoCE: 16 MiB 0.8 (0.2, fold 1.25); CC on 8 x 1 over InfiniBand: 67/64
#   DD on dgx-b200: 1.0; DD on dgx-h100: 1 GB (decimal) 2.0 (1.0), 3 MiB 1.5 (0.5): 0.75
#   EE: a calibration point off by 10x (never listed)
NT_SET = [
    _r(_m("AA-01", size=MiB), 1.25),
    _r(_m("AA-02", size=2 * MiB), 67 / 64),
    _r(_m("AA-03", size=4 * MiB), 1.5),
    _r(_m("AA-04", k=2, size=GiB), 67 / 64),
    _r(_m("AA-05", k=2, size=2 * GiB), 67 / 64),
    _r(_m("AA-06", k=2, size=8 * GiB), 0.375),
    _r(_m("BB-01", size=GiB), 67 / 64),
    _r(_m("BB-02", size=2 * GiB), 67 / 64),
    _r(_m("BB-03", size=4 * GiB), 0.5),
    _r(_m("CC-01", size=16 * MiB, fabric="Ethernet (RoCE)"), 0.8),
    _r(_m("CC-02", size=16 * MiB), 67 / 64),
    _r(_m("DD-01", system="dgx-b200"), 1.0),
    _r(_m("DD-02", size=1e9), 2.0),
    _r(_m("DD-03", size=3 * MiB), 1.5),
    _r(_m("EE-01", role="calibration"), 10.0),
]
AA1 = ("AA (dgx-h100, 8 x 1 GPUs, InfiniBand): median error 25 %, worst AA-03 off by 1.5× "
       "(optimistic); off by more than 10 % from 1 MiB to 4 MiB")
CC = ("CC (dgx-h100, 8 x 1 GPUs, Ethernet (RoCE)): median error 20 %, worst CC-01 off by "
      "1.25× (pessimistic); off by more than 10 % from 16 MiB")


def _aa2(pct):
    return ("AA (dgx-h100, 8 x 2 GPUs, InfiniBand): median error 4.7 %, worst AA-06 off by "
            f"2.67× (pessimistic); off by more than {pct} from 8 GiB")


def _dd(pct, span):
    return ("DD (dgx-h100, 8 x 1 GPUs, InfiniBand): median error 75 %, worst DD-02 off by 2× "
            f"(optimistic); off by more than {pct} from {span}")


def test_not_trusted_by_hand():
    # BB (worst exactly 2x, median 4.7 %) and the InfiniBand CC are within both limits; the
    # groups come in the order of their first point
    assert V.not_trusted(NT_SET) == [AA1, _aa2("10 %"), CC, _dd("10 %", "3 MiB to 1 GB")]


def test_not_trusted_median_on_the_threshold_is_trusted():
    # AA on 8 x 1 has a median of exactly 25 %: not above a threshold of 25 %; DD's 3 MiB
    # point (50 %) is above it, its 1 GB point (100 %) too
    assert V.not_trusted(NT_SET, threshold=0.25) == [_aa2("25 %"), _dd("25 %", "3 MiB to 1 GB")]
    # at 50 %, DD's 3 MiB point is exactly on the threshold: no longer in its span
    assert V.not_trusted(NT_SET, threshold=0.5) == [_aa2("50 %"), _dd("50 %", "1 GB")]


def test_not_trusted_lists_a_group_over_2x_whatever_its_median():
    one = [_r(_m("FF-01", size=GiB), 1.0), _r(_m("FF-02", size=2 * GiB), 1.0),
           _r(_m("FF-03", size=4 * GiB), 0.4375)]  # 7/16: fold 16/7 = 2.29, error 0.5625
    assert V.not_trusted(one) == [
        "FF (dgx-h100, 8 x 1 GPUs, InfiniBand): median error 0 %, worst FF-03 off by 2.29× "
        "(pessimistic); off by more than 10 % from 4 GiB"]
    # exactly 2x is not "more than 2x"
    assert V.not_trusted(one[:2] + [_r(_m("FF-03", size=4 * GiB), 0.5)]) == []


def test_not_trusted_ignores_calibration_points():
    # a calibration point off by 10x, before and among holdout points, is never counted
    assert V.not_trusted([_r(_m("EE-01", role="calibration"), 10.0),
                          _r(_m("EE-02"), 1.0)]) == []
    assert V.not_trusted([_r(_m("EE-01", role="calibration"), 10.0),
                          _r(_m("HH-01", size=2 * GiB), 1.5)]) == [
        "HH (dgx-h100, 8 x 1 GPUs, InfiniBand): median error 50 %, worst HH-01 off by 1.5× "
        "(optimistic); off by more than 10 % from 2 GiB"]


def test_not_trusted_never_prints_an_empty_span():
    # listed for its point off by 2.5x (ratio 0.4: a 60 % error, under the threshold of 1):
    # no size is off by more than the threshold, so the line names none
    lines = V.not_trusted([_r(_m("GG-01", size=GiB), 0.4)], threshold=1.0)
    assert len(lines) == 1 and "from" not in lines[0] and "off by more than 100" not in lines[0]
    assert lines[0].endswith("off by 2.5× (pessimistic)")


def test_not_trusted_on_the_shipped_data(shipped):
    _, results = shipped
    groups: dict = {}
    for r in results:
        m = r.measurement
        if m.role == "holdout":
            key = (m.id.split("-")[0], m.system, m.gpus_per_node, m.nodes, m.fabric)
            groups.setdefault(key, []).append(r)
    expected = []
    for (series, system, g, k, fabric), rs in groups.items():
        med = statistics.median(r.rel_error for r in rs)
        worst = max(rs, key=lambda r: r.fold)
        if med <= 0.1 and worst.fold <= 2:
            continue
        sizes = [r.measurement.size_bytes for r in rs if r.rel_error > 0.1]
        lo, hi = min(sizes), max(sizes)
        span = _size_words(lo) if lo == hi else f"{_size_words(lo)} to {_size_words(hi)}"
        side = "optimistic" if worst.predicted > worst.measurement.busbw else "pessimistic"
        expected.append(
            f"{series} ({system}, {g} x {k} GPUs, {fabric}): median error "
            f"{display.fmt_pct(med, 2)}, worst {worst.measurement.id} off by "
            f"{display.fmt_ratio(worst.fold, 3)} ({side}); off by more than 10 % from {span}")
    assert len(expected) > 10  # the shipped data has such groups; the book lists them
    assert V.not_trusted() == expected


@pytest.mark.parametrize("threshold, match", [
    (0, r"^threshold=0 is out of range"), (1.5, r"^threshold=1.5 is out of range"),
    (-0.1, r"^threshold=-0.1 is out of range"), (float("nan"), r"^threshold=nan"),
    ("ten", r"^threshold='ten' must be a number"), (True, r"^threshold=True must be a number")])
def test_not_trusted_bad_threshold(threshold, match):
    with pytest.raises(ValueError, match=match):
        V.not_trusted(NT_SET, threshold=threshold)


def test_not_trusted_bad_results_and_the_threshold_range_ends():
    with pytest.raises(ValueError, match=r"^results=\[\] must not be empty"):
        V.not_trusted([])
    with pytest.raises(ValueError, match=r"^results=\[1\] must be a non-empty list of "
                                         r"validation.PointResult"):
        V.not_trusted([1])
    # (0, 1]: 1 is allowed (100 %)
    assert V.not_trusted(NT_SET, threshold=1.0)[0].startswith("AA (dgx-h100, 8 x 2 GPUs")


@pytest.mark.parametrize("call, match", [
    (lambda: V.not_trusted(NT_SET, threshold="0.1"), r"^threshold='0.1' must be a number, not text$"),
    (lambda: V.published_at_scale("1e9"), r"^min_size='1e9' must be a number, not text$"),
    (lambda: V.gpu_count_sweep("1e10"), r"^size_bytes='1e10' must be a number, not text$")])
def test_numbers_written_as_strings_are_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ==================================================================== gpu_count_sweep
SWEEP = {  # label: (system, GPUs per node, node counts): Appendix A's figure
    "DGX H100, 8 GPUs per node": ("dgx-h100", 8, (1, 2, 4, 8, 16, 32, 64, 128)),
    "GB200 NVL72, 72 GPUs per rack": ("gb200-nvl72", 72, (1, 2, 4, 8, 12, 16, 20)),
}


def _check_sweep(sweep, size):
    assert list(sweep) == list(SWEEP)
    for label, (sysid, g, ks) in SWEEP.items():
        gpus, bw, low, high = sweep[label]
        assert gpus.dtype == float
        assert gpus.tolist() == [float(g * k) for k in ks]
        ps = [collectives.predict("all_reduce", size, sysid, g, k) for k in ks]
        np.testing.assert_array_equal(bw, [p.busbw for p in ps])
        np.testing.assert_array_equal(low, [p.busbw_low for p in ps])
        np.testing.assert_array_equal(high, [p.busbw_high for p in ps])
        assert np.all(low < bw) and np.all(bw < high)  # the 80 % interval brackets it


def test_gpu_count_sweep_spans_the_docstrings_range():
    sweep = V.gpu_count_sweep()
    # "DGX H100 nodes (8 to 1,024 GPUs) and GB200 NVL72 racks (72 to 1,440 GPUs)"
    first, second = sweep.values()
    assert (first[0][0], first[0][-1]) == (8, 1024)
    assert (second[0][0], second[0][-1]) == (72, 1440)
    assert all(np.all(np.diff(v[0]) > 0) for v in sweep.values())  # increasing GPU counts
    _check_sweep(sweep, 8 * GiB)  # the default size: 8 GiB


@pytest.mark.parametrize("size", [MiB, 64 * MiB])
def test_gpu_count_sweep_is_predict_at_the_size_asked(size):
    _check_sweep(V.gpu_count_sweep(size), size)


@pytest.mark.parametrize("size, match", [
    (2**20 - 1, r"^size_bytes=1048575 is out of range"), (0, r"^size_bytes=0 is out of range"),
    (float("nan"), r"^size_bytes=nan"), ("8 GiB", r"^size_bytes='8 GiB'"),
    (None, r"^size_bytes=None")])
def test_gpu_count_sweep_refuses_sizes_below_1_mib(size, match):
    with pytest.raises(ValueError, match=match):
        V.gpu_count_sweep(size)


# ==================================================================== published_at_scale
KEYS = {"gpus", "busbw", "size", "role", "id", "system", "algorithm"}


def test_published_at_scale_by_hand():
    rows = [_m("P-01", size=GiB - 1), _m("P-02", g=8, k=4, size=GiB),
            _m("P-03", size=2 * GiB, collective="all_gather"),
            _m("P-04", role="calibration", g=72, k=2, size=4 * GiB, system="gb200-nvl72",
               algorithm="nvls_tree")]
    p2 = {"gpus": 32, "busbw": BW, "size": GiB, "role": "holdout", "id": "P-02",
          "system": "dgx-h100", "algorithm": "auto"}
    p4 = {"gpus": 144, "busbw": BW, "size": 4 * GiB, "role": "calibration", "id": "P-04",
          "system": "gb200-nvl72", "algorithm": "nvls_tree"}
    # at least 1 GiB (the default): exactly 1 GiB is in, one byte less is out, and only
    # all-reduce points
    assert V.published_at_scale(rows=rows) == [p2, p4]
    assert V.published_at_scale(GiB - 1, rows) == [
        {**p2, "gpus": 8, "size": GiB - 1, "id": "P-01"}, p2, p4]
    assert V.published_at_scale(GiB + 1, rows) == [p4]


def test_published_at_scale_is_the_csvs_large_all_reduce_rows():
    with open(V.DATA_PATH, newline="", encoding="utf-8") as f:
        csv_rows = [d for d in csv.DictReader(f)
                    if d["collective"] == "all_reduce" and float(d["size_bytes"]) >= 2**30]
    got = V.published_at_scale()  # defaults: 1 GiB, the shipped rows
    assert [p["id"] for p in got] == [d["id"] for d in csv_rows]  # CSV order
    for p, d in zip(got, csv_rows):
        assert set(p) == KEYS
        assert p["gpus"] == int(d["gpus_per_node"]) * int(d["nodes"])
        assert p["busbw"] == pytest.approx(float(d["busbw_GBps"]) * 1e9, rel=1e-12)
        assert p["size"] == float(d["size_bytes"])
        assert (p["role"], p["system"], p["algorithm"]) == (d["role"], d["system"],
                                                            d["algorithm"])
    # CoreWeave's README (NCCL 2.26.2): twenty GB200 NVL72 racks, 405.74 GB/s at 16 GiB;
    # one rack 834.57 GB/s at 8 GiB
    by_id = {p["id"]: p for p in got}
    assert (by_id["CW20-06"]["gpus"], by_id["CW20-06"]["size"]) == (1440, 16 * GiB)
    assert by_id["CW20-06"]["busbw"] == pytest.approx(405.74e9)
    assert (by_id["CW1-05"]["gpus"], by_id["CW1-05"]["busbw"]) == (72, pytest.approx(834.57e9))


@pytest.mark.parametrize("kwargs, match", [
    ({"min_size": 0}, r"^min_size=0 is out of range"),
    ({"min_size": -1}, r"^min_size=-1 is out of range"),
    ({"min_size": float("inf")}, r"^min_size=inf"),
    ({"min_size": "1 GiB"}, r"^min_size='1 GiB'"),
    ({"rows": []}, r"^rows=\[\] must not be empty"),
    ({"rows": [1]}, r"^rows=\[1\] must be a non-empty list of validation.Measurement"),
    ({"rows": 5}, r"^rows=5 must be a non-empty list")])
def test_published_at_scale_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        V.published_at_scale(**kwargs)


# ==================================================================== calibration_table
FITTED_PATH = Path(I.__file__).resolve().parent / "data" / "crossval.json"


@functools.cache
def _fitted() -> dict:
    """The constants fitted to every row, as interlib/data/crossval.json stores them."""
    return json.loads(FITTED_PATH.read_text(encoding="utf-8"))["all"]


def _expected_calibration():
    """(label, value as printed, kind, the catalogue entry), row by row. Fitted values are
    crossval.json's, in the unit the book prints them; every other value is typed from its
    source, whose words follow it."""
    f = _fitted()
    us = display.fmt_time
    return [
        ("launch overhead", us(f["LAUNCH_OVERHEAD"]), "calibrated", C.LAUNCH_OVERHEAD),
        ("host launch per GPU (one thread driving N GPUs, -g N)",
         us(f["HOST_LAUNCH_PER_GPU"]), "calibrated", C.HOST_LAUNCH_PER_GPU),
        ("pipeline window", display.fmt_bytes(f["PIPELINE_WINDOW"], binary=True),
         "calibrated", C.PIPELINE_WINDOW),
        ("pipeline chunks", f"{f['PIPELINE_CHUNKS']:g}", "calibrated", C.PIPELINE_CHUNKS),
        ("NVLS pipeline steps per GPU", f"{f['NVLS_PIPELINE_STEPS_PER_GPU']:g}", "calibrated",
         C.NVLS_PIPELINE_STEPS_PER_GPU),
        ("NVLS chunk time, rack-scale domain", us(f["NVLS_CHUNK_TIME_RACK"]), "calibrated",
         C.NVLS_CHUNK_TIME_RACK),
        # tuning.cc v2.23.4:188 'busBw * (0.92 /*120.0/128.0*/)'
        ("LL128 efficiency", "0.92", "model constant", C.PROTOCOL_EFFICIENCY["LL128"]),
        # tuning.cc 'if (a == NCCL_ALGO_TREE && coll == ncclFuncAllReduce) busBw =
        # std::min(busBw*.92, ...)'
        ("tree efficiency", "0.92", "model constant", C.TREE_EFFICIENCY),
        # tuning.cc v2.28.3:137-138 '0.85f, // Hopper', '0.74f, // Blackwell'
        ("NVLS efficiency, Hopper", "0.85", "model constant", C.NVLS_EFFICIENCY["Hopper"]),
        ("NVLS efficiency, Blackwell", "0.74", "model constant",
         C.NVLS_EFFICIENCY["Blackwell"]),
        ("network efficiency (fitted)", f"{f['NET_EFFICIENCY']:.3g}", "calibrated",
         C.NET_EFFICIENCY),
        # nvls.cc: '#define NVLS_NCHANNELS_SM90 16', '#define NVLS_NCHANNELS_SM100 32',
        # (v2.27.3) '#define NVLS_NCHANNELS_SM100_NVL 24'
        ("NVLS channels, Hopper", "16", "model constant", C.NVLS_CHANNELS["Hopper"]),
        ("NVLS channels, Blackwell, across NVLink domains", "32", "model constant",
         C.NVLS_CHANNELS["Blackwell"]),
        ("NVLS channels, Blackwell, one NVLink domain (NCCL 2.27.3 on)", "24",
         "model constant", C.NVLS_CHANNELS["Blackwell, one NVLink domain"]),
        # nvls.cc:149 'NCCL_PARAM(NvlsChunkSize, "NVLS_CHUNKSIZE", 128*1024)'
        ("NVLS chunk", "128 KiB", "model constant", C.NVLS_CHUNK),
        # enqueue.cc:1895 'maxChunkSize = comm->nNodes >= 4 ? 65536 : chunkSize;'
        ("NVLSTree chunk from 4 nodes", "64 KiB", "model constant",
         C.NVLS_TREE_CHUNK_MANY_NODES),
        # device.h:181 '#define NCCL_MAX_NVLS_ARITY 32'
        ("NVLSTree heads per domain, at most", "32", "model constant", C.NVLS_MAX_HEADS),
        # aws-ofi-nccl platform-aws.cpp: p5en/p6-b200 '.latency = 35.0,', p4d '.latency = 75.0,'
        ("network plugin latency, EFA (p5en, p6)", "35 µs", "model constant",
         C.NET_PLUGIN_LATENCY["EFA"]),
        ("network plugin latency, EFA (p4d, p5)", "75 µs", "model constant",
         C.NET_PLUGIN_LATENCY["EFA 100G"]),
        # tuning.cc:230-231 getNetOverhead: Intel 'return 1.0;', AMD 'return 2.0;'
        ("NCCL network post overhead, Intel host", "1 µs", "model constant",
         C.NCCL_NET_OVERHEAD["Intel"]),
        ("NCCL network post overhead, AMD host", "2 µs", "model constant",
         C.NCCL_NET_OVERHEAD["AMD"]),
        # the catalogue's only witness (Google's plugin source not retrieved: see
        # UNWITNESSED in tests/test_catalogue_literals.py)
        ("network plugin latency, GPUDirect-TCPXO", "0 s", "model constant",
         C.NET_PLUGIN_LATENCY["GPUDirect-TCPXO"]),
        ("GPUDirect-TCPXO step latency (fitted)", us(f["TCPXO_STEP_LATENCY"]), "calibrated",
         C.TCPXO_STEP_LATENCY),
        # Google's recommended profile 'NCCL_BUFFSIZE=8388608'
        ("Simple buffer, GPUDirect-TCPXO profile", "8 MiB", "model constant",
         C.FABRIC_BUFFSIZE["GPUDirect-TCPXO"]),
        # init.cc:813 '#define DEFAULT_BUFFSIZE (1 << 22) /* 4MiB */'
        ("Simple buffer, NCCL default", "4 MiB", "model constant", C.NCCL_DEFAULT_BUFFSIZE),
        # aws-ofi-nccl nccl_ofi_model.cpp:178 'if (model_ctx->dims.num_nodes <= 2) {'
        ("AWS region tuner from nodes", "3", "model constant", C.AWS_TUNER_MIN_NODES),
        # tuning.cc v2.18.1:382 'lat *= info->comm->minCompCap < 80 ? 1.9 : 1.4;'
        ("multi-node Ring/Simple latency factor", "1.4", "model constant",
         C.RING_SIMPLE_INTERNODE_LATENCY_FACTOR),
        # nvls.cc:157 'if (!ncclParamNvlsEnable() || gpuCount <= 2) return ncclSuccess;'
        ("NVLS minimum GPUs", "3", "model constant", C.NVLS_MIN_GPUS),
        # treeCorrectionFactor[Simple][log2(size/64)] below 1 GiB: sizes 64 B x 2^0..2^23
        ("NVLSTree correction entries, x86 Blackwell (NCCL v2.29)", "24", "model constant",
         C.NVLS_TREE_CORRECTION_SOURCE),
        # Bekman's all_reduce_bench.py: a per-call overhead 'of some 20-30us' (the middle)
        ("PyTorch per-call host overhead (rows timed one call at a time)", "25 µs",
         "measured", C.TORCH_HOST_OVERHEAD),
    ]


CALIBRATION_CAPTION = (
    "Besides these, predict() uses NCCL's per-algorithm base and per-hop latencies, its "
    "protocol and per-channel bandwidth caps and tree corrections (every release's in "
    "interlib.specs.nccl_tuning) and NCCL's effective NVLink rates (topo.h), all in "
    "interlib.specs.")


def test_calibration_table_row_by_row():
    t = V.calibration_table()
    assert t.columns == ["constant", "value", "kind", "source"]
    expected = _expected_calibration()
    assert [r[0] for r in t.rows] == [e[0] for e in expected]
    assert [r[1] for r in t.rows] == [e[1] for e in expected]
    assert [r[2] for r in t.rows] == [e[2] for e in expected]
    assert [r[3] for r in t.rows] == [e[3].source.title for e in expected]
    assert t.caption == CALIBRATION_CAPTION


def test_calibration_table_lists_every_fitted_constant():
    # each constant crossval.json holds a fit for is a "calibrated" row, and no other
    t = V.calibration_table()
    calibrated = [e[3] for e in _expected_calibration() if e[2] == "calibrated"]
    assert len(calibrated) == len(_fitted()) == sum(r[2] == "calibrated" for r in t.rows)
    assert sorted(s.value for s in calibrated) == sorted(_fitted().values())


@pytest.mark.parametrize("spec, shown", [
    (Spec(450e9, "GB_per_s", "model constant", C.NVLS_MIN_GPUS.source, "per direction"),
     "450 GB/s"),
    (Spec(0.123456, "fraction", "model constant", C.NVLS_MIN_GPUS.source), "0.123"),
    (Spec(1.5e-6, "us", "model constant", C.NVLS_MIN_GPUS.source), "1.5 µs"),
    (Spec(1e6, "B", "model constant", C.NVLS_MIN_GPUS.source), "977 KiB"),
    (Spec(1234.5, "count", "model constant", C.NVLS_MIN_GPUS.source), "1234.5")])
def test_calibration_table_prints_each_unit_as_the_book_does(monkeypatch, spec, shown):
    # rates in decimal GB/s, sizes in binary units (as NCCL states them), times in µs,
    # fractions to 3 figures, counts as they are
    monkeypatch.setattr(C, "NVLS_MIN_GPUS", spec)
    row = next(r for r in V.calibration_table().rows if r[0] == "NVLS minimum GPUs")
    assert row[1:3] == [shown, "model constant"]
