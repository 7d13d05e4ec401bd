"""What a comparison returns, read whole (interlib.nccltests.results): the regimes' bounds
in words, the verdict table, the verdicts as one phrase, the plain-text report, a cause's
link to the book, and the network kind a system is filed under.

Comparisons here are built by hand (a Run, three verdicts, a diagnosis, a published run),
so every line of the report is known; regime names and bounds are read from
interlib.intervals.REGIMES (defined there once, issue 38 item 3), and the anchors follow
docutils' make_id (lower case, runs of other characters to one hyphen).
"""
from __future__ import annotations

import pytest

from interlib import intervals
from interlib.display import fmt_bytes
from interlib.nccltests import Comparison, Diagnosis, Published, Run, Verdict
from interlib.nccltests.results import NotModelled, fabric_of, regime_bounds
from interlib.nccltests.setup import Fact, RunSetup
from interlib.specs import GPUS, SYSTEMS, custom

NAMES = [r[0] for r in intervals.REGIMES]


def test_regime_bounds_in_words():
    first, *middle, last = intervals.REGIMES
    assert first[1] <= 0 and last[2] == float("inf") and middle
    assert regime_bounds(first[0]) == f"below {fmt_bytes(first[2], binary=True)}"
    assert regime_bounds(last[0]) == f"{fmt_bytes(last[1], binary=True)} and above"
    for name, lo, hi in middle:
        assert regime_bounds(name) == (f"{fmt_bytes(lo, binary=True)} to "
                                       f"{fmt_bytes(hi, binary=True)}")
    with pytest.raises(ValueError) as e:
        regime_bounds("huge")
    assert str(e.value) == "name='huge' is not a regime of interlib.intervals.REGIMES"


def test_regime_bounds_of_the_edges(monkeypatch):
    """A regime starting at exactly 0 is 'below', one ending at infinity 'and above', and
    only those (a regime from 1 byte, or to 2**60, has both bounds)."""
    monkeypatch.setattr(intervals, "REGIMES", (("a", 0.0, 1024.0), ("b", 1.0, 2.0**60),
                                               ("c", 1024.0, float("inf"))))
    assert regime_bounds("a") == "below 1 KiB"
    assert regime_bounds("b") == f"1 B to {fmt_bytes(2.0**60, binary=True)}"
    assert regime_bounds("c") == "1 KiB and above"


def test_not_modelled_keeps_the_run():
    e = NotModelled("msg", run="r")
    assert isinstance(e, ValueError) and str(e) == "msg" and e.run == "r"
    assert NotModelled("m").run is None


def test_a_diagnosis_links_its_heading():
    d = Diagnosis("half_nics", "Half the NICs", "ev", "chapters/05_infiniband",
                  "Rails, NICs and GPUDirect: what 'one NIC per GPU' buys", "check", 0.5)
    assert d.anchor == "rails-nics-and-gpudirect-what-one-nic-per-gpu-buys"
    assert d.url() == ("../chapters/05_infiniband.html#rails-nics-and-gpudirect-what-one-nic-"
                       "per-gpu-buys")
    assert d.url("") == "chapters/05_infiniband.html#" + d.anchor
    assert Diagnosis("k", "t", "e", "c", "  -- 8 GPUs! --  ", "x", 0).anchor == "8-gpus"
    assert d.stated is False


def _cmp(statuses=("within", "within", "below"), diagnoses=(), setup=RunSetup(),
         notes=("shape note",), assumed=("4 NICs",), published=()):
    run = Run("all_reduce", 16, "2.21.5", (), None, 2, 8, notes=("run note",), setup=setup)
    verdicts = tuple(Verdict(n, 3 + i, 0.9 - 0.1 * i, 0.8, 1.25, st, f"text {i}")
                     for i, (n, st) in enumerate(zip(NAMES, statuses)))
    return Comparison(run, "NVIDIA DGX H100", "all_reduce", 8, 2, (), (), (), (), (),
                      "band from somewhere", verdicts, published, diagnoses, notes, assumed)


def test_the_verdicts_in_one_phrase():
    a, b, c = NAMES
    assert _cmp(("within",) * 3).in_words() == f"within the band in the {a}, {b} and {c} regimes"
    assert _cmp(("within", "within", "below")).in_words() == (
        f"within the band in the {a} and {b} regimes; below the band in the {c} regime")
    assert _cmp(("below", "above", "below")).in_words() == (
        f"below the band in the {a} and {c} regimes; above the band in the {b} regime")


def test_the_verdict_table():
    t = _cmp().table()
    assert t.columns == ["regime", "sizes", "ratio", "band", "verdict"]
    assert t.rows[0] == [NAMES[0], "3", "90 %", "80-125 %", "text 0"]
    assert t.rows[2] == [NAMES[2], "5", "70 %", "80-125 %", "text 2"]
    assert t.caption == ("; ".join(f"{n}: {regime_bounds(n)}" for n in NAMES)
                         + ". ratio: median of measured / predicted busbw; band from somewhere")


