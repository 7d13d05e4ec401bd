"""The thirteen claims of Appendix B, one builder each (see :mod:`interlib.errata`)."""

from __future__ import annotations

from .. import collectives, display, scaling, specs, topology, transfer
from .errata_base import ADAM_BYTES_PER_PARAM, ARTICLES, CLAIM_GIVENS, DERIVED, Claim, Figure
from ..specs import LLAMA3_INTERRUPTIONS, studies
from ..specs import sources as S
from ..units import GT_per_s, GiB


def _f(label, value, text, how, source):
    return Figure(label, float(value), text, how, source)


_R, _B = display.fmt_rate, display.fmt_bytes


def _n(x) -> str:
    """A count as printed in a 'how' string (``18``, ``3,072``)."""
    x = float(x)
    return f"{x:,.0f}" if x.is_integer() else f"{x:g}"


def _links(gen) -> str:
    """``'18 links x 25 GB/s'`` for an NVLink generation, from the catalogue."""
    return f"{_n(gen.links_per_gpu.value)} links x {_R(gen.per_link.value)}"


def _pcie_raw(gen, lanes: int) -> str:
    """``'32 GT/s x 16 / 8'``: raw PCIe per direction, from the catalogue."""
    return f"{gen.transfer_rate.value / GT_per_s:g} GT/s x {lanes} lanes / 8 bits"


def _a():
    g = CLAIM_GIVENS["a"]
    h100 = specs.gpu("h100-sxm")
    nvl = specs.nvlink(4)
    bf16 = scaling.gradient_bytes(g["params"], 2)
    fp32 = scaling.gradient_bytes(g["params"], 4)
    wire = collectives.wire_bytes_per_rank("all_reduce", bf16, g["gpus"])
    ring = collectives.predict("all_reduce", bf16, "dgx-h100", g["gpus"], 1, "ring")
    nvls = collectives.predict("all_reduce", bf16, "dgx-h100", g["gpus"], 1, "nvls")
    line = transfer.transfer_time(wire, nvl.per_gpu_per_direction)
    pcie_bw = h100.pcie.usable_per_direction(16) * specs.PCIE_HOST_COPY_EFFICIENCY.value
    pcie_t = transfer.transfer_time(wire, pcie_bw)
    mem = g["params"] * ADAM_BYTES_PER_PARAM.value
    node_mem = g["gpus"] * h100.hbm_capacity.value
    figs = (
        _f("claimed 'NVLink' rate is the H100's HBM3 bandwidth", h100.hbm_bandwidth.value,
           display.fmt_rate(h100.hbm_bandwidth.value), "specs.gpu('h100-sxm').hbm_bandwidth",
           h100.hbm_bandwidth.source),
        _f("NVLink 4 per GPU, per direction (line rate)", nvl.per_gpu_per_direction,
           display.fmt_rate(nvl.per_gpu_per_direction), _links(nvl), nvl.per_link.source),
        _f("fp32 gradient (what the claim's bytes are)", fp32, display.fmt_bytes(fp32),
           "scaling.gradient_bytes(params, 4)", DERIVED),
        _f("bf16 gradient", bf16, display.fmt_bytes(bf16), "scaling.gradient_bytes(params, 2)",
           DERIVED),
        _f("bytes each GPU sends in a ring all-reduce (bf16)", wire, display.fmt_bytes(wire),
           "2(N-1)/N x size (collectives.wire_bytes_per_rank)", S.NCCL_TESTS_PERF),
        _f("ring all-reduce time, 8 x H100 (model)", ring.time_s, display.fmt_time(ring.time_s),
           "collectives.predict(..., 'ring')", S.SJEAUGEY_212),
        _f("NVLS all-reduce time, 8 x H100 (model)", nvls.time_s, display.fmt_time(nvls.time_s),
           "collectives.predict(..., 'nvls')", S.SJEAUGEY_212),
        _f("ring bytes at NVLink line rate", line, display.fmt_time(line),
           f"wire bytes / {_R(nvl.per_gpu_per_direction)}", nvl.per_link.source),
        _f("ring bytes over PCIe 5.0 x16 at measured host-copy rate", pcie_t,
           display.fmt_time(pcie_t),
           f"wire bytes / ({_R(h100.pcie.usable_per_direction(16))} x "
           f"{specs.PCIE_HOST_COPY_EFFICIENCY.value:.2f} measured efficiency)",
           specs.PCIE_HOST_COPY_EFFICIENCY.source),
        _f("PCIe time / NVLink ring time", pcie_t / ring.time_s,
           display.fmt_ratio(pcie_t / ring.time_s), "ratio of the two rows above", DERIVED),
        _f("training state, mixed-precision Adam", mem, display.fmt_bytes(mem),
           f"params x {_n(ADAM_BYTES_PER_PARAM.value)} B", ADAM_BYTES_PER_PARAM.source),
        _f(f"HBM of the {g['gpus']} GPUs", node_mem, display.fmt_bytes(node_mem),
           f"{g['gpus']} x {_B(h100.hbm_capacity.value)}", h100.hbm_capacity.source),
    )
    why = (
        f"The claimed NVLink rate is the H100's memory (HBM3) bandwidth, "
        f"{figs[0].text}; NVLink 4 carries {figs[1].text} per direction per GPU at line "
        f"rate, and NCCL's own model credits about {display.fmt_rate(nvl.per_gpu_effective)}.",
        f"The claimed bytes are fp32 gradients ({figs[2].text}); bf16 gradients are "
        f"{figs[3].text}, and a ring all-reduce makes each GPU send 2(N-1)/N of them: "
        f"{figs[4].text}.",
        f"The model gives {figs[5].text} (ring) or {figs[6].text} (NVLS) over NVLink and "
        f"{figs[8].text} over PCIe: PCIe takes {figs[9].text} as long as the NVLink ring, not the "
        "claimed ratio.",
        f"Pure data parallelism cannot even hold the model: mixed-precision Adam needs "
        f"{figs[10].text} against {figs[11].text} of HBM, so real runs shard (TP/FSDP) and "
        "the traffic differs.",
    )
    return Claim("a", "Gradient all-reduce: NVLink vs PCIe",
                 "70B on 8 GPUs: AllReduce moves ~280 GB per step. At 3,350 GB/s NVLink: "
                 "~0.08 s. At 50 GB/s PCIe: ~5.6 s.", "WRONG", why, figs)


