"""Appendix A's error summaries (interlib.validation), each cell against a hand derivation.

``summary_table`` / ``summary_by_regime``, ``summary_by_scale``, ``regime_counts``,
``miss_range_text``, ``_fmt_size``, ``time_inversions``, ``nccl_release_table`` and
``nccl_baseline_table`` (issue 38 item 6: the mutants no earlier test noticed).

The expected values come from small synthetic results whose every error is chosen here
(``predicted / measured = 1.1234`` is an error of 12.34 %, a fold of 1.1234), placed on the
book's regime bounds (below 1 MiB, 1 MiB to 256 MiB, 256 MiB and above) and GPU-count
buckets (<= 8, 9-72, 73-512, > 512) as Appendix A states them, and every printed cell is
written out by hand; NCCL's own estimate is recomputed here from
``collectives.nccl_estimate`` and the nccl-tests definition of busbw. Nothing expected is
read from the function under test. Everything is computed inside the tests (no module-level
results), so a changed function is seen by the test that calls it.
"""

from __future__ import annotations

import statistics

import pytest

from interlib import collectives, display, validation as V

MiB, GiB, KiB = 2**20, 2**30, 2**10


def _regime(size):
    # the book's bounds, typed from Appendix A: below 1 MiB, 1 MiB to 256 MiB, 256 MiB up
    return ("latency-bound" if size < MiB else "transition" if size < 256 * MiB
            else "bandwidth-bound")


def _m(id_, role="holdout", size=4 * MiB, busbw=100e9, gpus=8, nodes=1,
       collective="all_reduce", algorithm="auto", system="dgx-h100", note="",
       nccl_version="not stated"):
    return V.Measurement(id_, role, "synthetic", "https://example.org/t", system, "h100-sxm",
                         gpus, nodes, 8, 400.0, "InfiniBand", nccl_version, collective,
                         algorithm, float(size), float(busbw), note)


def _r(m, ratio):
    """A result whose predicted / measured busbw is ``ratio``."""
    return V.PointResult(m, m.busbw * ratio, abs(ratio - 1), max(ratio, 1 / ratio),
                         _regime(m.size_bytes), "ring", "Simple")


def _six():
    return [_r(_m("C-01", "calibration", 4 * MiB), 1.1234),
            _r(_m("C-02", "calibration", 512 * MiB), 0.8),
            _r(_m("H-01", "holdout", 64 * KiB), 2.3456),
            _r(_m("H-02", "holdout", 64 * KiB), 1.05),
            _r(_m("H-03", "holdout", GiB), 0.4),
            _r(_m("H-04", "holdout", GiB), 1.7)]


SUMMARY_HEADER = ["points", "size regime", "n", "median error", "worst error", "its point",
                  "worst fold", "its point"]
SUMMARY_CAPTION = ("Error of collectives.predict against the published busbw in "
                   "interlib/data/nccl_measurements.csv (relative error |predicted - measured| "
                   "/ measured; fold = max(p/m, m/p)). Regimes: latency-bound below 1 MiB; "
                   "transition 1 MiB to 256 MiB; bandwidth-bound 256 MiB and above.")


# ------------------------------------------------------------------ summary_table
def test_summary_table_every_cell_by_hand():
    # errors: C-01 .1234, C-02 .2, H-01 1.3456, H-02 .05, H-03 .6 (fold 2.5), H-04 .7
    # (fold 1.7): in the holdout bandwidth-bound group the worst error (H-04) is not the
    # worst fold (H-03's 2.5)
    t = V.summary_table(_six())
    assert t.columns == SUMMARY_HEADER
    assert t.caption == SUMMARY_CAPTION
    # folds: C-01 1.1234, C-02 1.25, H-01 2.3456, H-02 1.05, H-03 2.5, H-04 1.7: each row
    # names the point of its worst error and, apart, the point of its worst fold
    assert t.rows == [
        ["calibration", "transition", "1", "12 %", "12 %", "C-01", "1.12×", "C-01"],
        ["calibration", "bandwidth-bound", "1", "20 %", "20 %", "C-02", "1.25×", "C-02"],
        ["calibration", "all", "2", "16 %", "20 %", "C-02", "1.25×", "C-02"],  # median .1617
        ["holdout", "latency-bound", "2", "70 %", "135 %", "H-01", "2.35×", "H-01"],
        ["holdout", "bandwidth-bound", "2", "65 %", "70 %", "H-04", "2.5×", "H-03"],
        ["holdout", "all", "4", "65 %", "135 %", "H-01", "2.5×", "H-03"],
        ["all", "latency-bound", "2", "70 %", "135 %", "H-01", "2.35×", "H-01"],
        ["all", "transition", "1", "12 %", "12 %", "C-01", "1.12×", "C-01"],
        ["all", "bandwidth-bound", "3", "60 %", "70 %", "H-04", "2.5×", "H-03"],
        ["all", "all", "6", "40 %", "135 %", "H-01", "2.5×", "H-03"],   # (.2 + .6) / 2
    ]


