"""The size-regime classifier is defined once (issue 38 item 3), in ``interlib.intervals``,
and its boundaries are those the book states: below 1 MiB latency-bound, from 1 MiB to
256 MiB the transition, from 256 MiB bandwidth-bound (Appendix A). Moving a boundary by one
size moves every interval and verdict of that size, so each boundary is pinned here with a
size exactly on it and one byte either side.
"""

import ast
from pathlib import Path

import numpy as np
import pytest

from interlib import collectives, intervals as I, validation as V
from interlib.units import GiB, KiB, MiB

# (size, regime) by hand from the book's regimes: [0, 1 MiB), [1 MiB, 256 MiB), [256 MiB, inf)
BY_HAND = [
    (1, "latency-bound"), (8, "latency-bound"), (32 * KiB, "latency-bound"),
    (MiB - 1, "latency-bound"), (MiB, "transition"), (MiB + 1, "transition"),
    (64 * MiB, "transition"), (256 * MiB - 1, "transition"), (256 * MiB, "bandwidth-bound"),
    (256 * MiB + 1, "bandwidth-bound"), (16 * GiB, "bandwidth-bound")]


@pytest.mark.parametrize("size, name", BY_HAND)
def test_each_boundary_exactly_and_one_byte_either_side(size, name):
    assert I.regime(size) == name
    assert I.regime_names([size]).tolist() == [name]
    assert V.regime(size) == name


def test_the_regimes_are_the_books_three_in_order():
    assert [r[0] for r in I.REGIMES] == ["latency-bound", "transition", "bandwidth-bound"]
    assert [(lo, hi) for _, lo, hi in I.REGIMES] == [(0.0, MiB), (MiB, 256 * MiB),
                                                      (256 * MiB, float("inf"))]
    # contiguous: every positive size has exactly one regime
    for (_, _, hi), (_, lo, _) in zip(I.REGIMES, I.REGIMES[1:]):
        assert hi == lo


def test_arrays_keep_their_shape_and_scalars_give_a_str():
    sizes = np.array([[KiB, MiB], [GiB, 300 * MiB]])
    assert I.regime(sizes).tolist() == [["latency-bound", "transition"],
                                        ["bandwidth-bound", "bandwidth-bound"]]
    assert isinstance(I.regime(MiB), str)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "1 MiB", [1, 0]])
def test_bad_sizes_are_refused_by_name(bad):
    with pytest.raises(ValueError, match="^size_bytes="):
        I.regime(bad)


def test_validation_regime_is_the_same_classifier():
    # one definition: validation's name is intervals' function itself, and validation's
    # REGIMES and SCALES are intervals' objects
    assert V.regime is I.regime
    assert V.REGIMES is I.REGIMES and V.SCALES is I.SCALES


def test_no_other_module_classifies_sizes():
    # no other interlib module defines a regime classifier or its own boundary table: a
    # function named like one, or a module-level REGIMES assigned a literal
    root = Path(I.__file__).resolve().parent
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "intervals.py" and path.parent == root:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in ("regime", "regime_names"):
                offenders.append(f"{path.name}: def {node.name}")
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Tuple, ast.List)) \
                    and any(isinstance(t, ast.Name) and t.id == "REGIMES"
                            for t in node.targets):
                offenders.append(f"{path.name}: REGIMES = a literal table")
    assert offenders == []


def test_a_prediction_at_a_boundary_takes_the_upper_regimes_interval():
    # the 16-node DGX H100 run at 256 MiB of issue 38: its interval is the bandwidth-bound
    # class's, and one byte less the transition class's
    at = collectives.predict("all_reduce", 256 * MiB, "dgx-h100", 8, 16)
    below = collectives.predict("all_reduce", 256 * MiB - 1, "dgx-h100", 8, 16)
    assert at.interval_class is not None  # the package ships its intervals (crossval.json)
    assert at.interval_class[0][0] == "bandwidth-bound"
    assert below.interval_class[0][0] == "transition"