def _b():
    n5, p5, n4 = specs.nvlink(5), specs.pcie("5.0"), specs.nvlink(4)
    raw, usable = p5.raw_per_direction(16), p5.usable_per_direction(16)
    meas = usable * specs.PCIE_HOST_COPY_EFFICIENCY.value
    figs = (
        _f("NVLink 5 per GPU, per direction", n5.per_gpu_per_direction,
           display.fmt_rate(n5.per_gpu_per_direction), _links(n5), n5.per_link.source),
        _f("PCIe 5.0 x16 raw, per direction", raw, display.fmt_rate(raw), _pcie_raw(p5, 16),
           p5.transfer_rate.source),
        _f("line-rate ratio", n5.per_gpu_per_direction / raw,
           display.fmt_ratio(n5.per_gpu_per_direction / raw, 3), "row 1 / row 2", S.NVLINK_PAGE),
        _f("PCIe 5.0 x16 after 128b/130b", usable, display.fmt_rate(usable),
           f"raw x {p5.encoding}",
           p5.encoding_efficiency.source),
        _f("PCIe 5.0 x16 measured host copy", meas, display.fmt_rate(meas),
           "usable x measured efficiency", specs.PCIE_HOST_COPY_EFFICIENCY.source),
        _f("NVLink 5 effective (NCCL) per direction", n5.per_gpu_effective,
           display.fmt_rate(n5.per_gpu_effective),
           f"{_n(n5.links_per_gpu.value)} x {_R(n5.nccl_effective_per_link.value)} (topo.h)",
           S.NCCL_TOPO),
        _f("effective ratio", n5.per_gpu_effective / meas,
           display.fmt_ratio(n5.per_gpu_effective / meas, 3), "row 6 / row 5", DERIVED),
        _f("NVLink 4 / PCIe 5 raw (H100)", n4.per_gpu_per_direction / raw,
           display.fmt_ratio(n4.per_gpu_per_direction / raw, 3),
           f"{_R(n4.per_gpu_per_direction)} / raw PCIe",
           S.HOPPER_PAGE),
    )
    why = (f"Line rate against line rate the ratio is {figs[2].text}; effective against "
           f"measured it is {figs[6].text}, so it survives.",
           f"Raw PCIe is not what a copy gets: {figs[3].text} after line coding, "
           f"{figs[4].text} measured.",
           f"Do not reuse it for Hopper: NVLink 4 is {figs[7].text} PCIe 5.0.")
    return Claim("b", "NVLink 5 vs PCIe 5", "NVLink 5.0: 900 GB/s per direction; PCIe 5: "
                 "64 GB/s per direction; ratio 14x.", "RIGHT, WITH CAVEATS", why, figs)