def test_summary_by_regime_leaves_out_a_role_without_points():
    # only holdout points: no calibration line at all, then holdout and all alike
    res = _six()[2:]
    got = [(s.role, s.regime, s.count, s.worst_id) for s in V.summary_by_regime(res)]
    assert got == [("holdout", "latency-bound", 2, "H-01"),
                   ("holdout", "bandwidth-bound", 2, "H-04"),
                   ("holdout", "all", 4, "H-01"),
                   ("all", "latency-bound", 2, "H-01"),
                   ("all", "bandwidth-bound", 2, "H-04"),
                   ("all", "all", 4, "H-01")]
    s = V.summary_by_regime(res)[1]
    assert (s.median_error, s.worst_error, s.worst_fold) == (
        pytest.approx(0.65), pytest.approx(0.7), pytest.approx(2.5))


# ------------------------------------------------------------------ regime_counts
def test_regime_counts_default_role_is_all():
    assert V.regime_counts(_six()) == {"latency-bound": 2, "transition": 1,
                                       "bandwidth-bound": 3}
    assert V.regime_counts(_six(), "calibration") == {"latency-bound": 0, "transition": 1,
                                                      "bandwidth-bound": 1}


# ------------------------------------------------------------------ summary_by_scale
def _scaled():
    # total GPUs on each bucket's lower end (1, 9, 73, 513) and the 1 MiB and 2x edges
    return [
        _r(_m("S-01", size=MiB, gpus=1), 0.5),              # <= 8: fold exactly 2: not > 2x
        _r(_m("S-02", size=MiB - 1, gpus=8), 3.0),          # <= 8: below 1 MiB, fold 3
        _r(_m("S-03", size=2 * MiB, gpus=8), 1.1),          # <= 8
        _r(_m("S-04", size=MiB, gpus=1, nodes=73), 2.5),    # 73-512 (73 GPUs): over 2x
        _r(_m("S-05", size=GiB, gpus=8, nodes=64), 1.25),   # 73-512 (512)
        _r(_m("S-06", size=GiB, gpus=9, nodes=57), 0.8),    # > 512 (513)
        _r(_m("S-07", "calibration", size=GiB, gpus=9), 1.5),   # 9-72 (9), calibration
    ]


def test_summary_by_scale_holdout_by_hand_and_by_default():
    # holdout only (the default role): no 9-72 line (its one point is calibration), and the
    # buckets after the empty one are still there
    # <= 8: S-01 (1 GPU), S-02, S-03: errors .5, 2, .1 -> median .5; worst fold 3 (S-02);
    # 1 MiB and more: S-01 (exactly 1 MiB) and S-03; over 2x: none (S-01 is exactly 2x)
    # 73-512: S-04 (73 GPUs, fold 2.5, 1 MiB) and S-05 (512): errors 1.5, .25 -> .875
    # > 512: S-06 (513 GPUs)
    want = [V.ScaleSummary("<= 8", 3, pytest.approx(0.5), pytest.approx(3.0), "S-02", 2, 0),
            V.ScaleSummary("73-512", 2, pytest.approx(0.875), pytest.approx(2.5), "S-04",
                           2, 1),
            V.ScaleSummary("> 512", 1, pytest.approx(0.2), pytest.approx(1.25), "S-06", 1, 0)]
    assert V.summary_by_scale(_scaled()) == want
    assert V.summary_by_scale(_scaled(), "holdout") == want


