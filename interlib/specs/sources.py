"""The sources the catalogue cites, each defined once."""

from ._base import Source

PCIE_SPEC = Source(
    "PCI-SIG PCI Express Base Specifications 3.0-6.0 (per-lane rates and encodings)",
    "https://pcisig.com/specifications",
    "8 / 16 / 32 GT/s NRZ with 128b/130b for Gen 3/4/5; 64 GT/s PAM4 with 256-byte FLITs "
    "(236 B TLP + 6 B DLP + 8 B CRC + 6 B FEC) for Gen 6.",
    key="")
LOCKWOOD_PCIE6 = Source(
    "Glenn K. Lockwood, PCIe Gen6 (digital garden)",
    "https://www.glennklockwood.com/garden/PCIe-Gen6",
    "~118 GB/s usable per direction on Gen6 x16 (236/256 of 128 GB/s); PCI-SIG's 256 GB/s "
    "adds both directions.", key="")
AZURE_BENCH = Source(
    "Azure AI-benchmarking-guide, ND H100 v5 / ND H200 v5 / ND A100 v4 results",
    "https://github.com/Azure/AI-benchmarking-guide/tree/main/Azure_Results",
    "nvbandwidth H2D 51 GB/s, D2H 52 GB/s on ND H100 v5 (PCIe Gen5 x16); NCCL 2.18.5 "
    "all-reduce busbw 478.87 GB/s at 8 GB on 8xH100 (NVLS).", key="azurebench")
STAS_NETWORK = Source(
    "Stas Bekman, Machine Learning Engineering Open Book, network chapter",
    "https://github.com/stas00/ml-engineering/tree/master/network",
    "Per-direction tables for PCIe, NVLink, NICs; nvbandwidth and nccl-tests measurements.",
    key="bekman")
NVLINK_PAGE = Source(
    "NVIDIA NVLink and NVLink Switch product page",
    "https://www.nvidia.com/en-us/data-center/nvlink/",
    "A single NVIDIA Blackwell Tensor Core GPU supports up to 18 NVLink 100 gigabyte-per-"
    "second (GB/s) connections for a total bandwidth of 1.8 terabytes per second (TB/s).",
    key="")
HOPPER_PAGE = Source(
    "NVIDIA Hopper architecture page",
    "https://www.nvidia.com/en-us/technologies/hopper-architecture/",
    "900 gigabytes/second (GB/s) bi-directional per GPU, over 7X the bandwidth of PCIe "
    "Gen5.", key="nvidiahopper")
SCALING_BOOK = Source(
    "Austin et al., How to Scale Your Model, Part 12: How to Think About GPUs (2025)",
    "https://jax-ml.github.io/scaling-book/gpus/",
    "NVLink 4: 25 GB/s full-duplex per link, 18 links, 450 GB/s per GPU per direction; "
    "NVLink 5: 50 GB/s per link; DGX H100 bisection 3.6 TB/s.", key="austin2025")
NCCL_TOPO = Source(
    "NVIDIA NCCL source, src/graph/topo.h",
    "https://github.com/NVIDIA/nccl/blob/master/src/graph/topo.h",
    "Per-link effective bandwidths NCCL assumes (GB/s, per direction): SM60_NVLINK_BW 18.0, "
    "SM70 20.0, SM80 20.0, SM90 20.6, SM100 40.1; PCI_BW 12.0 (Gen3 x16); NET_BW 12.0 "
    "(100 Gbit).", key="")
NCCL_TUNING = Source(
    "NVIDIA NCCL source, src/graph/tuning.cc",
    "https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc",
    "Base latencies and per-step latencies by hardware class (hwLat: NVLink, PCI, network) "
    "per algorithm and protocol, model constants; LL busBw x0.5, LL128 x0.92; "
    "NVLS efficiency 0.85 (Hopper), 0.74 (Blackwell).", key="nccltuning")
SJEAUGEY_212 = Source(
    "NVIDIA/nccl-tests issue 212 (maintainer answer)",
    "https://github.com/NVIDIA/nccl-tests/issues/212",
    "450GB/s is the line rate. With the protocol overhead (~20%) NCCL can get an effective "
    "NVLink bandwidth of 370GB/s ... NVLS peak busBw of ~480GB/s.", key="nccltests212")
SJEAUGEY_149 = Source(
    "NVIDIA/nccl-tests issue 149 (maintainer answer)",
    "https://github.com/NVIDIA/nccl-tests/issues/149",
    "Each NVLink has a line rate of 25GB/s (in each direction) ... ~230GB/s [A100 all-reduce "
    "busbw] in practice.", key="nccltests149")
NCCL_TESTS_PERF = Source(
    "NVIDIA nccl-tests, doc/PERFORMANCE.md",
    "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
    "algbw = S/t; busbw = algbw x factor: AllReduce 2(n-1)/n, ReduceScatter (n-1)/n, "
    "AllGather (n-1)/n, Broadcast 1, Reduce 1, AlltoAll (n-1)/n.", key="nccltests")
DGX_BASEPOD = Source(
    "NVIDIA DGX BasePOD reference architecture, core components",
    "https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-"
    "enterprise-ai/latest/core-components.html",
    "Four NVIDIA NVSwitch chips ... eight single-port NVIDIA ConnectX-7 VPI ... up to "
    "400 Gb/s InfiniBand/Ethernet.", key="dgxbasepod")
NVSWITCH_BLOG = Source(
    "NVIDIA technical blog, Upgrading Multi-GPU Interconnectivity with the Third-Generation "
    "NVIDIA NVSwitch (2022)",
    "https://developer.nvidia.com/blog/upgrading-multi-gpu-interconnectivity-with-the-third-"
    "generation-nvidia-nvswitch/",
    "'NVIDIA NVSwitch is also a critical enabler of the NVLink Switch networking appliance, "
    "which enables the creation of clusters with up to 256 connected NVIDIA H100 Tensor Core "
    "GPUs and 57.6 TB/s of all-to-all bandwidth. The appliance delivers 9x more bisection "
    "bandwidth than was possible with HDR InfiniBand on NVIDIA Ampere Architecture GPUs.' "
    "The third-generation NVSwitch 'incorporates hardware acceleration for collective "
    "operations with multicast and NVIDIA ... SHARP in-network reductions'. (NVIDIA's NVLink "
    "page of the time: 'each NVSwitch has 64 NVLink ports equipped with engines for NVIDIA "
    "SHARP', read in an archived copy.)", key="nvidianvswitchblog")
A100_WHITEPAPER = Source(
    "NVIDIA A100 Tensor Core GPU architecture whitepaper",
    "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-"
    "architecture-whitepaper.pdf",
    "Six second-generation NVSwitch ... GPU to GPU communication to peak at 600 GB/s. "
    "Section 3.3.4: 'Third-generation NVLink has a data rate of 50 Gbit/sec per signal pair, "
    "nearly doubling the 25.78 Gbits/sec rate in V100. A single A100 NVLink provides 25 "
    "GB/second bandwidth in each direction similar to V100, but using only half the number of "
    "signal pairs per link compared to V100. The total number of links is increased to twelve "
    "in A100, versus 6 in V100, yielding 600 GB/sec total bandwidth versus 300 GB/sec for "
    "V100.' (Whitepaper text read in a reproduction of the PDF and in NVIDIA's Ampere "
    "in-depth blog, which carries the same paragraph.)", key="")
GB200_PAGE = Source(
    "NVIDIA GB200 NVL72 product page",
    "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
    "72 Blackwell GPUs in one NVLink domain; NVLink Switch enables 130TB/s of GPU bandwidth; "
    "Up to 13.4 TB HBM3e | 576 TB/s.", key="")
IB_ROADMAP = Source(
    "InfiniBand lane rates and encodings (IBTA roadmap, as tabulated by infiniband.jp and "
    "Bekman)",
    "https://www.infinibandta.org/infiniband-roadmap/",
    "Lane signalling 2.5/5/10/14.0625/25.78125/53.125/106.25 Gb/s; data 2/4/8/13.64/25/50/100 "
    "Gb/s per lane for SDR..NDR; XDR 200 Gb/s per lane.", key="ibroadmap")
CX7_DOC = Source(
    "NVIDIA ConnectX-7 VPI adapter documentation",
    "https://docs.nvidia.com/networking/display/connectx7vpi",
    "single-port NDR 400 Gb/s InfiniBand or 400GbE; PCIe Gen5 x16.", key="")
CX8_NOTES = Source(
    "NVIDIA ConnectX-8 SuperNIC firmware release notes",
    "https://docs.nvidia.com/networking/display/connectx8firmware",
    "ConnectX-8 SuperNIC supports 800Gb/s or XDR IB or 2 x 400GbE.", key="")
IEEE_8023 = Source(
    "IEEE 802.3 Ethernet (802.3ba/bs/ck/df: 100/200/400/800 Gb/s MAC rates)",
    "https://standards.ieee.org/ieee/802.3/10422/",
    "MAC data rates of 100, 200, 400 and 800 Gb/s, full duplex.", key="ieee8023")
A100_DATASHEET = Source(
    "NVIDIA A100 datasheet",
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-"
    "datasheet-us-nvidia-1758950-r4-web.pdf",
    "A100 80GB SXM: HBM2e, 2,039 GB/s; NVLink 600 GB/s; PCIe Gen4 64 GB/s.",
    key="")
H100_DATASHEET = Source(
    "NVIDIA H100 Tensor Core GPU datasheet",
    "https://www.nvidia.com/en-us/data-center/h100/",
    "H100 SXM: 80 GB HBM3, 3.35 TB/s; NVLink 900 GB/s; PCIe Gen5 128 GB/s.",
    key="")
H200_DATASHEET = Source(
    "NVIDIA H200 Tensor Core GPU datasheet",
    "https://www.nvidia.com/en-us/data-center/h200/",
    "H200 SXM: 141 GB HBM3e, 4.8 TB/s; NVLink 900 GB/s; PCIe Gen5 128 GB/s.",
    key="")
DGX_B200 = Source(
    "NVIDIA DGX B200 datasheet",
    "https://www.nvidia.com/en-us/data-center/dgx-b200/",
    "8x B200, 1,440 GB total GPU memory, 64 TB/s HBM3e bandwidth, 14.4 TB/s aggregate "
    "NVLink; 8x single-port ConnectX-7 400 Gb/s.", key="")
MLPERF_GB200 = Source(
    "MLCommons inference v6.1 submission, Crusoe GB200 system description",
    "https://github.com/mlcommons/inference_results_v6.1",
    "\"accelerator_memory_capacity\": \"186 GB\"; for each 4-GPU node: 4x ConnectX-7 400G; "
    "\"accelerator_host_interconnect\": \"NVLink-C2C\".",
    key="mlperfgb200")
THIS_BOOK_FIT = Source(
    "Interconnects, Appendix A (calibration of the collective model)",
    "book/appendix_validation",
    "Fitted once to the calibration set (Azure ND H100 v5 NVLS curve; Bekman's A100 ring "
    "curve; CoreWeave's one-rack GB200 NVL72 run for the rack-scale NVLS pace), then "
    "frozen; checked against held-out measurements.", key="")

# ------------------------------------------------- Chapters 2-4 (inside the box)
AZURE_H200_BENCH = Source(
    "Azure AI-benchmarking-guide, ND H200 v5 results",
    "https://github.com/Azure/AI-benchmarking-guide/blob/main/Azure_Results/"
    "ND_H200_v5_results.md",
    "nvbandwidth host-to-device 52 GB/s and device-to-host 52 GB/s (PCIe Gen5 x16).",
    key="azurebench")