def _c():
    h, b = specs.system("dgx-h100"), specs.system("dgx-b200")
    cx8 = specs.nic("connectx-8").rate.value
    r_h = h.intra_peak_per_gpu / h.nic_bw_per_gpu
    r_b = b.intra_peak_per_gpu / b.nic_bw_per_gpu
    r_b300 = b.intra_peak_per_gpu / cx8
    agg = h.gpus_per_node * h.gpu.nvlink.per_gpu_bidirectional
    gap = [collectives.predict("all_reduce", size, b, 8, 1).busbw
           / collectives.predict("all_reduce", size, b, 8, 4).busbw
           for size in (1 * GiB, 16 * GiB)]
    meas = studies.BEKMAN_B200_NODE_GAP
    per = f"{_R(h.intra_peak_per_gpu)} / {_R(h.nic_bw_per_gpu)}"
    figs = (
        _f("H100: NVLink 4 / one NDR NIC, per GPU per direction", r_h, display.fmt_ratio(r_h),
           per, h.source),
        _f("B200: NVLink 5 / one 400G NIC", r_b, display.fmt_ratio(r_b),
           f"{_R(b.intra_peak_per_gpu)} / {_R(b.nic_bw_per_gpu)}", b.source),
        _f("B300: NVLink 5 / one 800G NIC", r_b300, display.fmt_ratio(r_b300),
           f"{_R(b.intra_peak_per_gpu)} / {_R(cx8)}", S.CX8_NOTES),
        _f("node NVLink aggregate (bidirectional)", agg, display.fmt_rate(agg),
           f"{h.gpus_per_node} x {_R(h.gpu.nvlink.per_gpu_bidirectional)}", S.HOPPER_PAGE),
        _f("aggregate / one NIC (mixes scopes)", agg / h.nic_bw_per_gpu,
           display.fmt_ratio(agg / h.nic_bw_per_gpu, 3), "node total / per-GPU NIC",
           S.DGX_BASEPOD),
        _f("model: B200 1 GiB all-reduce busbw, 1 node / 4 nodes", gap[0],
           display.fmt_ratio(gap[0]), "collectives.predict", S.STAS_NETWORK),
        _f("model: B200 16 GiB all-reduce busbw, 1 node / 4 nodes", gap[1],
           display.fmt_ratio(gap[1]), "collectives.predict", S.STAS_NETWORK),
        _f("measured: B200 all-reduce busbw, 1 node / 4 nodes, >= 1 GiB (low end)",
           meas["low"].value, f"{meas['low'].value:.1f}×", "quoted", meas["low"].source),
        _f("measured: same, high end", meas["high"].value, f"{meas['high'].value:.1f}×",
           "quoted", meas["high"].source),
    )
    why = (f"Per GPU and per direction the gap is {figs[0].text} (H100), {figs[1].text} "
           f"(B200) or {figs[2].text} (B300 with 800G NICs).",
           "No unit-consistent pair gives the claimed gap; the nearest, "
           f"{figs[4].text}, compares a node's bidirectional total with one NIC.",
           "Measured collective gaps are smaller still for large messages (Bekman, B200: "
           f"{figs[7].text} to {figs[8].text} at >= 1 GiB; the model gives "
           f"{figs[6].text} between one node and four at 16 GiB and {figs[5].text} at "
           "1 GiB, where its pipeline-fill term, calibrated on single-node runs only, "
           "slightly overcharges the four-node pipeline) and grow at small sizes, where "
           "latency dominates. Tensor parallelism stays in the node for bandwidth and for "
           "latency.")
    return Claim("c", "The NVLink vs InfiniBand gap", "The 160x gap between NVLink and "
                 "InfiniBand is why tensor parallelism stays within a node.", "WRONG", why, figs)


