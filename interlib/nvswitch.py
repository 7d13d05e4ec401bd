"""NVSwitch: every GPU to every GPU. Mesh-vs-switch counting, DGX H100 wiring, bisection
and aggregate bandwidth of NVLink domains, in-switch reduction (NVLS). Chapter 4
introduces it.

Conventions: ``per_gpu`` bandwidths are per direction. A *cut* splits a domain into two
groups; the cut bandwidth is what can cross it in one direction (add the other direction
for "both directions"). The *bisection* is the cut through the middle. The *aggregate*
adds every GPU's bandwidth in both directions: it is what "130 TB/s" headlines sum, and it
is not a bisection.

>>> mesh_links(8)
28
>>> round(nvls_busbw_factor(8), 3)
1.556
"""

from __future__ import annotations

import numpy as np

from . import _validate as v
from . import collectives, display
from .specs import NVLINK, NVSWITCH, calibration as C
from .specs.inside_box import (DGX_H100_LINKS_PER_SWITCH, NVL72_CHIPS_PER_TRAY,
                               NVL72_SWITCH_TRAYS, NVLINK_DOMAINS)
from .units import GiB


def prose_figures() -> dict:
    """Figures Chapter 4's prose quotes, as display strings (glued into the text, so none
    is typed by hand): the DGX H100 and NVL72 headlines and what they are, where the
    Blackwell switch chips sit, and the GPU count from which NCCL (and the book's model)
    considers NVLS.

    >>> f = prose_figures()
    >>> f["dgx_h100_headline"], f["nvl72_headline"], f["nvl72_aggregate_over_bisection"]
    ('3.6 TB/s', '130 TB/s', '4×')
    """
    h100, nvl72 = NVLINK_DOMAINS["dgx-h100"], NVLINK_DOMAINS["gb200-nvl72"]
    nv4, nv5 = NVLINK[h100.nvlink_gen], NVLINK[nvl72.nvlink_gen]
    n72 = int(nvl72.gpus.value)
    agg72 = aggregate_bandwidth(n72, nv5.per_gpu_bidirectional)
    trays, per_tray = int(NVL72_SWITCH_TRAYS.value), int(NVL72_CHIPS_PER_TRAY.value)
    return {
        "dgx_h100_headline": display.fmt_rate(h100.headline.value),
        "dgx_h100_aggregate": display.fmt_rate(
            aggregate_bandwidth(int(h100.gpus.value), nv4.per_gpu_bidirectional)),
        "nvl72_headline": display.fmt_rate(nvl72.headline.value),
        "nvl72_bisection": display.fmt_rate(domain_bisection("gb200-nvl72")),
        "nvl72_aggregate_over_bisection": display.fmt_ratio(
            agg72 / domain_bisection("gb200-nvl72")),
        "b200_board_chips": f"{NVSWITCH[4].chips_per_board.value:g}",
        "nvl72_switch_trays": str(trays),
        "nvl72_chips_per_tray": str(per_tray),
        "nvl72_switch_chips": str(trays * per_tray),
        "nvls_min_gpus": f"{C.NVLS_MIN_GPUS.value:g}",
        **_expert_figures(),
        **_beyond_gb200_figures(),
    }


def _beyond_gb200_figures() -> dict:
    """Chapter 4's figures for scale-up beyond GB200 and beyond NVIDIA (issue 28)."""
    from .specs import SCALEUP_DOMAINS, system
    from .specs.scaleup import NVLINK_FUSION

    d = SCALEUP_DOMAINS
    vr, g3, tpu, ua = (d[k] for k in ("vera-rubin-nvl72", "gaudi3-hls3", "tpu-v5p-pod",
                                      "ualink-pod"))
    gb300 = system("gb300-nvl72")
    return {
        "gb300_status": str(gb300.status),
        "gb300_nic_per_gpu": display.fmt_rate(gb300.nic_bw_per_gpu),
        "vr_gpus": f"{vr.domain_size.value:g}",
        "vr_status": str(vr.status),
        "gaudi3_scaleup": display.fmt_rate(g3.per_accelerator.value),
        "gaudi3_scaleout": display.fmt_rate(g3.scale_out_per_accelerator.value),
        "gaudi3_ratio": display.fmt_ratio(g3.scale_up_over_scale_out),
        "gaudi3_box": f"{g3.domain_size.value:g}",
        "tpu_pod": f"{tpu.domain_size.value:,.0f}",
        "tpu_ici": display.fmt_rate(tpu.per_accelerator.value),
        "ualink_pod": f"{ua.domain_size.value:,.0f}",
        "ualink_status": str(ua.status),
        "fusion_status": str(NVLINK_FUSION),
    }


