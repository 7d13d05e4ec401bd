"""JSON in: nccl-tests' ``-J`` file and NCCL Inspector's records, read into a
:class:`~.runs.Run`.

* **nccl-tests ``-J FILE.json``** (since 2025; NVIDIA/nccl-tests ``src/util.cu`` at
  a0b82b2, ``JSON_FILE_VERSION 3``): one object with ``args`` (the command line),
  ``env``, ``nccl_version`` (a code, 22703 for 2.27.3), ``config`` (``nthreads``,
  ``ngpus``, ``devices``: one ``{rank, group, pid, hostname, device, device_hex,
  device_info}`` per process), ``results`` (per size: ``size``, ``count``, ``type``,
  ``redop``, ``root``, ``out_of_place`` and ``in_place`` as ``{time | cpu_time, alg_bw,
  bus_bw, nwrong}``, microseconds and GB/s with six decimals), ``out_of_bounds`` and
  ``average_bus_bandwidth``.
* **NCCL Inspector** (the profiler plugin of NCCL 2.28+; NVIDIA/nccl
  ``plugins/profiler/inspector/inspector_json.cc`` at 5067397, output format v4.0): one
  object per completed collective, per rank, one per line, ``{"header": {id, rank,
  n_ranks, nnodes}, "metadata": {..., hostname}, "coll_perf": {coll,
  coll_msg_size_bytes, coll_exec_time_us, coll_algobw_gbs, coll_busbw_gbs}}``; its
  ``coll_msg_size_bytes`` is one rank's share for AllGather and ReduceScatter
  (``inspector.cc``'s ``trafficSize`` multiplies it by the rank count), so the size
  nccl-tests would print is that times the ranks. Records are grouped by communicator and
  collective (each group a test) and by size; a size's time is the median of its
  records. They have no in-place column: the in-place fields repeat the out-of-place.
"""
from __future__ import annotations

import json
import statistics

from ..units import GB_per_s, us
from .infer import Cells, infer
from .runs import Row, Run, vendor_of
from .setup import Fact, RunSetup
from .text import PROGRAMS, program_in

INSPECTOR_COLLECTIVES = {"AllReduce": "all_reduce", "AllGather": "all_gather",
                         "ReduceScatter": "reduce_scatter", "Broadcast": "broadcast",
                         "Reduce": "reduce", "AllToAll": "all_to_all",
                         "AllGatherV": "all_gather"}
"""NCCL's function names (``ncclFuncToString``) and the collective of each."""

_PER_RANK = {"AllGather", "AllGatherV", "ReduceScatter"}


def _objects(text: str) -> list:
    """Every top-level JSON object in ``text`` (one per line, or pretty-printed one after
    another)."""
    dec = json.JSONDecoder()
    out, i, n = [], 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n:
            break
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError as e:
            line = text.count("\n", 0, e.pos) + 1
            raise ValueError(f"line {line}: the text starts like JSON but is not: "
                             f"{e.msg}") from None
        if not isinstance(obj, dict):
            raise ValueError(f"expected JSON objects, found a {type(obj).__name__}")
        out.append(obj)
    return out


def parse_json(text: str, collective: str | None = None, test=None) -> Run:
    """A :class:`Run` from nccl-tests ``-J`` JSON or NCCL Inspector records."""
    objs = _objects(text)
    if "results" in objs[0] and "config" in objs[0]:
        if len(objs) > 1:
            raise ValueError(f"the file holds {len(objs)} nccl-tests JSON documents: give "
                             "one at a time")
        return _nccl_tests(objs[0], collective)
    if any("coll_perf" in o for o in objs):
        return _inspector(objs, collective, test)
    keys = ", ".join(sorted(objs[0])[:6])
    raise ValueError(f"the JSON is neither nccl-tests' -J output (keys 'config', "
                     f"'results') nor NCCL Inspector records ('coll_perf'): its keys are "
                     f"{keys}")


def _num(d: dict, key: str, where: str) -> float:
    x = d.get(key)
    if isinstance(x, str) and x == "nan":
        raise ValueError(f"{where}: '{key}' is nan")
    if not isinstance(x, (int, float)) or isinstance(x, bool) or x < 0:
        raise ValueError(f"{where}: expected a number >= 0 for '{key}', found {x!r}")
    return float(x)


def _half(d: dict | None, where: str) -> tuple:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected an object of times and bandwidths, "
                         f"found {d!r}")
    t = _num(d, "time" if "time" in d else "cpu_time", where)
    a, b = _num(d, "alg_bw", where), _num(d, "bus_bw", where)
    w = d.get("nwrong")
    return t * us, a * GB_per_s, b * GB_per_s, (None if w is None else int(w)), \
        repr(float(d["alg_bw"])), repr(float(d["bus_bw"]))