def _d():
    h = specs.system("dgx-h100")
    figs = (
        _f("compute NICs per GPU", h.nics_per_gpu, f"{h.nics_per_gpu:g} per GPU (1:1)",
           "nics_per_node / gpus_per_node", h.source),
        _f("per-node injection, per direction", h.node_injection,
           f"{display.fmt_bits(h.node_injection * 8)} = {display.fmt_rate(h.node_injection)}",
           f"{h.nics_per_node} x {display.fmt_bits(h.nic.rate.value * 8)}", h.nic.rate.source),
    )
    why = (f"DGX H100 has {h.nics_per_node} single-port {display.fmt_bits(h.nic.rate.value * 8)}"
           f" {h.nic.name} for {h.gpus_per_node} GPUs on the compute fabric "
           f"({figs[0].text}), plus two dual-port ConnectX-7 for storage and management.",
           f"The per-server figure is right: {figs[1].text}.")
    return Claim("d", "NICs per GPU in a DGX H100", "Each GPU: 1x 400G IB NIC. Per server: "
                 "3.2 Tb/s. 8:1 GPU-to-NIC ratio.", "WRONG", why, figs)


def _e():
    from .. import validation

    g = CLAIM_GIVENS["e"]
    v1 = [m for m in validation.load_measurements() if m.id == "V1-01"][0]
    t_meas = collectives.bus_factor("all_reduce", 8) * v1.size_bytes / v1.busbw
    p2 = collectives.predict("all_reduce", v1.size_bytes, "dgx-h100", 8, 2)
    hop = specs.calibration.HOP_LATENCY[("net", "ring", "LL")]
    figs = (
        _f("measured 1 KiB all-reduce, one 8 x H100 node", t_meas, display.fmt_time(t_meas),
           "size x 2(n-1)/n / busbw (V1-01)", S.AZURE_BENCH),
        _f("model: 1 KiB all-reduce, 2 DGX H100 nodes", p2.time_s, display.fmt_time(p2.time_s),
           "collectives.predict", S.NCCL_TUNING),
        _f("NCCL's network hop latency (Ring/LL)", hop.value, display.fmt_time(hop.value),
           "tuning.cc hwLat", hop.source),
        _f(f"a {display.fmt_time(g['wire_difference'])} wire difference, share of the 2-node "
           "time", g["wire_difference"] / p2.time_s,
           display.fmt_pct(g["wire_difference"] / p2.time_s, 2),
           f"{display.fmt_time(g['wire_difference'])} / row 2", DERIVED),
    )
    why = ("No primary, like-for-like measurement of InfiniBand vs RoCEv2 latency was found; "
           "the published sets come from vendor blogs and contradict each other.",
           f"What training sees is NCCL's collective latency: {figs[0].text} measured for a "
           f"tiny all-reduce in one node (NCCL {v1.nccl_version}), {figs[1].text} modelled "
           f"across two; a microsecond of wire latency is {figs[3].text} of that.",
           f"Both predate NCCL's symmetric-memory kernels ("
           f"{specs.NCCL_FEATURES['symmetric memory kernels'].note.split(';')[0]}), for which "
           f"NVIDIA reports up to {_n(specs.software.NCCL_SYMMETRIC_SMALL_MESSAGE_GAIN.value)}x "
           "lower small-message latency inside an NVLink domain for buffers registered "
           "for them: the in-node figure is what unregistered buffers get, not a floor.",
           "RoCE's practical risk is congestion and tail latency (PFC/ECN tuning), not base "
           "latency.")
    return Claim("e", "InfiniBand vs RoCE latency", "IB latency '1-1.6 us vs RoCEv2 5-6 us' "
                 "/ 'RoCE 2-5 us' / '~1 us vs 1.5-2.5 us'.", "UNCONFIRMED", why, figs)


