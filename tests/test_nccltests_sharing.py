"""Out of the book (interlib.nccltests.sharing): the hardware in a report's words, the run as
JSON, the rows a report carries, and the prefilled link, each read whole.

Runs are small Run objects with round numbers, so every field of the output is known by
hand (times in us and bandwidths in GB/s, nccl-tests' units); the catalogue's names are
read from it (they are identities). tools/contribute_run.py reads these words back
(tests/test_nccltests_messages.py checks that round trip on a real log).
"""
from __future__ import annotations

from urllib.parse import parse_qs, quote, urlparse

import pytest

from interlib import nccltests as N
from interlib.nccltests import sharing
from interlib.nccltests.setup import Fact, RunSetup
from interlib.specs import GPUS, SYSTEMS, custom


def _run(rows=2, **over):
    base = dict(collective="all_reduce", ranks=16, nccl_version="2.21.5",
                rows=tuple(N.Row(1024 * 2**i, (10 + i) * 1e-6, 0.5e9, 0.875e9 + i, 0,
                                 (11 + i) * 1e-6, 0.25e9, 0.4375e9, None)
                           for i in range(rows)),
                avg_busbw=1.5e9, nodes=2, gpus_per_node=8, device="NVIDIA H100 80GB HBM3",
                out_of_bounds=0, notes=("a note",), program="all_reduce_perf",
                vendor="NVIDIA",
                setup=RunSetup(version=Fact("2.21.5", 3, "NCCL version 2.21.5")),
                rank_lines=16, test="1: x", source="text")
    base.update(over)
    return N.Run(**base)


# -------------------------------------------------------------------------- hardware_text

def test_hardware_of_a_catalogue_system():
    assert sharing.hardware_text("dgx-h100") == "dgx-h100"
    assert sharing.hardware_text("dgx-h100", words=True) == SYSTEMS["dgx-h100"].title
    assert sharing.hardware_text(SYSTEMS["gb200-nvl72"]) == "gb200-nvl72"
    assert sharing.hardware_text(SYSTEMS["gb200-nvl72"], words=True) == \
        SYSTEMS["gb200-nvl72"].title
    with pytest.raises(ValueError, match="^system="):
        sharing.hardware_text("dgx-h999")


def test_hardware_of_a_node_of_ones_own():
    n = custom.node("h100-sxm", 8, nics_per_node=4, nic_gbps=200, fabric="GPUDirect-TCPXO")
    assert sharing.hardware_text(n) == ("gpu=h100-sxm gpus_per_node=8 nics_per_node=4 "
                                        "nic_gbps=200 fabric=GPUDirect-TCPXO intra=nvswitch "
                                        "tcpxo_profile=2025-08")
    assert sharing.hardware_text(n, words=True) == (
        f"GPU: {GPUS['h100-sxm'].name}; 8 GPUs per node; 4 NICs of 200 Gb/s; network: "
        "GPUDirect-TCPXO; GPUs joined by: NVSwitch")
    one = custom.node("a100-sxm-80gb", 2, nics_per_node=1, nic_gbps=100, fabric="Ethernet",
                      intra="pcie", nccl_version="2.27.3")
    assert sharing.hardware_text(one) == ("gpu=a100-sxm-80gb gpus_per_node=2 nics_per_node=1 "
                                          "nic_gbps=100 fabric=Ethernet intra=pcie "
                                          "nccl_version=2.27.3")
    assert sharing.hardware_text(one, words=True) == (
        f"GPU: {GPUS['a100-sxm-80gb'].name}; 2 GPUs per node; 1 NIC of 100 Gb/s; network: "
        "Ethernet; GPUs joined by: PCIe only")
    br = custom.node("h100-sxm", 2, nics_per_node=2, nic_gbps=400, intra="nvlink-bridge")
    assert sharing.hardware_text(br).endswith(" fabric=InfiniBand intra=nvlink-bridge")
    assert sharing.hardware_text(br, words=True).endswith(
        "; GPUs joined by: PCIe + NVLink bridges")


# ------------------------------------------------------------------------------ to_json