NCCL_1264 = Source(
    "NVIDIA/nccl issue 1264 (user report, HGX H100)",
    "https://github.com/NVIDIA/nccl/issues/1264",
    "p2pBandwidthLatencyTest on HGX H100: about 380 GB/s unidirectional and about 749 GB/s "
    "bidirectional between two GPUs. nvidia-smi topo -m: every GPU pair NV18; each GPU PIX "
    "to one NIC, SYS to the others; CPU affinity GPUs 0-3 socket 0, 4-7 socket 1.",
    key="ncclissue1264")
NVSWITCH_HOTCHIPS = Source(
    "Ishii and Wells, NVLink-Network Switch: NVIDIA's switch chip for high communication-"
    "bandwidth superpods, Hot Chips 34 (2022), as summarised by the scaling book",
    "https://jax-ml.github.io/scaling-book/gpus/",
    "DGX H100: the 18 NVLink 4 links of each GPU go 5 + 4 + 4 + 5 to the four NVSwitch "
    "chips; 3.6 TB/s bisection bandwidth.", key="austin2025")
NVLINK_576 = Source(
    "NVIDIA Mission Control / Base Command Manager documentation, GB200 NVLink domains",
    "https://docs.nvidia.com/mission-control/",
    "Support for up to 576 GPUs in a single NVLink domain.", key="")
PCIE_ONLY_HYPOTHETICAL = Source(
    "derived in this book: a hypothetical 8-GPU box without NVLink",
    "interlib/specs/hardware.py",
    "8 x H100 attached only by PCIe 5.0 x16 (no NVLink, no NVSwitch), each GPU assumed to "
    "get its full x16 link; built from the DGX H100 entry to isolate the effect of the "
    "GPU-to-GPU link. No such product is claimed.", key="")
NCCL_1374 = Source(
    "NVIDIA/nccl issue 1374, quoting NVIDIA GTC 2025 talk S72583",
    "https://github.com/NVIDIA/nccl/issues/1374",
    "All-reduce bus bandwidth: NVLink 4 370 -> 480 GB/s with NVLink SHARP; NVL72 680 -> "
    "850 GB/s.", key="")
H100_FLOPS = Source(
    "NVIDIA H100 Tensor Core GPU datasheet (compute table)",
    "https://www.nvidia.com/en-us/data-center/h100/",
    "H100 SXM: BF16 Tensor Core 1,979 teraFLOPS, footnote 'With sparsity'; dense is half: "
    "989 teraFLOPS.", key="")
A100_FLOPS = Source(
    "NVIDIA A100 datasheet (compute table)",
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-"
    "datasheet-us-nvidia-1758950-r4-web.pdf",
    "A100 BF16 Tensor Core 312 TFLOPS (624 TFLOPS with sparsity).", key="")
LOCKWOOD_B200 = Source(
    "Glenn K. Lockwood, B200 (digital garden), citing NVIDIA's Blackwell datasheet",
    "https://glennklockwood.com/garden/processors/B200",
    "HGX B200 at 1,000 W: BF16 matrix 2,250 TFLOPS dense, 4,500 sparse; FP8 4,500 dense, "
    "9,000 sparse. GB200 at 1,200 W: BF16 2,500 dense, 5,000 sparse. (DGX B200's '72 "
    "petaFLOPS FP8' for 8 GPUs is 9,000 TFLOPS per GPU, the sparse FP8 figure.)",
    key="")
LOCKWOOD_B300 = Source(
    "Glenn K. Lockwood, B300 (digital garden), citing NVIDIA's Blackwell Ultra announcements",
    "https://glennklockwood.com/garden/processors/B300",
    "B300 (Blackwell Ultra): 288 GB HBM3e (8 stacks, 12-high), 8 TB/s (max), 2 x 900 GB/s "
    "NVLink 5, upgrade to PCIe Gen6, 1,400 W. GB300 NVL72: 20 TB HBM at 576 TB/s, 18 NVLink "
    "Switches at 130 TB/s, 72 ConnectX-8 NICs; a single carrier board with two Grace CPUs and "
    "four Blackwell GPUs.",
    key="")
LLAMA3 = Source(
    "Llama Team, AI @ Meta, The Llama 3 Herd of Models, arXiv 2407.21783 (2024), Table 5",
    "https://arxiv.org/abs/2407.21783",
    "Table 5, 'Root-cause categorization of unexpected interruptions during a 54-day period "
    "of Llama 3 405B pre-training': 466 job interruptions, 47 planned, 419 unexpected. Faulty "
    "GPU 148 (30.1%), GPU HBM3 Memory 72 (17.2%), Network Switch/Cable 35 (8.4%), NIC 7 "
    "(1.7%), NCCL Watchdog Timeouts 7 (1.7%). Read in the paper itself (section 3.3.4).",
    key="llama3")

# ---------------------------------------------------------------- Appendix B (errata)
ZERO_PAPER = Source(
    "Rajbhandari, Rasley, Ruwase and He, ZeRO: Memory Optimizations Toward Training Trillion "
    "Parameter Models (SC20, arXiv:1910.02054)",
    "https://arxiv.org/abs/1910.02054",
    "Mixed-precision Adam keeps fp16 parameters and gradients (2 + 2 bytes) and fp32 "
    "parameters, momentum and variance (12 bytes): 16 bytes per parameter.",
    key="rajbhandari2020zero")
META_CLUSTERS = Source(
    "Meta engineering blog, Building Meta's GenAI infrastructure (12 March 2024)",
    "https://engineering.fb.com/2024/03/12/data-center-engineering/building-metas-genai-"
    "infrastructure/",
    "Two 24,576-GPU clusters: one RoCE (Arista 7800, Wedge400 and Minipack2), one NVIDIA "
    "Quantum-2 InfiniBand, both with 400 Gbps endpoints.", key="metaclusters2024")
KIM_DRAGONFLY = Source(
    "Kim, Dally, Scott and Abts, Technology-Driven, Highly-Scalable Dragonfly Topology "
    "(ISCA 2008)",
    "https://doi.org/10.1109/ISCA.2008.19",
    "a dragonfly reduces cost by 20% compared to a flattened butterfly and by 52% compared "
    "to a folded Clos network in configurations with 16K nodes.", key="kim2008")
ALFARES_FATTREE = Source(
    "Al-Fares, Loukissas and Vahdat, A Scalable, Commodity Data Center Network Architecture "
    "(SIGCOMM 2008)",
    "https://doi.org/10.1145/1402958.1402967",
    "A k-ary fat-tree of k-port switches supports k^3/4 hosts with (k/2)^2 core switches and "
    "k pods of k/2 edge and k/2 aggregation switches (5k^2/4 switches in all).",
    key="alfares2008")

# ------------------------------- Chapters 5-8 expert review (appended by expertb, issue 14)
LLAMA3_NETWORK = Source(
    "Llama Team, AI @ Meta, The Llama 3 Herd of Models, arXiv 2407.21783 (2024), section "
    "3.3.1 (network) and 3.3.3 (collective communication)",
    "https://arxiv.org/abs/2407.21783",
    "RoCE cluster of 24K GPUs, three-layer Clos: 16 GPUs per rack (two servers) under one "
    "Minipack2 ToR; 192 racks form a pod of 3,072 GPUs with full bisection bandwidth; eight "
    "pods are joined by aggregation switches with an oversubscription ratio of 1:7. The "
    "collective library creates 16 network flows between two GPUs; Enhanced-ECMP hashes on "
    "additional RoCE header fields; deep-buffer spine switches; 'we successfully run a 24K "
    "GPU cluster without traditional congestion control methods such as ... DCQCN'. PP and "
    "DP traffic crosses a multi-hop network 'with latency up to tens of microseconds'.",
    key="llama3")
GANGIDI_ROCE = Source(
    "Gangidi et al. (Meta), RDMA over Ethernet for Distributed AI Training at Meta Scale, "
    "SIGCOMM 2024; Meta engineering blog summary 'A RoCE network for distributed AI "
    "training at scale' (5 August 2024)",
    "https://doi.org/10.1145/3651890.3672233",
    "'We proceeded without DCQCN for our 400G deployments ... over a year of experience "
    "with just PFC for flow control, without any other transport-level congestion control "
    "(but we do use collective-library controls ...)'; receiver-driven traffic admission "
    "(clear-to-send) in the collective library; E-ECMP hashing on the destination QP with "
    "QP scaling 'showed performance improvement of up to 40% for the AllReduce collective' "
    "over baseline ECMP; deep-buffer cluster switches (Arista 7800).",
    key="gangidi2024")
NCCL_NET_IB = Source(
    "NVIDIA NCCL source, src/transport/net_ib/ (connect.cc, common.cc, init.cc, p2p.cc) "
    "at commit 5067397 (2026-06-11)",
    "https://github.com/NVIDIA/nccl/tree/master/src/transport/net_ib",
    "NCCL_PARAM defaults: IB_QPS_PER_CONNECTION 1, IB_SPLIT_DATA_ON_QPS 0 (messages go to "
    "the QPs in turn), IB_TIMEOUT 20, IB_RETRY_CNT 7; adaptive routing on by default for an "
    "InfiniBand link layer and off for Ethernet (RoCE), IB_ADAPTIVE_ROUTING overrides; with "
    "adaptive routing, messages above 8192 bytes go as an RDMA write followed by a separate "
    "completion write.", key="")
ARISTA_VOQ = Source(
    "Arista 7500R switch architecture white paper (Jericho deep-buffer VoQ platform), "
    "default per-VoQ limits as tabulated by W. Warner, UCSC",
    "https://people.ucsc.edu/~warner/Bufs/arista7500R.html",
    "Default per-VoQ output port limits: 5 msec maximum packet buffer depth for 10G to 100G "
    "output ports. The 7800R3 'Universal Spine' keeps 'a "
    "consistent architecture of deep buffers, VoQ and non-blocking lossless forwarding'.",
    key="")
NVIDIA_XDR_SWITCH = Source(
    "NVIDIA Q32xx and Q34xx XDR 800Gb/s InfiniBand Switch Systems User Manual "
    "(Quantum-X800 platform)",
    "https://docs.nvidia.com/networking/display/XDRSwitchesHWUM",
    "XDR InfiniBand switch systems with 800 Gb/s ports (Quantum-3 ASIC, supported by SHARP "
    "3.13).", key="")
SHARP_DOC = Source(
    "NVIDIA SHARP documentation, Rev 3.13.0, General Information",
    "https://docs.nvidia.com/networking/display/sharpv3130/general-information",
    "NVIDIA Quantum: up to 126 aggregation trees in the subnet (63 low latency, 63 "
    "streaming aggregation), one active streaming tree per switch. Quantum-2: up to 1023 "
    "trees (511 + 511); multiple streaming aggregation operations in parallel, one active "
    "tree per port.", key="nvidiasharp")
INTEL_FEC_AN846 = Source(
    "Intel AN 846: Stratix 10 Forward Error Correction, 100GBASE-KP4 mapping (IEEE "
    "802.3bj Clause 91)",
    "https://www.intel.com/content/www/us/en/docs/programmable/683805/current/"
    "100gbase-kp4-mapping-ieee802-3bj-clause-91.html",
    "RS(544,514) FEC after 256b/257b transcoding: payload 50 Gbps, 64b/66b 51.5625 Gbps, "
    "with FEC expansion x34/33: 53.125 Gbps per PAM4 lane.", key="ieee8023")



OWN_SOURCE_MODULES = ("layouts", "prices")
"""The catalogue modules that define Sources beside their own figures instead of here: the
wiring facts of the drawn diagrams (:mod:`.layouts`) and the price sheet (:mod:`.prices`).
:func:`all_sources` lists theirs too, so the References page names every one."""


