"""Appendix B: each claim's correct figures, against the fact sheet's hand derivations
(facts.md section 4) and the cited sources."""

import math
import string

import pytest

from interlib.book import errata as E
from interlib.units import GB, GB_per_s, TB, TB_per_s


def fig(key, label_start):
    for f in E.claim(key).figures:
        if f.label.startswith(label_start):
            return f.value
    raise KeyError(label_start)


def test_all_claims_a_to_m_in_order():
    assert E.KEYS == tuple(string.ascii_lowercase[:13])
    assert [c.key for c in E.claims()] == list(E.KEYS)


@pytest.mark.parametrize("key", E.KEYS)
def test_claim_is_complete(key):
    c = E.claim(key)
    assert c.claim.strip() and c.topic.strip() and c.why
    assert all(p in E.VERDICTS for p in c.verdict.split(" / ")), c.verdict
    assert c.anchor == f"errata-{key}"
    assert c.figures
    for f in c.figures:
        assert math.isfinite(f.value) and f.text and f.how
        assert f.source.url
    assert E.claim_text(key).startswith("Claim: ")
    assert len(E.claim_table(key).rows) == len(c.figures)


def test_verdicts_match_the_fact_sheet():
    want = {"a": "WRONG", "b": "RIGHT, WITH CAVEATS", "c": "WRONG", "d": "WRONG",
            "e": "UNCONFIRMED", "f": "WRONG", "g": "RIGHT", "h": "MISLEADING",
            "i": "RIGHT AS RAW SIGNALLING", "j": "RIGHT", "k": "NOT FOUND / RIGHT",
            "l": "ASYMPTOTICALLY RIGHT, PRACTICALLY MISLEADING / WRONG",
            "m": "ARITHMETIC RIGHT, MODEL MISLEADING"}
    assert {c.key: c.verdict for c in E.claims()} == want


def test_a_gradient_allreduce():
    # facts 4a: 280 GB is fp32; bf16 140 GB; 1.75 x 140 = 245 GB per GPU; ring ~0.66 s at
    # 370 GB/s, NVLS ~0.51 s; PCIe 4.5-4.9 s; Adam 16 B/param = 1.12 TB
    assert fig("a", "fp32") == pytest.approx(280 * GB)
    assert fig("a", "bf16") == pytest.approx(140 * GB)
    assert fig("a", "bytes each GPU") == pytest.approx(245 * GB)
    assert fig("a", "claimed 'NVLink'") == pytest.approx(3.35 * TB_per_s)
    assert fig("a", "ring all-reduce time") == pytest.approx(0.66, rel=0.05)
    assert fig("a", "NVLS all-reduce time") == pytest.approx(0.51, rel=0.05)
    assert fig("a", "ring bytes at NVLink") == pytest.approx(245 / 450, rel=1e-6)
    assert 4.5 <= fig("a", "ring bytes over PCIe") <= 4.9
    assert 7 <= fig("a", "PCIe time / NVLink") <= 9        # "~7-9x, not 67x"
    assert fig("a", "training state") == pytest.approx(1.12 * TB)


def test_b_nvlink5_vs_pcie5():
    assert fig("b", "NVLink 5 per GPU") == pytest.approx(900 * GB_per_s)
    assert fig("b", "line-rate ratio") == pytest.approx(900 / 64)
    assert 13 <= fig("b", "effective ratio") <= 14.5
    assert fig("b", "NVLink 4 / PCIe 5") > 7                 # "over 7X" (Hopper page)


def test_c_nvlink_ib_gap():
    assert fig("c", "H100") == pytest.approx(9)
    assert fig("c", "B200") == pytest.approx(18)
    assert fig("c", "B300") == pytest.approx(9)
    assert fig("c", "aggregate / one NIC") == pytest.approx(144)
    # Bekman, B200: 2.0-2.2x at >= 1 GiB. The model's bandwidth-bound end (16 GiB, the top
    # of his sweep) must land in that range within the model's out-of-sample error: the gap
    # is a ratio of two predictions, each with a cross-validated median error of about 6 %
    # at bandwidth-bound sizes (Appendix A, issue 25), so the range widened by 12 %. At
    # 1 GiB the pipeline fill makes the four-node run slower, so there the gap may only be
    # larger, and it must shrink towards the bandwidth-bound value as messages grow.
    assert 2.0 / 1.12 <= fig("c", "model: B200 16 GiB") <= 2.2 * 1.12
    assert fig("c", "model: B200 1 GiB") >= fig("c", "model: B200 16 GiB")
    # the measured range itself comes from the catalogue (facts 4c: 2.0-2.2x), and the
    # "why" text quotes it from there
    assert fig("c", "measured: B200") == 2.0
    assert fig("c", "measured: same, high end") == 2.2
    assert "2.0× to 2.2× at >= 1 GiB" in " ".join(E.claim("c").why)


