"""Every data figure's series against the model quantity its axis names (issue 38 item 2).

nbval ignores images and the demo tests compare a figure with the same code's fresh draw,
so a figure that plots the wrong quantity (algbw under a "bus bandwidth" axis, a time in
ms on an axis in s) passed everything. Here each plot function of interlib/plots is drawn,
its artists' data are read back (``Line2D.get_xydata``, bar widths and heights, fill
polygons) and compared with an independent call of the model function the axis label names,
in the unit the axis states:

* ``QUANTITY`` (one table) maps what an axis label says to the quantity it promises, by
  meaning (small patterns that survive rewording: "busbw" or "bus bandwidth" is busbw);
  each test asserts the label's quantity and then computes that quantity from the model.
* The unit is the axis' own: an SI tick formatter (``plots.si_axis``: data in bytes/s,
  seconds, bytes) or a unit written in the label ("GB/s", "%").
* A marker must lie where the model puts it (on its curve, at the chosen parameters).

Figures are matched by their legend text or gid through short patterns, never by the whole
label, so the labels may be reworded (the reader-pages helper edits their formatting).
Diagrams (interlib/plots/diagrams) that draw data to scale (the bandwidth ladder's bars,
the packet drawn to scale, NVLink links as lines as long as their rates) are checked here
too; those that draw structure only are listed in ``STRUCTURE_ONLY`` with the test of
their counts (tests/test_diagrams.py). ``test_every_plot_function_is_checked`` fails when a
plot function has no check.
"""

from __future__ import annotations

import inspect
import math
import re

import matplotlib
import numpy as np
import pytest
from matplotlib.patches import Rectangle
from matplotlib.ticker import EngFormatter

from interlib import (collectives, congestion, cost, flowcontrol, hierarchy, nvlink, nvswitch,
                      pcie, reliability, scaling, steptime, topology, validation)
from interlib import tensor_parallel as TP
from interlib.specs import NVLINK, system as catalogue_system
from interlib.specs.inside_box import NVLINK_DOMAINS
from interlib.units import GB_per_s, GiB, MiB

matplotlib.use("Agg")

# ------------------------------------------------------------------ label -> quantity
#: What an axis label promises, by meaning (first match wins). A test asserts the label's
#: quantity, then compares the data with that quantity from the model.
QUANTITY = [
    (r"\bbusbw\b|\bbus bandwidth\b", "busbw"),
    (r"\balgbw\b|\balgorithm bandwidth\b", "algbw"),
    (r"predicted\s*/\s*measured", "relative error"),
    (r"step time\s*/", "step-time ratio"),
    (r"completion time\s*/", "completion-time ratio"),
    (r"share of (the )?layer time", "communication share"),
    (r"share of full bisection|bisection\s*/\s*full", "bisection share"),
    (r"share of the training step", "step share"),
    (r"efficiency", "scaling efficiency"),
    (r"dollars", "dollars"),
    (r"bytes sent", "bytes"),
    (r"receive buffer", "buffer occupancy"),
    (r"packets delivered", "packets delivered"),
    (r"packets per step", "packets per step"),
    (r"senders paused", "senders paused"),
    (r"sending rate", "sending rate"),
    (r"\bqueue\b", "queue"),
    (r"switches\s*/\s*routers", "switches"),
    (r"longest path", "path length"),
    (r"\bcables\b", "cables"),
    (r"\bcount\b", "count"),
    (r"communication time", "time"),
    (r"\btime\b", "time"),
    (r"bandwidth", "bandwidth"),
]
#: A collective prediction's field for each quantity an axis may name.
PREDICTION_FIELD = {"busbw": "busbw", "algbw": "algbw", "time": "time_s"}
#: Units written in labels (data = label value x factor, in SI).
LABEL_UNITS = {"GB/s": 1e9, "TB/s": 1e12, "MB/s": 1e6, "%": 0.01}


def quantity(label: str) -> str:
    for pattern, name in QUANTITY:
        if re.search(pattern, label, re.I):
            return name
    raise AssertionError(f"no quantity for the axis label {label!r}: add it to QUANTITY")


def scale(ax, which: str = "y") -> float:
    """Factor from the axis' data to SI: 1 with an SI formatter (plots.si_axis), else the
    unit written in the label, else 1 (a dimensionless axis)."""
    axis = ax.yaxis if which == "y" else ax.xaxis
    if isinstance(axis.get_major_formatter(), EngFormatter):
        return 1.0
    label = ax.get_ylabel() if which == "y" else ax.get_xlabel()
    for unit, factor in LABEL_UNITS.items():
        if unit in label:
            return factor
    return 1.0


def si_unit(ax, which: str = "y") -> str:
    fmt = (ax.yaxis if which == "y" else ax.xaxis).get_major_formatter()
    return fmt.unit if isinstance(fmt, EngFormatter) else ""


def lines(ax, pattern: str):
    """Lines whose legend label or gid matches ``pattern`` (case-insensitive)."""
    return [ln for ln in ax.get_lines()
            if re.search(pattern, str(ln.get_label()), re.I)
            or re.search(pattern, str(ln.get_gid() or ""), re.I)]


def line(ax, pattern: str):
    found = lines(ax, pattern)
    assert len(found) == 1, (pattern, [ln.get_label() for ln in ax.get_lines()])
    return found[0]


def xy(ln):
    d = np.asarray(ln.get_xydata(), dtype=float)
    return d[:, 0], d[:, 1]


def close(got, want, rel=1e-9, what=""):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    ok = np.isclose(got, want, rtol=rel, atol=0) | (np.isnan(got) & np.isnan(want))
    assert ok.all(), f"{what}: drawn {got[~ok][:4]} but the model gives {want[~ok][:4]}"


