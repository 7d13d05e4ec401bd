"""Setting a run against the model (interlib.nccltests.comparison), rule by rule: the band
around a prediction, the verdict of a regime (the band, and the page's factor-of-two rule
at its exact edges), the note when the log's GPU is not the system's, the nearest published
runs by the documented distance, what is refused and in which words, and the in-place
columns. Ratios and percentages by hand; the published series are the shipped data
(interlib/data/nccl_measurements.csv), their distances by the docstring's rule.
"""
from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace as NS

import numpy as np
import pytest

from interlib import collectives, intervals, validation
from interlib.nccltests import NotModelled, Row, Run, compare, nearest_published
from interlib.nccltests import comparison as C
from interlib.specs import SYSTEMS, custom

FIX = Path(__file__).parent / "fixtures" / "nccltests"


# --------------------------------------------------------------------------------- band

def test_band_needs_an_interval():
    for p in (NS(busbw=[1.0]), NS(busbw=[1.0], busbw_low=None, busbw_high=[2.0]),
              NS(busbw=[1.0], busbw_low=[0.5], busbw_high=None)):
        with pytest.raises(ValueError) as e:
            C.band(p)
        assert str(e.value) == ("prediction has no interval (busbw_low/busbw_high): give a "
                                "result of interlib.collectives.predict, not nccl_estimate")


def test_band_needs_an_interval_even_without_the_attribute():
    with pytest.raises(ValueError, match=r"^prediction has no interval"):
        C.band(NS(busbw=[1.0], busbw_low=[0.5]))          # no busbw_high at all


def test_band_without_describe_and_of_whole_numbers(monkeypatch):
    """intervals.describe is optional: without it the band is said in the page's words,
    with the coverage in two significant digits (87.5 % is said 88 %); whole-number bounds
    come back as floats."""
    monkeypatch.delattr(intervals, "describe", raising=False)
    monkeypatch.setattr(intervals, "COVERAGE", 0.875)
    low, high, source = C.band(NS(busbw=[2, 3], busbw_low=[1, 2], busbw_high=(3, 4)))
    assert source == ("band: the model's 88 % prediction interval (out-of-sample error of "
                      "runs of the same size regime, GPU count and network)")
    assert low.dtype == float and high.dtype == float
    assert low.tolist() == [1.0, 2.0] and high.tolist() == [3.0, 4.0]


def test_band_source_in_words(monkeypatch):
    p = NS(busbw=[1.0, 2.0], busbw_low=[0.5, 1], busbw_high=(2, 4.0))
    monkeypatch.setattr(intervals, "describe", lambda pred: f"said of {pred.busbw}",
                        raising=False)
    low, high, source = C.band(p)
    assert low.dtype == float and high.dtype == float
    assert low.tolist() == [0.5, 1.0] and high.tolist() == [2.0, 4.0]
    assert source == "band: said of [1.0, 2.0]"
    monkeypatch.setattr(intervals, "describe", "not callable", raising=False)
    assert C.band(p)[2] == (f"band: the model's {C.fmt_pct(intervals.COVERAGE, 2)} prediction "
                            "interval (out-of-sample error of runs of the same size regime, "
                            "GPU count and network)")


# ------------------------------------------------------------------------------ verdict

def test_a_regime_below_or_above_the_band_by_how_much():
    v = C._verdict("r", [0.5, 0.6, 0.7], [0.8, 0.8, 0.9], [1.2, 1.3, 1.4])
    # median 0.6 under the band's median low 0.8: 1 - 0.6/0.8 = 25 %
    assert (v.regime, v.count, v.ratio, v.low, v.high, v.status, v.text, v.rule) == \
        ("r", 3, 0.6, 0.8, 1.3, "below", "below, 25 % under the band", "band")
    up = C._verdict("r", [1.5], [0.8], [1.2])          # 1.5 / 1.2 - 1 = 25 %
    assert (up.status, up.text, up.rule) == ("above", "above, 25 % over the band", "band")
    inside = C._verdict("r", [0.8, 1.2], [0.8], [1.2])  # median 1.0; edges count as inside
    assert (inside.status, inside.text) == ("within", "within the band")
    assert C._verdict("r", [0.8], [0.8], [1.2]).status == "within"
    assert C._verdict("r", [1.2], [0.8], [1.2]).status == "within"


