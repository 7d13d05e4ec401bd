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
from .specs.inside_box import DGX_H100_LINKS_PER_SWITCH, NVLINK_DOMAINS
from .units import GiB


# ------------------------------------------------------------ mesh vs switch counting
def _count(x):
    """A plain int for a scalar count, an integer array otherwise."""
    a = np.asarray(x, dtype=np.int64)
    return int(a) if a.ndim == 0 else a


def mesh_links(n):
    """Cables for a full mesh of ``n`` GPUs, one link per pair: ``n (n - 1) / 2``.

    Args:
        n: GPUs (>= 1), scalar or integer array.
    """
    v.number("n", n, lo=1)
    n = np.asarray(n, dtype=np.int64)
    return _count(n * (n - 1) // 2)


def mesh_ports_per_gpu(n):
    """NVLink ports each GPU needs to reach every other GPU directly: ``n - 1``."""
    v.number("n", n, lo=1)
    return _count(np.asarray(n, dtype=np.int64) - 1)


def mesh_pair_bandwidth(n, gen: int = 4):
    """Per-direction bandwidth between one pair of GPUs when ``n`` GPUs split their
    NVLink links evenly into a full mesh: ``floor(links / (n - 1)) x per-link rate``
    (0: not enough links to reach every GPU). Compare: through a switch every pair can use
    all of a GPU's links.

    Args:
        n: GPUs (>= 2), scalar or array.
        gen: NVLink generation 1..5.
    """
    v.number("n", n, lo=2)
    nv = NVLINK[v.integer("gen", gen, lo=1, hi=5)]
    links = np.floor(nv.links_per_gpu.value / (np.asarray(n, dtype=float) - 1))
    return v.result(links * nv.per_link.value)


def switch_links(n, gen: int = 4):
    """Cables from GPUs to switches when ``n`` GPUs each connect all their links to
    switches: ``n x links_per_gpu`` (grows linearly, not quadratically)."""
    v.number("n", n, lo=1)
    nv = NVLINK[v.integer("gen", gen, lo=1, hi=5)]
    return _count(np.asarray(n, dtype=np.int64) * int(nv.links_per_gpu.value))


def switch_chips_needed(n, links_per_gpu: int = 18, ports_per_chip: int = 64):
    """Switch chips for one non-blocking tier: ``ceil(n x links_per_gpu / ports_per_chip)``
    (each GPU link lands on its own switch port).

    Args:
        n: GPUs (>= 1), scalar or array.
        links_per_gpu: NVLink links per GPU (>= 1).
        ports_per_chip: NVLink ports per switch chip (>= 1).
    """
    v.number("n", n, lo=1)
    v.integer("links_per_gpu", links_per_gpu, lo=1)
    v.integer("ports_per_chip", ports_per_chip, lo=1)
    n = np.asarray(n, dtype=np.int64)
    return _count(-(-n * links_per_gpu // ports_per_chip))


def dgx_h100_wiring() -> display.Table:
    """How DGX H100's eight GPUs connect to its four NVSwitch 3 chips (5 + 4 + 4 + 5
    links per GPU), and how many of each chip's ports that uses."""
    sw = NVSWITCH[3]
    ports = int(sw.ports_per_chip.value)
    gpus = int(NVLINK_DOMAINS["dgx-h100"].gpus.value)
    per_link = NVLINK[sw.nvlink_gen].per_link.value
    rows = []
    for i, spec in enumerate(DGX_H100_LINKS_PER_SWITCH):
        links = int(spec.value)
        rows.append([f"NVSwitch {i}", str(links), str(gpus * links), str(ports),
                     display.fmt_rate(gpus * links * per_link)])
    total = sum(int(s.value) for s in DGX_H100_LINKS_PER_SWITCH)
    rows.append(["all four", str(total), str(gpus * total), str(len(rows) * ports),
                 display.fmt_rate(gpus * total * per_link)])
    return display.Table(
        ["switch chip", "links from each GPU", "GPU ports used", "ports on the chip",
         "GPU traffic it carries, per direction"], rows,
        "Sources: NVIDIA DGX BasePOD RA (four NVSwitch chips), NVSwitch blog (64 NVLink 4 "
        "ports per chip), Hot Chips 34 via the scaling book (5 + 4 + 4 + 5).")


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
    v.number("k", k, lo=1, hi=n - 1)
    v.positive("per_gpu", per_gpu)
    k = np.asarray(k, dtype=float)
    return v.result(np.minimum(k, n - k) * per_gpu)


def bisection_bandwidth(n: int, per_gpu, both_directions: bool = False):
    """The cut through the middle, ``floor(n/2) x per_gpu`` per direction (x2 with
    ``both_directions``). DGX H100: 4 x 450 GB/s = 1.8 TB/s each way, 3.6 TB/s both."""
    b = cut_bandwidth(n, v.integer("n", n, lo=2) // 2, per_gpu)
    return 2 * b if both_directions else b


def aggregate_bandwidth(n, per_gpu_both_directions):
    """Every GPU's bidirectional bandwidth added: ``n x per_gpu_both_directions``
    (8 x 900 GB/s = 7.2 TB/s for DGX H100; 72 x 1.8 TB/s = 129.6 TB/s for NVL72). A sum of
    injection rates, not a cut."""
    v.number("n", n, lo=1)
    v.positive("per_gpu_both_directions", per_gpu_both_directions)
    return v.result(np.asarray(n, dtype=float) * per_gpu_both_directions)


def domain_table() -> display.Table:
    """NVLink domains with their aggregate and bisection bandwidth, and what the vendor's
    headline for each one adds up (:data:`interlib.specs.inside_box.NVLINK_DOMAINS`)."""
    rows = []
    for d in NVLINK_DOMAINS.values():
        n = int(d.gpus.value)
        nv = NVLINK[d.nvlink_gen]
        rows.append([
            d.name, str(n), nv.name, display.fmt_rate(nv.per_gpu_per_direction),
            display.fmt_rate(aggregate_bandwidth(n, nv.per_gpu_bidirectional)),
            display.fmt_rate(bisection_bandwidth(n, nv.per_gpu_per_direction)),
            display.fmt_rate(bisection_bandwidth(n, nv.per_gpu_per_direction, True)),
            f"{display.fmt_rate(d.headline.value)} ({d.headline.direction}) = {d.headline_says}",
        ])
    return display.Table(
        ["domain", "GPUs", "NVLink", "per GPU, per direction", "aggregate, both directions",
         "bisection, per direction", "bisection, both directions", "vendor headline"],
        rows, "Aggregate = GPUs x per-GPU bandwidth (both directions); bisection = half the "
              "GPUs x per-GPU bandwidth. Sources in interlib.specs.inside_box.")


# ----------------------------------------------------------- in-switch reduction
def nvls_busbw_factor(n):
    """Ratio of nccl-tests busbw to each GPU's wire bandwidth under NVLink SHARP:
    ``2 (n - 1) / (n + 1)`` (nccl-tests PR #239: algbw = B n / (n + 1); busbw = algbw x
    2 (n - 1) / n). Above 1 for n >= 4: busbw can exceed the link rate because the switch,
    not the GPUs, does the adding.

    Args:
        n: GPUs (>= 1), scalar or array.
    """
    v.number("n", n, lo=1)
    n = np.asarray(n, dtype=float)
    return v.result(2 * (n - 1) / (n + 1))


def nvls_efficiency(arch: str) -> float:
    """The share of NVLink bandwidth NCCL's model credits NVLS with (tuning.cc):
    ``"Hopper"`` or ``"Blackwell"``."""
    return C.NVLS_EFFICIENCY[v.choice("arch", arch, C.NVLS_EFFICIENCY)].value


def ring_vs_nvls(size_bytes, system: str = "dgx-h100", gpus: int | None = None) -> dict:
    """All-reduce predictions (:func:`interlib.collectives.predict`) with the ring and
    with NVLS, and what NCCL would choose (``"auto"``), on ``gpus`` GPUs of ``system``.

    Returns:
        ``{"ring": Prediction, "nvls": Prediction, "auto": Prediction}``.
    """
    return {a: collectives.predict("all_reduce", size_bytes, system, gpus, 1, a)
            for a in ("ring", "nvls", "auto")}


def nvls_factor_table(ns=(2, 4, 8, 72)) -> display.Table:
    """Ideal busbw / wire-rate ratio under NVLS, 2(n-1)/(n+1), next to the ring's 1."""
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
        "(H100), NVIDIA GTC 2025 S72583 via NVIDIA/nccl#1374 (NVL72).")
