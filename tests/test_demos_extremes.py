"""Every interactive demo draws at its slider extremes (Neuromatch Academy's check).

Contract with ``interlib.widgets``:

* ``DEMOS``: dict, name -> Demo;
* ``Demo.func``: a pure function of keyword parameters returning a matplotlib Figure;
* ``Demo.controls``: dict, parameter name -> Control, where ``Control.values()`` gives the
  values to try: min, max and default for numeric sliders, every option for dropdowns.

Each demo is called at every combination of its parameters' values (at most 256; beyond
that a fixed pseudo-random sample, the same on every run, always including the first
combination), and must return a Figure. Then, at each demo's two extremes, numbers it
prints are checked against hand-derived values or invariants (``VALUE_CHECKS``).
"""

from __future__ import annotations

import itertools
import math
import random

import matplotlib

matplotlib.use("Agg")  # this process only; notebook kernels are separate processes

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

MAX_COMBOS = 256


def _load_demos():
    """Test parameters; an import failure becomes one failing case rather than a collection
    error, so the rest of the suite still runs while interlib.widgets is being written."""
    try:
        from interlib.widgets import DEMOS
    except Exception as exc:  # noqa: BLE001 - reported by the test below
        return [pytest.param(None, None, exc, id="import-interlib.widgets")]
    return [pytest.param(name, demo, None, id=name) for name, demo in sorted(DEMOS.items())]


def _unique(values) -> list:
    out = []
    for v in values:
        if not any(v is u or (type(v) is type(u) and _eq(v, u)) for u in out):
            out.append(v)
    return out


def _eq(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - arrays and other odd types: keep both
        return False


def combinations(name: str, controls: dict) -> list[dict]:
    names = sorted(controls)
    values = [_unique(list(controls[n].values())) for n in names]
    for n, vals in zip(names, values):
        assert vals, f"demo {name!r}: control {n!r} offers no values"
    total = math.prod(len(v) for v in values)
    if total <= MAX_COMBOS:
        return [dict(zip(names, c)) for c in itertools.product(*values)]

    def decode(index: int) -> dict:
        combo = {}
        for n, vals in zip(reversed(names), reversed(values)):
            index, k = divmod(index, len(vals))
            combo[n] = vals[k]
        return combo

    rng = random.Random(f"interconnects-demo:{name}")
    picks = sorted({0, *rng.sample(range(total), MAX_COMBOS - 1)})
    while len(picks) < MAX_COMBOS:  # index 0 was also drawn: top up deterministically
        picks = sorted({*picks, rng.randrange(total)})
    return [decode(i) for i in picks]


PARAMS = _load_demos()


@pytest.mark.parametrize("name, demo, import_error", PARAMS)
def test_demo_draws_at_extremes(name, demo, import_error):
    if import_error is not None:
        pytest.fail(f"cannot import interlib.widgets.DEMOS: {import_error!r}")
    assert callable(demo.func), f"demo {name!r}: func is not callable"
    assert demo.controls, f"demo {name!r}: no controls"
    for params in combinations(name, demo.controls):
        try:
            fig = demo.func(**params)
        except Exception as exc:  # noqa: BLE001 - re-raised with the parameters
            raise AssertionError(f"demo {name!r} raised at {params}: {exc!r}") from exc
        try:
            assert isinstance(fig, Figure), (
                f"demo {name!r} returned {type(fig).__name__}, not a Figure, at {params}")
        finally:
            plt.close("all")
            if isinstance(fig, Figure):
                plt.close(fig)


def test_combination_sampling_is_deterministic_and_capped():
    class C:
        def __init__(self, vals):
            self._vals = vals

        def values(self):
            return self._vals

    controls = {f"p{i}": C([0, 1, 2]) for i in range(7)}  # 3**7 = 2187 > cap
    a = combinations("x", controls)
    b = combinations("x", controls)
    assert a == b and len(a) == MAX_COMBOS and a[0] == {f"p{i}": 0 for i in range(7)}
    small = combinations("y", {"a": C([1, 2, 2]), "b": C(["u", "v"])})
    assert len(small) == 4


# ------------------------------------------------------------------ values at the extremes
# At each demo's two extremes (every control at its first value, then at its last), one or
# more numbers the demo prints are checked against a value derived by hand from the
# catalogue's cited figures, or against an invariant the numbers must obey. A printed
# number is compared at its own precision: it must equal the hand value rounded to the
# digits it shows (half a unit in its last digit), so 3 significant figures allow 0.5 %.
import re  # noqa: E402
from statistics import NormalDist  # noqa: E402

from interlib import widgets  # noqa: E402

NUM = r"([-+]?\d[\d,]*(?:\.\d+)?)"


def _num(text: str, pattern: str, group: int = 1) -> tuple[float, str]:
    """The number ``pattern`` (a regex with NUM groups) captures in ``text``, and how it
    was printed."""
    m = re.search(pattern, text, re.M)
    assert m, (pattern, text)
    s = m.group(group).replace(",", "")
    return float(s), s


def _printed(text: str, pattern: str, value: float, group: int = 1, scale: float = 1.0,
             rel: float = 0.0):
    """The number printed there equals ``value`` (in the printed unit, x ``scale``) to the
    precision it is printed with. ``rel``: extra slack when ``value`` is itself computed
    from printed (rounded) numbers: 1 % for a ratio of two 3-figure numbers."""
    x, s = _num(text, pattern, group)
    decimals = len(s.split(".")[1]) if "." in s else 0
    slack = 0.5 * 10 ** -decimals * (1 + 1e-9) + rel * abs(value / scale)
    assert abs(x - value / scale) <= slack, (pattern, x, value, text)


TIME_UNITS = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}


