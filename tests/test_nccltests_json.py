"""JSON in (interlib.nccltests.jsonio): nccl-tests' ``-J`` file and NCCL Inspector's records,
every field of the Run they give, and every refusal in words.

Layouts: nccl-tests ``src/util.cu`` at NVIDIA/nccl-tests a0b82b2 (``JSON_FILE_VERSION 3``:
``args``, ``env``, ``nccl_version``, ``config`` with ``nthreads``/``ngpus``/``devices``,
``results`` with ``out_of_place``/``in_place`` ``{time, alg_bw, bus_bw, nwrong}`` in us and
GB/s, ``out_of_bounds``, ``average_bus_bandwidth``); NCCL Inspector's records
(``plugins/profiler/inspector/README.md`` and ``inspector.cc`` at NVIDIA/nccl 5067397: one
record per collective and rank, ``coll_msg_size_bytes`` one rank's share for AllGather and
ReduceScatter). Each document below is written to hit one rule; expected values are the
document's own numbers in SI units, NCCL's version code (``NCCL_VERSION(X,Y,Z) =
X*10000 + Y*100 + Z``, nccl.h) and medians by hand, never the parser's output.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from interlib import nccltests as N
from interlib.nccltests.jsonio import INSPECTOR_COLLECTIVES, parse_json

FIX = Path(__file__).resolve().parent / "fixtures" / "nccltests"
GB, US = 1e9, 1e-6


def _half(t, a, b, w=0.0):
    return {"time": t, "alg_bw": a, "bus_bw": b, "nwrong": w}


DOC = {
    "version": 3,
    "args": ["./build/all_gather_perf", "-b", "1M", "-e", "2M", "-f", "2", "-g", "2", "-t", "2"],
    "env": ["PATH=/usr/bin", "NCCL_IB_HCA=mlx5_0", "NCCL_DEBUG=INFO", 7, "NCCL_NOVALUE",
            "OTHER_NCCL_X=1"],
    "nccl_version": 22703,
    "config": {"nthreads": 2, "ngpus": 2, "devices": [
        {"rank": 0, "group": 0, "pid": 1, "hostname": "a", "device": 0,
         "device_hex": "0000:18:00", "device_info": "NVIDIA H100 80GB HBM3"},
        {"rank": 4, "group": 0, "pid": 2, "hostname": "b", "device": 0,
         "device_hex": "0000:18:00", "device_info": "NVIDIA H100 80GB HBM3"}]},
    "results": [
        {"size": 1048576, "count": 32768, "type": "float", "redop": "none", "root": "    -1",
         "out_of_place": _half(100.5, 10.43, 9.13), "in_place": _half(99.0, 10.59, 9.27)},
        {"size": 2097152, "count": 65536, "type": "float", "redop": "none", "root": "    -1",
         "out_of_place": _half(150.25, 13.96, 12.21, None),
         "in_place": {"cpu_time": 149.0, "alg_bw": 14.07, "bus_bw": 12.31, "nwrong": 3.0}}],
    "out_of_bounds": {"count": 0, "okay": True},
    "average_bus_bandwidth": {"bandwidth": 10.705, "okay": "unchecked"},
}


def _doc(**over):
    d = copy.deepcopy(DOC)
    d.update(over)
    return json.dumps(d)


def test_nccl_tests_json_every_field():
    run = parse_json(_doc())
    # 2 processes (devices entries) x nthreads 2 x ngpus 2 = 8 ranks, 4 on each host
    assert (run.collective, run.ranks, run.nodes, run.gpus_per_node, run.rank_lines) == \
        ("all_gather", 8, 2, 4, 2)
    assert run.program == "all_gather_perf" and run.notes == ()
    assert run.nccl_version == "2.27.3"       # 2*10000 + 27*100 + 3 = 22703
    assert run.setup.version == N.Fact("2.27.3", None, "nccl_version: 22703")
    assert run.setup.env == {
        "NCCL_IB_HCA": N.Fact("mlx5_0", None, 'env[1]: "NCCL_IB_HCA=mlx5_0"'),
        "NCCL_DEBUG": N.Fact("INFO", None, 'env[2]: "NCCL_DEBUG=INFO"')}
    assert (run.device, run.vendor, run.out_of_bounds) == ("NVIDIA H100 80GB HBM3", "NVIDIA", 0)
    assert run.avg_busbw == pytest.approx(10.705 * GB, rel=1e-12)
    assert (run.source, run.tests, run.test) == ("nccl-tests JSON", (), None)
    r0, r1 = run.rows
    assert r0 == N.Row(1048576, 100.5 * US, 10.43 * GB, 9.13 * GB, 0,
                       99.0 * US, 10.59 * GB, 9.27 * GB, 0)
    # nwrong null -> None; cpu_time read when the half has no "time"
    assert r1 == N.Row(2097152, 150.25 * US, 13.96 * GB, 12.21 * GB, None,
                       149.0 * US, 14.07 * GB, 12.31 * GB, 3)


def test_the_derived_json_reads_as_its_text_log():
    """The -J layout of a published text log (fixtures/SOURCES.md): the same run both ways."""
    j = N.parse((FIX / "ebpf_rtx5090_2ranks_all_reduce_mpi_socket.derived.json").read_text())
    t = N.parse((FIX / "ebpf_rtx5090_2ranks_all_reduce_mpi_socket.log").read_text())
    for f in ("collective", "ranks", "nccl_version", "rows", "avg_busbw", "nodes",
              "gpus_per_node", "device", "out_of_bounds", "program", "vendor"):
        assert getattr(j, f) == getattr(t, f), f
    # the log's own lines: 2 ranks on host 'lab', 'Avg bus bandwidth : 1.57614', NCCL 2.29.7
    assert (j.ranks, j.nodes, j.gpus_per_node, j.avg_busbw, j.nccl_version) == \
        (2, 1, 2, 1.57614 * GB, "2.29.7")
    assert set(j.setup.env) == {"NCCL_TESTS_DEVICE", "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE",
                                "NCCL_NET", "NCCL_HOSTID"}


def test_nccl_tests_json_defaults_when_fields_are_missing():
    """No nthreads/ngpus: one rank per process; no devices: no rank count, host or GPU; no
    version, average or out-of-bounds count: None; no program: the columns decide."""
    d = json.loads(_doc(args=[], nccl_version=0, average_bus_bandwidth={"bandwidth": "x"},
                        out_of_bounds={"count": 1.0}, env=None))
    d["config"] = {"devices": DOC["config"]["devices"]}
    run = parse_json(json.dumps(d))
    assert (run.ranks, run.nodes, run.gpus_per_node) == (2, 2, 1)
    assert (run.nccl_version, run.setup.version, run.avg_busbw, run.out_of_bounds) == \
        (None, None, None, None)
    assert run.program is None and run.setup.env == {}
    d["config"] = {}
    run = parse_json(json.dumps(d))
    assert (run.ranks, run.nodes, run.gpus_per_node, run.device, run.vendor,
            run.rank_lines) == (None, None, None, None, None, 0)
    for code in (None, "22703", -1):
        assert parse_json(_doc(nccl_version=code)).nccl_version is None
    assert parse_json(_doc(nccl_version=21903)).nccl_version == "2.19.3"
    assert parse_json(_doc(average_bus_bandwidth=None, out_of_bounds=None)).avg_busbw is None
    assert parse_json(_doc(average_bus_bandwidth={"bandwidth": 3})).avg_busbw == 3 * GB


def test_collective_from_the_columns_when_the_json_names_no_program():
    """A count of size / 4 bytes per float, redop 'sum', no root and busbw = 2 (n-1)/n x
    algbw = 1.75 x algbw at 8 ranks: all_reduce (nccl-tests' columns and its busbw factor,
    doc/PERFORMANCE.md), said in a note; a collective given by the caller is taken as given."""
    d = json.loads(_doc(args=[]))
    for r in d["results"]:
        r["count"], r["redop"] = r["size"] // 4, "sum"
        for half in ("out_of_place", "in_place"):
            r[half]["bus_bw"] = r[half]["alg_bw"] * 1.75
    run = parse_json(json.dumps(d))
    assert run.collective == "all_reduce" and len(run.notes) == 1
    assert run.notes[0].startswith("collective all_reduce inferred: ")
    given = parse_json(json.dumps(d), collective="reduce_scatter")
    assert given.collective == "reduce_scatter" and given.notes == ()
    assert parse_json(_doc(), collective="all_gather").collective == "all_gather"


@pytest.mark.parametrize("over, msg", [
    ({"results": []}, "the JSON's 'results' list is empty: the run printed no sizes"),
    ({"results": None}, "the JSON's 'results' list is empty: the run printed no sizes"),
    ({"results": [5]}, "results[0]: expected an object, found 5"),
    ({"results": [{"size": 8, "count": 2, "out_of_place": None, "in_place": _half(1, 1, 1)}]},
     "results[0].out_of_place: expected an object of times and bandwidths, found None"),
    ({"results": [{"size": 8, "count": 2, "out_of_place": _half(1, 1, 1),
                   "in_place": _half("nan", 1, 1)}]}, "results[0].in_place: 'time' is nan"),
    ({"results": [{"size": 8, "count": 2, "out_of_place": _half(1, -1, 1),
                   "in_place": _half(1, 1, 1)}]},
     "results[0].out_of_place: expected a number >= 0 for 'alg_bw', found -1"),
    ({"results": [{"size": 8, "count": 2, "out_of_place": _half(1, 1, True),
                   "in_place": _half(1, 1, 1)}]},
     "results[0].out_of_place: expected a number >= 0 for 'bus_bw', found True"),
    ({"results": [{"size": "8", "count": 2, "out_of_place": _half(1, 1, 1),
                   "in_place": _half(1, 1, 1)}]},
     "results[0]: expected a number >= 0 for 'size', found '8'"),
    ({"results": [{"size": 8, "out_of_place": _half(1, 1, 1), "in_place": _half(1, 1, 1)}]},
     "results[0]: expected a number >= 0 for 'count', found None"),
])
def test_nccl_tests_json_refusals_say_where(over, msg):
    with pytest.raises(ValueError) as e:
        parse_json(_doc(**over))
    assert str(e.value) == msg


def test_a_zero_is_a_number():
    """0 is a number >= 0 (a time or bandwidth nccl-tests printed as 0.00)."""
    d = json.loads(_doc())
    d["results"][0]["out_of_place"] = _half(0, 0, 0)
    assert parse_json(json.dumps(d)).rows[0].busbw_out == 0.0


def test_the_program_and_the_caller_must_agree():
    with pytest.raises(ValueError) as e:
        parse_json(_doc(), collective="all_reduce")
    assert str(e.value) == ("collective='all_reduce' disagrees with the JSON, which ran "
                            "all_gather_perf")


def test_documents_and_objects():
    one = _doc()
    with pytest.raises(ValueError) as e:
        parse_json(one + "\n" + one)
    assert str(e.value) == "the file holds 2 nccl-tests JSON documents: give one at a time"
    with pytest.raises(ValueError) as e:
        parse_json('{"b": 1, "a": 2, "h": 0, "g": 0, "f": 0, "e": 0, "d": 0, "c": 0}')
    assert str(e.value) == ("the JSON is neither nccl-tests' -J output (keys 'config', "
                            "'results') nor NCCL Inspector records ('coll_perf'): its keys "
                            "are a, b, c, d, e, f")
    with pytest.raises(ValueError) as e:
        parse_json('{"results": []}\n\n[1, 2]')
    assert str(e.value) == "expected JSON objects, found a list"
    with pytest.raises(ValueError) as e:
        parse_json('{"a": 1}\n{"b": 2,\n  "c": }\n\n{"d": 4}\n')
    assert str(e.value) == "line 3: the text starts like JSON but is not: Expecting value"
    with pytest.raises(ValueError) as e:          # newlines before the first object count
        parse_json('\n\n{"b": }')
    assert str(e.value) == "line 3: the text starts like JSON but is not: Expecting value"
    with pytest.raises(ValueError) as e:          # 'results' without 'config': neither
        parse_json('{"results": [], "x": 1}')
    assert str(e.value).endswith("its keys are results, x")
    # one per line, separated by commas or blank lines, or pretty-printed: all read
    rec = json.loads(_inspector_record(0, 1024, 10.0))
    lines = ",\n".join(json.dumps(r) for r in [rec, rec]) + ",  \n\t\r\n"
    assert parse_json(lines).ranks == 8
    assert parse_json(json.dumps(rec, indent=2) + "\n" + json.dumps(rec)).ranks == 8


# ------------------------------------------------------------------------ NCCL Inspector

def _inspector_record(rank, msg, time_us, coll="AllReduce", comm="0x1", n_ranks=8, nnodes=1,
                      algbw=1.0, busbw=2.0):
    return json.dumps({"header": {"id": comm, "rank": rank, "n_ranks": n_ranks,
                                  "nnodes": nnodes},
                       "metadata": {"hostname": "h"},
                       "coll_perf": {"coll": coll, "coll_sn": 1, "coll_msg_size_bytes": msg,
                                     "coll_exec_time_us": time_us, "coll_algobw_gbs": algbw,
                                     "coll_busbw_gbs": busbw}})


INSPECTOR_NOTE = ("NCCL Inspector records: one per operation and rank; each size's time is the "
                  "median of its records, and the in-place columns repeat the out-of-place "
                  "(Inspector has no in-place run)")


def test_inspector_example_every_field():
    """NCCL's README example: one AllReduce record, rank 2 of 8 on one node, 16 GiB."""
    run = N.parse((FIX / "nccl_inspector_allreduce_8ranks.jsonl").read_text())
    t, a, b = 61974 * US, 277.210914 * GB, 485.119099 * GB
    assert run.rows == (N.Row(17179869184, t, a, b, None, t, a, b, None),)
    assert (run.collective, run.ranks, run.nodes, run.gpus_per_node, run.nccl_version,
            run.avg_busbw, run.device, run.out_of_bounds, run.program, run.vendor,
            run.rank_lines, run.tests, run.test, run.source) == \
        ("all_reduce", 8, 1, 8, None, None, None, None, None, None, 0, (), None,
         "NCCL Inspector")
    assert run.notes == (INSPECTOR_NOTE,) and run.setup == N.RunSetup()