def test_a_verdict_whole_and_its_two_digits():
    # 1 - 0.6 / 0.7 = 1/7 = 14.3 %: two significant digits, 14 %
    assert tuple(vars(C._verdict("r", [0.6], [0.7], [1.2])).values()) == (
        "r", 1, 0.6, 0.7, 1.2, "below", "below, 14 % under the band", "band")
    # medians 1.5, 0.8, 1.3: 1.5 / 1.3 - 1 = 15.4 %, said 15 %
    assert tuple(vars(C._verdict("r", [1.5, 1.6, 1.4], [0.8, 0.7, 0.9],
                                 [1.3, 1.2, 1.35])).values()) == (
        "r", 3, 1.5, 0.8, 1.3, "above", "above, 15 % over the band", "band")
    assert tuple(vars(C._verdict("w", [0.9, 1.1], [0.8, 0.8], [1.2, 1.2])).values()) == (
        "w", 2, 1.0, 0.8, 1.2, "within", "within the band", "band")
    # the factor-of-two rule's verdicts carry the same numbers
    slow = C._verdict("s", [0.4, 0.5], [0.1, 0.2], [8.0, 9.0])      # medians 0.45, 0.15, 8.5
    assert tuple(vars(slow).values())[:6] + (slow.rule,) == (
        "s", 2, 0.45, pytest.approx(0.15), 8.5, "below", "factor")
    fast = C._verdict("f", [2.0, 3.0, 2.5], [0.1] * 3, [9.0] * 3)
    assert tuple(vars(fast).values())[:6] + (fast.rule,) == (
        "f", 3, 2.5, 0.1, 9.0, "above", "factor")


def test_the_factor_of_two_rule_at_its_edges():
    assert C.SLOW_RATIO == 0.5
    wide = ([0.1], [9.0])
    half = C._verdict("r", [0.5], *wide)
    assert (half.status, half.rule) == ("below", "factor")
    assert half.text == ("below: at most half the model's busbw (a rule of this page, apart "
                         "from the band, which is wider here)")
    assert C._verdict("r", [0.5000001], *wide).status == "within"
    twice = C._verdict("r", [2.0], *wide)
    assert (twice.status, twice.rule) == ("above", "factor")
    assert twice.text == ("above: at least twice the model's busbw (a rule of this page, "
                          "apart from the band, which is wider here)")
    assert C._verdict("r", [1.9999999], *wide).status == "within"


# ---------------------------------------------------------------------------- GPU notes

def _run(device, vendor="NVIDIA"):
    return Run("all_reduce", 8, None, (), None, device=device, vendor=vendor)


def test_gpu_notes():
    h100, b200 = SYSTEMS["dgx-h100"], SYSTEMS["dgx-b200"]
    assert C._gpu_notes(_run(None), b200, "b200") == ()
    assert C._gpu_notes(_run("NVIDIA B200"), b200, "b200") == ()
    assert C._gpu_notes(_run("NVIDIA H100 80GB HBM3"), h100, "h100-sxm") == ()
    # the system's token among the name's words (a card the catalogue does not map)
    assert C._gpu_notes(_run("NVIDIA H100 PCIe"), h100, "h100-sxm") == ()
    assert C._gpu_notes(_run("NVIDIA-H100-PCIe"), h100, "h100-sxm") == ()
    # the catalogue's reading of the name decides first: underscores for spaces (a name
    # sanitised for a file) still name the H100 SXM, no note
    assert C._gpu_notes(_run("NVIDIA_H100_80GB_HBM3"), h100, "h100-sxm") == ()
    assert C._gpu_notes(_run("NVIDIA H100 80GB HBM3"), b200, "b200") == (
        "the log's GPUs are 'NVIDIA H100 80GB HBM3', the hardware compared against has "
        f"{b200.gpu.name}: the verdict is for that hardware",)
    # a pre-release name that names no GPU, or an unknown device of no known vendor
    unnamed = (f"which does not say which GPU they are: taken to be the {b200.gpu.name} of "
               "the hardware compared against")
    assert C._gpu_notes(_run("NVIDIA Graphics Device"), b200, "b200") == (
        f"the log names its GPUs 'NVIDIA Graphics Device', {unnamed}",)
    assert C._gpu_notes(_run(" nvidia graphics device "), b200, "b200")[0].startswith(
        "the log names its GPUs")
    assert C._gpu_notes(_run("Mystery X1", None), b200, "b200") == (
        f"the log names its GPUs 'Mystery X1', {unnamed}",)
    # an NVIDIA GPU the catalogue lacks: named, so it is another GPU
    assert C._gpu_notes(_run("NVIDIA L40S"), b200, "b200")[0].startswith(
        "the log's GPUs are 'NVIDIA L40S'")
    # a name with a catalogue token of another GPU, vendor unknown: another GPU too
    assert C._gpu_notes(_run("GH200 H100 thing", None), b200, "b200")[0].startswith(
        "the log's GPUs are")
    # a GPU outside the catalogue's tokens: no note
    assert C._gpu_notes(_run("NVIDIA H100"), h100, "") == ()


