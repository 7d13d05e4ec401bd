"""Every demo over a grid of its controls: nothing impossible is reported as a result, the
readouts are the values the figure uses, and the text reads like a person wrote it.

For each demo in ``interlib.widgets.DEMOS`` the grid is every control at its minimum,
maximum, default and (sliders) a middle value (geometric for a log slider), every option of
a dropdown; all combinations when there are at most ``MAX_COMBOS``, else each control moved
alone from the defaults plus a fixed pseudo-random sample. At every point:

* **the values used are the values shown**: :meth:`Demo.resolve` (what JupyterLab, the page
  and its live mode apply) puts each dependent slider on a value the other controls allow
  (in range, and a multiple where they ask for one), the live path
  (:func:`interlib.widgets.live.check_params`) uses the same values, and a value already
  valid is never changed;
* **no impossible design gets a result**: where a demo computes a training step
  (:mod:`interlib.steptime`), a design whose weights, gradients, optimizer state and
  activations exceed the GPU's HBM (independently recomputed here from the byte counts of
  the ZeRO paper and the HBM capacity in the catalogue) is reported as not fitting and no
  efficiency is printed for it; a design that fits is never called impossible;
* **the numbers add up**: the capstone's printed parts (compute + bubble + TP + PP + DP -
  hidden) equal its printed step to the printed precision;
* **it speaks like a person**: no ``True``/``False``, ``nan``/``inf``, catalogue ids,
  Python tuples, scientific notation, twelve-digit decimals or ``1 switches`` in any
  summary or figure text, and no dropdown option shown as an id or ``100.0``.

Also: every slider spanning more than two decades is logarithmic with a readable readout.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from interlib import display, scaling, steptime, widgets  # noqa: E402
from interlib.specs import GPUS, NICS, SYSTEMS  # noqa: E402
from interlib.widgets import core, live, page  # noqa: E402

MAX_COMBOS = 200
SAMPLE = 60
FIGURES = 6  # figures drawn per demo (the costly part; test_demos_extremes draws more)


def _grid_values(c) -> list:
    if isinstance(c, core.Dropdown):
        return list(c.options)
    if isinstance(c, core.TextArea):  # a pasted log: its own demo tests drive the text
        return [c.default]
    lo, hi = c.min, c.max
    mid = math.sqrt(lo * hi) if getattr(c, "log", False) else (lo + hi) / 2
    if isinstance(c, core.IntSlider):
        mid = int(round(mid))
    return list(dict.fromkeys([lo, mid, c.default, hi]))


def grid(demo) -> list[dict]:
    keys = list(demo.controls)
    values = [_grid_values(demo.controls[k]) for k in keys]
    total = math.prod(len(v) for v in values)
    if total <= MAX_COMBOS:
        return [dict(zip(keys, combo)) for combo in itertools.product(*values)]
    out = [demo.defaults()]
    for k, vals in zip(keys, values):
        out += [{**demo.defaults(), k: x} for x in vals]
    rng = random.Random(f"grid-{demo.name}")
    out += [{k: rng.choice(vals) for k, vals in zip(keys, values)} for _ in range(SAMPLE)]
    return out


DEMO_NAMES = sorted(widgets.DEMOS)

# Text a reader should never see. Catalogue ids: every GPU, NIC and system id.
_IDS = sorted({*GPUS, *NICS, *SYSTEMS, *scaling.MODELS}, key=len, reverse=True)
_NOUNS = ("GPU", "device", "switch", "cable", "buffer", "node", "server", "host", "link",
          "port", "step", "tier", "hop", "flow", "path", "sender", "packet")
BAD_TEXT = [
    (re.compile(r"\b(True|False|None)\b"), "a Python literal"),
    (re.compile(r"\b(nan|inf)\b", re.I), "nan/inf"),
    (re.compile(r"\(\d+,\)"), "a Python tuple"),
    (re.compile(r"\d[eE][+-]\d"), "scientific notation"),
    (re.compile(r"\d\.\d{7,}"), "a long decimal"),
    (re.compile(r"0\.0{6,}"), "a long decimal"),
    (re.compile(r"(?<![\d.,])1 (" + "|".join(
        re.escape(n + ("es" if n.endswith(("s", "x", "ch", "sh")) else "s")) for n in _NOUNS)
        + r")\b"), "a count that disagrees with its noun"),
    (re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in _IDS) + r")(?![\w-])"),
     "a catalogue id"),
]


def bad_text(text: str) -> list[str]:
    return [f"{why}: {m.group(0)!r} in {text!r}" for rx, why in BAD_TEXT
            for m in [rx.search(text)] if m]


def hbm_fits(gpu_id, model, tp, pp, dp, zero, seq_len=4096, micro_batch=1) -> bool:
    """Independent memory check: mixed-precision Adam's 2 + 2 + 12 bytes per parameter
    (ZeRO paper, Rajbhandari et al. 2020) sharded by stage, plus 34 s b h L / t bytes of
    activations (Korthikanti et al. 2022), against the catalogue's HBM capacity."""
    m = scaling.MODELS[model]
    per = m.params / (tp * pp)
    weights = 2 * per / (dp if zero >= 3 else 1)
    grads = 2 * per / (dp if zero >= 2 else 1)
    opt = 12 * per / (dp if zero >= 1 else 1)
    act = 34 * seq_len * micro_batch * m.hidden * m.layers / tp
    return weights + grads + opt + act <= GPUS[gpu_id].hbm_capacity.value