def test_summary_by_scale_all_roles():
    got = V.summary_by_scale(_scaled(), "all")
    assert [(s.bucket, s.count, s.worst_id, s.count_1mib, s.over_2x) for s in got] == [
        ("<= 8", 3, "S-02", 2, 0), ("9-72", 1, "S-07", 1, 0), ("73-512", 2, "S-04", 2, 1),
        ("> 512", 1, "S-06", 1, 0)]
    assert got[1].median_error == pytest.approx(0.5) and got[1].worst_fold == 1.5
    assert [s.bucket for s in V.summary_by_scale(_scaled(), "calibration")] == ["9-72"]


def test_summary_by_scale_counts_each_point_over_2x_once():
    res = [_r(_m(f"T-{i:02d}", size=GiB), f) for i, f in enumerate((2.5, 0.25, 1.0, 2.0), 1)]
    (s,) = V.summary_by_scale(res)
    assert (s.count, s.count_1mib, s.over_2x, s.worst_id) == (4, 4, 2, "T-02")


def test_summary_by_scale_refuses_a_bad_role():
    with pytest.raises(ValueError, match=r"^role='x' is not one of \['calibration', "
                                         r"'holdout', 'all'\]$"):
        V.summary_by_scale(_scaled(), "x")


# ------------------------------------------------------------------ miss_range_text
def test_miss_range_text_default_threshold_and_system():
    res = [_r(_m("M-01", size=2 * MiB, system="dgx-h100"), 1.2),
           _r(_m("M-02", size=8 * MiB, system="dgx-h100"), 1.05),
           _r(_m("M-03", size=16 * MiB, system="dgx-b200"), 0.5),
           _r(_m("M-04", size=64 * MiB, system="dgx-b200"), 1.3)]
    # default threshold 10 %: M-01, M-03, M-04 are missed
    assert V.miss_range_text(res) == "2 MiB to 64 MiB"
    assert V.miss_range_text(res, 0.1, None, "dgx-h100") == "2 MiB"
    assert V.miss_range_text(res, 0.1, "transition", "dgx-b200") == "16 MiB to 64 MiB"


# ------------------------------------------------------------------ _fmt_size
@pytest.mark.parametrize("size, text", [
    (10e9, "10 GB"),            # the docstring's example: not whole MiB, decimal
    (1.5 * MiB, "1.57 MB"),     # 1,572,864 B
    (MiB, "1 MiB"), (64 * MiB, "64 MiB"), (512 * KiB, "512 KiB"), (8, "8 B"),
])
def test_fmt_size_binary_for_whole_mib_decimal_otherwise(size, text):
    assert V._fmt_size(size) == text


# ------------------------------------------------------------------ time_inversions
def test_time_inversions_by_hand():
    # one series (same prefix, GPUs, nodes, collective, algorithm), largest size first, so
    # a row with no larger size comes before the others; all_reduce on 8 GPUs: time =
    # size x 1.75 / busbw, and the 1.75 cancels in every ratio
    rows = [_m("I-01", size=8 * MiB, busbw=8e9),     # the largest (as slow as I-02)
            _m("I-02", size=MiB, busbw=1e9),         # 1 MiB / 1 GB/s
            _m("I-03", size=MiB, busbw=3e9),         # the same size, 3x quicker
            _m("I-04", size=4 * MiB, busbw=8e9),     # half I-02's time: exactly 2x
            _m("J-01", size=MiB, busbw=1e9),         # another series: never compared
            ]
    # I-02: larger sizes I-04 (t/2) and I-01 (t/2): the quickest of those, ratio exactly 2
    assert V.time_inversions(rows) == []                       # 2 is not more than 2
    got = V.time_inversions(rows, factor=1.5)
    assert [(a, b) for a, b, _ in got] == [("I-02", "I-04")]
    assert got[0][2] == pytest.approx(2.0)
    # I-03 (t/3) against I-04 (t/2): quicker already, no inversion at any factor >= 1
    assert [(a, b) for a, b, _ in V.time_inversions(rows, factor=1.0)] == [("I-02", "I-04")]


