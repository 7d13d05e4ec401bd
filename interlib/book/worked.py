"""Worked solutions that show the arithmetic: formula, givens with units, intermediate
results, then the ``interlib`` call that agrees.

Each function here takes a worked problem's givens (the variables of the notebook's
``worked-problem-input`` cell), redoes the model's arithmetic step by step from catalogue
values, in the order a student would on paper, and returns a :class:`Derivation`. The
notebook displays it (Markdown in JupyterLab and on the site, plain text for nbval). The
last line calls the library function the chapter uses and states how closely the two
agree: the step-by-step result is computed independently, so a disagreement would show
(``tests/test_worked.py`` asserts each agrees within its stated tolerance).

Black-box helpers are opened up here: :func:`straggler_gpus` shows how
:func:`interlib.scaling.gpus_for_slowdown` finds its answer, with a table a student can
read in an exam.

A derivation also keeps its results by name (:meth:`Derivation.value`, read back as
``d.v.<name>``), so a chapter's prose answer quotes the very numbers its folded
derivation shows, through ``{eval}`` (Chapter 1's pattern: a ``remove-cell`` computes the
derivation, a markdown **Answer** gives the formula in LaTeX and quotes ``d.v``, the
folded derivation follows).
"""

from __future__ import annotations

import math
import types

from .. import _validate as v
from .. import display as D
from ..units import billion


class Derivation:
    """Givens, steps and a check, rendered as Markdown (and text for nbval)."""

    def __init__(self, title: str):
        self.title = v.instance("title", title, str, "a title")
        self.givens: list[str] = []
        self.formulas: list[str] = []
        self.steps: list[str] = []
        self.checks: list[tuple[str, str, float]] = []
        self.notes: list[str] = []
        self.values: dict[str, float] = {}
        self.tolerance = 0.01

    def value(self, name: str, x):
        """Record result ``x`` under ``name`` (read back as ``d.v.name``); returns ``x``."""
        v.instance("name", name, str, "a name")
        if not name.isidentifier():
            raise ValueError(f"name={name!r}: must be a Python identifier")
        self.values[name] = x
        return x

    @property
    def v(self) -> types.SimpleNamespace:
        """The recorded results, by name (``d.v.time_s``)."""
        return types.SimpleNamespace(**self.values)

    def given(self, text: str) -> "Derivation":
        self.givens.append(text)
        return self

    def formula(self, text: str) -> "Derivation":
        self.formulas.append(text)
        return self

    def step(self, text: str) -> "Derivation":
        self.steps.append(text)
        return self

    def note(self, text: str) -> "Derivation":
        self.notes.append(text)
        return self

    def check(self, call: str, ours: float, theirs: float, fmt) -> "Derivation":
        """Record the library call ``call`` returning ``theirs`` against our ``ours``."""
        rel = abs(ours - theirs) / abs(theirs) if theirs else abs(ours)
        diff = "the same" if rel < 1e-6 else f"a difference of {D.fmt_pct(rel, 2)}"
        self.checks.append((call, f"{fmt(theirs)} (by hand: {fmt(ours)}, {diff})", rel))
        return self

    @property
    def agrees(self) -> bool:
        return all(rel <= self.tolerance for _, _, rel in self.checks)

    def markdown(self) -> str:
        out = [f"**{self.title}**", ""]
        if self.givens:
            out += ["*Givens*", ""] + [f"- {g}" for g in self.givens] + [""]
        if self.formulas:
            out += ["*Formula*", ""] + [f"- {f}" for f in self.formulas] + [""]
        out += ["*Step by step*", ""] + [f"{i}. {s}" for i, s in enumerate(self.steps, 1)]
        out.append("")
        for call, result, _ in self.checks:
            out.append(f"*Check with interlib*: `{call}` gives {result}.")
            out.append("")
        out += self.notes
        return "\n".join(out).rstrip() + "\n"

    def text(self) -> str:
        return self.markdown().replace("**", "").replace("*", "").replace("`", "")

    def _repr_mimebundle_(self, **kwargs):
        return {"text/markdown": self.markdown(), "text/plain": self.text()}


_SUBSCRIPT = str.maketrans("0123456789n", "₀₁₂₃₄₅₆₇₈₉ₙ")


def _e(k) -> str:
    """The expected maximum of ``k`` standard normals, named as a reader writes it: ``Eₙ``,
    ``E₂₈``."""
    return "E" + str(k).translate(_SUBSCRIPT)


def _prob(x: float, complement: float | None = None) -> str:
    """A probability as a reader reads it: four significant figures; below a thousandth a
    power of ten (``1.9 × 10⁻¹⁷⁴``); within a thousandth of 1, as 1 minus its complement
    (``complement``, computed where 1 − x would round away)."""
    c = 1 - x if complement is None else complement
    if x < 1e-3:
        return D.fmt_num(x)
    if c < 1e-3:
        return "1" if c <= 0 else f"1 − {D.fmt_num(c)}"
    return format(x, ".4g")


def _g(x: float) -> str:
    return f"{x:g}"


#: NCCL's names for the algorithms ``collectives.predict`` picks inside one node (across
#: nodes its "nvls" is NCCL's NVLSTree: ``interlib.plots.ch05.nccl_algorithm_label``).
_ONE_NODE_NAMES = {"nvls": "NVLS"}


