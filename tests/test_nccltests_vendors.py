"""What interlib.nccltests.vendors says of a run from outside the model: the advice for a GPU
the catalogue does not have (printed by the CLI and the page when no system is given) and
what the book can say of an AMD Instinct run (in the NotModelled message), read whole.

The wording is the contract here (a reader acts on it), so each text is compared whole. The
figures in it come from the sources the catalogue cites, derived by hand below; the names
(a GPU's display name, a platform's link or library) are the catalogue's own words, read
from it since they are identities, not values.
"""
from __future__ import annotations

import dataclasses

import pytest

from interlib.nccltests import vendors
from interlib.specs import GPUS, SYSTEMS, scaleup

# PCIe generations the PCIe-card advice names, from the vendors' pages (the catalogue
# literal table cites the same): A100 SXM4 80 GB "PCIe 4.0 x16"; H100 SXM "PCIe Gen5: 128GB/s".
A100_PCIE, H100_PCIE = "4.0", "5.0"

H100_PCIE_TEXT = (
    "is an H100 PCIe card. The catalogue's nearest system is h100-pcie-only (8 H100 on PCIe "
    "only, no NVLink: hypothetical, every GPU assumed to get its full PCIe link); for cards "
    "paired by NVLink bridges (H100 NVL) build a node of H100 with intra 'nvlink-bridge' "
    "(assumed: the SXM part's NVLink rates)")


def _pcie_card_text(what):
    gens = (f"{GPUS['a100-sxm-80gb'].name}: PCIe {A100_PCIE}, "
            f"{GPUS['h100-sxm'].name}: PCIe {H100_PCIE}")
    return (f"{what} is not in the book's catalogue. The nearest the model can do is a node "
            f"of a catalogue GPU over PCIe (intra 'pcie'), whose PCIe generation should match "
            f"your card ({gens}): an assumption, since the GPU itself differs")


@pytest.mark.parametrize("device", [
    "NVIDIA H100 PCIe",        # nvidia-smi's name for the PCIe card (NCCL issue 1161's log)
    "nvidia h100 pcie",        # typed by hand
    "NVIDIA H100 NVL",         # the NVLink-bridged pair's card: the NVL clause alone
])
def test_h100_pcie_or_nvl_card_advice_whole(device):
    assert vendors.advice(device) == {"text": f"'{device}' {H100_PCIE_TEXT}",
                                      "system": "h100-pcie-only", "gpu": "h100-sxm",
                                      "intra": "pcie"}


def test_the_advised_system_is_what_the_text_says_it_is():
    """h100-pcie-only: 8 H100 on PCIe only (its catalogue entry, which the text describes)."""
    s = SYSTEMS["h100-pcie-only"]
    assert (s.gpus_per_node, s.intra, s.nvswitch_gen, s.gpu.name) == (8, "pcie", None,
                                                                      GPUS["h100-sxm"].name)


@pytest.mark.parametrize("device", ["H100", "NVIDIA H100 80GB HBM3", "NVIDIA A100-PCIE-40GB"])
def test_h100_advice_needs_both_h100_and_a_pcie_word(device):
    """An H100 without PCIe/NVL in its name, or a PCIe card that is no H100, is not pointed at
    h100-pcie-only."""
    assert vendors.advice(device)["system"] is None


@pytest.mark.parametrize("device", ["NVIDIA L40S", "NVIDIA A100-PCIE-40GB", "Tesla T4",
                                    "NVIDIA GeForce RTX 4090"])
def test_pcie_card_advice_whole(device):
    assert vendors.advice(device) == {"text": _pcie_card_text(f"'{device}'"), "system": None,
                                      "gpu": None, "intra": "pcie"}


@pytest.mark.parametrize("device", [None, "", "  "])
def test_unnamed_gpu_advice_whole(device):
    """A log that names no GPU (rows pasted without their Rank lines) is told so; it is not
    taken for a card outside the catalogue nor pointed at a PCIe node (session 6: a
    rows-only paste of a two-node A100 run was told its GPU was not in the catalogue)."""
    assert vendors.advice(device) == {
        "text": ("The log does not name its GPUs (it has no '#  Rank ... device ...' lines): "
                 "say which hardware the run was on, a catalogue system or the GPU of a node "
                 "of your own"),
        "system": None, "gpu": None, "intra": None}


def test_other_gpu_advice_lists_the_catalogue_gpus_whole():
    device = "NVIDIA GH200 480GB"   # an NVLink GPU the catalogue does not have
    names = ", ".join(g.name for g in GPUS.values())
    assert len(GPUS) == 7 and "A100 SXM 80GB" in names and "B300" in names
    assert vendors.advice(device) == {
        "text": (f"'{device}' is not in the book's catalogue (it has {names}): pick the "
                 "nearest catalogue GPU with the same NVLink generation, and say so"),
        "system": None, "gpu": None, "intra": None}


# ------------------------------------------------------------------------------ AMD

def test_amd_entries_are_the_catalogues_amd_platforms():
    """The four AMD platforms the catalogue holds (issue 39: MI300X, MI325X, MI355X 8-GPU
    xGMI boxes and the Helios rack), nothing of another vendor."""
    got = vendors.amd_entries()
    assert [k for k, _ in got] == ["mi300x-8", "mi325x-8", "mi355x-8", "amd-helios"]
    assert all(d is scaleup.SCALEUP_DOMAINS[k] for k, d in got)


