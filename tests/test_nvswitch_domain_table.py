"""The NVLink domain table's words (interlib.nvswitch.domain_table): what a bisection cell
says where no source gives one, and the caption that explains the marks, read whole.

The DGX GH200's 256-GPU NVLink Switch System: NVIDIA publishes no bisection for it and the
book assumes none (the catalogue's entry has neither a published figure nor a
non-blocking assumption), so both cells say "not published". The caption's wording is the
contract with the reader: what "published" and "if non-blocking" mean.
"""
from __future__ import annotations

from interlib import nvswitch
from interlib.specs.inside_box import NVLINK_DOMAINS


def test_a_domain_without_a_published_bisection_says_so():
    d = NVLINK_DOMAINS["dgx-gh200-256"]
    assert (d.bisection_known, d.published_bisection) == (False, None)
    assert nvswitch.domain_bisection("dgx-gh200-256", False) is None
    row = next(r for r in nvswitch.domain_table().rows if r[0] == d.name)
    assert row[5:7] == ["not published", "not published"]


def test_the_caption_explains_the_marks():
    assert nvswitch.domain_table().caption == (
        "Aggregate = GPUs x per-GPU bandwidth (both directions); bisection = half the GPUs x "
        "per-GPU bandwidth, which holds for one tier of switches (non-blocking by "
        "construction). For domains whose switches span several tiers the bisection depends "
        "on how the tiers are wired: where the vendor publishes it, it is quoted (marked "
        "published; the 256-GPU Hopper system's upper tier was tapered, so half the GPUs x "
        "per-GPU bandwidth would overstate it); where our sources do not give it, it is not "
        "computed, or (marked) computed assuming a non-blocking fabric, an upper bound. "
        "Status: whether the domain was sold (the 256-GPU Hopper NVLink Switch Systems were "
        "announced but not shipped as products; the first multi-node NVLink product is "
        "GB200 NVL72). Sources in interlib.specs.inside_box.")