def _f_claim():
    g = CLAIM_GIVENS["f"]
    nvl72 = specs.system("gb200-nvl72")
    per = nvl72.gpu.hbm_capacity
    total = nvl72.gpus_per_node * per.value
    claimed = nvl72.gpus_per_node * g["claimed_gb_per_gpu"]
    figs = (
        _f("HBM exposed per GB200 GPU", per.value, display.fmt_bytes(per.value),
           "specs.gpu('gb200').hbm_capacity", per.source),
        _f(f"{nvl72.gpus_per_node} GPUs x exposed HBM", total, display.fmt_bytes(total),
           f"{nvl72.gpus_per_node} x per GPU", S.GB200_PAGE),
        _f("NVIDIA's figure for the rack", studies.NVL72_HBM_TOTAL.value,
           display.fmt_bytes(studies.NVL72_HBM_TOTAL.value), "quoted",
           studies.NVL72_HBM_TOTAL.source),
        _f("the claim's arithmetic (physical stacks)", claimed, display.fmt_bytes(claimed),
           f"{nvl72.gpus_per_node} x {_B(g['claimed_gb_per_gpu'])}", ARTICLES),
    )
    why = (f"Each GB200 GPU exposes {figs[0].text}; {nvl72.gpus_per_node} of them hold "
           f"{figs[1].text}, which matches NVIDIA's 'up to {figs[2].text} HBM3e'. "
           f"{_B(g['claimed_gb_per_gpu'])} is the physical stack total.",
           "'Unified' is loose: HBM is per GPU; NVLink lets every GPU load and store "
           "across the 72-GPU domain at NVLink speed, not at HBM speed.")
    return Claim("f", "GB200 NVL72 memory", "GB200 NVL72 ... 72 x 192 GB = 13.8 TB unified "
                 "memory.", "WRONG", why, figs)


def _g():
    g = CLAIM_GIVENS["g"]
    n, K = g["gpus"], g["payload"]
    ring = collectives.wire_bytes_per_rank("all_reduce", K, n)
    steps = 2 * (n - 1)
    sim = steps * K / n
    nv = collectives.wire_bytes_per_rank("all_reduce", K, n, "nvls")
    figs = (
        _f(f"per GPU, {n} GPUs, {_B(K)} buffer (formula)", ring, display.fmt_bytes(ring),
           "2(N-1)/N x K", S.NCCL_TESTS_PERF),
        _f("per GPU, counted step by step", sim, display.fmt_bytes(sim),
           "2(N-1) steps x K/N (collectives.ring_step_sends)", S.NCCL_TESTS_PERF),
        _f("total over all GPUs", n * ring, display.fmt_bytes(n * ring), "2(N-1) x K",
           S.NCCL_TESTS_PERF),
        _f("per GPU with NVLS / SHARP", nv, display.fmt_bytes(nv), "K", S.SCALING_BOOK),
    )
    why = (f"Each GPU sends (and receives) 2(N-1)/N x K: {figs[0].text} for the example, the "
           f"same as counting the ring's steps ({figs[1].text}).",
           f"With in-network reduction each GPU sends about K ({figs[3].text}), which is why "
           "NVLS busbw can exceed the wire rate.")
    return Claim("g", "Ring all-reduce bytes per GPU", "Ring all-reduce per-GPU bytes on the "
                 "wire is 2(N-1)/N x K.", "RIGHT", why, figs)


def _h():
    n4 = specs.nvlink(4)
    per_dir = n4.per_gpu_per_direction
    nl = _n(n4.links_per_gpu.value)
    figs = (
        _f("per link, per direction", n4.per_link.value, display.fmt_rate(n4.per_link.value),
           "catalogue", n4.per_link.source),
        _f("per link, bidirectional", n4.per_link_bidirectional,
           display.fmt_rate(n4.per_link_bidirectional), "2 x per direction", n4.per_link.source),
        _f(f"{nl} links, per direction", per_dir, display.fmt_rate(per_dir),
           f"{nl} x {_R(n4.per_link.value)}", n4.per_link.source),
        _f(f"{nl} links, bidirectional", n4.per_gpu_bidirectional,
           display.fmt_rate(n4.per_gpu_bidirectional),
           f"{nl} x {_R(n4.per_link_bidirectional)}", S.HOPPER_PAGE),
    )
    why = (f"{nl} x {figs[0].text} is {figs[2].text}: the per-direction total. The "
           f"bidirectional {figs[3].text} is {nl} x {figs[1].text}.",)
    return Claim("h", "NVLink 4 arithmetic", "NVLink 4.0 provides 900 GB/s bidirectional per "
                 "GPU (18 links x 25 GB/s each).", "MISLEADING", why, figs)