def test_the_report_whole():
    diag = Diagnosis("k", "Half the NICs", "Evidence here.", "chapters/05_infiniband",
                     "Heading", "ibstat", 0.4567)
    said = Diagnosis("s", "Stated cause", "The log says so.", "chapters/06_rocev2", "H2",
                     "grep", 0.9, stated=True)
    pub = Published("A3M", "Google", "https://x", "h100-sxm", 8, 2, "GPUDirect-TCPXO", (), (),
                    0.0)
    other = Published("ZZZ", "Someone", "https://y", "mystery-gpu", 4, 1, "Ethernet", (), (),
                      1.0)
    setup = RunSetup(version=Fact("2.21.5", 3, "NCCL version 2.21.5"))
    cmp_ = _cmp(diagnoses=(said, diag), setup=setup, published=(pub, other))
    assert cmp_.report() == "\n".join([
        "all_reduce on 16 GPUs (8 per node x 2 nodes) against the model for NVIDIA DGX H100",
        "Note: run note", "Note: shape note", "Assumed: 4 NICs", "",
        "What the log states:", "- NCCL 2.21.5 (line 3: 'NCCL version 2.21.5')", "",
        repr(cmp_.table()), "",
        "Likely causes, most likely first (what the log states comes first):",
        "1. Stated cause (stated by the log). The log says so.",
        "   Read: chapters/06_rocev2, 'H2'.", "   Check: grep",
        "2. Half the NICs (match 0.46). Evidence here.",
        "   Read: chapters/05_infiniband, 'Heading'.", "   Check: ibstat",
        "", "Nearest published runs:",
        f"- A3M: 16 x {GPUS['h100-sxm'].name}, GPUDirect-TCPXO; Google",
        "- ZZZ: 4 x mystery-gpu, Ethernet; Someone"])


def test_the_report_without_causes():
    below = _cmp(("within", "below", "within"), notes=(), assumed=()).report().splitlines()
    assert below[:3] == ["all_reduce on 16 GPUs (8 per node x 2 nodes) against the model for "
                         "NVIDIA DGX H100", "Note: run note", ""]
    assert "What the log states:" not in below
    assert below[-3:] == ["No likely cause matches what is below the band: see the nearest "
                          "published runs.", "", "Nearest published runs:"]
    fine = _cmp(("within", "above", "within")).report().splitlines()
    assert fine[-3:] == ["Nothing is below the band: no diagnosis.", "",
                         "Nearest published runs:"]


def test_one_gpu_one_node_in_words():
    run = Run("all_reduce", 1, None, (), None)
    one = Comparison(run, "S", "all_reduce", 1, 1, (), (), (), (), (), "b", (), (), ())
    assert one.report().splitlines()[0] == "all_reduce on 1 GPU (1 per node x 1 node) " \
                                           "against the model for S"


def test_fabric_of_a_system():
    assert fabric_of(SYSTEMS["dgx-h100"]) == "InfiniBand"
    assert fabric_of(custom.node("h100-sxm", 8, fabric="EFA")) == "EFA"
    assert fabric_of(custom.node("h100-sxm", 8, fabric="GPUDirect-TCPXO")) == "GPUDirect-TCPXO"
    # a system without a fabric of its own: the NIC's, InfiniBand kept whole, others by kind
    from types import SimpleNamespace as NS
    assert fabric_of(NS(nic=NS(fabric="InfiniBand or Ethernet"))) == "InfiniBand"
    assert fabric_of(NS(fabric="", nic=NS(fabric="Ethernet (RoCE)"))) == "Ethernet"
    assert fabric_of(NS(fabric=None, nic=NS(fabric="EFA (Ethernet)"))) == "EFA"


def test_the_table_prints_two_significant_digits():
    """fmt_pct(x, 2): 0.8765 -> '88 %' (three would print 87.6), 0.8123 -> '81',
    0.9876 -> '99 %'."""
    run = Run("all_reduce", 16, None, (), None)
    v = Verdict(NAMES[0], 4, 0.8765, 0.8123, 0.9876, "within", "t")
    t = Comparison(run, "S", "all_reduce", 8, 2, (), (), (), (), (), "b", (v,), (), ()).table()
    assert t.rows == [[NAMES[0], "4", "88 %", "81-99 %", "t"]]


def test_a_fact_cites_its_line_or_the_json_key():
    assert Fact(1, 7, "  NCCL INFO x  ").cite() == "line 7: 'NCCL INFO x'"
    assert Fact("1", None, 'env[2]: "NCCL_X=1"').cite() == "the JSON's 'env[2]: \"NCCL_X=1\"'"
    exactly = "x" * 160
    assert Fact(1, 2, exactly).cite() == f"line 2: '{exactly}'"
    longer = "y" * 159 + "z" + "w"
    assert Fact(1, 2, longer).cite() == f"line 2: '{'y' * 159}z...'"


def test_fabric_of_prefers_the_systems_own_and_finds_infiniband_anywhere():
    from types import SimpleNamespace as NS
    # a node's own fabric wins over its NIC's description
    assert fabric_of(NS(fabric="EFA", nic=NS(fabric="InfiniBand"))) == "EFA"
    # "InfiniBand" anywhere in the NIC's fabric (not only at its start)
    assert fabric_of(NS(nic=NS(fabric="Quantum-2 InfiniBand NDR"))) == "InfiniBand"