def _secs(text: str, pattern: str) -> float:
    """A printed time (``pattern`` holds ``{T}``: number and unit), in seconds."""
    m = re.search(pattern.format(T=r"([\d.,]+) (µs|ms|s)\b"), text)
    assert m, (pattern, text)
    return float(m.group(1).replace(",", "")) * TIME_UNITS[m.group(2)]


def _extremes(name):
    demo = widgets.get(name)
    lo = {k: c.values()[0] for k, c in demo.controls.items()}
    hi = {k: c.values()[-1] for k, c in demo.controls.items()}
    return (lo, widgets.summary(name, **lo)), (hi, widgets.summary(name, **hi))


GB = 1e9


def _ring_all_reduce(p, t):
    # each step sends 1/n of the buffer; 2(n-1) steps send 2(n-1)/n in total
    n, step = p["n"], p["step"]
    _printed(t, rf"has sent {NUM} buffers", step / n)
    _printed(t, rf"2\(n-1\)/n = {NUM} in total", 2 * (n - 1) / n)


def _gradient_sync(p, t):
    # ring all-reduce of S = params x bytes: t = 2(n-1)/n x S / B, B the achieved rate
    # (PCIe 5.0 x16: 51 GB/s, Azure; NDR: 400 Gb/s = 50 GB/s x the usable share
    # calibration.NET_EFFICIENCY, fitted by interlib.crossval.fit)
    from interlib.specs import calibration as C

    S = p["params_billion"] * GB * p["bytes_per_param"]
    n = p["n_gpus"]
    B = {"PCIe 5.0 x16": 51 * GB,
         "InfiniBand NDR (1 NIC/GPU)": 50 * GB * C.NET_EFFICIENCY.value}[p["link"]]
    unit = 1e-3 if n == 2 else 1.0
    _printed(t, rf": {NUM} (?:ms|s) at", 2 * (n - 1) / n * S / B, scale=unit)
    _printed(t, rf"each GPU sends {NUM} [GT]B", 2 * (n - 1) / n * S,
             scale=GB if n == 2 else 1e12)


def _straggler(p, t):
    # the step waits for the slowest of n GPUs: 1 + jitter x E[max of n normals];
    # Blom's approximation E[max] = Phi^-1((n - 0.375) / (n + 0.25)) is within 1 % here
    n, j = p["n_gpus"], p["jitter"]
    x, _ = _num(t, rf"expected step {NUM}×")
    emax = NormalDist().inv_cdf((n - 0.375) / (n + 0.25)) if n > 1 else 0.0
    assert x == pytest.approx(1 + j * emax, rel=0.01), t


def _parallelism_traffic(p, t):
    # DP: each GPU all-reduces its gradient shard, 2 bytes x params / (tp pp), ring factor
    # 2(dp-1)/dp; nothing to send when a degree is 1
    tp, pp, dp = p["tp"], p["pp"], p["dp"]
    dp_bytes = 2 * (dp - 1) / dp * 2 * 70e9 / (tp * pp)
    if dp == 1:
        assert "DP 0 B, TP 0 B, PP 0 B" in t
    else:
        _printed(t, rf"DP {NUM} GB", dp_bytes, scale=GB)


