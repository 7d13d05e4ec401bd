"""The cited hardware catalogue.

Every hardware figure the book prints lives here once, as a :class:`Spec` with its unit,
direction, kind and :class:`Source`. Look things up with the functions below::

    >>> from interlib import specs
    >>> specs.nvlink(4).per_gpu_per_direction / 1e9
    450.0
    >>> specs.system("dgx-h100").nics_per_gpu
    1.0
"""

from ._base import DIRECTIONS, KINDS, Source, Spec
from .hardware import (GPU, GPUS, NIC, NICS, NVSWITCH, SYSTEMS, NVSwitchGen, System, gpu,
                       nic, nvswitch, system)
from .links import (ETHERNET, INFINIBAND, NVLINK, NVLINK_BIDIRECTIONAL_NOTE, PCIE,
                    InfiniBandGen, NVLinkGen, PCIeGen, ethernet, infiniband, nvlink, pcie)
from .inside_box import PCIE_HOST_COPY_EFFICIENCY
from .compute import (BF16_DENSE_FLOPS, HBM_COPY_EFFICIENCY, LLAMA3_GPUS,
                      LLAMA3_INTERRUPTIONS, LLAMA3_SNAPSHOT_DAYS, gpu_flops)
from .fabric import SUPERPOD_SU, SWITCHES, Switch, switch
from . import calibration, compute, sources

__all__ = [
    "DIRECTIONS", "KINDS", "Source", "Spec", "GPU", "GPUS", "NIC", "NICS", "NVSWITCH",
    "SYSTEMS", "NVSwitchGen", "System", "gpu", "nic", "nvswitch", "system", "ETHERNET",
    "INFINIBAND", "NVLINK", "NVLINK_BIDIRECTIONAL_NOTE", "PCIE", "PCIE_HOST_COPY_EFFICIENCY",
    "InfiniBandGen", "NVLinkGen", "PCIeGen", "ethernet", "infiniband", "nvlink", "pcie",
    "calibration", "sources", "compute", "BF16_DENSE_FLOPS", "HBM_COPY_EFFICIENCY",
    "LLAMA3_GPUS", "LLAMA3_INTERRUPTIONS", "LLAMA3_SNAPSHOT_DAYS", "gpu_flops",
    "SUPERPOD_SU", "SWITCHES", "Switch", "switch",
]

# Chapters 5-6: latencies, packet headers, Meta's clusters (appended)
from .fabric import ADAPTER_LATENCY, META_CLUSTERS_24K, PACKET_HEADERS, SWITCH_HOP_LATENCY

__all__ += ["ADAPTER_LATENCY", "META_CLUSTERS_24K", "PACKET_HEADERS", "SWITCH_HOP_LATENCY"]
# Published study figures (Meta's clusters, Llama 3, Kim et al., Bekman): Chapters 7-8, App. B
from . import studies  # noqa: E402

__all__ += ["studies"]
# The reader's own node (Chapter 7/Appendix A's "your cluster", the capstone)
from . import custom  # noqa: E402
from .custom import Node, node  # noqa: E402

__all__ += ["custom", "Node", "node"]
# Chapters 1-4, expert review: NVLink-C2C host link, reduced-NVLink export parts, PCIe P2P
# hardware latency (appended)
from .hardware import HOST_LINKS, HostLink  # noqa: E402
from .links import (NCCL_MAX_CHANNELS, NCCL_PROTOCOL_LINES, NET_GDR_LEVEL,  # noqa: E402
                    NVLINK_C2C, NVLINK_MAX_PAYLOAD, PCIE_P2P_LATENCY, PCIE_P2P_LEVEL,
                    REDUCED_NVLINK)

__all__ += ["HOST_LINKS", "HostLink", "NVLINK_C2C", "PCIE_P2P_LATENCY", "REDUCED_NVLINK",
            "NCCL_MAX_CHANNELS", "NCCL_PROTOCOL_LINES", "NET_GDR_LEVEL", "PCIE_P2P_LEVEL",
            "NVLINK_MAX_PAYLOAD"]
from . import layouts; __all__ += ["layouts"]  # noqa: E402,E702  wiring facts for the drawn diagrams
# The 2026 edition (issue 28): shipped/announced status, the GB200 superchip's C2C, PCIe on
# one payload basis, scale-up beyond NVIDIA (appended)
from ._base import STATES, Status  # noqa: E402
from .links import NVLINK_C2C_SUPERCHIP, PCIE_PAYLOAD_BYTES, PCIE_TLP_HEADER  # noqa: E402
from . import scaleup  # noqa: E402
from .scaleup import SCALEUP_DOMAINS, ScaleUpDomain, scaleup_domain  # noqa: E402

__all__ += ["STATES", "Status", "NVLINK_C2C_SUPERCHIP", "PCIE_PAYLOAD_BYTES",
            "PCIE_TLP_HEADER", "scaleup", "SCALEUP_DOMAINS", "ScaleUpDomain",
            "scaleup_domain"]
from . import software  # noqa: E402
from .software import NCCL_FEATURES  # noqa: E402

__all__ += ["software", "NCCL_FEATURES"]
# The 2026.2 edition (issue 39): the fabrics of 2026 (planes, 1.6 T Ethernet, PCIe 7.0, CXL,
# scale-up Ethernet, scale-across)
from . import outlook  # noqa: E402

__all__ += ["outlook"]