def test_gpu_id_of_a_system():
    assert C._gpu_id(SYSTEMS["dgx-h100"]) == "h100-sxm"
    assert C._gpu_id(custom.node("b200", 8)) == "b200"
    assert C._gpu_id(NS(gpu=object())) == ""
    # a GPU equal to a catalogue one but not the same object (a copy, as a node unpickled
    # or built from a copied spec has): still that GPU
    import copy

    from interlib.specs import GPUS
    twin = copy.deepcopy(GPUS["b200"])
    assert twin is not GPUS["b200"] and twin == GPUS["b200"]
    assert C._gpu_id(custom.node(twin, 8)) == "b200"


# -------------------------------------------------------------------- published runs

def _distance(m, gpu, gpus, nodes, fabric, collective):
    """The docstring's rule, term by term."""
    return (2.0 * (m.gpu != gpu) + 3.0 * (m.collective != collective)
            + 1.0 * ((m.nodes > 1) != (nodes > 1))
            + 0.5 * (validation.fabric_kind(m.fabric) != fabric)
            + 0.5 * abs(math.log2(m.total_gpus / gpus)))


def test_nearest_published_is_the_same_run_first():
    """Google's A3 Mega run (H100, 2 x 8, GPUDirect-TCPXO) looked up by its own hardware is
    at distance 0; the others follow by the rule, nearest first."""
    got = nearest_published("h100-sxm", 16, 2, "GPUDirect-TCPXO", "all_reduce", count=5)
    assert len(got) == 5 and got[0].series == "A3M" and got[0].distance == 0.0
    a3m = [m for m in validation.load_measurements() if m.series == "A3M"]
    assert got[0].sizes == tuple(sorted(m.size_bytes for m in a3m))
    assert got[0].busbw == tuple(b for _, b in sorted((m.size_bytes, m.busbw) for m in a3m))
    assert (got[0].gpu, got[0].gpus_per_node, got[0].nodes, got[0].fabric) == \
        ("h100-sxm", 8, 2, a3m[0].fabric)
    assert [p.distance for p in got] == sorted(p.distance for p in got)
    first = {m.series: m for m in reversed(validation.load_measurements())}
    for p in got:
        assert p.distance == _distance(first[p.series], "h100-sxm", 16, 2, "GPUDirect-TCPXO",
                                       "all_reduce")
        assert (p.source, p.url) == (first[p.series].source, first[p.series].url)


def test_each_term_of_the_distance():
    base = ("h100-sxm", 16, 2, "GPUDirect-TCPXO", "all_reduce")

    def d(**over):
        args = dict(zip(("gpu", "gpus", "nodes", "fabric", "collective"), base)) | over
        return next(p.distance for p in nearest_published(**args, count=50)
                    if p.series == "A3M")
    assert d() == 0.0
    assert d(gpu="b200") == 2.0
    assert d(collective="all_gather") == 3.0
    assert d(nodes=1, gpus=16) == 1.0
    assert d(fabric="InfiniBand") == 0.5
    assert d(gpus=32) == 0.5 and d(gpus=64) == 1.0 and d(gpus=8) == 0.5


def test_a_one_node_series_is_at_distance_0_from_its_own_hardware():
    """The distance's node term compares 'crosses nodes' both ways: a one-node series (the
    first in the shipped data) looked up by its own GPU, GPU count, one node, network and
    collective is at 0; as two nodes, 1."""
    first = {}
    for m in validation.load_measurements():
        first.setdefault(m.series, m)
    m = next(x for x in first.values() if x.nodes == 1)
    args = (m.gpu, m.total_gpus, 1, validation.fabric_kind(m.fabric), m.collective)
    got = {p.series: p.distance for p in nearest_published(*args, count=50)}
    assert got[m.series] == 0.0
    two = (m.gpu, m.total_gpus, 2, validation.fabric_kind(m.fabric), m.collective)
    assert {p.series: p.distance for p in nearest_published(*two, count=50)}[m.series] == 1.0
    # a one-GPU run is a run too
    assert len(nearest_published("h100-sxm", 1, 1, "InfiniBand", "all_reduce")) == 3


