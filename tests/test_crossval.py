"""Cross-validation by source, the prediction intervals and the ratchets (issues 24, 25).

Every error the book prints is out of sample: a source's points are predicted by the
constants fitted without that source (:mod:`interlib.crossval`). These tests check that the
stored fits are what the procedure gives, that no fold saw its own source, that the 80 %
intervals cover what they claim, and they hold every cross-validated figure that misses
its target to a ceiling at today's value (a ratchet): a change that makes one worse fails
here, and so does one that makes it better until the ceiling is moved down in the same
commit.
"""

import math
import statistics

import numpy as np
import pytest

from interlib import collectives, crossval as X, intervals as I, specs, validation as V
from interlib.units import GiB, MiB
from interlib.specs import nccl_tuning as T

ROWS = V.load_measurements()
CV = X.cross_validate(ROWS)
FOLDS = X.fold_constants(ROWS)
GROUPS = X.folds(ROWS)


# --------------------------------------------------------------- the procedure
def test_catalogue_holds_the_fit_on_all_rows():
    # the calibrated constants are read from the stored all-rows fit, and refitting every
    # row by the procedure gives them again (deterministic: no randomness, ties to the
    # smaller grid value)
    C = specs.calibration
    assert set(V.calibrated_constants()) == set(X.FIT_GRID) == set(C.CALIBRATED_FROM)
    for name, spec in V.calibrated_constants().items():
        assert spec.value == X.stored()["all"][name], name
        assert spec.value in X.FIT_GRID[name], name
    assert X.fit(ROWS) == X.stored()["all"]


def test_a_fold_refitted_without_its_source_gives_the_stored_constants():
    # Together's one H100 node, run by one thread driving 8 GPUs, holds most of what the
    # host's launch per GPU is fitted to: without it the procedure, run on the other sources
    # alone, must give exactly the stored fold, and that fold must differ from the all-rows
    # fit (the held-out source did inform the full fit)
    group = next(g for g, idx in GROUPS.items() if ROWS[idx[0]].series == "TH1R")
    held = set(GROUPS[group])
    refit = X.fit([r for i, r in enumerate(ROWS) if i not in held])
    assert refit == FOLDS[group]
    assert refit != X.stored()["all"]


def test_every_point_is_predicted_by_the_fold_without_its_source():
    assert set(FOLDS) == set(GROUPS)
    assert sum(len(i) for i in GROUPS.values()) == len(ROWS) == len(CV)
    for group, idx in GROUPS.items():
        assert all(X.source_group(ROWS[i]) == group for i in idx)
        with collectives.calibrated(FOLDS[group]):
            again = V.evaluate([ROWS[idx[-1]]])[0]
        assert again.predicted == CV[idx[-1]].predicted, group
    # and a source's own rows never sit in two groups
    assert len({X.source_group(r) for r in ROWS}) == len(GROUPS)


def test_groups_are_one_source_page_and_gpu():
    # Bekman's page reports an H200 and a B200 cluster: two groups; CoreWeave's README an
    # H100 cluster and GB200 racks: two groups
    bekman = {X.source_group(r) for r in ROWS if r.series in ("SB1", "SB4", "SH", "SHR")}
    assert len(bekman) == 2
    cw = {X.source_group(r) for r in ROWS if r.series in ("CW1", "CW2", "CW20", "CWH")}
    assert len(cw) == 2


def test_calibrated_override_is_checked_and_restored():
    before = collectives.predict("all_reduce", MiB, "dgx-h100").time_s
    with collectives.calibrated({"LAUNCH_OVERHEAD": 0.0}):
        inside = collectives.predict("all_reduce", MiB, "dgx-h100").time_s
    assert collectives.predict("all_reduce", MiB, "dgx-h100").time_s == before
    # the launch overhead adds the same time to every candidate: the difference is it
    assert before - inside == pytest.approx(specs.calibration.LAUNCH_OVERHEAD.value)
    with pytest.raises(ValueError, match=r"^values names \['HOP_LATENCY'\], which are not calibrated"):
        with collectives.calibrated({"HOP_LATENCY": 1.0}):
            pass


