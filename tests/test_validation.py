"""Appendix A: the shipped measurements and the model's error on them.

The thresholds are the book's promise about the model (median relative error <= 10 %, no
point off by more than 3x); a change to ``collectives`` or ``specs.calibration`` that makes
the model worse on the published data fails here. The data checks pin the CSV against the
fact sheet (facts.md section 3) and against the catalogue.
"""

import csv
import math

import pytest

from interlib import collectives, specs, validation as V
from interlib.units import GB_per_s, GiB, KiB, MiB

ROWS = V.load_measurements()
RESULTS = V.evaluate(ROWS)


# ---------------------------------------------------------------- the CSV itself
def test_every_row_has_a_source_and_url():
    for r in ROWS:
        assert r.source.strip(), r.id
        assert r.url.startswith("https://"), r.id


def test_sizes_and_bandwidths_positive_roles_valid_systems_exist():
    for r in ROWS:
        assert r.size_bytes > 0 and r.busbw > 0, r.id
        assert r.role in ("calibration", "holdout"), r.id
        assert r.system in specs.SYSTEMS, r.id
        assert 1 <= r.gpus_per_node <= specs.system(r.system).gpus_per_node, r.id
        assert r.collective in collectives.COLLECTIVES and r.algorithm in collectives.ALGORITHMS


def test_ids_unique_and_both_roles_present():
    ids = [r.id for r in ROWS]
    assert len(ids) == len(set(ids))
    assert {r.role for r in ROWS} == {"calibration", "holdout"}


def test_calibration_set_is_v1_and_v3_only():
    # the calibrated constants were fitted to these two sweeps and nothing else
    assert {r.id.split("-")[0] for r in ROWS if r.role == "calibration"} == {"V1", "V3"}


def test_rows_with_assumptions_say_so():
    # every holdout row turns a prose statement into a point: the note must explain it
    for r in ROWS:
        if r.role == "holdout":
            assert len(r.note) > 20, r.id


def test_v1_is_the_azure_doubling_sweep():
    # facts.md V1: 24 sizes from 1K to 8G, busbw 0.07 ... 478.87 GB/s
    v1 = sorted((r for r in ROWS if r.id.startswith("V1-")), key=lambda r: r.size_bytes)
    assert [r.size_bytes for r in v1] == [2.0**e for e in range(10, 34)]
    assert v1[0].busbw == pytest.approx(0.07 * GB_per_s)
    assert v1[-1].busbw == pytest.approx(478.87 * GB_per_s)


def test_v3_busbw_matches_published_times():
    # facts.md V3 gives time (us) and busbw; busbw = size / time x 2(n-1)/n must hold
    times_us = {32 * KiB: 43.83, 1 * MiB: 101.9, 4 * MiB: 101.5, 16 * MiB: 276.6,
                128 * MiB: 1327.6, 1 * GiB: 8203.9, 16 * GiB: 127997}
    v3 = [r for r in ROWS if r.id.startswith("V3-")]
    assert {r.size_bytes for r in v3} == set(times_us)
    for r in v3:
        derived = collectives.busbw("all_reduce", r.size_bytes, times_us[r.size_bytes] * 1e-6, 8)
        assert derived == pytest.approx(r.busbw, rel=0.01), r.id


def test_scaling_book_points_use_the_array_sizes_it_states():
    by_id = {r.id: r for r in ROWS}
    # bf16[8192, 3584] = 8192 x 3584 x 2 bytes
    assert by_id["V8-01"].size_bytes == 8192 * 3584 * 2
    # bf16[4096, 65536] all-gathered in about 1.5 ms: busbw = S (n-1)/n / t
    ag = by_id["V8-02"]
    assert ag.size_bytes == 4096 * 65536 * 2
    assert ag.busbw == pytest.approx(ag.size_bytes * 7 / 8 / 1.5e-3, rel=1e-3)


def test_loader_rejects_bad_rows(tmp_path):
    src = V.DATA_PATH.read_text().splitlines()
    header, good = src[0], src[1]
    cases = {"system": ("dgx-h100", "dgx-h999"), "role": ("calibration", "training"),
             "size_bytes": (",1024,", ",-1024,"), "url": ("https://github", "ftp://github")}
    for field, (old, new) in cases.items():
        p = tmp_path / f"{field}.csv"
        p.write_text(header + "\n" + good.replace(old, new, 1) + "\n")
        with pytest.raises(ValueError, match=field):
            V.load_measurements(p)
    p = tmp_path / "dup.csv"
    p.write_text("\n".join([header, good, good]) + "\n")
    with pytest.raises(ValueError, match="more than once"):
        V.load_measurements(p)