def _your_cluster(p, t):
    # both extremes are nodes that cannot be built; the demo names the parameter
    assert t.startswith("This node cannot be built: ")
    assert ("nics_per_gpu=0.25" if p["gpus_per_node"] == 1 else "gpus_per_node=72") in t


def _pcie_transfer(p, t):
    # headline = GT/s per lane x lanes / 8 bits x 2 directions (PCI-SIG)
    gts = {"3.0": 8, "6.0": 64}[p["gen"]]
    _printed(t, rf"vendor headline {NUM} GB/s", gts * p["lanes"] / 8 * 2)
    # time = size / effective rate (both printed)
    tm = _secs(t, r": {T} at")
    rate, _ = _num(t, rf"at {NUM} [MG]B/s effective")
    size = p["size_gb"] * GB
    unit_r = 1e6 if size < 1e6 else GB
    assert tm == pytest.approx(size / (rate * unit_r), rel=0.01)


def _pcie_shared_uplink(p, t):
    # devices share the uplink's achieved rate; between devices each gets its own x16 link
    host, _ = _num(t, rf"{NUM} GB/s each to or from the host")
    peer, _ = _num(t, rf"{NUM} GB/s each between")
    share = host * p["devices"] * 16 / p["uplink_lanes"]
    assert share == pytest.approx(peer, rel=0.01), t


def _allreduce_pcie_vs_nvlink(p, t):
    pcie = _secs(t, r"PCIe only {T}")
    nvl = _secs(t, r"NVLink ring {T}")
    choice = _secs(t, r"NCCL's choice on NVLink \(\w+\) {T}")
    _printed(t, rf"PCIe takes {NUM}×", pcie / choice, rel=0.01)
    if p["gpus"] == 8:   # 16 GiB: 2(n-1)/n x S / 370.8 GB/s (NCCL's effective NVLink 4)
        assert nvl == pytest.approx(1.75 * 16 * 2**30 / (370.8 * GB), rel=0.01)
        # and PCIe: 2(n-1)/n x S / 51 GB/s achieved (Azure)
        assert pcie == pytest.approx(1.75 * 16 * 2**30 / (51 * GB), rel=0.01)


def _nvlink_transfer(p, t):
    # NVLink 1: 4 links x 20 GB/s; NVLink 5: 18 links x 50 GB/s per direction
    line = {1: 80, 5: 900}[p["gen"]]
    _printed(t, rf"line rate {NUM} GB/s", line)
    if p["gen"] == 5:   # 100 GB at NCCL's effective 18 x 40.1 = 721.8 GB/s
        _printed(t, rf"100 GB: {NUM} ms", 100 * GB / (721.8 * GB), scale=1e-3)


def _tp_comm_share(p, t):
    # one all-reduce moves b s h x 2 bytes (bf16, b = 1); forward compute 24 b s h^2 / tp
    # at mfu x dense BF16 peak (H100 1979/2 TFLOP/s)
    h, s, tp = p["hidden"], p["seq_len"], p["tp"]
    _printed(t, rf"moves {NUM} [MG]B", s * h * 2, scale=1e6 if h == 1024 else GB)
    if h == 1024:
        _printed(t, rf"compute {NUM} µs", 24 * s * h**2 / tp / (1979e12 / 2 * p["mfu"]),
                 scale=1e-6)
    comp = _secs(t, r"compute {T}")
    comm = _secs(t, r"communication {T}")
    _printed(t, rf"{NUM} % of the layer", 100 * comm / (comm + comp), rel=0.01)


def _p2p_vs_staged(p, t):
    if p["size_gb"] == 100:   # serial staging crosses PCIe twice: 2 x the direct time
        assert _secs(t, r"{T} serial") == pytest.approx(2 * _secs(t, r"direct {T}"),
                                                        rel=0.01)
        # NVLink 5: 100 GB at NCCL's effective 721.8 GB/s
        assert _secs(t, r"NVLink 5 {T}") == pytest.approx(100 / 721.8, rel=0.005)
    nv = _secs(t, r"NVLink \d {T}")
    _printed(t, rf"\({NUM}× the NVLink", _secs(t, r"{T} serial") / nv, rel=0.01)