def all_sources() -> list[Source]:
    """Every Source of the catalogue: those defined in this module, in definition order, then
    those :data:`OWN_SOURCE_MODULES` define (each once)."""
    from importlib import import_module

    spaces = [globals()] + [vars(import_module(f"{__package__}.{name}"))
                            for name in OWN_SOURCE_MODULES]
    found: dict[int, Source] = {}
    for space in spaces:
        for obj in space.values():
            if isinstance(obj, Source):
                found.setdefault(id(obj), obj)
    return list(found.values())


def sources_table():
    """The catalogue's sources as a table (for the References page)."""
    from ..display import Table

    return Table(["source", "link", "what the book takes from it"],
                 [[s.title, s.url, s.says] for s in all_sources()],
                 "Every hardware figure in interlib.specs cites one of these; each figure "
                 "also records whether it is a vendor peak, a measurement, a derivation, an "
                 "NCCL model constant or a calibrated constant. The price sheet "
                 "(interlib.specs.prices) cites its published prices here too, each with "
                 "the date it was read.")
QUANTUM2 = Source(
    "NVIDIA LinkX documentation (MMA4Z00-NS twin-port OSFP) on Quantum-2 switches",
    "https://docs.nvidia.com/networking/display/mma4z00ns400",
    "Quantum-2 NDR switches: 64 ports at 400Gbps or 128 ports at 200Gbps, in twin-port "
    "OSFP cages.", key="")
SUPERPOD_RA = Source(
    "NVIDIA DGX SuperPOD: Next Generation Scalable Infrastructure for AI Leadership, "
    "Reference Architecture featuring NVIDIA DGX H100 Systems (RA-11333-001, 2023)",
    "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/"
    "latest/",
    "'A modular architecture based on SUs of 32 DGX H100 systems each. A fully tested system "
    "scales to four SUs'; 'This reference architecture is focused on 4 SU units with 128 DGX "
    "nodes'; NDR (400 Gbps) InfiniBand compute fabric, rail-optimized. The leaf and spine "
    "counts (8 leaf switches per SU; 32 leaves and 16 spines for 4 SUs, 1,024 GPUs) are the "
    "component table NVIDIA gives for the same 32-node SU in the DGX B200 SuperPOD RA "
    "(docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200: 'SU "
    "Count 4, Node Count 128, GPU Count 1024, Leaf 32, Spine 16'); the H100 RA's own table "
    "was not read here. (Austin et al.'s scaling book summarises the same figures.)",
    key="nvidiasuperpodh100")
SPECTRUM4 = Source(
    "NVIDIA Spectrum SN5000 Ethernet switch systems hardware user manual (Data Interfaces)",
    "https://docs.nvidia.com/networking/display/sn5000/data+interfaces",
    "Ports and maximum speed per model family: 'SN5600 | 64 | 800GbE (100Gbps/lane)' (128 "
    "at 400GbE, 256 at 200GbE and below); SN5400: 64 ports of 400GbE. SN5600 is the "
    "Spectrum-4 switch (51.2 Tb/s = 64 x 800 Gb/s).", key="")

# ------------------------------------------- systems catalogue (appended by fix worker A)
NCCL_812 = Source(
    "NVIDIA/nccl issue 812 (maintainer answer, quoted in issue 1576)",
    "https://github.com/NVIDIA/nccl/issues/812",
    "On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s "
    "AllReduce BusBW.", key="")
HGX_H200_ASSUMED = Source(
    "derived in this book: HGX H200 server assumed to mirror the DGX H100/H200 network "
    "layout of the DGX BasePOD reference architecture",
    "https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-"
    "enterprise-ai/latest/core-components.html",
    "HGX H200 is a baseboard (8 H200 on four third-generation NVSwitch chips); the server "
    "maker chooses the NICs. The book assumes the DGX layout: eight single-port ConnectX-7 "
    "at 400 Gb/s for the compute fabric, one per GPU.", key="")
NVSWITCH2_PORTS = Source(
    "Zhihu article on NVSwitch generations, mirrored in vinjn/nanotron-ultrascale-playbook "
    "(aitalks/)",
    "https://github.com/vinjn/nanotron-ultrascale-playbook",
    "Second-generation NVSwitch (DGX/HGX A100): 36 NVLink 3 ports per chip.", key="")
ANANDTECH_NVSWITCH = Source(
    "AnandTech, NVIDIA Develops NVLink Switch: NVSwitch, 18 Ports For DGX-2 & More (2018)",
    "https://www.anandtech.com/show/12581/nvidia-develops-nvlink-switch-nvswitch-18-ports-"
    "for-dgx2-more",
    "A single switch has a whopping 18 full-bandwidth ports ... an aggregate of 900GB/sec of "
    "bidirectional bandwidth; the switch allows a 16 GPU configuration (DGX-2).", key="")
# ------------------------------------------------ Chapters 5-6 (appended by fix worker C)
IBTA_SPEC = Source(
    "InfiniBand Trade Association, InfiniBand Architecture Specification Vol. 1 (with "
    "Annex A17, RoCEv2)",
    "https://www.infinibandta.org/ibta-specification/",
    "Base Transport Header 12 bytes, invariant CRC 4 bytes, Local Route Header 8 bytes, "
    "variant CRC 2 bytes, Global Route Header 40 bytes, RDMA Extended Transport Header 16 "
    "bytes; RoCEv2 carries the BTH in UDP, destination port 4791.", key="ibtaspec")
RFC_791 = Source(
    "RFC 791, Internet Protocol (1981)", "https://www.rfc-editor.org/rfc/rfc791",
    "The IPv4 header is 20 bytes without options (Internet Header Length 5 words).",
    key="rfc791")
RFC_768 = Source(
    "RFC 768, User Datagram Protocol (1980)", "https://www.rfc-editor.org/rfc/rfc768",
    "The UDP header is 8 bytes: source port, destination port, length, checksum.",
    key="rfc768")
RFC_8200 = Source(
    "RFC 8200, Internet Protocol, Version 6 (IPv6) Specification (2017)",
    "https://www.rfc-editor.org/rfc/rfc8200",
    "The fixed IPv6 header is 40 bytes.", key="")
IEEE_8023_FRAME = Source(
    "IEEE 802.3 Ethernet, MAC frame format (Clause 3) and inter-packet gap",
    "https://standards.ieee.org/ieee/802.3/10422/",
    "MAC header: destination 6 + source 6 + length/type 2 bytes; frame check sequence 4 "
    "bytes; preamble 7 + start frame delimiter 1 byte; minimum inter-packet gap 96 bit "
    "times (12 bytes).", key="ieee8023")
BEKMAN_IB_LATENCY = Source(
    "Stas Bekman, Machine Learning Engineering Open Book, network chapter (InfiniBand "
    "table, a community figure: from Wikipedia's table citing Panda and Sur, CCGrid 2011, "
    "which predates HDR)",
    "https://github.com/stas00/ml-engineering/tree/master/network",
    "Adapter (end-to-end) latency: EDR 0.5 us, HDR 0.6 us; NDR and later did not publish "
    "latency data.", key="bekman")
WWT_SWITCH_LATENCY = Source(
    "World Wide Technology (WWT), blog on AI networking fabrics, a community figure (quoted "
    "secondhand; the article's exact address was not retrieved, and no NVIDIA switch "
    "datasheet read gives a port-to-port latency)",
    "https://www.wwt.com/",
    "NIC-to-NIC latency passing through a single switch ASIC usually clocks in somewhere "
    "in the 100-300 nanosecond range.", key="")
HYPOTHETICAL_NODE = Source(
    "derived in this book: a hypothetical node assembled from catalogue parts",
    "interlib/steptime.py",
    "A what-if server built by steptime.make_system (Chapter 8's capstone and its PCIe + "
    "100 GbE fabric): catalogue GPU and link rates, reader-chosen GPU, NIC count and port "
    "rate. With PCIe as the GPU-to-GPU link every GPU is assumed to get its full x16 link, "
    "with no sharing of PCIe switches or root complexes, which flatters PCIe. No such "
    "product is claimed.", key="")
LLAMA3_TABLE4 = Source(
    "Llama Team, AI @ Meta, The Llama 3 Herd of Models, arXiv 2407.21783 (2024), Table 4 "
    "(scaling configurations and MFU)",
    "https://arxiv.org/abs/2407.21783",
    "Table 4, 'Scaling configurations and MFU for each stage of Llama 3 405B pre-training': "
    "8,192 GPUs, TP 8, CP 1, PP 16, DP 64, 430 TFLOPs/GPU, BF16 MFU 43%; 16,384 GPUs, TP 8, "
    "CP 1, PP 16, DP 128, 400 TFLOPs/GPU, 41%; 16,384 GPUs, TP 8, CP 16, PP 16 (131,072-token "
    "sequences), 380 TFLOPs/GPU, 38%; 16M tokens per batch. Section 3.3.2: 'an overall BF16 "
    "Model FLOPs Utilization (MFU) of 38-43% for the configurations shown in Table 4'. "
    "(Glenn Lockwood's llama-3.1 page reproduces the same rows from P. Balaji's SC'24 "
    "talk.)", key="llama3")

# ------------------------------------ Chapters 1-4, expert review (issue 14, experta)
GRACE_HOPPER_BLOG = Source(
    "NVIDIA technical blog, NVIDIA Grace Hopper Superchip Architecture In-Depth (2022)",
    "https://developer.nvidia.com/blog/nvidia-grace-hopper-superchip-architecture-in-depth/",
    "NVLink-C2C: hardware-coherent interconnect between the Grace CPU and the Hopper GPU, "
    "up to 900 GB/s total bandwidth, 450 GB/s per direction; 7x PCIe Gen 5.",
    key="nvidiagh200")
SCHIEFFER_GH200 = Source(
    "Schieffer, Wahlgren, Ren, Faj and Peng, Harnessing Integrated CPU-GPU System Memory "
    "for HPC: a first look into Grace Hopper (ICPP 2024, arXiv:2407.07850)",
    "https://arxiv.org/abs/2407.07850",
    "GH200 (480 GB LPDDR5X, 96 GB HBM3): NVLink-C2C copies measured at 375 GB/s host to "
    "device and 297 GB/s device to host (as summarised by HPCwire; the paper's own table "
    "was not retrieved here).", key="schieffer2024")
HOPPER_INDEPTH = Source(
    "NVIDIA technical blog, NVIDIA Hopper Architecture In-Depth (2022)",
    "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/",
    "H100 cluster: NDR IB network with NVLink Switch System where indicated ... NVLink "
    "Switch System technology is not currently available with H100 systems, but systems "
    "and availability will be announced.", key="nvidiahopperindepth")
HOPPER_PAGE_GH200 = Source(
    "NVIDIA Hopper architecture page (DGX GH200 paragraph)",
    "https://www.nvidia.com/en-us/technologies/hopper-architecture/",
    "DGX GH200 systems with NVLink Switch System support clusters of up to 256 connected "
    "H200s and deliver 57.6 terabytes per second (TB/s) of all-to-all bandwidth.",
    key="nvidiahopper")
NCCL_1286 = Source(
    "NVIDIA/nccl issue 1286 (NVIDIA NCCL maintainer answers, May 2024)",
    "https://github.com/NVIDIA/nccl/issues/1286",
    "There are no multi-level NVLink switch system products available from Nvidia "
    "currently ... the first publicly available [multi-node NVLink] system will be called "
    "GB200 (NVL72) ... The full features of NVLink will be available to all GPUs in such a "
    "system, including NVLink SHARP.", key="ncclissue1286")