def test_nearest_published_count_and_refusals():
    assert len(nearest_published("h100-sxm", 8, 1, "InfiniBand", "all_reduce")) == 3
    assert len(nearest_published("h100-sxm", 8, 1, "InfiniBand", "all_reduce", count=1)) == 1
    for kw, name in (({"gpus": 0}, "gpus"), ({"nodes": 0}, "nodes"), ({"count": 0}, "count"),
                     ({"count": 51}, "count")):
        args = dict(gpu="h100-sxm", gpus=8, nodes=1, fabric="InfiniBand",
                    collective="all_reduce") | kw
        with pytest.raises(ValueError, match=f"^{name}="):
            nearest_published(**args)


def test_ties_prefer_the_longer_series():
    got = nearest_published("b200", 8, 1, "InfiniBand", "all_reduce", count=50)
    for a, b in zip(got, got[1:]):
        assert (a.distance, -len(a.sizes)) <= (b.distance, -len(b.sizes))


# --------------------------------------------------------------------------- compare

def _rows(times_out, times_in=None, sizes=None):
    sizes = sizes or [2**20 * 4**i for i in range(len(times_out))]
    times_in = times_in or times_out
    return tuple(Row(s, to, 1.0, 1.0, 0, ti, 1.0, 1.0, 0)
                 for s, to, ti in zip(sizes, times_out, times_in))


def test_compare_refusals_in_words():
    run = Run("all_reduce", 8, None, _rows([1e-4, 2e-4]), None, 1, 8)
    with pytest.raises(ValueError) as e:
        compare(Run(None, 8, None, run.rows, None), "dgx-h100")
    assert str(e.value) == ("the log does not say which collective it measured: give "
                            "collective= to parse (e.g. 'all_reduce')")
    # a run whose columns fit two collectives says which (nccl#1184's 2-rank SIMPLE run:
    # 'sum -1' and busbw = algbw fit a 2-rank all-reduce and a sendrecv alike): from the
    # Run's candidates, not from the words of its notes
    fits = Run(None, 2, None, run.rows, None, candidates=("all_reduce", "sendrecv"))
    with pytest.raises(ValueError) as e:
        compare(fits, "dgx-h100")
    assert str(e.value) == ("the log does not say which collective it measured (the columns "
                            "fit all_reduce and sendrecv alike): give collective= to parse "
                            "(e.g. 'all_reduce')")
    worded = Run(None, 2, None, run.rows, None, notes=(
        "the columns fit all_gather and all_to_all alike: say which with collective=",))
    with pytest.raises(ValueError) as e:
        compare(worded, "dgx-h100")
    assert str(e.value) == ("the log does not say which collective it measured: give "
                            "collective= to parse (e.g. 'all_reduce')")
    with pytest.raises(ValueError) as e:
        compare(Run("all_reduce", 8, None, _rows([1e-4], sizes=[0]), None), "dgx-h100")
    assert str(e.value) == "the run has no size above 0 bytes to compare"
    with pytest.raises(ValueError) as e:
        compare(Run("all_reduce", 8, None, _rows([1e-4, 0.0]), None), "dgx-h100")
    assert str(e.value) == "the run has a size with a time of 0 us: nothing to compare"
    with pytest.raises(ValueError) as e:
        compare("log", "dgx-h100")
    assert str(e.value) == "run='log' must be a Run from interlib.nccltests.parse"
    with pytest.raises(ValueError, match="^in_place="):
        compare(run, "dgx-h100", in_place="yes")


def test_a_collective_outside_the_model_is_read_then_refused():
    run = Run("sendrecv", 8, None, _rows([1e-4, 2e-4]), None)
    with pytest.raises(NotModelled) as e:
        compare(run, "dgx-h100")
    assert e.value.run is run
    assert str(e.value).endswith(
        "Not modelled: the model does not predict sendrecv (it covers "
        + ", ".join(collectives.COLLECTIVES) + "), so there is no verdict for it.")
    # the rows' printed busbw (1 byte/s here) at the largest size
    assert str(e.value).startswith(f"Read exactly: 2 sizes on 8 ranks, busbw {C.fmt_rate(1.0)}"
                                   " at the largest size (out-of-place).")
    one = Run("gather", None, None, _rows([1e-4]), None)
    with pytest.raises(NotModelled) as e:
        compare(one, "dgx-h100")
    assert str(e.value).startswith(f"Read exactly: 1 size, busbw {C.fmt_rate(1.0)} at the "
                                   "largest size (out-of-place). Not modelled: ")