def test_run_as_json_every_field():
    out = sharing.to_json(_run())
    assert out["comparison"] is None
    assert out["setup"] == ["NCCL 2.21.5 (line 3: 'NCCL version 2.21.5')"]
    run = out["run"]
    assert {k: v for k, v in run.items() if k != "rows"} == {
        "collective": "all_reduce", "program": "all_reduce_perf", "ranks": 16,
        "nodes_in_rank_lines": 2, "gpus_per_node_in_rank_lines": 8,
        "device": "NVIDIA H100 80GB HBM3", "vendor": "NVIDIA", "nccl_version": "2.21.5",
        "avg_busbw_GBps": 1.5, "out_of_bounds": 0, "source": "text", "test": "1: x",
        "notes": ["a note"]}
    assert run["rows"][1] == {"size_bytes": 2048, "time_out_us": 11.0, "algbw_out_GBps": 0.5,
                              "busbw_out_GBps": 0.875, "wrong_out": 0, "time_in_us": 12.0,
                              "algbw_in_GBps": 0.25, "busbw_in_GBps": 0.4375,
                              "wrong_in": None}
    assert sharing.to_json(_run(avg_busbw=None))["run"]["avg_busbw_GBps"] is None
    # six decimals: 1.2345678 GB/s -> 1.234568
    assert sharing.to_json(_run(avg_busbw=1.2345678e9))["run"]["avg_busbw_GBps"] == 1.234568


def test_comparison_as_json():
    cmp_ = N.compare(N.parse((__import__("pathlib").Path(__file__).parent / "fixtures" /
                              "nccltests" / "a3mega_h100_2x8_all_reduce.log").read_text()),
                     "dgx-h100")
    c = sharing.to_json(cmp_)["comparison"]
    assert (c["system"], c["collective"], c["gpus_per_node"], c["nodes"]) == \
        (cmp_.system, "all_reduce", 8, 2)
    assert c["sizes_bytes"] == [int(s) for s in cmp_.sizes]
    for key, arr in (("measured_busbw_GBps", cmp_.measured),
                     ("predicted_busbw_GBps", cmp_.predicted), ("band_low_GBps", cmp_.low),
                     ("band_high_GBps", cmp_.high)):
        assert c[key] == [round(float(x) / 1e9, 6) for x in arr], key
    assert c["band_source"] == cmp_.band_source and c["notes"] == list(cmp_.notes)
    assert c["assumed"] == list(cmp_.assumed)
    v, x = c["verdicts"][0], cmp_.verdicts[0]
    assert v == {"regime": x.regime, "sizes": x.count, "ratio": round(x.ratio, 6),
                 "band_low": round(x.low, 6), "band_high": round(x.high, 6),
                 "status": x.status, "rule": x.rule, "text": x.text}
    assert len(c["diagnoses"]) == len(cmp_.diagnoses)
    for d, dd in zip(c["diagnoses"], cmp_.diagnoses):
        assert d == {"key": dd.key, "title": dd.title, "evidence": dd.evidence,
                     "stated_by_log": dd.stated, "score": round(dd.score, 6),
                     "read": f"{dd.chapter}: {dd.heading}", "check": dd.check}


# ----------------------------------------------------------------------------- share

def test_row_lines_as_printed_precision_allows():
    assert sharing.row_lines(_run()) == ["1024 10.000 0.88 11.000", "2048 11.000 0.88 12.000"]


def test_share_a_run_without_a_verdict():
    rep = sharing.share(_run(), " gpu=h100-sxm nics_per_node=8 ", where="a lab")
    assert rep["title"] == ("[run] all_reduce on 8 GPUs per node x 2 nodes, "
                            "gpu=h100-sxm nics_per_node=8")
    assert rep["fields"] == {
        "hardware": "gpu=h100-sxm nics_per_node=8", "shape": "8 GPUs per node x 2 nodes",
        "collective": "all_reduce", "nccl-version": "2.21.5", "where": "a lab",
        "verdict": "not compared", "setup": "NCCL 2.21.5 (line 3: 'NCCL version 2.21.5')",
        "rows": "size_bytes time_out_us busbw_out_GBps time_in_us\n"
                "1024 10.000 0.88 11.000\n2048 11.000 0.88 12.000",
        "notes": "a note"}
    assert rep["note"] == ("Host names and IP addresses in the log were removed (the book "
                           "keeps none); the rows are the parsed numbers, not the log.")
    q = {k: v[0] for k, v in parse_qs(urlparse(rep["url"]).query).items()}
    assert rep["url"].startswith(f"{sharing.REPOSITORY}/issues/new?template=share-a-run.yml&")
    assert q == {"template": "share-a-run.yml", "title": rep["title"],
                 **{k: v for k, v in rep["fields"].items() if v}}
    assert "%20" in rep["url"] and "+" not in rep["url"]     # quote, not quote_plus