NOT_YET = {
    "your_cluster": "Appendix A's demo (interlib/widgets/appendix.py, owned by the model "
                    "helper, issue 26 item 5) still prints catalogue ids ('dgx-h100') and "
                    "'node(s)'; strict, so it fails once fixed and this entry must go",
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=NOT_YET[n])) if n in NOT_YET else n for n in DEMO_NAMES])
def test_every_point_of_the_grid(name):
    demo = widgets.get(name)
    problems = []
    points = grid(demo)
    for i, p in enumerate(points):
        used = demo.resolve(p)
        for key, (lo, hi, m, _) in demo.valid(used).items():
            if not lo <= used[key] <= hi or used[key] % m:
                problems.append(f"{p}: {key}={used[key]} outside {lo}..{hi} (multiples of {m})")
            if lo <= p[key] <= hi and p[key] % m == 0 and used[key] != p[key]:
                problems.append(f"{p}: {key} moved from {p[key]} though it was valid")
        assert live.check_params(name, p) == used, f"{name} {p}: the live path differs"
        try:
            text = demo.summary(**used) if demo.summary else ""
        except ValueError as e:  # a refused setting must say why in words
            text = str(e)
            problems += [f"{p}: {b}" for b in bad_text(text) if "Python literal" not in b]
            continue
        problems += [f"{p}: {b}" for b in bad_text(text)]
        if name == "capstone":
            problems += _capstone_checks(used, text)
        if name == "layout":  # traffic of a layout that cannot hold the model says so
            fits = hbm_fits("h100-sxm", used["model"], used["tp"], used["pp"], used["dp"], 1)
            if fits == ("does NOT fit" in text):
                problems.append(f"{p}: fits in HBM = {fits}, but the demo says {text!r}")
        if i < FIGURES:
            fig = demo.func(**used)
            try:
                texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
            finally:
                plt.close(fig)
            problems += [f"{p} (figure): {b}" for t in texts for b in bad_text(t)]
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{name}: {len(unique)} problems, first ones:\n" + "\n".join(unique[:12])


def _capstone_checks(p, text) -> list[str]:
    out = []
    n = p["nodes"] * 8
    if n % (p["tp"] * p["pp"]):
        return [] if text.startswith("Not a valid design") else [f"{p}: invalid accepted"]
    dp = n // (p["tp"] * p["pp"])
    fits = hbm_fits(p["gpu"], p["model"], p["tp"], p["pp"], dp, p["zero"])
    if not fits:
        if "Efficiency" in text or "does NOT fit" not in text:
            out.append(f"{p}: does not fit in HBM, but the demo says {text!r}")
        return out
    if "does NOT fit" in text:
        out.append(f"{p}: fits in HBM, but the demo says it does not")
    # the printed parts add up to the printed step (to the printed precision)
    m = re.search(r"Step (\S+ \S+) = compute (\S+ \S+) \+ bubble (\S+ \S+) \+ TP (\S+ \S+) "
                  r"\+ PP (\S+ \S+) \+ DP (\S+ \S+) − hidden by overlap (\S+ \S+);", text)
    if not m:
        return out + [f"{p}: no step breakdown in {text!r}"]
    step, *parts, hidden = (_seconds(x) for x in m.groups())
    total = sum(parts) - hidden
    if abs(total - step) > 0.01 * step + 1e-3 * max(parts):
        out.append(f"{p}: parts add to {total:.4g} s, step printed {step:.4g} s")
    return out