def _mesh_vs_switch(p, t):
    n = p["n"]
    links = {3: 12, 5: 18}[p["gen"]]   # NVLink links per GPU: A100 12, B200 18
    _printed(t, rf"mesh needs {NUM} links?\b", n * (n - 1) // 2)
    _printed(t, rf"and {NUM} ports? per GPU", n - 1)
    _printed(t, rf"switched: {NUM} GPU-to-switch", n * links)


def _ring_vs_nvls(p, t):
    n = p["gpus"]
    _printed(t, rf"2\(n-1\)/\(n\+1\) = {NUM}", 2 * (n - 1) / (n + 1))


def _bisection(p, t):
    # per GPU 450 GB/s (NVLink 4) or 900 GB/s (NVLink 5) per direction; a cut of k | n-k
    # carries min(k, n-k) GPUs' worth; bisection n/2; aggregate n x both directions
    n, per = (8, 450) if p["domain"] == "dgx-h100" else (576, 900)
    k = p["k"]
    _printed(t, rf"\| {n - k}: {NUM} GB/s per direction", min(k, n - k) * per)
    x, _ = _num(t, rf"bisection {NUM} TB/s")
    assert x == pytest.approx(n / 2 * per / 1000, rel=0.005)
    agg, _ = _num(t, rf"aggregate {NUM} [TP]B/s")
    assert agg * (1000 if n == 576 else 1) == pytest.approx(n * 2 * per / 1000, rel=0.005)


def _ib_allreduce(p, t):
    per_nic = {"connectx-6-hdr": 200, "connectx-8": 800}[p["nic"]]
    _printed(t, rf"= {NUM} GB/s per direction", p["nics_per_node"] * per_nic / 8)
    # busbw = S / t x 2(n-1)/n (nccl-tests), n = 8 GPUs per node x nodes
    n = 8 * p["nodes"]
    tm = _secs(t, r"NCCL's choice: [A-Za-z]+ {T}")   # whichever algorithm NCCL picks
    _printed(t, rf"busbw {NUM} GB/s", p["size_mib"] * 2**20 / tm * 2 * (n - 1) / n,
             scale=GB, rel=0.005)


def _fat_tree(p, t):
    # leaf ports split r:1 between hosts and uplinks; bisection = hosts/2 x 50 GB/s / r
    k, r, hosts = p["radix"], p["oversubscription"], p["hosts"]
    down = round(k * r / (r + 1)) if r > 1 else k
    assert f"leaf {down}:{k - down if r > 1 else 0}" in t
    ratio, _ = _num(t, rf"\({NUM}× of full\)")
    assert ratio == pytest.approx(1 / r, abs=0.005)
    if hosts == 16:   # one switch holds them all: 16 cables, 16/2 x 50 GB/s
        assert "1 tier, 1 switch (1 leaf)" in t and "16 cables" in t
        _printed(t, rf"bisection {NUM} GB/s", 8 * 50)


def _credit_flow(p, t):
    # credit-based: at most buffer / RTT packets per step, and no more than the share of
    # the port the others leave (1 - load)
    bound = min(p["buffer_packets"] / p["rtt_steps"], 1 - p["load"])
    _printed(t, rf"\(bound {NUM}\)", bound)
    g, _ = _num(t, rf"Credit: goodput {NUM}")
    assert g <= bound + 0.0005 and "Credit: goodput" in t and ", 0 drops" in t


def _topologies(p, t):
    hosts = p["hosts"]
    if hosts == 64:
        # two-tier fat tree of 16-port switches: 8 leaves (8 down, 8 up) + 4 spines;
        # 64 host cables + 64 uplinks. 3D torus 4x4x4: 3 cables per node, diameter 3 x 2
        assert "fat-tree: 64 hosts, 12 switches, 128 cables" in t
        assert "3D torus: 64 hosts, 0 switches, 192 cables" in t
        assert re.search(r"3D torus: [^;]* longest path 6 links", t)
    else:
        # torus 39 x 41 x 41 = 65,559 >= 65,536; diameter 19 + 20 + 20 = 59
        assert "3D torus: 65,559 hosts, 0 switches, 196,677 cables" in t
        assert re.search(r"3D torus: [^;]* longest path 59 links", t)


_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _drop_slowdown(p, t):
    # 1 GB per GPU per step in 4,096-byte packets = 244,141 packets; a step sees a drop
    # with probability 1 - (1 - rate)^(packets x GPUs)
    packets = math.ceil(1e9 / 4096)
    assert f"{packets:,} packets per GPU per step" in t
    prob = 1 - (1 - p["drop_rate"]) ** (packets * p["n_gpus"])
    m = re.search(r"with probability ([\d.]+)(?: × 10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+))?", t)
    assert m, t
    mant, exp = m.group(1), int(m.group(2).translate(_SUPER)) if m.group(2) else 0
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    # to the precision printed: the mantissa's last digit, at its power of ten
    assert abs(float(mant) - prob / 10.0**exp) <= 0.5 * 10**-decimals * (1 + 1e-9), (prob, t)


def _pfc_storm(p, t):
    # with the watchdog on (or no failure) the healthy receiver ends up with all it is
    # offered
    got, _ = _num(t, rf"gets {NUM} packets/step")
    offered, _ = _num(t, rf"offered {NUM}\)")
    assert got == offered


def _dcqcn(p, t):
    # fair share of a 400 Gb/s (50 GB/s) port among the senders
    _printed(t, rf"fair share {NUM} GB/s", 50 / p["senders"])


def _ecmp(p, t):
    mean, _ = _num(t, rf"takes {NUM}× the perfectly")
    p99, _ = _num(t, rf", {NUM}× at the 99th")
    assert 1 <= mean <= p99      # no placement beats a perfect balance
    if p["flows"] == 1:
        assert mean == p99 == 1


def _ladder(p, t):
    if p["generation"] in ("TPU v5p", "Gaudi 3"):
        # Google: ICI 1200 GB/s bidirectional = 600 per direction, DCN 50 Gb/s = 6.25 GB/s.
        # Intel: 21 x 200 Gb/s = 525 GB/s scale-up, 3 x 200 Gb/s = 75 GB/s scale-out.
        up, out, names = {"TPU v5p": (600, 6.25, ("ICI", "DCN")),
                          "Gaudi 3": (525, 75, ("RoCE scale-up", "RoCE scale-out"))}[
            p["generation"]]
        _printed(t, rf"{names[0]} {NUM} GB/s", up)
        _printed(t, rf"Spine {NUM} [GM]B/s", out / p["oversubscription"],
                 scale=1e-3 if re.search(r"Spine [\d.]+ MB/s", t) else 1.0)
        _printed(t, rf"{names[1]}: {NUM}× at line rate", up / out)
        assert "achieved rates: not in our sources" in t and "host link" in t
        return
    # A100: 12 NVLink 3 links x 25 GB/s; 200 Gb/s NIC = 25 GB/s. GB200: NVLink 5 900 GB/s,
    # 400 Gb/s NIC = 50 GB/s; the spine share is the NIC over the oversubscription
    # GB300 NVL72: NVLink 5, 800 Gb/s NIC = 100 GB/s
    nvl, nic = {"A100": (300, 25), "GB200 NVL72": (900, 50),
                "GB300 NVL72": (900, 100)}[p["generation"]]
    _printed(t, rf"NVLink {NUM} GB/s", nvl)
    _printed(t, rf"Spine {NUM} GB/s", nic / p["oversubscription"])
    _printed(t, rf"NIC: {NUM}× at line rate", nvl / nic)


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _layout(p, t):
    tp, pp, dp = p["tp"], p["pp"], p["dp"]
    n = tp * pp * dp
    assert f"on {_plural(n, 'DGX H100 GPU')} ({_plural(math.ceil(n / 8), 'node')})" in t
    if dp == 1:
        assert "no DP traffic (dp = 1)" in t
    else:   # ring over dp ranks of the 2-byte gradient shard of 405e9 / (tp pp) params
        _printed(t, rf"DP {NUM} GB", 2 * (dp - 1) / dp * 2 * 405e9 / (tp * pp), scale=GB)


def _scaling_efficiency(p, t):
    # efficiency = compute / step <= 100 %; the fast fabric is never the less efficient;
    # whether a design fits in HBM does not depend on the fabric
    fast_part, slow_part = t.split("; PCIe")
    entry = r"(\d[\d,]*) GPUs (?:([\d.]+) %|(does not fit in HBM))"
    fast, slow = re.findall(entry, fast_part), re.findall(entry, slow_part)
    assert len(fast) == len(slow) == 3, t
    for (g1, f, f_nofit), (g2, sl, s_nofit) in zip(fast, slow):
        assert g1 == g2 and bool(f_nofit) == bool(s_nofit), t
        if f:
            assert 0 < float(sl) <= float(f) <= 100, t


def _idle_cost(p, t):
    # dollars = price x GPUs x hours x (1 - efficiency): linear in the price; a design that
    # does not fit in HBM has no dollars at either price
    half = widgets.summary("idle_cost", **{**p, "price_per_gpu_hour": p["price_per_gpu_hour"] / 2})
    a = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+)(?:;|$|,\s)", t)]
    b = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+)(?:;|$|,\s)", half)]
    nofit = t.count("does not fit in HBM")
    assert nofit == half.count("does not fit in HBM")
    assert len(a) == len(b) == 6 - nofit
    for x, y in zip(a, b):
        assert x == pytest.approx(2 * y, abs=1.0)   # whole dollars, rounded


