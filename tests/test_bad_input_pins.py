"""Every bad-input check pins the parameter it is about, exactly.

A check ``pytest.raises(ValueError, match="n")`` passes for any message that contains the
letter n, so it cannot tell whether the library named the right parameter; nor can
``match="gpu"`` (it matches ``gpus_per_node=...``) or ``match="d="`` (it matches
``speed=...``: ``re.search`` finds it anywhere). The library's messages start with the
parameter in its ``name=value`` form (``interlib/_validate.py``), so a check matches that
form at the start of the message (``"^n="``), or the parameter after a delimiter of the
message (``"frame: n="``), or a longer piece of the exact message.

This test reads every test file (AST; no file is exempt) and fails on a ``match=`` that is

* a bare word or phrase (letters, digits, underscores and spaces only), or
* starts with ``name=`` without the ``^`` anchor (``name`` could be the end of a longer
  parameter name),

either written at the ``pytest.raises`` call or passed in through a ``parametrize`` list.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")
# ``name=`` at the very start of an unanchored pattern: a suffix of any longer name matches
UNANCHORED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _loose(pattern: str) -> bool:
    """Whether a ``match=`` pattern cannot tell the parameter it names from another."""
    return bool(BARE.fullmatch(pattern) or UNANCHORED.match(pattern))


def _bare_matches(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    found = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "raises"):
            continue
        match = next((k.value for k in call.keywords if k.arg == "match"), None)
        if isinstance(match, ast.Constant) and isinstance(match.value, str):
            if _loose(match.value):
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
                            and _loose(item.value):
                        found.append(f"{path.name}:{item.lineno}: {match.id}={item.value!r}")
    return found


def test_the_check_finds_a_bare_word(tmp_path):
    f = tmp_path / "test_x.py"
    f.write_text("import pytest\n"
                 "@pytest.mark.parametrize('call, name', [(f, 'n'), (g, '^k=')])\n"
                 "def test_a(call, name):\n"
                 "    with pytest.raises(ValueError, match=name):\n        call()\n"
                 "def test_b():\n"
                 "    with pytest.raises(ValueError, match='gpu'):\n        pass\n"
                 "    with pytest.raises(ValueError, match='d=3'):\n        pass\n"
                 "    with pytest.raises(ValueError, match='^d=3'):\n        pass\n"
                 "    with pytest.raises(ValueError, match='frame: d=3'):\n        pass\n")
    assert _bare_matches(f) == ["test_x.py:2: name='n'", "test_x.py:7: match='gpu'",
                                "test_x.py:9: match='d=3'"]


def test_a_loose_pin_matches_a_longer_parameter_name():
    # why the rule exists: each loose pattern accepts a message about another parameter
    import re as _re
    for loose, other in (("gpu", "gpus_per_node=9 is out of range"),
                         ("d=", "speed=-1 is out of range"),
                         ("nvls=False", "use_nvls=False is not allowed")):
        assert _loose(loose) and _re.search(loose, other)
    for exact, other in (("^gpu=", "gpus_per_node=9 is out of range"),
                         ("^d=", "speed=-1 is out of range")):
        assert not _loose(exact) and not _re.search(exact, other)


@pytest.mark.parametrize("path", sorted(TESTS.glob("test_*.py")), ids=lambda p: p.name)
def test_no_bad_input_check_matches_a_bare_word(path):
    assert _bare_matches(path) == []
