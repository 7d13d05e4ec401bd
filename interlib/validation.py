"""How good is the collective model? Published measurements vs :func:`~interlib.collectives.predict`.

The measurements ship with the book in ``interlib/data/nccl_measurements.csv``, one row per
published point, each with its source and URL (Appendix A). Each row still carries the
``role`` it had before issue 25 (``calibration``: a row a constant was once fitted to by
hand; ``holdout``: any other), kept as history: the book's calibrated constants are now fitted
to every row by :func:`interlib.crossval.fit`, and the errors the book prints are
cross-validated by source (:func:`interlib.crossval.cross_validate`), so no printed error is
in-sample. :func:`evaluate` here times the model with the catalogue's constants (fitted to
every row).

Error measures, per point (predicted ``p``, measured ``m``, both busbw in bytes/s):

* relative error ``|p - m| / m`` (0.1 = 10 %);
* fold error ``max(p/m, m/p)`` (1 = exact, 2 = off by a factor of two either way).

Message-size regimes are defined once, in :data:`interlib.intervals.REGIMES` (``REGIMES``
here is the same object).

>>> rows = load_measurements()
>>> sorted({r.role for r in rows})
['calibration', 'holdout']
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import _validate as v
from . import collectives, display, intervals
from .specs import GPUS, SYSTEMS, custom, nccl_tuning
from .collective_model.calibrated import cal
from .specs import calibration as C
from .units import GB_per_s, Gbit_per_s, MiB

DATA_PATH = Path(__file__).resolve().parent / "data" / "nccl_measurements.csv"
"""Where the shipped measurements live, as package data (``interlib/data``), so the same file
is read wherever interlib runs (CPython, the site's Pyodide, JupyterLite)."""

ROLES = ("calibration", "holdout")
COLUMNS = ("id", "role", "source", "url", "system", "gpu", "gpus_per_node", "nodes",
           "nics_per_node", "nic_gbps", "fabric", "nccl_version", "collective", "algorithm",
           "size_bytes", "busbw_GBps", "note")

SCALES, REGIMES = intervals.SCALES, intervals.REGIMES  # defined once, in interlib.intervals


regime_bounds = intervals.regime_bounds
"""A regime's size range in words: :func:`interlib.intervals.regime_bounds`."""


def pipeline_saturation_size() -> float:
    """Message size, bytes, at which the model's pipeline-fill chunk stops growing.

    :func:`interlib.collectives.predict` charges a pipeline fill of ``(steps - 1) x
    min(window, size / chunks) / bandwidth``; the chunk reaches the window (and the fill
    term stops growing) at ``size = window x chunks``
    (:data:`interlib.specs.calibration.PIPELINE_WINDOW` and ``PIPELINE_CHUNKS``).

    >>> from interlib.specs import calibration as C
    >>> pipeline_saturation_size() == C.PIPELINE_WINDOW.value * C.PIPELINE_CHUNKS.value
    True
    """
    from .specs import calibration as C

    return float(C.PIPELINE_WINDOW.value * C.PIPELINE_CHUNKS.value)


@dataclass(frozen=True)
class Measurement:
    """One published point (a row of the CSV).

    Attributes:
        id: Stable row id, e.g. ``"V1-24"`` (the fact sheet's section and row).
        role: ``"calibration"`` or ``"holdout"``.
        source: Who published it, where.
        url: Link to the source.
        system: Catalogue id of the closest system (``interlib.specs.SYSTEMS``).
        gpu: GPU catalogue id (``interlib.specs.GPUS``).
        gpus_per_node: GPUs per node (NVLink domain) taking part.
        nodes: Number of nodes.
        nics_per_node: Scale-out NICs per node.
        nic_gbps: Their port rate, Gb/s per direction.
        fabric: The network as the source names it (``"InfiniBand"``, ``"Ethernet
            (RoCE)"``, ``"EFA (Ethernet)"`` ...).
        nccl_version: NCCL version, or ``"not stated"``.
        collective: One of :data:`interlib.collectives.COLLECTIVES`.
        algorithm: ``"auto"`` (NCCL's default choice) or the algorithm the source names
            (``NCCL_ALGO=NVLSTree`` is ``"nvls_tree"``; ``"nvls"`` only on one node).
        size_bytes: nccl-tests size, bytes.
        busbw: Measured bus bandwidth, bytes/s (the CSV stores GB/s).
        note: Conditions and every assumption made to turn the source into this row.
    """

    id: str
    role: str
    source: str
    url: str
    system: str
    gpu: str
    gpus_per_node: int
    nodes: int
    nics_per_node: int
    nic_gbps: float
    fabric: str
    nccl_version: str
    collective: str
    algorithm: str
    size_bytes: float
    busbw: float
    note: str

    @property
    def total_gpus(self) -> int:
        """GPUs taking part: GPUs per node x nodes."""
        return self.gpus_per_node * self.nodes

    @property
    def series(self) -> str:
        """The published series the row belongs to: its id up to the dash (``"CW1"``)."""
        return self.id.split("-")[0]


def _row(d: dict, line: int) -> Measurement:
    where = f"row {line} (id={d.get('id')!r})"
    for c in COLUMNS:
        if c not in d or d[c] is None or (c != "note" and not str(d[c]).strip()):
            raise ValueError(f"{c} is missing in {where}")
    try:
        g, k = int(d["gpus_per_node"]), int(d["nodes"])
        size, bw = float(d["size_bytes"]), float(d["busbw_GBps"])
        nics, gbps = int(d["nics_per_node"]), float(d["nic_gbps"])
    except ValueError as e:
        raise ValueError(f"a numeric field in {where} is not a number: {e}") from None
    v.choice("role", d["role"], ROLES)
    v.choice("system", d["system"], SYSTEMS)
    v.choice("gpu", d["gpu"], GPUS)
    v.integer("nics_per_node", nics, lo=1, hi=1024)
    v.positive("nic_gbps", gbps)
    if not d["fabric"].startswith(custom.FABRICS):
        raise ValueError(f"fabric={d['fabric']!r} in {where} must start with one of "
                         f"{custom.FABRICS}")
    v.choice("collective", d["collective"], collectives.COLLECTIVES)
    v.choice("algorithm", d["algorithm"], collectives.ALGORITHMS)
    v.integer("gpus_per_node", g, lo=1, hi=SYSTEMS[d["system"]].gpus_per_node)
    v.integer("nodes", k, lo=1)
    if d["algorithm"] == "nvls" and k > 1:
        raise ValueError(f"algorithm='nvls' in {where} runs across {k} nodes: label "
                         "NCCL_ALGO=NVLSTree 'nvls_tree' (NCCL's NVLS across nodes is NVLS + "
                         "CollNet, which the model does not cover)")
    if d["algorithm"] == "nvls_tree" and k == 1:
        raise ValueError(f"algorithm='nvls_tree' in {where} is on one node, where NCCL "
                         "disables NVLSTree: label it 'nvls'")
    v.positive("size_bytes", size)
    v.positive("busbw_GBps", bw)
    if not d["url"].startswith(("https://", "http://")):
        raise ValueError(f"url={d['url']!r} in {where} must be an http(s) link")
    return Measurement(d["id"], d["role"], d["source"], d["url"], d["system"], d["gpu"], g, k,
                       nics, gbps, d["fabric"], d["nccl_version"], d["collective"],
                       d["algorithm"], size, bw * GB_per_s, d["note"])


def load_measurements(path=None, role: str | None = None) -> list[Measurement]:
    """Read the shipped measurements.

    Args:
        path: CSV file (default :data:`DATA_PATH`) with the columns in :data:`COLUMNS`.
        role: Keep only ``"calibration"`` or ``"holdout"`` rows (default: all).

    Returns:
        A list of :class:`Measurement`, in file order.

    Raises:
        ValueError: naming the field and row, for a missing field, an unknown system,
            role, collective or algorithm, a non-positive size or bandwidth, a non-URL
            source link or a duplicate id.
    """
    if role is not None:
        v.choice("role", role, ROLES)
    if path is not None:
        v.instance("path", path, (str, os.PathLike), "a file path (str or pathlib.Path)")
    p = Path(DATA_PATH if path is None else path)
    if not p.is_file():
        raise ValueError(f"path={str(p)!r} is not a file")
    with p.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"path={str(p)!r} lacks columns {missing}")
        rows = [_row(d, i + 2) for i, d in enumerate(reader)]
    ids = [r.id for r in rows]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"id values {dup} appear more than once in {str(p)!r}")
    return [r for r in rows if role is None or r.role == role]


