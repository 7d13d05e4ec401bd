"""Two editions from one source (issue 27 item 1).

The student edition (`make book`: the site, its JupyterLite edition, and the repository
Binder serves) carries no worked solution and no answer key; the instructor edition
(`make instructor`) generates the key, executes it and checks every answer.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from conftest import HTML, REPO
from interlib.book import problems as book

sys.path.insert(0, str(REPO / "tools"))
import instructor_edition  # noqa: E402
from course import keys, problems  # noqa: E402

# what only the instructor's material carries (the guide may name the key's file)
MARKERS = ("instructor-only", "Instructor's key", "keys.solution(", "keys.answer(")


def _toc_files(node) -> list[str]:
    out = []
    if isinstance(node, dict):
        for k, x in node.items():
            out += [x] if k in ("file", "root") else _toc_files(x)
    elif isinstance(node, list):
        for x in node:
            out += _toc_files(x)
    return out


def test_the_student_toc_and_repository_hold_no_solutions():
    files = _toc_files(yaml.safe_load((REPO / "_toc.yml").read_text()))
    assert "book/problems_1_2" in files and not any("solution" in f for f in files)
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    assert keys.SOLUTIONS_PATH not in tracked
    assert "/" + keys.SOLUTIONS_PATH in (REPO / ".gitignore").read_text()
    # Binder serves the repository: no tracked notebook calls the instructor's API
    for f in tracked:
        if f.endswith(".ipynb"):
            src = "".join("".join(c["source"]) for c in
                          json.loads((REPO / f).read_text())["cells"])
            assert not any(m in src for m in MARKERS[2:]), f


def test_answers_and_solutions_are_not_the_students_api():
    assert not hasattr(book, "answer") and not hasattr(book, "solution")
    p = book.show("A1")
    shown = json.dumps(p._repr_mimebundle_())
    assert "Step by step" not in shown and "Check with interlib" not in shown


def test_make_instructor_leaves_the_students_tree_as_it_was():
    """Issue 35: `make test` failed after `make instructor` (a test counted the generated
    key notebook). The build removes it from book/ when done (the built edition keeps it)."""
    path = REPO / keys.SOLUTIONS_PATH
    assert not path.exists()
    assert instructor_edition.main(["--seed", "11", "--no-build"]) == 0
    assert not path.exists()
    before = sorted(p.name for p in (REPO / "book").glob("*.ipynb"))
    assert "problems_solutions.ipynb" not in before


@pytest.mark.parametrize("seed", [0])
def test_the_instructor_key_is_generated_executed_and_right(tmp_path, seed):
    path = instructor_edition.generate(seed, tmp_path / "problems_solutions.ipynb")
    assert instructor_edition.problems_in(path) == []
    nb = json.loads(path.read_text())
    src = "".join("".join(c["source"]) for c in nb["cells"])
    for ks in problems.SETS.values():
        for k in ks:
            assert f'keys.solution("{k}", {seed})' in src
    # the key's table carries every answer of this seed
    table = keys.key_table(seed)
    assert all(f"| {k}: " in table for ks in problems.SETS.values() for k in ks)
    # and can fail: a wrong answer is not "right"
    nb_bad = json.loads(path.read_text())
    for c in nb_bad["cells"]:
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream" and "".join(o["text"]).startswith("right:"):
                o["text"] = "wrong: planted"
                break
        else:
            continue
        break
    bad = tmp_path / "bad.ipynb"
    bad.write_text(json.dumps(nb_bad))
    assert instructor_edition.problems_in(bad)


def test_the_instructor_toc_adds_the_key_and_nothing_else():
    toc = yaml.safe_load(instructor_edition.write_toc().read_text())
    student = _toc_files(yaml.safe_load((REPO / "_toc.yml").read_text()))
    assert _toc_files(toc) == student + list(instructor_edition.INSTRUCTOR_PAGES)


def test_the_built_student_site_and_jupyterlite_carry_no_solutions(book_build):
    assert book_build.returncode == 0, book_build.output[-3000:]
    hits = []
    for f in HTML.rglob("*"):
        if f.is_file() and f.suffix in (".html", ".ipynb", ".json", ".txt", ".js") \
                and "_vendor" not in f.parts and "pyodide" not in f.parts:
            text = f.read_text(encoding="utf-8", errors="replace")
            hits += [f"{f.relative_to(HTML)}: {m}" for m in MARKERS if m in text]
    assert (HTML / "lite").is_dir()
    assert not list(HTML.rglob("problems_solutions*"))
    assert not hits, hits[:20]
    # no "show the answer" toggle next to a quiz or a problem
    for page in ("chapters/04_nvswitch.html", "book/problems_1_2.html"):
        text = (HTML / page).read_text(encoding="utf-8")
        assert "interlib-quiz-check" in text and "Show the answer" not in text


# what the key generator, the variants and the worked solutions look like in code: none
# of it may be in the wheel the site, JupyterLite and live demos load
KEY_CODE = ("def variants(", "V.pick(", "_BUILDERS", "def key_table", "solutions_notebook",
            "def solution(", "problems_fresh", "def chosen(", ".solution", "Derivation(")


def _wheel_problems(whl) -> list[str]:
    import zipfile

    bad = []
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            if not name.startswith("interlib/"):
                continue
            base = name.rsplit("/", 1)[-1]
            if base in ("instructor.py", "problems_fresh.py", "keys.py", "grading.py",
                        "exam_bank.py"):
                bad.append(f"{name}: an instructor's module")
            if name.startswith("interlib/book/") and name.endswith(".py") \
                    and base != "worked.py":
                text = z.read(name).decode()
                bad += [f"{name}: {m}" for m in KEY_CODE if m in text]
    return bad


def test_the_site_wheel_carries_no_key_generator(book_build):
    """Issue 35: the wheel on the site (live demos, JupyterLite) printed any seed's key.
    The built site's own wheel is opened; the check can fail (a wheel of tools/course)."""
    import zipfile

    assert book_build.returncode == 0, book_build.output[-3000:]
    (whl,) = (HTML / "_static").glob("interlib-*.whl")
    assert _wheel_problems(whl) == []
    lite = list((HTML / "lite").rglob("interlib-*.whl"))
    assert lite and all(_wheel_problems(w) == [] for w in lite)
    # the check bites: a wheel that carries the instructor's builders fails it
    planted = HTML.parent / "planted.whl"
    with zipfile.ZipFile(planted, "w") as z:
        z.write(REPO / "tools" / "course" / "problems.py", "interlib/book/problems.py")
        z.write(REPO / "tools" / "course" / "keys.py", "interlib/book/keys.py")
    try:
        assert len(_wheel_problems(planted)) >= 3
    finally:
        planted.unlink()