def scaleup_table() -> display.Table:
    """Scale-up domains after GB200 and beyond NVIDIA, with their status (Chapter 4): the
    shipping NVIDIA systems of :data:`interlib.specs.SYSTEMS` and the entries of
    :data:`interlib.specs.SCALEUP_DOMAINS`. Per accelerator, per direction."""
    from .specs import SCALEUP_DOMAINS, system

    rows = []
    for key in ("gb200-nvl72", "gb300-nvl72", "hgx-b300"):
        s = system(key)
        nv = s.gpu.nvlink
        rows.append([s.title, "NVIDIA", str(s.gpus_per_node), f"{nv.name}, NVLink Switch",
                     "switched", display.fmt_rate(nv.per_gpu_per_direction),
                     display.fmt_rate(s.nic_bw_per_gpu),
                     display.fmt_ratio(nv.per_gpu_per_direction / s.nic_bw_per_gpu),
                     "NCCL", str(s.status) if s.status else "shipped"])
    for d in SCALEUP_DOMAINS.values():
        up, out, st = d.per_accelerator, d.scale_out_per_accelerator, d.stated_per_accelerator
        rows.append([d.name, d.vendor, f"{d.domain_size.value:,.0f}", d.link, d.topology,
                     display.fmt_rate(up.value) if up else
                     f"{display.fmt_rate(st.value)}, direction not stated" if st else
                     "not in our sources",
                     display.fmt_rate(out.value) if out else "not in our sources",
                     display.fmt_ratio(d.scale_up_over_scale_out)
                     if d.scale_up_over_scale_out else "–",
                     d.library, str(d.status)])
    return display.Table(
        ["domain", "vendor", "accelerators", "scale-up link", "topology",
         "scale-up per accelerator, per direction",
         "scale-out per accelerator, per direction", "scale-up ÷ scale-out", "library",
         "status"], rows,
        "Accelerators count packages (NVIDIA's GTC 2025 name 'Vera Rubin NVL144' counted "
        "dies). Vendors quote scale-up bandwidth with both directions added (NVLink, TPU "
        "ICI) or per direction (Intel's 'unidirectional'); all are per direction here. "
        "'Not in our sources': no primary figure was read, so none is printed; 'direction "
        "not stated': the vendor's figure is quoted as given, not halved. Sources in "
        "interlib.specs.scaleup and interlib.specs.hardware.")


def _expert_figures() -> dict:
    """Chapter 4's figures for NVLS internals, the 256-GPU Hopper domains and NVL72's
    scale-out network (issue 14)."""
    from .specs import system

    nvl = system("gb200-nvl72")
    h256, gh = NVLINK_DOMAINS["dgx-h100-nvlink-256"], NVLINK_DOMAINS["dgx-gh200-256"]
    n = system("dgx-h100").gpus_per_node
    from .collectives import bus_factor

    ring_sent = bus_factor("all_reduce", n)  # bytes each GPU sends per buffer byte, ring
    return {
        "hopper256_gpus": f"{h256.gpus.value:g}",
        "hopper256_headline": display.fmt_rate(h256.headline.value),
        "gh200_gpus": f"{gh.gpus.value:g}",
        "nvl72_nics_per_tray": f"{nvl.nics_per_server:g}",
        "nvl72_gpus_per_tray": f"{nvl.gpus_per_server:g}",
        "nvl72_trays": f"{nvl.servers_per_node:g}",
        "nvl72_nic": nvl.nic.name,
        "nvl72_nic_per_gpu": display.fmt_rate(nvl.nic_bw_per_gpu),
        "nvl72_nvlink_over_nic": display.fmt_ratio(
            NVLINK[nvl.gpu.nvlink_gen].per_gpu_per_direction / nvl.nic_bw_per_gpu),
        "dgx_h100_gpus": str(n),
        "ring_sent_h100": f"{ring_sent:.3g}",
    }


# ------------------------------------------------------------ mesh vs switch counting
def _count(x):
    """A plain int for a scalar count, an integer array otherwise."""
    a = np.asarray(x, dtype=np.int64)
    return int(a) if a.ndim == 0 else a


