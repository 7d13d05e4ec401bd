"""Headline numbers must agree across chapters: the capstone (Chapter 8) and the ladder
(Chapter 7) are computed with the same functions and catalogue as Chapter 1.

Two kinds of check, each comparing values that could disagree: (1) execute the interlib
calls two chapters make and compare them with each other and with a hand derivation from
the fact sheet; (2) read the numbers two chapters printed (their stored outputs) and
compare them with each other and with an independent derivation.
"""

import json
import re
from pathlib import Path

import pytest

from interlib import capstone, display, hierarchy, scaling, steptime

CHAPTERS = Path(__file__).resolve().parent.parent / "chapters"


def _stream_lines(nb_name: str) -> list[str]:
    path = CHAPTERS / nb_name
    assert path.exists(), f"{nb_name} is missing from chapters/"
    nb = json.loads(path.read_text())
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                text = o["text"] if isinstance(o["text"], str) else "".join(o["text"])
                out += text.splitlines()
    return out


def _line(lines, pattern):
    hits = [m for m in (re.search(pattern, ln) for ln in lines) if m]
    assert hits, f"no printed line matches {pattern!r}"
    return hits[0]


# ------------------------------------------------------------ executed interlib calls
def test_70b_gradient_sync_chapter1_equals_capstone():
    # Chapter 1, worked problem 1: NVLS all-reduce of the 70B bf16 gradient on 1 DGX H100
    ch1 = scaling.gradient_sync_time(70e9, 8, "dgx-h100", algorithm="nvls")
    # Chapter 8, worked problem 1: the capstone on one server, TP 1, PP 1 (so DP 8)
    d = capstone.design(nodes=1, tp=1, pp=1)
    assert d.dp == 8
    assert d.step.layout.phase("DP").time_s == pytest.approx(ch1, rel=1e-12)
    # the capstone lets NCCL's "auto" choose: it must be the fastest of Chapter 1's options
    ring = scaling.gradient_sync_time(70e9, 8, "dgx-h100", algorithm="ring")
    assert d.step.layout.phase("DP").time_s <= ring


def test_h100_nvlink_rung_matches_hand_derivation_and_chapter1():
    rung = {r.name: r for r in hierarchy.ladder("H100")}["NVLink"]
    # facts.md 1.2: 18 links x 25 GB/s per direction; NCCL topo.h SM90: 18 x 20.6 GB/s
    assert rung.peak == pytest.approx(18 * 25e9)
    assert rung.effective == pytest.approx(18 * 20.6e9)
    ch1 = hierarchy.link_options()["NVLink 4"]                           # Chapter 1's rung
    assert (rung.peak, rung.effective) == (ch1.peak, ch1.effective)


def test_ladder_rungs_match_chapter1_links():
    ch1 = hierarchy.link_options()
    rungs = {r.name: r for r in hierarchy.ladder("H100")}
    # facts.md 1.1 and 1.4: PCIe 5.0 x16 = 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s per
    # direction; one NDR port = 400 Gb/s = 50 GB/s per direction
    assert rungs["PCIe"].peak == pytest.approx(32e9 * 16 * 128 / 130 / 8)
    assert rungs["Scale-out NIC"].peak == pytest.approx(400e9 / 8)
    pc = ch1["PCIe 5.0 x16"]
    assert (rungs["PCIe"].peak, rungs["PCIe"].effective, rungs["PCIe"].latency) == \
        (pc.peak, pc.effective, pc.latency)
    ib = ch1["InfiniBand NDR (1 NIC/GPU)"]
    assert (rungs["Scale-out NIC"].peak, rungs["Scale-out NIC"].effective) == \
        (ib.peak, ib.effective)


def test_layout_bytes_equal_chapter1_traffic():
    # Chapter 1's traffic demo: Llama 3 70B, TP 8 x PP 4 x DP 16, 8 micro-batches
    m = scaling.model("llama-3-70b")
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, 4096, 1, 8, tp=8, pp=4,
                                     dp=16)
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 16, micro_batches=8)
    assert [p.bytes for p in lay.phases] == [tr.tp, tr.pp, tr.dp]


def test_capstone_reference_equals_chapter7_layout():
    d = capstone.design()
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 8)
    for kind in ("TP", "PP", "DP"):
        assert d.step.layout.phase(kind).time_s == pytest.approx(lay.phase(kind).time_s)
        assert d.step.layout.phase(kind).rung == lay.phase(kind).rung


# -------------------------------------------------------------- stored notebook outputs
def test_printed_70b_sync_same_in_chapters_1_and_8():
    ch8 = _line(_stream_lines("08_impact.ipynb"),
                r"capstone, 70B gradient all-reduce on 8 GPUs over NVLink: (.+)$").group(1)
    expect = display.fmt_time(scaling.gradient_sync_time(70e9, 8, "dgx-h100",
                                                         algorithm="nvls"))
    assert ch8.strip() == expect
    # Chapter 1's Problem 1 quotes the NVLS time in its prose ({eval}); its stored value
    ch1 = [e["result"]["data"]["text/plain"].strip("'")
           for c in json.loads((CHAPTERS / "01_why_connect.ipynb").read_text())["cells"]
           for e in c.get("metadata", {}).get("user_expressions", [])
           if e["expression"] == "display.fmt_time(nvls.time_s)"]
    assert ch1 == [ch8.strip()]


def test_printed_nvlink_rung_chapter7():
    summary = _line(_stream_lines("07_hierarchy.ipynb"), r"^H100, per GPU .*NVLink ([^→]+) →")
    # facts.md 1.2: 18 links x 25 GB/s per direction, printed as the book prints rates
    assert summary.group(1).strip() == display.fmt_rate(18 * 25e9) == "450 GB/s"


def test_printed_reference_layout_same_in_chapters_7_and_8():
    # Chapter 7 prints the TP 8 x PP 4 x DP 8 layout phase by phase; Chapter 8's capstone
    # summary prints the same reference job's TP, PP and DP times: the two notebooks'
    # stored outputs must agree
    ch7 = _stream_lines("07_hierarchy.ipynb")
    ch7_t = {k: _line(ch7, rf"^{k}: .* over [^,]+, (\S+ \S+) \(").group(1)
             for k in ("TP", "PP", "DP")}
    ch8 = _line(_stream_lines("08_impact.ipynb"),
                r"TP (\S+ \S+) \+ PP (\S+ \S+) \+ DP (\S+ \S+) − hidden")
    assert (ch7_t["TP"], ch7_t["PP"], ch7_t["DP"]) == ch8.groups()