NCCL_TESTS_258 = Source(
    "NVIDIA/nccl-tests issue 258 (maintainer answer, 2024)",
    "https://github.com/NVIDIA/nccl-tests/issues/258",
    "[~90% efficiency at 128-byte payloads] is only true for unidirectional traffic. For "
    "bidirectional traffic you have extra overhead. NCCL almost always uses both directions "
    "of each link.", key="nccltests258")
NCCL_DEVICE_H = Source(
    "NVIDIA NCCL source, src/include/device.h and src/include/graph.h (NVIDIA/nccl @ "
    "5067397)",
    "https://github.com/NVIDIA/nccl/blob/master/src/include/device.h",
    "LL line: 4 data bytes + 4 flag bytes, twice (union ncclLLFifoLine); LL128 line 128 "
    "bytes with one 8-byte flag word (NCCL_LL128_DATAELEMS = LINEELEMS - 1); MAXCHANNELS "
    "64. graph.h path types LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, NET.",
    key="ncclsource")
NCCL_DOCS = Source(
    "NVIDIA NCCL User Guide (environment variables; troubleshooting)",
    "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/",
    "NCCL_ALGO (Ring, Tree, CollNet, NVLS, NVLSTree, PAT), NCCL_PROTO (LL, LL128, Simple), "
    "NCCL_P2P_LEVEL, NCCL_NET_GDR_LEVEL, NCCL_PXN_DISABLE; troubleshooting: PCI Access "
    "Control Services (ACS) must be disabled for GPU peer-to-peer, IOMMU settings, "
    "GPUDirect RDMA needs nvidia-peermem or DMA-BUF; IO virtualization (VT-d/IOMMU) can "
    "redirect all PCI point-to-point traffic to the root complex (slowdown or hang).",
    key="nccldocs")
NCCL_TREES_BLOG = Source(
    "Jeaugey, Massively Scale Your Deep Learning Training with NCCL 2.4, NVIDIA technical "
    "blog (2019)",
    "https://developer.nvidia.com/blog/massively-scale-deep-learning-training-nccl-2-4/",
    "Double binary trees: two complementary binary trees, each rank a leaf in one and an "
    "inner node in the other, give full bandwidth with logarithmic latency. (In NCCL the "
    "'ranks' of the two trees are nodes, with a chain of GPUs inside each node: "
    "sources.NCCL_TREE_SRC.)",
    key="jeaugey2019trees")
NCCL_PXN_BLOG = Source(
    "NVIDIA technical blog, Doubling all2all Performance with NVIDIA Collective "
    "Communication Library 2.12 (2022)",
    "https://developer.nvidia.com/blog/doubling-all2all-performance-with-nvidia-collective-"
    "communication-library-2-12/",
    "PXN (PCI x NVLink): a GPU sends to a NIC that is not local to it by first moving the "
    "data over NVLink to the GPU local to that NIC, so traffic stays on its rail and "
    "messages to the same destination are aggregated.", key="ncclpxn")
NCCL_PAT_BLOG = Source(
    "NVIDIA technical blog, New Scaling Algorithm and Initialization with NVIDIA "
    "Collective Communications Library 2.23 (2024)",
    "https://developer.nvidia.com/blog/new-scaling-algorithm-and-initialization-with-"
    "nvidia-collective-communications-library-2-23/",
    "PAT (Parallel Aggregated Trees): a logarithmic-latency algorithm for AllGather and "
    "ReduceScatter at one GPU per node, for the large scale where rings' linear latency "
    "dominates.", key="ncclpat")
PYTORCH_DDP = Source(
    "Li et al., PyTorch Distributed: Experiences on Accelerating Data Parallel Training "
    "(VLDB 2020, arXiv:2006.15704)",
    "https://arxiv.org/abs/2006.15704",
    "Gradient bucketing (bucket_cap_mb = 25 by default) and overlapping the all-reduce of ready "
    "buckets with the rest of the backward pass.", key="li2020ddp")
PYTORCH_FSDP = Source(
    "Zhao et al., PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel (VLDB "
    "2023, arXiv:2304.11277)",
    "https://arxiv.org/abs/2304.11277",
    "Fully sharded data parallel: all-gather parameters before each unit's forward and "
    "backward, reduce-scatter gradients after the backward.", key="zhao2023fsdp")
GSHARD = Source(
    "Lepikhin et al., GShard: Scaling Giant Models with Conditional Computation and "
    "Automatic Sharding (ICLR 2021, arXiv:2006.16668)",
    "https://arxiv.org/abs/2006.16668",
    "Mixture-of-experts layers dispatch tokens to experts on other devices and combine "
    "them back with two all-to-all exchanges per layer.", key="lepikhin2021gshard")
DEEPSEEK_V3 = Source(
    "DeepSeek-AI, DeepSeek-V3 Technical Report (arXiv:2412.19437), with the authors' "
    "answer in deepseek-ai/DeepSeek-V3 issue 28",
    "https://arxiv.org/abs/2412.19437",
    "H800 cluster: NVLink offers a bandwidth of 160 GB/s, roughly 3.2 times that of IB "
    "(50 GB/s); the authors: 400 GB/s is the bidirectional theoretical value, 160 GB/s "
    "our unidirectional measurement.", key="deepseekv3")
A800_DATASHEET = Source(
    "NVIDIA A800 40GB/80GB datasheet",
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a800/pdf/a800-"
    "datasheet-nvidia-a4-2595079-r5-web.pdf",
    "A800 SXM: NVLink 400 GB/s (A100 SXM: 600 GB/s).", key="nvidiaa800")
GPUDIRECT_RDMA = Source(
    "NVIDIA, GPUDirect RDMA documentation (CUDA Toolkit)",
    "https://docs.nvidia.com/cuda/gpudirect-rdma/",
    "A NIC can read and write GPU memory directly over PCIe; performance is best when the "
    "GPU and the NIC share a PCIe switch, and degraded or unsupported across the CPU's "
    "root complex or between sockets; needs the peer-memory kernel module or DMA-BUF.",
    key="gpudirectrdma")
NVSHMEM_DOCS = Source(
    "NVIDIA NVSHMEM documentation",
    "https://docs.nvidia.com/nvshmem/",
    "A partitioned global address space over the GPUs of a job: one-sided put/get and "
    "atomics issued from inside CUDA kernels, over NVLink within a node and InfiniBand or "
    "RoCE between nodes.", key="nvshmem")
PTX_MULTIMEM = Source(
    "NVIDIA PTX ISA, multimem.ld_reduce / multimem.st / multimem.red (sm_90+), and NCCL "
    "src/device/common_kernel.h (multimem_st_global)",
    "https://docs.nvidia.com/cuda/parallel-thread-execution/",
    "A multimem address names the same buffer on every GPU of an NVLink multicast group: "
    "ld_reduce returns the reduction of the values at all of them (done in the NVSwitch); "
    "st writes one value to all of them.", key="ptxisa")
RTX6KPRO_P2P = Source(
    "voipmonitor/rtx6kpro, PCIe bandwidth and P2P measurements (RTX PRO 6000 Blackwell "
    "servers, PCIe Gen5 x16)",
    "https://github.com/voipmonitor/rtx6kpro/blob/master/hardware/topology.md",
    "Direct-attach, same-NUMA GPU-to-GPU P2P: ~0.36 us latency, ~56 GB/s unidirectional; "
    "cross-NUMA ~0.44 us (AMD Turin).", key="")
# ------------------------------------------- the collective model at scale (issue 15)
NCCL_NVLS = Source(
    "NVIDIA NCCL v2.26.2 source, src/transport/nvls.cc and src/enqueue.cc (calcCollChunking)",
    "https://github.com/NVIDIA/nccl/blob/v2.26.2-1/src/enqueue.cc",
    "NVLS_NCHANNELS_SM90 16, NVLS_NCHANNELS_SM100 32; NCCL_NVLS_CHUNKSIZE default 128 KiB; "
    "NVLSTree chunk: maxChunkSize = nNodes >= 4 ? 65536 : chunkSize; NCCL_MAX_NVLS_ARITY 32 "
    "(include/device.h): at most 32 NVLS heads, i.e. 32 NICs per NVLink domain.", key="")
AWS_OFI_NCCL = Source(
    "aws-ofi-nccl (AWS's NCCL network plugin for EFA), src/platform-aws.cpp",
    "https://github.com/aws/aws-ofi-nccl/blob/master/src/platform-aws.cpp",
    "Platform table: p5en/p6-b200 and p6-b300 '.latency = 35.0' (us); p4d, p5/p5e 75.0; "
    "NCCL reads it as the network's latency (props->latency).", key="")
AWS_OFI_NCCL_TUNER = Source(
    "aws-ofi-nccl (AWS's NCCL plugin), region tuner: src/tuner/nccl_ofi_regions.cpp @ 2daf7d3",
    "https://github.com/aws/aws-ofi-nccl/blob/master/src/tuner/nccl_ofi_regions.cpp",
    "P6 (p6-b200) all-reduce regions in (message size, ranks) for 8 ranks per node: Tree/LL, "
    "Tree/LL128, Ring/LL128, NVLSTree/Simple, Ring/Simple polygons; 'Skip when two nodes or "
    "lesser ... fallback to NCCL's internal tunings'.", key="")
AWS_OFI_NCCL_TUNER_MODEL = Source(
    "aws-ofi-nccl (AWS's NCCL plugin), the P5 tuner's cost model: include/nccl_ofi_tuner.h "
    "@ v1.8.1-aws and src/tuner/nccl_ofi_model.cpp @ v1.16.0",
    "https://github.com/aws/aws-ofi-nccl/blob/v1.16.0/src/tuner/nccl_ofi_model.cpp",
    "'Latency in usecs. Note, this is currently different from the network plugin's param "
    "for net latency by design' (TUNER_NET_LATENCY, 20); 'With EFA, we expect a ~2usec cost "
    "in the device and ~1usec cost to write that completion up to the host stack' "
    "(TUNER_NET_COMP_OVERHEAD, 3, added for the Simple protocol); per platform, the tuner "
    "model's net_lat: 20 µs for P5 & P5e, 18 µs for P5en.", key="")
NCCL_PATHS_FLUSH = Source(
    "NVIDIA NCCL source, src/graph/paths.cc (ncclTopoNeedFlush)",
    "https://github.com/NVIDIA/nccl/blob/v2.19.1-1/src/graph/paths.cc",
    "'*flush = gpu->gpu.cudaCompCap < 90 ? 1 : ncclParamNetForceFlush();' with "
    "NCCL_PARAM(NetForceFlush, \"NET_FORCE_FLUSH\", 1) up to 2.18 (paths.cc:403 @ "
    "v2.18.5-1) and 0 from 2.19.1 (paths.cc:405 @ v2.19.1-1): a GDR receive is flushed "
    "before compute capability 9.0 always, on Hopper and later only before NCCL 2.19.1.",
    key="")
NCCL_INIT = Source(
    "NVIDIA NCCL source, src/init.cc",
    "https://github.com/NVIDIA/nccl/blob/master/src/init.cc",
    "'#define DEFAULT_BUFFSIZE (1 << 22) /* 4MiB */': the Simple protocol's buffer per "
    "connection (NCCL_BUFFSIZE).", key="")
GCP_TCPXO = Source(
    "Google, nccl-plugin-gpudirect-tcpxo (the NCCL plugin of A3 Mega) @ 04815d1",
    "https://github.com/google/nccl-plugin-gpudirect-tcpxo",
    "tcpdirect_plugin/fastrak_offload/nccl_shim.cc reports 'props.latency = 0' to NCCL; "
    "tcpxo_scripts/nccl-env-profile.sh, Google's recommended settings, sets "
    "'NCCL_PROTO=Simple,LL128' (no LL).", key="")