# ------------------------------------------------------------------ the intervals
def test_intervals_cover_what_they_claim_on_sources_they_never_saw():
    # issue 37: 80 % intervals covering 75-88 % of the points of sources they never saw,
    # with a median width (high / low) of 1.6x or less; each regime covers 70 % or more
    held = X.held_out_intervals(CV)
    inside = [lo <= X.residual(r) <= hi for r, (lo, hi, _) in zip(CV, held)]
    width = [math.exp(hi - lo) for lo, hi, _ in held]
    assert 0.75 <= np.mean(inside) <= 0.88
    assert statistics.median(width) <= 1.6
    for name, _, _ in I.REGIMES:
        mine = [c for c, r in zip(inside, CV) if r.regime == name]
        assert np.mean(mine) >= 0.70, name
    assert X.covered(CV) == inside


def test_conformal_bounds_by_hand():
    # 19 residuals -1..+1 in steps of 1/9: a = 0.1, lo = floor(0.1 x 20) = 2nd smallest,
    # hi = ceil(0.9 x 20) = 18th smallest; at 90 %: a = 0.05, the 1st and the 19th
    r = [i / 9 for i in range(-9, 10)]
    assert I.conformal_bounds(r) == (pytest.approx(-8 / 9), pytest.approx(8 / 9))
    assert I.conformal_bounds(r, 0.9) == (pytest.approx(-1.0), pytest.approx(1.0))
    with pytest.raises(ValueError, match="^residuals is empty: a class needs at least one point$"):
        I.conformal_bounds([])


def test_prediction_carries_its_interval():
    p = collectives.predict("all_reduce", 8 * GiB, "dgx-h100", 8, 16)
    assert p.busbw_low < p.busbw < p.busbw_high
    sizes = np.array([1e3, 2e6, 1e9])
    q = collectives.predict("all_reduce", sizes, "gb200-nvl72", 72, 2)
    # the interval is where the measurement is expected: where the model errs one way in
    # every published point of a class it may exclude the model's own value, so only its
    # order is checked here
    assert np.all(q.busbw_low < q.busbw_high)
    assert q.busbw_low.shape == sizes.shape
    assert [k[0] for k in q.interval_class] == ["latency-bound", "transition",
                                                 "bandwidth-bound"]
    # the bounds are the stored class's: recomputed from the residuals of that class (a
    # Hopper cluster on InfiniBand has been measured: the 80 % class)
    classes = X.interval_classes(CV)
    (lo, hi, _), key = I.lookup(classes, "bandwidth-bound", True)
    assert p.interval_class == (key,) == (("bandwidth-bound", I.MEASURED),)
    assert p.busbw_low == pytest.approx(p.busbw * math.exp(lo))
    assert p.busbw_high == pytest.approx(p.busbw * math.exp(hi))
    assert collectives.nccl_estimate("all_reduce", GiB, "dgx-h100").busbw_low is None


def test_an_unmeasured_configuration_gets_the_wider_range():
    # no published source ran Hopper GPUs over GPUDirect-TCPXO... except Google's A3 Mega:
    # pick a pair the data lack instead, Ampere over RoCE, and compare with Ampere over EFA
    from interlib.specs import custom
    assert "Ampere, Ethernet" not in I.measured_configurations()
    assert "Ampere, EFA" in I.measured_configurations()
    new = collectives.predict("all_reduce", 8 * GiB, custom.node(
        "a100-sxm-80gb", 8, nics_per_node=4, nic_gbps=100, fabric="Ethernet"), 8, 2)
    seen = collectives.predict("all_reduce", 8 * GiB, custom.node(
        "a100-sxm-80gb", 8, nics_per_node=4, nic_gbps=100, fabric="EFA"), 8, 2)
    assert new.interval_class == (("bandwidth-bound", I.NOT_MEASURED),)
    assert seen.interval_class == (("bandwidth-bound", I.MEASURED),)
    assert new.busbw_high / new.busbw_low > seen.busbw_high / seen.busbw_low


