"""A graded assignment's notebook: each student's own variant, and a check of form only.

An instructor's ``make assignments SEED=n ROSTER=...`` writes one notebook per problem set.
The notebook asks for the student's id, and :class:`Sheet` shows that student's variant of
every problem (the statement and givens only: the notebook carries no answer), then says
how the grader will read each answer (:meth:`Sheet.form`): a number in the problem's unit,
never whether it is right. The grader's hidden tests hold the frozen keys of every variant
and find the student's variant from the id by the same rule as :func:`variant`, written
there with plain operators only.

The rule, id to variant (public; the instructor's tool chooses ``salt`` and ``disp`` so
that the ids of the class list get different variants):

1. ``h(text)``: 64-bit FNV-1a over the UTF-8 bytes of ``text``.
2. The id is stripped and lower-cased; its bucket is ``h(salt + "/b/" + id) % len(disp)``;
   its variant is ``h(salt + "/" + disp[bucket] + "/" + id) % variants``.
3. A variant number ``v`` is three digits base ``q`` (``v = a0 + q·a1 + q²·a2``); problem
   ``j`` of the set gets symbol ``(a0 + a1·j + a2·j²) % q``, which picks its givens. Two
   different variants agree on at most two problems of a set (two polynomials of degree 2
   agree on at most two points), so with at most seven problems a set, two students share
   at most a third of their answers.

:class:`RequireEdition` is the autograder's plugin (``otter_config.json``): loading it
imports this package, so a grader that cannot import ``interlib``, or has another edition,
stops with an error instead of scoring every submission 0.
"""

from __future__ import annotations

import html

from .. import _validate as v
from . import answers

_MASK = 0xFFFFFFFFFFFFFFFF


def fnv(text: str) -> int:
    """64-bit FNV-1a of ``text``'s UTF-8 bytes.

    >>> fnv("")
    14695981039346656037
    >>> hex(fnv("a"))
    '0xaf63dc4c8601ec8c'
    """
    h = 14695981039346656037
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 1099511628211) & _MASK
    return h


def normal_id(student_id: str) -> str:
    """An id as the rule reads it: stripped, lower-cased."""
    return student_id.strip().lower()


def variant(student_id: str, salt: str, disp: tuple, variants: int) -> int:
    """The variant number (0 to ``variants`` − 1) of ``student_id`` (module docstring)."""
    v.instance("student_id", student_id, str, "text (your student id)")
    sid = normal_id(student_id)
    bucket = fnv(salt + "/b/" + sid) % len(disp)
    return fnv(salt + "/" + disp[bucket] + "/" + sid) % variants


def symbol(number: int, j: int, q: int) -> int:
    """Problem ``j``'s symbol (0 to ``q`` − 1) in variant ``number``."""
    a0, a1, a2 = number % q, (number // q) % q, number // (q * q)
    return (a0 + a1 * j + a2 * j * j) % q


class _Markdown:
    def __init__(self, text: str):
        self.text = text

    def _repr_markdown_(self):
        return self.text

    def __repr__(self):
        return self.text


class Sheet:
    """A problem set's student side (written into the notebook by ``make assignments``):
    ``{"name", "salt", "disp", "q", "problems": [{"key", "title", "difficulty", "unit",
    "points", "statements": [q texts]}]}`` (no answers)."""

    def __init__(self, data: dict):
        self.name = data["name"]
        self.salt = data["salt"]
        self.disp = tuple(data["disp"])
        self.q = int(data["q"])
        self.problems = {p["key"]: dict(p, j=j) for j, p in enumerate(data["problems"])}

    def _variant(self, student_id):
        if not isinstance(student_id, str) or not student_id.strip():
            return None
        return variant(student_id, self.salt, self.disp, self.q ** 3)

    def _key(self, key):
        k = key.strip().upper() if isinstance(key, str) else None
        return k if k in self.problems else None

    def _no_key(self, key) -> str:
        return (f"There is no problem {key!r} in {self.name}: its problems are "
                f"{', '.join(self.problems)}.")

    def show(self, key: str, student_id) -> _Markdown:
        """Problem ``key`` as student ``student_id`` must solve it (a message, never an
        error, for a key or an id it cannot use)."""
        k = self._key(key)
        if k is None:
            return _Markdown(self._no_key(key))
        p = self.problems[k]
        key = k
        n = self._variant(student_id)
        head = (f"**Problem {key}: {html.escape(p['title'])}** ({p['difficulty']}, "
                f"{p['points']} point{'s' if p['points'] != 1 else ''})\n\n")
        if n is None:
            if student_id is not None and not isinstance(student_id, str):
                return _Markdown(head + f"*Write your student id as text, in quotes: "
                                 f"student_id = \"{html.escape(str(student_id))}\" (the "
                                 "grader reads text).*")
            return _Markdown(head + "*Set `student_id` above to your student id (as your "
                             "instructor's class list has it) and run the notebook again: "
                             "your numbers depend on it.*")
        text = p["statements"][symbol(n, p["j"], self.q)]
        unit = f" Answer with a number in {p['unit']}." if p["unit"] else \
            " Answer with a number."
        return _Markdown(head + text + f"\n\n*Variant {n} (student id "
                         f"\u201c{html.escape(normal_id(student_id))}\u201d).{unit}*")

    def form(self, key: str, value) -> str:
        """How the grader will read ``value`` as the answer to ``key`` (never whether it is
        right): a number in the problem's unit, or what to change."""
        k = self._key(key)
        if k is None:
            return self._no_key(key)
        key = k
        unit = self.problems[key]["unit"]
        var = f"answer_{key.lower()}"
        u = f" {unit}" if unit else ""
        if value is None:
            return f"{var}: not answered yet (a number, in {unit or 'no unit'})."
        x = answers.as_number(value)
        if x is not None:
            if x != x or x in (float("inf"), float("-inf")):
                return f"{var}: {x!r} is not a finite number; the grader would count it wrong."
            return f"{var} will be graded as {answers.fmt(x)}{u}."
        if isinstance(value, str):
            r = answers.read(value, unit)
            if r[0] == "invalid":
                return f"{var}: {r[1]}"
            return (f"{var}: the grader reads a number, not text. Write "
                    f"{var} = {r[0]!r} (that is {answers.fmt(r[0])}{u}).")
        return (f"{var}: the grader reads a number in {unit or 'no unit'}, not "
                f"{type(value).__name__}.")


class RequireEdition:
    """otter-grader plugin: stop grading unless this exact ``interlib`` edition is
    installed (``config["version"]``). Loading it imports ``interlib`` (no module: otter
    stops with ``No module named 'interlib'``)."""

    def __init__(self, submission_path=None, submission_metadata=None, config=None):
        from importlib import metadata

        want = (config or {}).get("version")
        try:
            got = metadata.version("interlib")
        except metadata.PackageNotFoundError:
            got = None
        if want and got != want:
            raise RuntimeError(f"this autograder needs interlib {want} (its wheel is in the "
                               f"autograder zip), but the grading environment has "
                               f"{got or 'no installed interlib'}: every submission would "
                               "be graded wrong. Install the zip's wheel.")
        self.version = got