regime = intervals.regime
"""The size regime of each size: :func:`interlib.intervals.regime` itself (the one
classifier; this name is kept for the modules and notebooks that call it here)."""


def fabric_kind(fabric: str) -> str:
    """The network kind (:data:`interlib.specs.custom.FABRICS`) a CSV fabric names.

    >>> fabric_kind("EFA (Ethernet)"), fabric_kind("Ethernet (RoCE)")
    ('EFA', 'Ethernet')
    """
    v.instance("fabric", fabric, str, "a fabric name from the CSV")
    if "GPUDirect-TCPXO" in fabric:  # Ethernet, but Google's TCP transport
        return "GPUDirect-TCPXO"
    for kind in custom.FABRICS:
        if fabric.startswith(kind):
            return kind
    raise ValueError(f"fabric={fabric!r} must start with one of {custom.FABRICS}")


def node_for(m: "Measurement"):
    """The system a measurement ran on: the catalogue system when the row's NICs match
    it, else :func:`interlib.specs.custom.node` built from the row's GPU, GPUs per node,
    NIC count, NIC speed and fabric (cloud instances, partitions of an NVL72 rack). A
    GPUDirect-TCPXO run gets the Google profile of the NCCL its installer shipped
    (:data:`~interlib.specs.calibration.TCPXO_PROFILE_BY_NCCL`).

    >>> [node_for(r).name for r in load_measurements() if r.id in ("V1-01", "SB4-01")]
    ['dgx-h100', 'SB4-01']
    """
    if not isinstance(m, Measurement):
        raise ValueError(f"m={m!r:.60} must be a validation.Measurement")
    sys_ = SYSTEMS[m.system]
    kind = fabric_kind(m.fabric)
    cat_kind = "InfiniBand" if "InfiniBand" in sys_.nic.fabric else fabric_kind(sys_.nic.fabric)
    buffsize = stated_buffsize(m)
    same = (m.gpus_per_node <= sys_.gpus_per_node and m.nics_per_node == sys_.nics_per_node
            and abs(m.nic_gbps * Gbit_per_s - sys_.nic.rate.value) < 1.0 and kind == cat_kind
            and GPUS[m.gpu] is sys_.gpu
            and buffsize is None)
    if same:
        return sys_
    profile = (C.TCPXO_PROFILE_BY_NCCL.get(m.nccl_version, C.TCPXO_DEFAULT_PROFILE)
               if kind == "GPUDirect-TCPXO" else None)
    version = m.nccl_version if re.fullmatch(r"2\.\d+\.\d+", m.nccl_version) else None
    return custom.node(m.gpu, m.gpus_per_node, nics_per_node=m.nics_per_node,
                       nic_gbps=m.nic_gbps, fabric=kind, intra=sys_.intra, name=m.id,
                       tcpxo_profile=profile, buffsize=buffsize, nccl_version=version)


@dataclass(frozen=True)
class PointResult:
    """The model against one measurement.

    Attributes:
        measurement: The published point.
        predicted: Predicted busbw, bytes/s.
        rel_error: ``|predicted - measured| / measured``.
        fold: ``max(predicted/measured, measured/predicted)`` (>= 1).
        regime: Size regime (:data:`REGIMES`).
        algorithm, protocol: What the model used (its choice for ``"auto"``).
    """

    measurement: Measurement
    predicted: float
    rel_error: float
    fold: float
    regime: str
    algorithm: str
    protocol: str

    @property
    def ratio(self) -> float:
        """predicted / measured (> 1: the model is optimistic)."""
        return self.predicted / self.measurement.busbw

    @property
    def predicted_time(self) -> float:
        """Time of one call the prediction implies, seconds (as :func:`measured_time` for
        the measurement)."""
        return measured_time(self.measurement) / self.ratio


def _measurements(rows) -> list[Measurement]:
    """``rows`` (default: the shipped data) as a non-empty list of :class:`Measurement`."""
    rows = load_measurements() if rows is None else v.items("rows", rows)
    if not rows or not all(isinstance(r, Measurement) for r in rows):
        raise ValueError(f"rows={rows!r:.80} must be a non-empty list of "
                         "validation.Measurement (from load_measurements)")
    return rows


def _results(results) -> list["PointResult"]:
    """``results`` (default: evaluate the shipped data) as a non-empty list of
    :class:`PointResult`."""
    results = evaluate() if results is None else v.items("results", results)
    if not results or not all(isinstance(r, PointResult) for r in results):
        raise ValueError(f"results={results!r:.80} must be a non-empty list of "
                         "validation.PointResult (from evaluate)")
    return results