def test_stored_intervals_are_those_of_the_cross_validated_points():
    stored = I.stored_classes()
    assert stored == {k: pytest.approx(v) for k, v in X.interval_classes(CV).items()}
    assert I.measured_configurations() == {X.configuration_of(r) for r in ROWS}
    stats = I.class_stats()
    again = X.interval_stats(CV)
    assert set(stats) == set(again)
    for k in stats:
        assert stats[k] == pytest.approx(again[k])


def test_describe_names_the_class_and_its_out_of_sample_record():
    p = collectives.predict("all_reduce", 8 * GiB, "dgx-h100", 8, 16)
    text = I.describe(p)
    st = I.class_stats()[("bandwidth-bound", I.MEASURED)]
    assert "bandwidth-bound sizes (256 MiB and above)" in text
    assert f"on {st['points']} points from {st['sources']} sources it never saw" in text
    assert text.count(".") >= 1 and "\n" not in text
    e = collectives.nccl_estimate("all_reduce", GiB, "dgx-h100", 8, 2)
    assert I.describe(e).startswith("This estimate has no range")
    with pytest.raises(ValueError, match="^prediction="):
        I.describe("not a prediction")


# ------------------------------------------------------------------ leaks fail loudly
def test_every_folds_fit_never_sees_its_own_source(monkeypatch):
    # issue 38 item 5: refit_all on three sources with the fit itself replaced by a spy:
    # each fold's training series hold no row of the fold's own source
    rows = [r for r in ROWS if r.series in ("V3", "AZG", "SB1")]
    seen = []

    def spy(series, values):
        seen.append({rows[i].id for s in series for i in s.idx})
        return dict(values)

    monkeypatch.setattr(X, "_fit_series", spy)
    out = X.refit_all(rows)
    assert len(seen) == 1 + len(out["folds"]) == 4
    assert seen[0] == {r.id for r in rows}  # the all-rows fit sees every row
    for (group, idx), ids in zip(X.folds(rows).items(), seen[1:]):
        own = {rows[i].id for i in idx}
        assert own and not own & ids, group
        assert ids == {r.id for r in rows} - own


def test_source_unseen_intervals_exclude_the_points_own_source(monkeypatch):
    # each point's "source unseen" interval is built from residuals of other sources only,
    # and its configuration counts as measured only if another source measured it
    calls = []
    real = X.interval_classes

    def spy(results):
        results = list(results)
        calls.append({X.source_group(r.measurement) for r in results})
        return real(results)

    monkeypatch.setattr(X, "interval_classes", spy)
    X.held_out_intervals(CV)
    groups = sorted(set(X.source_group(r.measurement) for r in CV))
    assert len(calls) == len(groups)
    for g, used in zip(dict.fromkeys(X.source_group(r.measurement) for r in CV), calls):
        assert g not in used and used == set(groups) - {g}


# ------------------------------------------------ invariants from published data
def test_ring_busbw_across_nodes_does_not_grow_with_nodes_in_the_data():
    # at a fixed size, a ring crosses every node boundary: published busbw of one source
    # and GPU count per node never rises with the node count (checked on the data first,
    # then on the model for the same configurations)
    groups: dict = {}
    for r in ROWS:
        if r.collective == "all_reduce" and r.algorithm == "ring" and r.nodes > 1:
            groups.setdefault((X.source_group(r), r.gpus_per_node, r.size_bytes),
                              []).append(r)
    for rs in groups.values():
        rs.sort(key=lambda r: r.nodes)
        assert all(a.busbw >= b.busbw * 0.98 for a, b in zip(rs, rs[1:]))
    for k in (2, 4, 8, 16, 32):
        a = collectives.predict("all_reduce", 8 * GiB, "dgx-h100", 8, k, "ring").busbw
        b = collectives.predict("all_reduce", 8 * GiB, "dgx-h100", 8, 2 * k, "ring").busbw
        assert b <= a