def test_an_amd_device_without_a_vendor_is_refused_as_amd():
    run = Run("all_reduce", 8, None, _rows([1e-4]), None, device="AMD Instinct MI300X")
    with pytest.raises(NotModelled, match="Not modelled: this is an AMD Instinct run"):
        compare(run, "dgx-h100")


def _amd_refusal(read: str, kind: str, summary: str) -> str:
    """The AMD refusal whole, typed once from the message's design: what was read, that it
    is AMD (Instinct when the GPU is named so), the catalogue's AMD summary, the busbw note."""
    return (f"Read exactly: {read} at the largest size (out-of-place). Not modelled: this is "
            f"{kind} (RCCL), and the book's collective model covers NVIDIA NVLink systems "
            "only, so there is no verdict. " + summary + " The bus bandwidth rccl-tests "
            "prints uses the nccl-tests formula, so it compares directly with other runs of "
            "the same GPU, collective and GPU count.")


# ROCm/rccl#2075 (https://github.com/ROCm/rccl/pull/2075, ChihayaK): rccl-tests'
# broadcast_perf on a Strix Halo APU (gfx1151, a Radeon, not an Instinct), pasted as rows and
# the summary; only rccl-tests prints the 'Errors with asterisks' line (ROCm/rccl-tests
# src/common.cu:1424; no commit of NVIDIA/nccl-tests has it). Three of its rows, as published.
RCCL2075 = (
    "      262144         65536     float    none       0    43.00    6.10    6.10      0    42.86    6.12    6.12      0\n"
    "    67108864      16777216     float    none       0   9407.6    7.13    7.13      0   9352.9    7.18    7.18      0\n"
    "   134217728      33554432     float    none       0    18781    7.15    7.15      0    18756    7.16    7.16      0\n"
    "# Errors with asterisks indicate errors that have exceeded the maximum threshold.\n"
    "# Out of bounds values : 0 OK\n"
    "# Avg bus bandwidth    : 3.41227\n"
    "#\n"
    "# Collective test concluded: broadcast_perf\n")


def test_an_rccl_tests_paste_naming_no_gpu_is_refused_as_amd_without_saying_instinct():
    """Before session 6 this paste was taken for an NVIDIA run (asked for its rank count,
    then compared with DGX H100); it is AMD by rccl-tests' own line, and the refusal does
    not call an unnamed GPU an Instinct."""
    from interlib.nccltests import parse
    from interlib.nccltests.vendors import amd_summary

    run = parse(RCCL2075)
    assert (run.vendor, run.collective, run.device) == ("AMD", "broadcast", None)
    with pytest.raises(NotModelled) as e:
        compare(run, "dgx-h100")
    assert str(e.value) == _amd_refusal(f"3 sizes, busbw {C.fmt_rate(7.15e9)}",
                                        "an AMD run", amd_summary(None))
    # the same rows without that line say nothing of the vendor: not refused as AMD
    plain = parse(RCCL2075.replace(RCCL2075.splitlines()[3] + "\n", ""))
    assert plain.vendor is None


@pytest.mark.parametrize("device, kind", [
    ("AMD Instinct MI300X", "an AMD Instinct run"),
    ("AMD Instinct", "an AMD Instinct run"),        # named Instinct, no MI number
    ("AMD MI250X", "an AMD Instinct run"),          # an MI number, not the word
    ("AMD Radeon Graphics", "an AMD run"),          # a Radeon APU (ROCm/rccl#2075's kind)
    (None, "an AMD run")])
def test_an_amd_refusal_says_instinct_only_of_a_gpu_named_so(device, kind):
    run = Run("all_reduce", 8, None, _rows([1e-4]), None, device=device, vendor="AMD")
    with pytest.raises(NotModelled) as e:
        compare(run, "dgx-h100")
    assert f"Not modelled: this is {kind} (RCCL)," in str(e.value)