def _counts(name: str, x, lo: int, hi: int | None = None):
    """Check a GPU count (or an array of them): whole numbers in ``lo..hi``.

    A scalar goes through :func:`interlib._validate.integer`; an array through
    :func:`interlib._validate.whole` (an integer dtype, or floats with integral values such
    as ``np.arange`` gives), in range. Returns the values as an int64 array (0-d for a scalar)."""
    if np.ndim(x) == 0:
        if isinstance(x, np.ndarray):
            x = x.item()
        return np.asarray(v.integer(name, x, lo=lo, hi=hi), dtype=np.int64)
    return np.asarray(v.whole(name, x, lo=lo, hi=hi), dtype=float).astype(np.int64)


def mesh_links(n):
    """Cables for a full mesh of ``n`` GPUs, one link per pair: ``n (n - 1) / 2``.

    Args:
        n: GPUs (>= 1), scalar or integer array.
    """
    n = _counts("n", n, lo=1)
    return _count(n * (n - 1) // 2)


def mesh_ports_per_gpu(n):
    """NVLink ports each GPU needs to reach every other GPU directly: ``n - 1``.

    Args:
        n: GPUs (>= 1), scalar or integer array.
    """
    return _count(_counts("n", n, lo=1) - 1)


def mesh_pair_bandwidth(n, gen: int = 4):
    """Per-direction bandwidth between one pair of GPUs when ``n`` GPUs split their
    NVLink links evenly into a full mesh: ``floor(links / (n - 1)) x per-link rate``
    (0: not enough links to reach every GPU). Compare: through a switch every pair can use
    all of a GPU's links.

    Args:
        n: GPUs (>= 2), scalar or array.
        gen: NVLink generation 1..5.
    """
    n = _counts("n", n, lo=2)
    nv = NVLINK[v.integer("gen", gen, lo=1, hi=5)]
    links = np.floor(nv.links_per_gpu.value / (np.asarray(n, dtype=float) - 1))
    return v.result(links * nv.per_link.value)


def switch_links(n, gen: int = 4):
    """Cables from GPUs to switches when ``n`` GPUs each connect all their links to
    switches: ``n x links_per_gpu`` (grows linearly, not quadratically).

    Args:
        n: GPUs (>= 1), scalar or integer array.
        gen: NVLink generation 1..5.
    """
    n = _counts("n", n, lo=1)
    nv = NVLINK[v.integer("gen", gen, lo=1, hi=5)]
    return _count(n * int(nv.links_per_gpu.value))


def switch_chips_needed(n, links_per_gpu: int | None = None,
                        ports_per_chip: int | None = None):
    """Switch chips for one non-blocking tier: ``ceil(n x links_per_gpu / ports_per_chip)``
    (each GPU link lands on its own switch port).

    Args:
        n: GPUs (>= 1), scalar or integer array.
        links_per_gpu: NVLink links per GPU (>= 1); default: NVLink 4's, from the catalogue.
        ports_per_chip: NVLink ports per switch chip (>= 1); default: NVSwitch 3's, from
            the catalogue.
    """
    n = _counts("n", n, lo=1)
    sw = NVSWITCH[3]
    if links_per_gpu is None:
        links_per_gpu = int(NVLINK[sw.nvlink_gen].links_per_gpu.value)
    if ports_per_chip is None:
        ports_per_chip = int(sw.ports_per_chip.value)
    v.integer("links_per_gpu", links_per_gpu, lo=1)
    v.integer("ports_per_chip", ports_per_chip, lo=1)
    return _count(-(-n * links_per_gpu // ports_per_chip))


def dgx_h100_wiring() -> display.Table:
    """How DGX H100's GPUs connect to its NVSwitch 3 chips (the uneven split of each GPU's
    links over the chips, from the catalogue), and how many of each chip's ports that
    uses."""
    sw = NVSWITCH[3]
    ports = int(sw.ports_per_chip.value)
    chips = int(sw.chips_per_board.value)
    gpus = int(NVLINK_DOMAINS["dgx-h100"].gpus.value)
    nv = NVLINK[sw.nvlink_gen]
    per_link = nv.per_link.value
    split = [int(s.value) for s in DGX_H100_LINKS_PER_SWITCH]
    if len(split) != chips:
        raise ValueError(f"DGX_H100_LINKS_PER_SWITCH has {len(split)} entries, but "
                         f"NVSWITCH[3].chips_per_board = {chips}")
    rows = [[f"NVSwitch {i}", str(links), str(gpus * links), str(ports),
             display.fmt_rate(gpus * links * per_link)] for i, links in enumerate(split)]
    total = sum(split)
    injection = gpus * total * per_link
    rows.append([f"all {chips}", str(total), str(gpus * total), str(chips * ports),
                 display.fmt_rate(injection)])
    return display.Table(
        ["switch chip", "links from each GPU", "GPU ports used", "ports on the chip",
         "GPU traffic it carries, per direction"], rows,
        f"Sources: NVIDIA DGX BasePOD RA ({chips} NVSwitch chips), NVSwitch blog ({ports} "
        f"{nv.name} ports per chip), Hot Chips 34 via the scaling book "
        f"({' + '.join(map(str, split))} links per GPU). The last row's "
        f"{display.fmt_rate(injection)} per direction is what all {gpus} GPUs can inject "
        f"at once; the published bisection, "
        f"{display.fmt_rate(bisection_bandwidth(gpus, nv.per_gpu_per_direction, True))}, "
        "is a different quantity (half the GPUs sending across the middle, both directions "
        "added) that happens to have the same value.")


def links_per_gpu_dgx_h100() -> int:
    """Sum of the DGX H100 wiring: NVLink links per GPU (should equal NVLink 4's 18)."""
    return int(sum(s.value for s in DGX_H100_LINKS_PER_SWITCH))


# ---------------------------------------------------------- bisection and aggregate
def cut_bandwidth(n: int, k, per_gpu):
    """Bandwidth across a cut of a non-blocking switched domain of ``n`` GPUs into ``k``
    and ``n - k`` GPUs, bytes/s in one direction: ``min(k, n - k) x per_gpu``.

    Every GPU on the smaller side can send at its full rate to a partner on the other
    side; nothing more can cross, because no GPU sends faster than its own links.

    Args:
        n: GPUs in the domain (>= 2).
        k: GPUs on one side, 1..n-1 (scalar or array).
        per_gpu: One GPU's NVLink bandwidth, bytes/s per direction (> 0).
    """
    n = v.integer("n", n, lo=2)
    k = _counts("k", k, lo=1, hi=n - 1).astype(float)
    v.positive("per_gpu", per_gpu)
    return v.result(np.minimum(k, n - k) * per_gpu)


def bisection_bandwidth(n: int, per_gpu, both_directions: bool = False):
    """The cut through the middle of a non-blocking switched domain, ``floor(n/2) x
    per_gpu`` per direction (x2 with ``both_directions``). DGX H100: 4 x 450 GB/s =
    1.8 TB/s each way, 3.6 TB/s both.

    Args:
        n: GPUs in the domain (>= 2).
        per_gpu: One GPU's NVLink bandwidth, bytes/s per direction (> 0).
        both_directions: Add the two directions across the cut.
    """
    both = v.flag("both_directions", both_directions)
    b = cut_bandwidth(n, v.integer("n", n, lo=2) // 2, per_gpu)
    return 2 * b if both else b


def aggregate_bandwidth(n, per_gpu_both_directions):
    """Every GPU's bidirectional bandwidth added: ``n x per_gpu_both_directions``
    (8 x 900 GB/s = 7.2 TB/s for DGX H100; 72 x 1.8 TB/s = 129.6 TB/s for NVL72). A sum of
    injection rates, not a cut.

    Args:
        n: GPUs (>= 1), scalar or integer array.
        per_gpu_both_directions: One GPU's bandwidth, both directions added, bytes/s (> 0).
    """
    n = _counts("n", n, lo=1)
    v.positive("per_gpu_both_directions", per_gpu_both_directions)
    return v.result(n.astype(float) * per_gpu_both_directions)


def domain_bisection(name: str, both_directions: bool = False) -> float | None:
    """Bisection of a catalogued NVLink domain, bytes/s, or None where it cannot be
    computed: ``floor(n/2) x per-GPU bandwidth`` per direction (x2 with
    ``both_directions``) for a one-tier (non-blocking) domain or one the catalogue marks
    ``"multi-tier, assumed non-blocking"`` (then an upper bound, not a published figure);
    the vendor's published bisection for ``"multi-tier, bisection published"`` (halved for
    one direction: the tier above the nodes may be tapered, so it is never recomputed from
    the GPU count); None for ``"multi-tier, not published"``
    (:data:`interlib.specs.inside_box.FABRICS`).

    Args:
        name: A key of :data:`interlib.specs.inside_box.NVLINK_DOMAINS`.
        both_directions: Add the two directions across the cut.
    """
    d = NVLINK_DOMAINS[v.choice("name", name, NVLINK_DOMAINS)]
    v.flag("both_directions", both_directions)
    pub = d.published_bisection
    if pub is not None:
        return pub.value if both_directions else pub.value / 2
    if d.fabric == "multi-tier, not published":
        return None
    return bisection_bandwidth(int(d.gpus.value), NVLINK[d.nvlink_gen].per_gpu_per_direction,
                               both_directions)


def domain_table() -> display.Table:
    """NVLink domains with their aggregate and bisection bandwidth, and what the headline
    for each one is (:data:`interlib.specs.inside_box.NVLINK_DOMAINS`). A bisection is
    printed only where the fabric supports it: one switch tier (non-blocking by
    construction), or marked "if non-blocking" where the book assumes it."""
    rows = []
    for key, d in NVLINK_DOMAINS.items():
        n = int(d.gpus.value)
        nv = NVLINK[d.nvlink_gen]
        bis = [domain_bisection(key, both) for both in (False, True)]
        if bis[0] is None:
            cells = ["not published", "not published"]
        else:
            mark = ("" if d.bisection_known else
                    " (published)" if d.published_bisection is not None else
                    " (if non-blocking)")
            cells = [display.fmt_rate(b) + mark for b in bis]
        rows.append([
            d.name, str(n), nv.name, display.fmt_rate(nv.per_gpu_per_direction),
            display.fmt_rate(aggregate_bandwidth(n, nv.per_gpu_bidirectional)), *cells,
            f"{display.fmt_rate(d.headline.value)} [{d.headline.kind}]: {d.headline_says}",
            d.status,
        ])
    return display.Table(
        ["domain", "GPUs", "NVLink", "per GPU, per direction", "aggregate, both directions",
         "bisection, per direction", "bisection, both directions", "headline [kind]",
         "status"],
        rows, "Aggregate = GPUs x per-GPU bandwidth (both directions); bisection = half the "
              "GPUs x per-GPU bandwidth, which holds for one tier of switches (non-blocking "
              "by construction). For domains whose switches span several tiers the "
              "bisection depends on how the tiers are wired: where the vendor publishes it, "
              "it is quoted (marked published; the 256-GPU Hopper system's upper tier was "
              "tapered, so half the GPUs x per-GPU bandwidth would overstate it); where our "
              "sources do not give it, it is not computed, or (marked) computed assuming a "
              "non-blocking fabric, an upper bound. Status: whether the domain was sold (the 256-GPU Hopper "
              "NVLink Switch Systems were announced but not shipped as products; the "
              "first multi-node NVLink product is GB200 NVL72). Sources in "
              "interlib.specs.inside_box.")


# ----------------------------------------------------------- in-switch reduction
def nvls_busbw_factor(n):
    """Ratio of nccl-tests busbw to each GPU's wire bandwidth under NVLink SHARP:
    ``2 (n - 1) / (n + 1)`` (nccl-tests PR #239: algbw = B n / (n + 1); busbw = algbw x
    2 (n - 1) / n). Above 1 for n >= 4: busbw can exceed the link rate because the switch,
    not the GPUs, does the adding.

    Args:
        n: GPUs (>= 1), scalar or integer array.
    """
    n = _counts("n", n, lo=1).astype(float)
    return v.result(2 * (n - 1) / (n + 1))


def nvls_efficiency(arch: str) -> float:
    """The share of NVLink bandwidth NCCL's model credits NVLS with (tuning.cc):
    ``"Hopper"`` or ``"Blackwell"``."""
    return C.NVLS_EFFICIENCY[v.choice("arch", arch, C.NVLS_EFFICIENCY)].value


def ring_vs_nvls(size_bytes, system: str = "dgx-h100", gpus: int | None = None) -> dict:
    """All-reduce predictions (:func:`interlib.collectives.predict`) with the ring and
    with NVLS, and what NCCL would choose (``"auto"``), on ``gpus`` GPUs of ``system``.

    Args:
        size_bytes: All-reduce buffer per GPU, bytes (scalar or array).
        system: Catalogue system id with NVSwitch.
        gpus: GPUs taking part, 1 .. the system's GPUs per NVLink domain (default: all).

    Returns:
        ``{"ring": Prediction, "nvls": Prediction, "auto": Prediction}``.
    """
    from .specs import system as _system

    if gpus is not None:
        v.integer("gpus", gpus, lo=1, hi=_system(system).gpus_per_node)
    return {a: collectives.predict("all_reduce", size_bytes, system, gpus, 1, a)
            for a in ("ring", "nvls", "auto")}


def nvls_speedup(n, arch: str = "Hopper") -> dict:
    """How much faster NVLS should be than the ring for a large all-reduce on ``n`` GPUs
    (ring time / NVLS time), at three levels of idealisation:

    * ``"bytes"``: ratio of bytes each GPU sends, ``2 (n - 1) / n`` (ring) over about 1
      (NVLS); the scaling book's bound;
    * ``"ideal"``: with the NCCL maintainers' accounting, NVLS algbw = ``B n / (n + 1)``
      against the ring's ``B n / (2 (n - 1))``, so the ratio is :func:`nvls_busbw_factor`,
      ``2 (n - 1) / (n + 1)``;
    * ``"expected"``: ``"ideal"`` x NCCL's NVLS efficiency for ``arch``
      (:func:`nvls_efficiency`), the ring at its full effective rate: what this book's
      model approaches for large buffers.

    Args:
        n: GPUs (>= 2), scalar or integer array.
        arch: ``"Hopper"`` or ``"Blackwell"``.

    >>> {k: round(x, 3) for k, x in nvls_speedup(8).items()}
    {'bytes': 1.75, 'ideal': 1.556, 'expected': 1.322}
    """
    n = _counts("n", n, lo=2)
    ideal = nvls_busbw_factor(n)
    return {"bytes": collectives.bus_factor("all_reduce", n), "ideal": ideal,
            "expected": v.result(np.asarray(ideal) * nvls_efficiency(arch))}


def nvls_factor_table(ns=(2, 4, 8, 72)) -> display.Table:
    """Ideal busbw / wire-rate ratio under NVLS, 2(n-1)/(n+1), next to the ring's 1."""
    ns = [v.integer("ns", n, lo=1) for n in v.items("ns", ns)]
    rows = [[str(n), f"{nvls_busbw_factor(n):.3g}", "1"] for n in ns]
    return display.Table(["GPUs", "busbw / wire rate, NVLS (ideal)", "busbw / wire rate, ring"],
                         rows, "nccl-tests PR #239: NVLS algbw = B n / (n + 1).")


def nvls_validation_table(size_bytes: float = 8 * GiB) -> display.Table:
    """Published ring and NVLS all-reduce busbw (:data:`interlib.specs.inside_box.
    NVLS_MEASURED`) next to this book's model at ``size_bytes`` (default 8 GiB, the
    large-message plateau).

    Args:
        size_bytes: All-reduce buffer per GPU for the model, bytes (>= 1).
    """
    from .specs.inside_box import NVLS_MEASURED

    v.number("size_bytes", size_bytes, lo=1)
    rows = []
    for m in NVLS_MEASURED.values():
        p = ring_vs_nvls(size_bytes, m.system, m.gpus)
        rows.append([m.system, str(m.gpus), display.fmt_rate(m.ring.value),
                     display.fmt_rate(p["ring"].busbw), display.fmt_rate(m.nvls.value),
                     display.fmt_rate(p["nvls"].busbw),
                     display.fmt_ratio(m.nvls.value / m.ring.value, 3),
                     display.fmt_ratio(p["nvls"].busbw / p["ring"].busbw, 3)])
    return display.Table(
        ["system", "GPUs", "ring, measured", "ring, model", "NVLS, measured", "NVLS, model",
         "NVLS / ring, measured", "NVLS / ring, model"], rows,
        "busbw (nccl-tests definition) for large all-reduces. Sources: nccl-tests#212 "
        "(H100), NVIDIA GTC 2025 S72583 via NVIDIA/nccl#1374 (NVL72). "
        + " ".join(f"The {m.system} measurements are assumed to use all {m.gpus} GPUs of "
                   "the domain (the source does not state the GPU count)."
                   for m in NVLS_MEASURED.values() if not m.gpus_stated))
