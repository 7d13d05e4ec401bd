"""transfer, scaling, hierarchy, display, widgets: hand derivations, published order
statistics, invariants and bad input."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import collectives, display, hierarchy, scaling, transfer, units as u, widgets
from interlib.book import errata

SETTINGS = settings(max_examples=60, deadline=None)


# ---------------------------------------------------------------------- transfer
def test_transfer_time_hand():
    # 1 GB at 50 GB/s = 20 ms; plus 10 us latency; at 80 % efficiency 25 ms
    assert transfer.transfer_time(1 * u.GB, 50 * u.GB_per_s) == pytest.approx(0.02)
    assert transfer.transfer_time(1 * u.GB, 50 * u.GB_per_s, 10 * u.us) == pytest.approx(0.02001)
    assert transfer.transfer_time(1 * u.GB, 50 * u.GB_per_s, 0, 0.8) == pytest.approx(0.025)


@SETTINGS
# Latency: none, or 1 ns .. 1 ms. (A subnormal latency such as 5e-324 s makes the
# half-bandwidth size a few ulps of a byte, where float rounding, not the model, decides.)
@given(bw=st.floats(1e6, 1e13), lat=st.one_of(st.just(0.0), st.floats(1e-9, 1e-3)),
       eff=st.floats(0.01, 1))
def test_effective_bandwidth_limits(bw, lat, eff):
    big = transfer.effective_bandwidth(1e18, bw, lat, eff)
    assert big == pytest.approx(eff * bw, rel=1e-3)
    half = transfer.half_bandwidth_size(bw, lat, eff)
    if half > 0:
        assert transfer.effective_bandwidth(half, bw, lat, eff) == pytest.approx(eff * bw / 2)


def test_transfer_vectorised_and_monotone():
    s = np.logspace(0, 12, 50)
    t = transfer.transfer_time(s, 1e10, 1e-6)
    assert t.shape == s.shape and np.all(np.diff(t) > 0)


def test_shared_uplink():
    # 4 GPUs behind one x16 uplink: each gets a quarter when the uplink is the bottleneck
    assert transfer.shared_uplink_bandwidth(4, 64e9, 64e9) == pytest.approx(16e9)
    assert transfer.shared_uplink_bandwidth(1, 64e9, 32e9) == pytest.approx(32e9)


@pytest.mark.parametrize("call,param", [
    (lambda: transfer.transfer_time(-1, 1e9), "size_bytes=-1"),
    (lambda: transfer.transfer_time(1, 0), "bandwidth=0"),
    (lambda: transfer.transfer_time(1, 1e9, -1e-6), "latency=-1e-06"),
    (lambda: transfer.transfer_time(1, 1e9, 0, 1.5), "efficiency=1.5"),
    (lambda: transfer.transfer_time(math.nan, 1e9), "size_bytes=nan"),
    (lambda: transfer.effective_bandwidth(0, 1e9), "size_bytes=0"),
    (lambda: transfer.shared_uplink_bandwidth(0, 1e9, 1e9), "devices=0"),
    (lambda: transfer.half_bandwidth_size(1e9, -1), "latency=-1"),
])
def test_transfer_bad_input(call, param):
    with pytest.raises(ValueError) as e:
        call()
    assert re.match(param, str(e.value)), str(e.value)  # the name= form leads


# ----------------------------------------------------------------------- scaling
def test_gradient_bytes():
    assert scaling.gradient_bytes(70e9, 2) == pytest.approx(140e9)  # facts.md 4a: bf16
    assert scaling.gradient_bytes(70e9, 4) == pytest.approx(280e9)  # the seed's fp32 figure


def test_70b_gradient_sync_done_right():
    # facts.md 4a: 1.75 x 140 GB / 370 GB/s ~ 0.66 s (ring); 1.75 x 140 / 480 ~ 0.51 s (NVLS)
    assert scaling.gradient_sync_time(70e9, 8) == pytest.approx(0.66, rel=0.05)
    assert scaling.gradient_sync_time(70e9, 8, algorithm="nvls") == pytest.approx(0.51, rel=0.05)


def test_ring_sync_time_uses_the_link():
    # ring over PCIe 5 achieved (51/63 x 63.02 GB/s = 51 GB/s): 1.75 x 140e9 / 51e9 ~ 4.8 s
    # facts.md 4a: "PCIe Gen5 at ~50-55 GB/s achieved: ~4.5-4.9 s"
    t = scaling.ring_sync_time(70e9, 8, "PCIe 5.0 x16")
    assert 4.5 <= t <= 4.9


def test_expected_max_of_normals_known_values():
    assert scaling.expected_max_standard_normal(1) == pytest.approx(0, abs=1e-9)
    assert scaling.expected_max_standard_normal(2) == pytest.approx(1 / math.sqrt(math.pi))
    # Harter (1961) tables of normal order statistics: n=10 -> 1.53875, n=100 -> 2.50759
    assert scaling.expected_max_standard_normal(10) == pytest.approx(1.53875, abs=1e-4)
    assert scaling.expected_max_standard_normal(100) == pytest.approx(2.50759, abs=1e-4)


@SETTINGS
@given(n=st.integers(1, 10**6))
def test_expected_max_grows_slower_than_sqrt_2lnn(n):
    e = scaling.expected_max_standard_normal(n)
    assert e <= math.sqrt(2 * math.log(n)) + 1e-9


def test_no_jitter_no_straggler_cost():
    assert scaling.expected_step_time(10000, 1.0, 0.0) == pytest.approx(1.0)


def test_simulation_agrees_with_the_formula():
    t = scaling.expected_step_time(64, 1.0, 0.05)
    assert scaling.simulated_step_time(64, 1.0, 0.05) == pytest.approx(t, rel=0.01)


def test_straggler_samples_are_seeded():
    a = scaling.straggler_samples(8, 1.0, 0.1, 10, seed=3)
    b = scaling.straggler_samples(8, 1.0, 0.1, 10, seed=3)
    assert np.array_equal(a, b) and a.shape == (10, 8)


def test_parallelism_traffic_hand():
    # params 1e9, 2 layers, h=4, s=3, mb=1, bf16 (2 B): act = 1*3*4*2 = 24 B
    # DP=2, TP=2: shard 1e9/2 params x 2 B = 1e9 B, times 2*(2-1)/2 = 1 -> 1e9 B
    # TP=2 (pp=1): 2 layers * 4 all-reduces * 2*(1/2) * 24 B = 192 B
    tr = scaling.parallelism_traffic(1e9, 2, 4, 3, 1, 1, tp=2, pp=1, dp=2)
    assert tr.dp == pytest.approx(1e9)
    assert tr.tp == pytest.approx(192)
    assert tr.pp == 0
    tr2 = scaling.parallelism_traffic(1e9, 2, 4, 3, 1, 5, tp=1, pp=2, dp=1)
    assert tr2.dp == 0 and tr2.tp == 0 and tr2.pp == pytest.approx(2 * 24 * 5)


@pytest.mark.parametrize("call,param", [
    (lambda: scaling.gradient_bytes(0), "params=0"),
    (lambda: scaling.gradient_bytes(1e9, 3), "bytes_per_param=3"),
    (lambda: scaling.expected_step_time(0, 1, 0.1), "n_gpus=0"),
    (lambda: scaling.expected_step_time(8, 1, 0.9), "jitter=0.9"),
    (lambda: scaling.straggler_samples(8, 1, 0.1, 0), "steps=0"),
    (lambda: scaling.parallelism_traffic(1e9, 4, 8, 8, 1, tp=0), "tp=0"),
    (lambda: scaling.parallelism_traffic(1e9, 4, 8, 8, 1, pp=8), "pp=8"),
    (lambda: scaling.model("llama-70b"), "name='llama-70b' .*did you mean 'llama-3-70b'"),
    (lambda: scaling.ring_sync_time(1e9, 8, "NVlink 4"), "link='NVlink 4' .*did you mean 'NVLink 4'"),
    (lambda: scaling.ring_sync_time(1e9, 8, "PCIe"), "link='PCIe'"),
    (lambda: scaling.ring_sync_time(1e9, 8, 42), "link=42"),
    (lambda: scaling.ring_sync_time(1e9, 8, None), "link=None"),
    (lambda: scaling.ring_sync_time(1e9, 8, "NVLink 4", achieved="yes"), "achieved='yes'"),
    (lambda: scaling.ring_sync_time(1e9, 8, "NVLink 4", achieved=1), "achieved=1"),
    (lambda: scaling.gradient_sync_time(1e9, 8, "dgx-h10"), "system='dgx-h10'"),
])
def test_scaling_bad_input(call, param):
    with pytest.raises(ValueError) as e:
        call()
    assert re.match(param, str(e.value)), str(e.value)  # the name= form leads


# --------------------------------------------------------------------- hierarchy
def test_link_options_per_direction():
    opts = hierarchy.link_options()
    assert opts["NVLink 4"].peak == pytest.approx(450 * u.GB_per_s)
    assert opts["NVLink 5"].peak == pytest.approx(900 * u.GB_per_s)
    assert opts["InfiniBand NDR (1 NIC/GPU)"].peak == pytest.approx(50 * u.GB_per_s)
    for r in opts.values():
        assert 0 < r.efficiency <= 1


# ----------------------------------------------------------------------- display
@pytest.mark.parametrize("value,text", [
    (450e9, "450 GB/s"), (1.8e12, "1.8 TB/s"), (999.9e9, "1 TB/s"), (0, "0 B/s"),
    (12.5e9, "12.5 GB/s")])
def test_fmt_rate(value, text):
    assert display.fmt_rate(value) == text


@pytest.mark.parametrize("value,text", [
    (2.56e-5, "25.6 µs"), (0.66, "660 ms"), (4.2, "4.2 s"), (7200, "2 h"),
    (3 * 86400, "3 days")])
def test_fmt_time(value, text):
    assert display.fmt_time(value) == text


def test_fmt_bytes_binary_and_decimal():
    assert display.fmt_bytes(8 * u.GiB, binary=True) == "8 GiB"
    assert display.fmt_bytes(140e9) == "140 GB"
    assert display.fmt_ratio(9) == "9×" and display.fmt_pct(0.875) == "87.5 %"


def test_table_text_and_html():
    t = display.Table(["a", "b"], [[1, "<x>"]], "cap")
    assert "a | b" in repr(t) and "&lt;x&gt;" in t._repr_html_()
    with pytest.raises(ValueError, match=r"^rows\[0\] has 2 cells"):
        display.Table(["a"], [[1, 2]])


# ----------------------------------------------------------------------- widgets
def test_controls_validate_defaults():
    with pytest.raises(ValueError, match="^default="):
        widgets.IntSlider(0, 10, 11, "x")
    with pytest.raises(ValueError, match="^min="):
        widgets.FloatSlider(0.0, 1.0, 0.5, "x", log=True)
    with pytest.raises(ValueError, match="^default="):
        widgets.Dropdown(("a", "b"), "c", "x")


def test_every_demo_has_questions_and_matching_controls():
    import inspect

    assert len(widgets.DEMOS) >= 3
    for name, d in widgets.DEMOS.items():
        assert 1 <= len(d.questions) <= 3, name
        params = set(inspect.signature(d.func).parameters)
        assert set(d.controls) <= params, name


def test_unknown_demo():
    with pytest.raises(ValueError, match="^name='stragler' .*did you mean 'straggler'"):
        widgets.get("stragler")


# ---------------------------------------------------------------------- notation
def test_notation_tables_state_both_conventions():
    rows = {r[0]: r for r in __import__("interlib.book.notation").book.notation.direction_table().rows}
    # NVIDIA Hopper page: 900 GB/s bidirectional per GPU = 450 GB/s per direction
    assert rows["NVLink 4, one H100"][1:3] == ["900 GB/s", "450 GB/s"]
    # ConnectX-7: 400 Gb/s per direction = 50 GB/s
    assert rows["ConnectX-7 NIC"][2] == "50 GB/s"
    text = repr(__import__("interlib.book.notation").book.notation.prefix_table())
    assert "1 GiB = 1,073,741,824 bytes" in text and "1 Gb/s = 0.125 GB/s" in text


@pytest.mark.parametrize("call,param", [
    (lambda: display.fmt_si(1.0, "B", None), "digits=None"),
    (lambda: display.fmt_si(1.0, "B", "3"), "digits='3'"),
    (lambda: display.fmt_si(1.0, "B", -1), "digits=-1"),
    (lambda: display.fmt_rate(1e9, 0), "digits=0"),
    (lambda: display.fmt_rate(1e9, 2.5), "digits=2.5"),
    (lambda: display.fmt_bits(1e9, None), "digits=None"),
    (lambda: display.fmt_time(1.0, -1), "digits=-1"),
    (lambda: display.fmt_bytes(1e9, digits=None), "digits=None"),
    (lambda: display.fmt_ratio(2.0, -1), "digits=-1"),
    (lambda: display.fmt_pct(0.5, "x"), "digits='x'"),
    (lambda: display.fmt_rate(1e9, direction="up"), "direction='up'"),
    (lambda: display.fmt_rate(1e9, direction=1), "direction=1"),
    (lambda: display.fmt_bytes(1e9, binary="yes"), "binary='yes'"),
    (lambda: display.fmt_bytes(1e9, binary=None), "binary=None"),
    (lambda: display.fmt_rate(-1e9), "bytes_per_s=-1000000000.0"),
    (lambda: display.fmt_bits(-4e11), "bits_per_s=-400000000000.0"),
])
def test_display_bad_input(call, param):
    with pytest.raises(ValueError) as e:
        call()
    assert re.match(param, str(e.value)), str(e.value)  # the name= form leads


def test_fmt_rate_direction_and_digits():
    assert display.fmt_rate(450e9, direction="per direction") == "450 GB/s per direction"
    assert display.fmt_rate(370.8e9, 4) == "370.8 GB/s"
    assert display.fmt_si(-3e-6, "s") == "-3 µs"  # fmt_si itself stays signed


# ------------------------------------------------------------ Chapter 1 additions
def test_link_table_columns_mean_one_thing():
    rows = {r[0]: r for r in hierarchy.link_table().rows}
    # facts.md 1.1: PCIe 5.0 x16 raw 64 GB/s per direction, "128 GB/s" bidirectional
    # headline, 63 GB/s after 128b/130b (64 x 128/130 = 63.0)
    assert rows["PCIe 5.0 x16"][1:4] == ["64 GB/s", "128 GB/s", "63 GB/s"]
    # NVLink 4: 450 per direction, 900 headline; the figure already is a data rate
    assert rows["NVLink 4"][1:4] == ["450 GB/s", "900 GB/s", "450 GB/s"]
    assert rows["InfiniBand NDR (1 NIC/GPU)"][1:4] == ["50 GB/s", "100 GB/s", "50 GB/s"]
    for r in hierarchy.link_options().values():
        assert r.vendor_rate >= r.peak >= r.effective


def test_article_comparison_reuses_appendix_b():
    c = errata.article_comparison()
    assert c["article_pcie_over_nvlink"] == pytest.approx(3350 / 50)  # the article's rates
    assert c["training_state"].value == pytest.approx(70e9 * 16)  # ZeRO: 16 B/param
    assert c["node_hbm"].value == pytest.approx(8 * 80e9)
    # facts.md 4a: the real NVLink:PCIe ratio is ~7-9x
    assert 6 < c["pcie_over_nvlink"].value < 10


def test_binary_gap_table_hand_values():
    from interlib.book import notation

    rows = {r[0]: r for r in notation.binary_gap_table().rows}
    assert rows["1 GiB"][1:] == ["1.07374 GB", "7.37 %"]  # 2**30 / 1e9 = 1.073741824
    assert rows["1 KiB"][1:] == ["1.024 kB", "2.4 %"]


# ------------------------------------------------------ figures: readable at every setting
# (figures are plain matplotlib Figures: no pyplot state to close)
from interlib.plots import ch01 as ch01_plots, ch02 as ch02_plots  # noqa: E402
from interlib import plots  # noqa: E402
from interlib.plots import appendix as appendix_plots, ch04 as ch04_plots  # noqa: E402
from interlib.plots import ch05 as ch05_plots  # noqa: E402


def test_straggler_jitter_range_fits_fixed_axes():
    # The demo's largest jitter at its largest GPU count stays on the fixed y axis; the
    # slider offers exactly the range the figure was sized for.
    P = ch01_plots
    demo = widgets.DEMOS["straggler"]
    assert demo.controls["jitter"].max == P.STRAGGLER_JITTER_MAX
    n_max = demo.controls["n_gpus"].max
    fig = P.straggler(int(n_max), P.STRAGGLER_JITTER_MAX)
    lo, hi = fig.axes[0].get_ylim()
    # E[max of N standard normals] <= sqrt(2 ln N) (the classical bound from Jensen's
    # inequality on the moment generating function), so a y axis above
    # 1 + jitter x sqrt(2 ln N) holds the whole curve at every allowed setting.
    assert lo < 1.0
    assert hi > 1 + P.STRAGGLER_JITTER_MAX * math.sqrt(2 * math.log(n_max))


@pytest.mark.parametrize("make, args_left, args_right", [
    ("straggler", (64, 0.05), (100000, 0.05)),
    ("gradient_sync", (70.0, 8, "NVLink 4", 2), (1000.0, 8, "NVLink 4", 2)),
])
def test_value_label_stays_off_rising_curve(make, args_left, args_right):
    # Both curves rise to the right: a label right of its point sits below it, and one
    # mirrored to the left of a point near the right edge sits above it.
    P = ch01_plots
    for args, sign in ((args_left, 1), (args_right, -1)):
        fig = getattr(P, make)(*args)
        dx, dy = fig.axes[0].texts[-1].get_position()
        assert np.sign(dx) == sign and np.sign(dy) == -sign


def test_traffic_figure_and_summary_state_the_batch():
    # Tensor and pipeline traffic scale with the tokens per step, so both the title and
    # the printed line must say which batch they assume.
    P = ch01_plots
    fig = P.parallelism_traffic(8, 4, 16, "llama-3-70b", 2048, 3)
    title = fig.axes[0].get_title()
    assert "3 micro-batches" in title and "2,048-token" in title
    assert "micro-batches of one" in widgets.summary("parallelism_traffic")


def test_pcie_transfer_label_names_the_copy():
    # The value label on a bandwidth curve is a time: it must say for which copy size.
    P = ch02_plots
    fig = P.pcie_transfer("5.0", 16, 2.0)
    assert fig.axes[0].texts[0].get_text().startswith("2 GB in ")


# ------------------------------- argument sweep: scaling, transfer, plot helpers, widgets
@pytest.mark.parametrize("call, param", [
    (lambda: scaling.gradient_bytes(1e9, True), "^bytes_per_param=True"),
    (lambda: scaling.gradient_sync_time(1e9, None), "^n_gpus=None"),
    (lambda: scaling.gradient_sync_time(1e9, 0), "^n_gpus=0"),
    (lambda: scaling.gradient_sync_time(1e9, 2.5), "^n_gpus=2.5"),
    (lambda: scaling.naive_sync_time(1e9, 1e11, True), "^bytes_per_param=True"),
    (lambda: scaling.ring_sync_time(1e9, 8, "NVLink 4", True), "^bytes_per_param=True"),
    (lambda: scaling.expected_step_time(2.5, 1.0, 0.1), "^n_gpus=2.5"),
    (lambda: scaling.expected_step_time(None, 1.0, 0.1), "^n_gpus=None"),
    (lambda: scaling.parallelism_traffic(1e9, 8, 64, 16, 1, bytes_per_elem=True),
     "^bytes_per_elem=True"),
    (lambda: transfer.shared_uplink_bandwidth(2.5, 1e10, 1e10), "^devices=2.5"),
])
def test_models_bad_input_sweep(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def _axes():
    from interlib.plots import new_figure

    return new_figure()[1]


@pytest.mark.parametrize("call, param", [
    (lambda: plots.si_axis(5, "x", "B"), "^ax=5"),
    (lambda: plots.si_axis(None, "x", "B"), "^ax=None"),
    (lambda: plots.si_axis(_axes(), "z", "B"), "^which='z'"),
    (lambda: plots.si_axis(_axes(), None, "B"), "^which=None"),
    (lambda: plots.si_axis(_axes(), "x", 5), "^unit=5"),
    (lambda: plots.si_axis(_axes(), "x", "B", places=-1), "^places=-1"),
    (lambda: plots.si_axis(_axes(), "x", "B", places=1.5), "^places=1.5"),
    (lambda: plots.binary_size_axis("ax"), "^ax='ax'"),
    (lambda: plots.binary_size_axis(_axes(), "z"), "^which='z'"),
    (lambda: ch05_plots.nccl_algorithm_label("warp", 2), "^algorithm='warp'"),
    (lambda: ch05_plots.nccl_algorithm_label(None, 2), "^algorithm=None"),
    (lambda: ch05_plots.nccl_algorithm_label("ring", 0), "^nodes=0"),
    (lambda: ch05_plots.nccl_algorithm_label("ring", 2.5), "^nodes=2.5"),
    (lambda: ch04_plots.bisection(k=0), "^k=0"),
    (lambda: ch04_plots.bisection(k=-1), "^k=-1"),
    (lambda: appendix_plots.error_by_size(5), "^results=5"),
    (lambda: appendix_plots.error_by_size("x"), "^results='x'"),
])
def test_plot_helpers_bad_input_sweep(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def _fig():
    from interlib.plots import new_figure

    return new_figure()[0]


@pytest.mark.parametrize("call, param", [
    (lambda: widgets.figure_bbox(5), "^fig=5"),
    (lambda: widgets.figure_png(None), "^fig=None"),
    (lambda: widgets.figure_png(_fig(), bbox=5), "^bbox=5"),
    (lambda: widgets.figure_png(_fig(), compress_level=2.5), "^compress_level=2.5"),
    (lambda: widgets.figure_png(_fig(), compress_level=10), "^compress_level=10"),
    (lambda: widgets.figure_png(_fig(), compress_level=True), "^compress_level=True"),
    (lambda: widgets.figure_alt("fig", "ring_all_reduce", {}), "^fig='fig'"),
    (lambda: widgets.figure_alt(_fig(), "no_such_demo", {}), "^demo_name='no_such_demo'"),
    (lambda: widgets.figure_alt(_fig(), "ring_all_reduce", None), "^params=None"),
    (lambda: widgets.render("ring_all_reduce", params=5), "^params=5"),
    (lambda: widgets.render("ring_all_reduce", params={"bogus": 1}), "^params='bogus'"),
    (lambda: widgets.render("ring_all_reduce", bbox="x"), "^bbox='x'"),
    (lambda: widgets.render("ring_all_reduce", compress_level=None), "^compress_level=None"),
    (lambda: widgets.summary("ring_all_reduce", bogus=1), "^params='bogus'"),
    (lambda: widgets.register("ring_all_reduce"), "^demo='ring_all_reduce'"),
    (lambda: widgets.LiveFigure("ring_all_reduce"), "^demo='ring_all_reduce'"),
    (lambda: widgets.LiveFigure(widgets.get("ring_all_reduce"), bbox=5), "^bbox=5"),
    (lambda: widgets.DemoFrames("ring_all_reduce"), "^demo='ring_all_reduce'"),
    (lambda: widgets.DemoFrames(widgets.get("your_cluster"), bbox=5), "^bbox=5"),
    (lambda: widgets.IntSlider("x", 10, 4, "n"), "^min='x'"),
    (lambda: widgets.IntSlider(1, None, 4, "n"), "^max=None"),
    (lambda: widgets.IntSlider(1, 10, 2.5, "n"), "^default=2.5"),
    (lambda: widgets.IntSlider(1, 10, 4, "n", step=0), "^step=0"),
    (lambda: widgets.IntSlider(1, 10, 4, None), "^label=None"),
    (lambda: widgets.FloatSlider(float("nan"), 1.0, 0.5, "x"), "^min=nan"),
    (lambda: widgets.FloatSlider(0.0, 1.0, None, "x"), "^default=None"),
    (lambda: widgets.FloatSlider(0.0, 1.0, 0.5, "x", step=-1.0), "^step=-1.0"),
    (lambda: widgets.FloatSlider(0.0, 1.0, 0.5, "x", log="yes"), "^log='yes'"),
    (lambda: widgets.FloatSlider(0.0, 1.0, 0.5, "x", readout_format="zz"),
     "^readout_format='zz'"),
    (lambda: widgets.Dropdown(None, "a", "x"), "^options=None"),
    (lambda: widgets.Dropdown((), "a", "x"), "^options=\\(\\)"),
    (lambda: widgets.Dropdown(("a",), "a", 5), "^label=5"),
])
def test_widgets_bad_input_sweep(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# ---------------------------------------------- the sweep's helpers in interlib._validate
def test_validate_whole_items_instance():
    from interlib import _validate as V

    assert V.whole("n", 8) == 8 and V.whole("n", 8.0) == 8.0
    assert V.whole("n", np.array([1, 2.0])).tolist() == [1, 2]
    for bad, msg in ((2.5, "n=2.5 must be a whole number"), (0, "n=0 is out of range"),
                     (True, "n=True must be a number"), ("x", "n='x' must be a number")):
        with pytest.raises(ValueError, match=msg):
            V.whole("n", bad, lo=1)
    assert V.items("xs", (1, 2)) == [1, 2] and V.items("xs", np.arange(2)) == [0, 1]
    for bad in (None, 5, "ab", {"a": 1}, [], np.float64(1.0)):
        with pytest.raises(ValueError, match="^xs="):
            V.items("xs", bad)
    assert V.instance("s", "a", str, "a string") == "a"
    with pytest.raises(ValueError, match="^s=5 must be a string"):
        V.instance("s", 5, str, "a string")


@settings(max_examples=400, deadline=None)
@given(x=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.integers(-2**60, 2**60), st.sampled_from([0, 1, -1, 0.0, -0.0, 2**53])),
       lo=st.one_of(st.none(), st.sampled_from([0, 1, -1.5, 1e-9]),
                    st.floats(-1e6, 1e6, allow_nan=False)),
       hi=st.one_of(st.none(), st.sampled_from([0, 1, 2.5, 1e18]),
                    st.floats(-1e6, 1e6, allow_nan=False)),
       lo_open=st.booleans(), hi_open=st.booleans())
def test_validate_number_answers_a_plain_number_as_it_answers_the_same_as_numpy(
        x, lo, hi, lo_open, hi_open):
    """number()'s shortcut for plain floats and ints (no numpy) accepts and refuses exactly
    what its array path does: the same value as a numpy scalar, which always takes that
    path, is accepted alike or refused with the same message."""
    from interlib import _validate as V

    kw = dict(lo=lo, hi=hi, lo_open=lo_open, hi_open=hi_open)
    as_numpy = np.float64(x) if isinstance(x, float) else np.int64(x)

    def answer(v):
        try:
            return ("ok", V.number("x", v, **kw))
        except ValueError as e:
            return ("refused", str(e))

    plain, ref = answer(x), answer(as_numpy)
    assert plain[0] == ref[0], (plain, ref)
    if plain[0] == "ok":
        assert plain[1] is x
    else:
        assert plain[1] == ref[1]


def test_validate_refuses_numbers_typed_as_text():
    # numpy reads "0.1" (and lists of such texts) as numbers: every public function that
    # checks a number refuses text by name instead of computing with it or failing later
    from interlib import _validate as V, collectives

    for bad, shown in (("0.1", "'0.1'"), (b"1", "b'1'"), (["1", 2.0], r"\['1', 2\.0\]"),
                       (np.array(["1.5"]), r"array\(\['1\.5'\], dtype='<U3'\)"),
                       ((1, "2"), r"\(1, '2'\)")):
        with pytest.raises(ValueError, match=rf"^x={shown} must be a number, not text$"):
            V.number("x", bad)
    with pytest.raises(ValueError, match=r"^x=None must be a number$"):
        V.positive("x", None)
    assert V.number("x", [1.0, 2]) == [1.0, 2] and V.number("x", np.float32(2)) == 2
    with pytest.raises(ValueError, match=r"^size_bytes='1e9' must be a number, not text$"):
        collectives.predict("all_reduce", "1e9", "dgx-h100", 8, 2)


def test_chapter1_prose_figures_issue14():
    # tuning.cc hwLat Ring/Simple: PCI 5.7, NVLink 3.4, NET 14 us; Ring/LL NVLink 0.6 us.
    # device.h: LL line 16 B with 8 data bytes; LL128 line 128 B with 120 data bytes.
    # Ring all-reduce 2(N-1) steps, binary tree 2 ceil(log2 N): 2046 and 20 at N = 1024.
    # FSDP: 2 all-gathers + 1 reduce-scatter = 3(N-1)/N vs all-reduce 2(N-1)/N: 1.5x.
    from interlib import transfer
    f = transfer.prose_figures()
    assert (f["pcie_step"], f["nvlink_step"], f["net_step"], f["nvlink_step_ll"]) == \
        ("5.7 µs", "3.4 µs", "14 µs", "600 ns")
    assert (f["ll_data_share"], f["ll128_data_share"]) == ("50 %", "93.8 %")
    assert (f["ring_steps_1024"], f["tree_steps_1024"]) == ("2046", "20")
    assert f["fsdp_over_dp"] == "1.5×" and f["max_channels"] == "64"
    assert f["net_hw"] == "700 ns to 900 ns" and f["pcie_hw"] == "360 ns"


# ------------------------------------------------------- mutation survivors (issue 38)
def test_half_bandwidth_size_defaults_to_full_efficiency():
    # Hockney's n_1/2 = latency x bandwidth x efficiency: 1 us x 10 GB/s = 10 kB at eta 1
    assert transfer.half_bandwidth_size(10e9, 1e-6) == pytest.approx(10e3, rel=1e-12)
    assert transfer.half_bandwidth_size(10e9, 1e-6, 0.5) == pytest.approx(5e3, rel=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda: transfer.half_bandwidth_size(0, 1e-6), "^bandwidth=0 "),
    (lambda: transfer.half_bandwidth_size(1e9, 1e-6, 1.5), "^efficiency=1.5 "),
    (lambda: transfer.shared_uplink_bandwidth(2, 0, 1e9), "^uplink_bandwidth=0 "),
    (lambda: transfer.shared_uplink_bandwidth(2, 1e9, -1.0), "^device_bandwidth=-1.0 "),
])
def test_transfer_helpers_name_the_bad_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_expected_max_standard_normal_exact_values_and_arrays():
    # E[max of 1] = 0, of 2 = 1/sqrt(pi), of 3 = 3 / (2 sqrt(pi)) (order statistics of N(0,1))
    e = scaling.expected_max_standard_normal(np.array([1, 2, 3]))
    assert isinstance(e, np.ndarray) and e.shape == (3,)
    assert e[0] == pytest.approx(0.0, abs=1e-9)
    assert e[1] == pytest.approx(1 / math.sqrt(math.pi), rel=1e-6)
    assert e[2] == pytest.approx(3 / (2 * math.sqrt(math.pi)), rel=1e-6)
    assert isinstance(scaling.expected_max_standard_normal(2), float)
    for bad in (0, 0.5, -1):
        with pytest.raises(ValueError, match=f"^n={bad!r} "):
            scaling.expected_max_standard_normal(bad)


def test_expected_step_time_of_one_gpu_is_its_mean_and_bad_input():
    assert scaling.expected_step_time(1, 2.0, 0.3) == pytest.approx(2.0, abs=1e-12)
    # two GPUs at 10 % jitter: 1 + 0.1 / sqrt(pi)
    assert scaling.expected_step_time(2, 1.0, 0.1) == pytest.approx(
        1 + 0.1 / math.sqrt(math.pi), rel=1e-6)
    for call, msg in ((lambda: scaling.expected_step_time(8, 0, 0.1), "^mean_s=0 "),
                      (lambda: scaling.expected_step_time(8, 1.0, -0.1), "^jitter=-0.1 "),
                      (lambda: scaling.expected_step_time(8, 1.0, 0.6), "^jitter=0.6 ")):
        with pytest.raises(ValueError, match=msg):
            call()


def test_gpus_for_slowdown_by_hand():
    # step / mean = 1 + jitter x E[max of n]: at jitter 0.1, E[max 2] = 0.564 >= 0.5 (1.05),
    # E[max 3] = 0.846 >= 0.8 > 0.564 (1.08), E[max 4] = 1.029 >= 1.0 > 0.846 (1.10)
    assert scaling.gpus_for_slowdown(1.05, 0.1) == 2
    assert scaling.gpus_for_slowdown(1.08, 0.1) == 3
    assert scaling.gpus_for_slowdown(1.10, 0.1) == 4
    # any target: the smallest n that reaches it (the one below does not)
    for target, jitter in ((1.2, 0.1), (1.1, 0.03), (1.5, 0.25), (1.3, 0.5)):
        n = scaling.gpus_for_slowdown(target, jitter)
        assert scaling.expected_step_time(n, 1.0, jitter) >= target
        assert n == 1 or scaling.expected_step_time(n - 1, 1.0, jitter) < target
    with pytest.raises(ValueError, match="^slowdown=10 is out of range for jitter=0.5: not "
                                         "reached below 1,000,000,000 GPUs$"):
        scaling.gpus_for_slowdown(10, 0.5)
    for call, msg in ((lambda: scaling.gpus_for_slowdown(1.0, 0.1), "^slowdown=1.0 "),
                      (lambda: scaling.gpus_for_slowdown(1.1, 0.0), "^jitter=0.0 "),
                      # the documented range (0, 0.5], in this function's own words
                      (lambda: scaling.gpus_for_slowdown(1.1, 0.6),
                       r"^jitter=0.6 is out of range: must be > 0 and <= 0.5$")):
        with pytest.raises(ValueError, match=msg):
            call()


def test_straggler_samples_are_seeded_truncated_draws():
    a = scaling.straggler_samples(64, 2.0, 0.1)
    assert a.shape == (200, 64)                     # 200 steps by default
    assert np.array_equal(a, scaling.straggler_samples(64, 2.0, 0.1, 200, 0))
    assert not np.array_equal(a, scaling.straggler_samples(64, 2.0, 0.1, 200, 1))
    assert a.mean() == pytest.approx(2.0, rel=0.01)          # mean_s
    assert a.std() == pytest.approx(0.2, rel=0.05)            # jitter x mean_s
    # at jitter 0.5, P(1 + 0.5 Z < 0) = P(Z < -2) = 2.28 %: those draws are cut to 0
    b = scaling.straggler_samples(1000, 1.0, 0.5, 100)
    assert b.min() == 0.0 and (b == 0).mean() == pytest.approx(0.0228, abs=0.004)
    assert np.array_equal(scaling.straggler_samples(3, 1.0, 0.0, 2), np.ones((2, 3)))
    assert scaling.straggler_samples(1, 1.0, 0.1, 1).shape == (1, 1)
    assert scaling.straggler_samples(400, 1.0, 0.1, 10_000).shape == (10_000, 400)
    for call, msg in (
            (lambda: scaling.straggler_samples(0, 1.0, 0.1), "^n_gpus=0 "),
            (lambda: scaling.straggler_samples(1_000_001, 1.0, 0.1, 1), "^n_gpus=1000001 "),
            (lambda: scaling.straggler_samples(8, 0, 0.1), "^mean_s=0 "),
            (lambda: scaling.straggler_samples(8, 1.0, 0.6), "^jitter=0.6 "),
            (lambda: scaling.straggler_samples(8, 1.0, -0.1), "^jitter=-0.1 "),
            (lambda: scaling.straggler_samples(8, 1.0, 0.1, 0), "^steps=0 "),
            (lambda: scaling.straggler_samples(8, 1.0, 0.1, 10_001), "^steps=10001 "),
            (lambda: scaling.straggler_samples(8, 1.0, 0.1, 10, -1), "^seed=-1 "),
            (lambda: scaling.straggler_samples(401, 1.0, 0.1, 10_000),
             "^steps=10000 is out of range for n_gpus=401: n_gpus x steps must be <= "
             "4,000,000$")):
        with pytest.raises(ValueError, match=msg):
            call()


def test_simulation_steps_keep_a_million_draws():
    # min(200, 10^6 // n), at least 10
    assert scaling.simulation_steps(1) == 200 and scaling.simulation_steps(5000) == 200
    assert scaling.simulation_steps(5001) == 199
    assert scaling.simulation_steps(9901) == 100       # 10^6 // 9901 = 100 (101 x 9901 > 10^6)
    assert scaling.simulation_steps(100_000) == 10 and scaling.simulation_steps(10**6) == 10
    for bad in (0, 1_000_001):
        with pytest.raises(ValueError, match=f"^n_gpus={bad} "):
            scaling.simulation_steps(bad)


def test_simulated_step_time_is_seeded():
    t0 = scaling.simulated_step_time(16, 1.0, 0.1)
    assert t0 == scaling.simulated_step_time(16, 1.0, 0.1, seed=0)
    assert t0 != scaling.simulated_step_time(16, 1.0, 0.1, seed=3)
    want = scaling.straggler_samples(16, 1.0, 0.1, 200, 3).max(axis=1).mean()
    assert scaling.simulated_step_time(16, 1.0, 0.1, seed=3) == pytest.approx(want, rel=1e-15)


def test_gradient_bytes_and_naive_sync_by_hand():
    assert scaling.gradient_bytes(1e9) == 2e9                        # bf16 by default
    assert scaling.gradient_bytes(10, 1) == 10 and scaling.gradient_bytes(10, 8) == 80
    assert scaling.gradient_bytes(2**62, 4) == 4 * 2.0**62            # no integer overflow
    for bad in (3, 9, True):
        with pytest.raises(ValueError, match=f"^bytes_per_param={bad!r} "):
            scaling.gradient_bytes(10, bad)
    # Appendix B claim a: 70B x 4 bytes (fp32) / 3.35 TB/s = 0.0836 s
    assert scaling.naive_sync_time(70e9, 3.35e12) == pytest.approx(280e9 / 3.35e12, rel=1e-12)
    with pytest.raises(ValueError, match="^bandwidth=0 "):
        scaling.naive_sync_time(70e9, 0)


def test_gradient_sync_time_passes_its_arguments_to_the_model():
    p = 1e9
    for n, b in ((1, 2), (4, 4)):
        want = collectives.predict("all_reduce", p * b, "dgx-h100", n, 1, "ring").time_s
        assert scaling.gradient_sync_time(p, n, bytes_per_param=b) == want
    assert scaling.gradient_sync_time(p, 4) != scaling.gradient_sync_time(p, 8)
    with pytest.raises(ValueError, match="^n_gpus=0 "):
        scaling.gradient_sync_time(p, 0)


def test_parallelism_traffic_defaults_and_terms_by_hand():
    # Llama 3 70B shape, one 4,096-token sequence: activations 4096 x 8192 x 2 = 67,108,864 B
    act = 4096 * 8192 * 2
    t = scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, tp=8)
    # TP: 80 layers x 4 all-reduces x 2 (8-1)/8 x act, one micro-batch; no DP, no PP
    assert (t.dp, t.tp, t.pp) == (0.0, 80 * 4 * 1.75 * act, 0.0)
    t = scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, dp=8)
    assert (t.tp, t.pp) == (0.0, 0.0) and t.dp == pytest.approx(2 * 7 / 8 * 70e9 * 2)
    # DP's shard is params / (tp x pp): 2 (2-1)/2 x 70e9 / 8 x 2 bytes = 17.5 GB
    t = scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, tp=2, pp=4, dp=2)
    assert t.dp == pytest.approx(17.5e9, rel=1e-12)
    # PP: 2 x act per micro-batch; 1-byte and 4-byte elements scale every term
    assert scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, 3, pp=2).pp == 2 * act * 3
    one = scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, tp=8, bytes_per_elem=1)
    four = scaling.parallelism_traffic(70e9, 80, 8192, 4096, 1, tp=8, bytes_per_elem=4)
    assert four.tp == 4 * one.tp == 2 * 80 * 4 * 1.75 * act
    for kw, name in (({"params": 0}, "params"), ({"layers": 0}, "layers"),
                     ({"hidden": 0}, "hidden"), ({"seq_len": 0}, "seq_len"),
                     ({"micro_batch": 0}, "micro_batch"), ({"micro_batches": 0}, "micro_batches"),
                     ({"tp": 0}, "tp"), ({"pp": 0}, "pp"), ({"dp": 0}, "dp")):
        args = dict(params=70e9, layers=80, hidden=8192, seq_len=4096, micro_batch=1) | kw
        with pytest.raises(ValueError, match=f"^{name}=0 "):
            scaling.parallelism_traffic(**args)


def test_ring_sync_time_by_hand_and_its_gpu_range():
    # NVLink 4 rung: alpha 3.4 us (tuning.cc Ring/Simple hop), peak 450 GB/s, achieved
    # 18 x 20.6 GB/s: t = 2 (n-1) alpha + 2 (n-1)/n x bytes / B
    r = hierarchy.link_options()["NVLink 4"]
    for achieved, bw in ((True, 18 * 20.6e9), (False, 450e9)):
        t = scaling.ring_sync_time(1e9, 8, "NVLink 4", achieved=achieved)
        assert t == pytest.approx(14 * r.latency + 1.75 * 2e9 / bw, rel=1e-12)
    assert scaling.ring_sync_time(1e9, 1, "NVLink 4") == 0.0
    assert scaling.ring_sync_time(1e9, 1_000_000, "NVLink 4") > 0
    for bad in (0, 1_000_001):
        with pytest.raises(ValueError, match=f"^n_gpus={bad} "):
            scaling.ring_sync_time(1e9, bad, "NVLink 4")


def test_gpus_for_slowdown_at_the_end_of_its_range():
    """The search stops at 10^9 GPUs: at jitter 0.5 the expected step there is
    1 + 0.5 x E[max of 10^9 standard normals] = 1 + 0.5 x 6.09 = 4.04 x the mean (so a 5x
    target is refused), and a target equal to that step is reached there, not refused."""
    top = scaling.expected_step_time(10**9, 1.0, 0.5)
    assert top == pytest.approx(1 + 0.5 * 6.0877, rel=1e-4)
    with pytest.raises(ValueError, match="^slowdown=5 is out of range for jitter=0.5: "):
        scaling.gpus_for_slowdown(5, 0.5)
    n = scaling.gpus_for_slowdown(top, 0.5)
    assert n <= 10**9 and scaling.expected_step_time(n - 1, 1.0, 0.5) < top


def test_straggler_samples_limit_and_draw_convention():
    # n_gpus x steps may be 4,000,000 (400 x 10,000) but not 4,000,001 = 97,561 x 41
    with pytest.raises(ValueError, match="^steps=41 is out of range for n_gpus=97561: "
                                         "n_gpus x steps must be <= 4,000,000$"):
        scaling.straggler_samples(97_561, 1.0, 0.1, 41)
    # seeded, reproducible figures: time = mean x (1 + jitter x Z), Z the seed's standard
    # normals from NumPy's default_rng (seed 0's first one is +0.1257...)
    z = np.random.default_rng(0).standard_normal((2, 3))
    assert z[0, 0] == pytest.approx(0.12573022)
    np.testing.assert_array_equal(scaling.straggler_samples(3, 2.0, 0.1, 2, seed=0),
                                  np.maximum(2.0 * (1 + 0.1 * z), 0.0))