def _capstone(p, t):
    assert t.startswith(f"{8 * p['nodes']:,} GPUs")
    if "does NOT fit" in t:
        # mixed-precision Adam keeps 2 + 2 + 12 = 16 bytes per parameter (ZeRO paper); with
        # no ZeRO and no model parallelism that alone exceeds the HBM at this extreme
        params = {"llama-3-8b": 8e9, "llama-3-70b": 70e9, "llama-3-405b": 405e9}[p["model"]]
        # HBM per GPU, GB (NVIDIA datasheets: A100 80GB, H100 SXM 80, H200 141, B200 180,
        # B300 288 per Lockwood's B300 page, as the catalogue cites)
        hbm = {"a100-sxm-80gb": 80, "h100-sxm": 80, "h200": 141, "b200": 180,
               "b300": 288}[p["gpu"]] * GB
        if p["zero"] == 0:
            assert 16 * params / (p["tp"] * p["pp"]) > hbm
        assert "No step time or efficiency" in t and "Efficiency" not in t
        return
    comp = _secs(t, r"compute {T}")
    step = _secs(t, r"Step {T}")
    _printed(t, rf"Efficiency \(compute / step\) {NUM} %", 100 * comp / step, rel=0.01)


def _check_cluster(p, t):
    # the pasted log's sizes (first column of nccl-tests' result rows), counted here, fall
    # into the printed regimes: below 1 MiB, 1 MiB to 256 MiB, 256 MiB and above
    sizes = [int(line.split()[0]) for line in p["log"].splitlines()
             if re.match(r"\s+\d+\s+\d+\s+\w+\s+\w+", line)]
    want = [sum(s < 2**20 for s in sizes), sum(2**20 <= s < 2**28 for s in sizes),
            sum(s >= 2**28 for s in sizes)]
    got = [int(_num(t, rf"^{r}\s+\| {NUM}")[0]) if re.search(rf"^{r}\s+\|", t, re.M) else 0
           for r in ("latency-bound", "transition", "bandwidth-bound")]
    assert got == want and sum(want) > 0, (got, want)
    assert "16 GPUs (8 per node x 2 nodes)" in t


