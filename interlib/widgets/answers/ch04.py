"""Answers to Chapter 4's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from itertools import count, takewhile

import numpy as np

from ... import display as D, nvswitch
from ...specs import NVLINK
from ...specs.calibration import HOP_LATENCY as _NVLINK_LAT
from ...specs.inside_box import NVLINK_DOMAINS
from ...units import GiB, KiB, MiB
from . import default, ratio


def mesh_limit() -> str:
    few, gen = default("mesh_vs_switch", "n"), default("mesh_vs_switch", "gen")
    links = int(NVLINK[gen].links_per_gpu.value)
    n = next(k for k in range(2, 1000) if nvswitch.mesh_ports_per_gpu(k) > links)
    big = 72
    return (f"An H100 has {links} NVLink 4 links. A full mesh of n GPUs needs n − 1 ports on "
            f"each GPU, so it stops working at n = {n}, where each GPU would need "
            f"{nvswitch.mesh_ports_per_gpu(n)} ports. Long before that each pair gets only a "
            f"sliver: at {few} GPUs a pair gets "
            f"{D.fmt_rate(float(nvswitch.mesh_pair_bandwidth(few, gen)))} per direction if the "
            f"links are split evenly, against "
            f"{D.fmt_rate(NVLINK[gen].per_gpu_per_direction)} to any GPU through a switch. A "
            f"{big}-GPU mesh would need {nvswitch.mesh_ports_per_gpu(big)} ports per GPU and "
            f"{nvswitch.mesh_links(big):,} cables: impossible, which is why NVL72 uses "
            "NVSwitch trays.")


def mesh_exchange() -> str:
    n = 72
    chips = int(nvswitch.switch_chips_needed(n))
    few, gen = default("mesh_vs_switch", "n"), default("mesh_vs_switch", "gen")
    return ("A switch replaces a wire per pair with a port per GPU link: "
            f"{nvswitch.switch_links(few, gen)} GPU-to-switch links for {few} H100s (every link of "
            "every GPU), growing linearly with n instead of n(n − 1)/2. The price is the "
            "switch itself: chips with many ports, their power and cooling, a hop of "
            "latency, and a fixed maximum size (the switch's port count caps the domain). "
            f"For {n} H100-class GPUs a non-blocking tier needs {chips} NVSwitch 3 chips by the "
            "ceil(GPUs × links per GPU ÷ ports per chip) count. In return every GPU reaches "
            "every other at its full link rate, and the switch can even do arithmetic "
            "(NVLS).")


def nvls_above_line() -> str:
    n = 8
    p = nvswitch.ring_vs_nvls(GiB, "dgx-h100", n)
    f = float(nvswitch.nvls_busbw_factor(n))
    return ("busbw is algbw × 2(n − 1)/n: it counts the bytes a ring would have to move. "
            "In a ring each GPU really does send that much, so busbw cannot exceed what its "
            "link carries. With NVLS each GPU sends its buffer once to the switch, which adds "
            "the contributions and sends the sum back (multicast): about one buffer each way "
            "instead of 2(n − 1)/n. The switch does the adding, so the ideal busbw is "
            f"2(n − 1)/(n + 1) = {f:.3g} × the link rate at n = {n}. The model gives "
            f"{D.fmt_rate(float(p['nvls'].busbw))} for NVLS against "
            f"{D.fmt_rate(float(p['ring'].busbw))} for the ring, above the "
            f"{D.fmt_rate(NVLINK[4].per_gpu_per_direction)} line rate.")


def nvls_small_n() -> str:
    # the GPU counts where the ideal NVLS factor 2(n − 1)/(n + 1) is at most one
    small = list(takewhile(lambda n: float(nvswitch.nvls_busbw_factor(n)) <= 1, count(2)))
    parts = []
    for n in small:
        p = nvswitch.ring_vs_nvls(GiB, "dgx-h100", n)
        parts.append(f"{n} GPUs: ideal factor {float(nvswitch.nvls_busbw_factor(n)):.3g}, ring "
                     f"{D.fmt_time(float(p['ring'].time_s))}, NVLS "
                     f"{D.fmt_time(float(p['nvls'].time_s))}, NCCL picks {p['auto'].algorithm}")
    return ("The NVLS factor 2(n − 1)/(n + 1) is below or equal to one for "
            f"n ≤ {small[-1]}: with so few GPUs the ring already sends little (2(n − 1)/n of "
            "the buffer), and NVLS adds the switch round trip and runs at a lower achieved "
            "efficiency. "
            + "; ".join(parts) + ". NCCL's tuning model compares the predicted times and "
            "keeps the ring.")


def nvls_crossover() -> str:
    sizes = np.geomspace(KiB, 16 * MiB, 400)
    system, gpus = default("ring_vs_nvls", "system"), default("ring_vs_nvls", "gpus")
    p = nvswitch.ring_vs_nvls(sizes, system, gpus)
    ring, nvls = np.asarray(p["ring"].time_s), np.asarray(p["nvls"].time_s)
    cross = float(sizes[np.argmax(nvls < ring)])
    small = 4 * KiB
    q = nvswitch.ring_vs_nvls(small, system, gpus)
    return (f"On a DGX H100 with {gpus} GPUs the ring wins below about "
            f"{D.fmt_bytes(cross, binary=True)}. At {D.fmt_bytes(small, binary=True)} the ring "
            f"takes {D.fmt_time(float(q['ring'].time_s))} and NVLS "
            f"{D.fmt_time(float(q['nvls'].time_s))}: neither moves many bytes, so both times "
            "are latency, and NVLS has the larger fixed cost (the trip through the switch's "
            "reduction engine and back: NCCL gives NVLS no base latency but charges it "
            f"{D.fmt_time(_NVLINK_LAT[('nvlink', 'nvls', 'Simple')].value)} of NVLink latency, "
            "against "
            f"{D.fmt_time(_NVLINK_LAT[('nvlink', 'ring', 'Simple')].value)} per ring step). "
            "Above the crossover NVLS's smaller byte count wins.")


def bisection_factors() -> str:
    d = NVLINK_DOMAINS["gb200-nvl72"]
    n = int(d.gpus.value)
    nv = NVLINK[d.nvlink_gen]
    bis = nvswitch.bisection_bandwidth(n, nv.per_gpu_per_direction)
    agg = nvswitch.aggregate_bandwidth(n, nv.per_gpu_bidirectional)
    return (f"For {d.name}: bisection {D.fmt_rate(float(bis))} per direction, aggregate "
            f"{D.fmt_rate(float(agg))} ({ratio(float(agg), float(bis))}). One factor of two is "
            "the two halves: the bisection counts only the GPUs on one side sending across "
            "(n/2 of them), the aggregate adds every GPU. The other is the two directions: "
            "the bisection is quoted per direction, the aggregate adds what every GPU sends "
            "and receives. Marketing figures use the aggregate; a job that moves data across "
            "the cut sees the bisection.")


def bisection_one() -> str:
    d = NVLINK_DOMAINS["gb200-nvl72"]
    n = int(d.gpus.value)
    nv = NVLINK[d.nvlink_gen]
    one = nvswitch.cut_bandwidth(n, 1, nv.per_gpu_per_direction)
    return ("The GPU. A cut of one GPU against the rest can carry only what that GPU's own "
            f"NVLinks carry, {D.fmt_rate(float(one))} per direction, however fast the switches "
            f"are; the other {n - 1} GPUs could take far more. The switch fabric limits only "
            "balanced cuts, and a non-blocking NVSwitch domain never does: the cut bandwidth "
            "is min(k, n − k) × the per-GPU rate. Slide k from one to the middle and watch "
            "the bar grow linearly, then fall back symmetrically.")