# ------------------------------------------------------------------------ ratchets
def _bucket(name):
    lo, hi = next((lo, hi) for n, lo, hi in V.SCALES if n == name)
    return [r for r in CV if lo <= r.measurement.total_gpus <= hi]


def _figures() -> dict:
    """Today's cross-validated figures that the ratchets hold."""
    out = {"median all": statistics.median(r.rel_error for r in CV),
           "median below 64 MiB": statistics.median(
               r.rel_error for r in CV if r.measurement.size_bytes < 64 * MiB)}
    for name, _, _ in V.SCALES:
        rs = _bucket(name)
        out[f"median {name}"] = statistics.median(r.rel_error for r in rs)
        big = [r.fold for r in rs if r.measurement.size_bytes >= MiB]
        out[f"worst fold >= 1 MiB {name}"] = max(big) if big else 1.0
    out["points >= 1 MiB off > 2x"] = sum(1 for r in CV if r.measurement.size_bytes >= MiB
                                          and r.fold > V.TARGET_FOLD)
    out["worst source median"] = max(statistics.median(CV[i].rel_error for i in idx)
                                     for idx in GROUPS.values())
    return out


RATCHETS = X.RATCHETS
"""Ceilings (``interlib.crossval.RATCHETS``): each figure over its target, at its value
when last moved plus a stated margin."""


@pytest.mark.parametrize("name", sorted(RATCHETS))
def test_ratchet(name):
    value, r = _figures()[name], RATCHETS[name]
    assert value <= r.ceiling, f"{name}: {value:.4g} is over its ceiling {r.ceiling:.4g}"
    # a ratchet only moves down, and a fall is a question before it is a gain: a held-out
    # source leaking into its own fold's fit makes figures fall too
    assert value >= r.value - r.margin, (
        f"{name}: {value:.4g} is well under its ceiling {r.ceiling:.4g} (set at {r.value:.4g}): "
        "investigate: a leak or a real gain? Run the leak tests of tests/test_crossval.py "
        "and read the change; if the gain is real, lower the ceiling in "
        "interlib.crossval.RATCHETS in the same commit, with why")


def test_every_ratchet_says_why_it_is_where_it_is():
    for name, r in RATCHETS.items():
        assert isinstance(r, X.Ratchet) and r.margin > 0, name
        assert len(r.why.split()) >= 5, name


def test_every_figure_over_target_has_a_ratchet():
    # issue 37's targets: 8 % overall, 12 % below 64 MiB, no point of 1 MiB or more off by
    # more than 2x; issue 25's: 15 % per GPU-count bucket
    figs = _figures()
    over = {n for n, _, _ in V.SCALES if figs[f"median {n}"] > 0.15}
    assert {f"median {n}" for n in over} <= set(RATCHETS)
    if figs["median all"] > 0.08:
        assert "median all" in RATCHETS
    if figs["median below 64 MiB"] > 0.12:
        assert "median below 64 MiB" in RATCHETS
    if figs["points >= 1 MiB off > 2x"]:
        assert "points >= 1 MiB off > 2x" in RATCHETS


def test_no_gross_miss_where_the_book_trusts_the_model():
    # Appendix A trusts the model on bandwidth-bound sizes up to 512 GPUs and from 4 MiB up
    # on one node: there no point is off by more than 2x and the median error stays under
    # 15 % (issue 24: a gross-miss guard over all sizes where the book trusts the model)
    trusted = X.trusted(CV)
    assert len(trusted) >= 100
    assert max(r.fold for r in trusted) <= V.TARGET_FOLD
    assert statistics.median(r.rel_error for r in trusted) < 0.15


def test_cross_validated_model_beats_nccls_estimate_per_bucket():
    # issue 37: ahead of NCCL's version-aware estimate (the tuner constants of each run's
    # release) on every GPU-count bucket, size band and size regime
    est = V.versus_nccl(CV)
    buckets = [(f"{n} GPUs", lambda r, lo=lo, hi=hi: lo <= r.measurement.total_gpus <= hi)
               for n, lo, hi in V.SCALES]
    buckets += [(name, lambda r, lo=lo, hi=hi: lo <= r.measurement.size_bytes < hi)
                for lo, hi, name in X.SIZE_BANDS]
    buckets += [(name, lambda r, name=name: r.regime == name) for name, _, _ in V.REGIMES]
    for name, member in buckets:
        mine = [(r.rel_error, abs(e - 1)) for r, e in zip(CV, est) if member(r)]
        assert statistics.median(a for a, _ in mine) < statistics.median(b for _, b in mine), name