def test_time_inversions_compares_larger_sizes_only():
    # a same-size row three times quicker is no inversion; the larger size is 2.5x quicker
    rows = [_m("K-01", size=MiB, busbw=1e9), _m("K-02", size=MiB, busbw=3e9),
            _m("K-03", size=2 * MiB, busbw=5e9)]
    got = V.time_inversions(rows)
    assert [(a, b) for a, b, _ in got] == [("K-01", "K-03")]
    assert got[0][2] == pytest.approx(2.5)


# ------------------------------------------------------------------ NCCL's estimate
def _nccl_ratio(m, release=None):
    """measured time / NCCL's estimated time, by hand: nccl-tests' busbw undone
    (all_reduce: size x 2(n-1)/n / busbw) over nccl_estimate on the row's own node."""
    n = m.gpus_per_node * m.nodes
    measured = m.size_bytes * 2 * (n - 1) / n / m.busbw
    e = collectives.nccl_estimate(m.collective, m.size_bytes, V.node_for(m), m.gpus_per_node,
                                  m.nodes, m.algorithm,
                                  nccl_version=release or V.stated_version(m))
    return measured / e.time_s


@pytest.fixture(scope="module")
def few():
    """Four shipped all-reduce rows of plain nccl-tests runs (no PyTorch timing, one GPU per
    process, NVLS not disabled): two holdout and two calibration, two stating a release."""
    rows = V.load_measurements()
    pick = [r for r in rows if r.collective == "all_reduce" and not V.timed_one_call(r)
            and V.gpus_per_thread(r) == 1 and not V.nvls_disabled(r)
            and V.stated_buffsize(r) is None and V.fabric_kind(r.fabric) == "InfiniBand"]
    stated = [r for r in pick if V.stated_version(r) and r.role == "holdout"][:2]
    other = [r for r in pick if r.role == "calibration" and not V.stated_version(r)][:2]
    assert len(stated) == 2 and len(other) == 2
    return V.evaluate(stated + other)


def test_nccl_release_table_whole(few):
    t = V.nccl_release_table(few, releases=("2.18.5", "2.21.5"))
    med = lambda xs: statistics.median(abs(x - 1) for x in xs)  # noqa: E731
    ms = [r.measurement for r in few]
    assert t.columns == ["NCCL's estimate with the tuner constants of", "points",
                         "runs on that release", "median error"]
    on = {rel: sum(m.nccl_version == rel for m in ms) for rel in ("2.18.5", "2.21.5")}
    assert t.rows == [
        ["the release each run states", "4", "2 state one",
         display.fmt_pct(med([_nccl_ratio(m) for m in ms]), 3)],
        ["2.18.5 for every run", "4", f"{on['2.18.5']} ran it",
         display.fmt_pct(med([_nccl_ratio(m, "2.18.5") for m in ms]), 3)],
        ["2.21.5 for every run", "4", f"{on['2.21.5']} ran it",
         display.fmt_pct(med([_nccl_ratio(m, "2.21.5") for m in ms]), 3)]]
    assert t.caption == (
        "NCCL's own estimate (collectives.nccl_estimate) of every published point under the "
        "tuner constants of one release or another (interlib.specs.nccl_tuning: each "
        "constant read from tuning.cc at the release's tag). A run that states no release "
        "is estimated with the default release's constants in the first row. Error = "
        "|predicted - measured| / measured, as busbw.")


def test_nccl_release_table_refusals_whole(few):
    with pytest.raises(ValueError, match=r"^releases='2\.18\.5' must be a tuple of NCCL "
                                         r"releases like '2\.21\.5'$"):
        V.nccl_release_table(few, releases="2.18.5")
    with pytest.raises(ValueError, match=r"^releases=\(\) must name at least one NCCL "
                                         r"release$"):
        V.nccl_release_table(few, releases=())