VALUE_CHECKS = {
    "check_cluster": _check_cluster,
    "ring_all_reduce": _ring_all_reduce, "gradient_sync": _gradient_sync,
    "straggler": _straggler, "parallelism_traffic": _parallelism_traffic,
    "your_cluster": _your_cluster, "pcie_transfer": _pcie_transfer,
    "pcie_shared_uplink": _pcie_shared_uplink,
    "allreduce_pcie_vs_nvlink": _allreduce_pcie_vs_nvlink,
    "nvlink_transfer": _nvlink_transfer, "tp_comm_share": _tp_comm_share,
    "p2p_vs_staged": _p2p_vs_staged, "mesh_vs_switch": _mesh_vs_switch,
    "ring_vs_nvls": _ring_vs_nvls, "bisection": _bisection, "ib_allreduce": _ib_allreduce,
    "fat_tree": _fat_tree, "credit_flow": _credit_flow, "topologies": _topologies,
    "drop_slowdown": _drop_slowdown, "pfc_storm": _pfc_storm, "dcqcn": _dcqcn,
    "ecmp": _ecmp, "ladder": _ladder, "layout": _layout,
    "scaling_efficiency": _scaling_efficiency, "idle_cost": _idle_cost,
    "capstone": _capstone,
}


def test_every_demo_has_a_value_check():
    assert set(VALUE_CHECKS) == set(widgets.DEMOS)


@pytest.mark.parametrize("name", sorted(VALUE_CHECKS))
@pytest.mark.parametrize("end", ["first", "last"])
def test_demo_numbers_at_each_extreme(name, end):
    (lo, t_lo), (hi, t_hi) = _extremes(name)
    params, text = (lo, t_lo) if end == "first" else (hi, t_hi)
    VALUE_CHECKS[name](params, text)
