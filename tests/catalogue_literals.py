"""A second witness for the catalogue: every value the models read from interlib/specs, typed
here from its source, with the source's words (or the line it was read from).

tests/test_catalogue_literals.py compares every row with the catalogue and fails on any
catalogue value that has no row. The values here were read from the sources named in
``SOURCES`` (vendor pages and datasheets, standards, NCCL's source at the commit or tag
named, the papers), not from interlib: where the two disagree the row keeps the source's
value and says so in ``disagrees`` (the test then xfails strictly, naming the disagreement,
until the catalogue is corrected and the ``disagrees`` text removed).

How to add a row (after adding a value to interlib/specs): run
``pytest tests/test_catalogue_literals.py -k complete``; it lists every catalogue path
without a row, as ``module.NAME[key].field``. Add one ``L(...)`` per path below, in the
module's section:

    L("hardware.GPUS['h100-sxm'].hbm_capacity", 80, "GB",
      "NVIDIA H100 80GB HBM3 | 80", "nim-matrix", note="usable capacity")

* ``value`` in ``unit`` as the source states it (``"GB"``, ``"GB/s"``, ``"Gb/s"``,
  ``"TB/s"``, ``"GT/s"``, ``"us"``, ``"count"``, ``"fraction"`` ...: the table ``UNITS`` in
  the test); ``"text"`` for a categorical field, ``"ref"`` for a field that names another
  catalogue entry (its path);
* ``says``: the source's words, or the line of code, the value is read from;
* ``src``: a key of ``SOURCES`` (add the source there: title and address);
* ``direction`` for a rate (``"per direction"``, ``"bidirectional"``, ``"read + write"``):
  checked against the Spec's own direction;
* ``tol``: relative tolerance, only where the source rounds (say so in ``note``);
* ``disagrees``: only where the catalogue differs from the source (say how; the test
  xfails strictly until the catalogue is fixed).

A value that is not a hardware or published figure (an input range, a search start) goes
into ``NOT_FIGURES`` in the test with its reason; NCCL's tuner constants are witnessed by
the model helper's table (``OWNED_ELSEWHERE`` in the test).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Literal:
    path: str
    value: Any
    unit: str
    says: str
    src: str
    direction: str | None = None
    tol: float = 1e-9
    note: str = ""
    disagrees: str = ""


L = Literal

SOURCES = {
    # GPUs
    "nim-matrix": ("NVIDIA NIM for BioNeMo, MSA Search support matrix: 'Supported NVIDIA "
                   "GPUs', GPU Memory (GB) column",
                   "https://docs.nvidia.com/nim/bionemo/msa-search/get-started/support-matrix"),
    "mlperf-h200": ("MLCommons inference v4.1, NVIDIA H200-SXM-141GBx8 system description",
                    "https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                    "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
    "mlperf-b200": ("MLCommons inference v6.0, Nebius B200 system description",
                    "https://raw.githubusercontent.com/mlcommons/inference_results_v6.0/main/"
                    "closed/Nebius/systems/nebius_b200_n1.json"),
    "mlperf-gb200": ("MLCommons inference v6.1, Crusoe GB200 NVL72 system description",
                     "https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/"
                     "closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json"),
    "h100-spec": ("NVIDIA H100 Tensor Core GPU specification table (as reproduced by HPC "
                  "Tech, archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html)",
                  "https://www.nvidia.com/en-us/data-center/h100/"),
    "lockwood-h100": ("Glenn K. Lockwood, H100 (H100 SXM5 and H200)",
                      "https://glennklockwood.com/garden/processors/h100"),
    "lockwood-a100": ("Glenn K. Lockwood, A100 (citing the NVIDIA A100 datasheet)",
                      "https://glennklockwood.com/garden/processors/A100"),
    "lockwood-b200": ("Glenn K. Lockwood, B200", "https://glennklockwood.com/garden/processors/B200"),
    "lockwood-b300": ("Glenn K. Lockwood, B300 and GB300 NVL72",
                      "https://glennklockwood.com/garden/processors/B300"),
    "dgx-b200": ("NVIDIA DGX B200 specifications (as summarised from "
                 "nvidia.com/en-us/data-center/dgx-b200)",
                 "https://www.nvidia.com/en-us/data-center/dgx-b200/"),
    "gb200-page": ("NVIDIA GB200 NVL72 specifications (facts.md 1.3, 1.6)",
                   "https://www.nvidia.com/en-us/data-center/gb200-nvl72/"),
    "hgx-b300": ("NVIDIA HGX B300 specifications (as tabulated by AceCloud and FiberMall)",
                 "https://www.nvidia.com/en-us/data-center/hgx/"),
    "facts": ("the project's fact sheet /work/shared/reference/facts.md (each row cites its "
              "primary or secondary source)", "facts.md"),
    # links
    "nvlink-page": ("NVIDIA NVLink page and Hopper architecture page (facts.md 1.2)",
                    "https://www.nvidia.com/en-au/data-center/nvlink/"),
    "pcie-spec": ("PCI Express Base Specification rates and encodings (facts.md 1.1)",
                  "https://pcisig.com/specifications"),
    "lockwood-pcie6": ("Glenn K. Lockwood, PCIe Gen6 (FLIT layout; facts.md 1.1)",
                       "https://glennklockwood.com/garden/PCIe-Gen6"),
    "intel-pcie": ("Intel, 'PCI Express* High Performance Reference Design' TLP overhead (six "
                   "dwords with a 4-DW header: framing 2 B + sequence 2 B + LCRC 4 B + header)",
                   "https://www.intel.com/content/www/us/en/docs/programmable/683130"),
    "nccl@5067397": ("NVIDIA/nccl at commit 5067397 (2026-06-11), read with git",
                     "https://github.com/NVIDIA/nccl/tree/5067397"),
    "nccl@v2.27.3": ("NVIDIA/nccl at tag v2.27.3-1, read with git",
                     "https://github.com/NVIDIA/nccl/tree/v2.27.3-1"),
    "nccl@v2.30.7": ("NVIDIA/nccl at tag v2.30.7-1, read with git",
                     "https://github.com/NVIDIA/nccl/tree/v2.30.7-1"),
    "nccl@v2.26.2": ("NVIDIA/nccl at tag v2.26.2-1, read with git",
                     "https://github.com/NVIDIA/nccl/tree/v2.26.2-1"),
    "grace-hopper": ("NVIDIA Grace Hopper Superchip Architecture In-Depth (as quoted by "
                     "DataCrunch) and Lockwood's NVLink notes",
                     "https://developer.nvidia.com/blog/nvidia-grace-hopper-superchip-"
                     "architecture-in-depth/"),
    "schieffer-gh200": ("Schieffer et al., 'Harnessing Integrated CPU-GPU System Memory for "
                        "HPC: a first look into Grace Hopper' (ICPP 2024), copy bandwidths",
                        "https://arxiv.org/abs/2407.07850"),
    "ib-table": ("InfiniBand lane rates and encodings, facts.md 1.4 (infiniband.jp table, "
                 "IBTA roadmap via Bekman; IEEE 802.3 clause 91 for the FEC)", "facts.md"),
    "ieee-8023": ("IEEE 802.3 Ethernet: 100/200/400/800GBASE MAC data rates",
                  "https://standards.ieee.org/ieee/802.3/"),
    "ieee-8023dj": ("IEEE P802.3dj 200 Gb/s per lane (106.25 GBd PAM4 = 212.5 Gb/s with "
                    "256b/257b + RS(544,514)); UALink 1.0 'signaling at 212.5 GT/s'",
                    "https://www.ieee802.org/3/dj/"),
    "deepseek-v3": ("DeepSeek-V3 Technical Report (arXiv 2412.19437) section 3.2.2",
                    "https://arxiv.org/abs/2412.19437"),
    "deepseek-insights": ("Zhao et al., Insights into DeepSeek-V3 (arXiv 2505.09343)",
                          "https://arxiv.org/abs/2505.09343"),
    "a800": ("NVIDIA A800 40GB Active datasheet: NVLink 400 GB/s",
             "https://www.nvidia.com/en-us/design-visualization/a800/"),
    "sjeaugey-149": ("NCCL maintainer sjeaugey, NVIDIA/nccl-tests#149",
                     "https://github.com/NVIDIA/nccl-tests/issues/149"),
    "rtx6kpro": ("voipmonitor/rtx6kpro hardware/pcie-bandwidth.md @ 070506f, 'P2P Latency "
                 "Measurements'", "https://github.com/voipmonitor/rtx6kpro"),
    "h100-pcie-spec": ("NVIDIA H100 PCIe specification (hpctech copy of NVIDIA's table): "
                       "'NVLINK: 600GB/s' over the bridge", "https://www.nvidia.com/en-us/data-center/h100/"),
    # NICs, switches, fabrics
    "cx7": ("NVIDIA ConnectX-7 adapter documentation and MLPerf system descriptions",
            "https://docs.nvidia.com/networking/display/connectx7vpi"),
    "cx8-notes": ("NVIDIA ConnectX-8 firmware release notes (facts.md 1.4)",
                  "https://docs.nvidia.com/networking/display/connectx8firmware"),
    "nccl-812": ("NCCL maintainer AddyLaddy in NVIDIA/nccl#812 (quoted in #1576)",
                 "https://github.com/NVIDIA/nccl/issues/812"),
    "ofed": ("NVIDIA MLNX_OFED documentation, Introduction: uplink speeds per adapter",
             "https://docs.nvidia.com/networking/display/OFED/Introduction"),
    "quantum2": ("NVIDIA QM97XX 1U NDR 400Gbps InfiniBand switch user manual; LinkX "
                 "MMA4Z00-NS overview", "https://docs.nvidia.com/networking/display/QM97X0PUB"),
    "spectrum4": ("Spectrum-4 SN5600: 64 x OSFP 800GbE, 51.2 Tb/s (facts.md 1.5, Bekman from "
                  "NVIDIA's Ethernet switching page)", "https://www.nvidia.com/en-us/networking/"),
    "x800": ("NVIDIA Quantum-X800 InfiniBand platform / Q3400: 144 ports of 800 Gb/s",
             "https://www.nvidia.com/en-us/networking/products/infiniband/quantum-x800/"),
    "photonics": ("NVIDIA GTC 2025 press release on Spectrum-X and Quantum-X silicon "
                  "photonics switches (18 March 2025)",
                  "https://nvidianews.nvidia.com/news/nvidia-spectrum-x-co-packaged-optics-"
                  "networking-switches-ai-factories"),
    "superpod": ("DGX H100 SuperPOD reference architecture as tabulated in the JAX scaling "
                 "book (facts.md 1.7)", "https://jax-ml.github.io/scaling-book/gpus/"),
    "bekman-ib": ("Bekman, ML Engineering, network/README.md latency table (facts.md 1.4)",
                  "https://github.com/stas00/ml-engineering/tree/master/network"),
    "wwt": ("WWT on switch ASIC hop latency (facts.md 1.4)",
            "https://www.wwt.com/"),
    "rfc791": ("RFC 791, Internet Protocol: header without options is 5 32-bit words",
               "https://www.rfc-editor.org/rfc/rfc791"),
    "rfc8200": ("RFC 8200, IPv6: fixed header of 40 octets", "https://www.rfc-editor.org/rfc/rfc8200"),
    "rfc768": ("RFC 768, UDP: 8-octet header", "https://www.rfc-editor.org/rfc/rfc768"),
    "ieee-frame": ("IEEE 802.3 clause 3/4: preamble 7, SFD 1, destination 6, source 6, "
                   "EtherType 2, FCS 4 octets; minimum inter-packet gap 96 bit times",
                   "https://standards.ieee.org/ieee/802.3/"),
    "ibta": ("InfiniBand Architecture Specification vol. 1: LRH 8, GRH 40, BTH 12, RETH 16, "
             "ICRC 4, VCRC 2 bytes (and RoCEv2 annex A17)", "https://www.infinibandta.org/"),
    "sharp-doc": ("NVIDIA SHARP v3.13 documentation (facts.md 1.4)",
                  "https://docs.nvidia.com/networking/display/sharpv3130"),
    "arista-voq": ("Arista 7500R architecture white paper, Table 4 'Default per-VoQ Output "
                   "Port Limits' (as reproduced by Warner, UCSC)",
                   "https://people.ucsc.edu/~warner/Bufs/arista7500R.html"),
    "meta-blog": ("Meta engineering blog 'Building Meta's GenAI Infrastructure' (12 March "
                  "2024), facts.md 1.7 and 4k", "https://engineering.fb.com/2024/03/12/"),
    "llama3": ("Grattafiori et al., The Llama 3 Herd of Models (arXiv 2407.21783): section "
               "3.3 (infrastructure), Table 4, Table 5", "https://arxiv.org/abs/2407.21783"),
    "llama3-table4": ("Llama 3 Table 4 as shown by Balaji at SC'24 (reproduced by Glenn K. "
                      "Lockwood, garden/llama-3.1)", "https://glennklockwood.com/garden/llama-3.1"),
    "meta-roce": ("Meta engineering blog 'RDMA over Ethernet for Distributed AI Training at "
                  "Meta Scale' (August 2024), on Gangidi et al., SIGCOMM 2024",
                  "https://engineering.fb.com/2024/08/05/data-center-engineering/roce-network-"
                  "distributed-ai-training-at-scale/"),
    "kim-dragonfly": ("Kim, Dally, Scott, Abts, 'Technology-Driven, Highly-Scalable "
                      "Dragonfly Topology', ISCA 2008 (facts.md 4l)",
                      "https://doi.org/10.1109/ISCA.2008.19"),
    "bekman-net": ("Bekman, ML Engineering, network/README.md and benchmarks (facts.md 1.1, "
                   "1.2, 4c)", "https://github.com/stas00/ml-engineering/tree/master/network"),
    "azure": ("Azure/AI-benchmarking-guide @ 8fd0c6e, Azure_Results (facts.md 1.1, 1.6)",
              "https://github.com/Azure/AI-benchmarking-guide"),
    "sjeaugey-212": ("NCCL maintainer sjeaugey, NVIDIA/nccl-tests#212 and NVIDIA/nccl#1054 "
                     "(facts.md 1.2, V9)", "https://github.com/NVIDIA/nccl-tests/issues/212"),
    "nccl-1264": ("NVIDIA/nccl#1264 (user report, HGX H100; facts.md 1.2)",
                  "https://github.com/NVIDIA/nccl/issues/1264"),
    "nccl-1374": ("NVIDIA GTC25 S72583 slide as quoted in NVIDIA/nccl#1374 (facts.md V9)",
                  "https://github.com/NVIDIA/nccl/issues/1374"),
    "hotchips-nvswitch": ("NVSwitch at Hot Chips 34 via the JAX scaling book (facts.md 1.3, 4j)",
                          "https://jax-ml.github.io/scaling-book/gpus/"),
    "nvswitch-blog": ("NVIDIA technical blog on third-generation NVSwitch (facts.md 1.3)",
                      "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/"),
    "a100-whitepaper": ("NVIDIA A100 Tensor Core GPU architecture whitepaper (facts.md 1.3)",
                        "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/"
                        "nvidia-ampere-architecture-whitepaper.pdf"),
    "basepod": ("NVIDIA DGX BasePOD reference architecture, core components (facts.md 1.3, "
                "1.7)", "https://docs.nvidia.com/dgx-basepod/"),
    "nvl576": ("NVIDIA Mission Control/BCM documentation: 'Support for up to 576 GPUs in a "
               "single NVLink domain' (facts.md 1.3)", "https://docs.nvidia.com/mission-control/"),
    "gh200-page": ("NVIDIA Hopper/GH200 page: DGX GH200 'clusters of up to 256 ... 57.6 TB/s "
                   "of all-to-all bandwidth'", "https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/"),
    "dgx-h100-guide": ("NVIDIA DGX H100 User Guide 1.2.3 Network Modules, Table 6 "
                       "(facts.md 1.7)", "https://docs.nvidia.com/dgx/dgxh100-user-guide/"),
    # scale-up beyond NVIDIA
    "gaudi3": ("Intel Gaudi Network Configuration (docs.habana.ai)",
               "https://docs.habana.ai/en/latest/Management_and_Monitoring/Network_Configuration/index.html"),
    "tpu-v5p": ("Google Cloud TPU v5p documentation", "https://cloud.google.com/tpu/docs/v5p"),
    "trn2": ("AWS Neuron documentation, best practices for training on trn2.48xlarge",
             "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training/best-practices.html"),
    "ualink": ("UALink 200G 1.0 specification release (UALink Consortium, 8 April 2025; as "
               "reported by Converge Digest and Tom's Hardware)",
               "https://ualinkconsortium.org/"),
    "vera-rubin": ("NVIDIA Vera Rubin NVL72 at CES 2026: 72 Rubin GPUs (packages) per rack",
                   "https://www.nvidia.com/en-us/data-center/vera-rubin-nvl72/"),
    "mlperf-amd": ("MLCommons inference v4.1, AMD MI300X system description: "
                   "accelerators_per_node", "https://github.com/mlcommons/inference_results_v4.1"),
    # issue 39 additions (read in this session where "read here" says so)
    "azure-gb200": ("Azure AI-benchmarking-guide, ND GB200 v6 results, NV Bandwidth table "
                    "(Azure_Results/ND_GB200_v6_results.md @ 2a370be; read here)",
                    "https://github.com/Azure/AI-benchmarking-guide/blob/main/Azure_Results/"
                    "ND_GB200_v6_results.md"),
    "dgx-h100-page": ("NVIDIA DGX H100 product page ('7.2TB/s of bidirectional GPU-to-GPU "
                      "bandwidth'; the phrase read here in a page that reproduces it)",
                      "https://www.nvidia.com/en-us/data-center/dgx-h100/"),
    "rocm-mi300": ("AMD ROCm documentation, MI300 microarchitecture (read here: 'The "
                   "theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per "
                   "second'; 'seven high-bandwidth, low-latency AMD Infinity Fabric links')",
                   "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html"),
    "amd-xgmi-driver": ("Linux amdgpu driver, amdgpu_xgmi.c (32 GT/s x16 per xGMI link); not "
                        "in this session's corpus: the words are the catalogue's reading",
                        "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/"
                        "amdgpu/amdgpu_xgmi.c"),
    "bekman-amd": ("AMD Instinct MI300X/MI325X/MI350X/MI355X product pages as tabulated by "
                   "Bekman, ML Engineering, 'Infinity Fabric / xGMI' (read here: 'Peak Infinity "
                   "Fabric Link Bandwidth ... 153GBps for MI350X/MI355X and 128GBps for "
                   "MI300X/MI325X'; MI325X 64 GB/s x 7 = 448)",
                   "https://github.com/stas00/ml-engineering/blob/master/network/README.md"),
    "amd-mi355x": ("AMD Instinct MI355X product page (8 TB/s HBM3E; 153.6 GB/s per Infinity "
                   "Fabric link), as reproduced by Boston Ltd's MI355X page and others (read "
                   "here: '288 GB of on-package memory and an aggregate bandwidth of 8 TB/s')",
                   "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html"),
    "amd-mi325x": ("AMD Instinct MI325X product page: 256 GB HBM3E at 6 TB/s; not re-read in "
                   "this session (no copy in the corpus)",
                   "https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html"),
    "amd-helios": ("AMD ROCm blog, Introducing AMD CDNA 5 and the AMD Helios Rackscale Solution "
                   "(2026-08-04); read here through reproductions (Tom's Hardware: '260 TB/s "
                   "aggregated scale-up bandwidth'; Bekman: MI455X 'Scale-up Bandwidth per GPU: "
                   "3.6 TB/s')",
                   "https://rocm.blogs.amd.com/ecosystems-and-partners/cdna5-helios/README.html"),
    "rubin-blog": ("NVIDIA technical blog, Inside the NVIDIA Rubin Platform (CES 2026); read "
                   "here through reproductions ('288 GB of HBM4 at 22 TB/s'; 'NVLink 6 ... 3.6 "
                   "TB/s per GPU, 260 TB/s for the rack')",
                   "https://developer.nvidia.com/blog/inside-the-nvidia-rubin-platform-six-new-"
                   "chips-one-ai-supercomputer/"),
    "neuron-trn2": ("AWS Neuron documentation, Trainium2 architecture (read here: 'NeuronLink-v3 "
                    "for device-to-device interconnect provides 1.28 TB/sec bandwidth per "
                    "device'; NKI guide: '96GiB and bandwidth of 2.9TB/s')",
                    "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/"
                    "neuron-hardware/trainium2.html"),
    "neuron-trn3": ("AWS Neuron documentation v2.29.1, Trainium3 architecture (read here: '144 "
                    "GiB of device memory, with 4.9 TB/sec of bandwidth'; 'NeuronLink-v4 ... "
                    "provides 2.56 TB/sec bandwidth per device')",
                    "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.1/_sources/about-"
                    "neuron/arch/neuron-hardware/trainium3.rst"),
    "trn3-ga": ("AWS What's New, Amazon EC2 Trn3 UltraServers now generally available "
                "(2025-12-02): 'scale up to 144 Trainium3 chips'; not re-read in this session",
                "https://aws.amazon.com/about-aws/whats-new/2025/12/amazon-ec2-trn3-ultraservers/"),
    "gaudi3-wp": ("Intel Gaudi 3 white paper and newsroom (read here through reproductions: "
                  "'128 GB HBM2e; 3.7 TB/s')",
                  "https://www.intel.com/content/www/us/en/content-details/817486/"
                  "intel-gaudi-3-ai-accelerator-white-paper.html"),
    "tpu-v5p-slices": ("Google Cloud TPU v5p documentation, slice shapes (read here through "
                       "copies: 'v5p-12288 ... 16x16x24', the largest; 4x4x4 cubes)",
                       "https://docs.cloud.google.com/tpu/docs/v5p"),
    "ualink-wp": ("UALink 200G 1.0 Specification white paper (UALink Consortium, April 2025): "
                  "x1/x2/x4 ports of 200 Gb/s lanes; not re-read in this session",
                  "https://ualinkconsortium.org/wp-content/uploads/2025/04/UALink-1.0-White_"
                  "Paper_v3.pdf"),
    "pcie7": ("PCI-SIG, PCIe 7.0 Specification Now Available to PCI-SIG Members (2025-06-11): "
              "'128.0 GT/s raw bit rate', 'up to 512 GB/s bi-directionally via x16'; not "
              "re-read in this session", "https://pcisig.com/pcie-70-specification-now-"
              "available-pci-sig-members"),
    "cxl4": ("CXL Consortium press release, CXL 4.0 (2025-11-18): 'Doubles the bandwidth to "
             "128GTs'; not re-read in this session", "https://computeexpresslink.org/"),
    "ieee-8023dj-proj": ("IEEE P802.3dj Task Force: 200 Gb/s, 400 Gb/s, 800 Gb/s and 1.6 Tb/s "
                         "Ethernet on 200 Gb/s lanes", "https://www.ieee802.org/3/dj/"),
    "deepseek-mpft": ("Zhao et al. (DeepSeek-AI), Insights into DeepSeek-V3, section 4 "
                      "(arXiv:2505.09343); read here through summaries ('8-Plane Architecture: "
                      "Each node contains 8 GPUs and 8 IB NICs'; 'Theoretically supports up to "
                      "16,384 GPUs within the 2-tier structure')",
                      "https://arxiv.org/abs/2505.09343"),
    "nccl-227-blog": ("NVIDIA technical blog 'Enabling Fast Inference and Resilient Training "
                      "with NCCL 2.27'", "https://developer.nvidia.com/blog/enabling-fast-"
                      "inference-and-resilient-training-with-nccl-2-27"),
    # compute
    "h100-flops": ("NVIDIA H100 specification table: 'BFLOAT16 Tensor Core 1,979 TFLOPS*', "
                   "'* Shown with sparsity. Specifications 1/2 lower without sparsity.'",
                   "https://www.nvidia.com/en-us/data-center/h100/"),
    # NCCL plugins and clouds
    "aws-ofi-nccl": ("aws/aws-ofi-nccl at commit 2daf7d3, read with git",
                     "https://github.com/aws/aws-ofi-nccl/tree/2daf7d3"),
    "aws-ofi-nccl@v1.8.1": ("aws/aws-ofi-nccl at tag v1.8.1-aws (cf6f822), read with git",
                            "https://github.com/aws/aws-ofi-nccl/tree/v1.8.1-aws"),
    "aws-ofi-nccl@v1.16.0": ("aws/aws-ofi-nccl at tag v1.16.0 (f998c19), read with git",
                             "https://github.com/aws/aws-ofi-nccl/tree/v1.16.0"),
    "gcp-tcpxo": ("Google Cloud, GPUDirect-TCPXO NCCL plugin and recommended NCCL "
                  "configuration (A3 Mega)", "https://github.com/GoogleCloudPlatform/"
                  "container-engine-accelerators/tree/master/gpudirect-tcpxo"),
    "bekman-bench": ("Bekman, all_reduce_bench.py (2026-07-31): PyTorch's per-call host "
                     "overhead 'of some 20-30us'",
                     "https://github.com/stas00/ml-engineering/tree/master/network/benchmarks"),
    "tuning-guess": ("NVIDIA/nccl#1649, sjeaugey: 'the default number of SMs is 16'",
                     "https://github.com/NVIDIA/nccl/issues/1649"),
}

# ------------------------------------------------------------------------------- GPUs
_NIM = "nim-matrix"
ROWS = [
    # HBM capacity: what a GPU exposes (usable), not the physical stack total
    L("hardware.GPUS['a100-sxm-80gb'].hbm_capacity", 80, "GB", "NVIDIA A100-SXM4-80GB | 80", _NIM),
    L("hardware.GPUS['h100-sxm'].hbm_capacity", 80, "GB", "NVIDIA H100 80GB HBM3 | 80", _NIM),
    L("hardware.GPUS['h200'].hbm_capacity", 141, "GB",
      "NVIDIA H200 | 141; MLPerf: \"accelerator_memory_capacity\": \"141 GB\"", _NIM),
    L("hardware.GPUS['b200'].hbm_capacity", 180, "GB",
      "NVIDIA B200 | 180; MLPerf (Nebius): \"accelerator_memory_capacity\": \"180 GB\" "
      "(192 GB is the physical 8-stack total)", _NIM, note="usable, not 192 GB physical"),
    L("hardware.GPUS['gb200'].hbm_capacity", 186, "GB",
      "NVIDIA GB200 | 186; MLPerf (Crusoe): \"accelerator_memory_capacity\": \"186 GB\"", _NIM,
      note="usable, not 192 GB physical"),
    L("hardware.GPUS['gb300'].hbm_capacity", 288, "GB", "NVIDIA GB300 | 288", _NIM,
      note="NVIDIA lists 288 GB; a GB300 operator (Verda) lists 279 GB usable: requests.md"),
    L("hardware.GPUS['b300'].hbm_capacity", 288, "GB",
      "NVIDIA B300 | 288; HGX B300: '288 GB HBM3e per GPU'", _NIM,
      note="NVIDIA lists 288 GB; Verda lists 270 GB usable: requests.md"),
    # HBM bandwidth (reads and writes share it)
    L("hardware.GPUS['a100-sxm-80gb'].hbm_bandwidth", 2039, "GB/s",
      "A100 80G SXM4: '80 GB HBM2e (5 stacks) ... 2.039 GB/s' [sic, 2,039 GB/s; HBM2e at "
      "3.186 Gb/s per pin x 5120 bits]", "lockwood-a100", direction="read + write"),
    L("hardware.GPUS['h100-sxm'].hbm_bandwidth", 3350, "GB/s",
      "H100 SXM: 'GPU memory bandwidth | 3,350 GB/sec'", "h100-spec", direction="read + write"),
    L("hardware.GPUS['h200'].hbm_bandwidth", 4.8, "TB/s",
      "H200: '141 GB HBM3e ... 4.8 TB/s' (facts.md 1.6, [P] Azure; scaling book)", "facts",
      direction="read + write"),
    L("hardware.GPUS['b200'].hbm_bandwidth", 8, "TB/s",
      "DGX B200: 'Eight NVIDIA Blackwell GPUs with 1,440 GB total HBM3e memory and 64 TB/s "
      "HBM3e bandwidth' (64 / 8)", "dgx-b200", direction="read + write"),
    L("hardware.GPUS['gb200'].hbm_bandwidth", 8, "TB/s",
      "GB200 NVL72: 'Up to 13.4 TB HBM3e | 576 TB/s' for 72 GPUs (576 / 72)", "gb200-page",
      direction="read + write"),
    L("hardware.GPUS['gb300'].hbm_bandwidth", 8, "TB/s",
      "GB300 NVL72: '20 TB HBM at 576 TB/s' (576 / 72)", "lockwood-b300",
      direction="read + write"),
    L("hardware.GPUS['b300'].hbm_bandwidth", 8, "TB/s",
      "HGX B300: 'HBM bandwidth | Up to 8 TB/s per GPU'", "hgx-b300", direction="read + write"),
    # NVLink generation, host PCIe generation, architecture, host link
    L("hardware.GPUS['a100-sxm-80gb'].nvlink_gen", 3, "count",
      "A100: 'NVLink 3 | A100 | 12 links' (facts.md 1.2)", "facts"),
    L("hardware.GPUS['h100-sxm'].nvlink_gen", 4, "count",
      "'NVLink 4 | H100/H200/GH200 | 18' (facts.md 1.2)", "facts"),
    L("hardware.GPUS['h200'].nvlink_gen", 4, "count",
      "\"accelerator_interconnect\": \"18x 4th Gen NVLink, 900GB/s\"", "mlperf-h200"),
    L("hardware.GPUS['b200'].nvlink_gen", 5, "count",
      "\"accelerator_interconnect\": \"18x 5th Gen NVLink, 14.4 TB/s aggregated bandwidth\"",
      "mlperf-b200"),
    L("hardware.GPUS['gb200'].nvlink_gen", 5, "count",
      "\"accelerator_interconnect\": \"5th-gen NVLink andNVLink Switches\"", "mlperf-gb200"),
    L("hardware.GPUS['gb300'].nvlink_gen", 5, "count", "'2x 900 GB/s NVLink 5 (D2D)'",
      "lockwood-b300"),
    L("hardware.GPUS['b300'].nvlink_gen", 5, "count",
      "HGX B300: 'Intra GPU interconnect | NVLink 5, 1.8 TB/s bidirectional per GPU'",
      "hgx-b300"),
    L("hardware.GPUS['a100-sxm-80gb'].pcie_gen", "4.0", "text",
      "A100 SXM4 80 GB: 'PCIe 4.0 x16'; '32+32 GB/s PCIe Gen4 (H2D)'", "lockwood-a100"),
    L("hardware.GPUS['h100-sxm'].pcie_gen", "5.0", "text",
      "H100 SXM: '相互接続 | NVLink: 900GB/秒 PCIe Gen5: 128GB/秒'", "h100-spec"),
    L("hardware.GPUS['h200'].pcie_gen", "5.0", "text",
      "\"accelerator_host_interconnect\": \"PCIe Gen5 x16\"", "mlperf-h200"),
    L("hardware.GPUS['b200'].pcie_gen", "5.0", "text",
      "\"accelerator_host_interconnect\": \"PCIe Gen5 x16\"", "mlperf-b200"),
    L("hardware.GPUS['gb200'].pcie_gen", "5.0", "text",
      "GB200 compute tray NICs: 'for each 4-GPU node: 4x ... BlueField-3 [ConnectX-7 Lx]' "
      "(ConnectX-7: 'PCIe Gen 5.0 through x16 edge connector')", "mlperf-gb200",
      note="the GPU's PCIe serves its NIC (ConnectX-7 is a Gen 5 device); the host link is "
           "NVLink-C2C"),
    L("hardware.GPUS['gb300'].pcie_gen", "6.0", "text", "B300/GB300: 'Upgrade to PCIe Gen6'",
      "lockwood-b300"),
    L("hardware.GPUS['b300'].pcie_gen", "6.0", "text",
      "'2x 256 GB/s PCIe Gen6 (H2D)'; 'Upgrade to PCIe Gen6'", "lockwood-b300"),
    L("hardware.GPUS['a100-sxm-80gb'].arch", "Ampere", "text",
      "'NVIDIA A100 ... the first GPU based on the NVIDIA Ampere architecture'",
      "a100-whitepaper"),
    L("hardware.GPUS['h100-sxm'].arch", "Hopper", "text", "'GPU Architecture | NVIDIA Hopper'",
      "h100-spec"),
    L("hardware.GPUS['h200'].arch", "Hopper", "text",
      "'H200 GPUs are the same as H100 GPUs ... just with ... HBM3e'", "lockwood-h100"),
    L("hardware.GPUS['b200'].arch", "Blackwell", "text",
      "'B200 is NVIDIA's top-shelf Blackwell-generation datacenter GPU'", "lockwood-b200"),
    L("hardware.GPUS['gb200'].arch", "Blackwell", "text",
      "'GB200 is a combination of Grace CPUs and B200 GPUs'", "lockwood-b200"),
    L("hardware.GPUS['gb300'].arch", "Blackwell", "text",
      "'B300, or Blackwell Ultra, is NVIDIA's follow-on to its B200'", "lockwood-b300"),
    L("hardware.GPUS['b300'].arch", "Blackwell", "text",
      "'B300, or Blackwell Ultra, is NVIDIA's follow-on to its B200'", "lockwood-b300"),
    L("hardware.GPUS['a100-sxm-80gb'].host_link", "pcie", "text",
      "'32+32 GB/s PCIe Gen4 (H2D)'", "lockwood-a100"),
    L("hardware.GPUS['h100-sxm'].host_link", "pcie", "text",
      "H100 SXM5: '128 GB/s PCIe Gen5 (H2D)'", "lockwood-h100"),
    L("hardware.GPUS['h200'].host_link", "pcie", "text",
      "\"accelerator_host_interconnect\": \"PCIe Gen5 x16\"", "mlperf-h200"),
    L("hardware.GPUS['b200'].host_link", "pcie", "text",
      "\"accelerator_host_interconnect\": \"PCIe Gen5 x16\"", "mlperf-b200"),
    L("hardware.GPUS['gb200'].host_link", "nvlink-c2c-superchip", "text",
      "\"accelerator_host_interconnect\": \"NVLink-C2C\"; 'one Grace CPU and two Blackwell "
      "GPUs' per superchip", "mlperf-gb200"),
    L("hardware.GPUS['gb300'].host_link", "nvlink-c2c-superchip", "text",
      "GB300 NVL72: 'a single carrier board with two Grace CPUs and four Blackwell GPUs' "
      "(two GPUs per Grace)", "lockwood-b300"),
    L("hardware.GPUS['b300'].host_link", "pcie", "text",
      "'2x 256 GB/s PCIe Gen6 (H2D)' (an x86 HGX board; no Grace)", "lockwood-b300"),
]

# -------------------------------------------------------------------------------- NICs
ROWS += [
    L("hardware.NICS['connectx-6-hdr'].rate", 200, "Gb/s",
      "'On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards'", "nccl-812",
      direction="per direction"),
    L("hardware.NICS['connectx-6-hdr'].ethernet_ports", 1, "count",
      "ConnectX-6 Ethernet uplinks: '10GbE, 25GbE, 40GbE, 50GbE, 100GbE, 200GbE' (one port "
      "at the full rate)", "ofed"),
    L("hardware.NICS['connectx-7'].rate", 400, "Gb/s",
      "\"host_networking\": \"8x ConnectX-7 IB NDR 400Gb/s\"; 'ConnectX-7 | single-port NDR "
      "400 Gb/s / 400GbE' (facts.md 1.5)", "cx7", direction="per direction"),
    L("hardware.NICS['connectx-7'].ethernet_ports", 1, "count",
      "'ConnectX-7: single-port NDR 400 Gb/s / 400GbE, or dual-port 200' (facts.md 1.5): the "
      "400 Gb/s card is one port", "cx7"),
    L("hardware.NICS['connectx-8'].rate", 800, "Gb/s",
      "'ConnectX-8 SuperNIC supports 800Gb/s or XDR IB or 2 x 400GbE'", "cx8-notes",
      direction="per direction"),
    L("hardware.NICS['connectx-8'].ethernet_ports", 2, "count",
      "'800Gb/s or XDR IB or 2 x 400GbE'", "cx8-notes"),
    L("hardware.NICS['connectx-8'].ethernet_port_rate", 400, "Gb/s",
      "'2 x 400GbE'", "cx8-notes", direction="per direction"),
    L("hardware.NICS['connectx-6-hdr'].fabric", "InfiniBand", "text",
      "'8x200Gbit/s IB cards'", "nccl-812"),
    L("hardware.NICS['connectx-7'].fabric", "InfiniBand or Ethernet", "text",
      "'ConnectX-7 | InfiniBand: EDR, HDR100, HDR, NDR200, NDR | Ethernet: ... 200GbE'", "ofed"),
    L("hardware.NICS['connectx-8'].fabric", "InfiniBand or Ethernet", "text",
      "'800Gb/s or XDR IB or 2 x 400GbE'", "cx8-notes"),
]

# ---------------------------------------------------------------------------- NVSwitch
ROWS += [
    L("hardware.NVSWITCH[1].ports_per_chip", 18, "count",
      "'NVSwitch 1 | DGX-2 / HGX-2 | ... | 18 x 50 GB/s bidir = 900 GB/s per chip' "
      "(facts.md 1.3, AnandTech)", "facts"),
    L("hardware.NVSWITCH[1].nvlink_gen", 2, "count",
      "'NVSwitch 1 | DGX-2 / HGX-2 (16x V100)'; V100 is NVLink 2 (facts.md 1.2-1.3)", "facts"),
    L("hardware.NVSWITCH[2].chips_per_board", 6, "count",
      "'Six second-generation NVSwitch ... GPU to GPU communication to peak at 600 GB/s'",
      "a100-whitepaper"),
    L("hardware.NVSWITCH[2].ports_per_chip", 36, "count",
      "'NVSwitch 2 | DGX/HGX A100 | 6 | 36' (facts.md 1.3, secondary)", "facts"),
    L("hardware.NVSWITCH[2].nvlink_gen", 3, "count", "'NVSwitch 2 | DGX/HGX A100' (NVLink 3)",
      "facts"),
    L("hardware.NVSWITCH[3].chips_per_board", 4, "count", "'Four NVIDIA NVSwitch chips'",
      "basepod"),
    L("hardware.NVSWITCH[3].ports_per_chip", 64, "count",
      "'NVSwitch 3 | ... | 64 NVLink4 ports, SHARP engines' (facts.md 1.3)", "nvswitch-blog"),
    L("hardware.NVSWITCH[3].nvlink_gen", 4, "count", "'NVSwitch 3 | DGX/HGX H100, H200'",
      "facts"),
    L("hardware.NVSWITCH[4].chips_per_board", 2, "count",
      "DGX B200: 'Two NVIDIA NVSwitch devices with 14.4 TB/s aggregate NVLink bandwidth'",
      "dgx-b200"),
    L("hardware.NVSWITCH[4].nvlink_gen", 5, "count",
      "'NVLink Switch (Blackwell) | DGX/HGX B200' (NVLink 5)", "facts"),
]

# ----------------------------------------------------------------------------- systems
_SYS = {
    # id: (gpu, gpus, gpus_per_server, nvswitch_gen, nics, nic, intra, nic_path, src, says)
    "dgx-a100": ("a100-sxm-80gb", 8, 8, 2, 8, "connectx-6-hdr", "nvswitch", "pcie-switch",
                 "nccl-812", "'On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards'; "
                 "A100 whitepaper: eight A100 and six NVSwitch"),
    "dgx-h100": ("h100-sxm", 8, 8, 3, 8, "connectx-7", "nvswitch", "pcie-switch", "basepod",
                 "'Four NVIDIA NVSwitch chips ... Four OSFP ports serving eight single-port "
                 "NVIDIA ConnectX-7 VPI ... up to 400 Gb/s'; eight H100 (DGX H100: '8 "
                 "Hopper-based H100 accelerators')"),
    "hgx-h200": ("h200", 8, 8, 3, 8, "connectx-7", "nvswitch", "pcie-switch", "mlperf-h200",
                 "\"accelerators_per_node\": 8, \"18x 4th Gen NVLink\"; the compute NICs "
                 "assumed as DGX H100's (the MLPerf box lists '10x 400Gbe Infiniband', "
                 "storage included)"),
    "dgx-b200": ("b200", 8, 8, 4, 8, "connectx-7", "nvswitch", "pcie-switch", "mlperf-b200",
                 "\"accelerators_per_node\": 8, \"host_networking\": \"8x ConnectX-7 IB NDR "
                 "400Gb/s + 200Gb/s Ethernet NIC\"; DGX B200 'Two NVIDIA NVSwitch devices'"),
    "gb200-nvl72": ("gb200", 72, 4, 4, 72, "connectx-7", "nvswitch", "via-grace",
                    "mlperf-gb200",
                    "\"accelerators_per_node\": 4, 'for each 4-GPU node: 4x ... BlueField-3 "
                    "[ConnectX-7 Lx]'; NVL72: '72 GPUs (4 per tray, 18 trays)' (Lockwood); "
                    "NCCL reaches the NIC through the Grace's PCIe (P2C, facts)"),
    "gb300-nvl72": ("gb300", 72, 4, 4, 72, "connectx-8", "nvswitch", "direct-nic",
                    "lockwood-b300",
                    "GB300 NVL72: '72 ConnectX-8 NICs', 'a single carrier board with two Grace "
                    "CPUs and four Blackwell GPUs', 'Mellanox ConnectX-8 NICs are included on "
                    "the board now'"),
    "hgx-b300": ("b300", 8, 8, 4, 8, "connectx-8", "nvswitch", "direct-nic", "hgx-b300",
                 "'GPUs per baseboard | 8x Blackwell Ultra GPUs', 'NICs on the HGX baseboard "
                 "| 8x ConnectX 8 SuperNICs', 'Up to 800 Gb/s (2 x 400GbE) per GPU'"),
    "h100-pcie-only": ("h100-sxm", 8, 8, None, 8, "connectx-7", "pcie", "pcie-switch",
                       "basepod",
                       "hypothetical (Chapter 2): DGX H100's eight GPUs and eight ConnectX-7 "
                       "with the NVSwitch baseboard removed"),
}
for _id, (_gpu, _n, _srv, _nvs, _nics, _nic, _intra, _path, _src, _says) in _SYS.items():
    _p = f"hardware.SYSTEMS['{_id}']"
    ROWS += [
        L(f"{_p}.gpu", f"hardware.GPUS['{_gpu}']", "ref", _says, _src),
        L(f"{_p}.gpus_per_node", _n, "count", _says, _src),
        L(f"{_p}.gpus_per_server", _srv, "count", _says, _src),
        L(f"{_p}.nics_per_node", _nics, "count", _says, _src),
        L(f"{_p}.nic", f"hardware.NICS['{_nic}']", "ref", _says, _src),
        L(f"{_p}.intra", _intra, "text", _says, _src),
        L(f"{_p}.nic_path", _path, "text", _says, _src),
    ]
    if _nvs is not None:
        ROWS.append(L(f"{_p}.nvswitch_gen", _nvs, "count", _says, _src))

# ------------------------------------------------------------------------------- links
ROWS += [
    # PCIe: per-lane signalling, line code, per-TLP overhead
    L("links.PCIE['3.0'].transfer_rate", 8, "GT/s", "'3.0 | 8 GT/s NRZ | 128b/130b'",
      "pcie-spec", direction="per direction"),
    L("links.PCIE['4.0'].transfer_rate", 16, "GT/s", "'4.0 | 16 GT/s NRZ | 128b/130b'",
      "pcie-spec", direction="per direction"),
    L("links.PCIE['5.0'].transfer_rate", 32, "GT/s", "'5.0 | 32 GT/s NRZ | 128b/130b'",
      "pcie-spec", direction="per direction"),
    L("links.PCIE['6.0'].transfer_rate", 64, "GT/s",
      "'6.0 | 64 GT/s PAM4 (32 GBaud x 2 bits)'", "pcie-spec", direction="per direction"),
    L("links.PCIE['3.0'].encoding_efficiency", 128 / 130, "fraction", "'128b/130b'", "pcie-spec"),
    L("links.PCIE['4.0'].encoding_efficiency", 128 / 130, "fraction", "'128b/130b'", "pcie-spec"),
    L("links.PCIE['5.0'].encoding_efficiency", 128 / 130, "fraction", "'128b/130b'", "pcie-spec"),
    L("links.PCIE['6.0'].encoding_efficiency", 236 / 256, "fraction",
      "'256-byte flit: 236 B TLP + 6 B DLP + 8 B CRC + 6 B FEC'", "lockwood-pcie6"),
    L("links.PCIE['3.0'].tlp_overhead", 8, "B",
      "TLP overhead 'six dwords' with a 4-DW header: 24 - 16 = 8 bytes of framing, sequence "
      "number and LCRC (shared by Gen 3-5)", "intel-pcie"),
    L("links.PCIE['6.0'].tlp_overhead", 0, "B",
      "FLIT mode: sequence number, CRC and FEC belong to the 256-byte flit ('236 B TLP + 6 B "
      "DLP + 8 B CRC + 6 B FEC'), none per TLP", "lockwood-pcie6"),
    L("links.PCIE_TLP_HEADER", 16, "B", "a 4-DW header (memory write, 64-bit address) = 16 B",
      "intel-pcie"),
    L("links.PCIE_PAYLOAD_BYTES", 256, "B",
      "a 256-byte maximum payload size, the basis the book chooses (PCIe allows an MPS of "
      "128 to 4096 bytes)", "intel-pcie", note="a chosen basis, not a vendor figure"),
    L("links.PCIE_P2P_LATENCY", 0.36, "us",
      "'P2P Enabled (same NUMA) | 0.36-0.45 us' (P2P writes, PCIe Gen5 x16, RTX PRO 6000)",
      "rtx6kpro", note="the low end of the range"),
    # NVLink generations
    *[L(f"links.NVLINK[{g}].links_per_gpu", n, "count", f"'NVLink {g} | ... | {n} links'",
        "facts") for g, n in ((1, 4), (2, 6), (3, 12), (4, 18), (5, 18))],
    *[L(f"links.NVLINK[{g}].per_link", r, "GB/s",
        f"'NVLink {g} | ... | {r} GB/s per link, per direction'", "facts",
        direction="per direction") for g, r in ((1, 20), (2, 25), (3, 25), (4, 25), (5, 50))],
    *[L(f"links.NVLINK[{g}].lane_signalling", r, "Gb/s", f"'{s}'", "facts",
        direction="per direction")
      for g, r, s in ((1, 20, "20 Gb/s x 8 pairs per direction"), (2, 25, "25 Gb/s x 8 pairs"),
                      (3, 50, "50 Gb/s x 4 pairs"), (4, 100, "2 lanes x 100 Gb/s PAM4"),
                      (5, 200, "2 lanes x 200 Gb/s"))],
    *[L(f"links.NVLINK[{g}].lanes_per_direction", n, "count", f"'{s}'", "facts")
      for g, n, s in ((1, 8, "20 Gb/s x 8 pairs per direction"), (2, 8, "25 Gb/s x 8 pairs"),
                      (3, 4, "50 Gb/s x 4 pairs; 'we have only 4 pairs, not 8' (sjeaugey)"),
                      (4, 2, "2 lanes x 100 Gb/s PAM4"), (5, 2, "2 lanes x 200 Gb/s"))],
    *[L(f"links.NVLINK[{g}].nccl_effective_per_link", r, "GB/s",
        f"src/graph/topo.h: '#define {m}_NVLINK_BW {r}'", "nccl@5067397",
        direction="per direction")
      for g, m, r in ((1, "SM60", 18.0), (2, "SM70", 20.0), (3, "SM80", 20.0), (4, "SM90", 20.6),
                      (5, "SM100", 40.1))],
    # NVLink-C2C
    L("links.NVLINK_C2C.per_direction", 450, "GB/s",
      "'Up to 900 GB/s total bandwidth, 450 GB/s per direction'", "grace-hopper",
      direction="per direction"),
    L("links.NVLINK_C2C.gpus", 1, "count", "GH200: one Grace CPU and one Hopper GPU",
      "grace-hopper"),
    L("links.NVLINK_C2C.measured_h2d", 375, "GB/s",
      "NVLink-C2C 'was only 375 GB/s in the host-to-device direction' (HPCwire's report "
      "of the paper)", "schieffer-gh200",
      direction="per direction"),
    L("links.NVLINK_C2C.measured_d2h", 297, "GB/s",
      "'and only 297 GB/s in the reverse direction'", "schieffer-gh200",
      direction="per direction"),
    L("links.NVLINK_C2C_SUPERCHIP.per_direction", 450, "GB/s",
      "GB200 superchip NVLink-C2C: 900 GB/s both directions added, one Grace and two GPUs",
      "grace-hopper", direction="per direction"),
    L("links.NVLINK_C2C_SUPERCHIP.gpus", 2, "count",
      "'one Grace CPU and two Blackwell GPUs' per GB200 superchip", "mlperf-gb200"),
    L("links.NVLINK_C2C_SUPERCHIP.measured_h2d", 201, "GB/s",
      "NV Bandwidth table, ND GB200 v6 (GB/s): '| Host to Device | 201 |'", "azure-gb200",
      direction="per direction"),
    L("links.NVLINK_C2C_SUPERCHIP.measured_d2h", 193, "GB/s",
      "NV Bandwidth table, ND GB200 v6 (GB/s): '| Device to Host | 193 |'", "azure-gb200",
      direction="per direction"),
    # export parts
    L("links.REDUCED_NVLINK['a800'].headline", 400, "GB/s", "A800: 'NVLink 400 GB/s'", "a800",
      direction="bidirectional"),
    L("links.REDUCED_NVLINK['a800'].nvlink_gen", 3, "count", "A800 is a cut-down A100 (NVLink 3)",
      "a800"),
    L("links.REDUCED_NVLINK['h800'].headline", 400, "GB/s",
      "'H800: 400 GB/s bidir nominal per DeepSeek staff' (facts.md 1.2)", "deepseek-insights",
      direction="bidirectional"),
    L("links.REDUCED_NVLINK['h800'].nvlink_gen", 4, "count", "H800 is a cut-down H100 (NVLink 4)",
      "deepseek-insights"),
    # NCCL wire formats and limits
    L("links.NCCL_PROTOCOL_LINES['LL'][0]", 16, "B",
      "src/include/device.h: 'union ncclLLFifoLine { struct { uint32_t data1; uint32_t flag1; "
      "uint32_t data2; uint32_t flag2; }; uint64_t v[2]; ...}' = 16 B", "nccl@5067397"),
    L("links.NCCL_PROTOCOL_LINES['LL'][1]", 8, "B", "data1 + data2 = 2 x 4 B of the 16-B line",
      "nccl@5067397"),
    L("links.NCCL_PROTOCOL_LINES['LL128'][0]", 128, "B",
      "device.h:110 '#define NCCL_LL128_LINESIZE 128'", "nccl@5067397"),
    L("links.NCCL_PROTOCOL_LINES['LL128'][1]", 120, "B",
      "device.h:111-112 'NCCL_LL128_LINEELEMS (NCCL_LL128_LINESIZE / sizeof(uint64_t))', "
      "'NCCL_LL128_DATAELEMS (NCCL_LL128_LINEELEMS - 1)' = 15 x 8 B", "nccl@5067397"),
    L("links.NCCL_MAX_CHANNELS", 64, "count", "device.h:91 '#define MAXCHANNELS 64'",
      "nccl@5067397"),
    L("links.NVLINK_MAX_PAYLOAD['SM']", 128, "B", "'SMs are limited to 128B payload size'",
      "sjeaugey-149"),
    L("links.NVLINK_MAX_PAYLOAD['copy engine']", 256, "B", "'Copy Engines can use 256B'",
      "sjeaugey-149"),
    # InfiniBand generations (4x ports)
    *[L(f"links.INFINIBAND['{n}'].lane_signalling", s, "Gb/s",
        f"'{n} | {s} ...' lane signalling", "ib-table", direction="per direction")
      for n, s in (("SDR", 2.5), ("DDR", 5), ("QDR", 10), ("FDR", 14.0625), ("EDR", 25.78125),
                   ("HDR", 53.125), ("NDR", 106.25))],
    L("links.INFINIBAND['XDR'].lane_signalling", 212.5, "Gb/s",
      "200 Gb/s lanes at 106.25 GBd PAM4 = 212.5 Gb/s ('signaling at 212.5 GT/s to "
      "accommodate forward error correction and encoding overhead')", "ieee-8023dj",
      direction="per direction"),
    *[L(f"links.INFINIBAND['{n}'].lane_data", d, "Gb/s", f"'{n} | ... | lane data {d}'",
        "ib-table", direction="per direction", tol=t)
      for n, d, t in (("SDR", 2, 1e-9), ("DDR", 4, 1e-9), ("QDR", 8, 1e-9),
                      ("FDR", 14.0625 * 64 / 66, 1e-9), ("EDR", 25, 1e-9), ("HDR", 50, 1e-9),
                      ("NDR", 100, 1e-9), ("XDR", 200, 1e-9))],
    *[L(f"links.INFINIBAND['{n}'].year", y, "count", f"'{n} | ... | ~{y}'", "ib-table")
      for n, y in (("SDR", 2001), ("DDR", 2005), ("QDR", 2007), ("FDR", 2011), ("EDR", 2014),
                   ("HDR", 2019), ("NDR", 2022))],
    # Ethernet
    *[L(f"links.ETHERNET[{g}]", g, "Gb/s", f"'{g} GbE per port | {g / 8:g} GB/s per "
        "direction' (MAC data rate)", "ieee-8023", direction="per direction")
      for g in (100, 200, 400, 800)],
]

# -------------------------------------------------------------------- host copies, PCIe
ROWS += [
    L("host_copies.HOST_COPIES['azure-nd-h100-v5'].h2d", 51, "GB/s",
      "'Azure ND H100 v5 ... | 51 GB/s | 52 GB/s | nvbandwidth'", "azure",
      direction="per direction"),
    L("host_copies.HOST_COPIES['azure-nd-h100-v5'].d2h", 52, "GB/s", "'| 51 GB/s | 52 GB/s |'",
      "azure", direction="per direction"),
    L("host_copies.HOST_COPIES['azure-nd-h100-v5'].lanes", 16, "count", "'PCIe Gen5 x16'", "azure"),
    L("host_copies.HOST_COPIES['azure-nd-h200-v5'].h2d", 52, "GB/s",
      "'Azure ND H200 v5 | 52 GB/s | 52 GB/s | nvbandwidth'", "azure",
      direction="per direction"),
    L("host_copies.HOST_COPIES['azure-nd-h200-v5'].d2h", 52, "GB/s", "'| 52 GB/s | 52 GB/s |'",
      "azure", direction="per direction"),
    L("host_copies.HOST_COPIES['azure-nd-h200-v5'].lanes", 16, "count", "'PCIe Gen5 x16'", "azure"),
    L("host_copies.HOST_COPIES['bekman-h200'].h2d", 55.43, "GB/s",
      "'8xH200 node ... | 55.43 GB/s (88% of 63) | 55.06 GB/s | nvbandwidth'", "bekman-net",
      direction="per direction"),
    L("host_copies.HOST_COPIES['bekman-h200'].d2h", 55.06, "GB/s", "'| 55.06 GB/s |'",
      "bekman-net", direction="per direction"),
    L("host_copies.HOST_COPIES['bekman-h200'].lanes", 16, "count", "'Gen5 x16'", "bekman-net"),
    L("host_copies.PCIE_HOST_COPY_EFFICIENCY", 51 / (32 * 16 / 8 * 128 / 130), "fraction",
      "by hand: 51 GB/s measured / (32 GT/s x 16 lanes / 8 x 128/130 = 63.015 GB/s usable)",
      "azure"),
]

# ----------------------------------------------------------------------- inside the box
ROWS += [
    L("inside_box.P2P['a100'].per_direction", 274, "GB/s",
      "'A100 ~ 274 GB/s (91% of 300)' (p2pBandwidthLatencyTest, uni)", "bekman-net",
      direction="per direction"),
    L("inside_box.P2P['a100'].nvlink_gen", 3, "count", "A100: NVLink 3", "facts"),
    L("inside_box.P2P['h100'].per_direction", 376, "GB/s", "'H100 ~ 376 GB/s (83% of 450)'",
      "bekman-net", direction="per direction"),
    L("inside_box.P2P['h100'].nvlink_gen", 4, "count", "H100: NVLink 4", "facts"),
    L("inside_box.P2P['gb200'].per_direction", 746, "GB/s", "'GB200 ~ 746 GB/s (83% of 900)'",
      "bekman-net", direction="per direction"),
    L("inside_box.P2P['gb200'].nvlink_gen", 5, "count", "GB200: NVLink 5", "facts"),
    L("inside_box.P2P['h200'].per_direction", 396.4, "GB/s",
      "'8xH200 nvbandwidth: 396.4 uni, 783.7 bidir'", "bekman-net", direction="per direction"),
    L("inside_box.P2P['h200'].bidirectional", 783.7, "GB/s", "'396.4 uni, 783.7 bidir'",
      "bekman-net", direction="bidirectional"),
    L("inside_box.P2P['h200'].nvlink_gen", 4, "count", "H200: NVLink 4", "facts"),
    L("inside_box.P2P['hgx-h100'].per_direction", 380, "GB/s",
      "'(HGX H100): 380 uni and ~749 bidir'", "nccl-1264", direction="per direction"),
    L("inside_box.P2P['hgx-h100'].bidirectional", 749, "GB/s", "'380 uni and ~749 bidir'",
      "nccl-1264", direction="bidirectional"),
    L("inside_box.P2P['hgx-h100'].nvlink_gen", 4, "count", "HGX H100: NVLink 4", "facts"),
    L("inside_box.NVLINK_REPORTED_PER_LINK[4]", 26.5625, "GB/s",
      "'nvidia-smi nvlink -s reports 26.5625 GB/s per link on H100'", "bekman-net",
      direction="per direction"),
    L("inside_box.NVLINK_REPORTED_PER_LINK[5]", 53.125, "GB/s", "'and 53.125 on B200'",
      "bekman-net", direction="per direction"),
    L("inside_box.NVLINK_APP_EFFICIENCY", 0.8, "fraction",
      "'Roughly, the app-level bandwidth is 80% of the peak bandwidth' (NVIDIA/nccl#1054)",
      "sjeaugey-212"),
    *[L(f"inside_box.DGX_H100_LINKS_PER_SWITCH[{i}]", n, "count",
        "'GPU links go 5+4+4+5 to the four switches'", "hotchips-nvswitch")
      for i, n in enumerate((5, 4, 4, 5))],
    L("inside_box.NVL72_SWITCH_TRAYS", 9, "count", "'9 switch trays x 2 chips = 18 chips'",
      "facts"),
    L("inside_box.NVL72_CHIPS_PER_TRAY", 2, "count",
      "'18 NVSwitch ASICs (2 per tray, 9 trays)' (Lockwood, NVLink)", "facts"),
    L("inside_box.NVLINK_DOMAINS['dgx-h100'].headline", 3.6, "TB/s",
      "'Bisection 3.6 TB/s' = 8 x 450 GB/s, both directions (Hot Chips 34)",
      "hotchips-nvswitch", direction="bidirectional"),
    L("inside_box.NVLINK_DOMAINS['dgx-h100'].nvlink_gen", 4, "count", "DGX H100: NVLink 4", "facts"),
    L("inside_box.NVLINK_DOMAINS['dgx-b200'].headline", 14.4, "TB/s",
      "'Two NVIDIA NVSwitch devices with 14.4 TB/s aggregate NVLink bandwidth'", "dgx-b200",
      direction="bidirectional"),
    L("inside_box.NVLINK_DOMAINS['dgx-b200'].nvlink_gen", 5, "count", "DGX B200: NVLink 5",
      "facts"),
    L("inside_box.NVLINK_DOMAINS['dgx-h100-nvlink-256'].headline", 57.6, "TB/s",
      "'up to 256 connected NVIDIA H100 ... and 57.6 TB/s of all-to-all bandwidth'",
      "nvswitch-blog", direction="bidirectional",
      note="NVIDIA also writes '9x more bisection bandwidth than was possible with HDR "
           "InfiniBand' on 32 DGX A100 (16 x 8 x 25 GB/s x 2 = 6.4 TB/s both ways; 9 x 6.4 = "
           "57.6): a bisection with both directions added (the quote as issue 39's catalogue "
           "gives it, not re-read here; the arithmetic checked here)"),
    L("inside_box.NVLINK_DOMAINS['dgx-h100-nvlink-256'].size", 256, "count",
      "'up to 256 connected NVIDIA H100'", "nvswitch-blog"),
    L("inside_box.NVLINK_DOMAINS['dgx-h100-nvlink-256'].nvlink_gen", 4, "count", "H100: NVLink 4",
      "facts"),
    L("inside_box.NVLINK_DOMAINS['dgx-gh200-256'].headline", 57.6, "TB/s",
      "DGX GH200: 'clusters of up to 256 connected ... 57.6 TB/s of all-to-all bandwidth'",
      "gh200-page", direction="not stated", note="direction not stated by NVIDIA"),
    L("inside_box.NVLINK_DOMAINS['dgx-gh200-256'].size", 256, "count", "'up to 256'",
      "gh200-page"),
    L("inside_box.NVLINK_DOMAINS['dgx-gh200-256'].nvlink_gen", 4, "count", "GH200: NVLink 4",
      "facts"),
    L("inside_box.DGX_H100_NVLINK_AGGREGATE", 7.2, "TB/s",
      "'7.2TB/s of bidirectional GPU-to-GPU bandwidth'", "dgx-h100-page",
      direction="bidirectional", note="= 8 GPUs x 900 GB/s (18 links x 50 GB/s both ways)"),
    L("inside_box.NVLINK_DOMAINS['gb200-nvl72'].headline", 130, "TB/s",
      "'NVIDIA NVLink Switch enables 130TB/s of GPU bandwidth in one NVL72'", "gb200-page",
      direction="bidirectional"),
    L("inside_box.NVLINK_DOMAINS['gb200-nvl72'].nvlink_gen", 5, "count", "GB200: NVLink 5", "facts"),
    L("inside_box.NVLINK_DOMAINS['gb200-nvl576'].headline", 576 * 1.8, "TB/s",
      "by hand: 576 GPUs x 1.8 TB/s ('1.8 TB/s bidirectional per GPU') = 1036.8 TB/s",
      "nvl576", direction="bidirectional"),
    L("inside_box.NVLINK_DOMAINS['gb200-nvl576'].nvlink_gen", 5, "count", "GB200: NVLink 5", "facts"),
    L("inside_box.NVLINK_DOMAINS['gb200-nvl576'].size", 576, "count",
      "'Support for up to 576 GPUs in a single NVLink domain'", "nvl576"),
    L("inside_box.NVLS_MEASURED['dgx-h100'].ring", 370, "GB/s",
      "'ring effective ~370 GB/s'", "sjeaugey-212", direction="per direction"),
    L("inside_box.NVLS_MEASURED['dgx-h100'].nvls", 480, "GB/s",
      "'NVLS \"peak busBw of ~480GB/s (algbw ~275GB/s)\"'", "sjeaugey-212",
      direction="per direction"),
    L("inside_box.NVLS_MEASURED['dgx-h100'].gpus", 8, "count", "'8xH100'", "sjeaugey-212"),
    L("inside_box.NVLS_MEASURED['gb200-nvl72'].ring", 680, "GB/s",
      "'NVL72 680 -> 850 GB/s' (without / with SHARP)", "nccl-1374", direction="per direction"),
    L("inside_box.NVLS_MEASURED['gb200-nvl72'].nvls", 850, "GB/s", "'NVL72 680 -> 850 GB/s'",
      "nccl-1374", direction="per direction"),
    L("inside_box.NVLS_MEASURED['gb200-nvl72'].gpus", 72, "count",
      "NVL72 (GPU count not stated: the whole domain assumed)", "nccl-1374"),
]

# ------------------------------------------------------------------------------ compute
ROWS += [
    L("compute.BF16_DENSE_FLOPS['a100-sxm-80gb']", 312, "TFLOP/s",
      "'BF16 | 312 | 624' (matrix | sparse)", "lockwood-a100"),
    L("compute.BF16_DENSE_FLOPS['h100-sxm']", 1979 / 2, "TFLOP/s",
      "'BFLOAT16 Tensor コア | 1,979 TFLOPS*' with '* Shown with sparsity. Specifications 1/2 "
      "lower without sparsity'", "h100-flops", tol=1e-3, note="the catalogue rounds 989.5 to 989"),
    L("compute.BF16_DENSE_FLOPS['h200']", 1979 / 2, "TFLOP/s",
      "H200: same GH100 Tensor Cores and clocks as H100 SXM (BF16 989.4 dense)", "h100-flops",
      tol=1e-3, note="rounded"),
    L("compute.BF16_DENSE_FLOPS['b200']", 2250, "TFLOP/s",
      "HGX B200 at 1,000 W: 'BF16 | 2250 | 4500'", "lockwood-b200"),
    L("compute.BF16_DENSE_FLOPS['gb200']", 2500, "TFLOP/s",
      "GB200 at 1,200 W: 'BF16 | 2500 | 5000'", "lockwood-b200"),
    L("compute.BF16_DENSE_FLOPS['b300']", 2250, "TFLOP/s",
      "HGX B300: 'BF16 | 2250 | 4500'; HGX B300 'FP16/BF16 Tensor Core* | 36 PFLOPS' (sparse, "
      "8 GPUs)", "lockwood-b300"),
    L("compute.HBM_COPY_EFFICIENCY", 2.90 / 3.35, "fraction",
      "by hand: Azure ND H100 v5 'Copy 2.90' TB/s / 3.35 TB/s peak", "azure"),
    L("compute.LLAMA3_INTERRUPTIONS['total']", 466, "count",
      "'466 interruptions (47 planned, 419 unexpected)' (Table 5)", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['planned']", 47, "count", "'47 planned'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['unexpected']", 419, "count", "'419 unexpected'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['Faulty GPU']", 148, "count", "'Faulty GPU is listed as 148 "
      "(30.1%)'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['GPU HBM3 memory']", 72, "count",
      "Table 5: 'GPU HBM3 Memory | 72 | 17.2%'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['Network switch/cable']", 35, "count",
      "'Network Switch/Cable 35 (8.4%)'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['NIC']", 7, "count", "'NIC 7 (1.7%)'", "llama3"),
    L("compute.LLAMA3_INTERRUPTIONS['NCCL watchdog timeouts']", 7, "count",
      "'NCCL watchdog timeouts 7 (1.7%)'", "llama3"),
    L("compute.LLAMA3_SNAPSHOT_DAYS", 54, "count", "'Table 5, 54-day snapshot'", "llama3"),
    L("compute.LLAMA3_GPUS", 16384, "count", "'up to 16K H100 GPUs' (16 x 1,024)", "llama3"),
]

# ------------------------------------------------------------------------------- fabric
ROWS += [
    L("fabric.SWITCHES['quantum-2'].ports", 64, "count",
      "'64 ports at 400Gbps or 128 ports at 200Gbps'", "quantum2"),
    L("fabric.SWITCHES['quantum-2'].port_rate", 400, "Gb/s",
      "'QM97XX 1U NDR 400Gbps InfiniBand Switch Systems'", "quantum2", direction="per direction"),
    L("fabric.SWITCHES['spectrum-4'].ports", 64, "count", "'64x OSFP 800GbE, 51.2 Tb/s'",
      "spectrum4"),
    L("fabric.SWITCHES['spectrum-4'].port_rate", 800, "Gb/s", "'64x OSFP 800GbE'", "spectrum4",
      direction="per direction"),
    L("fabric.SWITCHES['quantum-x800'].ports", 144, "count",
      "Q3400: '144 ports of 800Gb/s' (115.2 Tb/s)", "x800"),
    L("fabric.SWITCHES['quantum-x800'].port_rate", 800, "Gb/s", "'800 Gb/s per port'", "x800",
      direction="per direction"),
    L("fabric.SWITCHES['quantum-x-photonics'].ports", 144, "count",
      "Quantum-X Photonics: '144 ports of 800Gb/s InfiniBand based on 200Gb/s SerDes'",
      "photonics"),
    L("fabric.SWITCHES['quantum-x-photonics'].port_rate", 800, "Gb/s", "'144 ports of 800Gb/s'",
      "photonics", direction="per direction"),
    L("fabric.SWITCHES['spectrum-x-photonics'].ports", 128, "count",
      "Spectrum-X Photonics: '128 ports of 800Gb/s or 512 ports of 200Gb/s, delivering 100Tb/s "
      "total bandwidth'", "photonics"),
    L("fabric.SWITCHES['spectrum-x-photonics'].port_rate", 800, "Gb/s", "'128 ports of 800Gb/s'",
      "photonics", direction="per direction"),
    L("fabric.XDR_SWITCH_PORT_RATE", 800, "Gb/s", "XDR: '800 | 100 GB/s' per 4x port", "ib-table",
      direction="per direction"),
    L("fabric.SUPERPOD_SU['nodes_per_su']", 32, "count",
      "'32 nodes (256 GPUs) per Scalable Unit under 8 leaf switches'", "superpod"),
    L("fabric.SUPERPOD_SU['leaves_per_su']", 8, "count", "'under 8 leaf switches'", "superpod"),
    L("fabric.SUPERPOD_SU['sus_per_pod']", 4, "count",
      "'4 SUs and 16 spine switches make 1,024 GPUs'", "superpod"),
    L("fabric.SUPERPOD_SU['spines']", 16, "count", "'16 spine switches'", "superpod"),
    L("fabric.ADAPTER_LATENCY['EDR']", 0.5, "us", "'Adapter end-to-end: EDR 0.5 us'",
      "bekman-ib"),
    L("fabric.ADAPTER_LATENCY['HDR']", 0.6, "us", "'HDR 0.6 us'", "bekman-ib"),
    L("fabric.SWITCH_HOP_LATENCY['low']", 100, "ns",
      "'NIC-to-NIC latency passing through a single switch ASIC usually clocks in somewhere in "
      "the 100-300 nanosecond range'", "wwt"),
    L("fabric.SWITCH_HOP_LATENCY['high']", 300, "ns", "'the 100-300 nanosecond range'", "wwt"),
    L("fabric.PACKET_HEADERS['ethernet_preamble_ifg']", 20, "B",
      "preamble 7 + SFD 1 + minimum inter-packet gap 96 bit times (12 octets)", "ieee-frame"),
    L("fabric.PACKET_HEADERS['ethernet_mac']", 14, "B",
      "destination 6 + source 6 + EtherType 2 octets", "ieee-frame"),
    L("fabric.PACKET_HEADERS['ethernet_fcs']", 4, "B", "FCS: 32-bit CRC", "ieee-frame"),
    L("fabric.PACKET_HEADERS['ipv4']", 20, "B", "IHL = 5 (32-bit words) without options",
      "rfc791"),
    L("fabric.PACKET_HEADERS['ipv6']", 40, "B", "fixed header, 40 octets", "rfc8200"),
    L("fabric.PACKET_HEADERS['udp']", 8, "B", "UDP header: 4 x 16-bit fields", "rfc768"),
    L("fabric.PACKET_HEADERS['ib_bth']", 12, "B", "Base Transport Header 12 bytes", "ibta"),
    L("fabric.PACKET_HEADERS['ib_icrc']", 4, "B", "Invariant CRC 4 bytes", "ibta"),
    L("fabric.PACKET_HEADERS['ib_lrh']", 8, "B", "Local Route Header 8 bytes", "ibta"),
    L("fabric.PACKET_HEADERS['ib_vcrc']", 2, "B", "Variant CRC 2 bytes", "ibta"),
    L("fabric.PACKET_HEADERS['ib_grh']", 40, "B", "Global Route Header 40 bytes", "ibta"),
    L("fabric.PACKET_HEADERS['ib_reth']", 16, "B", "RDMA Extended Transport Header 16 bytes",
      "ibta"),
    L("fabric.NCCL_IB_DEFAULTS['qps_per_connection']", 1, "count",
      "src/transport/net_ib/connect.cc:60 'NCCL_PARAM(IbQpsPerConn, \"IB_QPS_PER_CONNECTION\", 1)'",
      "nccl@5067397"),
    L("fabric.NCCL_IB_DEFAULTS['timeout_exponent']", 20, "count",
      "connect.cc:15 'NCCL_PARAM(IbTimeout, \"IB_TIMEOUT\", 20)'", "nccl@5067397"),
    L("fabric.NCCL_IB_DEFAULTS['retry_count']", 7, "count",
      "connect.cc:16 'NCCL_PARAM(IbRetryCnt, \"IB_RETRY_CNT\", 7)'", "nccl@5067397"),
    L("fabric.NCCL_IB_DEFAULTS['ar_threshold']", 8192, "B",
      "p2p.cc:14 'int64_t ncclIbArThreshold = 8192;' (the IB_AR_THRESHOLD param's -2 keeps it)",
      "nccl@5067397"),
    L("fabric.SHARP_TREES['Quantum (HDR)']", 126, "count",
      "Quantum supports 'up to 126 aggregation trees'", "sharp-doc"),
    L("fabric.SHARP_TREES['Quantum-2 (NDR)']", 1023, "count",
      "Quantum-2 supports 'up to 1023'", "sharp-doc"),
    L("fabric.DEEP_BUFFER_QUEUE_LIMIT", 5, "ms",
      "'VoQ for a 10G output port | 50,000 packets | 50 MB | 5 msec' ... '100G output port | "
      "... | 5 msec'", "arista-voq"),
]

# ------------------------------------------------------------------------------ layouts
ROWS += [
    L("layouts.NVL72_PORTS_PER_SWITCH_TRAY", 144, "count",
      "'tray: 144 NVLink ports, 14.4 TB/s non-blocking' (facts.md 1.3)", "gb200-page"),
    L("layouts.PCIE_TREES['dgx-h100'].cpus", 2, "count",
      "Table 6: 'GPUs 0-3 on module/CPU 0, GPUs 4-7 on module/CPU 1'", "dgx-h100-guide"),
    L("layouts.PCIE_TREES['dgx-h100'].switch_cpu", (0, 0, 0, 0, 1, 1, 1, 1), "count",
      "'GPUs 0-3 on module/CPU 0, GPUs 4-7 on module/CPU 1', one ConnectX-7 (with its PCIe "
      "switch) per GPU", "dgx-h100-guide"),
    L("layouts.PCIE_TREES['dgx-h100'].switch_gpus", tuple((i,) for i in range(8)), "count",
      "'one ConnectX-7 per GPU', each ConnectX-7 containing the PCIe switch to its GPU",
      "dgx-h100-guide"),
    L("layouts.PCIE_TREES['dgx-h100'].switch_nics", tuple((i,) for i in range(8)), "count",
      "'maps every compute port to its ConnectX device ... and its GPU'", "dgx-h100-guide"),
]

# ------------------------------------------------------------------------------ scaleup
ROWS += [
    L("scaleup.SCALEUP_DOMAINS['gaudi3-hls3'].domain_size", 8, "count",
      "'connect to seven other accelerators inside a single HLS-3 box'", "gaudi3"),
    L("scaleup.SCALEUP_DOMAINS['gaudi3-hls3'].per_accelerator", 525, "GB/s",
      "'21*200Gbps = 21*25 GB/s = 525 GB/s unidirectional bandwidth'", "gaudi3",
      direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['gaudi3-hls3'].scale_out_per_accelerator", 75, "GB/s",
      "'The scale-out bandwidth from each Gaudi 3 is 3*200Gbps = 75 GB/s in each direction'",
      "gaudi3", direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['tpu-v5p-pod'].domain_size", 8960, "count",
      "'There are 8960 chips in a v5p Pod'", "tpu-v5p"),
    L("scaleup.SCALEUP_DOMAINS['tpu-v5p-pod'].per_accelerator", 600, "GB/s",
      "'Bidirectional inter-chip interconnect (ICI) bandwidth per chip (GBps) | 1200' (/2)",
      "tpu-v5p", direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['tpu-v5p-pod'].scale_out_per_accelerator", 50, "Gb/s",
      "'Data center network (DCN) bandwidth per chip (Gbps) | 50'", "tpu-v5p",
      direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['tpu-v5p-pod'].memory_bandwidth", 2765, "GB/s",
      "'HBM bandwidth per chip (GBps) | 2765'", "tpu-v5p", direction="read + write"),
    L("scaleup.TPU_V5P_LARGEST_JOB", 6144, "count",
      "'The largest job that can be scheduled is a 96 cube (6144 chip) job'", "tpu-v5p"),
    L("scaleup.SCALEUP_DOMAINS['trainium2-trn2'].domain_size", 16, "count",
      "'A trn2.48xlarge has 16 Trainium2 chips'; 'NeuronLink-v3's 4 x 4 torus'", "trn2"),
    L("scaleup.SCALEUP_DOMAINS['ualink-pod'].domain_size", 1024, "count",
      "'200G per lane interconnect supporting up to 1,024 accelerators per AI pod'", "ualink"),
    L("scaleup.SCALEUP_DOMAINS['vera-rubin-nvl72'].domain_size", 72, "count",
      "Vera Rubin NVL72: 72 Rubin GPU packages (GTC 2025's 'NVL144' counted dies)",
      "vera-rubin"),
    L("scaleup.SCALEUP_DOMAINS['mi300x-8'].domain_size", 8, "count",
      "MI300X platform: \"accelerators_per_node\": 8", "mlperf-amd"),
    # issue 39: NVIDIA Rubin
    L("scaleup.NVLINK6_PER_GPU", 3.6, "TB/s", "NVLink 6: '3.6 TB/s per GPU'", "rubin-blog",
      direction="bidirectional", note="twice NVLink 5's 1.8 TB/s per GPU (both directions)"),
    L("scaleup.CONNECTX9_PER_GPU", 1600, "Gb/s", "ConnectX-9 SuperNIC: 1.6 Tb/s per Rubin GPU",
      "rubin-blog", direction="per direction",
      note="a NIC's rate is per direction; Wheeler's reading ('each ConnectX-9 is actually "
           "800Gbps ... each GPU has a pair') gives the same 1.6 Tb/s per GPU"),
    L("scaleup.SCALEUP_DOMAINS['vera-rubin-nvl72'].per_accelerator", 1.8, "TB/s",
      "'3.6 TB/s per GPU' (NVLink 6, both directions) / 2", "rubin-blog",
      direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['vera-rubin-nvl72'].domain_headline", 260, "TB/s",
      "NVLink 6: '260 TB/s' for the rack (72 x 3.6 = 259.2, rounded by NVIDIA)", "rubin-blog",
      direction="bidirectional"),
    L("scaleup.SCALEUP_DOMAINS['vera-rubin-nvl72'].memory_bandwidth", 22, "TB/s",
      "Rubin GPU: '288 GB of HBM4 at 22 TB/s'", "rubin-blog", direction="read + write"),
    # issue 39: AMD
    L("scaleup.XGMI_LINK", 64, "GB/s",
      "amdgpu: 32 GT/s x 16 lanes per xGMI link, unidirectional (= 512 Gb/s); AMD's 'Peak "
      "Infinity Fabric Link Bandwidth' 128 GB/s for MI300X/MI325X is both directions",
      "amd-xgmi-driver", direction="per direction",
      note="the per-direction half of AMD's 128 GB/s also in Bekman's table ('64' GBps "
           "per link/direction for MI300X and MI325X), read here"),
    L("scaleup.XGMI_LINK_MI350", 76.8, "GB/s",
      "AMD MI355X: 153.6 GB/s 'Peak Infinity Fabric Link Bandwidth' (both directions) / 2",
      "amd-mi355x", direction="per direction", tol=0.005,
      note="Bekman's table rounds AMD's figure to 153 (76.5 per direction, 535.5 for 7 "
           "links): within 0.4 %; tol 0.5 % for that rounding, the catalogue keeps 153.6"),
    L("scaleup.AMD_8GPU_LINKS", 7, "count",
      "'fully interconnected via seven high-bandwidth, low-latency AMD Infinity Fabric links "
      "forming a 8-GPU system'", "rocm-mi300"),
    L("scaleup.SCALEUP_DOMAINS['mi300x-8'].per_accelerator", 448, "GB/s",
      "7 links x 64 GB/s per direction (Bekman: 'Uni-dir. all-to-all' 448 for MI300X)",
      "bekman-amd", direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['mi300x-8'].memory_bandwidth", 5.3, "TB/s",
      "'The theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per second'",
      "rocm-mi300", direction="read + write"),
    L("scaleup.SCALEUP_DOMAINS['mi325x-8'].domain_size", 8, "count",
      "MI325X: 7 links, 8-GPU all-to-all platform (Bekman's table: MI325X, Links 7)",
      "bekman-amd"),
    L("scaleup.SCALEUP_DOMAINS['mi325x-8'].per_accelerator", 448, "GB/s",
      "MI325X: '64' GBps per link/direction x 7 links = '448' uni-dir. all-to-all",
      "bekman-amd", direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['mi325x-8'].memory_bandwidth", 6, "TB/s",
      "MI325X: 256 GB HBM3E, 6 TB/s peak memory bandwidth", "amd-mi325x",
      direction="read + write"),
    L("scaleup.SCALEUP_DOMAINS['mi355x-8'].domain_size", 8, "count",
      "MI355X: 7 links, 8-GPU all-to-all platform (Bekman's table: MI355X, Links 7)",
      "bekman-amd"),
    L("scaleup.SCALEUP_DOMAINS['mi355x-8'].per_accelerator", 537.6, "GB/s",
      "7 links x 153.6 GB/s / 2 per direction", "amd-mi355x", direction="per direction",
      tol=0.005, note="Bekman's table: 535.5 (from 153 rounded); within 0.4 %"),
    L("scaleup.SCALEUP_DOMAINS['mi355x-8'].memory_bandwidth", 8, "TB/s",
      "'288 GB of on-package memory and an aggregate bandwidth of 8 TB/s'", "amd-mi355x",
      direction="read + write"),
    L("scaleup.SCALEUP_DOMAINS['amd-helios'].domain_size", 72, "count",
      "'72 AMD Instinct MI455X GPUs' per rack", "amd-helios"),
    L("scaleup.SCALEUP_DOMAINS['amd-helios'].per_accelerator", 1.8, "TB/s",
      "MI455X 'Scale-up Bandwidth per GPU: 3.6 TB/s' (bi-directional) / 2", "amd-helios",
      direction="per direction"),
    L("scaleup.SCALEUP_DOMAINS['amd-helios'].domain_headline", 260, "TB/s",
      "'up to 260 TB/s aggregated scale-up bandwidth'", "amd-helios",
      direction="bidirectional"),
    # issue 39: UALink, Intel, Google, AWS
    L("scaleup.UALINK_X4_PORT", 800, "Gb/s", "UALink 1.0: x4 port of 200 Gb/s lanes",
      "ualink-wp", direction="per direction", note="4 x 200 Gb/s"),
    L("scaleup.SCALEUP_DOMAINS['gaudi3-hls3'].memory_bandwidth", 3.7, "TB/s",
      "Gaudi 3: '128 GB HBM2e; 3.7 TB/s'", "gaudi3-wp", direction="read + write"),
    L("scaleup.TPU_V5P_CUBE", 64, "count", "a cube is 4 x 4 x 4 chips ('96 cube (6144 chip)'"
      " = 64 chips per cube)", "tpu-v5p"),
    L("scaleup.TPU_V5P_MAX_SLICE_SHAPE", (16, 16, 24), "count",
      "'v5p-12288': '16x16x24' (12,288 cores = 6,144 chips), the largest v5p slice shape",
      "tpu-v5p-slices"),
    L("scaleup.SCALEUP_DOMAINS['trainium2-trn2'].stated_per_accelerator", 1.28, "TB/s",
      "'NeuronLink-v3 for device-to-device interconnect provides 1.28 TB/sec bandwidth per "
      "device'", "neuron-trn2", direction="not stated"),
    L("scaleup.SCALEUP_DOMAINS['trainium2-trn2'].memory_bandwidth", 2.9, "TB/s",
      "'4 HBM stacks with a total device memory capacity of 96GiB and bandwidth of 2.9TB/s'",
      "neuron-trn2", direction="read + write",
      note="the v2.29.0 NKI guide rounds it to '3TB/s'"),
    L("scaleup.SCALEUP_DOMAINS['trainium3-ultraserver'].domain_size", 144, "count",
      "'Trn3 UltraServers can scale up to 144 Trainium3 chips'", "trn3-ga"),
    L("scaleup.SCALEUP_DOMAINS['trainium3-ultraserver'].memory_bandwidth", 4.9, "TB/s",
      "'144 GiB of device memory, with 4.9 TB/sec of bandwidth'", "neuron-trn3",
      direction="read + write"),
    L("scaleup.SCALEUP_DOMAINS['trainium3-ultraserver'].stated_per_accelerator", 2.56, "TB/s",
      "'NeuronLink-v4 for device-to-device interconnect provides 2.56 TB/sec bandwidth per "
      "device'", "neuron-trn3", direction="not stated"),
]

# ------------------------------------------------------------------------------ outlook
ROWS += [
    L("outlook.PCIE7['transfer rate']", 128, "GT/s", "'128.0 GT/s raw bit rate'", "pcie7",
      direction="per direction"),
    L("outlook.PCIE7['x16 headline']", 512, "GB/s",
      "'up to 512 GB/s bi-directionally via x16 configuration'", "pcie7",
      direction="bidirectional", note="= 128 GT/s x 16 lanes / 8 x 2 directions"),
    L("outlook.CXL4", 128, "GT/s", "CXL 4.0: 'Doubles the bandwidth to 128GTs'", "cxl4",
      direction="per direction"),
    L("outlook.ETHERNET_1600", 1600, "Gb/s", "P802.3dj: 1.6 Tb/s Ethernet (8 x 200 Gb/s lanes)",
      "ieee-8023dj-proj", direction="per direction"),
    L("outlook.ETHERNET_LANE_200G", 200, "Gb/s", "P802.3dj: 200 Gb/s per lane",
      "ieee-8023dj", direction="per direction"),
    L("outlook.DEEPSEEK_MPFT['planes']", 8, "count",
      "'8-Plane Architecture: Each node contains 8 GPUs and 8 IB NICs'", "deepseek-mpft"),
    L("outlook.DEEPSEEK_MPFT['switch ports']", 64, "count",
      "two-layer fat-tree of 64-port 400G InfiniBand switches", "deepseek-mpft",
      note="not in the summaries read here; 16,384 = 8 planes x 64^2/2 hosts confirms it"),
    L("outlook.DEEPSEEK_MPFT['gpus']", 16384, "count",
      "'Theoretically supports up to 16,384 GPUs within the 2-tier structure'",
      "deepseek-mpft"),
    L("outlook.DEEPSEEK_MPFT['cx8 planes']", 4, "count",
      "'InfiniBand ConnectX-8 natively supports four planes'", "deepseek-mpft",
      note="the report's words as the catalogue quotes them; not found in this session's "
           "corpus"),
]

# ----------------------------------------------------------------------------- software
ROWS += [
    L("software.NCCL_SYMMETRIC_SMALL_MESSAGE_GAIN", 9, "count",
      "'resulting in up to 9x reduction in latency for small message sizes'", "nccl-227-blog"),
    L("software.NCCL_IB_PORT_FAILOVER_DEFAULT", 0, "count",
      "NCCL_IB_RESILIENCY_PORT_FAILOVER: off by default (NCCL 2.29.7 release notes)",
      "nccl@5067397"),
]

# ------------------------------------------------------------------------------ studies
_DS_NOTE = ("the report's words as read by this helper; the search corpus held no copy to "
            "quote from (the 20 SMs confirmed by a summary of the report)")
ROWS += [
    L("studies.META_CLUSTERS_COUNT", 2, "count", "'two 24,576-GPU clusters'", "meta-blog"),
    L("studies.META_CLUSTER_GPUS", 24576, "count", "'24,576-GPU clusters'", "meta-blog"),
    L("studies.META_ENDPOINT_RATE", 400, "Gb/s", "'Both use 400 Gbps endpoints'", "meta-blog",
      direction="per direction"),
    L("studies.META_RACK_GPUS", 16, "count",
      "'each rack hosts 16 GPUs split between two servers'", "llama3"),
    L("studies.META_POD_RACKS", 192, "count", "'192 such racks are connected by Cluster "
      "Switches to form a pod of 3,072 GPUs with full bisection bandwidth'", "llama3"),
    L("studies.META_POD_GPUS", 3072, "count", "'a pod of 3,072 GPUs with full bisection "
      "bandwidth'", "llama3"),
    L("studies.META_PODS", 8, "count", "'eight such pods ... connected via Aggregation "
      "Switches to form a cluster of 24K GPUs'", "llama3"),
    L("studies.META_AGG_OVERSUBSCRIPTION", 7, "count",
      "'an oversubscription ratio of 1:7'", "llama3"),
    L("studies.META_FLOWS_PER_GPU_PAIR", 16, "count",
      "'our collective library creates 16 network flows between two GPUs, instead of just one'",
      "llama3"),
    L("studies.META_EECMP_ALLREDUCE_GAIN", 0.40, "fraction",
      "'compared to baseline ECMP without QP scaling, we observed that E-ECMP along with QP "
      "scaling showed performance improvement of up to 40% for the AllReduce collective'",
      "meta-roce"),
    L("studies.LLAMA3_MFU['low']", 0.38, "fraction",
      "Table 4: 16,384 GPUs, CP 16: 380 TFLOPs/GPU, BF16 MFU 38%", "llama3-table4"),
    L("studies.LLAMA3_MFU['high']", 0.43, "fraction",
      "Table 4: 8,192 GPUs: 430 TFLOPs/GPU, BF16 MFU 43%", "llama3-table4"),
    L("studies.LLAMA3_MFU_GPUS['low']", 8192, "count", "Table 4: '8,192' GPUs", "llama3-table4"),
    L("studies.LLAMA3_MFU_GPUS['high']", 16384, "count", "Table 4: '16,384' GPUs",
      "llama3-table4"),
    L("studies.LLAMA3_LAYOUT_16K['tp']", 8, "count", "'16,384 | 8 | 1 | 16' (GPUs | TP | CP | "
      "PP), 8K context", "llama3-table4"),
    L("studies.LLAMA3_LAYOUT_16K['cp']", 1, "count", "'16,384 | 8 | 1 | 16'", "llama3-table4"),
    L("studies.LLAMA3_LAYOUT_16K['pp']", 16, "count", "'16,384 | 8 | 1 | 16'", "llama3-table4"),
    L("studies.LLAMA3_STORAGE['sustained']", 2, "TB/s",
      "'Tectonic ... 2 TB/s sustained throughput, and 7 TB/s peak'", "llama3",
      direction="read + write"),
    L("studies.LLAMA3_STORAGE['peak']", 7, "TB/s", "'7 TB/s peak throughput'", "llama3",
      direction="read + write"),
    L("studies.LLAMA3_CHECKPOINT_PER_GPU", 4, "GB",
      "'Checkpoints save each GPU's model state, ranging from 1MB to 4GB per GPU'", "llama3"),
    L("studies.DEEPSEEK_V3_LINKS['NVLink']", 160, "GB/s",
      "'NVLink offers a bandwidth of 160 GB/s, roughly 3.2 times that of IB (50 GB/s)'",
      "deepseek-v3", direction="per direction",
      note=_DS_NOTE),
    L("studies.DEEPSEEK_V3_LINKS['InfiniBand']", 50, "GB/s", "'IB (50 GB/s)'", "deepseek-v3",
      direction="per direction",
      note=_DS_NOTE),
    L("studies.DEEPSEEK_V3_MAX_NODES_PER_TOKEN", 4, "count",
      "'each token will be dispatched to at most 4 nodes'", "deepseek-v3",
      note=_DS_NOTE),
    L("studies.DEEPSEEK_V3_COMM_SMS", 20, "count",
      "'only 20 SMs are sufficient to fully utilize the bandwidths of IB and NVLink'",
      "deepseek-v3",
      note=_DS_NOTE),
    L("studies.KIM_DRAGONFLY_COST['folded Clos']", 0.52, "fraction",
      "'a dragonfly reduces cost by 20% compared to a flattened butterfly and by 52% compared "
      "to a folded Clos network in configurations with 16K nodes'", "kim-dragonfly"),
    L("studies.KIM_DRAGONFLY_COST['flattened butterfly']", 0.20, "fraction",
      "'reduces cost by 20% compared to a flattened butterfly'", "kim-dragonfly"),
    L("studies.BEKMAN_B200_NODE_GAP['low']", 2.0, "count",
      "'Measured collective gap (stas, B200): 2.0-2.2x at >= 1 GiB'", "bekman-net"),
    L("studies.BEKMAN_B200_NODE_GAP['high']", 2.2, "count", "'2.0-2.2x at >= 1 GiB'",
      "bekman-net"),
    L("studies.NVL72_HBM_TOTAL", 13.4, "TB",
      "'GPU Memory | Bandwidth: Up to 13.4 TB HBM3e | 576 TB/s'", "gb200-page"),
]

# ------------------------------------------------------------------------------- custom
ROWS += [
    L("custom.BRIDGE_LINKS", 12, "count",
      "H100 PCIe 'NVLINK: 600GB/s' over the bridge / 50 GB/s per NVLink 4 link (both "
      "directions) = 12", "h100-pcie-spec"),
    L("custom.TRAY_GPUS", 4, "count", "'72 GPUs (4 per tray, 18 trays)'", "mlperf-gb200"),
    L("custom.NVSWITCH_FOR_NVLINK[3]", 2, "count", "A100: 'Six second-generation NVSwitch'",
      "a100-whitepaper"),
    L("custom.NVSWITCH_FOR_NVLINK[4]", 3, "count", "H100: third-generation NVSwitch", "nvswitch-blog"),
    L("custom.NVSWITCH_FOR_NVLINK[5]", 4, "count", "Blackwell: NVLink Switch (after NVSwitch 3)",
      "dgx-b200"),
    L("custom.MAX_NVSWITCH_GPUS[3]", 8, "count", "HGX/DGX A100: eight GPUs on the baseboard",
      "a100-whitepaper"),
    L("custom.MAX_NVSWITCH_GPUS[4]", 8, "count", "HGX/DGX H100: eight GPUs on the baseboard",
      "basepod"),
    L("custom.MAX_NVSWITCH_GPUS[5]", 72, "count", "GB200 NVL72: 72 GPUs in one NVLink domain",
      "gb200-page"),
]

# ----------------------------------------------- calibration: NCCL non-tuner constants
ROWS += [
    L("calibration.NVLS_MIN_GPUS", 3, "count",
      "v2.26.2 src/transport/nvls.cc:157 'if (!ncclParamNvlsEnable() || gpuCount <= 2) return "
      "ncclSuccess;' (NVLS from 3 GPUs)", "nccl@v2.26.2"),
    L("calibration.NVLS_CHANNELS['Hopper']", 16, "count",
      "nvls.cc:144 '#define NVLS_NCHANNELS_SM90 16'", "nccl@v2.26.2"),
    L("calibration.NVLS_CHANNELS['Blackwell']", 32, "count",
      "nvls.cc:145 '#define NVLS_NCHANNELS_SM100 32'", "nccl@v2.26.2"),
    L("calibration.NVLS_CHUNK", 128 * 1024, "B",
      "nvls.cc:149 'NCCL_PARAM(NvlsChunkSize, \"NVLS_CHUNKSIZE\", 128*1024)'", "nccl@v2.26.2"),
    L("calibration.NVLS_TREE_CHUNK_MANY_NODES", 65536, "B",
      "enqueue.cc:1895 'if (maxChunkSize == -2) maxChunkSize = comm->nNodes >= 4 ? 65536 : "
      "chunkSize;'", "nccl@v2.26.2"),
    L("calibration.NVLS_TREE_CHUNK_MIN_NODES", 4, "count", "enqueue.cc:1895 'comm->nNodes >= 4'",
      "nccl@v2.26.2"),
    L("calibration.NVLS_MAX_HEADS", 32, "count",
      "src/include/device.h:181 '#define NCCL_MAX_NVLS_ARITY 32'", "nccl@v2.26.2"),
    L("calibration.NCCL_DEFAULT_BUFFSIZE", 4 * 2**20, "B",
      "src/init.cc:813 '#define DEFAULT_BUFFSIZE (1 << 22) /* 4MiB */'", "nccl@5067397"),
    L("calibration.NET_PLUGIN_LATENCY['InfiniBand']", 0, "us",
      "src/transport/net_ib/init.cc:558 'props->latency = 0; // Not set'", "nccl@5067397"),
    L("calibration.NET_PLUGIN_LATENCY['Ethernet']", 0, "us",
      "RoCE runs through the same IB verbs transport: init.cc:558 'props->latency = 0;'",
      "nccl@5067397"),
    L("calibration.NVLS_CHANNELS['Blackwell, one NVLink domain']", 24, "count",
      "nvls.cc:149 '#define NVLS_NCHANNELS_SM100_NVL 24' (:193 'channels = (multiNode ? "
      "NVLS_NCHANNELS_SM100 : NVLS_NCHANNELS_SM100_NVL);')", "nccl@v2.27.3"),
    L("calibration.NCCL_NET_OVERHEAD['Intel']", 1, "us",
      "tuning.cc:230 'if (comm->cpuArch == NCCL_TOPO_CPU_ARCH_X86 && comm->cpuVendor == "
      "NCCL_TOPO_CPU_VENDOR_INTEL) return 1.0;'", "nccl@v2.30.7"),
    L("calibration.NCCL_NET_OVERHEAD['AMD']", 2, "us",
      "tuning.cc:231 '... NCCL_TOPO_CPU_VENDOR_AMD) return 2.0;'", "nccl@v2.30.7"),
    L("calibration.NCCL_NET_OVERHEAD['Arm']", 1, "us",
      "tuning.cc:232 'return 1.0;' (any other host)", "nccl@v2.30.7"),
    L("calibration.NET_PLUGIN_LATENCY['EFA 100G']", 75, "us",
      "src/platform-aws.cpp:83-87 '.name = \"p4d.24xlarge\", ... .latency = 75.0,' (also "
      "p4de.24xlarge and p5/p5e)", "aws-ofi-nccl"),
    L("calibration.EFA_100G_MAX_RATE", 100 * 1.01, "Gb/s",
      "the 100 Gb/s EFA ports of the 75 us platforms (p4d: 4 x 100 Gb/s; p5: 32 x 100 Gb/s), "
      "with 1 % headroom: a threshold between them and p5en's 200 Gb/s",
      "aws-ofi-nccl", note="a threshold the book sets between two rates of the source"),
    L("calibration.NET_PLUGIN_LATENCY['EFA']", 35, "us",
      "src/platform-aws.cpp: '.name = \"p5en/p6-b200\", ... .latency = 35.0,'",
      "aws-ofi-nccl"),
    L("calibration.AWS_TUNER_NET_LATENCY['p5/p5e']", 20, "us",
      "src/tuner/nccl_ofi_model.cpp:14-15 '{ /* P5 & P5e platform */ .net_lat = 20.0,' (and "
      "include/nccl_ofi_tuner.h:24 @ v1.8.1-aws 'OFI_NCCL_PARAM_INT(tuner_net_latency, "
      "\"TUNER_NET_LATENCY\", 20);')", "aws-ofi-nccl@v1.16.0"),
    L("calibration.AWS_TUNER_NET_LATENCY['p5en']", 18, "us",
      "src/tuner/nccl_ofi_model.cpp:29-30 '{ /* P5en platform */ .net_lat = 18.0,'",
      "aws-ofi-nccl@v1.16.0"),
    L("calibration.AWS_TUNER_NET_COMP_OVERHEAD", 3, "us",
      "include/nccl_ofi_tuner.h:27-30 'With EFA, we expect a ~2usec cost in the device and "
      "~1usec cost to write that completion up to the host stack.' "
      "OFI_NCCL_PARAM_INT(tuner_net_comp_overhead, \"TUNER_NET_COMP_OVERHEAD\", 3);",
      "aws-ofi-nccl@v1.8.1"),
    L("calibration.AWS_TUNER_MAX_SIZE", 100 * 2**30, "B",
      "include/tuner/nccl_ofi_tuner_region.h:74 '#define TUNER_MAX_SIZE 100.0 * 1024 * 1024 "
      "* 1024'", "aws-ofi-nccl"),
    L("calibration._MAXS", 100 * 2**30, "B", "TUNER_MAX_SIZE (the same constant)",
      "aws-ofi-nccl"),
    L("calibration.AWS_TUNER_MAX_RANKS", 1024 * 1024, "count",
      "nccl_ofi_tuner_region.h:69 '#define TUNER_MAX_RANKS 1024.0 * 1024'", "aws-ofi-nccl"),
    L("calibration.AWS_TUNER_MIN_NODES", 3, "count",
      "src/tuner/nccl_ofi_model.cpp:178 'if (model_ctx->dims.num_nodes <= 2) {' (defers to "
      "NCCL)", "aws-ofi-nccl"),
    L("calibration.COLL_CHANNELS['Hopper']", 16, "count",
      "'the default number of SMs is 16' (sjeaugey, NVIDIA/nccl#1649; facts.md V9)",
      "tuning-guess"),
    L("calibration.COLL_CHANNELS['Ampere']", 16, "count",
      "16 channels assumed for Ampere, as on Hopper ('the default number of SMs is 16')",
      "tuning-guess", note="an assumption the catalogue states"),
    L("calibration.COLL_CHANNELS['Blackwell']", 32, "count",
      "assumed equal to NVLS_NCHANNELS_SM100 32 (nvls.cc:145 at v2.26.2)", "nccl@v2.26.2",
      note="an assumption the catalogue states"),
    L("calibration.TORCH_HOST_OVERHEAD", 25, "us",
      "PyTorch's per-call host overhead 'of some 20-30us' (the middle, 25)", "bekman-bench",
      note="the middle of a stated range"),
]