def test_inspector_medians_per_size_sorted():
    """Three ranks' records of one size: the median of each column (by hand: times 30, 10,
    20 us -> 20; algbw 3, 1, 2 -> 2; busbw 6, 2, 4 -> 4); sizes come out sorted."""
    recs = [_inspector_record(0, 4096, 30.0, algbw=3.0, busbw=6.0),
            _inspector_record(1, 4096, 10.0, algbw=1.0, busbw=2.0),
            _inspector_record(2, 4096, 20.0, algbw=2.0, busbw=4.0),
            _inspector_record(0, 1024, 5.0, algbw=0.5, busbw=0.875)]
    run = parse_json("\n".join(recs))
    assert run.sizes == [1024, 4096]
    assert run.rows[1] == N.Row(4096, 20 * US, 2 * GB, 4 * GB, None, 20 * US, 2 * GB,
                                4 * GB, None)
    assert run.rows[0].busbw_in == 0.875 * GB


@pytest.mark.parametrize("name, coll, factor", [
    ("AllGather", "all_gather", 8), ("AllGatherV", "all_gather", 8),
    ("ReduceScatter", "reduce_scatter", 8), ("AllReduce", "all_reduce", 1),
    ("Broadcast", "broadcast", 1), ("Reduce", "reduce", 1), ("AllToAll", "all_to_all", 1)])