def _i():
    p6, p5 = specs.pcie("6.0"), specs.pcie("5.0")
    lanes = CLAIM_GIVENS["i"]["lanes"]
    raw, usable = p6.raw_per_direction(lanes), p6.usable_per_direction(lanes)
    pay6, pay5 = p6.payload_per_direction(lanes), p5.payload_per_direction(lanes)
    mps = int(specs.PCIE_PAYLOAD_BYTES.value)
    gb300, cx8 = specs.system("gb300-nvl72"), specs.nic("connectx-8")
    figs = (
        _f("raw, per direction", raw, display.fmt_rate(raw), _pcie_raw(p6, lanes),
           S.PCIE_SPEC),
        _f("headline, both directions", p6.headline_bidirectional(lanes),
           display.fmt_rate(p6.headline_bidirectional(lanes)), "2 x raw", S.PCIE_SPEC),
        _f(f"after {p6.encoding} framing, per direction", usable, display.fmt_rate(usable),
           f"raw x {p6.encoding_efficiency.value:.4g}", p6.encoding_efficiency.source),
        _f(f"TLP payload at {mps}-B payloads, per direction", pay6, display.fmt_rate(pay6),
           f"raw x {p6.payload_share():.4g} (flit 236/256 x {mps} / ({mps} + 16-B header))",
           S.PCISIG_FLIT),
        _f(f"PCIe 5.0 x{lanes} on the same basis, per direction", pay5,
           display.fmt_rate(pay5),
           f"raw x {p5.payload_share():.4g} (128/130 x {mps} / ({mps} + 16 + 8))",
           S.INTEL_PCIE_OVERHEAD),
    )
    why = (f"As raw signalling the figures are right ({figs[0].text} per direction, "
           f"{figs[1].text} both ways); FLIT, FEC and CRC leave about {figs[2].text} per "
           f"direction before TLP headers, and {figs[3].text} of TLP payload at {mps}-byte "
           f"payloads, {pay6 / pay5:.2f}x PCIe 5.0 on the same basis ({figs[4].text}).",
           f"Gen 6 devices ship: ConnectX-8 ({cx8.host_interface}), and in "
           f"{gb300.title.split(' (')[0]} each B300 GPU attaches at Gen 6 x16 to a "
           f"ConnectX-8's switch, {gb300.status.state} since {gb300.status.date} (NCCL "
           "2.27 added 'Direct NIC' for this path).")
    return Claim("i", "PCIe 6.0 bandwidth", "PCIe 6.0 x16: 128 GB/s per direction, 256 GB/s "
                 "bidirectional.", "RIGHT AS RAW SIGNALLING", why, figs)