def test_amd_entries_when_the_catalogue_has_none(monkeypatch):
    """Looked up at run time: no SCALEUP_DOMAINS at all, or entries without a vendor, give no
    AMD entry (and the summary says so) instead of an AttributeError."""
    monkeypatch.delattr(scaleup, "SCALEUP_DOMAINS")
    assert vendors.amd_entries() == []
    assert vendors.amd_summary("AMD Instinct MI300X") == (
        "The book's catalogue has no AMD entry for 'AMD Instinct MI300X'.")
    assert vendors.amd_summary(None) == (
        "The book's catalogue has no AMD entry for this run's GPU (the log does not name it).")
    monkeypatch.setattr(scaleup, "SCALEUP_DOMAINS", {"x": object()}, raising=False)
    assert vendors.amd_entries() == []


def _sentence(k, d, rate):
    return (f"{d.name} ({k}): {int(d.domain_size.value)} GPUs joined {d.topology} by {d.link}; "
            f"{rate}; collectives by {d.library}; source: {d.status.source.title}")


# Per-GPU scale-up rate per direction, by hand from the sources the entries cite:
# MI300X / MI325X: amdgpu_xgmi.c, GC 9.4.3 / 9.4.4 "max_speed = 32 (GT/s); max_width = 16",
# unidirectional: 32 x 16 / 8 = 64 GB/s per link, 7 links (one to each peer) = 448 GB/s.
# MI355X: AMD's 153.6 GB/s per link both directions -> 76.8 per direction, x 7 = 537.6 GB/s.
# Helios: AMD ROCm blog "up to 3.6 TB/s (bi-directional) per GPU" -> 1800 GB/s per direction.
@pytest.mark.parametrize("device, key, rate, size", [
    ("AMD Instinct MI300X", "mi300x-8", 32 * 16 / 8 * 7, 8),       # rccl-tests' device name
    ("AMD Instinct MI325X", "mi325x-8", 32 * 16 / 8 * 7, 8),
    ("amd instinct mi355x", "mi355x-8", 153.6 / 2 * 7, 8),
    ("AMD Instinct MI455X", "amd-helios", 3600 / 2, 72),            # Helios: 72 per rack
])
def test_amd_summary_of_a_named_gpu_whole(device, key, rate, size):
    d = scaleup.SCALEUP_DOMAINS[key]
    assert int(d.domain_size.value) == size
    assert vendors.amd_summary(device) == (
        "The book's catalogue has "
        + _sentence(key, d, f"{rate:g} GB/s per GPU per direction") + ".")


def test_amd_summary_finds_the_accelerator_inside_a_hyphenated_name():
    """NVIDIA writes its device names with hyphens ('A100-SXM4-40GB'): an AMD name written
    that way ('MI300X-OAM') still finds its entry, as does a lower-case one."""
    d = scaleup.SCALEUP_DOMAINS["mi300x-8"]
    want = "The book's catalogue has " + _sentence("mi300x-8", d, "448 GB/s per GPU per "
                                                   "direction") + "."
    assert vendors.amd_summary("AMD Instinct MI300X-OAM") == want
    assert vendors.amd_summary("amd-instinct-mi300x") == want
    # ... but a hyphen is a word break, not glue: the MI300A APU (no catalogue entry) written
    # the same way is not the MI300X
    assert vendors.amd_summary("AMD Instinct MI300-A").startswith(
        "The book's catalogue has no entry for 'AMD Instinct MI300-A'")


def test_amd_summary_of_several_matching_entries_joins_them(monkeypatch):
    """Two entries for one accelerator (an 8-GPU box and a rack of it): both, '; '-joined."""
    box = scaleup.SCALEUP_DOMAINS["mi300x-8"]
    rack = dataclasses.replace(box, name="A rack of MI300X")
    monkeypatch.setattr(scaleup, "SCALEUP_DOMAINS", {"mi300x-8": box, "rack": rack})
    rate = "448 GB/s per GPU per direction"
    assert vendors.amd_summary("AMD Instinct MI300X") == (
        "The book's catalogue has " + _sentence("mi300x-8", box, rate) + "; "
        + _sentence("rack", rack, rate) + ".")


def test_amd_summary_without_a_sourced_rate_says_so(monkeypatch):
    """An entry whose per-GPU rate no source gives (per_accelerator None) says that instead
    of a number."""
    d = dataclasses.replace(scaleup.SCALEUP_DOMAINS["mi300x-8"], per_accelerator=None)
    monkeypatch.setattr(scaleup, "SCALEUP_DOMAINS", {"mi300x-8": d})
    assert vendors.amd_summary("AMD Instinct MI300X") == (
        "The book's catalogue has " + _sentence(
            "mi300x-8", d, "no per-GPU link rate from a source the book has read") + ".")


def test_amd_summary_of_a_gpu_without_an_entry_lists_the_amd_entries():
    listed = ("AMD Instinct MI300X (8-GPU platform) (mi300x-8), AMD Instinct MI325X (8-GPU "
              "platform) (mi325x-8), AMD Instinct MI355X (8-GPU platform) (mi355x-8), AMD "
              "Helios (72 x MI455X, one rack) (amd-helios)")
    assert vendors.amd_summary("AMD Instinct MI250X") == (
        f"The book's catalogue has no entry for 'AMD Instinct MI250X'; its AMD entries are "
        f"{listed}.")
    assert vendors.amd_summary(None) == (
        "The book's catalogue has no entry for this run's GPU (the log does not name it); its "
        f"AMD entries are {listed}.")
