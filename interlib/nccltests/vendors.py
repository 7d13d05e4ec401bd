"""Which hardware a log ran on, against what the book's catalogue holds.

The collective model covers NVIDIA's NVLink systems of the catalogue
(:data:`interlib.specs.SYSTEMS`) and nodes built from its GPUs
(:func:`interlib.specs.custom.node`). A log from other hardware is still read exactly; then
:func:`advice` says what the book can compare it with (an assumption, printed as one),
and :func:`amd_summary` says what the book knows of an AMD Instinct platform, from the
catalogue's AMD entries looked up at run time (:data:`interlib.specs.scaleup.SCALEUP_DOMAINS`,
vendor ``"AMD"``): the model has no AMD platform, so an AMD run gets no verdict.
"""
from __future__ import annotations

import re

from ..units import GB_per_s

GPU_TOKENS = {"a100-sxm-80gb": "A100", "h100-sxm": "H100", "h200": "H200", "b200": "B200",
              "gb200": "GB200", "gb300": "GB300", "b300": "B300"}
"""What each catalogue GPU's name contains in the device name nccl-tests prints."""

_PCIE_CARD = re.compile(r"PCIE|\bNVL\b|\bL40S?\b|\bL4\b|\bA10G?\b|\bA40\b|RTX|GEFORCE|\bT4\b")
_SXM = re.compile(r"SXM|HBM3|HBM2E|\bH200\b|\bB200\b|\bGB[23]00\b|\bB300\b")


def catalogue_gpu(device: str | None) -> tuple:
    """``(gpu id, how)``: the catalogue GPU a device name (``"NVIDIA H100 80GB HBM3"``) is,
    or ``(None, why not)``. A100 SXM4 40 GB maps to the catalogue's 80 GB card (same links;
    ``how`` says so); PCIe cards, other GPUs and unnamed devices map to nothing.

    >>> catalogue_gpu("NVIDIA H100 80GB HBM3")[0], catalogue_gpu("NVIDIA A100-PCIE-40GB")[0]
    ('h100-sxm', None)
    """
    if not device:
        return None, "the log does not name its GPUs"
    up = device.upper()
    words = set(re.findall(r"[A-Z]+\d+", up))
    if _PCIE_CARD.search(up):
        return None, f"'{device}' is a PCIe card, not in the book's catalogue"
    for gid in ("gb300", "gb200", "b300", "b200", "h200", "h100-sxm", "a100-sxm-80gb"):
        if GPU_TOKENS[gid] in words:
            if gid == "a100-sxm-80gb" and "40GB" in up:
                return gid, (f"'{device}' taken as the catalogue's A100 SXM 80GB: the same "
                             "NVLink and PCIe links, half the memory (assumed not to matter "
                             "for collectives)")
            if gid == "h100-sxm" and not _SXM.search(up):
                return None, f"'{device}' is not the catalogue's H100 SXM"
            return gid, f"'{device}' is the catalogue's {GPU_TOKENS[gid]}"
    return None, f"'{device}' is not in the book's catalogue"


def advice(device: str | None) -> dict:
    """What to compare a run from outside the catalogue with: ``{"text": ..., "system":
    catalogue id or None, "gpu": id or None, "intra": ...}`` (every choice an assumption
    the text states). An H100 PCIe (or NVL) card points at ``h100-pcie-only``; a log that
    names no GPU (rows pasted without their ``Rank`` lines) is told so, not taken for a
    card the catalogue lacks."""
    from ..specs import GPUS

    up = (device or "").strip().upper()
    gens = ", ".join(f"{g.name}: PCIe {g.pcie_gen}" for k, g in GPUS.items()
                     if k in ("a100-sxm-80gb", "h100-sxm"))
    if "H100" in up and ("PCIE" in up or "NVL" in up):
        return {"text": (f"'{device}' is an H100 PCIe card. The catalogue's nearest system "
                         "is h100-pcie-only (8 H100 on PCIe only, no NVLink: hypothetical, "
                         "every GPU assumed to get its full PCIe link); for cards paired by "
                         "NVLink bridges (H100 NVL) build a node of H100 with intra "
                         "'nvlink-bridge' (assumed: the SXM part's NVLink rates)"),
                "system": "h100-pcie-only", "gpu": "h100-sxm", "intra": "pcie"}
    if not up:
        return {"text": ("The log does not name its GPUs (it has no '#  Rank ... device ...' "
                         "lines): say which hardware the run was on, a catalogue system or "
                         "the GPU of a node of your own"),
                "system": None, "gpu": None, "intra": None}
    if _PCIE_CARD.search(up):
        return {"text": (f"'{device}' is not in the book's catalogue. The nearest the model "
                         "can do is a node of a catalogue GPU over PCIe (intra 'pcie'), "
                         f"whose PCIe generation should match your card ({gens}): an "
                         "assumption, since the GPU itself differs"),
                "system": None, "gpu": None, "intra": "pcie"}
    return {"text": (f"'{device}' is not in the book's catalogue (it has "
                     + ", ".join(g.name for g in GPUS.values()) + "): pick the nearest "
                     "catalogue GPU with the same NVLink generation, and say so"),
            "system": None, "gpu": None, "intra": None}


def amd_entries() -> list:
    """The catalogue's AMD scale-up entries ``(id, ScaleUpDomain)``, read at run time."""
    from ..specs import scaleup

    return [(k, d) for k, d in getattr(scaleup, "SCALEUP_DOMAINS", {}).items()
            if getattr(d, "vendor", "") == "AMD"]


def amd_summary(device: str | None) -> str:
    """What the book can say about an AMD Instinct run: the catalogue's entry for its
    accelerator (found by id at run time), or the AMD entries it has, or that it has none."""
    entries = amd_entries()
    up = (device or "").upper()
    mine = [(k, d) for k, d in entries if d.accelerator.upper() in up.split()
            or d.accelerator.upper() in up.replace("-", " ")]
    if mine:
        parts = []
        for k, d in mine:
            bw = (f"{d.per_accelerator.value / GB_per_s:g} GB/s per GPU per direction"
                  if d.per_accelerator is not None else
                  "no per-GPU link rate from a source the book has read")
            parts.append(f"{d.name} ({k}): {int(d.domain_size.value)} GPUs joined "
                         f"{d.topology} by {d.link}; {bw}; collectives by {d.library}; "
                         f"source: {d.status.source.title}")
        return "The book's catalogue has " + "; ".join(parts) + "."
    what = f"'{device}'" if device else "this run's GPU (the log does not name it)"
    if entries:
        return (f"The book's catalogue has no entry for {what}; its AMD entries are "
                + ", ".join(f"{d.name} ({k})" for k, d in entries) + ".")
    return f"The book's catalogue has no AMD entry for {what}."