def test_measured_busbw_is_nccl_tests_formula_on_either_column():
    """busbw = size / time x 2 (n - 1) / n for an all_reduce (nccl-tests PERFORMANCE.md);
    in_place reads the in-place time."""
    sizes = [2**24, 2**28]
    run = Run("all_reduce", 8, None, _rows([1e-3, 1e-2], [2e-3, 3e-2], sizes), None, 1, 8)
    out = compare(run, "dgx-h100")
    assert out.measured.tolist() == pytest.approx([2**24 / 1e-3 * 1.75, 2**28 / 1e-2 * 1.75],
                                                  rel=1e-12)
    inp = compare(run, "dgx-h100", in_place=True)
    assert inp.measured.tolist() == pytest.approx([2**24 / 2e-3 * 1.75, 2**28 / 3e-2 * 1.75],
                                                  rel=1e-12)
    pred = collectives.predict("all_reduce", np.array(sizes, dtype=float), "dgx-h100", 8, 1)
    assert out.predicted.tolist() == pytest.approx(list(pred.busbw), rel=1e-12)
    assert (out.gpus_per_node, out.nodes, out.system, out.collective) == \
        (8, 1, SYSTEMS["dgx-h100"].title, "all_reduce")
    assert [v.regime for v in out.verdicts] == sorted(
        set(intervals.regime_names(np.array(sizes, dtype=float))),
        key=[r[0] for r in intervals.REGIMES].index)
    assert out.assumed == () and compare(run, "dgx-h100", assumed=["x"]).assumed == ("x",)


def test_an_amd_run_refused_in_full():
    """hisohara/ai-scripts' MI300X run (rccl-tests, 8 ranks, 31 sizes, 315.69 GB/s busbw
    out-of-place at 8 GiB): the refusal whole, with the AMD entry's summary."""
    from interlib.nccltests import parse
    from interlib.nccltests.vendors import amd_summary

    run = parse(FIX.joinpath("amd_mi300x_1x8_all_reduce_k8s.log").read_text())
    with pytest.raises(NotModelled) as e:
        compare(run, "dgx-h100")
    assert str(e.value) == _amd_refusal(
        f"31 sizes on 8 ranks, busbw {C.fmt_rate(315.69e9)}", "an AMD Instinct run",
        amd_summary("AMD Instinct MI300X"))


def test_a_catalogue_gpu_is_not_refused_as_amd_for_a_word_in_its_name():
    """The AMD rule reads the device name only when the catalogue does not know it: an
    H100 whose device text also says AMD (the host's CPU, say) is compared."""
    run = Run("all_reduce", 8, None, _rows([1e-4, 2e-4]), None, 1, 8,
              device="NVIDIA H100 80GB HBM3 (AMD EPYC host)")
    assert compare(run, "dgx-h100").verdicts


def test_compare_passes_its_choices_to_the_model_and_the_published_runs():
    """algorithm= and nvls= reach the prediction; the published runs are the nearest by
    the system's GPU, the run's GPU count, node count, network and collective; rows of 1
    byte are compared (only 0-byte rows are dropped)."""
    sizes = [1, 2**24, 2**28]
    run = Run("all_reduce", 8, None, _rows([1e-5, 1e-3, 1e-2], sizes=sizes), None, 1, 8)
    S = np.array(sizes, dtype=float)
    for kw in ({"algorithm": "ring"}, {"nvls": False}):
        out = compare(run, "dgx-h100", **kw)
        assert out.sizes.tolist() == sizes
        want = collectives.predict("all_reduce", S, "dgx-h100", 8, 1, **kw).busbw
        assert out.predicted.tolist() == pytest.approx(list(want), rel=1e-12)
    for kw in ({"algorithm": "ring"}, {"nvls": False}):     # each changes the prediction
        assert compare(run, "dgx-h100", **kw).predicted.tolist() != pytest.approx(
            list(compare(run, "dgx-h100").predicted), rel=1e-6)
    assert compare(run, "dgx-h100").published == nearest_published(
        "h100-sxm", 8, 1, "InfiniBand", "all_reduce")
    two = Run("all_gather", 16, None, _rows([1e-3, 1e-2], sizes=sizes[1:]), None, 2, 8)
    assert compare(two, "gb200-nvl72", 8, 2).published == nearest_published(
        "gb200", 16, 2, "InfiniBand", "all_gather")


def test_a_run_without_rows_gets_a_message_not_a_traceback():
    """A Run built by hand with no sizes (parse never returns one): compare says there is
    nothing to compare, and an AMD run is still refused in words, "0 sizes" read."""
    with pytest.raises(ValueError, match="^the run has no size above 0 bytes to compare$"):
        compare(Run("all_reduce", 8, None, (), None), "dgx-h100")
    with pytest.raises(NotModelled) as e:
        compare(_run("AMD Instinct MI300X", vendor="AMD"), "dgx-h100")
    assert str(e.value).startswith("Read exactly: 0 sizes on 8 ranks. Not modelled: this is "
                                   "an AMD Instinct run (RCCL)")
