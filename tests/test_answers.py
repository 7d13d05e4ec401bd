"""Answer checks that understand units: one rule set (interlib/book/answers.py, and
answers.js on the pages), tested on the same cases in Python and in JavaScript (Node here;
the built site's quizzes in Chromium in tests/test_quiz.py).

Expected verdicts are written by hand from the rules in answers.py's docstring (e.g. 0.549
typed for 549.1 ms is the answer in seconds: a prefix slip; 549.1 s is the right number
with the wrong unit). The unit factors are checked against pint's definitions, not
against interlib.units.
"""

from __future__ import annotations

import json
import os
import math
import re
import shutil
import subprocess

import pytest

from interlib.book import answers, quiz
from interlib.book.quiz import Numeric

MS = Numeric("ring time", 549.1, "ms", 0.03, "because.", ((1098.2, "twice: why."),),
             "LOW-HINT", "HIGH-HINT")
PCT = Numeric("share", 9.5, "%", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT")
KB = Numeric("buffer", 20.0, "kB", 0.03, "because.", (), "LOW-HINT", "HIGH-HINT")
RATE = Numeric("rate", 50.0, "GB/s", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT")
GBIT = Numeric("rate", 400.0, "Gb/s", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT")
GPUS = Numeric("threshold", 98.0, "GPUs", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT",
               exact=True)
PROB = Numeric("probability", 0.095, "", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT")
USD = Numeric("dollars", 1_474_560.0, "$", 0.02, "because.", (), "LOW-HINT", "HIGH-HINT")
T4893 = Numeric("time", 4893.0, "ms", 0.03, "because.", (), "LOW-HINT", "HIGH-HINT")
T4P893 = Numeric("time", 4.893, "ms", 0.03, "because.", (), "LOW-HINT", "HIGH-HINT")

# (question, typed, verdict, a phrase the message must contain)
CASES = [
    (MS, "549.1 ms", "right", "Right: 549.1 ms"),
    (MS, "549.1ms", "right", "Right: 549.1 ms"),
    (MS, "0.549 s", "right", "Right"),
    (MS, "549100 us", "right", "Right"),
    (MS, "549,1", "right", "decimal comma"),
    (MS, "549.1 s", "wrong", "right in ms, but you wrote s"),
    (MS, "0.549", "wrong", "divided by 1,000"),
    (MS, "549100", "wrong", "1,000 times"),
    (MS, "1,098.2", "wrong", "twice: why"),
    (MS, "575", "close", "outside the 3 % tolerance"),
    (MS, "575", "close", "HIGH-HINT"),
    (MS, "520", "close", "LOW-HINT"),
    (MS, "300", "wrong", "Too low: LOW-HINT"),
    (MS, "900", "wrong", "Too high: HIGH-HINT"),
    (MS, "\u2212549.1", "wrong", "Too low"),
    (MS, "NaN", "invalid", "not a finite number"),
    (MS, "inf", "invalid", "not a finite number"),
    (MS, "-Infinity", "invalid", "not a finite number"),
    (MS, "1e999", "invalid", "not a finite number"),
    (MS, "", "invalid", "Type your answer"),
    (MS, "fast", "invalid", "can't read"),
    (MS, "5,49,1", "invalid", "decimals with a point"),
    (MS, "549.1 GB", "invalid", "measures an amount of data, but the question asks for a time"),
    (MS, "549.1 furlongs", "invalid", "don't know the unit"),
    (PCT, "9.5%", "right", "Right: 9.5 %"),
    (PCT, "9.5 %", "right", "Right"),
    (PCT, "9.5", "right", "Right"),
    (PCT, "0.095", "wrong", "a fraction where the question asks for a percentage"),
    (PROB, "9.5%", "right", "Right: 0.095"),
    (PROB, "9.5", "wrong", "a percentage where the question asks for a fraction"),
    (KB, "20 KiB", "close", "right in kB, but you wrote KiB: 20 KiB = 20.48 kB"),
    (KB, "19.53 KiB", "right", "Right: 20 kB"),
    # a bare number is in the question's unit: the KiB value (20 / 1.024 = 19.53) is the
    # binary-prefix slip even though it lies within the 3 % tolerance of 20
    (KB, "19.53", "wrong", "the answer in KiB, but the question asks for kB"),
    (KB, "19.5", "wrong", "1 KiB = 1,024 bytes, 1 kB = 1,000 bytes"),
    (KB, "19.8", "right", "Right: 20 kB"),
    (KB, "20000 B", "right", "Right"),
    (KB, "160", "wrong", "bits counted as bytes"),
    (KB, "20 kb", "wrong", "20 kb = 2.5 kB"),
    (RATE, "400 Gb/s", "right", "Right: 50 GB/s"),
    (RATE, "400 Gbps", "right", "Right"),
    (RATE, "400", "wrong", "bits counted as bytes"),
    (RATE, "46.57", "wrong", "1 GiB/s = 1,024³ bytes, 1 GB/s = 1,000³ bytes"),
    # slips named by their factor: 2 (direction) for a rate, 10 (a power of ten), never
    # "bits" for a factor that is not 8
    (RATE, "100", "wrong", "2 times the answer: both directions"),
    (RATE, "25", "wrong", "half the answer: one direction"),
    (RATE, "500", "wrong", "10 times the answer: a power of ten"),
    (MS, "5491", "wrong", "10 times the answer"),
    (MS, "54.91", "wrong", "divided by 10"),
    (RATE, "46.57 GiB/s", "right", "Right"),
    (RATE, "50 GB", "invalid", "measures an amount of data, but the question asks for a data rate"),
    (GBIT, "400", "right", "Right: 400 Gb/s"),
    (GBIT, "50 GB/s", "right", "Right"),
    (GBIT, "50", "wrong", "bytes where the question asks for bits"),
    (GPUS, "98", "right", "Right: 98 GPUs"),
    (GPUS, "98 GPUs", "right", "Right"),
    (GPUS, "97", "wrong", "Too low: LOW-HINT"),
    (GPUS, "99", "wrong", "Too high: HIGH-HINT"),
    (GPUS, "97.5", "invalid", "whole number"),
    (USD, "$1,474,560", "right", "Right: 1,475,000 $"),
    (USD, "1474560 dollars", "right", "Right"),
    # "4,893": a thousands separator, unless only the decimal-comma reading is right, and
    # then the message says which reading it took (issue 34: "4,893 ms" is 4,893 ms)
    (T4893, "4,893 ms", "right", "Right: 4893 ms"),
    (T4893, "4,893", "right", "Right: 4893 ms"),
    (T4P893, "4,893", "right", "could be 4,893 or 4.893; read as 4.893, a decimal comma"),
    (T4P893, "4,893 ms", "right", "read as 4.893, a decimal comma"),
    (T4P893, "4,123", "wrong", "read as 4,123, with a thousands separator; for a decimal, "
     "write 4.123"),
    (T4893, "4.893 s", "right", "Right: 4893 ms"),
    # long input is cut short in the echo
    (MS, "x" * 5000, "invalid", "“" + "x" * 79 + "…”"),
    (MS, "1" * 5000, "invalid", "…” is not a finite number"),
    (MS, "549 " + "z" * 300, "invalid", "“" + "z" * 79 + "…”"),
]


@pytest.mark.parametrize("q, typed, verdict, phrase", CASES,
                         ids=[f"{c[0].unit or 'plain'}:{c[1]}" for c in CASES])
def test_python_rules(q, typed, verdict, phrase):
    got, msg = quiz.check(q, typed)
    assert (got, phrase in msg) == (verdict, True), msg


def test_numbers_and_nonfinite_from_python():
    import numpy as np
    from decimal import Decimal
    from fractions import Fraction

    assert quiz.check(MS, 549.1)[0] == "right"
    assert quiz.check(MS, 0.549)[0] == "wrong"
    # what a student's notebook computes: numpy scalars, 0-d arrays, Decimal, Fraction
    for good in (np.int64(98), np.float32(98.0), np.array(98), np.array(98.0), Decimal("98"),
                 Fraction(196, 2), 98, 98.0, np.uint16(98)):
        assert quiz.check(GPUS, good) == ("right", "Right: 98 GPUs. because."), repr(good)
    assert quiz.check(KB, np.float64(20.0 / 1.024))[1].startswith("That is the answer in KiB")
    for bad in (math.nan, math.inf, -math.inf, True, np.bool_(True), [1], np.array([98, 1]),
                complex(98, 1), Decimal("NaN"), Decimal("1e999"), object(), b"98"):
        verdict, msg = quiz.check(MS, bad)
        assert verdict == "invalid" and msg, repr(bad)
    # None is "not answered", not a malformed answer
    assert quiz.check(MS, None) == ("invalid", "Not answered yet: type your answer "
                                               "(e.g. 12.5 ms).")


def test_hints_are_one_phrase_and_name_only_the_slip_that_fits():
    # issue 34: "Too high. Too high: ..." and a 10x error told "bytes not bits"
    for q in (MS, KB, RATE, GBIT, PCT):
        for factor in (0.3, 3.0, 10.0, 0.1, 5.0):
            verdict, msg = quiz.check(q, q.answer * factor)
            assert msg.count("Too high") + msg.count("Too low") <= 1, msg
            assert "bit" not in msg.lower().replace("power of ten", ""), (factor, msg)
    # the factor 8 is bits and bytes, and only it
    assert "1 byte = 8 bits" in quiz.check(RATE, 400.0)[1]
    assert "1 byte = 8 bits" not in quiz.check(RATE, 500.0)[1]


def test_exact_answer_refuses_the_neighbour_whatever_the_tolerance():
    loose = Numeric("n?", 98.0, "GPUs", 0.05, "because.", exact=True)
    assert quiz.check(loose, 97)[0] == "wrong" and quiz.check(loose, 98)[0] == "right"
    with pytest.raises(ValueError, match="^answer="):
        Numeric("n?", 97.5, "GPUs", 0.05, "because.", exact=True)


def test_every_unit_is_readable_and_every_slip_is_distinct_from_the_answer():
    for name, (dim, factor, canon) in answers.RULES["units"].items():
        assert dim in answers.RULES["dims"] and factor > 0 and canon in answers.RULES["units"]
    # a slip is never taken for a near miss: 1 ± 2 tolerances (a "close" answer) lies
    # outside every slip's window, for the book's tolerances (1 % to 5 %)
    for factor, dims, why, cap in answers.RULES["slips"]:
        for tol in (0.01, 0.02, 0.03, 0.05):
            for near in (1 + 2 * tol, 1 - 2 * tol):
                assert abs(near - factor) > min(tol, cap) * factor, (why, tol)


# ------------------------------------------------------------------ pint agrees
@pytest.mark.parametrize("table", ["RULES", "built"])
def test_unit_factors_agree_with_pint(table):
    """The unit table the checker ships (RULES, built once at import) and the table
    ``_units()`` builds when called (so that a change to it is seen by this test under
    mutation testing, whose mutants apply to calls, not to what import built)."""
    import pint  # the developer's lock has it (requirements-dev.in): a missing pint fails
    ureg = pint.UnitRegistry()
    units = answers.RULES["units"] if table == "RULES" else answers._units()
    if table == "built":
        assert units == answers.RULES["units"]
    base = {"time": "s", "data": "byte", "rate": "byte/s", "length": "m"}
    checked = 0
    for name, (dim, factor, _) in units.items():
        if dim not in base:
            continue
        # the book's spellings in pint's: b = bit (pint's b is the barn), K = kilo for bytes,
        # Bps / bps = per second
        p = re.sub(r"^([kMGT]?)(b|bits?)(/s|ps)?$", r"\1bit\3", name)
        p = re.sub(r"^K(B|byte|bytes)", r"k\1", p)
        p = re.sub(r"(B|bit)ps$", r"\1/s", p).replace("µs", "us")
        try:
            q = ureg.Quantity(1, p)
        except pint.errors.UndefinedUnitError:  # an alias pint does not know ("msec")
            continue
        assert q.to(base[dim]).magnitude == pytest.approx(factor, rel=1e-12), name
        checked += 1
    assert checked >= 30
    assert ureg.Quantity(1, "GiB").to("GB").magnitude == pytest.approx(1.073741824)


# ------------------------------------------------------------------ JavaScript agrees
def _node_or_fail() -> str:
    """The ``node`` executable; without one the parity tests skip on a developer's machine
    but fail in CI (INTERCONNECTS_REQUIRE_BROWSER=1, set by .ci/run, or CI set by the CI
    service), where .ci/run installs Debian's nodejs: the site's checker must be run there."""
    node = shutil.which("node")
    if node:
        return node
    why = "node is not installed (Debian: apt-get install nodejs; .ci/run installs it)"
    required = os.environ.get("INTERCONNECTS_REQUIRE_BROWSER") == "1" or \
        os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
    if required:
        pytest.fail(f"INTERCONNECTS_REQUIRE_BROWSER=1 or CI is set, but {why}: the "
                    "JavaScript parity of the answer checker must run in CI", pytrace=False)
    pytest.skip(why)


@pytest.mark.parametrize("env", [{"INTERCONNECTS_REQUIRE_BROWSER": "1"}, {"CI": "true"}])
def test_missing_node_fails_under_ci(monkeypatch, env):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("INTERCONNECTS_REQUIRE_BROWSER", raising=False)
    monkeypatch.delenv("CI", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(pytest.fail.Exception, match="^INTERCONNECTS_REQUIRE_BROWSER=1 or CI"):
        _node_or_fail()


def test_missing_node_skips_on_a_developer_machine(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("INTERCONNECTS_REQUIRE_BROWSER", raising=False)
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="^node is not installed"):
        _node_or_fail()


@pytest.fixture(scope="module")
def js_results(tmp_path_factory):
    node = _node_or_fail()
    d = tmp_path_factory.mktemp("answers")
    (d / "answers.js").write_text(answers.script(), encoding="utf-8")
    cases = [[q.spec(), typed] for q, typed, _, _ in CASES]
    nums = [549.1, 0.5491, 1234.0, 12345.6, 1.5e-5, 2.5e7, 0.001, 9999.4, 20.48, 3.0,
            0.03 * 100, 1 / 3, 1474560.0, -0.25]
    (d / "cases.json").write_text(json.dumps({"cases": cases, "nums": nums}))
    (d / "run.js").write_text(
        "const a = require('./answers.js'); const c = require('./cases.json');\n"
        "console.log(JSON.stringify({checks: c.cases.map(x => a.evaluate(x[0], x[1])),"
        " nums: c.nums.map(a.fmt)}));\n")
    out = subprocess.run([node, str(d / "run.js")], capture_output=True, text=True,
                         check=True, timeout=60)
    return json.loads(out.stdout), nums


def test_javascript_gives_the_same_verdict_and_message(js_results):
    got, _ = js_results
    for (q, typed, _, _), js in zip(CASES, got["checks"]):
        assert list(quiz.check(q, typed)) == js, typed


def test_javascript_formats_numbers_the_same(js_results):
    got, nums = js_results
    assert got["nums"] == [answers.fmt(x) for x in nums]


# ------------------------------------------------------------------ numbers as printed
def test_fmt_at_its_boundaries():
    """4 significant figures; thousands separators from 10,000 to below 1e15; plain from
    0.001 to below 10,000; else a short exponent (the JavaScript prints the same)."""
    assert answers.fmt(0) == "0" and answers.fmt(1) == "1" and answers.fmt(2.0) == "2"
    assert answers.fmt(9999.4) == "9999" and answers.fmt(10_000) == "10,000"
    assert answers.fmt(12_345.6) == "12,350" and answers.fmt(9.999e14) == "999,900,000,000,000"
    assert answers.fmt(1e15) == "1e15" and answers.fmt(1.2e20) == "1.2e20"
    assert answers.fmt(0.001) == "0.001" and answers.fmt(0.00099) == "9.9e-4"
    assert answers.fmt(1e-5) == "1e-5" and answers.fmt(1.5e-5) == "1.5e-5"


def test_as_number_takes_real_scalars_only():
    import numpy as np

    assert answers.as_number(np.bool_(True)) is None and answers.as_number(np.array(True)) is None
    assert answers.as_number(np.float64(2.5)) == 2.5 and answers.as_number(np.array(3.0)) == 3.0
    assert answers.as_number(np.array([1, 2])) is None
    # numpy's complex64 is not a Python complex: its imaginary part refuses it
    assert answers.as_number(np.complex64(1 + 2j)) is None
    assert answers.as_number(complex(2, 0)) is None

    class Zero:  # 0-d, real, without .item(): read through __float__
        shape = ()

        def __float__(self):
            return 7.0

    assert answers.as_number(Zero()) == 7.0

    class Gaussian:  # not a complex, yet with an imaginary part: refused though float() works
        imag = 2

        def __float__(self):
            return 1.0

    class Real:  # an imaginary part of 0 (as Decimal and Fraction have): read
        imag = 0

        def __float__(self):
            return 1.5

    assert answers.as_number(Gaussian()) is None and answers.as_number(Real()) == 1.5


def test_script_embeds_the_rules_as_ascii():
    js = answers.script()
    assert js.isascii() and "\\u00b5s" in js       # µs written as a JSON escape
