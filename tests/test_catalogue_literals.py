"""Every catalogue value against a second witness: the literals of tests/catalogue_literals.py,
typed from the sources (vendor pages, standards, NCCL's source at a commit), not from
interlib.

* ``test_literal_matches_the_catalogue``: one test per row; a row whose ``disagrees`` is set
  keeps the source's value and xfails strictly, naming the disagreement.
* ``test_every_catalogue_value_has_a_literal``: walks interlib/specs (every module, every
  name it assigns at module level, into dicts, tuples and dataclasses) and fails listing
  every value without a row: each :class:`~interlib.specs.Spec`, each number in a catalogue
  record or table (a system's GPU and NIC counts, a generation number ...), the categorical
  fields the models branch on (``CATEGORICAL``) and the catalogue entry a record points to
  (a system's ``gpu`` and ``nic``, compared by their catalogue path).

Adding a catalogue value: run ``pytest tests/test_catalogue_literals.py -k every`` and add
one row per path it lists, as the docstring of tests/catalogue_literals.py says (the value
from the source, the source's words, the source's key). A value that is not a hardware or
published figure goes into ``NOT_FIGURES`` below with its reason; NCCL's tuner constants
and the fitted constants are witnessed elsewhere (``OWNED_ELSEWHERE``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import math
import pkgutil
import re
import types

import pytest

import interlib.specs as specs
from interlib.specs._base import Source, Spec, Status

from catalogue_literals import ROWS, SOURCES

# Units of the rows, typed here (not read from interlib.units): the value in SI is
# literal x factor.
UNITS = {"B": 1.0, "GB": 1e9, "TB": 1e12, "GB/s": 1e9, "TB/s": 1e12, "Gb/s": 1e9 / 8,
         "GT/s": 1e9, "TFLOP/s": 1e12, "us": 1e-6, "ns": 1e-9, "ms": 1e-3, "count": 1.0,
         "fraction": 1.0}

# Non-numeric fields the models branch on, by record type: witnessed like numbers.
CATEGORICAL = {"GPU": ("arch", "pcie_gen", "host_link"), "System": ("intra", "nic_path"),
               "NIC": ("fabric",)}

_TUNING = ("NCCL tuner constant (src/graph/tuning.cc): witnessed by the model helper's "
           "per-version table from tuning.cc (issue 38 item 1)")
_FITTED = ("calibrated: fitted by interlib.crossval.fit to the published runs; "
           "tests/test_validation.py and tests/test_crossval.py refit it")
OWNED_ELSEWHERE = {
    **{f"calibration.{n}": _TUNING for n in (
        "BASE_LATENCY", "HOP_LATENCY", "PROTOCOL_EFFICIENCY", "TREE_EFFICIENCY",
        "NVLS_EFFICIENCY", "RING_SIMPLE_INTERNODE_LATENCY_FACTOR", "PER_CHANNEL_TREE_BW",
        "PER_CHANNEL_TREE_LL128_BW_BLACKWELL", "PER_CHANNEL_NVLS_TREE_BW", "TREE_CORRECTION",
        "TREE_CORRECTION_SOURCE", "NVLS_TREE_CORRECTION_BLACKWELL_X86",
        "NVLS_TREE_CORRECTION_SOURCE")},
    "nccl_tuning.HISTORY": (
        "NCCL tuner constants per release: tests/test_nccl_tuning.py holds the second "
        "literal of every reading with its line's text at its tag "
        "(test_every_constant_has_its_literal, test_each_literal_is_written_in_its_line)"),
    "nccl_tuning.NVLS_HISTORY": (
        "NVLS channel counts per release: tests/test_nccl_tuning.py's NVLS_LITERALS "
        "(test_every_nvls_channel_count_has_its_literal)"),
    "calibration.HOST_LAUNCH_PER_GPU": _FITTED,
    "calibration.AWS_TUNER_P6_ALL_REDUCE": (
        "tuner-plugin constants (aws-ofi-nccl src/tuner/nccl_ofi_regions.cpp, P6 regions): "
        "with the NCCL tuner constants in the model helper's table"),
    **{f"calibration.{n}": _FITTED for n in (
        "FITTED", "NET_EFFICIENCY", "LAUNCH_OVERHEAD", "PIPELINE_WINDOW",
        "NVLS_PIPELINE_STEPS_PER_GPU", "NVLS_CHUNK_TIME_RACK", "TCPXO_STEP_LATENCY",
        "PIPELINE_CHUNKS")},
}

NOT_FIGURES = {
    "calibration.PRE_CV_VALUES": "where interlib.crossval.fit starts its search, not a figure",
    "calibration._E_LL": "computed by calibration._extend from the region's vertices",
    "calibration._E_LL128": "computed by calibration._extend from the region's vertices",
    "calibration._E_NVLST": "computed by calibration._extend from the region's vertices",
    "custom.BUFFSIZE_RANGE": "the NCCL_BUFFSIZE range the reader's node accepts (input "
                             "validation), not a hardware figure",
    "prices.RATES_GBPS": "computed from prices.QUOTES (the rates the sheet prices)",
}

# Values whose source could not be read here to serve as a second witness (checked on
# 2026-11-29 with the search tools): listed, not silently skipped. Each still has the
# catalogue's own source; a new value in these places still needs a row or an entry here.
UNWITNESSED = {
    "prices.QUOTES": "the price pages (LuxOptX, Infrastructure Economics, Yobitel) are not in "
                     "the searchable corpus; tests/test_prices.py checks each quote against "
                     "its source's stored words only",
    "prices.COPPER_REACH_M": "NVIDIA LinkX copper guide not retrieved here",
    "prices.SWITCH_PORTS": "the switch quotes' port count (64) is Quantum-2's, witnessed at "
                           "fabric.SWITCHES['quantum-2'].ports; the 800G quote's box is "
                           "'64-port' per the unretrieved LuxOptX page",
    "calibration.FABRIC_BUFFSIZE": "Google's TCPXO recommended profile (NCCL_BUFFSIZE) not "
                                   "retrieved here",
    "calibration.NET_PLUGIN_LATENCY['GPUDirect-TCPXO']": "Google's TCPXO plugin source not "
                                                         "retrieved here",
}


# ------------------------------------------------------------------ the catalogue walk
def _assigned(mod) -> list[str]:
    """Names a module assigns at top level (not the ones it imports)."""
    names = []
    for node in ast.parse(inspect.getsource(mod)).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _numbers(x) -> bool:
    return isinstance(x, (tuple, list)) and len(x) > 0 and \
        all(_number(y) or _numbers(y) for y in x)


def _record(x) -> bool:
    return dataclasses.is_dataclass(x) and not isinstance(x, (type, Spec, Source, Status))


def _rank(path: str):
    parts = [p for p in re.split(r"[.\[\]]", path) if p and not p.startswith(("'", '"'))]
    return (any(p.startswith("_") for p in parts[1:]), path.count(".") + path.count("["), path)


def _walk(visit):
    for info in sorted(pkgutil.iter_modules(specs.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"interlib.specs.{info.name}")
        for name in _assigned(mod):
            stack = [(getattr(mod, name), f"{info.name}.{name}", None, 0)]
            while stack:
                obj, path, field_of, depth = stack.pop()
                if depth > 8 or not visit(obj, path, field_of):
                    continue
                if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
                    stack += [(getattr(obj, f.name), f"{path}.{f.name}", type(obj).__name__,
                               depth + 1) for f in dataclasses.fields(obj)]
                elif isinstance(obj, dict):
                    stack += [(v, f"{path}[{k!r}]", None, depth + 1) for k, v in obj.items()]
                elif isinstance(obj, (tuple, list)) and not _numbers(obj):
                    stack += [(v, f"{path}[{i}]", None, depth + 1) for i, v in enumerate(obj)]


def catalogue_values() -> dict:
    """``{path: value}`` for every value in interlib/specs: a Spec, a number, a tuple of
    numbers, a categorical string (``CATEGORICAL``) or ``("ref", path)`` for a record field
    that holds another catalogue entry. A Spec or record reachable by several paths is
    listed once, at its shortest public path; elsewhere a record field is a reference."""
    best: dict[int, str] = {}

    def rank(obj, path, field_of):
        if isinstance(obj, Spec) or _record(obj):
            if id(obj) not in best or _rank(path) < _rank(best[id(obj)]):
                best[id(obj)] = path
        return not isinstance(obj, (Spec, Source, Status, str, bytes, types.ModuleType,
                                    type)) and not callable(obj) or _record(obj)

    _walk(rank)
    out: dict = {}

    def collect(obj, path, field_of):
        if isinstance(obj, Spec):
            if best[id(obj)] == path:
                out[path] = obj
            return False
        if _record(obj):
            if best[id(obj)] != path:
                if field_of is not None:
                    out[path] = ("ref", best[id(obj)])
                return False
            return True
        if _number(obj) or _numbers(obj):
            out[path] = obj
            return False
        if isinstance(obj, str):
            name = path.rsplit(".", 1)[-1]
            if field_of in CATEGORICAL and name in CATEGORICAL[field_of]:
                out[path] = obj
            return False
        if isinstance(obj, (Source, Status, bytes, types.ModuleType, type)) or obj is None \
                or isinstance(obj, bool) or callable(obj):
            return False
        return True

    _walk(collect)
    return out


VALUES = catalogue_values()
BY_PATH = {r.path: r for r in ROWS}


def _covered(path: str, table: dict) -> str | None:
    for prefix, reason in table.items():
        if path == prefix or path.startswith((prefix + "[", prefix + ".")):
            return reason
    return None


# ------------------------------------------------------------------------ the tests
def _param(row):
    marks = [pytest.mark.xfail(strict=True, reason=row.disagrees)] if row.disagrees else []
    return pytest.param(row, id=row.path, marks=marks)


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_literal_matches_the_catalogue(row):
    assert row.path in VALUES, f"{row.path}: no such catalogue value (renamed or removed?)"
    got = VALUES[row.path]
    where = f"{row.path}: source ({row.src}) says {row.says!r}"
    if row.unit == "ref":
        assert got == ("ref", row.value), f"{where}; the catalogue points to {got!r}"
        return
    if row.unit == "text":
        assert got == row.value, f"{where}; the catalogue has {got!r}"
        return
    factor = UNITS[row.unit]
    if isinstance(got, Spec):
        if row.direction is not None:
            assert got.direction == row.direction, \
                f"{where} ({row.direction}); the catalogue's Spec says {got.direction!r}"
        got = got.value
    if isinstance(row.value, tuple):
        assert tuple(got) == row.value, f"{where}; the catalogue has {got!r}"
        return
    want = row.value * factor
    assert math.isclose(got, want, rel_tol=row.tol, abs_tol=0.0 if want else 1e-300), \
        f"{where} = {want:g} in SI; the catalogue has {got:g} ({got / factor:g} {row.unit})"


def test_every_catalogue_value_has_a_literal():
    missing = [p for p in sorted(VALUES) if p not in BY_PATH
               and not _covered(p, OWNED_ELSEWHERE) and not _covered(p, NOT_FIGURES)
               and not _covered(p, UNWITNESSED)]
    assert not missing, (
        f"{len(missing)} catalogue value(s) without a second witness: add a row per path "
        "to tests/catalogue_literals.py, with the value as its source states it, the "
        "source's words and the source (its docstring says how):\n  " + "\n  ".join(
            f"{p} = {VALUES[p].value if isinstance(VALUES[p], Spec) else VALUES[p]!r}"
            for p in missing))


def test_no_row_or_exemption_is_stale():
    stale = [r.path for r in ROWS if r.path not in VALUES]
    assert not stale, f"rows for values the catalogue no longer has: {stale}"
    for table in (OWNED_ELSEWHERE, NOT_FIGURES, UNWITNESSED):
        dead = [k for k in table if not any(_covered(p, {k: 1}) for p in VALUES)]
        assert not dead, f"exemptions that match no catalogue value: {dead}"
    both = [r.path for r in ROWS if _covered(r.path, {**OWNED_ELSEWHERE, **NOT_FIGURES,
                                                      **UNWITNESSED})]
    assert not both, f"rows for exempted values (drop the exemption): {both}"


def test_every_row_is_sourced_and_says_something():
    assert len(BY_PATH) == len(ROWS), "a path has two rows"
    for r in ROWS:
        assert r.src in SOURCES, f"{r.path}: unknown source key {r.src!r}"
        assert len(r.says.strip()) >= 3, f"{r.path}: say what the source says"
        assert r.unit in UNITS or r.unit in ("ref", "text"), f"{r.path}: unit {r.unit!r}"
        assert r.direction in (None, "per direction", "bidirectional", "read + write",
                               "not stated")
        assert 0 < r.tol <= 0.01, f"{r.path}: tol {r.tol} (only rounding is tolerated)"
        if r.tol > 1e-9:
            assert r.note, f"{r.path}: a tolerance needs a note saying why"
    for key, (title, url) in SOURCES.items():
        assert title.strip() and url.strip(), key


def test_the_walk_finds_the_values_the_models_read():
    # the walk itself, on values whose paths are known: a GPU's capacity, a system's shape
    # and the reference from a system to its GPU
    assert isinstance(VALUES["hardware.GPUS['h100-sxm'].hbm_capacity"], Spec)
    assert VALUES["hardware.SYSTEMS['dgx-h100'].gpus_per_node"] == 8
    assert VALUES["hardware.SYSTEMS['dgx-h100'].gpu"] == ("ref", "hardware.GPUS['h100-sxm']")
    assert VALUES["hardware.GPUS['gb200'].host_link"] == "nvlink-c2c-superchip"
    # a Spec shared by several records is one value, at its shortest public path
    assert "links.PCIE['3.0'].tlp_overhead" in VALUES
    assert "links.PCIE['5.0'].tlp_overhead" not in VALUES
    assert "links._TLP_FRAMING" not in VALUES
    assert "hardware.SYSTEMS['dgx-h100'].gpu.hbm_capacity" not in VALUES
    # every Spec in the catalogue is reached
    n_specs = sum(isinstance(v, Spec) for v in VALUES.values())
    assert n_specs > 250, n_specs
