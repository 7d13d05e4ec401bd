"""Every bad-input check pins the parameter it is about.

A check ``pytest.raises(ValueError, match="n")`` passes for any message that contains the
letter n, so it cannot tell whether the library named the right parameter. The library's
messages start with the parameter in its ``name=value`` form (``interlib/_validate.py``),
so a check matches that form at the start of the message (``"^n="``) or the exact message.
This test reads the test files (AST) and fails on a ``match=`` that is a bare word, either
written at the ``pytest.raises`` call or passed in through a ``parametrize`` list.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# files other helpers own (they hold their own checks to the same rule)
OTHERS = {"test_validation.py", "test_collectives_at_scale.py", "test_nccltests.py",
          "test_open_book.py", "test_pdf.py", "test_measurements_data.py"}
BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")


def _bare_matches(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    found = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "raises"):
            continue
        match = next((k.value for k in call.keywords if k.arg == "match"), None)
        if isinstance(match, ast.Constant) and isinstance(match.value, str):
            if BARE.fullmatch(match.value):
                found.append(f"{path.name}:{call.lineno}: match={match.value!r}")
        elif isinstance(match, ast.Name):
            fn = min((f for f in funcs if f.lineno <= call.lineno <= f.end_lineno),
                     key=lambda f: f.end_lineno - f.lineno, default=None)
            for dec in fn.decorator_list if fn else ():
                if not (isinstance(dec, ast.Call) and getattr(dec.func, "attr", "") ==
                        "parametrize" and isinstance(dec.args[0], ast.Constant)):
                    continue
                names = [x.strip() for x in dec.args[0].value.split(",")]
                if match.id not in names or not isinstance(dec.args[1], (ast.List, ast.Tuple)):
                    continue
                i = names.index(match.id)
                for el in dec.args[1].elts:
                    item = el.elts[i] if isinstance(el, ast.Tuple) else el
                    if isinstance(item, ast.Constant) and isinstance(item.value, str) \
                            and BARE.fullmatch(item.value):
                        found.append(f"{path.name}:{item.lineno}: {match.id}={item.value!r}")
    return found


def test_the_check_finds_a_bare_word(tmp_path):
    f = tmp_path / "test_x.py"
    f.write_text("import pytest\n"
                 "@pytest.mark.parametrize('call, name', [(f, 'n'), (g, '^k=')])\n"
                 "def test_a(call, name):\n"
                 "    with pytest.raises(ValueError, match=name):\n        call()\n"
                 "def test_b():\n"
                 "    with pytest.raises(ValueError, match='gpu'):\n        pass\n")
    assert _bare_matches(f) == ["test_x.py:2: name='n'", "test_x.py:7: match='gpu'"]


@pytest.mark.parametrize("path", sorted(p for p in TESTS.glob("test_*.py")
                                        if p.name not in OTHERS), ids=lambda p: p.name)
def test_no_bad_input_check_matches_a_bare_word(path):
    assert _bare_matches(path) == []