def test_d_dgx_h100_nics():
    assert fig("d", "compute NICs per GPU") == 1.0
    assert fig("d", "per-node injection") == pytest.approx(400 * GB_per_s)


def test_e_latency_scale():
    # V1-01: 1 KiB x 1.75 / 0.07 GB/s = 25.6 us (facts V1 note)
    assert fig("e", "measured 1 KiB") == pytest.approx(25.6e-6, rel=0.01)
    assert 15e-6 <= fig("e", "model: 1 KiB") <= 50e-6         # "NCCL latency 15-50 us"
    assert fig("e", "a 1 µs") < 0.1


def test_f_nvl72_memory():
    assert fig("f", "72 GPUs") == pytest.approx(13.4 * TB, rel=0.005)
    assert fig("f", "the claim's") == pytest.approx(13.824 * TB)
    assert fig("f", "NVIDIA's figure") == pytest.approx(13.4 * TB)   # GB200 NVL72 page


def test_g_ring_bytes():
    assert fig("g", "per GPU, 8 GPUs") == pytest.approx(1.75 * GB)
    assert fig("g", "per GPU, counted") == pytest.approx(1.75 * GB)
    assert fig("g", "total") == pytest.approx(14 * GB)
    assert fig("g", "per GPU with NVLS") == pytest.approx(1 * GB)


def test_h_nvlink4_arithmetic():
    assert fig("h", "18 links, per direction") == pytest.approx(450 * GB_per_s)
    assert fig("h", "18 links, bidirectional") == pytest.approx(900 * GB_per_s)


def test_i_pcie6():
    assert fig("i", "raw") == pytest.approx(128 * GB_per_s)
    assert fig("i", "headline") == pytest.approx(256 * GB_per_s)
    assert fig("i", "after FLIT") == pytest.approx(128 * 236 / 256 * GB_per_s)


def test_j_bisection():
    assert fig("j", "NVSwitch chips") == 4
    assert fig("j", "bisection") == pytest.approx(3.6 * TB_per_s)
    assert fig("j", "aggregate") == pytest.approx(7.2 * TB_per_s)
    assert fig("j", "raw switch") == pytest.approx(6.4 * TB_per_s)


def test_k_llama3():
    assert round(100 * fig("k", "Network Switch"), 1) == 8.4   # Table 5 prints 8.4 %
    assert round(100 * fig("k", "NIC"), 1) == 1.7
    assert fig("k", "GPUs per cluster") == 24576
    # Table 5 is stored once, in the catalogue; the "how" column is formatted from it
    assert not hasattr(E, "LLAMA3_INTERRUPTIONS")
    hows = {f.label: f.how for f in E.claim("k").figures}
    assert hows["NIC share"] == "7 / 419"
    assert hows["Pods x GPUs per pod"] == "8 pods x 3,072 GPUs"     # facts 1.7: Meta's pods
    assert fig("k", "Pods x GPUs per pod") == fig("k", "GPUs per cluster")
    # the cluster size is the March 2024 blog's; the pods are the Llama 3 paper's (3.3.1)
    srcs = {f.label: f.source for f in E.claim("k").figures}
    assert srcs["GPUs per cluster"] is not srcs["Pods x GPUs per pod"]
    assert "3.3.1" in srcs["Pods x GPUs per pod"].title   # Llama 3 paper, section 3.3.1
    assert "pods" not in E.CLAIM_GIVENS["k"]