def test_share_shape_without_hosts_and_an_unknown_version():
    rep = sharing.share(_run(nodes=None, nccl_version=None), "dgx-h100",
                        repository="https://example.org/r")
    assert rep["fields"]["shape"] == "16 ranks" and rep["fields"]["nccl-version"] == ""
    assert rep["url"].startswith("https://example.org/r/issues/new?")
    assert sharing.share(_run(gpus_per_node=None), "x")["fields"]["shape"] == "16 ranks"


def test_share_cuts_a_long_link_and_says_so():
    run = _run(rows=400)
    rep = sharing.share(run, "dgx-h100")
    assert len(rep["url"]) <= sharing.MAX_URL
    q = parse_qs(urlparse(rep["url"]).query)
    kept = q["rows"][0].split("\n")[1:]
    assert 1 <= len(kept) < 400 and kept == sharing.row_lines(run)[:len(kept)]
    # the most that fit: one more row (percent-encoded after a newline) would not have
    nxt = sharing.row_lines(run)[len(kept)]
    assert len(rep["url"]) + len(quote("\n" + nxt)) > sharing.MAX_URL
    assert rep["note"] == ("Host names and IP addresses in the log were removed (the book "
                           "keeps none); the rows are the parsed numbers, not the log. The link "
                           f"holds the first {len(kept)} of 400 rows (a link's length is "
                           "limited): paste the rest into the form's rows box.")
    # the fields keep every row for the page's copy box
    assert rep["fields"]["rows"].count("\n") == 400
    assert " The link holds" not in sharing.share(_run(rows=5), "dgx-h100")["note"]


def test_share_refusals():
    with pytest.raises(ValueError) as e:
        sharing.share(_run(), "  ")
    assert str(e.value) == ("hardware='' is empty: say what the run ran on (a catalogue id or "
                            "'gpu=... nics_per_node=... nic_gbps=... fabric=...')")
    with pytest.raises(ValueError) as e:
        sharing.share(_run(collective=None), "dgx-h100")
    assert str(e.value) == "the run's collective is unknown: parse it with collective= first"
    with pytest.raises(ValueError, match="^hardware="):
        sharing.share(_run(), None)
    with pytest.raises(ValueError, match="^obj="):
        sharing.share("run", "dgx-h100")


# ------------------------------------------------------- the rules' edges (mutation, issue 38)

def test_hardware_of_a_system_copy_and_a_gpu_outside_the_catalogue():
    """Not the catalogue's object: described by its parts. A System has no fabric, bridge
    or TCPXO profile of its own (its NIC's fabric is used); a GPU equal to a catalogue GPU
    is that GPU; one the catalogue lacks is '?'."""
    import dataclasses

    copy = dataclasses.replace(SYSTEMS["dgx-h100"])
    nic = SYSTEMS["dgx-h100"].nic
    assert sharing.hardware_text(copy) == (
        # ConnectX-7: "single-port NDR 400 Gb/s" (the catalogue's source)
        f"gpu=h100-sxm gpus_per_node=8 nics_per_node=8 nic_gbps=400 "
        f"fabric={nic.fabric} intra=nvswitch")
    assert sharing.hardware_text(copy, words=True).endswith(
        f"; network: {nic.fabric}; GPUs joined by: NVSwitch")
    same = custom.node(dataclasses.replace(GPUS["h100-sxm"]), 8, nics_per_node=8)
    assert sharing.hardware_text(same).startswith("gpu=h100-sxm ")
    proto = custom.node(dataclasses.replace(GPUS["h100-sxm"], name="H100 prototype"), 8,
                        nics_per_node=8)
    assert sharing.hardware_text(proto).startswith("gpu=? ")


def test_json_rows_keep_six_decimals():
    r = N.Row(1024, 1.23456789e-6, 1.23456789e9, 2.3456789e9, 0, 3.456789123e-6,
              4.56789123e9, 5.67891234e9, 1)
    row = sharing.to_json(N.Run("all_reduce", 2, None, (r,), None))["run"]["rows"][0]
    assert row == {"size_bytes": 1024, "time_out_us": 1.234568, "algbw_out_GBps": 1.234568,
                   "busbw_out_GBps": 2.345679, "wrong_out": 0, "time_in_us": 3.456789,
                   "algbw_in_GBps": 4.567891, "busbw_in_GBps": 5.678912, "wrong_in": 1}


