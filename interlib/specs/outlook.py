"""The fabrics of 2026 and what comes next (Chapters 2, 5, 6 and 8; issue 39).

Standards and announced technologies the book describes in one paragraph each, every figure
with its source and its status: multi-plane scale-out networks, 1.6 Tb/s Ethernet on
200 Gb/s lanes, scale-up Ethernet (ESUN), PCIe 7.0 and CXL 4.0, and scale-across networks
between data centres. None of them enters the collective model; the chapters quote them.

>>> PCIE7["x16 headline"].in_unit(), PCIE7["x16 headline"].direction
(512.0, 'bidirectional')
>>> pcie7_raw_x16_per_direction() / 1e9
256.0
>>> DEEPSEEK_MPFT["gpus"].value == DEEPSEEK_MPFT["planes"].value * 2048
True
"""

from __future__ import annotations

from ..units import GB_per_s, Gbit_per_s, GT_per_s, Tbit_per_s, bit
from . import sources as S
from ._base import Spec, Status

# ------------------------------------------------------------------ PCIe 7.0 and CXL 4.0
PCIE7 = {
    "transfer rate": Spec(128 * GT_per_s, "GT_per_s", "vendor peak", S.PCIE7_RELEASE,
                          "per direction", "'128.0 GT/s raw bit rate' per lane, PAM4"),
    "x16 headline": Spec(512 * GB_per_s, "GB_per_s", "vendor peak", S.PCIE7_RELEASE,
                         "bidirectional", "'up to 512 GB/s bi-directionally via x16 "
                                          "configuration'"),
}
"""PCIe 7.0 as PCI-SIG states it: a per-lane signalling rate and a both-directions x16
headline (Chapter 2). Its flit encoding keeps Gen 6's 256-byte flit."""
PCIE7_STATUS = Status("announced", "2025-06-11", S.PCIE7_RELEASE,
                      "the specification was released to PCI-SIG members; no PCIe 7.0 device "
                      "in the sources read")


def pcie7_raw_x16_per_direction() -> float:
    """PCIe 7.0 x16 raw signalling, bytes/s per direction: 128 GT/s x 16 lanes / 8 (half
    of PCI-SIG's bidirectional 512 GB/s)."""
    return PCIE7["transfer rate"].value * 16 * bit


CXL4 = Spec(128 * GT_per_s, "GT_per_s", "vendor peak", S.CXL_CONSORTIUM, "per direction",
            "CXL 4.0 per lane: 'Doubles the bandwidth to 128GTs', on the PCIe 7.0 PHY, 256-B "
            "flits")
"""CXL 4.0's per-lane rate: the same wires as PCIe 7.0, with cache-coherent protocols."""
CXL4_STATUS = Status("announced", "2025-11-18", S.CXL_CONSORTIUM,
                     "the CXL 4.0 specification was released to the public")

# ------------------------------------------------------- Ethernet: 200 G lanes, 1.6 T ports
ETHERNET_1600 = Spec(1.6 * Tbit_per_s, "Tbit_per_s", "vendor peak", S.IEEE_8023DJ_PROJECT,
                     "per direction", "1.6 Tb/s MAC rate, 8 lanes of 200 Gb/s (IEEE "
                                      "P802.3dj)")
"""1.6 Tb/s Ethernet, per direction (Chapter 6)."""
ETHERNET_LANE_200G = Spec(200 * Gbit_per_s, "Gbit_per_s", "vendor peak", S.IEEE_8023DJ,
                          "per direction", "data rate of one 200 Gb/s lane (106.25 GBd PAM4, "
                                           "212.5 Gb/s signalling)")
"""The 200 Gb/s lane of IEEE 802.3dj, shared by XDR InfiniBand, UALink and 1.6 T Ethernet."""
ETHERNET_1600_STATUS = Status("announced", None, S.IEEE_8023DJ_PROJECT,
                              "IEEE P802.3dj's timeline aims at a completed standard in "
                              "2026; the sources read give no approval date")

# ------------------------------------------------------------ multi-plane scale-out networks
DEEPSEEK_MPFT = {
    "planes": Spec(8, "count", "secondary", S.DEEPSEEK_MPFT,
                   note="eight planes, one per GPU-NIC pair of a node (the paper's design "
                        "description, not a measurement)"),
    "switch ports": Spec(64, "count", "secondary", S.DEEPSEEK_MPFT,
                         note="64-port 400 Gb/s InfiniBand switches, two layers per plane "
                              "(the paper's design description)"),
    "gpus": Spec(16384, "count", "derived", S.DEEPSEEK_MPFT,
                 note="'theoretically supporting up to 16,384 GPUs': 8 planes x the 2,048 "
                      "hosts of a two-layer fat-tree of 64-port switches (arithmetic, not a "
                      "deployment)"),
    "cx8 planes": Spec(4, "count", "secondary", S.DEEPSEEK_MPFT,
                       note="'InfiniBand ConnectX-8 natively supports four planes' (the "
                            "paper's statement about NVIDIA's NIC)"),
}
"""DeepSeek's multi-plane fat-tree (Chapter 5): every plane a separate two-layer network."""

# -------------------------------------------------------- scale-up Ethernet and scale-across
ESUN_STATUS = Status("announced", "2025-10-13", S.ESUN_OCP,
                     "OCP workstream launched at the OCP Global Summit 2025; a forum, not yet "
                     "a specification")
"""Ethernet for Scale-Up Networking (Chapter 4)."""
SPECTRUM_XGS_STATUS = Status("announced", "2025-08-22", S.SPECTRUM_XGS,
                             "announced before Hot Chips 2025; CoreWeave named among the first "
                             "adopters")
"""NVIDIA's scale-across Ethernet between data centres (Chapter 8)."""

__all__ = ["PCIE7", "PCIE7_STATUS", "pcie7_raw_x16_per_direction", "CXL4", "CXL4_STATUS",
           "ETHERNET_1600", "ETHERNET_LANE_200G", "ETHERNET_1600_STATUS", "DEEPSEEK_MPFT",
           "ESUN_STATUS", "SPECTRUM_XGS_STATUS"]
