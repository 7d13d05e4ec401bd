"""The machinery of cross-validation by source (interlib.crossval) and the stored file's
readers (interlib.intervals.class_stats): issue 38 item 6, the mutants no earlier test saw.

Expected values come from second witnesses, never from the function under test:

* the stored file ``interlib/data/crossval.json``, read here with ``json`` (its digest and
  folds: what ``python -m interlib.crossval`` wrote for the shipped rows);
* the docstrings' stated rules (the grids' geometric spacing; dependencies probed at each
  grid's low, middle and high value; the book's trust rule of Appendix A; an interval's
  bounds inclusive), checked on synthetic inputs built here with the answer known by hand;
* ``collectives.predict`` called here per size, with the measurement method's cost added by
  hand (PyTorch's per-call overhead; ``max(time, N x launch)`` for one thread driving N GPUs).

Everything is computed inside the tests or in fixtures (no module-level results and no
caches that outlive a test session), so a changed function is seen by the test that calls
it. Nothing here writes ``interlib/data/``: tests of a missing or different file point
``interlib.intervals.CROSSVAL_PATH`` at ``tmp_path``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest

from interlib import collectives, crossval as X, intervals as I, validation as V
from interlib.specs import calibration as C

MiB, GiB, us = 2**20, 2**30, 1e-6
STALE = (r"^the stored cross-validation was fitted to other rows or another procedure: "
         r"run python -m interlib\.crossval$")


@pytest.fixture(scope="module")
def rows():
    return V.load_measurements()


@pytest.fixture(scope="module")
def stored_json():
    return json.loads(I.CROSSVAL_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def elsewhere(monkeypatch, tmp_path):
    """CROSSVAL_PATH pointed at a file under tmp_path (not written yet); the readers'
    cache is cleared before and after, so the shipped file is read again afterwards."""
    path = tmp_path / "crossval.json"
    monkeypatch.setattr(I, "CROSSVAL_PATH", path)
    I.clear_cache()
    yield path
    I.clear_cache()


# ------------------------------------------------------------------ the grids
def test_geo_is_a_geometric_grid_from_lo_to_hi():
    # NVLS chunk time's grid: 25 values from 4 to 24 us, each the last times (24/4)^(1/24)
    got = X._geo(4 * us, 24 * us, 25)
    assert isinstance(got, tuple) and len(got) == 25
    assert all(type(x) is float for x in got)
    want = [4 * us * 6 ** (i / 24) for i in range(25)]
    assert got == pytest.approx(want, rel=1e-12)
    assert X._geo(1.0, 8.0, 4) == pytest.approx((1.0, 2.0, 4.0, 8.0), rel=1e-12)


# ------------------------------------------------------------------ the stored file
def test_stored_is_the_file_as_json(stored_json):
    assert X.stored() == stored_json


def test_stored_refuses_a_missing_file_naming_the_command(elsewhere):
    with pytest.raises(ValueError, match=rf"^{re.escape(str(elsewhere))} is missing: run "
                                         r"python -m interlib\.crossval$"):
        X.stored()


def test_digest_is_the_stored_files_for_the_shipped_rows(rows, stored_json):
    # the file was written for these rows by this procedure (16 hex digits)
    assert X._digest(rows) == stored_json["digest"]
    assert len(stored_json["digest"]) == 16


def test_digest_changes_with_the_grid_and_each_rows_fields(rows, monkeypatch):
    base = X._digest(rows[:3])
    for field, value in (("busbw", rows[0].busbw * 2), ("note", rows[0].note + " x"),
                         ("size_bytes", rows[0].size_bytes + 1),
                         ("url", "https://example.org/other")):
        changed = [dataclasses.replace(rows[0], **{field: value})] + rows[1:3]
        assert X._digest(changed) != base, field
    monkeypatch.setattr(X, "FIT_GRID", {**X.FIT_GRID, "PIPELINE_CHUNKS": (1.0, 2.0)})
    assert X._digest(rows[:3]) != base


def test_fold_constants_are_the_stored_folds(rows, stored_json):
    assert X.fold_constants(rows) == stored_json["folds"]
    assert X.fold_constants() == stored_json["folds"]


def test_fold_constants_refuse_other_rows_naming_the_command(rows):
    with pytest.raises(ValueError, match=STALE):
        X.fold_constants(rows[:-1])
    other = [dataclasses.replace(rows[0], busbw=rows[0].busbw * 1.5)] + rows[1:]
    with pytest.raises(ValueError, match=STALE):
        X.fold_constants(other)


def test_cross_validate_refuses_rows_the_folds_were_not_fitted_to(rows):
    other = [dataclasses.replace(rows[0], busbw=rows[0].busbw * 1.5)] + rows[1:]
    with pytest.raises(ValueError, match=STALE):
        X.cross_validate(other)


def test_cross_validate_predicts_each_row_with_its_own_sources_fold(rows, stored_json,
                                                                   monkeypatch):
    # three sources' rows, interleaved; the fold constants as stored (the digest check is
    # fold_constants' own, tested above): each row's result is evaluate() under its
    # source's stored fold, and its measurement is the row given
    groups = {}
    for r in rows:
        groups.setdefault(X.source_group(r), []).append(r)
    picks = [g for g, rs in groups.items() if rs[0].series in ("TH1R", "V3", "SB1")]
    assert len(picks) == 3
    some = [rs for g, rs in groups.items() if g in picks]
    mine = [dataclasses.replace(r, role="holdout") for trio in zip(*some) for r in trio][:7]
    monkeypatch.setattr(X, "fold_constants", lambda rows_=None: stored_json["folds"])
    # Together's H100 node (TH1R) informs the all-rows fit: its fold differs from it
    assert any(stored_json["folds"][X.source_group(r)] != stored_json["all"] for r in mine)
    out = X.cross_validate(mine)
    assert len(out) == len(mine)
    for r, res in zip(mine, out):
        assert res.measurement is r
        fold = stored_json["folds"][X.source_group(r)]
        with collectives.calibrated(fold):   # the fold's host launch per GPU too
            p = collectives.predict(*V._call_args(r), **V._call_kwargs(r))
            t = p.time_s
            t_m = float(V.method_time(r, t))
        assert res.predicted == pytest.approx(p.busbw * t / t_m, rel=1e-12), r.id


# ------------------------------------------------------------------ fast evaluation
def _hand_busbw(r):
    """busbw of one row, by hand: predict's, times its time over the time the measurement
    method took (PyTorch's per-call host overhead added; one thread driving N GPUs takes at
    least N x the host launch per GPU)."""
    p = collectives.predict(*V._call_args(r), **V._call_kwargs(r))
    t = p.time_s
    if V.TIMED_ONE_CALL_MARKER in r.note:
        t_m = t + C.TORCH_HOST_OVERHEAD.value
    else:
        t_m = t
    n = V.gpus_per_thread(r)
    if n > 1:
        t_m = max(t_m, n * C.HOST_LAUNCH_PER_GPU.value)
    return p.busbw * t / t_m


def _kinds(rows, extra=True):
    """One series of each kind: forced algorithm, NVLS off, PyTorch timing, -g N, a stated
    release, part of a node; then SH (part of a catalogue node: 2 to 4 of a DGX H100's 8
    GPUs) and V1 (NCCL 2.18.5 stated, NVLS named: its release's constants move its busbw)."""
    tests = (lambda r: r.algorithm not in ("auto",) and r.nodes > 1,
             V.nvls_disabled, V.timed_one_call, lambda r: V.gpus_per_thread(r) > 1,
             lambda r: V.stated_version(r) is not None and r.nodes > 1,
             lambda r: r.gpus_per_node < V.SYSTEMS[r.system].gpus_per_node)
    out = []
    for t in tests:
        first = next(r for r in rows if t(r))
        out += [r for r in rows if r.series == first.series]
    return out + [r for r in rows if extra and r.series in ("SH", "V1")]


def test_series_group_a_runs_rows_and_keep_their_measured_busbw(rows):
    mine = _kinds(rows)
    series = X._series(mine)
    assert sorted(i for s in series for i in s.idx) == list(range(len(mine)))
    for s in series:
        members = [mine[i] for i in s.idx]
        assert s.row is members[0]
        assert np.array_equal(s.sizes, [m.size_bytes for m in members])
        assert np.array_equal(s.measured, [m.busbw for m in members])
        coll, _, node, g, k, alg = V._call_args(members[0])
        assert (s.args[0], s.args[2], s.args[3], s.args[4]) == (coll, g, k, alg)
        assert s.kwargs == V._call_kwargs(members[0])
    # a series of one row
    (one,) = X._series(mine[:1])
    assert one.row is mine[0] and one.measured.tolist() == [mine[0].busbw]


def test_busbw_of_a_series_is_predict_per_size_with_the_methods_cost(rows):
    mine = _kinds(rows)
    for s in X._series(mine):
        got = X._busbw(s)
        want = [_hand_busbw(mine[i]) for i in s.idx]
        assert got == pytest.approx(want, rel=1e-9), mine[s.idx[0]].id


# ------------------------------------------------------------------ dependencies
S = C.PRE_CV_VALUES["LAUNCH_OVERHEAD"]
X_ = S + 20 * us


@pytest.mark.parametrize("grid, depends", [
    ((X_, S, S, S, S), {"LAUNCH_OVERHEAD"}),     # the low end differs: seen
    ((S, S, X_, S, S), {"LAUNCH_OVERHEAD"}),     # the middle (index 5 // 2): seen
    ((S, S, S, S, X_), {"LAUNCH_OVERHEAD"}),     # the high end: seen
    ((S, X_, S, S, S), set()),                   # neither end nor middle: not probed
    ((S, S, S, X_, S), set()),
    ((S, S, S, S, S), set()),                    # no value moves the prediction
])
def test_dependencies_probe_each_grids_low_middle_and_high_value(rows, monkeypatch, grid,
                                                                 depends):
    # a launch overhead moves every prediction; the docstring's rule: a series depends on
    # a constant if its prediction moves at the grid's low, middle or high value
    one = [r for r in rows if r.series == "V3"]
    series = X._series(one)
    monkeypatch.setattr(X, "FIT_GRID", {"LAUNCH_OVERHEAD": grid})
    X._dependencies(series)
    assert [s.depends for s in series] == [frozenset(depends)] * len(series)


def test_dependencies_of_real_series_follow_their_mechanisms(rows):
    # one node (no network): never NET_EFFICIENCY nor TCPXO's step latency; a series with
    # sizes below 1 MiB: the launch overhead; the host launch per GPU only for a thread
    # driving N GPUs (and for one with sizes below 1 MiB, where the launches are the time)
    mine = _kinds(rows, extra=False)
    series = X._series(mine)
    X._dependencies(series)
    for s in series:
        r = mine[s.idx[0]]
        assert isinstance(s.depends, frozenset) and s.depends <= set(X.FIT_GRID), r.id
        if min(s.sizes) < MiB:
            assert "LAUNCH_OVERHEAD" in s.depends, r.id
        if r.nodes == 1:
            assert not {"NET_EFFICIENCY", "TCPXO_STEP_LATENCY"} & s.depends, r.id
        if V.gpus_per_thread(r) == 1:
            assert "HOST_LAUNCH_PER_GPU" not in s.depends, r.id
        elif min(s.sizes) < MiB:
            assert "HOST_LAUNCH_PER_GPU" in s.depends, r.id


# ------------------------------------------------------------------ refit_all's shape
def test_refit_all_returns_the_all_rows_fit_and_one_per_fold(rows, monkeypatch):
    mine = [r for r in rows if r.series in ("V3", "SB1")]
    calls = []

    def spy(series, values):
        calls.append(frozenset(mine[i].id for s in series for i in s.idx))
        return {"seen": calls[-1]}

    monkeypatch.setattr(X, "_fit_series", spy)
    out = X.refit_all(mine)
    groups = X.folds(mine)
    assert set(out) == {"all", "folds"}
    assert out["all"] == {"seen": frozenset(r.id for r in mine)}
    assert set(out["folds"]) == set(groups) and len(groups) == 2
    for g, idx in groups.items():
        assert out["folds"][g] == {"seen": frozenset(r.id for r in mine) -
                                   {mine[i].id for i in idx}}


# ------------------------------------------------------------------ synthetic results
def _m(id_, size=GiB, gpus=8, nodes=1, collective="all_reduce", url="https://example.org/a"):
    return V.Measurement(id_, "holdout", "synthetic", url, "dgx-h100", "h100-sxm", gpus, nodes,
                         8, 400.0, "InfiniBand", "not stated", collective, "auto", float(size),
                         100e9, "")


def _r(m, ratio=1.0, regime=None):
    reg = regime or ("latency-bound" if m.size_bytes < MiB else "transition"
                     if m.size_bytes < 256 * MiB else "bandwidth-bound")
    return V.PointResult(m, m.busbw * ratio, abs(ratio - 1), max(ratio, 1 / ratio), reg,
                         "ring", "Simple")


def test_trusted_is_appendix_as_rule_on_its_edges():
    # bandwidth-bound up to 512 GPUs; 4 MiB and more on one node of up to 8 GPUs; never an
    # all-to-all across nodes (one node's all-to-all is trusted)
    cases = {
        "bw-512": (_m("A-01", GiB, 8, 64), True),
        "bw-513": (_m("A-02", GiB, 9, 57), False),
        "4MiB-8": (_m("A-03", 4 * MiB, 8, 1), True),
        "4MiB-1-byte-8": (_m("A-04", 4 * MiB - 1, 8, 1), False),
        "4MiB-9": (_m("A-05", 4 * MiB, 9, 1), False),
        "a2a-1-node": (_m("A-06", 4 * MiB, 8, 1, "all_to_all"), True),
        "a2a-1-node-bw": (_m("A-07", GiB, 8, 1, "all_to_all"), True),
        "a2a-2-nodes": (_m("A-08", GiB, 8, 2, "all_to_all"), False),
        "ar-2-nodes-bw": (_m("A-09", GiB, 8, 2), True),
        "ar-latency-1": (_m("A-11", 64 * 1024, 8, 1), False),
        # 8 GPUs on two nodes at 4 MiB (not bandwidth-bound): not one node (docstring)
        "4MiB-2x4": (_m("A-12", 4 * MiB, 4, 2), False),
    }
    res = [_r(m) for m, _ in cases.values()]
    got = {r.measurement.id for r in X.trusted(res)}
    assert got == {m.id for m, ok in cases.values() if ok}


def test_covered_bounds_are_inclusive_and_by_group_is_passed_on(monkeypatch):
    # residual log(measured / predicted) = 0 exactly on each point: on the low bound, on the
    # high bound, outside; by_group picks which intervals
    res = [_r(_m(f"B-{i}")) for i in range(3)]
    given = {True: [(0.0, 0.5, "k"), (-0.5, 0.0, "k"), (0.1, 0.5, "k")],
             False: [(-0.5, -0.1, "k"), (-0.1, 0.1, "k"), (0.0, 0.0, "k")]}
    monkeypatch.setattr(X, "held_out_intervals", lambda results, by_group=True: given[by_group])
    assert X.covered(res) == [True, True, False]
    assert X.covered(res, by_group=True) == [True, True, False]
    assert X.covered(res, by_group=False) == [False, True, True]


def test_interval_stats_bounds_inclusive_and_key_gets_the_result(monkeypatch):
    res = [_r(_m("C-1", GiB)), _r(_m("C-2", 4 * MiB)), _r(_m("C-3", 4 * MiB)),
           _r(_m("C-4", GiB, url="https://example.org/b"))]
    held = [(0.0, math.log(2), ("x",)), (-math.log(4), 0.0, ("x",)),
            (0.1, 0.2, ("y",)), (-0.1, 0.1, ("x",))]
    monkeypatch.setattr(X, "held_out_intervals", lambda results, by_group=True: held)
    assert X.interval_stats(res) == {
        ("x",): {"coverage": 1.0, "width": pytest.approx(2.0), "points": 3, "sources": 2},
        ("y",): {"coverage": 0.0, "width": pytest.approx(math.exp(0.1)), "points": 1,
                 "sources": 1}}
    by_reg = X.interval_stats(res, key=lambda r, cls: r.regime)
    assert {k: (v["points"], v["coverage"]) for k, v in by_reg.items()} == {
        "bandwidth-bound": (2, 1.0), "transition": (2, 0.5)}


# ------------------------------------------------------------------ known_misses
def test_known_misses_every_cell_by_hand():
    # points of 1 MiB or more off by more than 2x, by series: V3 (a known cause) with one
    # point; ZZ (no cause) with three points on both sides; exactly 2x and below 1 MiB are
    # not misses
    res = [_r(_m("V3-01", MiB - 1), 3.0),          # below 1 MiB: not counted
           _r(_m("V3-02", MiB), 0.4321),           # fold 2.3143: pessimistic
           _r(_m("ZZ-01", 2 * MiB), 2.5),
           _r(_m("ZZ-02", 4 * MiB), 0.5),          # exactly 2x: not a miss
           _r(_m("ZZ-03", 8 * MiB), 1 / 2.3456),   # fold 2.3456, pessimistic
           _r(_m("ZZ-04", 16 * MiB), 2.01),
           _r(_m("QQ-01", GiB), 1.0)]
    t = X.known_misses(res)
    assert t.columns == ["points", "how many", "sizes", "worst off by", "the model is",
                         "cause"]
    assert t.rows == [
        ["V3-02", "1", "1 MiB", "2.31×", "pessimistic", X.KNOWN_MISSES["V3"]],
        ["ZZ-01, ZZ-03..ZZ-04", "3", "2 MiB to 16 MiB", "2.5×",
         "optimistic and pessimistic", "not yet explained"]]
    assert t.caption == ("Every published point of 1 MiB or more that the model, fitted "
                         "without its source, misses by more than 2x, by series, with its "
                         "cause (interlib.crossval.KNOWN_MISSES).")


def test_known_misses_a_series_of_two_sizes_missed_on_one_side():
    # two sizes: a range; both optimistic; the worst fold to 3 digits (2.3456: 2.35)
    t = X.known_misses([_r(_m("YY-01", 2 * MiB), 2.3456), _r(_m("YY-02", 4 * MiB), 2.1)])
    assert t.rows == [["YY-01..YY-02", "2", "2 MiB to 4 MiB", "2.35×", "optimistic",
                       "not yet explained"]]


# ------------------------------------------------------------------ intervals.class_stats
def test_class_stats_of_a_missing_file_is_empty(elsewhere):
    assert not elsewhere.exists()
    assert I.class_stats() == {}
    assert I.stored_classes() == {}


def test_class_stats_reads_the_stored_classes_with_a_record(elsewhere):
    elsewhere.write_text(json.dumps({"intervals": [
        {"class": ["transition", "measured"], "lo": -0.2, "hi": 0.3, "n": 40,
         "coverage": 0.8, "width": 1.6, "points": 40, "sources": 7},
        {"class": ["latency-bound", "measured"], "lo": -0.5, "hi": 0.5, "n": 9}]}),
        encoding="utf-8")
    I.clear_cache()
    assert I.class_stats() == {("transition", "measured"): {
        "coverage": 0.8, "width": 1.6, "points": 40, "sources": 7}}
    elsewhere.write_text(json.dumps({"digest": "x"}), encoding="utf-8")
    I.clear_cache()
    assert I.class_stats() == {}


# ------------------------------------------------------------------ the interval classes
def test_fit_classes_a_regime_needs_fifteen_points_for_its_own_bounds():
    # 15 transition points get classes of their own (MIN_CLASS_POINTS = 15: "fewer than"
    # gets none); 14 latency-bound points do not; the all-points classes always exist
    pts = [("transition", 0.01 * i) for i in range(15)] + \
          [("latency-bound", -0.01 * i) for i in range(14)]
    got = I.fit_classes(pts)
    assert set(got) == {("transition", I.MEASURED), ("transition", I.NOT_MEASURED),
                        (I.MEASURED,), (I.NOT_MEASURED,)}
    assert got[("transition", I.MEASURED)][2] == 15 and got[(I.MEASURED,)][2] == 29


def test_held_out_intervals_without_by_group_use_every_source():
    # two sources of 15 transition points each, residuals 0 (a) and log 2 (b): with
    # by_group each point's interval comes from the other source only; without it, every
    # point gets the interval of all 30 points
    res = [_r(_m(f"HA-{i:02d}", 4 * MiB, url="https://example.org/a")) for i in range(15)] + \
          [_r(_m(f"HB-{i:02d}", 4 * MiB, url="https://example.org/b"), 0.5)
           for i in range(15)]
    every = I.fit_classes([("transition", X.residual(r)) for r in res])
    (lo, hi, _), key = I.lookup(every, "transition", True)
    assert X.held_out_intervals(res, by_group=False) == [(lo, hi, key)] * 30
    only_b = I.fit_classes([("transition", X.residual(r)) for r in res[15:]])
    # source b ran the same GPU, nodes and network: a's configuration counts as measured
    (lo_b, hi_b, _), key_b = I.lookup(only_b, "transition", True)
    got = X.held_out_intervals(res)
    assert got[0] == (lo_b, hi_b, key_b) and (lo_b, hi_b) != (lo, hi)
