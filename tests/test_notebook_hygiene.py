"""Hygiene of every notebook in _toc.yml: how it was executed, what it stores, what its code
cells may contain. Failures name the notebook, the cell and (for code) the line.

Conventions checked here (see CONTRIBUTING.md, "Writing notebooks: what the tests enforce"):

* executed top to bottom on a fresh kernel (`make execute`): execution counts 1..k;
* kernelspec ``python3``; the first cell is markdown starting with ``# Title``;
* every ``image/png`` output has alt text in the cell metadata ``mystnb.image.alt``;
* widget outputs come with saved widget state (``metadata.widgets``) covering every view;
* cells whose outputs hold a widget view are tagged ``nbval-ignore-output``, and any other
  cell with that tag explains why in a comment (``# nbval-ignore-output: <reason>``);
* no error outputs, no tracebacks or warnings on stderr;
* code cells hold no numbers that belong in ``interlib``: no float literal and no arithmetic
  between two numeric literals, except in cells tagged ``worked-problem-input``;
* the reader's page (see ``STYLE.md``, "The reader's page"): every demo is one cell
  ``widgets.show("name")`` tagged ``remove-input`` and ``nbval-ignore-output`` whose
  ``text/html`` output (the site's view: controls, default figure, numbers, questions)
  shows the same numbers as the next cell, ``print(widgets.summary("name"))`` tagged
  ``remove-cell`` (so strict nbval compares every number the page shows); no cell draws a
  demo's figure a second time or prints its questions; and a code cell shown in full on
  the site is a worked problem's givens (``worked-problem-input``) or the call that answers
  them (the next code cell): every other code cell is hidden or collapsed with a tag;
* figures quoted in prose use ``{eval}`prose.name``` (myst-nb's ``{glue:text}`` shows only
  its key in JupyterLab), every expression has its value stored in the cell's
  ``user_expressions`` (``make execute``), one value per expression in a notebook; and
  the stored values are what a fresh run computes (tests/test_eval_expressions.py);
  an expression formats a value, it computes nothing (no ``+ - * / // % **`` in it).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from conftest import REPO, toc_notebooks

import sys  # noqa: E402

sys.path.insert(0, str(REPO / "tools"))
from execute_notebooks import eval_expressions  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
IGNORE_TAG = "nbval-ignore-output"
GIVENS_TAG = "worked-problem-input"
IGNORE_REASON = re.compile(r"#\s*nbval-ignore-output\s*[:\-\u2014]\s*\S.{9,}")
MIN_ALT = 15

NOTEBOOKS = toc_notebooks()


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _where(path: Path, index: int, cell) -> str:
    cid = cell.get("id")
    return f"{_rel(path)} cell {index}" + (f" (id {cid})" if cid else "")


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _outputs_mime(cell) -> set[str]:
    mimes: set[str] = set()
    for out in cell.get("outputs", []):
        mimes.update(out.get("data", {}).keys())
    return mimes


@pytest.fixture(params=NOTEBOOKS, ids=[_rel(p) for p in NOTEBOOKS] or None)
def notebook(request):
    path = request.param
    nb = nbformat.read(path, as_version=4)
    return path, nb


def test_toc_has_notebooks():
    assert NOTEBOOKS, "_toc.yml lists no notebook: the hygiene checks would check nothing"


def test_valid_nbformat(notebook):
    path, nb = notebook
    nbformat.validate(nb)


def test_fresh_sequential_execution(notebook):
    path, nb = notebook
    counts = [(i, c.execution_count) for i, c in enumerate(nb.cells)
              if c.cell_type == "code" and c.source.strip()]
    expected = list(range(1, len(counts) + 1))
    got = [n for _, n in counts]
    assert got == expected, (
        f"{_rel(path)}: execution counts {got}, expected {expected}. "
        "Re-run it top to bottom on a fresh kernel: make execute"
    )


def test_kernelspec_python3(notebook):
    path, nb = notebook
    name = nb.metadata.get("kernelspec", {}).get("name")
    assert name == "python3", f"{_rel(path)}: kernelspec name is {name!r}, must be 'python3'"


def test_first_cell_is_title(notebook):
    path, nb = notebook
    first = nb.cells[0] if nb.cells else None
    assert first is not None and first.cell_type == "markdown" and first.source.startswith("# "), (
        f"{_rel(path)}: the first cell must be markdown starting with '# Title' "
        "(Jupyter Book takes the page title from it; -W fails otherwise)"
    )


def test_figures_have_alt_text(notebook):
    path, nb = notebook
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "image/png" not in _outputs_mime(cell):
            continue
        alt = (cell.metadata.get("mystnb", {}).get("image", {}) or {}).get("alt", "")
        alt = alt.strip() if isinstance(alt, str) else ""
        if len(alt) < MIN_ALT or alt.lower().rstrip(".") in {"figure", "plot", "image", "graph"}:
            problems.append(
                f"{_where(path, i, cell)}: image/png output needs alt text of at least {MIN_ALT} "
                f'characters in cell metadata {{"mystnb": {{"image": {{"alt": "..."}}}}}}; '
                f"found {alt!r}"
            )
    assert not problems, "\n".join(problems)


def test_widget_state_saved(notebook):
    path, nb = notebook
    views = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view:
                views.append((i, view.get("model_id")))
    if not views:
        return
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state")
    assert state, (
        f"{_rel(path)}: has widget outputs but no saved widget state in metadata.widgets "
        f"[{WIDGET_STATE!r}]; execute with `make execute` (store_widget_state=True)"
    )
    missing = [f"cell {i}: model {mid}" for i, mid in views if mid not in state]
    assert not missing, f"{_rel(path)}: widget views without saved state: {missing}"


def test_nbval_ignore_output_tags(notebook):
    path, nb = notebook
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        has_widget = WIDGET_VIEW in _outputs_mime(cell)
        tagged = IGNORE_TAG in _tags(cell)
        if has_widget and not tagged:
            problems.append(f"{_where(path, i, cell)}: shows a widget but is not tagged "
                            f"{IGNORE_TAG!r} (strict nbval cannot compare widget output)")
        if tagged and not has_widget and not IGNORE_REASON.search(cell.source):
            problems.append(f"{_where(path, i, cell)}: tagged {IGNORE_TAG!r} without a widget "
                            f"output; explain why in a comment '# {IGNORE_TAG}: <reason>'")
    assert not problems, "\n".join(problems)


def test_no_errors_or_tracebacks(notebook):
    path, nb = notebook
    problems = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                problems.append(f"{_where(path, i, cell)}: error output "
                                f"{out.get('ename')}: {out.get('evalue')}")
            elif out.get("output_type") == "stream" and out.get("name") == "stderr":
                text = out.get("text", "")
                if re.search(r"Traceback|Error|Warning", text):
                    problems.append(f"{_where(path, i, cell)}: stderr shows "
                                    f"{text.strip().splitlines()[0][:160]!r}")
    assert not problems, "\n".join(problems)


# --- no formulas or spec values in code cells -------------------------------------------------

_TRANSFORMER = TransformerManager()


def _is_number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex))
            and not isinstance(node.value, bool))


def literal_problems(source: str) -> list[tuple[int, str]]:
    """(line, message) for each float literal and each arithmetic between two numeric
    literals in IPython source (magics are translated first)."""
    code = _TRANSFORMER.transform_cell(source)
    tree = ast.parse(code)
    lines = code.splitlines()
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and _is_number(node.left) and _is_number(node.right):
            found.append((node.lineno, f"arithmetic between numeric literals "
                                       f"`{ast.get_source_segment(code, node)}`"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, (float, complex))):
            found.append((node.lineno, f"float literal `{ast.get_source_segment(code, node)}`"))
    return sorted(set((ln, f"{msg}  | {lines[ln - 1].strip()[:100]}") for ln, msg in found))


def test_no_numbers_in_code_cells(notebook):
    path, nb = notebook
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or GIVENS_TAG in _tags(cell):
            continue
        try:
            found = literal_problems(cell.source)
        except SyntaxError as exc:
            problems.append(f"{_where(path, i, cell)} line {exc.lineno}: syntax error {exc.msg}")
            continue
        for line, msg in found:
            problems.append(f"{_where(path, i, cell)} line {line}: {msg}")
    assert not problems, (
        "Numbers belong in interlib (catalogue or model), not in notebook code. Move them, "
        f"or tag the cell {GIVENS_TAG!r} if they are a worked problem's givens:\n"
        + "\n".join(problems)
    )


@pytest.mark.parametrize("source, n", [
    ("x = 1e9", 1),
    ("y = 10 ** 9", 1),
    ("z = -2 * 3", 1),
    ("f(n=8)\n%matplotlib inline", 0),
    ("bw = 450 * GB_per_s", 0),
    ("a = b * 2", 0),
    ("t = 0.5", 1),
])
def test_literal_checker_itself(source, n):
    assert len(literal_problems(source)) == n, literal_problems(source)


_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
               ast.MatMult)


def eval_arithmetic(expr: str) -> list[str]:
    """The arithmetic in one ``{eval}`` expression (``a / b``, ``x * 100``): a figure the
    prose quotes is computed in ``interlib`` and only formatted in the notebook."""
    tree = ast.parse(expr, mode="eval")
    return [ast.get_source_segment(expr, n) for n in ast.walk(tree)
            if isinstance(n, ast.BinOp) and isinstance(n.op, _ARITHMETIC)]


def test_prose_expressions_hold_no_arithmetic(notebook):
    path, nb = notebook
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for expr in eval_expressions(cell.source):
            for part in eval_arithmetic(expr):
                problems.append(f"{_where(path, i, cell)}: {{eval}}`{expr}` computes `{part}`")
    assert not problems, (
        "Prose quotes values, it does not compute them: give the result a name in interlib "
        "(e.g. a worked derivation's d.v.<name>) and format that:\n" + "\n".join(problems))


@pytest.mark.parametrize("expr, n", [
    ("display.fmt_ratio(a.time_s / b.time_s)", 1),
    ('display.fmt_ratio(p["ring"].time_s / p["nvls"].time_s, 3)', 1),
    ("f'{x * 100:.0f} %'", 1),
    ("display.fmt_pct(d.v.share)", 0),
    ('f"{taper:g}"', 0),
    ("prose.count", 0),
    ("-x", 0),
])
def test_eval_arithmetic_checker_itself(expr, n):
    assert len(eval_arithmetic(expr)) == n, eval_arithmetic(expr)


def test_footcite_has_footbibliography(notebook):
    # Without a {footbibliography} on the page, {footcite} references dangle silently in HTML.
    path, nb = notebook
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    if "{footcite" in text:
        assert "{footbibliography}" in text, (
            f"{_rel(path)}: uses {{footcite}} but has no {{footbibliography}} directive "
            "(put one under the chapter's References heading)")


def test_prose_figures_are_stored_inline_expressions(notebook):
    path, nb = notebook
    problems = []
    seen: dict[str, object] = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        if re.search(r"\{glue(:\w+)?\}`", cell.source):
            problems.append(f"{_where(path, i, cell)}: uses {{glue}}, which JupyterLab "
                            f"cannot show; quote figures with {{eval}}`prose.name`")
        stored = {item["expression"]: item["result"]
                  for item in cell.metadata.get("user_expressions", [])}
        for expr in eval_expressions(cell.source):
            result = stored.get(expr)
            if result is None or result.get("status") != "ok":
                problems.append(f"{_where(path, i, cell)}: {{eval}}`{expr}` has no stored "
                                f"value: run make execute")
                continue
            value = result.get("data", {}).get("text/plain")
            if seen.setdefault(expr, value) != value:
                problems.append(f"{_where(path, i, cell)}: {{eval}}`{expr}` is {value}, "
                                f"earlier {seen[expr]}: one value per expression")
        extra = set(stored) - set(eval_expressions(cell.source))
        if extra:
            problems.append(f"{_where(path, i, cell)}: stale stored expressions {sorted(extra)}")
    assert not problems, "\n".join(problems)


# --- the reader's page: demos once, numbers guarded, no plumbing on show ---------------------

SHOW = re.compile(r'^widgets\.show\("(?P<name>\w+)"\)\s*$')
SUMMARY = re.compile(r'^print\(widgets\.summary\("(?P<name>\w+)"\)(, end="")?\)\s*$')
HIDING_TAGS = {"remove-cell", "remove-input", "hide-cell", "hide-input"}
_NUMBERS = re.compile(r'<div class="interlib-numbers"><pre[^>]*>(?P<text>.*?)</pre></div>',
                      re.S)


def _code_cells(nb):
    return [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


def _stream_text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")


def _html_output(cell) -> str:
    for out in cell.get("outputs", []):
        html_ = out.get("data", {}).get("text/html")
        if html_:
            return "".join(html_) if isinstance(html_, list) else html_
    return ""


def test_demo_cells_show_once_and_guard_their_numbers(notebook):
    import html as html_mod

    from interlib import widgets

    path, nb = notebook
    cells = _code_cells(nb)
    problems = []
    for k, (i, cell) in enumerate(cells):
        if "widgets.show(" in cell.source and not SHOW.match(cell.source.strip()):
            problems.append(f"{_where(path, i, cell)}: widgets.show(...) must be the whole "
                            "cell (one demo per cell)")
            continue
        m = SHOW.match(cell.source.strip())
        if not m:
            continue
        name = m["name"]
        missing = {"remove-input", IGNORE_TAG} - set(_tags(cell))
        if missing:
            problems.append(f"{_where(path, i, cell)}: demo {name!r} lacks tags "
                            f"{sorted(missing)}")
        if name not in widgets.DEMOS:
            problems.append(f"{_where(path, i, cell)}: no demo named {name!r}")
            continue
        shown = _NUMBERS.search(_html_output(cell))
        if shown is None:
            problems.append(f"{_where(path, i, cell)}: demo {name!r} has no stored text/html "
                            "rendering with its numbers: run make execute")
        if widgets.DEMOS[name].summary is None:
            continue
        nxt = cells[k + 1][1] if k + 1 < len(cells) else None
        sm = SUMMARY.match(nxt.source.strip()) if nxt is not None else None
        if sm is None or sm["name"] != name:
            problems.append(f"{_where(path, i, cell)}: demo {name!r} must be followed by "
                            f'the cell print(widgets.summary("{name}"))')
            continue
        j = cells[k + 1][0]
        if "remove-cell" not in _tags(nxt):
            problems.append(f"{_where(path, j, nxt)}: the summary of {name!r} is shown by "
                            "the demo already: tag its cell remove-cell")
        printed = _stream_text(nxt)
        if not printed.strip():
            problems.append(f"{_where(path, j, nxt)}: stores no printed summary "
                            "(strict nbval would compare nothing): run make execute")
        elif shown is not None and html_mod.unescape(shown["text"]).strip() != printed.strip():
            problems.append(f"{_where(path, i, cell)}: the numbers the page shows for "
                            f"{name!r} differ from the printed summary that nbval checks:\n"
                            f"  shown:   {html_mod.unescape(shown['text']).strip()[:200]!r}\n"
                            f"  printed: {printed.strip()[:200]!r}")
    assert not problems, "\n".join(problems)


def _demo_figure_calls() -> dict[str, str]:
    """``{"plots.chNN.func": demo name}`` for every demo whose figure is a plots function."""
    from interlib import widgets

    calls = {}
    for name, demo in widgets.DEMOS.items():
        mod = getattr(demo.func, "__module__", "")
        if mod.startswith("interlib.plots."):
            calls[f"plots.{mod.rsplit('.', 1)[1]}.{demo.func.__name__}"] = name
    return calls


def test_no_second_copy_of_a_demo_figure_or_its_questions(notebook):
    path, nb = notebook
    calls = _demo_figure_calls()
    problems = []
    for i, cell in _code_cells(nb):
        for call, name in calls.items():
            if re.search(re.escape(call) + r"\s*\(", cell.source):
                problems.append(f"{_where(path, i, cell)}: draws {call}(), the figure of demo "
                                f"{name!r}, which the demo already shows")
        if "widgets.questions(" in cell.source:
            problems.append(f"{_where(path, i, cell)}: widgets.questions(...): the demo shows "
                            "its questions (with answers) itself")
    assert not problems, "\n".join(problems)


def test_demo_figure_calls_found():
    # The check above is blind if no demo draws through interlib.plots.
    assert len(_demo_figure_calls()) >= 10


def test_only_teaching_code_is_shown(notebook):
    """A code cell the site shows in full is a worked problem's givens or the call right
    after them; everything else (imports, prose figures, tables, plots, demos) is hidden
    (remove-cell, remove-input) or collapsed (hide-input, hide-cell)."""
    path, nb = notebook
    problems = []
    prev = None
    for i, cell in _code_cells(nb):
        tags = set(_tags(cell))
        teaching = GIVENS_TAG in tags or (prev is not None and GIVENS_TAG in _tags(prev))
        if cell.source.strip() and not tags & HIDING_TAGS and not teaching:
            problems.append(f"{_where(path, i, cell)}: shown on the site but not a worked "
                            "problem: tag it remove-cell (no output), remove-input (a table "
                            "or figure) or hide-input (printed numbers): "
                            f"{cell.source.strip().splitlines()[0][:70]!r}")
        prev = cell
    assert not problems, "\n".join(problems)