GCP_TCPXO_RELEASES = Source(
    "Google, GPUDirect-TCPXO release notes (GoogleCloudPlatform/container-engine-accelerators, "
    "gpudirect-tcpxo/README.md) @ 685dca25",
    "https://github.com/GoogleCloudPlatform/container-engine-accelerators/blob/master/"
    "gpudirect-tcpxo/README.md",
    "Oct 18 and Nov 27, 2024 releases (compatible NCCL version: nccl-2.21.5), 'required nccl "
    "configs': 'NCCL_ALGO=Ring,Tree', 'NCCL_PROTO=Simple', 'NCCL_NVLS_ENABLE=0'; the May 01, "
    "2025 release makes LL128 the default ('NCCL_PROTO=Simple,LL128'); the Aug 21, 2025 "
    "release 'incorporates NVLSTree into the default configuration' ('The following have "
    "been removed: NCCL_NVLS_ENABLE=0, NCCL_ALGO=Ring,Tree').", key="")
NVLINK_BRIDGE = Source(
    "NVIDIA A100 PCIe and H100 NVL product briefs",
    "https://www.nvidia.com/en-us/data-center/h100/",
    "NVLink bridge between two PCIe cards: 600 GB/s (both directions added).", key="")
CUSTOM_NODE = Source(
    "derived in this book: the reader's own node (interlib.specs.custom.node)",
    "interlib/specs/custom.py",
    "Catalogue GPU and link rates with the reader's GPU count, GPU-to-GPU link, NIC count, "
    "NIC speed and fabric. With PCIe every GPU is assumed to get its full x16 link (no "
    "shared PCIe switch or root complex), which flatters PCIe. No such product is claimed.",
    key="")
# ------------------------------------------- the collective model, round 3 (issue 15)
NCCL_TUNING_229 = Source(
    "NVIDIA NCCL v2.29.2 source, src/graph/tuning.cc (ncclTopoGetAlgoTime)",
    "https://github.com/NVIDIA/nccl/blob/v2.29.2-1/src/graph/tuning.cc",
    "'if (algorithm == NCCL_ALGO_NVLS_TREE && coll == ncclFuncAllReduce && logSize >= 0 && "
    "logSize < 24 && comm->minCompCap >= 100 && comm->cpuArch == NCCL_TOPO_CPU_ARCH_X86) bw *= "
    "treeCorrectionFactor[protocol][logSize]' (logSize = log2(nBytes / 64)): on Blackwell "
    "GPUs with an x86 host, NVLSTree all-reduce below 1 GiB runs at the tree correction "
    "factor of its size; Simple row .9 .9 .9 .9 .9 .9 .9 .8 .7 .6 .6 .5 .5 .5 .5 .6 .7 .8 .7 "
    ".7 .8 .9 .9 .9. Release notes v2.29.2: 'Improves performance tuning of 256M-512M message "
    "sizes on Blackwell for AllReduce'. Not in v2.27.7 or v2.28.9.", key="")
BEKMAN_ALLREDUCE_BENCH = Source(
    "Bekman, ML Engineering Open Book, network/benchmarks/all_reduce_bench.py (history)",
    "https://github.com/stas00/ml-engineering/blob/master/network/benchmarks/all_reduce_bench.py",
    "As of commit 280ef22 (2026-07-31), the version current when the P6-B200 table of "
    "network/README.md was published (commit cbbf431, 2026-08-02), each trial is "
    "'dist.barrier(); start_event.record(); dist.all_reduce(tensor); end_event.record()': one "
    "call timed on an idle device. The later docstring: 'each trial keeps the device busy ... "
    "so PyTorch's per-call host overhead of some 20-30us is hidden'; '--with-host-overhead "
    "... time 1 all-reduce per trial on an idle device instead, which adds the per-call host "
    "overhead to every call'.", key="")
# ------------------------------- the 2026 edition (issue 28): current hardware, NCCL 2.27+
INTEL_PCIE_OVERHEAD = Source(
    "Intel AN 855: PCI Express High Performance Reference Design, 1.1.1 Protocol Overhead",
    "https://www.intel.com/content/www/us/en/docs/programmable/683504/current/"
    "protocol-overhead.html",
    "Each TLP carries start and end framing, a sequence ID, a three- or four-dword header "
    "and the LCRC: 'The overhead is six dwords if the optional ECRC is not included' (4-DW "
    "header). DLLPs (ACK/NAK, flow control) and SKP ordered sets take further bandwidth.",
    key="intelpcieoverhead")
PCISIG_FLIT = Source(
    "PCI-SIG, The PCIe 6.0 Specification Webinar Q&A: FLIT mode, PAM4 and FEC",
    "https://pcisig.com/node/10944",
    "FLIT encoding: each 256-byte flit is protected by a CRC and a 3-way interleaved FEC; "
    "NAK and replay are per flit. Layout (PCI-SIG talks, Lockwood): 236 B TLP + 6 B DLP + "
    "8 B CRC + 6 B FEC; TLPs no longer carry their own framing, sequence number or LCRC.",
    key="pcisigflit")
IEEE_8023DJ = Source(
    "IEEE P802.3dj, 200 Gb/s, 400 Gb/s, 800 Gb/s and 1.6 Tb/s Ethernet (objectives "
    "2024-03-14; 200 Gb/s per lane)",
    "https://www.ieee802.org/3/dj/projdoc/objectives_P802d3dj_240314.pdf",
    "200 Gb/s per lane electrical and optical PMDs: 106.25 GBd PAM4, 212.5 Gb/s on the lane "
    "for 200 Gb/s of data after 256b/257b transcoding and RS(544,514) FEC (the same 17/16 "
    "as 100 Gb/s lanes).", key="ieee8023dj")
CX8_DIRECT_NIC = Source(
    "NVIDIA ConnectX-8 SuperNIC firmware release notes v40.44.0208 (initial release)",
    "https://docs.nvidia.com/networking/display/connectx8firmwarev40440208/"
    "changes+and+new+features",
    "'supports 800Gb/s or XDR IB or 2 x 400GbE link speeds. Note: 800GbE link speed is not "
    "supported on a single port.' (The 40.44.1036 notes repeat it in their feature history; "
    "the later notes read, 40.45.1200, 40.46.3048 and the 2025 LTS 40.47.1088/2682, neither "
    "repeat nor lift it.) 'Direct NIC-GPU Datapath: To read/write data "
    "directly from the GPU and to overcome grace CPU PCIe bandwidth issue a direct NIC-GPU "
    "datapath is required ... the HCA exposes a side DMA engine as an additional PCIe "
    "function which is called Data Direct.'", key="cx8firmware")
HOTCHIPS_CX8 = Source(
    "NVIDIA ConnectX-8 SuperNIC at Hot Chips 2025, as reported by ServeTheHome and "
    "Wccftech (2025-08-26)",
    "https://wccftech.com/nvidia-connectx-8-supernic-designed-for-blackwell-systems-pcie-"
    "g6-800gbe-speed/amp",
    "48 lanes of PCIe Gen6 behind a built-in PCIe Gen6 switch. 'GB300 NVL72 is the first "
    "deployment of the PCIe Gen6 SuperNIC': a Gen5 x16 link to the Grace CPU, a Gen6 x16 "
    "link to the B300 GPU, a Gen5 x4 link to an SSD.", key="hotchipscx8")
NCCL_RELEASE_NOTES = Source(
    "NVIDIA NCCL release notes (commit messages of the release tags, NVIDIA/nccl)",
    "https://github.com/NVIDIA/nccl/releases",
    "2.24.3 (2024-12-18): RAS subsystem and ncclras. 2.27.3 (2025-05-29): symmetric memory "
    "(ncclCommWindowRegister, NCCL_WIN_COLL_SYMMETRIC) and symmetric kernels; DirectNIC (CX8); "
    "ncclCommShrink; NVLS+IB SHARP for AllGather and ReduceScatter; MNNVL fails by default "
    "when IMEX is misconfigured. 2.27.6 (2025-07-11): XDR speed detection. 2.28.3 "
    "(2025-09-02): device API (LSA, Multimem, GIN framework), CE collectives, ncclAlltoAll. "
    "2.28.7 (2025-10-17): GPU-Initiated Networking, ncclCommRevoke. 2.29.2 (2025-12-23): "
    "ncclCommGrow, one-sided host APIs.", key="ncclrelnotes")
NCCL_227_BLOG = Source(
    "NVIDIA technical blog, Enabling Fast Inference and Resilient Training with NCCL 2.27 "
    "(2025)",
    "https://developer.nvidia.com/blog/enabling-fast-inference-and-resilient-training-with-"
    "nccl-2-27/",
    "Symmetric memory kernels 'significantly reduce latency for all message sizes, resulting "
    "in up to 9x reduction in latency for small message sizes'; direct NIC support; NVLink "
    "and InfiniBand SHARP; ncclCommShrink.", key="nccl227blog")
NCCL_PORT_FAILOVER = Source(
    "NVIDIA NCCL v2.29.7 source, src/transport/net_ib/p2p_resiliency.cc",
    "https://github.com/NVIDIA/nccl/blob/v2.29.7-1/src/transport/net_ib/p2p_resiliency.cc",
    "NCCL_PARAM(IbResiliencyPortFailover, \"IB_RESILIENCY_PORT_FAILOVER\", 0): off by "
    "default. On a retry-exceeded or flush completion error it replaces the failed device's "
    "QPs on the remaining devices and replays; 'No functional devices left' is fatal.",
    key="ncclsource229")
NCCL_MNNVL_SRC = Source(
    "NVIDIA NCCL v2.29.7 source, src/mnnvl.cc (ncclMnnvlCheck)",
    "https://github.com/NVIDIA/nccl/blob/v2.29.7-1/src/mnnvl.cc",
    "MNNVL needs every rank's NVML fabric state COMPLETED; the clique is the ranks with the "
    "same cluster UUID and clique ID; then 'Check that FABRIC handles can be exported & "
    "imported by IMEX' (cuMemExportToShareableHandle with CU_MEM_HANDLE_TYPE_FABRIC); on "
    "failure: 'Check the IMEX channel configuration (/dev/nvidia-caps-imex-channels)'.",
    key="ncclsource229")
IMEX_GUIDE = Source(
    "NVIDIA IMEX Service for NVLink Networks, user guide (2025)",
    "https://docs.nvidia.com/multi-node-nvlink-systems/imex-guide/",
    "IMEX channels: 'a GPU driver feature that allows for user-based memory isolation ... "
    "Users are expected to create the IMEX channels ... Failure to do so will result in "
    "dependent CUDA APIs failing'. 'The IMEX service must be initiated and initialized "
    "before launching CUDA applications', configured with every node's address.",
    key="nvidiaimex")
QUANTUM_X800 = Source(
    "NVIDIA Spectrum-X Photonics and Quantum-X Photonics switches (GTC 2025-03-18), as "
    "reported by Converge Digest",
    "https://convergedigest.com/nvidia-debuts-spectrum-x-and-quantum-x-photonics-switches/",
    "Quantum-X800 / Quantum-X Photonics InfiniBand: 144 ports of 800 Gb/s (200 Gb/s SerDes), "
    "115 Tb/s, SHARP v4 in-network computing; the photonics (co-packaged optics) version "
    "liquid-cooled. Spectrum-X Photonics Ethernet: 128 x 800G (102.4 Tb/s) or 512 x 800G "
    "(409.6 Tb/s).", key="nvidiacpo")