def _nccl_tests(doc: dict, collective) -> Run:
    args = doc.get("args") or []
    program = program_in(" ".join(str(a) for a in args[:1])) if args else None
    found = PROGRAMS.get(program) if program else None
    if collective is not None and found is not None and found != collective:
        raise ValueError(f"collective={collective!r} disagrees with the JSON, which ran "
                         f"{program}")
    cfg = doc.get("config") or {}
    devices = cfg.get("devices") or []
    per_proc = int(cfg.get("nthreads") or 1) * int(cfg.get("ngpus") or 1)
    ranks = len(devices) * per_proc if devices else None
    hosts = {}
    for d in devices:
        hosts[d.get("hostname")] = hosts.get(d.get("hostname"), 0) + per_proc
    rows, cells = [], []
    for i, r in enumerate(doc.get("results") or [], 1):
        where = f"results[{i - 1}]"
        if not isinstance(r, dict):
            raise ValueError(f"{where}: expected an object, found {r!r}")
        o, n = _half(r.get("out_of_place"), where + ".out_of_place"), \
            _half(r.get("in_place"), where + ".in_place")
        size = _num(r, "size", where)
        rows.append(Row(size, o[0], o[1], o[2], o[3], n[0], n[1], n[2], n[3]))
        cells.append(Cells(int(size), int(_num(r, "count", where)), r.get("type"),
                           r.get("redop"), str(r.get("root", "")).strip(), o[4], o[5]))
    if not rows:
        raise ValueError("the JSON's 'results' list is empty: the run printed no sizes")
    inf = infer(cells, ranks)
    notes = []
    coll = collective or found
    if coll is None and inf.collective:
        coll = inf.collective
        notes.append(f"collective {coll} inferred: {inf.how}")
    code = doc.get("nccl_version")
    version = (f"{code // 10000}.{code // 100 % 100}.{code % 100}"
               if isinstance(code, int) and code > 0 else None)
    env = {}
    for j, e in enumerate(doc.get("env") or []):
        if isinstance(e, str) and e.startswith("NCCL_") and "=" in e:
            k, val = e.split("=", 1)
            env[k] = Fact(val, None, f'env[{j}]: "{e}"')
    setup = RunSetup(version=Fact(version, None, f"nccl_version: {code}") if version
                     else None, env=env)
    avg = (doc.get("average_bus_bandwidth") or {}).get("bandwidth")
    oob = (doc.get("out_of_bounds") or {}).get("count")
    device = devices[0].get("device_info") if devices else None
    return Run(coll, ranks, version, tuple(rows),
               avg * GB_per_s if isinstance(avg, (int, float)) else None,
               len(hosts) or None, max(hosts.values()) if hosts else None, device,
               oob if isinstance(oob, int) else None, tuple(notes), program,
               vendor_of(device), setup, len(devices), source="nccl-tests JSON")


def _inspector(objs, collective, test) -> Run:
    groups = {}
    for k, o in enumerate(objs):
        perf, head = o.get("coll_perf"), o.get("header") or {}
        if not isinstance(perf, dict):
            continue
        name = perf.get("coll")
        if name not in INSPECTOR_COLLECTIVES:
            raise ValueError(f"record {k + 1}: collective {name!r} is not one the book "
                             f"reads ({', '.join(INSPECTOR_COLLECTIVES)})")
        key = (head.get("id"), name, head.get("n_ranks"), head.get("nnodes"))
        groups.setdefault(key, []).append((k + 1, perf))
    names = [f"{i}: {g[1]} on {g[2]} ranks, communicator {g[0]} ({len(v)} records)"
             for i, (g, v) in enumerate(groups.items(), 1)]
    keys = list(groups)
    if len(keys) > 1 and test is None:
        raise ValueError(f"the records hold {len(keys)} collectives or communicators: "
                         f"{'; '.join(names)}. Choose one with test= (its number)")
    idx = 0
    if test is not None:
        t = str(test).strip()
        if not (t.isdecimal() and 1 <= int(t) <= len(keys)):
            raise ValueError(f"test={test!r} matches none of the {len(keys)} in the "
                             f"records: {'; '.join(names)}")
        idx = int(t) - 1
    comm, name, nranks, nnodes = keys[idx]
    coll = INSPECTOR_COLLECTIVES[name]
    if collective is not None and collective != coll:
        raise ValueError(f"collective={collective!r} disagrees with the records, which are "
                         f"{name}")
    if not isinstance(nranks, int) or nranks < 1:
        raise ValueError(f"the records' header gives n_ranks={nranks!r}: expected a count")
    by_size = {}
    for k, p in groups[keys[idx]]:
        where = f"record {k}"
        msg = _num(p, "coll_msg_size_bytes", where)
        size = msg * nranks if name in _PER_RANK else msg
        by_size.setdefault(size, []).append((_num(p, "coll_exec_time_us", where),
                                             _num(p, "coll_algobw_gbs", where),
                                             _num(p, "coll_busbw_gbs", where)))
    rows = []
    for size in sorted(by_size):
        t, a, b = (statistics.median(x[i] for x in by_size[size]) for i in range(3))
        rows.append(Row(size, t * us, a * GB_per_s, b * GB_per_s, None, t * us,
                        a * GB_per_s, b * GB_per_s, None))
    notes = ["NCCL Inspector records: one per operation and rank; each size's time is the "
             "median of its records, and the in-place columns repeat the out-of-place "
             "(Inspector has no in-place run)"]
    nodes = nnodes if isinstance(nnodes, int) and nnodes >= 1 else None
    per_node = nranks // nodes if nodes and nranks % nodes == 0 else None
    return Run(coll, nranks, None, tuple(rows), None, nodes, per_node, None, None,
               tuple(notes), None, None, RunSetup(), 0,
               tuple(names) if len(names) > 1 else (),
               names[idx] if len(names) > 1 else None, source="NCCL Inspector")