def test_every_gross_miss_has_its_cause():
    # issue 37 item 6: each point of 1 MiB or more still off by more than 2x out of sample
    # is listed in Appendix A with its cause (interlib.crossval.KNOWN_MISSES); a new one
    # fails here until it is explained or fixed, and a cause whose series no longer misses
    # must go
    missed = {r.measurement.series for r in CV
              if r.measurement.size_bytes >= MiB and r.fold > V.TARGET_FOLD}
    assert missed == set(X.KNOWN_MISSES)
    table = X.known_misses(CV)
    assert "not yet explained" not in repr(table)
    assert sum(int(row[1]) for row in table.rows) == _figures()["points >= 1 MiB off > 2x"]
    assert len(table.rows) == len(missed)


def test_the_known_misses_say_what_the_numbers_say():
    # each cause's comparisons (crossval.KNOWN_MISSES), checked on the cross-validated points
    fold = {r.measurement.id: r.fold for r in CV}
    series = lambda name, lo=0, hi=float("inf"): [  # noqa: E731
        r for r in CV if r.measurement.series == name and lo <= r.measurement.size_bytes <= hi]
    # V3: within 10 % at 4 MiB; NCCL's estimate takes Ring/LL at 1 MiB on 8 A100s in every
    # release read
    assert fold["V3-03"] < 1.10 and series("V3", 4 * MiB, 4 * MiB)[0].measurement.id == "V3-03"
    for rel in T.TAGS:
        e = collectives.nccl_estimate("all_reduce", MiB, "dgx-a100", 8, 1, nccl_version=rel)
        assert (e.algorithm, e.protocol) == ("ring", "LL"), rel
    # A3M: 4 to 32 MiB optimistic, by at most 3x
    mid = series("A3M", 4 * MiB, 32 * MiB)
    assert len(mid) == 4 and all(1 < r.ratio and r.fold <= 3 for r in mid)
    # OG128: the racks' one-rack runs within 2x at every size; this run within 20 % from
    # 512 MiB up; several times slower (> 2x) at 1-16 MiB
    assert all(r.fold < 2 for r in series("OG64"))
    assert all(r.fold < 1.2 for r in series("OG128", 512 * MiB))
    assert all(r.fold > 2 and r.ratio > 1 for r in series("OG128", MiB, 16 * MiB))
    # AWK5 at 128 MiB: under half of AWP5's busbw at 128 MiB (same instances), while the
    # model gives the two runs the same busbw within 10 % (since AWS's stated 20 us EFA step
    # latency the model is 1.29x optimistic on AWP5 there: no longer "within 10 %" of it)
    awk5, awp5 = series("AWK5", 128 * MiB, 128 * MiB), series("AWP5", 128 * MiB, 128 * MiB)
    assert awk5[0].measurement.busbw < 0.5 * awp5[0].measurement.busbw
    assert awk5[0].predicted == pytest.approx(awp5[0].predicted, rel=0.10)
    assert {r.measurement.nccl_version for r in awk5 + awp5} == {"2.18.5", "2.20.3"}
    # OGA128: the same racks' one-rack all-to-all within 10 %
    assert all(r.fold < 1.10 for r in series("OGA64"))


def test_the_two_old_misses_are_explained():
    # issue 37: B200 4 x 8 at 1 MiB was 3.6x off, GB200 3 trays x 4 with the tree forced at
    # 16 GiB 2.7x; both within 2x now, out of sample
    by_id = {r.measurement.id: r for r in CV}
    assert by_id["SB4-06"].fold < 2.0 and by_id["N1801T-01"].fold < 1.25