TIMED_ONE_CALL_MARKER = "all_reduce_bench.py"
"""Rows whose note names this benchmark were timed one ``dist.all_reduce`` per trial on an
idle device (its version of 2026-07-31, :data:`interlib.specs.sources.BEKMAN_ALLREDUCE_BENCH`),
so each measured time includes PyTorch's per-call host overhead."""


def timed_one_call(row) -> bool:
    """Whether a measurement was timed one call at a time through PyTorch on an idle device,
    so :func:`evaluate` adds :data:`~interlib.specs.calibration.TORCH_HOST_OVERHEAD` to the
    model's time for it (the rule is the benchmark named in the row's note, not its error)."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    return TIMED_ONE_CALL_MARKER in row.note


NVLS_OFF_MARKER = "NCCL_NVLS_ENABLE=0"
"""Rows whose note states this setting ran with NVLS and NVLSTree disabled, so
:func:`evaluate` predicts them with ``nvls=False``."""


BUFFSIZE_MARKER = re.compile(r"NCCL_BUFFSIZE=(\d+)")
"""A row whose note states ``NCCL_BUFFSIZE=<bytes>`` ran with that Simple buffer, so
:func:`node_for` gives its node that ``buffsize``."""


def stated_buffsize(row) -> int | None:
    """The ``NCCL_BUFFSIZE`` a measurement's note states, bytes, or None (NCCL's default):
    the rule is the setting the source states, not the model's error."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    found = BUFFSIZE_MARKER.search(row.note)
    return int(found.group(1)) if found else None