def _hand_cmp(run=None):
    from interlib import intervals
    names = [x[0] for x in intervals.REGIMES]
    verdicts = (N.Verdict(names[0], 3, 0.87654321, 0.81234567, 1.23456789, "within",
                          "within the band"),
                N.Verdict(names[-1], 2, 0.5, 0.8, 1.2, "below", "below, 37.5 % under"))
    return N.Comparison(run or _run(nodes=None), "NVIDIA DGX H100", "all_reduce", 8, 2, (),
                        (), (), (), (), "b", verdicts, (), ())


def test_comparison_json_verdicts_keep_six_decimals():
    v = sharing.to_json(_hand_cmp())["comparison"]["verdicts"][0]
    assert (v["ratio"], v["band_low"], v["band_high"]) == (0.876543, 0.812346, 1.234568)


def test_share_a_comparison_takes_its_shape_and_verdicts():
    setup = RunSetup(version=Fact("2.21.5", 3, "NCCL version 2.21.5"),
                     network=Fact("IB", 4, "Using network IB"))
    run = _run(nodes=None, notes=("first note", "second note"), setup=setup)
    rep = sharing.share(_hand_cmp(run), "dgx-h100")
    from interlib import intervals
    names = [x[0] for x in intervals.REGIMES]
    assert rep["fields"]["shape"] == "8 GPUs per node x 2 nodes"      # the comparison's
    assert rep["fields"]["verdict"] == (
        f"{names[0]}: within the band (median ratio 0.877)\n"
        f"{names[-1]}: below, 37.5 % under (median ratio 0.500)\n"
        "Compared against: NVIDIA DGX H100")
    assert rep["fields"]["setup"] == ("NCCL 2.21.5 (line 3: 'NCCL version 2.21.5')\n"
                                      "network: IB (line 4: 'Using network IB')")
    assert rep["fields"]["notes"] == "first note\nsecond note"


def test_the_refusals_say_what_is_expected():
    with pytest.raises(ValueError) as e:
        sharing.to_json("run")
    assert str(e.value) == "obj='run' must be a Run or a Comparison"
    with pytest.raises(ValueError) as e:
        sharing.share("run", "dgx-h100")
    assert str(e.value) == "obj='run' must be a Run or a Comparison"
    with pytest.raises(ValueError) as e:
        sharing.share(_run(), 5)
    assert str(e.value) == "hardware=5 must be a catalogue id or 'gpu=... nics_per_node=...'"


def test_a_link_of_exactly_the_limit_is_kept_whole():
    run = _run(rows=40)
    short = sharing.share(run, "dgx-h100")["url"]
    assert len(short) < sharing.MAX_URL
    # 'where' in plain letters is one character per letter in the link
    exact = sharing.share(run, "dgx-h100", where="a" * (sharing.MAX_URL - len(short)))
    assert len(exact["url"]) == sharing.MAX_URL and " The link holds" not in exact["note"]
    over = sharing.share(run, "dgx-h100", where="a" * (sharing.MAX_URL - len(short) + 1))
    assert " The link holds the first 39 of 40 rows" in over["note"]


@pytest.mark.parametrize("n", [399, 400])
def test_the_cut_keeps_the_most_rows_that_fit(n):
    """Row by row: for an odd and an even count alike, one more row would not fit."""
    run = _run(rows=n)
    rep = sharing.share(run, "dgx-h100")
    kept = parse_qs(urlparse(rep["url"]).query)["rows"][0].split("\n")[1:]
    nxt = sharing.row_lines(run)[len(kept)]
    assert len(rep["url"]) <= sharing.MAX_URL < len(rep["url"]) + len(quote("\n" + nxt))


def test_a_link_too_long_for_even_one_row_keeps_one():
    """The link always carries at least the first row (the form needs one), even past the
    limit."""
    rep = sharing.share(_run(rows=40), "dgx-h100", where="a" * sharing.MAX_URL)
    assert len(parse_qs(urlparse(rep["url"]).query)["rows"][0].split("\n")) == 2
    assert rep["note"].endswith(" The link holds the first 1 of 40 rows (a link's length is "
                                "limited): paste the rest into the form's rows box.")