def test_inspector_sizes_per_rank_for_allgather_and_reducescatter(name, coll, factor):
    """inspector.cc's trafficSize: AllGather(V) and ReduceScatter record one rank's share,
    so nccl-tests' size is that times the 8 ranks; the others record the whole message."""
    run = parse_json(_inspector_record(0, 1000, 1.0, coll=name))
    assert (run.collective, run.sizes) == (coll, [1000 * factor])
    assert INSPECTOR_COLLECTIVES[name] == coll


def test_inspector_nodes_and_ranks_per_node():
    assert (lambda r: (r.nodes, r.gpus_per_node))(
        parse_json(_inspector_record(0, 8, 1.0, n_ranks=16, nnodes=2))) == (2, 8)
    assert (lambda r: (r.nodes, r.gpus_per_node))(
        parse_json(_inspector_record(0, 8, 1.0, n_ranks=16, nnodes=3))) == (3, None)
    for bad in (0, None, "2"):
        r = parse_json(_inspector_record(0, 8, 1.0, n_ranks=16, nnodes=bad))
        assert (r.nodes, r.gpus_per_node) == (None, None)


def test_inspector_several_tests_choose_one():
    recs = "\n".join([_inspector_record(0, 8, 1.0), _inspector_record(1, 8, 1.0),
                      _inspector_record(0, 8, 2.0, coll="AllGather"),
                      _inspector_record(0, 8, 2.0, comm="0x2", n_ranks=4)])
    names = ("1: AllReduce on 8 ranks, communicator 0x1 (2 records)",
             "2: AllGather on 8 ranks, communicator 0x1 (1 records)",
             "3: AllReduce on 4 ranks, communicator 0x2 (1 records)")
    with pytest.raises(ValueError) as e:
        parse_json(recs)
    assert str(e.value) == ("the records hold 3 collectives or communicators: "
                            + "; ".join(names) + ". Choose one with test= (its number)")
    two = parse_json(recs, test=" 2 ")
    assert (two.collective, two.ranks, two.sizes, two.tests, two.test) == \
        ("all_gather", 8, [64], names, names[1])
    assert parse_json(recs, test=1).test == names[0]
    assert parse_json(recs, test="3").ranks == 4
    # "²" is a digit to str.isdigit but not a number int() reads: refused by the same
    # message, not Python's "invalid literal for int()"
    for bad in (0, 4, "x", "-1", "²", "1²"):
        with pytest.raises(ValueError) as e:
            parse_json(recs, test=bad)
        assert str(e.value) == (f"test={bad!r} matches none of the 3 in the records: "
                                + "; ".join(names))
    one = parse_json(_inspector_record(0, 8, 1.0), test=1)
    assert (one.tests, one.test) == ((), None)