# ----------------------------------------------------------------------------- chapter 1
def ring_sync(params, bytes_per_param, n_gpus, link="NVLink 4", system=None) -> Derivation:
    """Ring all-reduce of a gradient over one link type (Chapter 1's alpha-beta model).

    With a catalogue ``system`` it also keeps, for Chapter 1's comparison with the popular
    article (Appendix B, claim a): the collective model's ring time on that system
    (``model_time_s``), the article's method, the fp32 gradient divided by the GPU's HBM
    bandwidth (``article_time_s``, :func:`interlib.scaling.naive_sync_time`), and how many
    times as long the model's time is (``times_article``)."""
    from .. import collectives, hierarchy, scaling, specs

    v.positive("params", params)
    n = v.integer("n_gpus", n_gpus, lo=2)
    if system is not None:
        v.choice("system", system, specs.SYSTEMS)
    r = hierarchy.link(link)
    S = params * bytes_per_param
    f = 2 * (n - 1) / n
    sent = f * S
    t_bw = sent / r.effective
    t_lat = 2 * (n - 1) * r.latency
    t = t_bw + t_lat
    d = Derivation(f"Ring all-reduce of the gradient over {link}")
    d.given(f"P = {params / billion:g} billion parameters, b = {bytes_per_param} bytes each, "
            f"n = {n} GPUs")
    d.given(f"{link}: achieved B = {D.fmt_rate(r.effective)} per direction, per-hop latency "
            f"α = {D.fmt_time(r.latency)} (catalogue)")
    d.formula("S = P × b;  t = 2(n − 1)·α + 2(n − 1)/n × S / B")
    d.step(f"S = {params / billion:g} × 10⁹ × {bytes_per_param} B = {D.fmt_bytes(S)}")
    d.step(f"each GPU sends 2(n − 1)/n × S = 2 × {n - 1}/{n} × {D.fmt_bytes(S)} = "
           f"{_g(f)} × {D.fmt_bytes(S)} = {D.fmt_bytes(sent)}")
    d.step(f"bandwidth term: {D.fmt_bytes(sent)} ÷ {D.fmt_rate(r.effective)} = "
           f"{D.fmt_time(t_bw)}")
    d.step(f"latency term: 2 × {n - 1} × {D.fmt_time(r.latency)} = {D.fmt_time(t_lat)}")
    d.step(f"t = {D.fmt_time(t_bw)} + {D.fmt_time(t_lat)} = **{D.fmt_time(t)}**")
    if system is not None:
        model = collectives.predict("all_reduce", scaling.gradient_bytes(params, bytes_per_param),
                                    system, n, 1, "ring").time_s
        article = scaling.naive_sync_time(params, specs.system(system).gpu.hbm_bandwidth.value)
        d.value("model_time_s", model)
        d.value("article_time_s", article)
        d.value("times_article", model / article)
    d.check(f'scaling.ring_sync_time(params, {n}, "{link}", {bytes_per_param})', t,
            scaling.ring_sync_time(params, n, link, bytes_per_param), D.fmt_time)
    d.note(f"The wrong method of Appendix B divides 4-byte gradients by HBM bandwidth and "
           f"skips the factor 2(n − 1)/n = {collectives.bus_factor('all_reduce', n):.3g}.")
    return d