def _j():
    h = specs.system("dgx-h100")
    sw = specs.nvswitch(3)
    per_dir = h.gpu.nvlink.per_gpu_per_direction
    bis = (h.gpus_per_node // 2) * per_dir * 2
    agg = h.gpus_per_node * h.gpu.nvlink.per_gpu_bidirectional
    raw = sw.chips_per_board.value * sw.ports_per_chip.value * h.gpu.nvlink.per_link.value
    figs = (
        _f("NVSwitch chips", sw.chips_per_board.value, f"{sw.chips_per_board.value:g}",
           "catalogue", sw.chips_per_board.source),
        _f("bisection (both directions)", bis, display.fmt_rate(bis),
           f"{h.gpus_per_node // 2} GPUs x {_R(per_dir)} x 2 directions", S.SCALING_BOOK),
        _f("aggregate (not bisection)", agg, display.fmt_rate(agg),
           f"{h.gpus_per_node} x {_R(h.gpu.nvlink.per_gpu_bidirectional)}", S.HOPPER_PAGE),
        _f("raw switch port capacity, per direction", raw, display.fmt_rate(raw),
           f"{_n(sw.chips_per_board.value)} chips x {_n(sw.ports_per_chip.value)} ports x "
           f"{_R(h.gpu.nvlink.per_link.value)}", sw.ports_per_chip.source),
    )
    why = (f"{figs[0].text} third-generation NVSwitch chips; cutting the 8 GPUs in half, "
           f"{figs[1].text} crosses the cut counting both directions.",
           f"Keep it apart from the aggregate ({figs[2].text}) and the switches' raw port "
           f"capacity ({figs[3].text} per direction).")
    return Claim("j", "DGX H100 NVSwitch bisection", "DGX H100: 4 NVSwitch chips ... total "
                 "bisection 3.6 TB/s.", "RIGHT", why, figs)


def _k():
    t = LLAMA3_INTERRUPTIONS
    tot, n_sw, n_nic = (t[k].value for k in ("unexpected", "Network switch/cable", "NIC"))
    sw, nic = n_sw / tot, n_nic / tot
    pods, per_pod = studies.META_PODS, studies.META_POD_GPUS
    gpus = studies.META_CLUSTER_GPUS.value
    if gpus != pods.value * per_pod.value:
        raise ValueError("studies.META_CLUSTER_GPUS must equal META_PODS x META_POD_GPUS")
    figs = (
        _f("Network Switch/Cable share of unexpected interruptions", sw, display.fmt_pct(sw, 2),
           f"{_n(n_sw)} / {_n(tot)}", t["Network switch/cable"].source),
        _f("NIC share", nic, display.fmt_pct(nic, 2), f"{_n(n_nic)} / {_n(tot)}",
           t["NIC"].source),
        _f("GPUs per cluster", gpus, f"{gpus:,.0f}", "quoted", studies.META_CLUSTER_GPUS.source),
        # the pod layout is the Llama 3 paper's (section 3.3.1), not the March 2024 blog's
        _f("Pods x GPUs per pod", pods.value * per_pod.value,
           f"{pods.value * per_pod.value:,.0f}",
           f"{_n(pods.value)} pods x {_n(per_pod.value)} GPUs", pods.source),
    )
    why = ("First claim: no 'network configuration' row and no such share exists in Llama 3's "
           f"Table 5; the network rows are Network Switch/Cable ({figs[0].text}) and NIC "
           f"({figs[1].text}). The sentence traces to a blog with no source.",
           f"Second claim: right. Two {figs[2].text}-GPU clusters, one RoCE and one "
           "InfiniBand, both with 400 Gb/s endpoints; Llama 3 405B trained on the RoCE one.")
    return Claim("k", "Meta's Llama 3 network", "Meta Llama 3: 'network config errors caused "
                 "10.7% of significant job failures'; 'two 24K-GPU clusters, one IB one RoCE'.",
                 "NOT FOUND / RIGHT", why, figs)


def _l():
    g = CLAIM_GIVENS["l"]
    k = g["radix"]
    ft = topology.k_ary_fat_tree(k)
    nets = [topology.fat_tree(n, k) for n in g["hosts"]]
    figs = (_f(f"{k}-port fat-tree: hosts", ft.hosts, f"{ft.hosts:,}", "k^3/4 "
               "(topology.k_ary_fat_tree)", S.ALFARES_FATTREE),
            _f(f"{k}-port fat-tree: switches", ft.switches, f"{ft.switches:,}", "5k^2/4",
               S.ALFARES_FATTREE)) + tuple(
        _f(f"fat-tree, {t.hosts:,} hosts: switches per host", t.switches / t.hosts,
           f"{t.switches / t.hosts:.4f} ({t.tiers} tiers)", "topology.fat_tree: "
           "(2L-1)/k per host", S.ALFARES_FATTREE)
        for t in nets)
    kim = studies.KIM_DRAGONFLY_COST
    figs += tuple(
        _f(f"dragonfly vs {what} (16K nodes)", s.value, f"{display.fmt_pct(s.value)} lower cost",
           "quoted", s.source) for what, s in kim.items())
    why = (f"A fixed 3-level fat-tree is linear: {figs[0].text} hosts on {figs[1].text} "
           "switches, 5/k switches per host. Only when a larger network needs another level "
           "does the switch count per host step up, hence O(n log n) asymptotically.",
           "Dragonfly: Kim, Dally, Scott and Abts (ISCA 2008) report a "
           f"{figs[-2].text} than a folded Clos network and a {figs[-1].text} than a "
           "flattened butterfly in configurations with 16K nodes: a cost figure, dominated "
           "by global cables, not a switch count.")
    return Claim("l", "Fat-tree and dragonfly cost", "'Fat-tree cost scales as O(n log n)'; "
                 "'dragonfly reduces switch count by 40% vs fat-tree'.",
                 "ASYMPTOTICALLY RIGHT, PRACTICALLY MISLEADING / WRONG", why, figs)


_ALG_NAMES = {"nvls_tree": "NVLSTree: NVLink SHARP inside each node, a tree of shards "
                           "between nodes", "ring": "ring", "tree": "tree"}


def _m():
    g = CLAIM_GIVENS["m"]
    one = transfer.transfer_time(g["payload"], g["link"])
    h = specs.system("dgx-h100")
    ring = collectives.predict("all_reduce", g["payload"], "dgx-h100", 8, g["nodes"], "ring")
    hier = collectives.predict("all_reduce", g["payload"], "dgx-h100", 8, g["nodes"],
                               "hierarchical")
    auto = collectives.predict("all_reduce", g["payload"], "dgx-h100", 8, g["nodes"])
    alg_name = _ALG_NAMES.get(auto.algorithm, auto.algorithm)
    figs = (
        _f(f"one one-way transfer at {display.fmt_bits(g['link'] * 8)}", one,
           display.fmt_time(one),
           f"{_B(g['payload'])} x 8 bits / {display.fmt_bits(g['link'] * 8)}", ARTICLES),
        _f(f"{g['nodes']} x DGX H100 ({h.nics_per_node} x "
           f"{display.fmt_bits(h.nic.rate.value * 8)} each), ring all-reduce (model)",
           ring.time_s,
           display.fmt_time(ring.time_s), "collectives.predict(..., 'ring')", S.DGX_BASEPOD),
        _f("same, hierarchical all-reduce (model)", hier.time_s, display.fmt_time(hier.time_s),
           "collectives.predict(..., 'hierarchical')", S.DGX_BASEPOD),
        _f("same, the algorithm NCCL's tuner chooses (model)", auto.time_s,
           display.fmt_time(auto.time_s),
           f"collectives.predict (NCCL's choice: {alg_name.split(':')[0]})", S.NCCL_TUNING),
    )
    fastest = min(ring.time_s, hier.time_s)
    verdict = ("It is also the fastest of the three in the model" if auto.time_s <= fastest
               else "That is NCCL's choice, not the fastest: NCCL's tuner ranks algorithms "
               "with its own cost model and constants, and the book's model times the ring "
               "and the hierarchical algorithm faster here")
    why = (f"The arithmetic holds ({figs[0].text} for one one-way copy), but a DGX H100 node "
           f"has {h.nics_per_node} NICs of {display.fmt_bits(h.nic.rate.value * 8)}, a "
           "hierarchical all-reduce sends only a share of the bytes "
           f"across nodes, and the sync overlaps the backward pass. On {g['nodes']} DGX H100 "
           f"nodes the model gives {figs[1].text} with a ring, {figs[2].text} with the "
           f"hierarchical algorithm and {figs[3].text} with the algorithm NCCL's tuner "
           f"chooses ({alg_name}). {verdict}.",)
    return Claim("m", "Gradient sync over a 100 Gb/s link", "At 100 Gbps, 140 GB would take "
                 "over 11 seconds per step.", "ARITHMETIC RIGHT, MODEL MISLEADING", why, figs)


BUILDERS = {"a": _a, "b": _b, "c": _c, "d": _d, "e": _e, "f": _f_claim, "g": _g, "h": _h,
             "i": _i, "j": _j, "k": _k, "l": _l, "m": _m}