def test_inspector_refusals_in_words():
    with pytest.raises(ValueError) as e:
        parse_json(_inspector_record(0, 8, 1.0, coll="Send"))
    assert str(e.value) == ("record 1: collective 'Send' is not one the book reads ("
                            + ", ".join(INSPECTOR_COLLECTIVES) + ")")
    with pytest.raises(ValueError) as e:
        parse_json(_inspector_record(0, 8, 1.0), collective="all_gather")
    assert str(e.value) == ("collective='all_gather' disagrees with the records, which are "
                            "AllReduce")
    assert parse_json(_inspector_record(0, 8, 1.0), collective="all_reduce").ranks == 8
    for bad in (0, None, "8"):
        with pytest.raises(ValueError) as e:
            parse_json(_inspector_record(0, 8, 1.0, n_ranks=bad))
        assert str(e.value) == (f"the records' header gives n_ranks={bad!r}: expected a "
                                "count")
    with pytest.raises(ValueError) as e:
        parse_json(_inspector_record(0, 8, 1.0) + "\n" + _inspector_record(1, -8, 1.0))
    assert str(e.value) == ("record 2: expected a number >= 0 for 'coll_msg_size_bytes', "
                            "found -8")


def test_inspector_objects_without_coll_perf_are_skipped():
    """A record without ``coll_perf`` (or with a non-object one) is not a collective: skipped;
    a record with no header is grouped under an unknown communicator (and refused for its
    rank count)."""
    run = parse_json('{"coll_perf": 5}\n{"header": {}}\n' + _inspector_record(0, 8, 1.0))
    assert run.ranks == 8 and len(run.rows) == 1
    with pytest.raises(ValueError, match=r"^the records' header gives n_ranks=None"):
        parse_json('{"coll_perf": {"coll": "AllReduce"}}')