def test_how_strings_show_catalogue_figures():
    # arithmetic shown in the "how" column agrees with the fact sheet's derivations
    hows = {(c.key, f.label): f.how for c in E.claims() for f in c.figures}
    assert hows[("h", "18 links, per direction")] == "18 x 25 GB/s"
    assert hows[("j", "raw switch port capacity, per direction")] == \
        "4 chips x 64 ports x 25 GB/s"
    assert hows[("b", "PCIe 5.0 x16 raw, per direction")] == "32 GT/s x 16 lanes / 8 bits"


def test_l_fat_tree_counts():
    # Al-Fares et al. 2008, k = 64: k^3/4 hosts, 5k^2/4 switches
    assert fig("l", "64-port fat-tree: hosts") == 64**3 / 4
    assert fig("l", "64-port fat-tree: switches") == 5 * 64**2 / 4
    # an L-tier folded Clos needs (2L - 1)/k switches per host: 2, 3 and 4 tiers
    assert fig("l", "fat-tree, 1,024 hosts") == pytest.approx(3 / 64)
    assert fig("l", "fat-tree, 65,536 hosts") == pytest.approx(5 / 64)
    assert fig("l", "fat-tree, 2,097,152 hosts") == pytest.approx(7 / 64)


def test_m_100g_sync():
    assert fig("m", "one one-way") == pytest.approx(11.2)
    # facts 4m: ~0.72 s. The model's time, out of sample, within twice its cross-validated
    # median error at bandwidth-bound sizes (about 6 %, Appendix A): 12 %
    assert fig("m", "4 x DGX H100") == pytest.approx(0.72, rel=0.12)
    # the last time is NCCL's algorithm choice, and the text says which
    assert "NVLSTree" in E.claim("m").why[0]


def test_m_calls_nccls_choice_a_choice_not_the_fastest():
    """Issue 39 correction 5: in the same model the ring and the hierarchical algorithm
    are faster than NVLSTree, the algorithm NCCL's tuner picks (787 vs 763 and 661 ms in
    the 2026 edition), so the claim may not call NVLSTree 'fastest'. The times are the
    model's own; what is pinned is the ordering the text must follow, whatever it is."""
    times = {f.label: f.value for f in E.claim("m").figures}
    ring = next(v for k, v in times.items() if "ring all-reduce" in k)
    hier = next(v for k, v in times.items() if "hierarchical" in k)
    chosen = next(v for k, v in times.items() if "NCCL's tuner chooses" in k)
    why = E.claim("m").why[0]
    assert "as fastest" not in why and "picks as fastest" not in why
    if chosen > min(ring, hier):
        assert "NCCL's choice, not the fastest" in why
    else:
        assert "It is also the fastest" in why
    # and with the 2026.2 model it is indeed not the fastest (the reviewer's finding)
    assert chosen > hier and chosen > ring


def test_l_dragonfly_is_kim_et_al():
    # Kim, Dally, Scott and Abts (ISCA 2008): 52 % vs folded Clos, 20 % vs flattened butterfly
    assert fig("l", "dragonfly vs folded Clos") == 0.52
    assert fig("l", "dragonfly vs flattened butterfly") == 0.20


def test_bad_input():
    with pytest.raises(ValueError, match="^key="):
        E.claim("z")
    with pytest.raises(ValueError, match="^key="):
        E.sources_table("q")


def test_claim_i_compares_pcie_generations_like_with_like():
    # Issue 28, error 4: Gen 6's 236/256 already removes its link layer and FEC, Gen 5's
    # 128/130 only the line code. On one basis (256-B payloads, 16-B header; Gen 5 also 8 B
    # of framing + sequence + LCRC per TLP, Intel AN 855's 'six dwords' less the header):
    # Gen 6: 128 GB/s x 236/256 x 256/272; Gen 5: 64 GB/s x 128/130 x 256/280.
    gen6 = 128 * 236 / 256 * 256 / 272 * GB_per_s
    gen5 = 64 * 128 / 130 * 256 / 280 * GB_per_s
    assert fig("i", "TLP payload") == pytest.approx(gen6)
    assert fig("i", "PCIe 5.0") == pytest.approx(gen5)
    assert 1.9 < gen6 / gen5 < 2.0  # not the 2x of the raw rates, nor 118 / 63 = 1.87
    # Issue 28, error 1: the claim no longer says no GPU attaches at Gen 6
    why = " ".join(E.claim("i").why)
    assert "no shipping GPU" not in why and "GB300" in why and "Direct NIC" in why