# ------------------------------------------------------------ the model's error
def test_model_median_error_within_ten_percent():
    err = sorted(r.rel_error for r in RESULTS)
    assert err[len(err) // 2] <= 0.10


@pytest.mark.parametrize("role", ["calibration", "holdout"])
def test_model_median_error_within_ten_percent_per_role(role):
    s = [x for x in V.summary_by_regime(RESULTS) if x.role == role and x.regime == "all"][0]
    assert s.median_error <= 0.10


def test_no_point_off_by_more_than_3x():
    for r in RESULTS:
        assert r.fold <= 3.0, (r.measurement.id, r.ratio)


def test_bandwidth_bound_points_within_twenty_percent():
    # large messages are where the model has the least excuse
    for r in RESULTS:
        if r.regime == "bandwidth-bound":
            assert r.rel_error <= 0.20, r.measurement.id


# ------------------------------------------------------------------ the functions
def test_regime_boundaries():
    assert V.regime(1 * MiB - 1) == "latency-bound"
    assert V.regime(1 * MiB) == "transition"
    assert V.regime(256 * MiB - 1) == "transition"
    assert V.regime(256 * MiB) == "bandwidth-bound"
    assert list(V.regime([1.0, 2 * MiB, 1 * GiB])) == ["latency-bound", "transition",
                                                        "bandwidth-bound"]


def test_error_measures_are_consistent():
    for r in RESULTS:
        assert r.fold >= 1.0
        assert r.ratio == pytest.approx(r.predicted / r.measurement.busbw)
        assert r.fold == pytest.approx(max(r.ratio, 1 / r.ratio))
        assert r.rel_error == pytest.approx(abs(r.ratio - 1))


def test_summary_counts_add_up():
    s = V.summary_by_regime(RESULTS)
    alls = {x.role: x for x in s if x.regime == "all"}
    assert alls["all"].count == len(RESULTS)
    assert alls["calibration"].count + alls["holdout"].count == len(RESULTS)
    for role in ("calibration", "holdout", "all"):
        parts = [x.count for x in s if x.role == role and x.regime != "all"]
        assert sum(parts) == alls[role].count
        assert alls[role].worst_error >= alls[role].median_error


def test_tables_and_curves_cover_every_point():
    assert len(V.points_table(RESULTS).rows) == len(ROWS)
    assert len(V.points_table(RESULTS, role="holdout").rows) == sum(
        r.role == "holdout" for r in ROWS)
    assert sum(len(c["ids"]) for c in V.curves(ROWS)) == len(ROWS)
    assert sum(int(r[1]) for r in V.sources_table(ROWS).rows) == len(ROWS)


def test_bad_input():
    with pytest.raises(ValueError, match="size_bytes"):
        V.regime(0)
    with pytest.raises(ValueError, match="role"):
        V.load_measurements(role="train")
    with pytest.raises(ValueError, match="path"):
        V.load_measurements("/nonexistent/file.csv")
    with pytest.raises(ValueError, match="rows"):
        V.evaluate([])
    with pytest.raises(ValueError, match="results"):
        V.summary_by_regime([1, 2])
    with pytest.raises(ValueError, match="role"):
        V.points_table(RESULTS, role="x")
    assert math.isfinite(RESULTS[0].predicted)


def test_tables_and_curves_reject_empty_or_foreign_input():
    # an empty list must not give an empty table or plot silently, and a list of the
    # wrong things must be refused by name, not crash with AttributeError
    with pytest.raises(ValueError, match="results"):
        V.points_table([1])
    with pytest.raises(ValueError, match="results"):
        V.points_table([])
    with pytest.raises(ValueError, match="rows"):
        V.curves([])
    with pytest.raises(ValueError, match="rows"):
        V.sources_table([])
    with pytest.raises(ValueError, match="rows"):
        V.curves(RESULTS)              # PointResults are not Measurements
    with pytest.raises(ValueError, match="role"):
        V.closing_summary(role="train")
    with pytest.raises(ValueError, match="threshold"):
        V.miss_range(threshold=0)
    with pytest.raises(ValueError, match="regime_name"):
        V.miss_range(regime_name="mid")
    with pytest.raises(ValueError, match="threshold"):
        V.miss_range(threshold=1.0)    # no point is off by more than 100 %
    with pytest.raises(ValueError, match="name"):
        V.regime_bounds("huge")


def test_regime_bounds_in_words():
    assert [V.regime_bounds(n) for n, _, _ in V.REGIMES] == \
        ["below 1 MiB", "1 MiB to 256 MiB", "256 MiB and above"]


def test_closing_summary_quotes_summary_by_regime():
    lines = V.closing_summary(RESULTS).splitlines()
    alls = [s for s in V.summary_by_regime(RESULTS) if s.role == "all"]
    assert len(lines) == len(alls)
    for line, s in zip(lines, alls):
        assert s.worst_id in line and f"{s.count} point" in line


def test_pipeline_saturation_is_window_times_chunks():
    # collectives.predict's fill uses min(window, size / chunks): 4 MiB x 8 = 32 MiB
    C = specs.calibration
    assert V.pipeline_saturation_size() == C.PIPELINE_WINDOW.value * C.PIPELINE_CHUNKS.value
    assert V.pipeline_saturation_size() == 32 * MiB


def test_miss_range_spans_the_missed_points():
    lo, hi = V.miss_range(RESULTS, 0.1, "transition", "dgx-h100")
    missed = [r.measurement.size_bytes for r in RESULTS if r.rel_error > 0.1
              and r.regime == "transition" and r.measurement.system == "dgx-h100"]
    assert (lo, hi) == (min(missed), max(missed))


def test_new_sharp_points_from_facts_sheet():
    # facts.md V8 (scaling book: "with SHARP ... about 480GB/s") and V9 (GTC25 S72583 via
    # NVIDIA/nccl#1374: NVLink4 370 -> 480 GB/s), each its own row with its own source
    by_id = {r.id: r for r in ROWS}
    assert by_id["V8-04"].busbw == pytest.approx(480 * GB_per_s)
    assert by_id["V8-04"].algorithm == "nvls" and "scaling-book" in by_id["V8-04"].url
    assert (by_id["V9-08"].busbw, by_id["V9-09"].busbw) == \
        (pytest.approx(370 * GB_per_s), pytest.approx(480 * GB_per_s))
    assert by_id["V9-08"].url.endswith("nccl/issues/1374")
    assert all(by_id[i].role == "holdout" for i in ("V8-04", "V9-08", "V9-09"))


def test_regime_counts_include_empty_regimes():
    for role in ("calibration", "holdout", "all"):
        counts = V.regime_counts(RESULTS, role)
        assert list(counts) == [n for n, _, _ in V.REGIMES]
        assert sum(counts.values()) == sum(
            1 for r in RESULTS if role == "all" or r.measurement.role == role)
    assert V.regime_counts(RESULTS, "holdout")["latency-bound"] == 0   # no small holdouts
    with pytest.raises(ValueError, match="role"):
        V.regime_counts(RESULTS, "x")


def test_miss_range_text():
    lo, hi = V.miss_range(RESULTS, 0.1, "transition")
    text = V.miss_range_text(RESULTS, 0.1, "transition")
    assert text.startswith(V._fmt_size(lo)) and text.endswith(V._fmt_size(hi))


def test_id_runs_never_hide_another_sources_id_in_a_range():
    # the GTC25 slide holds V9-05, V9-06, V9-08 and V9-09; V9-07 is a GTC24 point
    assert V.id_runs(["V9-05", "V9-06", "V9-08", "V9-09"]) == "V9-05..V9-06, V9-08..V9-09"
    assert V.id_runs(["V1-01", "V1-02", "V1-03"]) == "V1-01..V1-03"
    assert V.id_runs(["V3-01", "V9-02"]) == "V3-01, V9-02"
    # every id in the sources table is listed, and no range covers an id of another source
    for r in V.sources_table(ROWS).rows:
        listed = set()
        for part in r[0].split(", "):
            a, _, b = part.partition("..")
            b = b or a
            pre = a.rsplit("-", 1)[0]
            listed |= {f"{pre}-{k:02d}" for k in range(int(a.rsplit("-", 1)[1]),
                                                      int(b.rsplit("-", 1)[1]) + 1)}
        assert len(listed) == int(r[1])
        assert all(row.source == r[4] for row in ROWS if row.id in listed)


def test_id_runs_bad_input():
    with pytest.raises(ValueError, match="ids"):
        V.id_runs([])
    with pytest.raises(ValueError, match="ids"):
        V.id_runs("V9-05")
    with pytest.raises(ValueError, match="ids"):
        V.id_runs(["V9"])


# ------------------------------------------ argument sweep: rows, results and path
@pytest.mark.parametrize("call, param", [
    (lambda: V.load_measurements(5), "path=5"),
    (lambda: V.load_measurements(float("nan")), "path=nan"),
    (lambda: V.evaluate(5), "rows=5"),
    (lambda: V.evaluate(float("nan")), "rows=nan"),
    (lambda: V.evaluate([]), "rows"),
    (lambda: V.sources_table(-1), "rows=-1"),
    (lambda: V.curves(5), "rows=5"),
    (lambda: V.summary_by_regime(5), "results=5"),
    (lambda: V.summary_table(5), "results=5"),
    (lambda: V.closing_summary(5), "results=5"),
    (lambda: V.regime_counts(5), "results=5"),
    (lambda: V.miss_range(5), "results=5"),
    (lambda: V.miss_range_text(5), "results=5"),
    (lambda: V.points_table(5), "results=5"),
    (lambda: V.points_table([]), "results"),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()