# ------------------------------------------------------- the rules' edges (mutation, issue 38)

def test_only_whitespace_and_commas_separate_objects():
    with pytest.raises(ValueError) as e:
        parse_json('{"a": 1} X {"b": 2}')
    assert str(e.value) == "line 1: the text starts like JSON but is not: Expecting value"


def test_the_program_is_argv0_only():
    """nccl-tests' ``args`` is its own argv: a later argument naming a program (an output
    file) is not the program; with no program the columns decide."""
    d = json.loads(_doc(args=["./my_allgather", "all_reduce_perf.json"]))
    run = parse_json(json.dumps(d))
    # the columns alone: split count, redop none, 7/8 -> all_gather or all_to_all, open
    assert (run.program, run.collective) == (None, None)


def _loose(count_div, redop="sum", root="    -1", factor=1.0, **over):
    """A -J document without a program whose rows print 0.01 GB/s (the factor loose)."""
    d = json.loads(_doc(args=[], **over))
    for r in d["results"]:
        r["count"], r["redop"] = r["size"] // count_div, redop
        if root is None:
            r.pop("root")
        else:
            r["root"] = root
        for half in ("out_of_place", "in_place"):
            r[half]["alg_bw"], r[half]["bus_bw"] = 10.0, round(10.0 * factor, 2)
    return d