GTC2024_XDR = Source(
    "NVIDIA GTC 2024 press release (NVIDIA Announces New Switches Optimized for "
    "Trillion-Parameter GPU Computing and AI Infrastructure, 2024-03-18)",
    "https://nvidianews.nvidia.com/news/networking-switches-gpu-computing-ai",
    "Quantum-X800 InfiniBand and Spectrum-X800 Ethernet, 'the world's first networking "
    "platforms capable of end-to-end 800Gb/s throughput'; the Quantum Q3400 switch and the "
    "ConnectX-8 SuperNIC. (FiberMall's report of GTC 2024 says the same.)", key="")
AZURE_GB300_X800 = Source(
    "Microsoft Azure blog, Microsoft Azure delivers the first large scale cluster with "
    "NVIDIA GB300 NVL72 for OpenAI workloads (2025-10-09)",
    "https://azure.microsoft.com/en-us/blog/microsoft-azure-delivers-the-first-large-scale-"
    "cluster-with-nvidia-gb300-nvl72-for-openai-workloads/",
    "'The new NDv6 GB300 virtual machine (VM) series features more than 4,600 NVIDIA "
    "Blackwell Ultra GPUs connected via the Quantum-X800 InfiniBand platform' ... '800 Gbps "
    "per-GPU bandwidth'.", key="")
CPO_AVAILABILITY = Source(
    "NVIDIA technical blog, Scaling AI Factories with Co-Packaged Optics for Better Power "
    "Efficiency (Seyedi, 2025-08-18)",
    "https://developer.nvidia.com/blog/scaling-ai-factories-with-co-packaged-optics-for-"
    "better-power-efficiency/",
    "Quantum-X Photonics: '115 Tb/s of switching capacity, supporting 144 ports at 800 Gb/s "
    "each'; '14.4 teraflops of in-network computing with the fourth generation of NVIDIA "
    "Scalable Hierarchical Aggregation Reduction Protocol (SHARP)'. Spectrum-X Photonics: "
    "'Spectrum SN6810: 102.4 Tb/s bandwidth with 128 ports at 800 Gb/s', 'Spectrum SN6800: "
    "409.6 Tb/s bandwidth with a remarkable 512 ports at 800 Gb/s'. Pluggable paths lose 'up "
    "to 22 dB for 200 gigabit-per-second channels' and draw 'often 30W per interface'; CPO "
    "'~4 dB' and 'as low as 9W'; '10x higher resiliency'. 'With commercial availability for "
    "NVIDIA Quantum-X InfiniBand switches set for early 2026 and Spectrum-X Ethernet switches "
    "in the second half of 2026'.", key="nvidiacpo")
GAUDI3_NETWORK = Source(
    "Intel Gaudi documentation, Intel Gaudi Network Configuration",
    "https://docs.habana.ai/en/latest/Management_and_Monitoring/Network_Configuration/"
    "index.html",
    "'Each Intel Gaudi 3 AI accelerator has 21 scale-up ports and three scale-out ports "
    "running at 200Gbps'; 3 scale-up ports to each of the 7 other Gaudi 3 of an HLS-3 box; "
    "'21*25 GB/s = 525 GB/s unidirectional' scale-up, '3*200Gbps = 75 GB/s in each "
    "direction' scale-out per Gaudi, 600 GB/s per box.", key="gaudi3net")
TPU_V5P = Source(
    "Google Cloud TPU documentation, TPU v5p",
    "https://docs.cloud.google.com/tpu/docs/v5p",
    "'A TPU v5p Pod is composed of 8960 chips interconnected with reconfigurable high-speed "
    "links'; 'The largest job that can be scheduled is a 96 cube (6144 chip) job'; 'The "
    "maximum v5p shape is 16x16x24 (6144 chips, 96 cubes)'; a cube is 4x4x4 = 64 chips; "
    "'All 4x4x4 and larger slices (one cube) have full 3D t[orus]'; HBM bandwidth per chip "
    "2765 GBps; 'Bidirectional inter-chip interconnect (ICI) bandwidth per chip (GBps) "
    "1200'; data center network (DCN) 50 Gbps per chip.", key="tpuv5p")
TRAINIUM_DOCS = Source(
    "AWS Neuron documentation, Trainium2 and Trainium3 architecture; training best "
    "practices",
    "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.1/_sources/about-neuron/arch/"
    "neuron-hardware/trainium3.rst",
    "Trainium2: 4 NeuronLink-v3 per chip; a trn2.48xlarge's 16 chips in a 4 x 4 torus, "
    "EFA between instances; Trn2 UltraServers join instances over NeuronLink. Trainium3: "
    "'NeuronLink-v4 ... provides 2.56 TB/sec bandwidth per device' (direction not stated).",
    key="awsneuron")
MLPERF_AMD = Source(
    "MLCommons MLPerf Inference results, AMD system descriptions (8 x MI300X, MI355X)",
    "https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/closed/AMD/"
    "systems/8xMI300X_2xEPYC-9374F.json",
    "\"accelerators_per_node\": 8, \"accelerator_interconnect\": \"XGMI\", "
    "\"accelerator_host_interconnect\": \"PCIe Gen5 x16\"; MI355X 288 GB HBM3e (v6.0).",
    key="mlperfamd")
UALINK_10 = Source(
    "UALink Consortium, UALink 200G 1.0 Specification white paper (v3, April 2025; "
    "specification released 2025-04-08)",
    "https://ualinkconsortium.org/wp-content/uploads/2025/04/UALink-1.0-White_Paper_v3.pdf",
    "The UALink 200G 1.0 specification: a 200 Gb/s-per-lane link built on the IEEE P802.3dj "
    "PHY (212.5 GT/s signalling), x1, x2 or x4 ports; UALink Switches connect up to 1,024 "
    "accelerators in a pod, each with a 10-bit routing identifier, one switch port per "
    "accelerator; load/store memory semantics. (Tom's Hardware's report of the release adds "
    "'a four-lane link achieving up to 800 GT/s in both transmit and receive directions'; "
    "The Register, 2026-04: UALink 2.0 published, 1.0 silicon in labs in the second half "
    "of 2026, products in 2027.)", key="ualink")
NVLINK_FUSION = Source(
    "NVIDIA press release, NVIDIA NVLink Fusion for semi-custom AI infrastructure "
    "(Computex 2025, 2025-05-19 Taipei)",
    "https://nvidianews.nvidia.com/news/nvidia-nvlink-fusion-semi-custom-ai-infrastructure-"
    "partner-ecosystem",
    "NVLink-C2C and NVLink IP for third-party CPUs and accelerators (semi-custom AI "
    "infrastructure); partners named (MediaTek, Marvell, Alchip, Fujitsu, Qualcomm).",
    key="nvlinkfusion")
VERA_RUBIN = Source(
    "NVIDIA technical blog, Inside the NVIDIA Rubin Platform: Six New Chips, One AI "
    "Supercomputer (CES 2026)",
    "https://developer.nvidia.com/blog/inside-the-nvidia-rubin-platform-six-new-chips-one-"
    "ai-supercomputer/",
    "Vera Rubin NVL72: 72 Rubin GPUs and 36 Vera CPUs in one rack-scale NVLink domain; six "
    "co-designed chips (Vera CPU, Rubin GPU, NVLink 6 Switch, ConnectX-9 SuperNIC, "
    "BlueField-4 DPU, Spectrum-6 Ethernet switch); NVLink 6: 3.6 TB/s per GPU (both "
    "directions added, twice Blackwell's 1.8 TB/s), 260 TB/s across the NVL72 rack's nine "
    "NVLink 6 switch trays; NVLink-C2C 1.8 TB/s; ConnectX-9 SuperNIC: 1.6 Tb/s of scale-out "
    "bandwidth per GPU; 'NVLink 6 allows 72 GPUs to behave as one "
    "coherent accelerator inside the rack' (NVIDIA later clarified: peer access with "
    "software-managed synchronisation, not hardware cache coherence). Rubin GPU memory: 'Up "
    "to 288 GB of HBM4 per GPU; Aggregate bandwidth of up to 22 TB/s'. (Blog text read in a "
    "web clipping of the page, 2026-01-06.) Production targeted for the second half of 2026 "
    "(secondary reports).", key="verarubin")
VERA_RUBIN_TUNING = Source(
    "NVIDIA, Vera-Rubin NVL72 performance tuning guide (docs.nvidia.com, last updated "
    "2026-11-09)",
    "https://docs.nvidia.com/dccpu/vera-mn-perf-tuning-guide/measuring-performance.html",
    "Tuning and benchmarking guidance for Vera-Rubin NVL72 systems (platform overview, "
    "networking, NCCL, power and thermals; 'Performance measurements on Vera-Rubin NVL72 "
    "should be reproducible at the tray, partial-rack, and full-rack levels'). "
    "Documentation for the system; it gives no shipment date.", key="verarubintuning")
NCCL_2326 = Source(
    "NVIDIA, NCCL 2.32.6 release notes (GitHub release v2.32.6-1, 2026-11-09)",
    "https://github.com/NVIDIA/nccl/releases/tag/v2.32.6-1",
    "'Adds a pipeline-based cost model with Vera Rubin tuning data for Ring, Tree, NVLS, and "
    "NVLSTree'; 'Speeds up the topology graph search on large NVLink domains such as 32 to "
    "40 GPU VR200 systems'. Not read as source here: the book's tuning.cc figures are from "
    "NCCL 2.30.7 (master 5067397). NCCL 2.30.7's tuner constants equal v2.29.7-1's but for "
    "one (sources.NCCL_TUNING_2303): Blackwell's per-channel NVLSTree cap on 3 or more nodes, "
    "perChMaxNVLSTreeBws '{0.0, 96.0, 43.8}' in v2.29.7-1 and '{0.0, 96.0, 80.0}' from "
    "v2.30.3-1; the book has not compared 2.32.6's.", key="nccl2326")
VERA_RUBIN_NAMING = Source(
    "NVIDIA GTC 2025 keynote roadmap, as reported by HotHardware (copy on sipoch.com)",
    "https://www.sipoch.com/en/articles/300330019909058",
    "'NVIDIA's next-gen parts are going to be called Vera Rubin NVL144 ... for the next "
    "generation they're going to start counting the NVL number by the number of individual "
    "GPU dice' (two per package).", key="verarubin")
GB300_DGX_NOTES = Source(
    "NVIDIA DGX GB300 NVL72 release notes, Multi-Node System Software Stack Package "
    "Contents (release 1.0.6)",
    "https://docs.nvidia.com/dgx/dgxgb300nvl72-release-notes/package-contents.html",
    "Host software tested with DGX GB300: GPU driver and IMEX 580.126.20; ConnectX-8 "
    "firmware 40.47.2526 on the compute trays.", key="")
HGX_B300 = Source(
    "NVIDIA HGX B300 (Blackwell Ultra) platform specifications, as reproduced by "
    "FiberMall and ServeTheHome (2025)",
    "https://www.fibermall.com/blog/nvidia-hgx-b300-overview.htm",
    "8 Blackwell Ultra GPUs (briefly named 'HGX B300 NVL16', counting dies), NVLink 5 "
    "through NVLink Switch, 14.4 TB/s total NVLink bandwidth, networking 1.6 TB/s (8 x 800 "
    "Gb/s counted both ways) from eight ConnectX-8 on the GPU baseboard, up to 2.3 TB HBM3e; "
    "FP16/BF16 Tensor Core 36 PFLOPS with sparsity (as HGX B200).",
    key="")
GB200_SUPERCHIP_C2C = Source(
    "NVIDIA's GB200 superchip description (GB200 NVL72 materials), as quoted by Boston "
    "Limited, NVIDIA Blackwell architecture (2025-10-30)",
    "https://boston-uk-l-preview.azurewebsites.net/blog/2025/10/30/nvidia-blackwell-"
    "architecture.aspx",
    "One Grace CPU and two Blackwell GPUs per GB200 superchip; 'NVLink-C2C ... 900 GB/s per "
    "connection in current GB200 designs' (both directions added, as for GH200). No source "
    "here gives the share of one GPU.", key="")