def on_prediction(ax, ln, predict, where=""):
    """The line's y data, in the axis' unit, equal the quantity the y label names, from
    ``predict(x)`` (a collectives.Prediction)."""
    field = PREDICTION_FIELD[quantity(ax.get_ylabel())]
    x, y = xy(ln)
    close(y * scale(ax), getattr(predict(x), field), what=f"{where} {ln.get_label()!r}")


# ======================================================= collectives: busbw and time
def test_ring_vs_nvls_plots_busbw_of_the_ring_and_of_nvls():
    from interlib.plots import ch04

    for system, g, size_mib in (("dgx-h100", 8, 1024.0), ("gb200-nvl72", 72, 64.0),
                                ("dgx-b200", 4, 4.0)):
        fig = ch04.ring_vs_nvls(system, g, size_mib)
        ax = fig.axes[0]
        assert quantity(ax.get_ylabel()) == "busbw" and si_unit(ax) == "B/s"
        for pat, alg in (("^ring$", "ring"), ("nvls", "nvls")):
            curve = line(ax, pat)
            on_prediction(ax, curve, lambda x: collectives.predict("all_reduce", x, system, g, 1,
                                                                   alg), system)
            marker = [ln for ln in ax.get_lines() if ln.get_marker() == "o"
                      and ln.get_color() == curve.get_color()]
            assert len(marker) == 1
            on_prediction(ax, marker[0], lambda x: collectives.predict(
                "all_reduce", x, system, g, 1, alg), f"{system} marker")
            assert xy(marker[0])[0][0] == size_mib * MiB
        nv = catalogue_system(system).gpu.nvlink
        assert xy(line(ax, "line rate"))[1][0] == nv.per_gpu_per_direction
        assert xy(line(ax, "effective"))[1][0] == pytest.approx(
            nv.links_per_gpu.value * nv.nccl_effective_per_link.value)


def test_allreduce_multinode_plots_the_time_of_each_algorithm():
    from interlib import scaleout
    from interlib.plots import ch05

    for nodes, nic, per_node, size_mib in ((16, "connectx-7", 8, 1024.0),
                                           (4, "connectx-8", 4, 16.0)):
        fig = ch05.allreduce_multinode(nodes, nic, per_node, size_mib)
        ax = fig.axes[0]
        assert quantity(ax.get_ylabel()) == "time" and si_unit(ax) == "s"
        sys_ = scaleout.with_nics("dgx-h100", nic, per_node)
        for alg in scaleout.ALLREDUCE_ALGORITHMS:
            pred = lambda x, a=alg: collectives.predict("all_reduce", x, sys_, None, nodes, a)
            on_prediction(ax, line(ax, f"^curve:{alg}$"), pred, alg)
            marker = line(ax, f"^marker:{alg}$")
            on_prediction(ax, marker, pred, f"{alg} marker")
            assert xy(marker)[0][0] == size_mib * MiB


def test_allreduce_pcie_vs_nvlink_plots_times_of_each_system():
    from interlib.plots import ch02

    for size_mib, g in ((1024.0, 8), (1.0, 4)):
        fig = ch02.allreduce_pcie_vs_nvlink(size_mib, g)
        ax = fig.axes[0]
        assert quantity(ax.get_ylabel()) == "time" and si_unit(ax) == "s"
        for pat, sysid, alg in (("PCIe only", "h100-pcie-only", "ring"),
                                ("NVLink.*ring", "dgx-h100", "ring"),
                                ("NVLink.*choice", "dgx-h100", "auto")):
            curve = line(ax, pat)
            pred = lambda x, s=sysid, a=alg: collectives.predict("all_reduce", x, s, g, 1, a)
            on_prediction(ax, curve, pred, pat)
            marker = [ln for ln in ax.get_lines() if ln.get_marker() == "o"
                      and ln.get_color() == curve.get_color()]
            assert len(marker) == 1
            on_prediction(ax, marker[0], pred, f"{pat} marker")
            assert xy(marker[0])[0][0] == size_mib * MiB


def test_your_cluster_plots_busbw_in_gb_per_s_and_the_published_points():
    from interlib.plots import appendix as cluster  # the function Appendix A's demo draws
    from interlib.specs import custom

    for args in (dict(), dict(gpu="gb200", gpus_per_node=72, nodes=2, nic_gbps=800.0),
                 dict(gpu="a100-sxm-80gb", nodes=4, fabric="Ethernet")):
        fig = cluster.your_cluster(**args)
        ax = fig.axes[0]
        assert quantity(ax.get_ylabel()) == "busbw" and scale(ax) == 1e9
        p = {**inspect.signature(cluster.your_cluster).parameters, **{}}
        kw = {k: v.default for k, v in p.items()} | args
        node = custom.node(kw["gpu"], kw["gpus_per_node"], nics_per_gpu=kw["nics_per_gpu"],
                           nic_gbps=kw["nic_gbps"], fabric=kw["fabric"], intra=kw["intra"],
                           name="your-node")
        g, k = kw["gpus_per_node"], kw["nodes"]
        auto = lambda x: collectives.predict("all_reduce", x, node, g, k)  # noqa: E731
        on_prediction(ax, line(ax, "^model: NCCL's own choice"), auto, "auto")
        # the shaded range is the prediction's own 80 % interval, clipped at the axis top
        (band,) = [c for c in ax.collections if c.get_label() == "the model's range (80 %)"]
        verts = band.get_paths()[0].vertices
        p = auto(verts[1:-1, 0])
        ylo, yhi = ax.get_ylim()
        for (x, y), lo, hi in zip(verts[1:-1], p.busbw_low, p.busbw_high):
            assert any(math.isclose(y * scale(ax), b, rel_tol=1e-9)
                       for b in (lo, min(hi, yhi * scale(ax)))), (x, y)
        on_prediction(ax, line(ax, "^model.*best forced"),
                      lambda x: collectives.predict("all_reduce", x, node, g, k, "fastest"),
                      "fastest")
        # published markers: measured busbw of the rows they name
        rows = {r.id: r for r in validation.load_measurements()}
        for ln in lines(ax, "^published"):
            ids = re.search(r"published (\S+):", ln.get_label()).group(1)
            members = [r for r in rows.values() if validation.id_runs([r.id]) == ids
                       or r.id.split("-")[0] == ids.split("-")[0]]
            x, y = xy(ln)
            measured = {(r.size_bytes, r.busbw) for r in members}
            for xi, yi in zip(x, y * scale(ax)):
                assert any(xi == s and math.isclose(yi, b, rel_tol=1e-12)
                           for s, b in measured), (ln.get_label(), xi, yi)