def straggler_gpus(target, jitter) -> Derivation:
    """Open up :func:`interlib.scaling.gpus_for_slowdown`: the smallest n whose expected
    step, 1 + jitter × E[max of n standard normals], reaches ``target``."""
    from .. import scaling

    v.number("target", target, lo=1.0, lo_open=True)
    v.number("jitter", jitter, lo=0.0, hi=0.5, lo_open=True)
    z = (target - 1) / jitter
    rough = math.exp(z * z / 2)
    n = scaling.gpus_for_slowdown(target, jitter)
    d = Derivation("How many GPUs before jitter costs the target slowdown")
    d.given(f"jitter j = {D.fmt_pct(jitter)} (standard deviation ÷ mean of one GPU's step), "
            f"target slowdown T = {_g(target)}×")
    d.formula("step ÷ mean = 1 + j × E[max of n standard normals];  solve "
              f"1 + j × {_e('n')} ≥ T for the smallest n")
    d.step(f"needed {_e('n')} ≥ (T − 1) ÷ j = ({_g(target)} − 1) ÷ {_g(jitter)} = {z:.4g}")
    d.step(f"rough estimate with {_e('n')} ≈ √(2 ln n): n ≈ exp(E²/2) = exp({z:.4g}²/2) ≈ "
           f"{D.fmt_num(rough)}. √(2 ln n) overestimates {_e('n')} at small n, so the true n "
           "is larger")
    rows = sorted({max(1, n // 4), max(1, n // 2), n - 1, n, n + 1, 2 * n})
    table = ", ".join(f"{_e(k)} = {scaling.expected_max_standard_normal(k):.4f}"
                      for k in rows if k >= 1)
    d.step(f"table of {_e('n')} (numerical integration, what an exam would give you): {table}")
    d.step(f"the first n with {_e('n')} ≥ {z:.4g} is **n = {n}**: step "
           f"{scaling.expected_step_time(n, 1.0, jitter):.4f}× the mean (n − 1 gives "
           f"{scaling.expected_step_time(n - 1, 1.0, jitter):.4f}×)")
    d.check(f"scaling.gpus_for_slowdown({_g(target)}, {_g(jitter)})", n, n, str)
    return d


def algbw_busbw(size_bytes, n_gpus, system="dgx-a100") -> Derivation:
    """nccl-tests' algbw and busbw from the predicted time, and what to compare.

    For a system whose GPUs talk over NVLink (through NVSwitch) it also keeps the model's
    busbw as a share of the GPU's NVLink rate per direction: of NCCL's achieved rate (``of_achieved``) and of the
    line rate (``of_line``)."""
    from .. import collectives, specs

    n = v.integer("n_gpus", n_gpus, lo=2)
    r = collectives.predict("all_reduce", size_bytes, system, n, 1)
    sys_ = specs.system(system)
    nvl = sys_.gpu.nvlink if sys_.intra == "nvswitch" else None
    algbw = size_bytes / r.time_s
    f = collectives.bus_factor("all_reduce", n)
    busbw = algbw * f
    d = Derivation("algbw and busbw of an all-reduce")
    d.given(f"S = {D.fmt_bytes(size_bytes, binary=True)} per GPU, n = {n} GPUs of "
            f"{specs.system(system).title}; model time t = {D.fmt_time(r.time_s)}")
    d.formula("algbw = S ÷ t;  busbw = algbw × 2(n − 1)/n (nccl-tests PERFORMANCE.md)")
    d.step(f"algbw = {D.fmt_bytes(size_bytes)} ÷ {D.fmt_time(r.time_s)} = "
           f"{D.fmt_rate(algbw)}")
    d.step(f"busbw = {D.fmt_rate(algbw)} × 2 × {n - 1}/{n} = {D.fmt_rate(algbw)} × {_g(f)} = "
           f"**{D.fmt_rate(busbw)}**")
    d.step("compare busbw (the rate each GPU's links carried in a ring) with the per-GPU, "
           "per-direction link rate; algbw is smaller by the bus factor")
    d.value("algbw", algbw)
    d.value("busbw", busbw)
    if nvl is not None:
        d.value("of_achieved", r.busbw / nvl.per_gpu_effective)
        d.value("of_line", r.busbw / nvl.per_gpu_per_direction)
    d.check(f'collectives.predict("all_reduce", size, "{system}", {n}, 1).busbw', busbw,
            r.busbw, D.fmt_rate)
    return d


# ----------------------------------------------------------------------------- chapter 2
def pcie_load(params, bytes_per_param, n_gpus, gpus_per_switch, gen="5.0") -> Derivation:
    """Weights over PCIe: one link, split over GPUs, and split with shared uplinks."""
    from .. import pcie

    v.positive("params", params)
    v.integer("bytes_per_param", bytes_per_param, lo=1, hi=8)
    v.integer("n_gpus", n_gpus, lo=1)
    v.integer("gpus_per_switch", gpus_per_switch, lo=1)
    S = params * bytes_per_param
    B = pcie.link_bandwidth(gen, 16)
    a = pcie.LATENCY.value
    one = a + S / B
    share = S / n_gpus
    split = a + share / B
    b_each = min(B, pcie.link_bandwidth(gen, 16) / gpus_per_switch)
    paired = a + share / b_each
    d = Derivation(f"Loading the weights over PCIe {gen} x16")
    d.given(f"P = {params / billion:g} billion parameters × {bytes_per_param} B; {n_gpus} GPUs, "
            f"{gpus_per_switch} per switch uplink (x16)")
    d.given(f"PCIe {gen} x16 achieved B = {D.fmt_rate(B)} per direction, start-up "
            f"α = {D.fmt_time(a)}")
    d.formula("t = α + S ÷ B;  with k devices sharing an uplink, each gets min(B, uplink rate ÷ k)")
    d.step(f"S = {D.fmt_bytes(S)}; one link: {D.fmt_time(a)} + {D.fmt_bytes(S)} ÷ "
           f"{D.fmt_rate(B)} = {D.fmt_time(one)}")
    d.step(f"split: each GPU loads S ÷ {n_gpus} = {D.fmt_bytes(share)}: "
           f"{D.fmt_time(a)} + {D.fmt_bytes(share)} ÷ {D.fmt_rate(B)} = {D.fmt_time(split)}")
    d.step(f"{gpus_per_switch} per uplink: each gets {D.fmt_rate(B)} ÷ {gpus_per_switch} = "
           f"{D.fmt_rate(b_each)}, so {D.fmt_bytes(share)} ÷ {D.fmt_rate(b_each)} + α = "
           f"**{D.fmt_time(paired)}**")
    for name, x in (("size", S), ("rate", B), ("latency", a), ("one_link", one),
                    ("share", share), ("split", split), ("rate_shared", b_each),
                    ("shared", paired)):
        d.value(name, x)
    d.check(f'pcie.transfer_time(S, "{gen}")', one, float(pcie.transfer_time(S, gen)),
            D.fmt_time)
    d.check(f'pcie.shared_transfer_time(S / {n_gpus}, {gpus_per_switch}, "{gen}", "host")',
            paired, float(pcie.shared_transfer_time(share, gpus_per_switch, gen, "host")),
            D.fmt_time)
    return d


def pcie_box_allreduce(params, bytes_per_param, n_gpus) -> Derivation:
    """Bandwidth estimate of a ring all-reduce on the PCIe-only box, against the model.

    Besides the estimate (``time_s``) it keeps the model's ring time on the box
    (``model_time_s``), the model's time on a DGX H100 with NCCL's own choice
    (``dgx_time_s``) and how many times as long the box takes (``times_dgx``)."""
    from .. import collectives, pcie

    n = v.integer("n_gpus", n_gpus, lo=2)
    S = params * bytes_per_param
    f = collectives.bus_factor("all_reduce", n)
    B = pcie.link_bandwidth("5.0", 16)
    est = f * S / B
    r = collectives.predict("all_reduce", S, "h100-pcie-only", n, 1, "ring")
    dgx = collectives.predict("all_reduce", S, "dgx-h100", n, 1, "auto")
    d = Derivation("Ring all-reduce on the PCIe-only box, by hand")
    d.given(f"S = {D.fmt_bytes(S)} (bf16 gradient), n = {n} GPUs, each on its own PCIe 5.0 "
            f"x16 link at an achieved {D.fmt_rate(B)} per direction")
    d.formula("t ≈ 2(n − 1)/n × S ÷ B (the bandwidth term; latency is negligible here)")
    d.step(f"bytes each GPU sends: {_g(f)} × {D.fmt_bytes(S)} = {D.fmt_bytes(f * S)}")
    d.step(f"t ≈ {D.fmt_bytes(f * S)} ÷ {D.fmt_rate(B)} = **{D.fmt_time(est)}**")
    for name, x in (("size", S), ("bus_factor", f), ("rate", B), ("bytes", f * S),
                    ("time_s", est), ("model_time_s", r.time_s),
                    ("dgx_time_s", dgx.time_s), ("times_dgx", r.time_s / dgx.time_s)):
        d.value(name, x)
    d.check(f'collectives.predict("all_reduce", S, "h100-pcie-only", {n}, 1, "ring").time_s',
            est, r.time_s, D.fmt_time)
    d.tolerance = 0.1
    d.note("The model's own time also charges NCCL's protocol efficiency and per-step "
           "latencies, which is why it differs slightly from the hand estimate.")
    return d


# ----------------------------------------------------------------------------- chapter 3
def tp_layer(batch, seq_len, hidden, tp, mfu, link="NVLink 4 (H100)") -> Derivation:
    """One layer's forward compute and all-reduce time under tensor parallelism."""
    from .. import specs, tensor_parallel as TP

    system, gpu = TP.LINKS[v.choice("link", link, TP.LINKS)]
    flops = TP.layer_forward_flops(batch, seq_len, hidden)
    k = flops / (batch * seq_len * hidden * hidden)
    peak = TP.peak_flops(gpu)
    comp = flops / tp / (peak * mfu)
    size = TP.activation_bytes(batch, seq_len, hidden)
    c = TP.layer_cost(batch, seq_len, hidden, tp, link, mfu)
    comm = float(c.comm_s)
    share = comm / (comm + comp)
    alg = _ONE_NODE_NAMES.get(c.algorithm, c.algorithm)
    d = Derivation(f"One layer with TP = {tp} over {link}")
    d.given(f"b = {batch} sequence of s = {seq_len:,} tokens, width h = {hidden:,}, "
            f"TP = {tp}, MFU = {D.fmt_pct(mfu)} (assumed); {specs.gpu(gpu).name} peak "
            f"{D.fmt_si(peak, 'FLOP/s')} dense BF16")
    d.formula(f"compute = {k:g}·b·s·h² ÷ TP ÷ (peak × MFU);  all-reduce size = b·s·h × 2 B; "
              "share = comm ÷ (comm + compute)")
    d.step(f"FLOPs = {k:g} × {batch} × {seq_len:,} × {hidden:,}² = "
           f"{D.fmt_si(flops, 'FLOP', digits=4)}")
    d.step(f"compute = {D.fmt_si(flops, 'FLOP', digits=4)} ÷ {tp} ÷ ({D.fmt_si(peak, 'FLOP/s')} × {_g(mfu)}) = "
           f"{D.fmt_time(comp)}")
    d.step(f"each all-reduce moves {D.fmt_bytes(size)}; the two forward all-reduces take "
           f"{D.fmt_time(comm)} ({alg}, from the collective model)")
    d.step(f"share = {D.fmt_time(comm)} ÷ ({D.fmt_time(comm)} + {D.fmt_time(comp)}) = "
           f"**{D.fmt_pct(share)}**")
    for name, x in (("flops", flops), ("peak", peak), ("compute", comp), ("size", size),
                    ("comm", comm), ("share", share), ("algorithm", alg)):
        d.value(name, x)
    d.check(f'tensor_parallel.layer_cost({batch}, {seq_len}, {hidden}, {tp}, "{link}", '
            f"{_g(mfu)}).comm_share", share, float(c.comm_share), D.fmt_pct)
    return d


def copy_three_ways(size_bytes, gen=4) -> Derivation:
    """A copy timed with the headline, the per-direction line rate and the achieved rate."""
    from .. import nvlink, transfer

    v.positive("size_bytes", size_bytes)
    d = Derivation(f"A {D.fmt_bytes(size_bytes)} copy over NVLink {gen}, three ways")
    d.given(f"S = {D.fmt_bytes(size_bytes)}")
    d.formula("t = S ÷ B (one direction; latency negligible at this size)")
    for label, level in (("headline (both directions: wrong for one copy)", "headline"),
                         ("line rate per direction", "line"),
                         ("achieved per direction", "effective")):
        bw = nvlink.gpu_bandwidth(gen, level)
        d.value(f"rate_{level}", bw)
        d.value(f"time_{level}", size_bytes / bw)
        d.step(f"{label}: {D.fmt_bytes(size_bytes)} ÷ {D.fmt_rate(bw)} = "
               f"{D.fmt_time(size_bytes / bw)}")
    bw = nvlink.gpu_bandwidth(gen, "effective")
    d.check(f"transfer.transfer_time(size, nvlink.gpu_bandwidth({gen}, 'effective'))",
            size_bytes / bw, float(transfer.transfer_time(size_bytes, bw)), D.fmt_time)
    return d


# ----------------------------------------------------------------------------- chapter 4
def dgx_bandwidths(system="dgx-h100") -> Derivation:
    """Aggregate, bisection per direction and both directions of an NVSwitch box."""
    from .. import nvswitch, specs

    s = specs.system(system)
    nv = specs.nvlink({"Hopper": 4, "Blackwell": 5}.get(s.gpu.arch, 4))
    n = s.gpus_per_node
    agg = n * nv.per_gpu_bidirectional
    bis = n // 2 * nv.per_gpu_per_direction
    d = Derivation(f"Three bandwidths of {s.title}")
    d.given(f"n = {n} GPUs; {nv.name}: {D.fmt_rate(nv.per_gpu_per_direction)} per GPU per "
            f"direction ({D.fmt_rate(nv.per_gpu_bidirectional)} both directions)")
    d.formula("aggregate = n × per-GPU both directions;  bisection = n/2 × per-GPU per "
              "direction (non-blocking switches)")
    d.step(f"aggregate = {n} × {D.fmt_rate(nv.per_gpu_bidirectional)} = {D.fmt_rate(agg)}")
    d.step(f"bisection = {n // 2} × {D.fmt_rate(nv.per_gpu_per_direction)} = "
           f"{D.fmt_rate(bis)} per direction, {D.fmt_rate(2 * bis)} both directions")
    for name, x in (("gpus", n), ("per_direction", nv.per_gpu_per_direction),
                    ("bidirectional", nv.per_gpu_bidirectional), ("aggregate", agg),
                    ("bisection", bis), ("bisection_both", 2 * bis)):
        d.value(name, x)
    d.check(f"nvswitch.bisection_bandwidth({n}, per_gpu_per_direction)", bis,
            float(nvswitch.bisection_bandwidth(n, nv.per_gpu_per_direction)), D.fmt_rate)
    d.check(f"nvswitch.aggregate_bandwidth({n}, per_gpu_bidirectional)", agg,
            float(nvswitch.aggregate_bandwidth(n, nv.per_gpu_bidirectional)), D.fmt_rate)
    return d


def nvls_factors(n_gpus, arch="Hopper", size_bytes=None, system=None) -> Derivation:
    """Ring vs NVLS: the bytes ratio, the ideal ratio, and with NCCL's efficiency.

    With ``system`` (a catalogue id) and ``size_bytes`` it also keeps the model's speed-up
    for that buffer, ring time / NVLS time (``model_speedup``,
    :func:`interlib.nvswitch.ring_vs_nvls`); with a ``system`` that has a published NVLS
    measurement (``specs.inside_box.NVLS_MEASURED``), the measured busbw ratio
    (``measured_speedup``)."""
    from .. import nvswitch, specs

    n = v.integer("n_gpus", n_gpus, lo=2)
    if system is not None:
        v.choice("system", system, specs.SYSTEMS)
    if size_bytes is not None:
        v.positive("size_bytes", size_bytes)
        if system is None:
            raise ValueError(f"size_bytes={size_bytes!r} needs a system: the model's "
                             "speed-up is for a buffer on a catalogue system")
    bytes_ratio = 2 * (n - 1) / n
    ideal = 2 * (n - 1) / (n + 1)
    eta = nvswitch.nvls_efficiency(arch)
    r = nvswitch.nvls_speedup(n, arch)
    d = Derivation(f"How much NVLS should beat the ring on {n} GPUs")
    d.given(f"n = {n}; NCCL's NVLS efficiency on {arch} η = {D.fmt_pct(eta)} (tuning.cc)")
    d.formula("ring: each GPU's links carry 2(n − 1)/n × S.  NVLS (multimem): each GPU "
              "sends its buffer S once into the switch, which reduces it, and stores its 1/n "
              "share of the sum with one multicast, S/n more: (n + 1)/n × S.  ideal "
              "speed-up = 2(n − 1)/n ÷ (n + 1)/n = 2(n − 1)/(n + 1);  expected: ideal × η "
              "(relative to a ring at full link efficiency)")
    d.step(f"ring bytes = 2 × {n - 1}/{n} × S = {bytes_ratio:.4g} S;  NVLS bytes = "
           f"{n + 1}/{n} × S = {(n + 1) / n:.4g} S")
    d.step(f"ideal = {bytes_ratio:.4g} ÷ {(n + 1) / n:.4g} = 2 × {n - 1}/{n + 1} = "
           f"{ideal:.4g}")
    d.step(f"expected ≈ {ideal:.4g} × {eta:.4g} = {ideal * eta:.4g} (NCCL's model also "
           "applies the ring's own efficiency, so compare with the interlib figure)")
    for name, x in (("bytes_ratio", bytes_ratio), ("ideal", ideal), ("efficiency", eta),
                    ("expected", r["expected"])):
        d.value(name, x)
    if size_bytes is not None:
        p = nvswitch.ring_vs_nvls(size_bytes, system, n)
        d.value("model_speedup", p["ring"].time_s / p["nvls"].time_s)
    measured = specs.inside_box.NVLS_MEASURED.get(system) if system is not None else None
    if measured is not None:
        d.value("measured_speedup", measured.nvls.value / measured.ring.value)
    d.check(f'nvswitch.nvls_speedup({n}, "{arch}")["ideal"]', ideal, r["ideal"],
            lambda x: f"{x:.4g}")
    return d


# ----------------------------------------------------------------------------- chapter 5
def credit_buffer(distance_m, rate=None) -> Derivation:
    """Receive buffer for a credit-based link: rate × round trip."""
    from .. import flowcontrol, specs

    v.non_negative("distance_m", distance_m)
    rate = specs.infiniband("NDR").port_rate() if rate is None else rate
    c = flowcontrol.FIBRE_SPEED
    rtt = 2 * distance_m / c
    need = rate * rtt
    d = Derivation(f"Credits for {_g(distance_m)} m of fibre")
    d.given(f"port rate {D.fmt_rate(rate)} per direction; light in fibre "
            f"c = {D.fmt_si(c, 'm/s')}; cable {_g(distance_m)} m one way")
    d.formula("RTT = 2 × d ÷ c;  buffer = rate × RTT (the bandwidth-delay product)")
    d.step(f"RTT = 2 × {_g(distance_m)} m ÷ {D.fmt_si(c, 'm/s')} = {D.fmt_time(rtt)}")
    d.step(f"buffer = {D.fmt_rate(rate)} × {D.fmt_time(rtt)} = **{D.fmt_bytes(need)}**")
    for name, x in (("rate", rate), ("rtt", rtt), ("buffer", need)):
        d.value(name, x)
    d.check(f"flowcontrol.credit_buffer_bytes(rate, {_g(distance_m)})", need,
            float(flowcontrol.credit_buffer_bytes(rate, distance_m)), D.fmt_bytes)
    return d


def fat_tree_two_tier(radix, oversubscription=1.0) -> Derivation:
    """Hosts of a two-tier fat tree: leaves × hosts per leaf."""
    from .. import topology

    down, up = topology.leaf_ports(radix, oversubscription)
    leaves = radix  # a spine has `radix` ports, one per leaf
    hosts = leaves * down
    d = Derivation(f"Two tiers of {radix}-port switches at {_g(oversubscription)}:1")
    d.given(f"radix k = {radix}; leaf ports split down:up = {down}:{up}")
    d.formula("hosts = (leaves) × (host ports per leaf); a spine has k ports, so at most k "
              "leaves")
    d.step(f"hosts = {leaves} × {down} = **{hosts:,}**")
    d.check(f"topology.max_hosts({radix}, 2, {_g(oversubscription)})", hosts,
            topology.max_hosts(radix, 2, oversubscription), lambda x: f"{x:,}")
    return d


def hierarchical_allreduce(params, bytes_per_param, nodes, system="dgx-h100") -> Derivation:
    """Multi-node hierarchical all-reduce: an NVLink phase inside each node and a ring of
    1/g shards across nodes through each GPU's NIC, pipelined (the slower one sets the
    pace)."""
    from .. import collectives, hierarchy, scaleout, specs

    k = v.integer("nodes", nodes, lo=2)
    v.positive("params", params)
    g = specs.system(system).gpus_per_node
    S = params * bytes_per_param
    nv = hierarchy.link("NVLink 4").effective
    nic = hierarchy.link("InfiniBand NDR (1 NIC/GPU)").effective
    f_g = collectives.bus_factor("all_reduce", g)
    f_k = collectives.bus_factor("all_reduce", k)
    t_in = f_g * S / nv
    shard = S / g
    t_out = f_k * shard / nic
    t = max(t_in, t_out)
    d = Derivation(f"Hierarchical all-reduce on {k} nodes, by hand")
    d.given(f"S = {D.fmt_bytes(S)} per GPU; g = {g} GPUs per node, k = {k} nodes; NVLink "
            f"{D.fmt_rate(nv)} and one NDR NIC per GPU {D.fmt_rate(nic)} per direction "
            "(achieved)")
    d.formula("inside the node: 2(g − 1)/g × S ÷ NVLink rate;  across nodes: 2(k − 1)/k × "
              "(S/g) ÷ NIC rate;  pipelined: t ≈ the larger of the two")
    d.step(f"NVLink phase: {_g(f_g)} × {D.fmt_bytes(S)} ÷ {D.fmt_rate(nv)} = "
           f"{D.fmt_time(t_in)}")
    d.step(f"shard per GPU: {D.fmt_bytes(S)} ÷ {g} = {D.fmt_bytes(shard)}")
    d.step(f"network phase: {_g(f_k)} × {D.fmt_bytes(shard)} ÷ {D.fmt_rate(nic)} = "
           f"{D.fmt_time(t_out)}")
    d.step(f"t ≈ max({D.fmt_time(t_in)}, {D.fmt_time(t_out)}) = **{D.fmt_time(t)}**")
    p = scaleout.multinode_all_reduce(S, k, system, ("hierarchical",))["hierarchical"]
    for name, x in (("size", S), ("gpus_per_node", g), ("nodes", k), ("rate_nvlink", nv),
                    ("rate_nic", nic), ("t_nvlink", t_in), ("shard", shard),
                    ("t_network", t_out), ("time_s", t)):
        d.value(name, x)
    d.check(f'scaleout.multinode_all_reduce(S, {k}, "{system}")["hierarchical"].time_s', t,
            float(p.time_s), D.fmt_time)
    d.tolerance = 0.05
    d.note("The model also charges latency and the pipeline's fill, a small addition here.")
    return d


def fat_tree_sizing(hosts, radix=64, oversubscription=1.0) -> Derivation:
    """Switches and cables of a fat tree, tier by tier (the counting skeleton of
    :func:`interlib.topology.fat_tree`)."""
    from .. import topology

    n = v.integer("hosts", hosts, lo=2)
    ft = topology.fat_tree(n, radix, oversubscription)
    k = int(radix)
    down, up = ft.leaf_down, ft.leaf_up
    d = Derivation(f"A fat tree for {n:,} hosts of {k}-port switches")
    d.given(f"hosts H = {n:,}; radix k = {k}; leaves {down} ports down, {up} up")
    d.formula("tiers: the fewest whose capacity holds H (two tiers hold k²/2 at 1:1);  "
              "leaves = ⌈H ÷ down⌉;  each middle tier = ⌈links from below ÷ (k/2)⌉;  "
              "top tier = ⌈links from below ÷ k⌉;  cables = H + all uplinks")
    caps = ", ".join(f"{t} tier(s): {topology.max_hosts(k, t, oversubscription):,}"
                     for t in range(1, ft.tiers + 1))
    d.step(f"capacities: {caps}, so **{ft.tiers} tiers**")
    leaves = -(-n // down)
    links = leaves * up
    counts, cables = [leaves], links
    d.step(f"leaves = ⌈{n:,} ÷ {down}⌉ = {leaves}, with {leaves} × {up} = {links:,} uplinks")
    for _ in range(ft.tiers - 2):
        mid = -(-links // (k // 2))
        d.step(f"middle tier = ⌈{links:,} ÷ {k // 2}⌉ = {mid}, with {mid * (k // 2):,} uplinks")
        counts.append(mid)
        links = mid * (k // 2)
        cables += links
    top = -(-links // k)
    counts.append(top)
    d.step(f"top tier = ⌈{links:,} ÷ {k}⌉ = {top}")
    total = sum(counts)
    d.step(f"switches = {' + '.join(map(str, counts))} = **{total}**; cables = {n:,} + "
           f"{cables:,} = **{n + cables:,}**; longest path 2 × {ft.tiers} − 1 = "
           f"{2 * ft.tiers - 1} switch hops")
    for name, x in (("hosts", n), ("tiers", ft.tiers), ("switches", total),
                    ("cables", n + cables), ("hops", 2 * ft.tiers - 1)):
        d.value(name, x)
    d.check(f"topology.fat_tree({n}, {k}).switches", total, ft.switches, str)
    d.check(f"topology.fat_tree({n}, {k}).cables", n + cables, ft.cables, str)
    return d


# ----------------------------------------------------------------------------- chapter 6
def mtu_cost(mtu, reference=4096, gbe=400) -> Derivation:
    """Payload bandwidth lost to headers at a smaller RDMA MTU."""
    from .. import packets, specs

    v.integer("mtu", mtu, lo=1, hi=9000)
    v.integer("reference", reference, lo=1, hi=9000)
    link = specs.ethernet(gbe).value
    over = packets.packet_layout(0).wire
    e_small, e_ref = mtu / (mtu + over), reference / (reference + over)
    loss = link * (e_ref - e_small)
    d = Derivation(f"What an MTU of {mtu} costs on {gbe} GbE")
    d.given(f"link {D.fmt_rate(link)} per direction; RoCEv2 (IPv4) headers and wire framing "
            f"{over} B per packet (Ethernet, IP, UDP, BTH, ICRC, FCS, preamble and gap)")
    d.formula("efficiency = payload ÷ (payload + overhead);  goodput = link × efficiency")
    d.step(f"MTU {mtu}: {mtu} ÷ ({mtu} + {over}) = {D.fmt_pct(e_small)} → "
           f"{D.fmt_rate(link * e_small)}")
    d.step(f"MTU {reference}: {reference} ÷ ({reference} + {over}) = {D.fmt_pct(e_ref)} → "
           f"{D.fmt_rate(link * e_ref)}")
    d.step(f"lost: {D.fmt_rate(link * e_ref)} − {D.fmt_rate(link * e_small)} = "
           f"**{D.fmt_rate(loss)}** per direction per NIC")
    for name, x in (("link", link), ("overhead", over), ("efficiency", e_small),
                    ("efficiency_ref", e_ref), ("goodput", link * e_small),
                    ("goodput_ref", link * e_ref), ("loss", loss)):
        d.value(name, x)
    d.check(f"packets.goodput_loss(link, {mtu}, {reference})", loss,
            float(packets.goodput_loss(link, mtu, reference)), D.fmt_rate)
    return d


def drop_probability(n_gpus, drop_rate) -> Derivation:
    """P(a step contains at least one drop) = 1 − (1 − p)^(m N)."""
    from .. import reliability
    from ..reliability import drop_step_setup

    m, base = drop_step_setup()
    n = v.integer("n_gpus", n_gpus, lo=1)
    v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    mn = m * n
    p_clean = math.exp(mn * math.log1p(-drop_rate))
    hit = 1 - p_clean
    d = Derivation("Probability that a step sees a drop")
    d.given(f"N = {n:,} GPUs, m = {m:,} packets per GPU per step, p = {D.fmt_num(drop_rate)} per "
            "packet, drops independent")
    d.formula("P(clean step) = (1 − p)^(m·N) ≈ exp(−m·N·p);  P(drop) = 1 − P(clean)")
    d.step(f"m·N = {m:,} × {n:,} = {mn:,} packets per step")
    d.step(f"m·N·p = {D.fmt_num(mn * drop_rate)} expected drops per step")
    d.step(f"P(clean) = exp({mn:,} × ln(1 − {D.fmt_num(drop_rate)})) = {_prob(p_clean)}")
    if p_clean < 1e-3:  # 1 − p_clean rounds to 1: say so rather than print 1 = 1
        d.step(f"P(drop) = 1 − P(clean) = **{_prob(hit, p_clean)}**, 1 to any precision "
               "that matters")
    else:
        d.step(f"P(drop) = 1 − {_prob(p_clean)} = **{_prob(hit, p_clean)}**")
    for name, x in (("packets", m), ("gpus", n), ("packets_per_step", mn),
                    ("expected_drops", mn * drop_rate), ("p_clean", p_clean), ("p_drop", hit)):
        d.value(name, x)
    from ..units import ms
    s = reliability.step_time_with_drops(n, drop_rate, m, base, ms)
    d.check(f"reliability.step_time_with_drops({n}, {drop_rate:g}, m, base, "
            "units.ms).p_step_hit", hit, s.p_step_hit, _prob)
    return d


def pfc_headroom(distance_m, response_s, mtu=4096) -> Derivation:
    """Buffer above XOFF: rate × (round trip + reaction) + two frames."""
    from .. import flowcontrol, packets, specs

    link = specs.ethernet(400).value
    frame = packets.packet_layout(mtu).frame
    rtt = flowcontrol.round_trip(distance_m)
    need = link * (rtt + response_s) + 2 * frame
    d = Derivation("PFC headroom")
    d.given(f"400 GbE: {D.fmt_rate(link)} per direction; {_g(distance_m)} m of fibre; "
            f"reaction {D.fmt_time(response_s)}; largest frame {frame} B ({mtu} B MTU)")
    d.formula("headroom = rate × (RTT + reaction) + 2 × frame")
    d.step(f"RTT = {D.fmt_time(rtt)}")
    d.step(f"in flight: {D.fmt_rate(link)} × ({D.fmt_time(rtt)} + {D.fmt_time(response_s)})"
           f" = {D.fmt_bytes(link * (rtt + response_s))}")
    d.step(f"plus 2 × {frame} B = **{D.fmt_bytes(need)}**")
    for name, x in (("link", link), ("frame", frame), ("rtt", rtt),
                    ("in_flight", link * (rtt + response_s)), ("headroom", need)):
        d.value(name, x)
    d.check(f"flowcontrol.pfc_headroom_bytes(link, {_g(distance_m)}, response_s, frame)",
            need, float(flowcontrol.pfc_headroom_bytes(link, distance_m, response_s, frame)),
            D.fmt_bytes)
    return d


# ----------------------------------------------------------------------------- chapter 7
def tp_phase(tp, pp, dp, model="llama-3-70b", system="dgx-h100", seq_len=4096,
             micro_batches=16) -> Derivation:
    """Per-step tensor-parallel time: operations × one all-reduce's time."""
    from .. import collectives, scaling, specs, steptime

    m = scaling.model(model)
    for name, val in (("tp", tp), ("pp", pp), ("dp", dp)):
        v.integer(name, val, lo=1)
    g = specs.system(system).gpus_per_node
    act = seq_len * m.hidden * 2
    ops = 4 * m.layers / pp * micro_batches
    g_tp, k_tp = (tp, 1) if tp <= g else (g, tp // g)
    one = collectives.predict("all_reduce", act, system, g_tp, k_tp)
    total = ops * one.time_s
    ph = steptime.layout_traffic(system, model, tp, pp, dp, seq_len, 1, micro_batches).phase("TP")
    d = Derivation(f"TP = {tp} for {m.name}: per-step time")
    d.given(f"{m.name}: {m.layers} layers, width h = {m.hidden:,}; one sequence of "
            f"{seq_len:,} tokens per micro-batch, {micro_batches} micro-batches; PP = {pp}")
    d.given(f"TP group: {g_tp} GPUs per node × {k_tp} node(s) of {specs.system(system).title}")
    d.formula("activation = s·h × 2 B;  operations = 4 all-reduces × layers ÷ PP × "
              "micro-batches;  time = operations × one all-reduce's time")
    d.step(f"activation = {seq_len:,} × {m.hidden:,} × 2 B = {D.fmt_bytes(act)}")
    d.step(f"operations = 4 × {m.layers} ÷ {pp} × {micro_batches} = {ops:g}")
    d.step(f"one all-reduce of {D.fmt_bytes(act)} on {tp} GPUs ({one.algorithm}): "
           f"{D.fmt_time(one.time_s)}, busbw {D.fmt_rate(one.busbw)}"
           + (" over the NICs: the group spans nodes" if k_tp > 1 else " over NVLink"))
    d.step(f"time = {ops:g} × {D.fmt_time(one.time_s)} = **{D.fmt_time(total)}**")
    d.check(f'steptime.layout_traffic("{system}", "{model}", {tp}, {pp}, {dp}).phase("TP")'
            ".time_s", total, ph.time_s, D.fmt_time)
    return d


def dp_over_spine(tp, pp, dp, oversubscription, model="llama-3-405b",
                  system="dgx-h100") -> Derivation:
    """The DP gradient all-reduce across a (tapered) spine: the bytes of a ring over the
    DP group, at each GPU's share of the spine. It also keeps how many times as long the
    model's time is as with a non-blocking spine (``times_non_blocking``, 1 at 1:1)."""
    from .. import collectives, hierarchy, scaling, steptime

    m = scaling.model(model)
    for name, val in (("tp", tp), ("pp", pp), ("dp", dp)):
        v.integer(name, val, lo=1)
    v.number("oversubscription", oversubscription, lo=1.0)
    shard = m.params / (tp * pp) * 2
    f = collectives.bus_factor("all_reduce", dp)
    sent = f * shard
    nic = hierarchy.link("InfiniBand NDR (1 NIC/GPU)").effective
    bw = nic / oversubscription
    est = sent / bw
    ph = steptime.layout_traffic(system, model, tp, pp, dp,
                                 oversubscription=oversubscription).phase("DP")
    flat = steptime.layout_traffic(system, model, tp, pp, dp,
                                   oversubscription=1.0).phase("DP")
    d = Derivation(f"DP all-reduce through a {_g(oversubscription)}:1 spine")
    d.given(f"{m.name}: {m.params / billion:g} billion parameters in bf16; TP = {tp}, "
            f"PP = {pp}, DP = {dp}; one NDR NIC per GPU, {D.fmt_rate(nic)} achieved per "
            "direction")
    d.formula("shard = params ÷ (TP × PP) × 2 B;  bytes = 2(DP − 1)/DP × shard;  "
              "rate = NIC ÷ oversubscription;  t ≈ bytes ÷ rate")
    d.step(f"shard = {m.params / billion:g} × 10⁹ ÷ ({tp} × {pp}) × 2 B = {D.fmt_bytes(shard)}")
    d.step(f"bytes each GPU sends = {f:.4g} × {D.fmt_bytes(shard)} = {D.fmt_bytes(sent)}")
    d.step(f"rate = {D.fmt_rate(nic)} ÷ {_g(oversubscription)} = {D.fmt_rate(bw)}")
    d.step(f"t ≈ {D.fmt_bytes(sent)} ÷ {D.fmt_rate(bw)} = **{D.fmt_time(est)}**")
    for name, x in (("shard", shard), ("bus_factor", f), ("bytes", sent), ("rate_nic", nic),
                    ("rate", bw), ("time_s", est), ("model_time_s", ph.time_s),
                    ("times_non_blocking", ph.time_s / flat.time_s)):
        d.value(name, x)
    d.check(f'steptime.layout_traffic("{system}", "{model}", {tp}, {pp}, {dp}, '
            f"oversubscription={_g(oversubscription)}).phase(\"DP\").bytes", sent,
            ph.bytes, D.fmt_bytes)
    d.check("... .phase(\"DP\").time_s (the collective model, with latency)", est,
            ph.time_s, D.fmt_time)
    d.tolerance = 0.1
    d.note("The collective model also charges NCCL's protocol efficiency and the ring's "
           "per-step latencies, which the hand estimate leaves out; the bytes agree exactly.")
    return d


# ----------------------------------------------------------------------------- chapter 8
def idle_dollars(n_gpus, days, price_per_gpu_hour, comm_fraction) -> Derivation:
    """Dollars lost to waiting: GPUs × hours × price × fraction."""
    from .. import cost
    from ..units import day, hour

    v.whole("n_gpus", n_gpus, lo=1)
    v.positive("days", days)
    v.non_negative("price_per_gpu_hour", price_per_gpu_hour)
    v.number("comm_fraction", comm_fraction, lo=0.0, hi=1.0)
    hours = days * day / hour
    gh = n_gpus * hours
    lost = gh * comm_fraction
    dollars = lost * price_per_gpu_hour
    d = Derivation("Dollars lost to waiting on communication")
    d.given(f"{n_gpus:,} GPUs for {_g(days)} days at ${price_per_gpu_hour:.2f} per GPU-hour; "
            f"{D.fmt_pct(comm_fraction)} of each step spent waiting")
    d.formula("lost = GPUs × hours × fraction;  dollars = lost × price")
    d.step(f"hours = {_g(days)} × {day / hour:g} = {hours:g}")
    d.step(f"GPU-hours = {n_gpus:,} × {hours:g} = {gh:,.0f}")
    d.step(f"lost = {gh:,.0f} × {comm_fraction:.4g} = {lost:,.0f} GPU-hours")
    d.step(f"dollars = {lost:,.0f} × ${price_per_gpu_hour:.2f} = **${dollars:,.0f}**")
    ic = cost.idle_cost(n_gpus, comm_fraction, days * day, price_per_gpu_hour)
    d.check("cost.idle_cost(n_gpus, fraction, days * units.day, price).dollars_lost",
            dollars, float(ic.dollars_lost), lambda x: f"${x:,.0f}")
    return d


def nvls_allreduce(params, bytes_per_param, n_gpus, system="dgx-h100") -> Derivation:
    """An NVLS (in-switch) all-reduce of a gradient inside one NVLink domain: each GPU
    pushes its buffer once and pulls the sum once, at NCCL's NVLS efficiency."""
    from .. import collectives, hierarchy, nvswitch, specs

    v.positive("params", params)
    n = v.integer("n_gpus", n_gpus, lo=2)
    sys_ = specs.system(system)
    S = params * bytes_per_param
    B = hierarchy.link("NVLink 5" if sys_.gpu.arch == "Blackwell" else "NVLink 4").effective
    eta = nvswitch.nvls_efficiency(sys_.gpu.arch)
    algbw = eta * B * n / (n + 1)
    t = S / algbw
    p = collectives.predict("all_reduce", S, system, n, 1, "nvls")
    d = Derivation(f"NVLS all-reduce of the gradient on {n} GPUs")
    d.given(f"S = {D.fmt_bytes(S)}; n = {n}; achieved NVLink B = {D.fmt_rate(B)} per "
            f"direction; NCCL's NVLS efficiency on {sys_.gpu.arch} η = {D.fmt_pct(eta)}")
    d.formula("multimem: each GPU's links carry its buffer S once (the switch reduces it) "
              "plus S/n for the multicast store of its 1/n share of the sum, so "
              "t = (S + S/n) ÷ (η·B) and algbw = S ÷ t = η × B × n/(n + 1) (nccl-tests "
              "PR #239)")
    d.step(f"bytes on each GPU's links, per direction: S + S/n = {D.fmt_bytes(S)} + "
           f"{D.fmt_bytes(S / n, digits=4)} = {D.fmt_bytes(S * (n + 1) / n, digits=4)}")
    d.step(f"algbw = {eta:.3g} × {D.fmt_rate(B)} × {n}/{n + 1} = {D.fmt_rate(algbw)}")
    d.step(f"t ≈ {D.fmt_bytes(S)} ÷ {D.fmt_rate(algbw)} = **{D.fmt_time(t)}**")
    d.step(f"compare the ring: 2(n − 1)/n × S ÷ B = "
           f"{D.fmt_time(collectives.bus_factor('all_reduce', n) * S / B)}")
    d.check(f'collectives.predict("all_reduce", S, "{system}", {n}, 1, "nvls").time_s', t,
            float(p.time_s), D.fmt_time)
    d.tolerance = 0.02
    d.note("The model adds a small latency and pipeline-fill term.")
    return d


def _step_parts(step) -> tuple:
    """A step's parts in the order the derivation adds them."""
    return (("compute", step.compute), ("pipeline bubble", step.bubble), ("TP", step.tp),
            ("PP", step.pp), ("DP", step.dp))


def _step_total(step) -> float:
    """compute + bubble + TP + PP + DP - hidden, added as the derivation does."""
    return sum(x for _, x in _step_parts(step)) - step.hidden


def efficiency(step, baseline=None) -> Derivation:
    """Scaling efficiency from a step's parts (a :class:`interlib.steptime.StepTime`).

    With a ``baseline`` step (another ``StepTime``, e.g. the same job on the previous GPU)
    it also keeps how many times faster this step is (``speedup``, baseline step / step)
    and how many times faster its compute alone is (``compute_speedup``)."""
    from ..steptime import StepTime

    v.instance("step", step, StepTime, "an interlib.steptime.StepTime")
    if baseline is not None:
        v.instance("baseline", baseline, StepTime, "an interlib.steptime.StepTime")
    parts = _step_parts(step)
    total = _step_total(step)
    eff = step.compute / total
    d = Derivation("Step time and efficiency from the parts")
    d.given("; ".join(f"{n} {D.fmt_time(x)}" for n, x in parts)
            + f"; hidden behind compute {D.fmt_time(step.hidden)}")
    d.formula("step = compute + bubble + TP + PP + DP − hidden;  efficiency = compute ÷ step")
    d.step("step = " + " + ".join(D.fmt_time(x) for _, x in parts)
           + f" − {D.fmt_time(step.hidden)} = {D.fmt_time(total)}")
    d.step(f"efficiency = {D.fmt_time(step.compute)} ÷ {D.fmt_time(total)} = "
           f"**{D.fmt_pct(eff)}**")
    for name, x in (*parts, ("hidden", step.hidden), ("step", total), ("efficiency", eff)):
        d.value(name.replace("pipeline ", ""), x)
    if baseline is not None:
        d.value("speedup", _step_total(baseline) / total)
        d.value("compute_speedup", baseline.compute / step.compute)
    d.check("design.step.step", total, step.step, D.fmt_time)
    d.check("design.step.efficiency", eff, step.efficiency, D.fmt_pct)
    return d