# ------------------------- the 2026.2 edition (issue 39): corrections and the fabrics of 2026
NCCL_TREE_SRC = Source(
    "NVIDIA NCCL v2.30.7 source, src/graph/trees.cc (ncclGetBtree, ncclGetDtree), "
    "src/graph/connect.cc (ncclTopoPreset, connectTrees) and src/graph/tuning.cc",
    "https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/connect.cc",
    "connectTrees: 'ncclGetDtree(nNodes, node, ...)': the two binary trees are built over "
    "nodes; ncclTopoPreset chains the GPUs of each node (tree.up = treeIntra[i - 1], "
    "tree.down[0] = treeIntra[i + 1]); 'int depth = comm->nRanks / nNodes - 1 + "
    "log2i(nNodes)' ('Not an exact value but a good approximation'); tuning.cc: tree "
    "latency 'base + 2 * ((nRanks / nNodes - 1) * intraLat + log2i(nNodes) * interLat)'.",
    key="ncclsource")
NCCL_TUNING_2303 = Source(
    "NVIDIA NCCL source, src/graph/tuning.cc at v2.29.7-1, v2.30.3-1 and v2.30.7-1 (the "
    "tuner-constant tables compared)",
    "https://github.com/NVIDIA/nccl/blob/v2.30.3-1/src/graph/tuning.cc",
    "Every tuner constant of v2.30.7-1 equals v2.29.7-1's but one: perChMaxNVLSTreeBws, "
    "Blackwell row, '{0.0, 96.0, 43.8} /* Blackwell (N1/N2/N4) */' in v2.29.7-1 became "
    "'{0.0, 96.0, 80.0}' in v2.30.3-1 (unchanged in v2.30.7-1). The third column applies "
    "from 3 nodes ('int index2 = nNodes <= 2 ? nNodes - 1 : 2'), whatever the comment's N4 "
    "says.", key="")
NCCL_COLLNET_AGRS = Source(
    "NVIDIA NCCL 2.20.3-1 release notes (tag message of v2.20.3-1, 2024-02-13)",
    "https://github.com/NVIDIA/nccl/releases/tag/v2.20.3-1",
    "'Add support for ReduceScatter and AllGather using Collnet.' (CollNet is NCCL's path to "
    "in-network reduction through a network plugin, InfiniBand SHARP with NVIDIA's plugin.) "
    "2.27.3-1: 'Implement NVLS+IB SHARP support for AllGather and ReduceScatter with user "
    "buffer registration.'", key="ncclrelnotes")
NCCL_INSPECTOR = Source(
    "NVIDIA NCCL Inspector plugin, plugins/profiler/inspector/README.md (ext-profiler/"
    "inspector in NCCL 2.28.3-1, where it first appears)",
    "https://github.com/NVIDIA/nccl/tree/master/plugins/profiler/inspector",
    "'per-communicator, per-collective performance and metadata logging ... structured JSON "
    "output for each operation'; enabled with NCCL_PROFILER_PLUGIN=.../libnccl-profiler-"
    "inspector.so and NCCL_INSPECTOR_ENABLE=1; each record gives the collective, its "
    "sequence number, message size, execution time, algbw and busbw (coll_algobw_gbs, "
    "coll_busbw_gbs) and the timing source (coll_timing_source: kernel_gpu, or a CPU-timed "
    "fallback). Release notes 2.28.3: 'an Inspector plugin for always-on performance "
    "monitoring'. Added later (git grep over the release tags): NCCL_INSPECTOR_PROM_DUMP=1, "
    "Prometheus metrics (nccl_bus_bandwidth_gbs ...) instead of JSON, first in v2.29.3-1 "
    "(ext-profiler/inspector/README.md); NCCL_INSPECTOR_REQUIRE_KERNEL_TIMING, 'default: 1 "
    "... only events with GPU-based kernel timing (kernel_gpu) are recorded', first in "
    "v2.30.3-1 (plugins/profiler/inspector/README.md:101).", key="ncclinspector")
NCCL_TESTS_JSON = Source(
    "NVIDIA nccl-tests README and src/util.cu: JSON output (-J), added in v2.17.3 "
    "(2025-10-17)",
    "https://github.com/NVIDIA/nccl-tests/blob/master/README.md",
    "'-J,--output_file <file> Write [JSON] output to filepath. Infer type from suffix (only "
    "json supported presently).' The file records the command line, the environment, the "
    "NCCL version, every rank's host and device, and per message size alg_bw, bus_bw, "
    "nwrong and timing statistics (min/max/avg, p50/p95/p99 with -I), then the average bus "
    "bandwidth (src/util.cu).", key="nccltestsjson")
NCCL_PLANES = Source(
    "NVIDIA NCCL source at v2.30.3-1 and v2.30.7-1: the v12 net plugin interface "
    "(railId, planeId), src/graph/search.cc and src/graph/topo.cc; NCCL 2.32.3-1 release "
    "notes",
    "https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/search.cc",
    "v2.30.3-1 (2026-04-14): net_v12.h:45 'int16_t planeId; // plane ID associated with the "
    "netdev' is new, but the core does not use it (no planeId in src/graph; the IB plugin "
    "sets 'props->planeId = NCCL_NET_ID_UNDEF', init.cc:490). v2.30.7-1 (2026-06-04): "
    "search.cc:596 'always forbid connections between different networking planes (if both "
    "planes are defined)'; topo.cc:428 reads the plugin's plane into the topology; the IB "
    "plugin takes a plane from the user's NCCL_IB_HCA list (init.cc:437). 2.32.3-1: 'Adds "
    "initial Rubin platform support including support for sm107, CX9 rail and plane "
    "detection'.", key="ncclsource")
GB300_FIRST_RACKS = Source(
    "CoreWeave press release (CoreWeave Becomes First Hyperscaler to Deploy NVIDIA GB300 "
    "NVL72 Platform, 2025-07-03)",
    "https://www.coreweave.com/news/coreweave-becomes-first-hyperscaler-to-deploy-nvidia-"
    "gb300-nvl72-platform",
    "CoreWeave announced on 2025-07-03 the first deployment of NVIDIA GB300 NVL72 systems "
    "for customers, racks built by Dell (PowerEdge XE9712), with Switch and Vertiv. The "
    "press release's text was not retrievable here; its date and the Dell delivery are as "
    "reported (e.g. 'Shipments began with Dell delivering the first production unit to "
    "CoreWeave in July 2025'), and Azure's first GB300 cluster followed in October 2025 "
    "(sources.AZURE_GB300_X800).", key="coreweavegb300")
BLACKWELL_ULTRA_BLOG = Source(
    "NVIDIA technical blog, Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory "
    "Era (2025)",
    "https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-"
    "ai-factory-era/",
    "Blackwell Ultra: two reticle-sized dies joined by NV-HBI (10 TB/s), 208B transistors, "
    "160 SMs; 288 GB of HBM3E per GPU in 8 stacks, 8 TB/s per GPU; fifth-generation NVLink "
    "(1.8 TB/s per GPU, both directions); PCIe Gen 6 host interface.", key="")
TPU_V4_OCS = Source(
    "Jouppi et al., TPU v4: An Optically Reconfigurable Supercomputer for Machine Learning "
    "with Hardware Support for Embeddings (ISCA 2023, arXiv:2304.01433)",
    "https://arxiv.org/abs/2304.01433",
    "'Optical circuit switches (OCSes) dynamically reconfigure its interconnect topology to "
    "improve scale, availability, utilization, modularity, deployment, security, power, and "
    "performance; users can pick a twisted 3D torus topology if desired.' The pod is built "
    "from 4x4x4 blocks of 64 chips whose faces connect through the OCSes.",
    key="jouppi2023tpuv4")
AMD_ROCM_MI300 = Source(
    "AMD ROCm documentation, AMD Instinct MI300 series microarchitecture (docs/conceptual/"
    "gpu-arch/mi300.md, ROCm/ROCm @ e396b48)",
    "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html",
    "'The GPUs are using seven high-bandwidth, low-latency AMD Infinity Fabric links (red "
    "lines) to form a fully connected 8-GPU system'; host links PCIe Gen 5 x16; 'The "
    "theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per second.'",
    key="amdmi300")
AMD_XGMI_DRIVER = Source(
    "Linux kernel, drivers/gpu/drm/amd/amdgpu/amdgpu_xgmi.c (AMD's amdgpu driver, "
    "amdgpu_xgmi_early_init and amdgpu_xgmi_get_max_bandwidth, 2025)",
    "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdgpu/amdgpu_xgmi.c",
    "'case IP_VERSION(9, 4, 3): case IP_VERSION(9, 4, 4): case IP_VERSION(9, 5, 0): /* 32 "
    "GT/s */ adev->gmc.xgmi.max_speed = 32; adev->gmc.xgmi.max_width = 16;' and 'Gets the "
    "max possible bandwidth of a single XGMI link of the device in Mbps', speed x width, "
    "'unidirectional'. GC 9.4.3 is MI300X/MI300A, 9.4.4 MI325X, 9.5.0 MI350X/MI355X.",
    key="amdxgmidriver")
AMD_GIM_XGMI = Source(
    "AMD MxGPU-Virtualization (GIM) 8.5.0.K release notes (AMD)",
    "https://github.com/amd/MxGPU-Virtualization/releases/tag/8.5.0.K",
    "'Infinity Fabric (XGMI) Configuration': 'between 8 GPUs' for AMD Instinct MI355X, "
    "MI350X, MI325X and MI300X.", key="")
AMD_HELIOS = Source(
    "AMD ROCm blog, Introducing AMD CDNA 5 and the AMD Helios Rackscale Solution "
    "(2026-08-04)",
    "https://rocm.blogs.amd.com/ecosystems-and-partners/cdna5-helios/README.html",
    "72 AMD Instinct MI455X GPUs (432 GB HBM4 each) and 18 EPYC 'Venice' CPUs per rack; "
    "'Within the rack, Ultra Accelerator Link over Ethernet (UALoE) delivers up to 260 TB/s "
    "of scale-up bandwidth'; 'Normal operation: up to 3.6 TB/s (bi-directional) per GPU'; "
    "'a single-hop, multi-plane UALink over Ethernet (UALoE) scale-up fabric: all 72 GPUs "
    "reach each other through 12 UALoE switches across 6 switch trays'; 'industry-standard "
    "Ethernet, delivering up to 43 TB/s scale-out bandwidth'; UEC and 'the Open ESUN "
    "framework' across racks. (AMD first previewed Helios at Advancing AI, 2025-06-12, as "
    "reported by Tom's Hardware.)", key="amdhelios")
TRAINIUM2_DOCS = Source(
    "AWS Neuron documentation, Trainium2 Architecture (about-neuron/arch/neuron-hardware/"
    "trainium2)",
    "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-"
    "hardware/trainium2.html",
    "'NeuronLink-v3 for device-to-device interconnect provides 1.28 TB/sec bandwidth per "
    "device'; 'Inter-chip Interconnect (GB/sec/device)' 384 (Trainium) and 1280 "
    "(Trainium2); '96 GiB of device memory with 2.9 TB/sec of bandwidth'; memory pool 'Up "
    "to 64 devices'. The direction of the NeuronLink figure is not stated.",
    key="awsneuron")