def nvls_disabled(row) -> bool:
    """Whether a measurement ran with ``NCCL_NVLS_ENABLE=0`` (its note says so): the rule is
    the setting the source states, not the model's error."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    return NVLS_OFF_MARKER in row.note


def _call_args(row) -> tuple:
    """The positional arguments of :func:`interlib.collectives.predict` (and
    ``nccl_estimate``) for a measurement: collective, size, its node, GPUs per node (at most
    the node's), nodes and algorithm."""
    node = node_for(row)
    return (row.collective, row.size_bytes, node, min(row.gpus_per_node, node.gpus_per_node),
            row.nodes, row.algorithm)


def stated_version(row) -> str | None:
    """The NCCL release a measurement states (``"2.21.5"``), or None (``"not stated"``):
    NCCL's choice and estimate for the row use that release's tuner constants."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    return row.nccl_version if re.fullmatch(r"2\.\d+\.\d+", row.nccl_version) else None


def _call_kwargs(row) -> dict:
    """The keyword arguments of :func:`interlib.collectives.predict` (and
    ``nccl_estimate``) for a measurement: the NVLS setting and NCCL release it states."""
    return {"nvls": not nvls_disabled(row), "nccl_version": stated_version(row)}


GPUS_PER_THREAD_MARKER = re.compile(r"(?<![\w-])-g (\d+)\b")
"""A row whose note states nccl-tests' ``-g N`` ran one thread driving N GPUs."""


def gpus_per_thread(row) -> int:
    """The GPUs one nccl-tests thread drove in a measurement (``-g N`` in its note; 1, one
    process per GPU, the way MPI or Slurm launches it, when the note does not say): the
    rule is the setting the source states, not the model's error."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    found = GPUS_PER_THREAD_MARKER.search(row.note)
    return int(found.group(1)) if found else 1


def method_time(row, time_s):
    """The time a measurement's method adds to a collective's time ``time_s`` (s, scalar or
    array), the benchmark's own cost, not the collective's:

    * one call at a time through PyTorch (:func:`timed_one_call`): plus
      :data:`~interlib.specs.calibration.TORCH_HOST_OVERHEAD` per call;
    * one nccl-tests thread driving N GPUs (:func:`gpus_per_thread`): the thread launches
      the N GPUs' kernels one after another while the GPUs work, so an iteration takes at
      least ``N x HOST_LAUNCH_PER_GPU`` (calibrated): ``max(time, N x launch)``; one GPU
      per process never waits on it (the model's own launch overhead covers it)."""
    t = np.asarray(time_s, dtype=float)
    if timed_one_call(row):
        t = t + C.TORCH_HOST_OVERHEAD.value
    n = gpus_per_thread(row)
    if n > 1:
        t = np.maximum(t, n * cal("HOST_LAUNCH_PER_GPU"))
    return t


def evaluate(rows=None) -> list[PointResult]:
    """Predict every measurement with :func:`interlib.collectives.predict` and compare.

    One model, the same constants for every row: nothing here is fitted.

    Args:
        rows: Measurements (default: :func:`load_measurements`).

    Returns:
        One :class:`PointResult` per row, in order.
    """
    rows = _measurements(rows)
    out = []
    for r in rows:
        p = collectives.predict(*_call_args(r), **_call_kwargs(r))
        # the benchmark's own host cost, not the collective's (measurement method)
        busbw = float(p.busbw * p.time_s / method_time(r, p.time_s))
        ratio = busbw / r.busbw
        out.append(PointResult(r, busbw, abs(ratio - 1.0), max(ratio, 1.0 / ratio),
                               regime(r.size_bytes), p.algorithm, p.protocol))
    return out


@dataclass(frozen=True)
class Summary:
    """Error statistics of one group of points.

    Attributes:
        role: ``"calibration"``, ``"holdout"`` or ``"all"``.
        regime: A regime name or ``"all"``.
        count: Number of points.
        median_error: Median relative error.
        worst_error: Largest relative error.
        worst_fold: Largest fold error.
        worst_id: Id of the point with the largest relative error.
        worst_fold_id: Id of the point with the largest fold error (another point than
            ``worst_id`` when the worst miss is an under-prediction: predicting 0.4 of the
            measured busbw is a 60 % error but 2.5x off, predicting 1.7x is 70 % and 1.7x).
    """

    role: str
    regime: str
    count: int
    median_error: float
    worst_error: float
    worst_fold: float
    worst_id: str
    worst_fold_id: str


def _summ(role, reg, res) -> Summary:
    err = np.array([r.rel_error for r in res])
    fold = np.array([r.fold for r in res])
    i, j = int(np.argmax(err)), int(np.argmax(fold))
    return Summary(role, reg, len(res), float(np.median(err)), float(err[i]),
                   float(fold[j]), res[i].measurement.id, res[j].measurement.id)


def summary_by_regime(results=None) -> list[Summary]:
    """Median and worst error by role (calibration, holdout, all) and size regime.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).

    Returns:
        :class:`Summary` rows: for each role, one per regime that has points, then that
        role over all sizes. Groups without points are left out.
    """
    results = _results(results)
    out = []
    for role in ROLES + ("all",):
        res_role = [r for r in results if role == "all" or r.measurement.role == role]
        if not res_role:
            continue
        for name, _, _ in REGIMES:
            grp = [r for r in res_role if r.regime == name]
            if grp:
                out.append(_summ(role, name, grp))
        out.append(_summ(role, "all", res_role))
    return out


def summary_table(results=None) -> display.Table:
    """:func:`summary_by_regime` as a table for the book."""
    rows = [[s.role, s.regime, s.count, display.fmt_pct(s.median_error, 2),
             display.fmt_pct(s.worst_error, 2), s.worst_id, display.fmt_ratio(s.worst_fold, 3),
             s.worst_fold_id]
            for s in summary_by_regime(results)]
    return display.Table(
        ["points", "size regime", "n", "median error", "worst error", "its point",
         "worst fold", "its point"], rows,
        caption="Error of collectives.predict against the published busbw in "
                "interlib/data/nccl_measurements.csv (relative error |predicted - measured| / "
                "measured; fold = max(p/m, m/p)). Regimes: "
                + "; ".join(f"{n} {regime_bounds(n)}" for n, _, _ in REGIMES) + ".")


def closing_summary(results=None, role: str = "all") -> str:
    """Median and worst error by size regime, as sentences (Appendix A's closing section).

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        role: ``"calibration"``, ``"holdout"`` or ``"all"`` points (default ``"all"``).

    Returns:
        One line per regime that has points, then one for all sizes.
    """
    v.choice("role", role, ROLES + ("all",))
    rows = [s for s in summary_by_regime(results) if s.role == role]
    if not rows:
        raise ValueError(f"role={role!r} has no points in these results")
    lines = []
    for s in rows:
        where = "all sizes" if s.regime == "all" else \
            f"{s.regime} ({regime_bounds(s.regime)})"
        # the worst fold is that point's own only when one point is worst both ways
        worst = (f"({s.worst_id}, off by {display.fmt_ratio(s.worst_fold, 3)})"
                 if s.worst_fold_id == s.worst_id else
                 f"({s.worst_id}); worst fold {display.fmt_ratio(s.worst_fold, 3)} "
                 f"({s.worst_fold_id})")
        lines.append(f"{where}: {s.count} point{'s' if s.count != 1 else ''}, median error "
                     f"{display.fmt_pct(s.median_error, 2)}, worst "
                     f"{display.fmt_pct(s.worst_error, 2)} {worst}")
    return "\n".join(lines)


def regime_counts(results=None, role: str = "all") -> dict:
    """Number of points in each size regime (zeros included) for one role.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        role: ``"calibration"``, ``"holdout"`` or ``"all"``.

    Returns:
        ``{regime name: count}`` in :data:`REGIMES` order.
    """
    results = _results(results)
    v.choice("role", role, ROLES + ("all",))
    return {name: sum(1 for r in results if r.regime == name
                      and (role == "all" or r.measurement.role == role))
            for name, _, _ in REGIMES}


def miss_range(results=None, threshold: float = 0.1, regime_name: str | None = None,
               system: str | None = None) -> tuple[float, float]:
    """Smallest and largest message size (bytes) among points the model misses by more
    than ``threshold`` (relative error), optionally within one regime and one system.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        threshold: Relative error, (0, 1]; 0.1 = points off by more than 10 %.
        regime_name: A :data:`REGIMES` name, or None for all sizes.
        system: A system id in the data, or None for all systems.

    Raises:
        ValueError: for bad arguments, or when no point matches.
    """
    results = _results(results)
    v.fraction("threshold", threshold)
    if regime_name is not None:
        v.choice("regime_name", regime_name, [r[0] for r in REGIMES])
    if system is not None:
        v.choice("system", system, sorted({r.measurement.system for r in results}))
    sizes = [r.measurement.size_bytes for r in results if r.rel_error > threshold
             and (regime_name is None or r.regime == regime_name)
             and (system is None or r.measurement.system == system)]
    if not sizes:
        raise ValueError(f"threshold={threshold!r}: no point is missed by more than that "
                         f"(regime_name={regime_name!r}, system={system!r})")
    return float(min(sizes)), float(max(sizes))


def miss_range_text(results=None, threshold: float = 0.1, regime_name: str | None = None,
                    system: str | None = None) -> str:
    """:func:`miss_range` in words, e.g. ``'16 MiB to 64 MiB'`` (sizes as nccl-tests
    prints them)."""
    return _range_text(*miss_range(results, threshold, regime_name, system))


def size_range_text(results) -> str:
    """The sizes of some results in words, smallest to largest (``'1 MiB to 1 GiB'``)."""
    sizes = [r.measurement.size_bytes for r in _results(results)]
    return _range_text(min(sizes), max(sizes))


def _range_text(lo: float, hi: float) -> str:
    return _fmt_size(lo) if lo == hi else f"{_fmt_size(lo)} to {_fmt_size(hi)}"


def _fmt_size(size: float) -> str:
    """Binary units for whole MiB (nccl-tests sweeps), decimal otherwise (``10 GB``)."""
    binary = size < MiB or float(size / MiB).is_integer()
    return display.fmt_bytes(size, binary=binary)


def points_table(results=None, role: str | None = None) -> display.Table:
    """Every point: measured and predicted busbw, error, and what the model chose.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        role: Keep only ``"calibration"`` or ``"holdout"`` points (default: all).
    """
    results = _results(results)
    if role is not None:
        v.choice("role", role, ROLES)
    rows = []
    for r in results:
        m = r.measurement
        if role is not None and m.role != role:
            continue
        gpus = f"{m.gpus_per_node}x{m.nodes}" if m.nodes > 1 else str(m.gpus_per_node)
        err = int(round(100 * (r.ratio - 1)))
        rows.append([m.id, m.system, gpus, m.collective, _fmt_size(m.size_bytes),
                     display.fmt_rate(m.busbw), display.fmt_rate(r.predicted),
                     f"{err:+d} %", f"{r.algorithm}/{r.protocol}"])
    return display.Table(
        ["id", "system", "GPUs", "collective", "size", "measured busbw", "predicted busbw",
         "error", "model used"], rows,
        caption="busbw is per direction (nccl-tests definition); error = predicted / "
                "measured - 1. Sources and assumptions: the CSV's source, url and note "
                "columns.")


def id_runs(ids) -> str:
    """Point ids written as runs of consecutive numbers: ``V9-05..V9-06, V9-08``.

    A run joins ids with the same prefix and consecutive numbers only, so an id that
    belongs to another source never hides inside a range.

    Args:
        ids: A non-empty sequence of ids of the form ``PREFIX-NN`` (as in the CSV).

    >>> id_runs(["V9-05", "V9-06", "V9-08", "V9-09"])
    'V9-05..V9-06, V9-08..V9-09'
    >>> id_runs(["V3-01"])
    'V3-01'
    """
    if isinstance(ids, str) or not hasattr(ids, "__len__") or len(ids) == 0:
        raise ValueError(f"ids={ids!r} is out of range: must be a non-empty list of ids "
                         "like 'V9-05'")
    parsed = []
    for i in ids:
        prefix, _, num = str(i).rpartition("-")
        if not prefix or not num.isdigit():
            raise ValueError(f"ids contains {i!r}: each id must look like 'V9-05'")
        parsed.append((prefix, int(num), str(i)))
    runs: list[list] = []
    for prefix, num, text in parsed:
        if runs and runs[-1][0] == prefix and runs[-1][2] == num - 1:
            runs[-1][2], runs[-1][4] = num, text
        else:
            runs.append([prefix, num, num, text, text])
    return ", ".join(r[3] if r[3] == r[4] else f"{r[3]}..{r[4]}" for r in runs)


def sources_table(rows=None) -> display.Table:
    """One line per source in the data: its points, role, systems and link.

    Args:
        rows: Measurements (default: :func:`load_measurements`), a non-empty list.
    """
    rows = _measurements(rows)
    seen: dict = {}
    for r in rows:
        e = seen.setdefault((r.source, r.url), {"ids": [], "roles": set(), "systems": set()})
        e["ids"].append(r.id)
        e["roles"].add(r.role)
        e["systems"].add(r.system)
    out = [[id_runs(e["ids"]),
            len(e["ids"]), "/".join(sorted(e["roles"])), ", ".join(sorted(e["systems"])),
            src, url] for (src, url), e in seen.items()]
    return display.Table(["ids", "points", "role", "systems", "source", "url"], out,
                         caption="Sources of interlib/data/nccl_measurements.csv.")


def curves(rows=None) -> list[dict]:
    """The measured series to plot: points grouped by (source, system, GPUs, nodes,
    collective, algorithm), each with arrays ``size`` (bytes) and ``busbw`` (bytes/s).

    Returns:
        A list of dicts with keys ``label``, ``role``, ``system``, ``node`` (the system
        it ran on, :func:`node_for`), ``gpus_per_node``, ``nodes``, ``collective``,
        ``algorithm``, ``ids``, ``size``, ``busbw``.
    """
    rows = _measurements(rows)
    groups: dict = {}
    for r in rows:
        key = (r.source, r.system, r.gpus_per_node, r.nodes, r.collective, r.algorithm,
               r.series)
        groups.setdefault(key, []).append(r)
    out = []
    for (src, sysid, g, k, coll, alg, _), rs in groups.items():
        rs = sorted(rs, key=lambda r: r.size_bytes)
        gpus = f"{g} GPUs" if k == 1 else f"{g}x{k} GPUs"
        out.append({"label": f"{rs[0].id.split('-')[0]}: {sysid}, {gpus}, {coll} ({alg})",
                    "role": rs[0].role, "system": sysid, "node": node_for(rs[0]),
                    "gpus_per_node": g, "nodes": k,
                    "collective": coll, "algorithm": alg, "ids": [r.id for r in rs],
                    "size": np.array([r.size_bytes for r in rs]),
                    "busbw": np.array([r.busbw for r in rs])})
    return out


def calibrated_constants() -> dict:
    """The constants of :mod:`interlib.specs.calibration` that this book fitted (kind
    ``"calibrated"``), by name; every other constant there is NCCL's own.

    >>> sorted(calibrated_constants())[:2]
    ['HOST_LAUNCH_PER_GPU', 'LAUNCH_OVERHEAD']
    """
    from .specs import calibration as C
    from .specs._base import Spec

    return {k: s for k, s in vars(C).items() if isinstance(s, Spec) and s.kind == "calibrated"}


def calibration_table() -> display.Table:
    """The constants behind :func:`interlib.collectives.predict` that are not plain link
    rates: the book's calibrated constants (:func:`calibrated_constants`) and NCCL's
    efficiency factors, each with its kind and source (from
    :mod:`interlib.specs.calibration`)."""
    from .specs import calibration as C

    def fmt(s):
        if s.unit == "us":
            return display.fmt_time(s.value)
        if s.unit == "B":
            return display.fmt_bytes(s.value, binary=True)
        if s.unit == "GB_per_s":
            return display.fmt_rate(s.value)
        if s.unit == "fraction":
            return f"{s.value:.3g}"
        return f"{s.value:g}"

    items = [("launch overhead", C.LAUNCH_OVERHEAD),
             ("host launch per GPU (one thread driving N GPUs, -g N)", C.HOST_LAUNCH_PER_GPU),
             ("pipeline window", C.PIPELINE_WINDOW), ("pipeline chunks", C.PIPELINE_CHUNKS),
             ("NVLS pipeline steps per GPU", C.NVLS_PIPELINE_STEPS_PER_GPU),
             ("NVLS chunk time, rack-scale domain", C.NVLS_CHUNK_TIME_RACK),
             ("LL128 efficiency", C.PROTOCOL_EFFICIENCY["LL128"]),
             ("tree efficiency", C.TREE_EFFICIENCY),
             ("NVLS efficiency, Hopper", C.NVLS_EFFICIENCY["Hopper"]),
             ("NVLS efficiency, Blackwell", C.NVLS_EFFICIENCY["Blackwell"]),
             ("network efficiency (fitted)", C.NET_EFFICIENCY),
             ("NVLS channels, Hopper", C.NVLS_CHANNELS["Hopper"]),
             ("NVLS channels, Blackwell, across NVLink domains", C.NVLS_CHANNELS["Blackwell"]),
             ("NVLS channels, Blackwell, one NVLink domain (NCCL 2.27.3 on)",
              C.NVLS_CHANNELS["Blackwell, one NVLink domain"]),
             ("NVLS chunk", C.NVLS_CHUNK),
             ("NVLSTree chunk from 4 nodes", C.NVLS_TREE_CHUNK_MANY_NODES),
             ("NVLSTree heads per domain, at most", C.NVLS_MAX_HEADS),
             ("network plugin latency, EFA (p5en, p6)", C.NET_PLUGIN_LATENCY["EFA"]),
             ("network plugin latency, EFA (p4d, p5)", C.NET_PLUGIN_LATENCY["EFA 100G"]),
             ("NCCL network post overhead, Intel host", C.NCCL_NET_OVERHEAD["Intel"]),
             ("NCCL network post overhead, AMD host", C.NCCL_NET_OVERHEAD["AMD"]),
             ("network plugin latency, GPUDirect-TCPXO", C.NET_PLUGIN_LATENCY["GPUDirect-TCPXO"]),
             ("GPUDirect-TCPXO step latency (fitted)", C.TCPXO_STEP_LATENCY),
             ("Simple buffer, GPUDirect-TCPXO profile", C.FABRIC_BUFFSIZE["GPUDirect-TCPXO"]),
             ("Simple buffer, NCCL default", C.NCCL_DEFAULT_BUFFSIZE),
             ("AWS region tuner from nodes", C.AWS_TUNER_MIN_NODES),
             ("multi-node Ring/Simple latency factor", C.RING_SIMPLE_INTERNODE_LATENCY_FACTOR),
             ("NVLS minimum GPUs", C.NVLS_MIN_GPUS),
             ("NVLSTree correction entries, x86 Blackwell (NCCL v2.29)",
              C.NVLS_TREE_CORRECTION_SOURCE),
             ("PyTorch per-call host overhead (rows timed one call at a time)",
              C.TORCH_HOST_OVERHEAD)]
    return display.Table(["constant", "value", "kind", "source"],
                         [[name, fmt(s), s.kind, s.source.title] for name, s in items],
                         caption="Besides these, predict() uses NCCL's per-algorithm base and "
                                 "per-hop latencies, its protocol and per-channel bandwidth "
                                 "caps and tree corrections (every release's in "
                                 "interlib.specs.nccl_tuning) and NCCL's effective NVLink "
                                 "rates (topo.h), all in interlib.specs.")


# ------------------------------------------------------------------ error by scale
TARGET_MEDIAN_ERROR = 0.10
"""The book's target for the model: median error on holdout points at most 10 % in every
GPU-count bucket that has points (issue 15)."""

TARGET_FOLD = 2.0
"""The second target: no holdout point of 1 MiB or more off by more than this factor."""


def buckets_over_target(results=None) -> list[str]:
    """GPU-count buckets whose holdout median error exceeds :data:`TARGET_MEDIAN_ERROR`."""
    return [s.bucket for s in summary_by_scale(results, "holdout")
            if s.median_error > TARGET_MEDIAN_ERROR]


def scale_bucket(n_gpus) -> str:
    """Name of the GPU-count bucket (:data:`SCALES`) of a total GPU count.

    >>> [scale_bucket(n) for n in (8, 72, 144, 1440)]
    ['<= 8', '9-72', '73-512', '> 512']
    """
    n = v.integer("n_gpus", n_gpus, lo=1)
    return next(name for name, lo, hi in SCALES if lo <= n <= hi)


@dataclass(frozen=True)
class ScaleSummary:
    """Error of one GPU-count bucket.

    Attributes:
        bucket: A :data:`SCALES` name.
        count: Points in it.
        median_error: Median relative error.
        worst_fold: Largest fold error.
        worst_id: Id of the point with the largest fold error.
        count_1mib: Points of 1 MiB and more.
        over_2x: Of those, how many the model misses by more than a factor of two.
    """

    bucket: str
    count: int
    median_error: float
    worst_fold: float
    worst_id: str
    count_1mib: int
    over_2x: int


def summary_by_scale(results=None, role: str = "holdout") -> list[ScaleSummary]:
    """Median and worst error per GPU-count bucket (:data:`SCALES`), one role.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        role: ``"holdout"`` (default), ``"calibration"`` or ``"all"``.

    Returns:
        One :class:`ScaleSummary` per bucket that has points, in :data:`SCALES` order.
    """
    results = _results(results)
    v.choice("role", role, ROLES + ("all",))
    out = []
    for name, lo, hi in SCALES:
        grp = [r for r in results if (role == "all" or r.measurement.role == role)
               and lo <= r.measurement.total_gpus <= hi]
        if not grp:
            continue
        worst = max(grp, key=lambda r: r.fold)
        big = [r for r in grp if r.measurement.size_bytes >= MiB]
        out.append(ScaleSummary(name, len(grp), float(np.median([r.rel_error for r in grp])),
                                worst.fold, worst.measurement.id, len(big),
                                sum(1 for r in big if r.fold > 2)))
    return out


# a role in a caption's words ("all": every point, whatever its role)
_ROLE_WORDS = {"holdout": "the holdout points", "calibration": "the calibration points",
               "all": "all the points"}


def scale_table(results=None, role: str = "holdout") -> display.Table:
    """:func:`summary_by_scale` as a table for the book."""
    rows = [[s.bucket, s.count, display.fmt_pct(s.median_error, 3),
             display.fmt_ratio(s.worst_fold, 3), s.worst_id, f"{s.over_2x} of {s.count_1mib}"]
            for s in summary_by_scale(results, role)]
    return display.Table(
        ["GPUs", "points", "median error", "worst fold", "worst point",
         "points >= 1 MiB off by more than 2x"], rows,
        caption=f"Error of collectives.predict on {_ROLE_WORDS[role]} of "
                "interlib/data/nccl_measurements.csv by total GPU count (relative error "
                "|predicted - measured| / measured; fold = max(p/m, m/p)).")


def regime_scale_table(results=None, role: str = "holdout") -> display.Table:
    """Median error of one role's points by size regime (rows) and GPU-count bucket
    (columns); ``-`` where a cell has no points, else ``median (n)``."""
    results = _results(results)
    v.choice("role", role, ROLES + ("all",))
    rows = []
    for reg, _, _ in REGIMES:
        row = [f"{reg} ({regime_bounds(reg)})"]
        for name, lo, hi in SCALES:
            grp = [r.rel_error for r in results if r.regime == reg
                   and (role == "all" or r.measurement.role == role)
                   and lo <= r.measurement.total_gpus <= hi]
            row.append(f"{display.fmt_pct(float(np.median(grp)), 2)} ({len(grp)})"
                       if grp else "-")
        rows.append(row)
    return display.Table(["size regime"] + [f"{s[0]} GPUs" for s in SCALES], rows,
                         caption=f"Median error of {_ROLE_WORDS[role]} by message size and "
                                 "GPU count (number of points in brackets).")


def not_trusted(results=None, threshold: float = 0.1) -> list[str]:
    """Where the model is not to be trusted: each group of holdout points (one series on one
    system, GPU count per node, node count and network) whose median error exceeds
    ``threshold`` or that has a point off by more than 2x, in words with its numbers (the
    sizes off by more than ``threshold``, when there are any).

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        threshold: Median relative error above which a group is listed, (0, 1].
    """
    results = _results(results)
    v.fraction("threshold", threshold)
    groups: dict = {}
    for r in results:
        m = r.measurement
        if m.role != "holdout":
            continue
        groups.setdefault((m.series, m.system, m.gpus_per_node, m.nodes,
                           m.fabric), []).append(r)
    out = []
    for (prefix, sysid, g, k, fab), rs in groups.items():
        med = float(np.median([r.rel_error for r in rs]))
        worst = max(rs, key=lambda r: r.fold)
        if med <= threshold and worst.fold <= 2:
            continue
        text = (f"{prefix} ({sysid}, {g} x {k} GPUs, {fab}): median error "
                f"{display.fmt_pct(med, 2)}, worst {worst.measurement.id} off by "
                f"{display.fmt_ratio(worst.fold, 3)} "
                f"({'optimistic' if worst.ratio > 1 else 'pessimistic'})")
        # a group listed for a point off by more than 2x may have none off by more than a
        # threshold of 0.5 or more: then there is no span of sizes to name
        bad = [r.measurement.size_bytes for r in rs if r.rel_error > threshold]
        if bad:
            lo, hi = min(bad), max(bad)
            span = (_fmt_size(lo) if lo == hi else f"{_fmt_size(lo)} to {_fmt_size(hi)}")
            text += f"; off by more than {display.fmt_pct(threshold, 2)} from {span}"
        out.append(text)
    return out


@dataclass(frozen=True)
class ErrorBand:
    """How far the model is from the published points of one kind of run.

    Attributes:
        count: Points in the band.
        ratio_lo, ratio_hi: Smallest and largest predicted / measured busbw (> 1: the
            model is optimistic).
        median_ratio: Median predicted / measured busbw.
        median_error: Median relative error.
        min_gpus, max_gpus: Smallest and largest total GPU count among the points.
        ids: Row ids of the points, in CSV order.
    """

    count: int
    ratio_lo: float
    ratio_hi: float
    median_ratio: float
    median_error: float
    min_gpus: int
    max_gpus: int
    ids: tuple


def error_band(results=None, *, gpus=None, fabrics=None, multi_node: bool = False,
               regime_name: str | None = None, role: str = "holdout") -> ErrorBand:
    """The spread of the model's error over the published points of one kind of run: the
    numbers a chapter quotes when it says how far its predictions can be trusted.

    Args:
        results: Output of :func:`evaluate` (default: evaluate the shipped data).
        gpus: GPU catalogue ids to keep (``interlib.specs.GPUS``), or None for all.
        fabrics: Network kinds to keep (:func:`fabric_kind` names), or None for all.
        multi_node: Keep only runs across more than one node (NVLink domain).
        regime_name: Keep only one size regime (:data:`REGIMES`), or None for all sizes.
        role: ``"holdout"`` (default), ``"calibration"`` or ``"all"``.

    Raises:
        ValueError: for an unknown GPU, fabric, regime or role, or when no point matches.

    >>> b = error_band(gpus=("h100-sxm",), regime_name="bandwidth-bound", role="calibration")
    >>> b.count > 0 and b.ratio_lo <= b.median_ratio <= b.ratio_hi
    True
    """
    results = _results(results)
    v.choice("role", role, ROLES + ("all",))
    if gpus is not None:
        gpus = tuple(v.choice("gpus", g, tuple(GPUS)) for g in v.items("gpus", gpus))
    if fabrics is not None:
        fabrics = tuple(v.choice("fabrics", f, custom.FABRICS)
                        for f in v.items("fabrics", fabrics))
    v.instance("multi_node", multi_node, bool, "True or False")
    if regime_name is not None:
        v.choice("regime_name", regime_name, tuple(r[0] for r in REGIMES))
    band = [r for r in results
            if (role == "all" or r.measurement.role == role)
            and (gpus is None or r.measurement.gpu in gpus)
            and (fabrics is None or fabric_kind(r.measurement.fabric) in fabrics)
            and (not multi_node or r.measurement.nodes > 1)
            and (regime_name is None or r.regime == regime_name)]
    if not band:
        raise ValueError(f"no {role} point matches gpus={gpus!r}, fabrics={fabrics!r}, "
                         f"multi_node={multi_node!r}, regime_name={regime_name!r}")
    ratios = [r.ratio for r in band]
    counts = [r.measurement.total_gpus for r in band]
    return ErrorBand(len(band), min(ratios), max(ratios), float(np.median(ratios)),
                     float(np.median([r.rel_error for r in band])), min(counts), max(counts),
                     tuple(r.measurement.id for r in band))


def series_ramp(series: str, rows=None) -> dict:
    """How far along its ramp each size of one published series is: busbw divided by the
    series' highest busbw, by size (bytes). Two runs of different size ramp alike where
    these fractions agree, whatever their plateaus.

    Args:
        series: Row-id prefix of the series, e.g. ``"CW1"`` (ids are ``series-NN``).
        rows: Measurements (default: the shipped data).

    >>> ramp = series_ramp("V1")
    >>> max(ramp.values())
    1.0
    """
    by_series: dict = {}
    for r in _measurements(rows):
        by_series.setdefault(r.series, []).append(r)
    mine = by_series[v.choice("series", series, sorted(by_series))]
    top = max(r.busbw for r in mine)
    return {r.size_bytes: r.busbw / top for r in sorted(mine, key=lambda r: r.size_bytes)}


def measured_time(row) -> float:
    """Time of one call a measurement implies, seconds: ``size x bus factor / busbw``
    (nccl-tests' definition undone)."""
    v.instance("row", row, Measurement, "a validation.Measurement")
    return row.size_bytes * collectives.bus_factor(row.collective, row.total_gpus) / row.busbw


def versus_nccl(results=None, release: str | None = None) -> list[float]:
    """Measured time over NCCL's own estimate (:func:`interlib.collectives.nccl_estimate`:
    the pair NCCL's tuning model picks, timed by that model alone) for each result's row,
    with the same arguments and NVLS setting as :func:`evaluate` uses, and the tuner
    constants of the NCCL release the row states (:func:`stated_version`; the default
    release's if it states none), or of ``release`` for every row if given.

    Above 1 the run took longer than NCCL's model expects. Where this ratio is steady over
    sizes while :func:`evaluate`'s ratio drifts, the miss is in a mechanism the book adds
    (Appendix A). As in :func:`evaluate`, a row timed one call at a time through PyTorch
    (:func:`timed_one_call`) gets the benchmark's per-call host overhead added: that is the
    measurement's, not the model's.
    """
    results = _results(results)
    if release is not None:
        v.instance("release", release, str, "an NCCL release like '2.21.5'")
        try:
            nccl_tuning.release(release)
        except ValueError as e:
            raise ValueError(f"release={release!r}: {e}") from None
    out = []
    for r in results:
        m = r.measurement
        kw = _call_kwargs(m) | ({} if release is None else {"nccl_version": release})
        t = float(method_time(m, collectives.nccl_estimate(*_call_args(m), **kw).time_s))
        out.append(measured_time(m) / t)
    return out


def nccl_median_error(results=None, release: str | None = None) -> float:
    """Median error ``|ratio - 1|`` of NCCL's own estimate over ``results``
    (:func:`versus_nccl`, with each run's stated release, or ``release`` for all)."""
    return float(np.median([abs(f - 1) for f in versus_nccl(results, release)]))


def nccl_release_table(results=None, releases=("2.18.5", "2.21.5", "2.26.2", "2.30.7")):
    """Median error of NCCL's own estimate (:func:`versus_nccl`) on every point, with the
    tuner constants of the release each run states, then of each of ``releases`` for every
    run: what taking the run's own release is worth (issue 37 item 4)."""
    results = _results(results)
    v.instance("releases", releases, (tuple, list), "a tuple of NCCL releases like '2.21.5'")
    if not releases:
        raise ValueError("releases=() must name at least one NCCL release")
    stated = [stated_version(r.measurement) for r in results]
    rows = [["the release each run states", len(results),
             f"{sum(s is not None for s in stated)} state one",
             display.fmt_pct(nccl_median_error(results), 3)]]
    for rel in releases:
        rows.append([f"{rel} for every run", len(results),
                     f"{sum(s == rel for s in stated)} ran it",
                     display.fmt_pct(nccl_median_error(results, rel), 3)])
    return display.Table(
        ["NCCL's estimate with the tuner constants of", "points", "runs on that release",
         "median error"], rows,
        caption="NCCL's own estimate (collectives.nccl_estimate) of every published point "
                "under the tuner constants of one release or another "
                "(interlib.specs.nccl_tuning: each constant read from tuning.cc at the "
                "release's tag). A run that states no release is estimated with the "
                "default release's constants in the first row. Error = |predicted - "
                "measured| / measured, as busbw.")


def nccl_baseline_table(results=None) -> display.Table:
    """Holdout median error by GPU-count bucket of the book's model (:func:`evaluate`) next
    to NCCL's own estimate (:func:`versus_nccl`: error ``|ratio - 1|``, as busbw), on the
    same points: what the book's additions to NCCL's model are worth."""
    results = [r for r in _results(results) if r.measurement.role == "holdout"]
    if not results:
        raise ValueError("results has no holdout point")
    both = list(zip(results, versus_nccl(results)))
    rows = []
    for name, lo, hi in SCALES:
        grp = [(r, f) for r, f in both
               if lo <= r.measurement.total_gpus <= hi]
        if grp:
            rows.append([name, len(grp),
                         display.fmt_pct(float(np.median([r.rel_error for r, _ in grp])), 3),
                         display.fmt_pct(float(np.median([abs(f - 1) for _, f in grp])), 3)])
    return display.Table(
        ["GPUs", "holdout points", "median error: this book's model",
         "median error: NCCL's own estimate"], rows,
        caption="The same holdout points predicted by collectives.predict and by NCCL's own "
                "tuning estimate (collectives.nccl_estimate: NCCL's latencies and "
                "bandwidths as tuning.cc combines them, without the book's launch cost, "
                "pipeline fill, unreported plugin latency and NVLS chunk pace, and with "
                "NCCL's per-channel tree cap). Error = |predicted - measured| / measured, "
                "as busbw.")


def time_inversions(rows=None, factor: float = 2.0) -> list[tuple[str, str, float]]:
    """Measurements that took more than ``factor`` times as long as a larger size of the
    same series (same source id prefix, GPUs, nodes, collective and algorithm).

    No cost model can meet such a point and its larger neighbour at once: at one algorithm
    and protocol a call's time does not fall as the message grows, and NCCL's choice is the
    quickest of such times. Each is ``(id, id of the larger, quicker size, ratio of the
    times)``, the larger size being the quickest of those above.
    """
    rows = _measurements(rows)
    v.number("factor", factor, lo=1.0)
    groups: dict = {}
    for r in rows:
        groups.setdefault((r.series, r.gpus_per_node, r.nodes, r.collective,
                           r.algorithm), []).append(r)
    out = []
    for rs in groups.values():
        for r in rs:
            larger = [q for q in rs if q.size_bytes > r.size_bytes]
            if not larger:
                continue
            q = min(larger, key=measured_time)
            ratio = measured_time(r) / measured_time(q)
            if ratio > factor:
                out.append((r.id, q.id, ratio))
    return out


def gpu_count_sweep(size_bytes: float = 8 * 2**30) -> dict:
    """Predicted all-reduce busbw against total GPU count, for the figure of Appendix A:
    DGX H100 nodes (8 to 1,024 GPUs) and GB200 NVL72 racks (72 to 1,440 GPUs), NCCL's
    own choice of algorithm, at one message size.

    Args:
        size_bytes: nccl-tests size, bytes (default 8 GiB), >= 1 MiB.

    Returns:
        ``{label: (gpus, busbw, busbw_low, busbw_high)}``, arrays, bytes/s (the last two
        the 80 % prediction interval).
    """
    v.number("size_bytes", size_bytes, lo=MiB)
    out = {}
    for label, sysid, g, ks in (
            ("DGX H100, 8 GPUs per node", "dgx-h100", 8, (1, 2, 4, 8, 16, 32, 64, 128)),
            ("GB200 NVL72, 72 GPUs per rack", "gb200-nvl72", 72, (1, 2, 4, 8, 12, 16, 20))):
        ps = [collectives.predict("all_reduce", size_bytes, sysid, g, k) for k in ks]
        out[label] = (np.array([g * k for k in ks], dtype=float),
                      np.array([p.busbw for p in ps]), np.array([p.busbw_low for p in ps]),
                      np.array([p.busbw_high for p in ps]))
    return out


def published_at_scale(min_size: float = 2**30, rows=None) -> list[dict]:
    """Published all-reduce points of at least ``min_size`` bytes, one dict per point with
    ``gpus``, ``busbw`` (bytes/s), ``size``, ``role``, ``id``, ``system`` (for the figure).
    """
    v.positive("min_size", min_size)
    rows = _measurements(rows)
    return [{"gpus": r.total_gpus, "busbw": r.busbw, "size": r.size_bytes,
             "role": r.role, "id": r.id, "system": r.system, "algorithm": r.algorithm}
            for r in rows if r.collective == "all_reduce" and r.size_bytes >= min_size]