_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9, "h": 3600.0, "days": 86400.0}


def _seconds(text: str) -> float:
    value, unit = text.split()
    return float(value) * _UNITS[unit]


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=NOT_YET[n])) if n == "your_cluster" else n for n in DEMO_NAMES])
def test_controls_are_settable_and_read_as_words(name):
    demo = widgets.get(name)
    for key, c in demo.controls.items():
        if isinstance(c, core.TextArea):
            continue
        if isinstance(c, core.Dropdown):
            for o, shown in zip(c.options, c.shown()):
                assert not bad_text(shown), f"{name}.{key}: option {o!r} reads {shown!r}"
                assert not re.fullmatch(r"\d+\.0", shown), f"{name}.{key}: {shown!r}"
            continue
        span = math.log10(c.max / max(c.min, 1e-300)) if c.min > 0 else \
            math.log10(max(c.max, 1) / 1)
        if span > core.LOG_DECADES:
            assert c.log, f"{name}.{key}: {c.min}..{c.max} spans {span:.1f} decades, linearly"
        if c.log:
            assert c.readout_format == display.READOUT_NUM, (
                f"{name}.{key}: a log slider's readout must be readable ('num'), not "
                f"{c.readout_format!r}")
            html = page.control_html(name, key, c)
            assert 'class="interlib-typed"' in html, f"{name}.{key}: no box for an exact value"


def test_dependent_ranges_follow_their_controls():
    """The three the issue named: a ring's steps, the GPUs on one side of a cut, the GPUs of
    a system. Expected ranges from the definitions: 2(n-1) steps; k | n - k with n the
    domain's GPUs (8, 72, 576 in the catalogue); up to the system's GPUs."""
    from interlib.specs import system
    from interlib.specs.inside_box import NVLINK_DOMAINS

    ring = widgets.get("ring_all_reduce")
    for n in range(2, 9):
        assert ring.ranges({"n": n, "step": 0})["step"] == (0, 2 * (n - 1))
    assert ring.resolve({"n": 2, "step": 14}) == {"n": 2, "step": 2}
    cut = widgets.get("bisection")
    for d, spec in NVLINK_DOMAINS.items():
        if d in cut.controls["domain"].options:
            n = int(spec.gpus.value)
            assert cut.resolve({"domain": d, "k": 575})["k"] == n - 1
    nvls = widgets.get("ring_vs_nvls")
    for s in nvls.controls["system"].options:
        got = nvls.resolve({"system": s, "gpus": 72, "size_mib": 1024.0})["gpus"]
        assert got == min(72, system(s).gpus_per_node)
    out = json.loads(live.frame("ring_all_reduce", json.dumps({"n": 2, "step": 14})))
    assert out["ok"] and json.loads(out["params"])["step"] == 2 and out["ranges"] == {
        "step": [0, 2]}


def test_fmt_num_reads_as_the_issue_asks():
    assert [display.fmt_num(x) for x in (1024, 16384, 0.0078125, 2064, 1e-6)] == [
        "1,024", "16.4 k", "0.0078", "2,064", "1 × 10⁻⁶"]
    assert display.fmt_count(1, "switch") == "1 switch"
    assert display.fmt_count(2, "switch") == "2 switches"
    assert display.fmt_count(1.5, "buffer") == "1.5 buffers"


def test_memory_model_against_the_issue_example():
    """Llama 3 405B at TP 1, PP 1 on 2,048 servers: about 810 GB of bf16 weights per GPU
    (405e9 x 2 B) on an 80 GB H100, so the capstone must refuse it."""
    from interlib import capstone

    d = capstone.design(model="llama-3-405b", nodes=2048, tp=1, pp=1)
    assert d.step.memory.weights == pytest.approx(405e9 * 2)
    assert not d.fits
    text = widgets.summary("capstone", model="llama-3-405b", nodes=2048, tp=1, pp=1)
    assert "does NOT fit" in text and "Efficiency" not in text
    ok = capstone.design()
    assert ok.fits and ok.step.memory.total < GPUS["h100-sxm"].hbm_capacity.value
    with pytest.raises(ValueError, match="^zero=4 is out of range"):
        steptime.memory_per_gpu(zero=4)