GAUDI3_WHITEPAPER = Source(
    "Intel Gaudi 3 AI Accelerator white paper, as quoted in Intel's newsroom and Gaudi "
    "documentation",
    "https://www.intel.com/content/www/us/en/content-details/817486/intel-gaudi-3-ai-"
    "accelerator-white-paper.html",
    "Gaudi 3: 128 GB HBM2e, 3.7 TB/s of memory bandwidth; 24 x 200 Gb Ethernet RDMA (RoCE "
    "v2) NICs integrated on the chip. (The 3.7 TB/s figure was read in reproductions of the "
    "white paper's table, not in the PDF itself.)", key="gaudi3net")
PCIE7_RELEASE = Source(
    "PCI-SIG, PCIe 7.0 Specification Now Available to PCI-SIG Members (2025-06-11)",
    "https://pcisig.com/pcie-70-specification-now-available-pci-sig-members",
    "PCIe 7.0: 'Delivers 128.0 GT/s raw bit rate and up to 512 GB/s bi-directionally via x16 "
    "configuration'; 'Utilizes PAM4 (Pulse Amplitude Modulation with 4 levels) signaling and "
    "Flit-based encoding'; backwards compatible. Released 2025-06-11; PCIe 8.0 pathfinding "
    "begun.", key="pcie7")
CXL_CONSORTIUM = Source(
    "CXL Consortium, CXL Consortium Releases the Compute Express Link 4.0 Specification "
    "Increasing Speed and Bandwidth (press release, 2025-11-18)",
    "https://computeexpresslink.org/",
    "CXL 4.0: 'Doubles the bandwidth to 128GTs with zero added latency'; 'Maintains "
    "previously enabled CXL 3.x protocol enhancements with the 256B Flit format'; bundled "
    "ports; backward compatible with CXL 3.x, 2.0, 1.1 and 1.0. CXL carries its coherent "
    "protocols (CXL.io, CXL.cache, CXL.mem) on the PCIe physical layer: CXL 3.x at 64 GT/s "
    "(PCIe 6.x), CXL 4.0 at 128 GT/s (PCIe 7.0).",
    key="cxl")
ESUN_OCP = Source(
    "Open Compute Project, Ethernet for Scale-Up Networking (ESUN) workstream, launched at "
    "the OCP Global Summit (2025-10-13), with Broadcom's Scale-Up Ethernet (SUE) framework "
    "contributed as SUE-Transport",
    "https://www.opencompute.org/blog/introducing-esun-advancing-ethernet-for-scale-up-ai-"
    "infrastructure-at-ocp",
    "ESUN: an open forum 'to advance Ethernet in the rapidly growing scale-up domain for AI "
    "systems', initial focus 'L2/L3 Ethernet framing and switching', lossless transfer and "
    "error handling for single- and multi-hop topologies; founding participants AMD, "
    "Arista, ARM, Broadcom, Cisco, HPE Networking, Marvell, Meta, Microsoft, NVIDIA, OpenAI "
    "and Oracle; it complements OCP's SUE-Transport (SUE-T) work on XPU endpoints. (Wording "
    "as Broadcom's and OCP's announcements were reproduced by ELE Times and Converge Digest.)",
    key="esun")
SPECTRUM_XGS = Source(
    "NVIDIA press release, NVIDIA Introduces Spectrum-XGS Ethernet to Connect Distributed "
    "Data Centers Into Giga-Scale AI Super-Factories (2025-08-22)",
    "https://nvidianews.nvidia.com/news/nvidia-introduces-spectrum-xgs-ethernet-to-connect-"
    "distributed-data-centers-into-giga-scale-ai-super-factories",
    "'a scale-across technology for combining distributed data centers into unified, "
    "giga-scale AI super-factories'; 'auto-adjusted distance congestion control, precision "
    "latency management and end-to-end telemetry'; 'nearly doubles the performance of the "
    "NVIDIA Collective Communications Library' across sites; CoreWeave among the first "
    "adopters. Delivered as software and firmware on Spectrum-X switches and ConnectX "
    "SuperNICs.", key="spectrumxgs")
DEEPSEEK_MPFT = Source(
    "Zhao et al. (DeepSeek-AI), Insights into DeepSeek-V3: Scaling Challenges and "
    "Reflections on Hardware for AI Architectures (ISCA 2025, arXiv:2505.09343), section 4",
    "https://arxiv.org/abs/2505.09343",
    "Multi-Plane Fat-Tree (MPFT): eight GPUs and eight 400 Gb/s InfiniBand NICs per node, "
    "'each GPU-NIC pair assigned to a distinct network plane'; each plane a two-layer "
    "fat-tree of 64-port 400G switches, 'theoretically supporting up to 16,384 GPUs'; "
    "ideally 'each NIC has multiple physical ports, each connected to a separate network "
    "plane', one queue pair spraying across them, which needs out-of-order placement in "
    "the NIC; 'InfiniBand ConnectX-8 natively supports four planes'.", key="deepseekmpft")
NVIDIA_HWPLB = Source(
    "NVIDIA Network Operator v26.10.0 documentation, Spectrum-X NIC configuration",
    "https://docs.nvidia.com/networking/display/kubernetes26100/spectrum-x/spectrum-x-"
    "configuration.html",
    "'Spectrum-X configuration applies to ConnectX-7 NIC, ConnectX-8 SuperNIC, ConnectX-9 "
    "SuperNIC, and BlueField-3 SuperNIC; Hardware Plane Load Balancing (hwplb) additionally "
    "requires ConnectX-8 SuperNIC or ConnectX-9 SuperNIC.' RA3.1 for Vera Rubin.", key="")
IEEE_8023DJ_PROJECT = Source(
    "IEEE P802.3dj Task Force (200 Gb/s, 400 Gb/s, 800 Gb/s and 1.6 Tb/s Ethernet), project "
    "page and timeline",
    "https://www.ieee802.org/3/dj/",
    "MAC data rates of 200 Gb/s, 400 Gb/s, 800 Gb/s and 1.6 Tb/s over 200 Gb/s lanes "
    "(electrical and optical); the 1.6T and 200G-per-lane objectives were split from "
    "P802.3df in November 2022; the adopted timeline aims at a completed standard in 2026.",
    key="ieee8023dj")
TRN3_GA = Source(
    "AWS What's New, Amazon EC2 Trn3 UltraServers now generally available (2025-12-02)",
    "https://aws.amazon.com/about-aws/whats-new/2025/12/amazon-ec2-trn3-ultraservers/",
    "'AWS announces the general availability of Amazon Elastic Compute Cloud (Amazon EC2) "
    "Trn3 UltraServers powered by our fourth-generation AI chip Trainium3 ... 144 GB of "
    "HBM3e memory, and 4.9 TB/s of memory bandwidth ... Trn3 UltraServers can scale up to "
    "144 Trainium3 chips ... feature the NeuronSwitch-v1, an all-to-all fabric that doubles "
    "interchip interconnect bandwidth over Trn2 UltraServer.'", key="awsneuron")
# ------------------- the 2026.2 edition: expert-review fixes to the catalogue (R1-R14, F1-F17)
P100_WHITEPAPER = Source(
    "NVIDIA Tesla P100 whitepaper, NVIDIA Tesla P100: The Most Advanced Datacenter "
    "Accelerator Ever Built (2016), section 4 and Appendix A",
    "https://images.nvidia.com/content/pdf/tesla/whitepaper/pascal-architecture-whitepaper.pdf",
    "'NVHS transmits data over a differential pair running at up to 20 Gb/sec. Eight of these "
    "differential connections form a Sub-Link that sends data in one direction, and two "
    "sub-links-one for each direction-form a Link ... A single Link supports up to 40 GB/sec "
    "of bidirectional bandwidth ... The NVLink implementation in Tesla P100 supports up to "
    "four Links, enabling ganged configurations with aggregate maximum bidirectional "
    "bandwidth of 160 GB/sec.' (Read in a reproduction of the PDF.)", key="")
H100_WHITEPAPER = Source(
    "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Fourth-Generation NVLink",
    "https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper",
    "'While third-generation NVLink in the A100 GPU uses four differential pairs (4 lanes) in "
    "each direction to create a single link delivering 25 GB/sec effective bandwidth in each "
    "direction, fourth-generation NVLink uses only two high-speed differential pairs in each "
    "direction to form a single link, also delivering 25 GB/sec effective bandwidth in each "
    "direction. H100 includes 18 fourth-generation NVLink links to provide 900 GB/sec total "
    "bandwidth'. (Read in a reproduction of the PDF; NVIDIA's Hopper in-depth blog carries "
    "the same paragraph.)", key="")
DGX_H100_PAGE = Source(
    "NVIDIA DGX H100 product page and datasheet (specifications)",
    "https://www.nvidia.com/en-us/data-center/dgx-h100/",
    "'7.2TB/s of bidirectional GPU-to-GPU bandwidth, 1.5X more than previous generation', "
    "from four NVSwitch chips: the aggregate (8 GPUs x 900 GB/s), not a bisection. (Wording as "
    "reproduced in two independent copies of NVIDIA's page; the page itself was not "
    "retrieved here.)", key="")
AZURE_GB200_BENCH = Source(
    "Azure AI-benchmarking-guide, ND GB200 v6 results (Azure_Results/ND_GB200_v6_results.md "
    "@ 2a370be)",
    "https://github.com/Azure/AI-benchmarking-guide/blob/main/Azure_Results/"
    "ND_GB200_v6_results.md",
    "'NV Bandwidth | ND GB200 v6 (GB/s)': 'Host to Device 201', 'Device to Host 193', "
    "'Device to Device read 1530' (nvbandwidth, per GPU; NVIDIA GB200 185GB, CUDA 12.8, driver "
    "570.133.20). The page does not say whether the copy-engine or SM variant ran; "
    "nvbandwidth's per-GPU host tests copy one GPU at a time, so the other GPU of the "
    "superchip was idle.", key="azurebench")
AMD_MI350_SPECS = Source(
    "AMD Instinct MI350X / MI355X specifications (amd.com product pages) and AMD's Hot Chips "
    "2025 MI350 talk, as reproduced by Bekman (ML Engineering @ 744d01e) and press reports",
    "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
    "AMD publishes one 'Peak Infinity Fabric Link Bandwidth' per link: 153.6 GB/s for "
    "MI350X/MI355X ('a point-to-point network of 153.6 GB/s links connecting each package "
    "with every other package on the node', AMD's Hot Chips 2025 talk as reported; Bekman "
    "tabulates it as '153GBps', 76.5 per direction) and 128 GB/s for MI300X/MI325X; 7 "
    "Infinity Fabric links to the peers. MI355X: 288 GB HBM3E, 8 TB/s; MI325X: 256 GB, "
    "6 TB/s (Bekman's memory table). AMD's pages were not retrieved here. The MI300X figure, "
    "128 GB/s, is twice the driver's 'unidirectional' 64 GB/s per link "
    "(sources.AMD_XGMI_DRIVER), so AMD's per-link figure adds both directions; the driver "
    "groups MI355X (GC 9.5.0) with MI300X at 32 GT/s, which AMD's 153.6 GB/s (38.4 GT/s x16 "
    "x 2 directions) contradicts.", key="bekman")
CX6_USER_MANUAL = Source(
    "NVIDIA ConnectX-6 adapter card user manual, Introduction (docs.nvidia.com)",
    "https://docs.nvidia.com/networking/display/ConnectX6EN/Introduction",
    "'ConnectX-6 Virtual Protocol Interconnect adapter cards provide up to two ports of "
    "200Gb/s for InfiniBand and Ethernet connectivity, sub-600ns latency and 215 million "
    "messages per second'. What the figure measures (one adapter, or the two adapters of a "
    "back-to-back link) is not stated.", key="")
