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
    "Base and per-hop latencies per algorithm and protocol; LL busBw x0.5, LL128 x0.92; "
    "NVLS efficiency 0.85 (Hopper), 0.74 (Blackwell).", key="nccltuning")
SJEAUGEY_212 = Source(
    "NVIDIA/nccl-tests issue 212 (maintainer answer)",
    "https://github.com/NVIDIA/nccl-tests/issues/212",
    "450GB/s is the line rate. With the protocol overhead (~20%) NCCL can get an effective "
    "NVLink bandwidth of 370GB/s ... NVLS peak busBw of ~480GB/s.", key="")
SJEAUGEY_149 = Source(
    "NVIDIA/nccl-tests issue 149 (maintainer answer)",
    "https://github.com/NVIDIA/nccl-tests/issues/149",
    "Each NVLink has a line rate of 25GB/s (in each direction) ... ~230GB/s [A100 all-reduce "
    "busbw] in practice.", key="")
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
    "NVIDIA technical blog, third-generation NVSwitch / NVLink Switch System",
    "https://developer.nvidia.com/blog/nvidia-nvlink-and-nvidia-nvswitch-supercharge-large-"
    "language-model-inference/",
    "up to 256 connected NVIDIA H100 ... 57.6 TB/s of all-to-all bandwidth; NVSwitch "
    "incorporates multicast and NVIDIA SHARP in-network reductions.", key="")
A100_WHITEPAPER = Source(
    "NVIDIA A100 Tensor Core GPU architecture whitepaper",
    "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-"
    "architecture-whitepaper.pdf",
    "Six second-generation NVSwitch ... GPU to GPU communication to peak at 600 GB/s; "
    "12 NVLink links per A100.", key="")
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
    "\"accelerator_memory_capacity\": \"186 GB\"; for each 4-GPU node: 4x ConnectX-7 400G.",
    key="")
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
    "bidirectional between two GPUs.", key="")
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
LLAMA3 = Source(
    "Llama Team, AI @ Meta, The Llama 3 Herd of Models, arXiv 2407.21783 (2024), Table 5",
    "https://arxiv.org/abs/2407.21783",
    "54-day snapshot of Llama 3 405B pre-training on 16,384 H100 GPUs: 466 job "
    "interruptions, 47 planned, 419 unexpected. Faulty GPU 148 (30.1%), GPU HBM3 memory 72 "
    "(17.2%), Network Switch/Cable 35 (8.4%), NIC 7 (1.7%), NCCL watchdog timeouts 7 "
    "(1.7%). As reproduced by Glenn Lockwood and DatacenterDynamics.", key="llama3")

# ---------------------------------------------------------------- Appendix B (errata)
ZERO_PAPER = Source(
    "Rajbhandari, Rasley, Ruwase and He, ZeRO: Memory Optimizations Toward Training Trillion "
    "Parameter Models (SC20, arXiv:1910.02054)",
    "https://arxiv.org/abs/1910.02054",
    "Mixed-precision Adam keeps fp16 parameters and gradients (2 + 2 bytes) and fp32 "
    "parameters, momentum and variance (12 bytes): 16 bytes per parameter.", key="")
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


def all_sources() -> list[Source]:
    """Every Source defined in this module, in definition order."""
    return [obj for obj in globals().values() if isinstance(obj, Source)]


def sources_table():
    """The catalogue's sources as a table (for the References page)."""
    from ..display import Table

    return Table(["source", "link", "what the book takes from it"],
                 [[s.title, s.url, s.says] for s in all_sources()],
                 "Every hardware figure in interlib.specs cites one of these; each figure "
                 "also records whether it is a vendor peak, a measurement, a derivation, an "
                 "NCCL model constant or a calibrated constant.")
QUANTUM2 = Source(
    "NVIDIA LinkX documentation (MMA4Z00-NS twin-port OSFP) on Quantum-2 switches",
    "https://docs.nvidia.com/networking/display/mma4z00ns400",
    "Quantum-2 NDR switches: 64 ports at 400Gbps or 128 ports at 200Gbps, in twin-port "
    "OSFP cages.", key="")
SUPERPOD_RA = Source(
    "NVIDIA DGX SuperPOD (H100) reference architecture, as summarised in Austin et al., "
    "How to Scale Your Model, Part 12",
    "https://jax-ml.github.io/scaling-book/gpus/",
    "32 nodes (256 GPUs) per scalable unit under 8 leaf switches; 4 SUs and 16 spine "
    "switches make 1,024 GPUs; NDR 64-port switches; full bisection.", key="austin2025")
SPECTRUM4 = Source(
    "Stas Bekman, ML Engineering, network chapter (from NVIDIA's Ethernet switching page)",
    "https://github.com/stas00/ml-engineering/tree/master/network",
    "Spectrum-4 SN5600: 64 x OSFP 800GbE, 51.2 Tb/s.", key="bekman")

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
    "table, from Wikipedia's table citing Panda and Sur, CCGrid 2011)",
    "https://github.com/stas00/ml-engineering/tree/master/network",
    "Adapter (end-to-end) latency: EDR 0.5 us, HDR 0.6 us; NDR and later did not publish "
    "latency data.", key="bekman")
WWT_SWITCH_LATENCY = Source(
    "World Wide Technology (WWT), blog on AI networking fabrics (quoted secondhand; the "
    "article's exact address was not retrieved)",
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
    "(scaling configurations), as reproduced by Glenn Lockwood from P. Balaji's SC'24 talk",
    "https://glennklockwood.com/garden/llama-3.1",
    "Llama 3 405B pre-training: 8,192 GPUs TP 8, CP 1, PP 16, 430 TFLOPS/GPU; 16,384 GPUs "
    "TP 8, CP 1, PP 16, 400 TFLOPS/GPU; 16,384 GPUs TP 8, CP 16, PP 16 (long context), 380 "
    "TFLOPS/GPU; 16M tokens per batch.", key="llama3")

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