def test_handouts_one_per_session_without_answers(tmp_path):
    """Issue 35 item 7: a name and id field, room to work, no heading alone at a page's
    foot; tagged PDF with the session's title (pdfinfo) and no answer in the text."""
    import re
    import subprocess

    from browser_support import require_chromium
    from pypdf import PdfReader

    require_chromium()
    import handouts

    paths = handouts.build(0, tmp_path)
    assert [p.name for p in paths] == [f"session-{k}.pdf" for k in handouts.SESSIONS]
    for k, path in zip(handouts.SESSIONS, paths):
        reader = PdfReader(path)
        text = " ".join(" ".join(pg.extract_text().split()) for pg in reader.pages)
        title, quiz_names, sets = handouts.SESSIONS[k]
        headings = ["Exit tickets"]
        for s in sets:
            headings.append(f"Problem set {s}")
            for key in problems.SETS[s]:
                assert problems.get(key).title.split()[0] in text
                headings.append(f"{key}. {problems.get(key).title}")
        assert "Right:" not in text and "Step by step" not in text and "Not quite" not in text
        assert "Name:" in text and "Student id:" in text
        assert text.count("Method:") == sum(len(problems.SETS[s]) for s in sets)
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                              check=True).stdout
        assert re.search(r"^Tagged:\s+yes$", info, re.M), info
        assert re.search(rf"^Title:\s+Session {k}: {re.escape(title)}$", info, re.M), info
        html_ = handouts.session_html(k)
        assert "<html lang='en'>" in html_ and html_.count("class='work'") == len(headings) - 1 \
            - len(sets)
        # no orphan heading: a page never ends on a heading
        for i in range(1, len(reader.pages) + 1):
            page = subprocess.run(["pdftotext", "-f", str(i), "-l", str(i), "-layout",
                                   str(path), "-"], capture_output=True, text=True,
                                  check=True).stdout
            lines = [ln.strip() for ln in page.splitlines() if ln.strip()]
            assert not any(lines[-1].startswith(h) for h in headings), (k, i, lines[-1])
