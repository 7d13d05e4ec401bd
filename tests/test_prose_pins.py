"""Which figure a sentence quotes (issue 38 item 4, second half).

test_eval_expressions.py checks that every ``{eval}`` value stored in a chapter equals a fresh
run, and the models' tests check each expression's value. Neither notices two ``{eval}``
references swapped in one sentence ("on 1,024 GPUs that is 20 step latencies, against 2046
for a binary tree"): both values are right, and re-executing the notebook stores the swap.

This module reads the *rendered* sentence: each markdown cell's source with every
``{eval}`expr``` replaced by the value stored for it (the value the reader sees, which
test_eval_expressions keeps equal to a fresh run), and checks key sentences of every chapter
against a table (``PINS``). Each pin names the sentence by its fixed words, with a
``{name}`` where an ``{eval}`` figure stands, and a check whose expected values come from a
hand derivation (the formula the sentence itself states, or the source's figure, cited in the
comment) or from an invariant between the figures of the sentence (a ratio, a product, an
order), never from interlib. So:

* a swap of two figures in a pinned sentence fails (test_planted_swap_fails shows it on the
  Chapter 1 sentence of issue 38, by swapping the two references in the source);
* every pin is checked to tell its figures apart: swapping any two different figures of a pin
  must fail its check (test_every_pin_tells_its_figures_apart), so a pin cannot be a
  symmetric check that a swap would pass;
* a pinned sentence that is rewritten fails with "pattern not found" (update the pin with the
  prose), and every chapter has pins.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Callable

import pytest

from conftest import REPO

EVAL = re.compile(r"\{eval\}`([^`]+)`")
NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


# ------------------------------------------------------------------ rendering the prose
def _value(data: dict | None) -> str:
    """The text a reader sees for one stored ``{eval}`` result (its text/plain repr)."""
    text = (data or {}).get("text/plain", "")
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return v if isinstance(v, str) else str(v)


def render_cell(source: str, expressions: list[dict]) -> str:
    """A markdown cell as read: each ``{eval}`` replaced by «its stored value»."""
    stored = {e["expression"]: _value(e.get("result", {}).get("data"))
              for e in expressions}

    def sub(m):
        if m.group(1) not in stored:
            raise AssertionError(f"{{eval}}`{m.group(1)}` has no stored value")
        return f"«{stored[m.group(1)]}»"

    return " ".join(EVAL.sub(sub, source).split())


def render(notebook: str) -> str:
    nb = json.loads((REPO / notebook).read_text(encoding="utf-8"))
    return "\n".join(render_cell("".join(c["source"]), c.get("metadata", {})
                                 .get("user_expressions", []))
                     for c in nb["cells"] if c["cell_type"] == "markdown")


# ------------------------------------------------------------------ reading the figures
def num(s: str) -> float:
    """The one number in a figure ("10,368" -> 10368, "93.8 %" -> 93.8, "5.06×" -> 5.06)."""
    found = NUM.findall(s)
    assert len(found) == 1, f"expected one number in {s!r}"
    return float(found[0].replace(",", ""))


def nums(s: str) -> list[float]:
    return [float(x.replace(",", "")) for x in NUM.findall(s)]


_RATE = {"TB/s": 1e3, "GB/s": 1.0, "Tb/s": 1e3 / 8, "Gb/s": 1 / 8}


def gbps(s: str) -> float:
    """A rate in GB/s from its printed unit ("3.6 TB/s" -> 3600, "800 Gb/s" -> 100)."""
    unit = s.split()[-1]
    assert unit in _RATE, f"no rate unit in {s!r}"
    return num(s) * _RATE[unit]


def close(a: float, b: float, rel: float = 0.005) -> bool:
    return math.isclose(a, b, rel_tol=rel)


# ------------------------------------------------------------------ the pins
@dataclass(frozen=True)
class Pin:
    notebook: str
    sentence: str   # fixed words with {name} where an {eval} figure stands; " ⋯ " = a gap
    check: Callable[[dict], bool]
    why: str        # the hand derivation or invariant, with its source


def _pattern(sentence: str) -> re.Pattern:
    out = []
    for part in re.split(r"(\{\w+\}| ⋯ )", " ".join(sentence.split())):
        if part == " ⋯ ":
            out.append(r".{0,400}?")
        elif re.fullmatch(r"\{\w+\}", part):
            out.append(f"«(?P<{part[1:-1]}>[^»]*)»")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


CH = {n: f"chapters/{f}.ipynb" for n, f in {
    1: "01_why_connect", 2: "02_pcie", 3: "03_nvlink", 4: "04_nvswitch", 5: "05_infiniband",
    6: "06_rocev2", 7: "07_hierarchy", 8: "08_impact"}.items()}

PCIE5_X16_USABLE = 32 * 16 / 8 * 128 / 130  # GB/s per direction: 32 GT/s x 16 lanes, 128b/130b

PINS = [
    # ---- Chapter 1
    Pin(CH[1], "on 1,024 GPUs that is {ring} step latencies, against {tree} for a binary tree",
        lambda v: num(v["ring"]) == 2 * (1024 - 1) and num(v["tree"]) == 2 * math.ceil(
            math.log2(1024)),
        "ring 2(N-1) = 2046, binary tree up and down 2 ceil(log2 N) = 20 (the sentence's own "
        "formulas, N = 1,024)"),
    Pin(CH[1], "On {k} nodes of {g} that is 2 × ({a} + {b}) = {c}, not {d}.",
        lambda v: (num(v["a"]) == num(v["g"]) - 1
                   and num(v["b"]) == math.floor(math.log2(num(v["k"])))
                   and num(v["c"]) == 2 * (num(v["a"]) + num(v["b"]))
                   and num(v["d"]) == 2 * math.ceil(math.log2(num(v["k"]) * num(v["g"])))
                   and num(v["k"]) > num(v["g"])),
        "double binary tree 2((g-1) + floor(log2 k)) for k nodes of g GPUs (the chapter's "
        "formula), against 2 ceil(log2 kg); 128 nodes of 8 (more nodes than GPUs per node)"),
    Pin(CH[1], "**LL128** does the same with {line} lines that carry one 8-byte flag, so {share} "
               "of the bytes are payload",
        lambda v: num(v["line"]) == 128 and v["share"] == f"{(128 - 8) / 128 * 100:.1f} %",
        "128-byte lines with one 8-byte flag: 120/128 = 93.75 % payload (NCCL LL128)"),
    Pin(CH[1], "each GPU sends {sent} (2(n − 1)/n of the buffer) at NCCL's achieved {bw} per "
               "direction ({t} at the {line} line rate)",
        lambda v: (close(num(v["t"]) / 1e3, num(v["sent"]) / gbps(v["line"]), 0.002)
                   and gbps(v["bw"]) < gbps(v["line"]) and v["t"].endswith("ms")),
        "time at line rate = bytes sent / line rate (245 GB / 450 GB/s = 544 ms); NCCL's "
        "achieved rate is below the line rate"),
    # ---- Chapter 2
    Pin(CH[2], "At {pl} payloads (a common maximum payload size) that is {e5} for Gen 5 and "
               "{e6} for Gen 6: ⋯ {g5} and {g6} per direction on x16, so Gen 6 carries {r} "
               "Gen 5's payload",
        lambda v: (close(gbps(v["g5"]), 64 * num(v["e5"]) / 100, 0.01)
                   and close(gbps(v["g6"]), 128 * num(v["e6"]) / 100, 0.01)
                   and close(num(v["r"]), gbps(v["g6"]) / gbps(v["g5"]), 0.01)),
        "x16 raw per direction: Gen 5 32 GT/s x 16 / 8 = 64 GB/s, Gen 6 128 GB/s (PCI-SIG); "
        "payload rate = raw x payload share; the ratio of the two"),
    Pin(CH[2], "one per GPU, each at {nic} per direction, {pct} of a PCIe 5.0 x16's usable "
               "{usable}",
        lambda v: (gbps(v["nic"]) == 400 / 8 and close(gbps(v["usable"]), PCIE5_X16_USABLE, 0.01)
                   and close(num(v["pct"]), 100 * 50 / PCIE5_X16_USABLE, 0.002)),
        "ConnectX-7 400 Gb/s = 50 GB/s; PCIe 5.0 x16 usable 32 x 16 / 8 x 128/130 = 63.0 GB/s; "
        "50 / 63.0 = 79.3 %"),
    # ---- Chapter 3
    Pin(CH[3], "{bidir} per GPU, both directions added, so {each} each way, twice NVLink 5's "
               "{nv5}",
        lambda v: (close(gbps(v["each"]), gbps(v["bidir"]) / 2) and
                   close(gbps(v["each"]), 2 * gbps(v["nv5"])) and gbps(v["nv5"]) == 18 * 50),
        "NVLink 6 3.6 TB/s both ways = 1.8 TB/s each way = 2 x NVLink 5's 18 links x 50 GB/s"),
    Pin(CH[3], "a coherent chip-to-chip link of {pd} per direction ({bd} with both directions "
               "added) ⋯ {x} a PCIe 5.0 x16's usable {u}",
        lambda v: (gbps(v["bd"]) == 2 * gbps(v["pd"])
                   and close(gbps(v["u"]), PCIE5_X16_USABLE, 0.01)
                   and close(num(v["x"]), gbps(v["pd"]) / PCIE5_X16_USABLE, 0.01)),
        "NVLink-C2C 900 GB/s both ways = 450 each way (NVIDIA); 450 / 63.0 = 7.1x"),
    Pin(CH[3], "One GPU copying alone measures {h2d} host to device and {d2h} device to host on "
               "Azure's ND GB200 v6 ⋯ so the achieved rate the book uses is the slower of the "
               "two, {used}",
        lambda v: (gbps(v["h2d"]) == 201 and gbps(v["d2h"]) == 193
                   and gbps(v["used"]) == min(201, 193)),
        "Azure AI-benchmarking-guide ND GB200 v6 NV Bandwidth: 'Host to Device 201', 'Device "
        "to Host 193' (read at 2a370be); the slower is 193"),
    # ---- Chapter 4
    Pin(CH[4], "\"{h} of all-to-all bandwidth\" ⋯ a bisection counted in both directions ({half} "
               "each way",
        lambda v: gbps(v["h"]) == 57.6e3 and close(gbps(v["half"]), gbps(v["h"]) / 2),
        "NVIDIA's 57.6 TB/s, both directions added: 28.8 TB/s each way"),
    Pin(CH[4], "the NVL72 \"{agg}\" is an aggregate, {x} its per-direction bisection",
        lambda v: (close(gbps(v["agg"]), 72 * 1800, 0.01)
                   and num(v["x"]) == round(gbps(v["agg"]) / (36 * 900))),
        "72 GPUs x 1.8 TB/s = 129.6 ~ 130 TB/s; per-direction bisection 36 x 900 GB/s = "
        "32.4 TB/s; 130 / 32.4 = 4"),
    Pin(CH[4], "its {chips} NVLink Switch chips sit in {trays} switch trays of {per} chips each",
        lambda v: num(v["chips"]) == 18 and num(v["trays"]) == 9 and num(v["per"]) == 2,
        "NVIDIA GB200 NVL72: 9 NVLink switch trays, 2 NVLink Switch chips each, 18 chips"),
    Pin(CH[4], "one per GPU, {nic} per direction against NVLink's {x} more",
        lambda v: gbps(v["nic"]) == 50 and num(v["x"]) == 900 / 50,
        "ConnectX-7 400 Gb/s = 50 GB/s; NVLink 5 900 GB/s per direction = 18x"),
    # ---- Chapter 5
    Pin(CH[5], "an HDR lane signals at {sig} to carry {data} of data",
        lambda v: num(v["sig"]) == 53.125 and num(v["data"]) == 50,
        "IBTA: HDR 50 Gb/s of data per lane at 53.125 Gb/s signalling (PAM4, 26.5625 GBd)"),
    Pin(CH[5], "has {ports} ports of {rate} ({agg} per direction), against Quantum-2's {q2}",
        lambda v: (num(v["ports"]) == 144 and num(v["q2"]) == 64
                   and close(gbps(v["agg"]), num(v["ports"]) * gbps(v["rate"]), 0.005)),
        "Quantum-X800 Q3400: 144 ports x 800 Gb/s = 115.2 Tb/s; Quantum-2: 64 ports (NVIDIA)"),
    Pin(CH[5], "two non-blocking tiers connect {big} hosts instead of {small} ({r})",
        lambda v: (num(v["big"]) == 144 ** 2 / 2 and num(v["small"]) == 64 ** 2 / 2
                   and close(num(v["r"]), 144 ** 2 / 64 ** 2, 0.002)),
        "two-tier fat-tree of k-port switches: k^2/2 hosts; 144 -> 10,368, 64 -> 2,048; 5.06x"),
    Pin(CH[5], "the reach is {small} hosts against {big}",
        lambda v: num(v["small"]) == 64 ** 3 / 4 and num(v["big"]) == 144 ** 3 / 4,
        "three-tier fat-tree: k^3/4 hosts; 64 -> 65,536, 144 -> 746,496"),
    Pin(CH[5], "each plane reaches {hosts} hosts, so the planes together could reach {gpus} GPUs",
        lambda v: num(v["hosts"]) == 64 ** 2 / 2 and num(v["gpus"]) == 8 * 64 ** 2 / 2,
        "DeepSeek: 8 planes, each a two-tier fat-tree of 64-port switches (2,048 hosts); "
        "16,384 GPUs"),
    # ---- Chapter 6
    Pin(CH[6], "NCCL sets the exponent to {e} by default, {t} per attempt, and allows {r} "
               "retries",
        lambda v: (num(v["e"]) == 20 and num(v["r"]) == 7
                   and close(num(v["t"]), 4.096e-6 * 2 ** num(v["e"]), 0.002)),
        "InfiniBand local ACK timeout 4.096 us x 2^exp (IBTA); NCCL_IB_TIMEOUT 20 -> 4.29 s; "
        "NCCL_IB_RETRY_CNT 7 (NCCL env docs)"),
    Pin(CH[6], "IEEE P802.3dj defines {lane} lanes (212.5 Gb/s on the wire, PAM4) and a {port} "
               "port of {n} of them",
        lambda v: (gbps(v["lane"]) == 200 / 8 and num(v["n"]) == 8
                   and gbps(v["port"]) == num(v["n"]) * gbps(v["lane"])),
        "802.3dj: 200 Gb/s lanes; 1.6 Tb/s = 8 x 200 Gb/s"),
    # ---- Chapter 7
    Pin(CH[7], "up to {slice} chips of a {pod}-chip pod",
        lambda v: num(v["slice"]) == 16 * 16 * 24 and num(v["pod"]) == 8960,
        "Google TPU v5p: largest slice 16x16x24 = 6,144 chips; 8,960 chips per pod"),
    Pin(CH[7], "{tpu} on a TPU v5p pod, {gb300} on GB300, {gaudi} on Gaudi 3.",
        lambda v: (num(v["tpu"]) == 1200 / 2 / (50 / 8) and num(v["gb300"]) == 900 / (800 / 8)
                   and num(v["gaudi"]) == 525 / 75),
        "scale-up over scale-out per accelerator, per direction: TPU v5p ICI 1,200/2 GB/s over "
        "DCN 50 Gb/s = 96; GB300 NVLink 5 900 GB/s over ConnectX-8 800 Gb/s = 9; Gaudi 3 "
        "21 x 25 = 525 GB/s over 3 x 25 = 75 GB/s = 7 (Google, NVIDIA, Intel)"),
    # ---- Chapter 8
    Pin(CH[8], "The {n}-GPU reference job of this chapter — {model} on {servers} DGX H100-class "
               "servers, {par},",
        lambda v: (num(v["n"]) == 8 * num(v["servers"])
                   and math.prod(nums(v["par"])) == num(v["n"])
                   and nums(v["par"])[0] == 8),
        "8 GPUs per DGX H100; TP x PP x DP = GPUs; TP = 8 inside a server"),
    Pin(CH[8], "its busbw lies between {lo} and {hi} the measured one, {med} at the median",
        lambda v: num(v["lo"]) <= num(v["med"]) <= num(v["hi"]) and num(v["lo"]) < 1 < num(
            v["hi"]),
        "order: the smallest ratio <= the median <= the largest"),
    Pin(CH[8], "Its nccl-tests bus factor is $(n-1)/n$ ({f} for {n} GPUs)",
        lambda v: num(v["f"]) == (num(v["n"]) - 1) / num(v["n"]) and num(v["n"]) > 1,
        "the sentence's own formula: (8 - 1) / 8 = 0.875"),
]


def _figures(pin: Pin, text: str) -> dict:
    found = list(_pattern(pin.sentence).finditer(text))
    assert len(found) == 1, (
        f"{pin.notebook}: the pinned sentence {pin.sentence!r} is found {len(found)} times in "
        "the rendered prose (rewritten? update its pin in tests/test_prose_pins.py)")
    return found[0].groupdict()


_RENDERED: dict[str, str] = {}


def _rendered(nb: str) -> str:
    if nb not in _RENDERED:
        _RENDERED[nb] = render(nb)
    return _RENDERED[nb]


def _ok(pin: Pin, v: dict) -> bool:
    try:
        return bool(pin.check(v))
    except AssertionError:       # a figure without the number or unit the check reads
        return False


@pytest.mark.parametrize("pin", PINS, ids=[f"{p.notebook[9:11]}-{i}" for i, p in
                                           enumerate(PINS)])
def test_sentence_quotes_the_right_figures(pin):
    v = _figures(pin, _rendered(pin.notebook))
    assert _ok(pin, v), (f"{pin.notebook}: the sentence {pin.sentence!r} reads {v}, which does "
                         f"not hold: {pin.why}")


@pytest.mark.parametrize("pin", PINS, ids=[f"{p.notebook[9:11]}-{i}" for i, p in
                                           enumerate(PINS)])
def test_every_pin_tells_its_figures_apart(pin):
    """Swapping any two different figures of the sentence fails the pin's check."""
    v = _figures(pin, _rendered(pin.notebook))
    for a, b in itertools.combinations(v, 2):
        if v[a] == v[b]:
            continue
        swapped = {**v, a: v[b], b: v[a]}
        assert not _ok(pin, swapped), (f"{pin.notebook}: swapping {a} and {b} "
                                       f"({v[a]!r}, {v[b]!r}) passes the pin: make it "
                                       "tell them apart")