def _record(st):
    # the out-of-sample record as the sentence words it, from the stored class statistics
    from interlib import display

    return (f": on {st['points']} points from {st['sources']} sources it never saw, such "
            f"ranges held {display.fmt_pct(st['coverage'], 2)} of the measurements with a "
            f"median width of {display.fmt_ratio(st['width'], 3)}")


def test_describe_words_every_class_of_a_prediction_whole():
    """The sentence, whole, for a measured configuration over two regimes (one clause per
    class, in the sizes' order, joined by '; and for ') and for an unmeasured one (the wider
    range said, with its percentage)."""
    from interlib.specs import custom

    stats = I.class_stats()
    head = "The range comes from the model's out-of-sample errors on published runs of "
    p = collectives.predict("all_reduce", np.array([64 * KiB, 8 * GiB]), "dgx-h100", 8, 16)
    assert p.interval_class == (("latency-bound", I.MEASURED), ("bandwidth-bound", I.MEASURED))
    measured = "on a GPU and network that published runs have measured"
    assert I.describe(p) == (
        head + f"latency-bound sizes (below 1 MiB) {measured}"
        + _record(stats[("latency-bound", I.MEASURED)])
        + f"; and for bandwidth-bound sizes (256 MiB and above) {measured}"
        + _record(stats[("bandwidth-bound", I.MEASURED)]) + ".")
    # a B200 node on Google's TCPXO: no published run measured that pair
    node = custom.node("b200", 8, fabric="GPUDirect-TCPXO")
    q = collectives.predict("all_reduce", np.array([16 * MiB, 16 * MiB]), node, 8, 4)
    assert q.interval_class == (("transition", I.NOT_MEASURED),) * 2
    assert I.describe(q) == (
        head + "transition sizes (1 MiB to 256 MiB) on a GPU and network no published run "
        "has measured, so a wider 90 % range" + _record(stats[("transition", I.NOT_MEASURED)])
        + ".")                                         # one clause for the repeated class


def test_describe_of_a_class_over_all_sizes_without_a_record():
    """A class pooled over every size (the key without a regime, used when a regime's class
    has too few points) reads 'all sizes'; a class with no stored record gets no numbers."""
    from types import SimpleNamespace

    assert (I.MEASURED,) in I.stored_classes() and (I.MEASURED,) not in I.class_stats()
    pooled = SimpleNamespace(interval_class=((I.MEASURED,), (I.NOT_MEASURED,)), busbw_low=None)
    assert I.describe(pooled) == (
        "The range comes from the model's out-of-sample errors on published runs of all sizes "
        "on a GPU and network that published runs have measured; and for all sizes on a GPU "
        "and network no published run has measured, so a wider 90 % range.")
    none = SimpleNamespace(interval_class=None, busbw_low=None)
    assert I.describe(none) == ("This estimate has no range: ranges come with "
                                "collectives.predict, from the model's cross-validated errors "
                                "on published runs.")
    # an object with intervals but no busbw_low, or no interval_class, is refused
    for bad in (SimpleNamespace(interval_class=None), SimpleNamespace(busbw_low=1.0)):
        with pytest.raises(ValueError, match=r"^prediction=namespace\(.*must be a "
                                             r"collectives\.Prediction$"):
            I.describe(bad)


def test_suspended_hides_the_stored_intervals_and_gives_them_back():
    # crossval.write refits inside it: predictions carry no range, the file is not read
    before = (I.stored_classes(), I.class_stats(), I.measured_configurations())
    assert before[0] and before[1] and before[2]
    with I.suspended():
        assert (I.stored_classes(), I.class_stats(), I.measured_configurations()) == \
            ({}, {}, frozenset())
        p = collectives.predict("all_reduce", GiB, "dgx-h100", 8, 2)
        assert p.busbw_low is None and p.busbw_high is None and p.interval_class is None
        with I.suspended():  # nested: still none after the inner one ends
            pass
        assert I.stored_classes() == {}
    assert (I.stored_classes(), I.class_stats(), I.measured_configurations()) == before
    assert collectives.predict("all_reduce", GiB, "dgx-h100", 8, 2).busbw_low is not None
