"""Every thought question of every demo has an answer; answers render; the figures they
quote are computed, not typed.

The "not typed" check reads the source of each answer function (and the text of any plain
string answer): every run of digits in its string literals must belong to a name that
contains digits (a product such as "H100", "NVLink 4", "PCIe 5.0 x16", a formula such as
"2(n − 1)/n"), listed below. A figure typed into the prose ("450 GB/s", "about 7×")
fails; a figure interpolated from an interlib computation (``{D.fmt_rate(x)}``) passes,
because only the literal parts of an f-string are checked. A number typed into a
replacement field (``f"{8} GPUs"``) fails too: it is a figure typed into the text all the
same, and the computation typing its own 8 can drift away from it. The given belongs in a
named local (or the demo control it comes from) that feeds both the model and the text.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap

import pytest

from interlib import widgets

Q = importlib.import_module("interlib.widgets.questions")

# Names and formulas whose digits are part of the name, not a quoted figure.
ALLOWED = [
    r"NVLink \d", r"NVLink\d", r"PCIe \d\.\d", r"PCIe\d", r"Gen \d", r"x\d+\b",
    r"\b[A-Z]{1,3}\d{2,3}s?\b",            # H100, A100, B200, GB200, NVL72
    r"NVL\d+", r"ConnectX-\d", r"connectx-\d", r"Llama \d", r"llama-\d-\d+b", r"\b\d+B\b",
    r"NVSwitch \d", r"RoCEv\d", r"h\d+-\w+", r"dgx-[a-z]\d+", r"gb\d+-nvl\d+", r"b\d+",
    r"a\d+-sxm-\d+gb",
    # formulas
    r"2\(n − 1\)/n", r"\(n − 1\)/n", r"2\(n − 1\)/\(n \+ 1\)", r"2\(n − 1\)", r"n − 1",
    r"n \+ 1", r"2\(g − 1\)/g", r"n\(n − 1\)/2", r"k²/2", r"√\(2 ln n\)", r"ln 2",
    r"1 \+ jitter", r"\(1 − p\)", r"ln\(1 − p\)", r"min\(1,", r"1/n", r"k/4", r"k/2",
    r"2 × the gradient", r"(?:^|\b[1-9]):1\b", r"bf16", r"chunk k \+ 1", r"1 − alpha", r"n/2",
    # names: a line code, an Ethernet speed grade, a statistic, numbered parts of a model
    r"\d+b/\d+b", r"\d+ GbE", r"\d+th percentile", r"Chapters? \d+(?: and \d+)?",
    r"switch \d", r"host \d",
]
_ALLOWED = re.compile("|".join(f"(?:{a})" for a in ALLOWED))


def typed_numbers(text: str) -> list[str]:
    """Digit runs in ``text`` that are not part of an allowed name or formula."""
    return re.findall(r"\d[\d.,]*", _ALLOWED.sub(" ", text))


def _function_node(func):
    """The syntax tree of ``func`` (a ``def`` or a ``lambda``) from its source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    return next(n for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _literals(func) -> list[str]:
    """The string literals of ``func``'s source, excluding f-string format specs and the
    docstring (the literal parts of f-strings are included)."""
    fn = _function_node(func)
    specs = {id(n.format_spec) for n in ast.walk(fn)
             if isinstance(n, ast.FormattedValue) and n.format_spec is not None}
    skip = set()
    for n in ast.walk(fn):
        if id(n) in specs:
            skip.update(id(m) for m in ast.walk(n))
    # literals that are arguments (a generation "5.0", a fabric name, a dict key) are
    # inputs to the computation, not text the reader sees
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            skip.update(id(a) for a in n.args)
            skip.update(id(k.value) for k in n.keywords)
        elif isinstance(n, ast.Subscript):
            skip.add(id(n.slice))
        elif isinstance(n, ast.Dict):
            skip.update(id(k) for k in n.keys if k is not None)
        elif isinstance(n, ast.Compare):
            skip.update(id(c) for c in n.comparators)
        elif isinstance(n, (ast.Tuple, ast.List)) and not isinstance(getattr(n, "ctx", None),
                                                                      ast.Store):
            pass
    doc = fn.body[0].value if (isinstance(fn.body, list) and fn.body
                               and isinstance(fn.body[0], ast.Expr)
                               and isinstance(fn.body[0].value, ast.Constant)) else None
    return [n.value for n in ast.walk(fn)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skip and n is not doc]


def formatted_constants(func) -> list:
    """Numbers typed straight into an f-string's replacement fields in ``func``'s source
    (``f"{8} GPUs"``, ``f"{1024:,}"``): each one is a given typed into the text."""
    return [n.value.value for n in ast.walk(_function_node(func))
            if isinstance(n, ast.FormattedValue) and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, (int, float, complex))
            and not isinstance(n.value.value, bool)]


def _items():
    for name, demo in widgets.DEMOS.items():
        for i, item in enumerate(demo.questions):
            yield pytest.param(name, item, id=f"{name}-{i + 1}")


ITEMS = list(_items())


def test_there_are_questions():
    # The issue counted 66 thought questions under 25 demos; no demo may lose them.
    assert len(ITEMS) >= 66
    assert all(widgets.get(n).questions for n in widgets.DEMOS)


@pytest.mark.parametrize("name,item", ITEMS)
def test_every_question_has_an_answer(name, item):
    question, answer = Q.split(item)
    assert question.strip().endswith("?") or "?" in question
    assert answer is not None, f"{name}: {question!r} has no answer"
    assert len(answer) >= 120, f"{name}: the answer to {question!r} explains too little"
    # computed figures appear (a digit that came from a computation) unless the answer is
    # purely qualitative and says so by having no number at all
    assert not re.search(r"\bnan\b|\binf\b|None", answer), answer


@pytest.mark.parametrize("name,item", ITEMS)
def test_answers_quote_computed_figures_only(name, item):
    _, raw = item if isinstance(item, tuple) else (item, None)
    if callable(raw):
        found = [t for lit in _literals(raw) for t in typed_numbers(lit)]
    else:
        found = typed_numbers(raw or "")
    assert not found, f"{name}: typed numbers {found} in the answer text"
    if callable(raw):
        consts = formatted_constants(raw)
        assert not consts, (
            f"{name}: {raw.__qualname__} formats the constant(s) {consts} into its text "
            "(f\"{8} ...\"); name the given once (a local, or the demo control's default) and "
            "use that name in both the computation and the f-string")


def test_the_typed_number_check_can_fail():
    def typed():
        return "NVLink 4 gives 450 GB/s per direction, about 7× PCIe"

    def computed():
        from interlib import display as D
        return f"NVLink 4 gives {D.fmt_rate(450e9)} per direction"

    assert [t for lit in _literals(typed) for t in typed_numbers(lit)] == ["450", "7"]
    assert [t for lit in _literals(computed) for t in typed_numbers(lit)] == []


def test_the_formatted_constant_check_can_fail():
    typed = lambda: f"{8} GPUs, {1024:,} at most, load {0.5:g}"  # noqa: E731

    def named():
        gpus = 8
        return f"{gpus} GPUs"

    # the literal-text check alone does not see these
    assert [t for lit in _literals(typed) for t in typed_numbers(lit)] == []
    assert formatted_constants(typed) == [8, 1024, 0.5]
    assert formatted_constants(named) == []


@pytest.mark.parametrize("name", list(widgets.DEMOS))
def test_answers_render_closed(name):
    html = Q.questions_html(name)
    n = len(widgets.get(name).questions)
    assert html.count("<details") == n
    assert "<details open" not in html
    assert html.count("<summary>Answer</summary>") == n