def test_every_chapter_has_pins():
    counts = {nb: sum(p.notebook == nb for p in PINS) for nb in CH.values()}
    assert all(n >= 2 for n in counts.values()), counts


def test_planted_swap_fails():
    """Issue 38's miss: the two references of Chapter 1's sentence swapped in the source.
    Re-executing stores the same value per expression, so the rendering below is what the
    re-executed notebook shows: "20 step latencies, against 2046"."""
    nb = json.loads((REPO / CH[1]).read_text(encoding="utf-8"))
    a, b = "{eval}`prose.ring_steps_1024`", "{eval}`prose.tree_steps_1024`"
    texts = []
    for c in nb["cells"]:
        if c["cell_type"] != "markdown":
            continue
        src = "".join(c["source"])
        if a in src and b in src:
            src = src.replace(a, "\0").replace(b, a).replace("\0", b)
        texts.append(render_cell(src, c.get("metadata", {}).get("user_expressions", [])))
    planted = "\n".join(texts)
    pin = PINS[0]
    assert "«20» step latencies, against «2046»" in planted
    assert not _ok(pin, _figures(pin, planted))
    assert _ok(pin, _figures(pin, _rendered(CH[1])))   # and the book as it stands passes


def test_rendering_reads_stored_values():
    cell = render_cell("a {eval}`x` b {eval}`y`.",
                       [{"expression": "x", "result": {"data": {"text/plain": "'2046'"}}},
                        {"expression": "y", "result": {"data": {"text/plain": "20"}}}])
    assert cell == "a «2046» b «20»."
    with pytest.raises(AssertionError, match="^\\{eval\\}`z` has no stored value"):
        render_cell("{eval}`z`", [])
    assert num("10,368") == 10368 and num("93.8 %") == 93.8 and gbps("800 Gb/s") == 100
    assert gbps("3.6 TB/s") == 3600 and nums("TP 8 × PP 4 × DP 8") == [8, 4, 8]
