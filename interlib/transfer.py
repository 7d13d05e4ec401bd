"""Time to move bytes over one link: the alpha-beta model.

.. math:: t(S) = \\alpha + \\frac{S}{\\eta \\, B}

with latency :math:`\\alpha` (s), size :math:`S` (bytes), peak bandwidth :math:`B` (bytes/s,
one direction) and efficiency :math:`\\eta` (achieved / peak). The book introduces it in
Chapter 1 and uses it for PCIe in Chapter 2. All functions accept numpy arrays.

>>> from interlib.units import GB, GB_per_s, us
>>> round(transfer_time(1 * GB, 50 * GB_per_s) , 6)
0.02
>>> round(effective_bandwidth(1 * GB, 50 * GB_per_s, latency=10 * us) / GB_per_s, 3)
49.975
"""

from __future__ import annotations

import numpy as np

from . import _validate as v


def transfer_time(size_bytes, bandwidth, latency=0.0, efficiency=1.0):
    """Seconds to move ``size_bytes`` one way over a link.

    Args:
        size_bytes: Bytes to move (>= 0), scalar or array.
        bandwidth: Peak link bandwidth in one direction, bytes/s (> 0).
        latency: Fixed start-up time, s (>= 0).
        efficiency: Achieved share of peak bandwidth, in (0, 1].

    Returns:
        Time in seconds: ``latency + size_bytes / (bandwidth * efficiency)``.
    """
    v.non_negative("size_bytes", size_bytes)
    v.positive("bandwidth", bandwidth)
    v.non_negative("latency", latency)
    v.fraction("efficiency", efficiency)
    t = latency + np.asarray(size_bytes, dtype=float) / (bandwidth * efficiency)
    return float(t) if t.ndim == 0 else t


def effective_bandwidth(size_bytes, bandwidth, latency=0.0, efficiency=1.0):
    """Achieved bandwidth ``size / time`` in bytes/s: approaches ``efficiency * bandwidth``
    for large messages and falls towards ``size / latency`` for small ones.

    Args:
        size_bytes: Bytes moved (> 0), scalar or array.
        bandwidth: Peak link bandwidth in one direction, bytes/s (> 0).
        latency: Fixed start-up time, s (>= 0).
        efficiency: Achieved share of peak bandwidth, in (0, 1].
    """
    v.positive("size_bytes", size_bytes)
    t = transfer_time(size_bytes, bandwidth, latency, efficiency)
    return v.result(np.asarray(size_bytes, dtype=float) / t)


def half_bandwidth_size(bandwidth, latency, efficiency=1.0):
    """Message size (bytes) at which a link reaches half its achievable bandwidth:
    :math:`S_{1/2} = \\alpha \\, \\eta B` (Hockney's :math:`n_{1/2}`).

    Args:
        bandwidth: Peak link bandwidth, bytes/s (> 0).
        latency: Start-up time, s (>= 0).
        efficiency: Achieved share of peak, in (0, 1].
    """
    v.positive("bandwidth", bandwidth)
    v.non_negative("latency", latency)
    v.fraction("efficiency", efficiency)
    return latency * bandwidth * efficiency


def shared_uplink_bandwidth(devices, uplink_bandwidth, device_bandwidth):
    """Per-device bandwidth when ``devices`` transfer at once through one shared uplink
    (e.g. GPUs under one PCIe switch): ``min(device_bandwidth, uplink_bandwidth / devices)``.

    Args:
        devices: Number of devices transferring at once (>= 1), scalar or array.
        uplink_bandwidth: Bandwidth of the shared uplink, bytes/s per direction (> 0).
        device_bandwidth: Each device's own link bandwidth, bytes/s per direction (> 0).
    """
    v.whole("devices", devices, lo=1)
    v.positive("uplink_bandwidth", uplink_bandwidth)
    v.positive("device_bandwidth", device_bandwidth)
    return np.minimum(device_bandwidth, uplink_bandwidth / np.asarray(devices, dtype=float))


# --------------------------------------------------------- Chapter 1's prose figures
def prose_figures() -> dict:
    """Figures Chapter 1's prose quotes, as display strings (glued into the text, so none is
    typed by hand): NCCL's tuning.cc step latencies against hardware latencies, the data
    share of NCCL's LL and LL128 lines, its channel limit, ring vs tree step counts at
    1,024 GPUs, and FSDP's traffic against plain data parallelism.

    >>> f = prose_figures()
    >>> f["ll_data_share"], f["ring_steps_1024"], f["tree_steps_1024"], f["fsdp_over_dp"]
    ('50 %', '2046', '20', '1.5×')
    """
    from . import collectives, display, hierarchy, specs
    from .specs import calibration as C

    def step(kind, proto="Simple"):
        return display.fmt_time(C.HOP_LATENCY[(kind, "ring", proto)].value)

    ll, ll128 = (specs.NCCL_PROTOCOL_LINES[p] for p in ("LL", "LL128"))
    n = 1024
    steps = {a: collectives.alpha_beta("all_reduce", a, 0.0, n, 1.0, 1.0)
             for a in ("ring", "tree")}
    size = 1.0  # any size: the ratio of bytes does not depend on it
    fsdp = (2 * collectives.wire_bytes_per_rank("all_gather", size, n)
            + collectives.wire_bytes_per_rank("reduce_scatter", size, n))
    dp = collectives.wire_bytes_per_rank("all_reduce", size, n)
    net_lo, net_hi = hierarchy.hardware_latency("InfiniBand NDR (1 NIC/GPU)")
    return {
        "pcie_step": step("pcie"), "nvlink_step": step("nvlink"), "net_step": step("net"),
        "nvlink_step_ll": step("nvlink", "LL"),
        "pcie_hw": display.fmt_time(specs.PCIE_P2P_LATENCY.value),
        "net_hw": f"{display.fmt_time(net_lo)} to {display.fmt_time(net_hi)}",
        "ll_data_share": display.fmt_pct(ll[1].value / ll[0].value),
        "ll128_data_share": display.fmt_pct(ll128[1].value / ll128[0].value),
        "ll128_line": f"{ll128[0].value:g} bytes",
        "max_channels": f"{specs.NCCL_MAX_CHANNELS.value:g}",
        "ring_steps_1024": f"{steps['ring']:g}", "tree_steps_1024": f"{steps['tree']:g}",
        "fsdp_over_dp": display.fmt_ratio(fsdp / dp),
    }