def test_busbw_vs_gpus_plots_the_model_and_the_published_points():
    from interlib.plots import appendix

    fig = appendix.busbw_vs_gpus(8.0)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "busbw" and scale(ax) == 1e9
    size = 8 * GiB
    for pat, sysid, per in (("DGX H100", "dgx-h100", 8), ("NVL72", "gb200-nvl72", 72)):
        ln = line(ax, f"^model.*{pat}")
        x, y = xy(ln)
        want = [collectives.predict("all_reduce", size, sysid, min(per, int(n)),
                                    int(n) // min(per, int(n))).busbw for n in x]
        close(y * scale(ax), want, what=pat)
        # its band: the 80 % interval of the same predictions
        band = next(c for c in ax.collections if np.allclose(
            c.get_facecolor()[0][:3], matplotlib.colors.to_rgb(ln.get_color())))
        verts = band.get_paths()[0].vertices
        lo = [collectives.predict("all_reduce", size, sysid, min(per, int(n)),
                                  int(n) // min(per, int(n))).busbw_low for n in x]
        hi = [collectives.predict("all_reduce", size, sysid, min(per, int(n)),
                                  int(n) // min(per, int(n))).busbw_high for n in x]
        for n, a, b in zip(x, lo, hi):
            ys = verts[np.isclose(verts[:, 0], n), 1] * scale(ax)
            assert np.isclose(ys.min(), a, rtol=1e-9) and np.isclose(ys.max(), b, rtol=1e-9)
    # every published point: a measured all-reduce busbw of >= 1 GiB at its GPU count
    measured = {(r.gpus_per_node * r.nodes, r.busbw) for r in validation.load_measurements()
                if r.collective == "all_reduce" and r.size_bytes >= GiB}
    points = [ln for ln in ax.get_lines() if ln.get_marker() == "o" and len(ln.get_xdata())]
    assert len(points) >= 50
    for ln in points:
        (n,), (b,) = xy(ln)
        assert any(n == m and math.isclose(b * scale(ax), mb, rel_tol=1e-12)
                   for m, mb in measured), (n, b)


def test_error_by_size_plots_predicted_over_measured_in_percent():
    from interlib.plots import appendix

    fig = appendix.error_by_size()
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "relative error" and scale(ax) == 0.01
    results = validation.evaluate(validation.load_measurements())
    by = {}
    for r in results:
        by.setdefault(r.measurement.size_bytes, []).append(
            min(r.predicted / r.measurement.busbw - 1, appendix.CLIP_PCT / 100))
    n = 0
    for ln in lines(ax, "GPUs$"):
        for x, y in zip(*xy(ln)):
            assert any(math.isclose(y * 0.01, e, rel_tol=1e-9, abs_tol=1e-12)
                       for e in by[x]), (x, y)
            n += 1
    assert n == len(results)


def test_nccltests_comparison_plots_measured_and_predicted_busbw():
    from pathlib import Path

    from interlib import nccltests
    from interlib.plots import check

    # a published log (tests/fixtures/nccltests/SOURCES.md): Google A3 Mega, 2 x 8 H100
    log = Path(__file__).parent / "fixtures" / "nccltests" / "a3mega_h100_2x8_all_reduce.log"
    run = nccltests.parse(log.read_text())
    cmp_ = nccltests.compare(run, "dgx-h100")
    fig = check.comparison(cmp_)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "busbw" and si_unit(ax) == "B/s"
    # the reader's points: the busbw the log itself printed (two decimals of GB/s)
    x, y = xy(line(ax, "^your run$"))
    rows = [r for r in run.rows if r.size_bytes > 0]
    close(x, [r.size_bytes for r in rows], what="sizes")
    for yi, r in zip(y, rows):
        assert abs(yi - r.busbw_out) <= 0.006e9 + 1e-3 * r.busbw_out, (r.size_bytes, yi)
    on_prediction(ax, line(ax, "^model$"), lambda s: collectives.predict(
        run.collective, s, "dgx-h100", cmp_.gpus_per_node, cmp_.nodes), "model")
    # the band: the prediction's 80 % interval
    band = ax.collections[0].get_paths()[0].vertices
    p = collectives.predict(run.collective, x, "dgx-h100", cmp_.gpus_per_node, cmp_.nodes)
    for xi, lo, hi in zip(x, p.busbw_low, p.busbw_high):
        ys = band[np.isclose(band[:, 0], xi), 1]
        assert np.isclose(ys.min(), lo, rtol=1e-9) and np.isclose(ys.max(), hi, rtol=1e-9)


# ============================================================ gradients, copies, links
def test_gradient_sync_plots_the_ring_sync_time_of_every_link():
    from interlib.plots import ch01

    fig = ch01.gradient_sync(70.0, 8, "NVLink 4", 2)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "time" and si_unit(ax) == "s"
    for name, rung in hierarchy.link_options().items():
        solid = line(ax, f"^{re.escape(name)}:")
        x, y = xy(solid)
        close(y, scaling.ring_sync_time(x, 8, rung, 2), what=name)
        dashed = ax.get_lines()[ax.get_lines().index(solid) + 1]
        close(xy(dashed)[1], scaling.ring_sync_time(x, 8, rung, 2, False), what=name + " line")
    (px,), (py,) = xy(ax.get_lines()[-1])
    assert px == 70e9 and py == scaling.ring_sync_time(70e9, 8, "NVLink 4", 2)


def test_pcie_transfer_plots_the_effective_bandwidth_of_each_generation():
    from interlib.plots import ch02

    fig = ch02.pcie_transfer("4.0", 8, 0.25)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "bandwidth" and si_unit(ax) == "B/s"
    for gen in pcie.PCIE:
        x, y = xy(line(ax, f"^PCIe {re.escape(gen)} x8"))
        close(y, pcie.effective_bandwidth(x, gen, 8), what=gen)
    marker = next(ln for ln in ax.get_lines() if ln.get_marker() == "o")
    (mx,), (my,) = xy(marker)
    assert mx == 0.25e9 and my == pcie.effective_bandwidth(0.25e9, "4.0", 8)
    rate = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"][0]
    assert xy(rate)[1][0] == pcie.link_bandwidth("4.0", 8, "usable")


def test_shared_uplink_plots_the_bandwidth_per_device():
    from interlib.plots import ch02

    fig = ch02.shared_uplink(6, "4.0", 8)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "bandwidth" and si_unit(ax) == "B/s"
    for pat, where in (("device <-> device", "peer"), ("host", "host")):
        x, y = xy(line(ax, pat))
        close(y, pcie.switch_bandwidth_per_device(x, "4.0", where, 8), what=where)
    (mx,), (my,) = xy([ln for ln in ax.get_lines() if ln.get_marker() == "o"
                       and len(ln.get_xdata()) == 1][0])
    assert mx == 6 and my == pcie.switch_bandwidth_per_device(6, "4.0", "host", 8)


def test_nvlink_transfer_plots_copy_times():
    from interlib.plots import ch03

    fig = ch03.nvlink_transfer(3, 8.0)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "time" and si_unit(ax) == "s"
    for g in NVLINK:
        curve = [ln for ln in lines(ax, f"^NVLink {g} ") if len(ln.get_xdata()) > 10]
        assert len(curve) == 1
        x, y = xy(curve[0])
        close(y, nvlink.transfer_time(x, g), what=f"NVLink {g}")
    dashed = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"][0]
    x, y = xy(dashed)
    close(y, nvlink.transfer_time(x, 3, achieved=False), what="line rate")
    (mx,), (my,) = xy([ln for ln in ax.get_lines() if ln.get_marker() == "o"][0])
    assert mx == 8e6 and my == nvlink.transfer_time(8e6, 3)


def test_p2p_vs_staged_plots_the_time_of_each_path():
    from interlib.plots import ch03

    fig = ch03.p2p_vs_staged(0.5, 5, "6.0")
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "time" and si_unit(ax) == "s"
    for pat, key in (("NVLink", "nvlink"), ("PCIe", "pcie_p2p"), ("pipelined", "staged"),
                     ("one leg then", "staged_serial")):
        curve = line(ax, pat)
        x, y = xy(curve)
        close(y, nvlink.p2p_vs_staged(x, 5, "6.0")[key], what=key)
        marker = ax.get_lines()[ax.get_lines().index(curve) + 1]
        (mx,), (my,) = xy(marker)
        assert mx == 0.5e9 and my == nvlink.p2p_vs_staged(0.5e9, 5, "6.0")[key]


def test_tp_comm_share_plots_the_share_of_layer_time_in_all_reduce():
    from interlib.plots import ch03

    fig = ch03.tp_comm_share(4, 4096, "NVLink 5 (B200)", 2048, 0.5)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "communication share"
    curves = ax.get_lines()[:len(TP.LINKS)]
    for name, ln in zip(TP.LINKS, curves):
        assert re.search(re.escape(name), ln.get_label())
        x, y = xy(ln)
        close(y, TP.layer_cost(1, 2048, x, 4, name, 0.5).comm_share, what=name)
    (mx,), (my,) = xy(ax.get_lines()[len(TP.LINKS)])
    assert mx == 4096 and my == pytest.approx(
        float(TP.layer_cost(1, 2048, 4096, 4, "NVLink 5 (B200)", 0.5).comm_share), rel=1e-12)


def test_mesh_vs_switch_plots_link_counts_and_pair_bandwidth():
    from interlib.plots import ch04

    fig = ch04.mesh_vs_switch(12, 3)
    a1, a2 = fig.axes
    assert quantity(a1.get_ylabel()) == "cables"
    x, y = xy(line(a1, "mesh"))
    close(y, x * (x - 1) / 2, what="full mesh links, n(n-1)/2")
    x, y = xy(line(a1, "^switched"))
    close(y, nvswitch.switch_links(x, 3), what="switched links")
    assert quantity(a2.get_ylabel()) == "bandwidth" and si_unit(a2) == "B/s"
    x, y = xy(line(a2, "^mesh$"))
    pair = nvswitch.mesh_pair_bandwidth(x, 3)
    close(y, np.where(pair > 0, pair, np.nan), what="mesh pair bandwidth")
    x, y = xy(line(a2, "switch"))
    close(y, np.full(x.shape, NVLINK[3].per_gpu_per_direction), what="switched pair")


def test_bisection_plots_the_bandwidth_across_each_cut():
    from interlib.plots import ch04

    fig = ch04.bisection("dgx-h100", 3)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "bandwidth" and si_unit(ax) == "B/s"
    d = NVLINK_DOMAINS["dgx-h100"]
    n, per_gpu = int(d.gpus.value), NVLINK[d.nvlink_gen].per_gpu_per_direction
    x, y = xy(line(ax, "across the cut"))
    k = np.rint(x * n)
    close(y, np.minimum(k, n - k) * per_gpu, what="cut bandwidth = min(k, n - k) x per GPU")
    assert xy(line(ax, "^bisection$"))[1][0] == (n // 2) * per_gpu


# ================================================================= Chapter 5, 6 models
def test_fat_tree_sizing_plots_switch_and_cable_counts_and_the_bisection():
    from interlib.plots import ch05

    fig = ch05.fat_tree_sizing(2048, 32, 3.0)
    ax, bx = fig.axes
    assert quantity(ax.get_ylabel()) == "count"
    for gid, i in (("^switches$", 1), ("^cables$", 2)):
        x, y = xy(line(ax, gid))
        close(y, topology.fat_tree_counts(x, 32, 3.0)[i], what=gid)
    ft = topology.fat_tree(2048, 32, 3.0)
    assert xy(line(ax, "switches:chosen"))[1][0] == ft.switches
    assert xy(line(ax, "cables:chosen"))[1][0] == ft.cables
    assert quantity(bx.get_ylabel()) == "bisection share"
    bars = [p for p in bx.patches if isinstance(p, Rectangle)]
    assert [b.get_height() for b in bars] == [1.0, ft.bisection_ratio]


def test_topology_comparison_plots_each_topology_count():
    from interlib.plots import ch05

    fig = ch05.topology_comparison(4096, 32, "fat-tree")
    c = topology.compare(4096, 32)
    fields = {"switches": "switches", "cables": "cables", "bisection share": "bisection_ratio",
              "path length": "max_links"}
    seen = set()
    for ax in fig.axes:
        q = quantity(ax.get_title())
        seen.add(q)
        floor = ax.get_ylim()[0]
        bars = [b for b in ax.patches if isinstance(b, Rectangle)]
        assert len(bars) == len(topology.TOPOLOGIES)
        for bar, name in zip(bars, topology.TOPOLOGIES):
            val = None if c[name] is None else getattr(c[name], fields[q])
            # a topology that cannot be built, or no switch at all (a torus), shows the floor
            want = floor if not val else max(val, floor)
            assert bar.get_height() == pytest.approx(want, rel=1e-12), (q, name)
    assert seen == set(fields)


def test_credit_flow_plots_the_simulated_deliveries_and_buffer():
    from interlib.plots import ch05

    fig = ch05.credit_flow(8, 0.7, 16)
    a1, a2 = fig.axes
    assert quantity(a1.get_ylabel()) == "packets delivered"
    assert quantity(a2.get_ylabel()) == "buffer occupancy"
    for mode in ("credit", "lossy"):
        run = flowcontrol.credit_vs_lossy(mode, 8, 0.7, 16, steps=2000)
        x, y = xy(line(a1, f"^delivered:{mode}$"))
        close(x, np.arange(2000), what="packet times")
        close(y, run.delivered, what=f"{mode} delivered")
        x, y = xy(line(a2, f"^occupancy:{mode}$"))
        close(y, np.asarray(run.occupancy) / 8, what=f"{mode} occupancy, share of 8")
    x, y = xy(line(a1, "^drain$"))
    close(y, (1 - 0.7) * x, what="drain rate 1 - load")


def test_drop_slowdown_plots_the_expected_and_tail_step_time_ratio():
    from interlib.plots import ch06

    fig = ch06.drop_slowdown(1e-5, 256, 2.0)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "step-time ratio"
    packets, base = reliability.drop_step_setup()
    pen = 2e-3
    chosen = [ln for ln in ax.get_lines() if ln.get_linewidth() > 2][0]
    x, y = xy(chosen)
    close(y, (base + pen * reliability.expected_max_drops(x, 1e-5, packets)) / base,
          what="mean step / drop-free step")
    x, y = xy(line(ax, "99th"))
    want = [(base + pen * reliability.max_drop_quantile(int(n), 1e-5, packets)) / base
            for n in x]
    close(y, want, what="99th percentile step / drop-free step")
    st = reliability.step_time_with_drops(256, 1e-5, packets, base, pen, samples=2000)
    mc = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 1]
    got = sorted(xy(ln)[1][0] for ln in mc)
    close(got, sorted([st.mc_mean_step / base, st.mc_p99_step / base]), what="Monte Carlo")


def test_ecmp_plots_completion_time_over_balanced():
    from interlib.plots import ch06

    fig = ch06.ecmp(8, 8, 2)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "completion-time ratio"
    # the figure's trials per point: a budget of 1,000,000 hashed QPs, 200 to 2,000 trials
    runs = {q: congestion.ecmp_balance(8, 8, int(q),
                                       trials=max(200, min(2000, 1_000_000 // (8 * int(q)))))
            for q in ch06.ECMP_QPS}
    for pat, field in (("^mean$", "mean_slowdown"), ("99th", "p99_slowdown")):
        x, y = xy(line(ax, pat))
        close(x, ch06.ECMP_QPS, what="QPs per flow")
        close(y, [getattr(runs[int(q)], field) for q in x], what=pat)
    marks = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 1]
    assert sorted(xy(m)[1][0] for m in marks) == sorted(
        [runs[2].mean_slowdown, runs[2].p99_slowdown])
    assert xy(line(ax, "perfect"))[1][0] == 1.0


def test_dcqcn_plots_the_simulated_rates_and_queue():
    from interlib.plots import ch06
    from interlib.units import kB

    fig = ch06.dcqcn(4, 10.0, 100.0)
    a1, a2 = fig.axes[:2]
    run = congestion.dcqcn(4, kmin=10 * kB, kmax=100 * kB)
    assert quantity(a1.get_ylabel()) == "sending rate" and si_unit(a1) == "B/s"
    assert quantity(a2.get_ylabel()) == "queue" and si_unit(a2) == "B"
    t = np.asarray(run.t)
    for ln, col in ((a1.get_lines()[0], 0), (line(a1, "late joiner"), -1)):
        x, y = xy(ln)
        i = np.searchsorted(t, x)
        close(x, t[i], what="times")
        close(y, np.asarray(run.rates)[i, col], what=f"sender {col} rate")
    x, y = xy(a2.get_lines()[0])
    close(y, np.asarray(run.queue)[np.searchsorted(t, x)], what="queue")
    assert xy(line(a1, "fair share"))[1][0] == pytest.approx(run.capacity / 4, rel=1e-12)
    assert xy(line(a2, "^Kmin$"))[1][0] == 10 * kB
    assert xy(line(a2, "^Kmax$"))[1][0] == 100 * kB


def test_pfc_storm_plots_the_simulated_run():
    from interlib.plots import ch06

    fig = ch06.pfc_storm(True, True, 600)
    load = inspect.signature(ch06.pfc_storm).parameters["load"].default
    run = flowcontrol.pfc_storm(ch06.PFC_SENDERS, load, True, True, ch06.PFC_FAIL_AT, 600,
                                steps=ch06.PFC_STEPS)
    a1, a2 = fig.axes[:2]
    assert quantity(a1.get_ylabel()) == "packets per step"
    assert quantity(a2.get_ylabel()) == "senders paused"
    for pat, field, ax in (("healthy", "good_rx", a1), ("failing", "bad_rx", a1),
                           ("senders paused", "paused_hosts", a2)):
        x, y = xy(line(ax, pat))
        close(x, run.t, what="time")
        close(y, getattr(run, field), what=field)


# =============================================================== Chapters 1, 7 and 8
def test_straggler_plots_the_expected_step_time_over_the_mean():
    from interlib.plots import ch01

    fig = ch01.straggler(256, 0.07)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "step-time ratio"
    for j in (0.02, 0.05, 0.10):
        x, y = xy(line(ax, f"jitter {j * 100:g} %"))
        close(y, scaling.expected_step_time(x, 1.0, j), what=f"jitter {j}")
    chosen = [ln for ln in ax.get_lines() if ln.get_linewidth() > 2][0]
    x, y = xy(chosen)
    close(y, scaling.expected_step_time(x, 1.0, 0.07), what="chosen jitter")
    dot = [ln for ln in ax.get_lines() if ln.get_marker() == "o"][0]
    assert xy(dot)[1][0] == scaling.expected_step_time(256, 1.0, 0.07)


def test_parallelism_traffic_bars_are_bytes_per_gpu_per_step():
    from interlib.plots import ch01

    fig = ch01.parallelism_traffic(4, 2, 8, "llama-3-70b", 4096, 8)
    ax = fig.axes[0]
    assert quantity(ax.get_xlabel()) == "bytes" and si_unit(ax, "x") == "B"
    m = scaling.model("llama-3-70b")
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, 4096, 1, 8, tp=4, pp=2,
                                     dp=8)
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    names = [t.get_text() for t in ax.get_yticklabels()]
    got = dict(zip(names, (b.get_width() for b in bars)))
    assert got == {"data (DP)": tr.dp, "tensor (TP)": tr.tp, "pipeline (PP)": tr.pp} or \
        [b.get_width() for b in bars] == [tr.dp, tr.tp, tr.pp]


def test_ladder_bars_are_each_rung_bandwidth_per_direction():
    from interlib.plots import ch07

    for gen in ("H100", "gb200-nvl72"):
        fig = ch07.ladder(gen, 2.0)
        ax = fig.axes[0]
        assert quantity(ax.get_xlabel()) == "bandwidth"
        assert "B/s" in ax.xaxis.get_major_formatter()(1e11, 0)   # data in bytes/s
        rungs = hierarchy.ladder(gen, 2.0)
        widths = [b.get_width() for b in ax.patches
                  if isinstance(b, Rectangle) and b.get_visible()]
        want = [r.peak for r in rungs] + [r.effective for r in rungs if r.effective is not None]
        close(sorted(widths), sorted(want), what=f"{gen} rungs, line rate and achieved")


def test_layout_bars_are_communication_times_per_step():
    from interlib.plots import ch07

    fig = ch07.layout(8, 4, 8, "llama-3-70b", 2.0)
    ax = fig.axes[0]
    assert quantity(ax.get_xlabel()) == "time" and si_unit(ax, "x") == "s"
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 8, oversubscription=2.0)
    bars = [b for b in ax.patches if isinstance(b, Rectangle)]
    assert len(bars) == len(lay.phases)
    for bar, ph in zip(bars, lay.phases):
        assert bar.get_visible() == (ph.time_s > 0)
        if ph.time_s > 0:
            assert bar.get_width() == pytest.approx(ph.time_s, rel=1e-12), ph


def test_scaling_efficiency_plots_compute_over_step_time():
    from interlib.plots import ch08

    fig = ch08.scaling_efficiency("llama-3-70b", 0.5, 0.6)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "scaling efficiency"
    curves = [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 3]
    assert {ln.get_label() for ln in curves} == set(steptime.FABRICS)
    for ln in curves:
        x, y = xy(ln)
        fits = [steptime.memory_per_gpu("dgx-h100", "llama-3-70b", 8, 1, int(n) // 8).fits
                for n in x]
        eff = steptime.scaling_efficiency(ln.get_label(), "llama-3-70b", x.astype(int), tp=8,
                                          pp=1, mfu=0.5, overlap=0.6)
        close(y, np.where(fits, eff, np.nan), what=ln.get_label())


def test_idle_cost_bars_are_dollars_of_waiting():
    from interlib.plots import ch08
    from interlib.units import day

    fig = ch08.idle_cost(3.0, 10.0, 0.4, 0.8)
    ax = fig.axes[0]
    assert quantity(ax.get_ylabel()) == "dollars"
    want = []
    for fab in steptime.FABRICS:
        for n, st, _ in cost.communication_cost(fab, cost.SCALES, mfu=0.4, overlap=0.8):
            want.append(cost.idle_cost(n, st.comm_fraction, 10 * day, 3.0).dollars_lost
                        if st.fits else None)
    bars = [b for b in ax.patches if isinstance(b, Rectangle)]
    assert len(bars) == len(want)
    for bar, w in zip(bars, want):
        if w is None:     # does not fit in memory: no bar
            assert not bar.get_visible() or bar.get_height() == 1.0
        else:
            assert bar.get_height() == pytest.approx(float(w), rel=1e-12)


def test_capstone_design_bars_are_shares_of_the_step():
    from interlib import capstone
    from interlib.plots import ch08

    for params in ({}, {"nodes": 16, "tp": 4}):
        fig = ch08.capstone_design(**params)
        ax = fig.axes[0]
        assert quantity(ax.get_xlabel()) == "step share"
        s = capstone.design(**params).step
        comm = s.pp + s.dp
        shown = 1.0 - s.hidden / comm if comm > 0 else 1.0
        bars = [b for b in ax.patches if isinstance(b, Rectangle)]
        parts = (s.compute, s.bubble, s.tp, s.pp * shown, s.dp * shown)
        close([b.get_width() for b in bars[:5]], [p / s.step for p in parts],
              what="compute, bubble, TP, exposed PP and DP over the step")
        left = np.cumsum((0.0,) + parts[:-1]) / s.step
        close([b.get_x() for b in bars[:5]], left, what="stacked")


def test_ring_all_reduce_picture_colours_each_copy_by_its_share_of_gpus_summed():
    from interlib.plots import ch01

    for n, step in ((4, 3), (6, 7), (8, 0), (5, 8)):
        fig = ch01.ring_all_reduce(n, step)
        ax, cax = fig.axes[:2]
        assert "share of GPUs summed" in cax.get_ylabel()
        shares = collectives.ring_all_reduce_state(n, step) / n
        solids = [c for c in cax.collections if type(c).__name__ == "QuadMesh"][0]
        want = solids.get_cmap()(solids.norm(shares), bytes=True)
        img = np.asarray(ax.images[0].get_array())
        assert img.shape == want.shape
        assert (img == want).all(), f"n={n} step={step}: colours are not the shares"
    # the state itself, by hand: after the n - 1 reduce-scatter steps each GPU holds one
    # chunk summed over all n GPUs; after all 2(n - 1) steps every copy is complete
    for n in (2, 4, 7):
        st = collectives.ring_all_reduce_state(n, n - 1)
        assert sorted((st == n).sum(axis=1).tolist()) == [1] * n
        assert (collectives.ring_all_reduce_state(n, 2 * (n - 1)) == n).all()


# ================================================ diagrams that draw data to scale
def test_bandwidth_ladder_diagram_bars_are_proportional_to_the_rates():
    from interlib.plots.diagrams import overview

    for system in ("dgx-h100", "gb200-nvl72"):
        fig = overview.bandwidth_ladder(system)
        ax = fig.axes[0]
        rungs = hierarchy.ladder(system)
        widest = max(r.peak for r in rungs)
        rects = [p for p in ax.patches if isinstance(p, Rectangle)]
        peaks = [p.get_width() for p in rects if p.zorder == 3]
        cores = [p.get_width() for p in rects if p.zorder == 4]
        close(peaks, [max(9.4 * r.peak / widest, 0.04) for r in rungs], what="peak bars")
        close(cores, [max(9.4 * r.effective / widest, 0.02) for r in rungs],
              what="achieved cores")


def test_packet_diagram_bar_is_the_packet_to_scale():
    from interlib import packets
    from interlib.plots.diagrams import fabric

    for payload, ipv6 in ((4096, False), (256, True)):
        fig = fabric.packet_layers(payload, ipv6)
        ax = fig.axes[0]
        # the bottom bar: headers, payload, trailers, 9.4 units for the whole wire length
        bar = sorted((p for p in ax.patches if isinstance(p, Rectangle)
                      and abs(p.get_y() - 0.45) < 1e-9), key=lambda p: p.get_x())
        assert len(bar) == 3
        lay = packets.packet_layout(payload, "rocev2", ipv6=ipv6)
        # by hand: RoCEv2 headers before the payload: MAC 14 + IP (20, IPv6 40) + UDP 8 +
        # BTH 12; after: ICRC 4 + FCS 4 + preamble/gap 20
        head = 14 + (40 if ipv6 else 20) + 8 + 12
        tail = 4 + 4 + 20
        assert lay.wire == head + payload + tail
        close([b.get_width() for b in bar],
              [9.4 * head / lay.wire, 9.4 * payload / lay.wire, 9.4 * tail / lay.wire],
              what="RoCEv2 packet to scale")


def test_nvlink_generations_diagram_link_lengths_are_the_link_rates():
    from interlib.plots import COLORS
    from interlib.plots.diagrams import inside_box

    fig = inside_box.nvlink_generations()
    ax = fig.axes[0]
    links = [ln for ln in ax.get_lines()
             if matplotlib.colors.same_color(ln.get_color(), COLORS["blue"])]
    lengths = [np.ptp(ln.get_xdata()) for ln in links]
    fast = max(nv.per_link.value for nv in NVLINK.values())
    want = [6.6 * NVLINK[g].per_link.value / fast
            for g in sorted(NVLINK) for _ in range(int(NVLINK[g].links_per_gpu.value))]
    close(sorted(lengths), sorted(want), what="one line per link, length = rate")


# ============================================================================ coverage
CHECKED = {
    "appendix": {"busbw_vs_gpus", "error_by_size", "your_cluster"},
    "ch01": {"gradient_sync", "parallelism_traffic", "ring_all_reduce", "straggler"},
    "ch02": {"allreduce_pcie_vs_nvlink", "pcie_transfer", "shared_uplink"},
    "ch03": {"nvlink_transfer", "p2p_vs_staged", "tp_comm_share"},
    "ch04": {"bisection", "mesh_vs_switch", "ring_vs_nvls"},
    "ch05": {"allreduce_multinode", "credit_flow", "fat_tree_sizing", "topology_comparison"},
    "ch06": {"dcqcn", "drop_slowdown", "ecmp", "pfc_storm"},
    "ch07": {"ladder", "layout"},
    "ch08": {"capstone_design", "idle_cost", "scaling_efficiency"},
    "check": {"comparison"},
    "diagrams.overview": {"bandwidth_ladder", "ring_all_reduce_steps", "capstone_layout"},
    "diagrams.fabric": {"packet_layers", "fat_tree", "rail_optimised"},
    "diagrams.inside_box": {"nvlink_generations", "pcie_tree", "nvswitch_wiring",
                            "nvl72_rack"},
}


#: Public functions of interlib/plots that draw no data series (they return numbers for a
#: demo's text, or draw a message), with the check that covers what they return.
NOT_DATA = {
    "appendix.nearest_published": "returns the published series the demo marks (checked "
                                  "through your_cluster's markers)",
    "appendix.your_cluster_summary": "returns the demo's text (test_reader_text reads it)",
    "ch03.tp_layer_cost": "returns tensor_parallel.layer_cost (a LayerCost), no figure",
    "ch04.full_chunk_size": "returns a size in bytes (the ring_vs_nvls marker line)",
    "ch05.nccl_algorithm_label": "returns a legend label string",
    "ch05.allreduce_at": "returns the predictions allreduce_multinode marks (checked there)",
    "ch05.credit_runs": "returns the runs credit_flow draws (checked there)",
    "ch06.dcqcn_run": "returns the DCQCN run dcqcn draws (checked there)",
    "ch06.drop_stats": "returns the drop statistics drop_slowdown marks (checked there)",
    "ch06.pfc_storm_run": "returns the PFC run pfc_storm draws (checked there)",
    "ch06.ecmp_point": "returns the two values ecmp marks (checked there)",
    "ch08.fits": "returns booleans (which GPU counts fit in HBM)",
    "ch08.efficiency_sweep": "returns what scaling_efficiency draws (checked there)",
    "ch08.communication_costs": "returns what idle_cost draws (checked there)",
    "cluster.build": "returns a node or the error that says why not",
    "cluster.nearest_published": "returns published series (your_cluster draws them)",
    "cluster.your_cluster_summary": "returns text",
    "check.alt_text": "returns text",
    "check.message": "draws a message, no data",
}
#: Diagrams that draw structure, not data (their counts are checked in test_diagrams.py):
#: listed in CHECKED above so a new diagram is noticed, not data-checked here.
STRUCTURE_ONLY = {"diagrams.overview.ring_all_reduce_steps": "test_ring_steps_follow_the_"
                  "algorithm",
                  "diagrams.overview.capstone_layout": "test_capstone_layout_counts",
                  "diagrams.fabric.fat_tree": "test_fat_tree_counts_are_al_fares",
                  "diagrams.fabric.rail_optimised": "test_rail_optimised_scalable_unit",
                  "diagrams.inside_box.pcie_tree": "test_dgx_h100_pcie_tree_matches_the_"
                  "user_guide",
                  "diagrams.inside_box.nvswitch_wiring": "test_dgx_h100_nvswitch_wiring_is_"
                  "5_4_4_5",
                  "diagrams.inside_box.nvl72_rack": "test_nvl72_rack_counts"}


def test_every_plot_function_is_checked():
    import importlib

    missing = []
    for mod_name, checked in CHECKED.items():
        mod = importlib.import_module(f"interlib.plots.{mod_name}")
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if name.startswith("_") or fn.__module__ != mod.__name__:
                continue
            if name not in checked and f"{mod_name}.{name}" not in NOT_DATA:
                missing.append(f"{mod_name}.{name}")
    assert not missing, f"plot functions without a data check: {missing}"


def test_structure_only_diagrams_have_their_count_tests():
    from pathlib import Path

    src = (Path(__file__).parent / "test_diagrams.py").read_text(encoding="utf-8")
    for name, test in STRUCTURE_ONLY.items():
        mod, fn = name.rsplit(".", 1)
        assert fn in CHECKED[mod], name
        assert f"def {test}(" in src, f"{name}: tests/test_diagrams.py has no {test}"