def test_nccl_baseline_table_whole(few):
    hold = [r for r in few if r.measurement.role == "holdout"]
    rows = []
    for name, lo, hi in (("<= 8", 1, 8), ("9-72", 9, 72), ("73-512", 73, 512),
                         ("> 512", 513, 10**9)):   # Appendix A's buckets
        grp = [r for r in hold
               if lo <= r.measurement.gpus_per_node * r.measurement.nodes <= hi]
        if grp:
            rows.append([name, str(len(grp)),
                         display.fmt_pct(statistics.median(r.rel_error for r in grp), 3),
                         display.fmt_pct(statistics.median(
                             abs(_nccl_ratio(r.measurement) - 1) for r in grp), 3)])
    t = V.nccl_baseline_table(few)
    assert t.columns == ["GPUs", "holdout points", "median error: this book's model",
                         "median error: NCCL's own estimate"]
    assert t.rows == rows and sum(int(r[1]) for r in rows) == 2
    assert t.caption == (
        "The same holdout points predicted by collectives.predict and by NCCL's own tuning "
        "estimate (collectives.nccl_estimate: NCCL's latencies and bandwidths as tuning.cc "
        "combines them, without the book's launch cost, pipeline fill, unreported plugin "
        "latency and NVLS chunk pace, and with NCCL's per-channel tree cap). Error = "
        "|predicted - measured| / measured, as busbw.")


# ------------------------------------------------------------------ closing_summary
def test_closing_summary_every_sentence_by_hand():
    # _six() without H-03, so each line's worst point is also its worst fold
    res = [r for r in _six() if r.measurement.id != "H-03"]
    assert V.closing_summary(res).splitlines() == [
        "latency-bound (below 1 MiB): 2 points, median error 70 %, worst 135 % (H-01, off "
        "by 2.35×)",
        "transition (1 MiB to 256 MiB): 1 point, median error 12 %, worst 12 % (C-01, off "
        "by 1.12×)",
        "bandwidth-bound (256 MiB and above): 2 points, median error 45 %, worst 70 % "
        "(H-04, off by 1.7×)",
        "all sizes: 5 points, median error 20 %, worst 135 % (H-01, off by 2.35×)"]
    assert V.closing_summary(res, "calibration") == (
        "transition (1 MiB to 256 MiB): 1 point, median error 12 %, worst 12 % (C-01, off "
        "by 1.12×)\n"
        "bandwidth-bound (256 MiB and above): 1 point, median error 20 %, worst 20 % (C-02, "
        "off by 1.25×)\n"
        "all sizes: 2 points, median error 16 %, worst 20 % (C-02, off by 1.25×)")


def test_closing_summary_names_the_worst_fold_apart_when_another_point_has_it():
    # with H-03 (0.4 of measured: 60 % error, 2.5x off) the bandwidth-bound line's worst
    # error is H-04 (70 %, 1.7x off): the sentence must not say H-04 is off by 2.5x
    lines = V.closing_summary(_six(), "holdout").splitlines()
    assert lines == [
        "latency-bound (below 1 MiB): 2 points, median error 70 %, worst 135 % (H-01, off "
        "by 2.35×)",
        "bandwidth-bound (256 MiB and above): 2 points, median error 65 %, worst 70 % "
        "(H-04); worst fold 2.5× (H-03)",
        "all sizes: 4 points, median error 65 %, worst 135 % (H-01); worst fold 2.5× (H-03)"]


def test_closing_summary_refuses_a_role_without_points():
    with pytest.raises(ValueError, match=r"^role='calibration' has no points in these "
                                         r"results$"):
        V.closing_summary(_six()[2:], "calibration")


# ------------------------------------------------------------------ refusals, whole
def test_measured_time_refuses_a_non_measurement_whole():
    with pytest.raises(ValueError, match=r"^row='SB4-01' must be a validation\.Measurement$"):
        V.measured_time("SB4-01")


def test_miss_range_threshold_is_exclusive_and_system_filters():
    res = [_r(_m("M-01", size=2 * MiB, system="dgx-h100"), 1.25),
           _r(_m("M-02", size=8 * MiB, system="dgx-h100"), 1.5),
           _r(_m("M-03", size=16 * MiB, system="dgx-b200"), 2.0)]
    assert V.miss_range(res, 0.5) == (16 * MiB, 16 * MiB)          # 50 % is not over 50 %
    assert V.miss_range(res, 0.2, None, "dgx-h100") == (2 * MiB, 8 * MiB)
    with pytest.raises(ValueError, match=r"^system='dgx' is not one of \['dgx-b200', "
                                         r"'dgx-h100'\]"):
        V.miss_range(res, system="dgx")
    with pytest.raises(ValueError, match=r"^threshold=1\.0: no point is missed by more than "
                                         r"that \(regime_name=None, system='dgx-h100'\)$"):
        V.miss_range(res, 1.0, None, "dgx-h100")