def test_the_columns_read_from_json_type_and_root():
    # count = size / 32 floats at a loose factor: only the type's 4 bytes make it split
    d = _loose(32)
    for r in d["results"]:
        for half in ("out_of_place", "in_place"):
            r[half]["alg_bw"] = r[half]["bus_bw"] = 0.01
    assert parse_json(json.dumps(d)).collective == "reduce_scatter"
    # root 0 with redop none and factor 1: broadcast (the root column read)
    assert parse_json(json.dumps(_loose(4, "none", "     0"))).collective == "broadcast"
    assert parse_json(json.dumps(_loose(4, factor=1.75))).collective == "all_reduce"


def test_the_rank_count_of_the_devices_helps_the_columns():
    """8 ranks from the devices: factor 1 with a reduction and no root is sendrecv (an
    all_reduce would be 1.75 at 8 ranks); unknown ranks leave it open (2 ranks: 1 too)."""
    assert parse_json(json.dumps(_loose(4))).collective == "sendrecv"
    d = _loose(4)
    d["config"] = {}
    assert parse_json(json.dumps(d)).collective is None


def test_version_code_formula_edges():
    # NCCL_VERSION(X,Y,Z) = X*10000 + Y*100 + Z: a 3.0.1 would be 30001
    assert parse_json(_doc(nccl_version=30001)).nccl_version == "3.0.1"
    assert parse_json(_doc(nccl_version=1)).nccl_version == "0.0.1"   # any code above 0


def test_an_env_value_with_an_equals_sign():
    run = parse_json(_doc(env=["NCCL_TOPO_FILE=/opt/topo=a.xml"]))
    assert run.setup.env["NCCL_TOPO_FILE"].value == "/opt/topo=a.xml"


def test_inspector_one_rank_and_whole_numbers():
    one = parse_json(_inspector_record(0, 8, 1.0, n_ranks=1))
    assert one.ranks == 1 and one.sizes == [8]
    r = parse_json(_inspector_record(0, 8, 1.0, n_ranks=16, nnodes=2))
    assert type(r.gpus_per_node) is int and type(r.nodes) is int


@pytest.mark.parametrize("key", ["coll_exec_time_us", "coll_algobw_gbs", "coll_busbw_gbs"])
def test_inspector_bad_number_says_which_record(key):
    rec = json.loads(_inspector_record(0, 8, 1.0))
    rec["coll_perf"][key] = -1
    with pytest.raises(ValueError) as e:
        parse_json(_inspector_record(0, 8, 1.0) + "\n" + json.dumps(rec))
    assert str(e.value) == f"record 2: expected a number >= 0 for '{key}', found -1"


def test_inspector_two_tests_are_named():
    recs = "\n".join([_inspector_record(0, 8, 1.0),
                      _inspector_record(0, 8, 2.0, coll="AllGather")])
    names = ("1: AllReduce on 8 ranks, communicator 0x1 (1 records)",
             "2: AllGather on 8 ranks, communicator 0x1 (1 records)")
    got = parse_json(recs, test=2)
    assert (got.tests, got.test) == (names, names[1])
