"""A front door per reader (issue 34, item 8): README.md is for readers and instructors
(what the book is, the two commands, where to go next) in at most :data:`README_MAX_LINES`
lines; the developer's material is in CONTRIBUTING.md, where the generated benchmark and
mutation tables are written (``tools/readme_section.DEVELOPER_GUIDE``)."""

from __future__ import annotations

import re
import shutil
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import readme_section  # noqa: E402

README_MAX_LINES = 150
README = REPO / "README.md"
GUIDE = REPO / "CONTRIBUTING.md"


def _headings(path) -> list[str]:
    return re.findall(r"(?m)^##+ (.+)$", path.read_text())


def test_readme_is_a_short_front_door():
    text = README.read_text()
    lines = text.splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    assert "make book" in text and "make test" in text
    assert "(CONTRIBUTING.md)" in text, "the README must link the developer's guide"
    # what it is, how to read it, how to teach with it, where to go next
    for heading in ("Two commands", "Reading it interactively", "Teaching with the book",
                    "Where to go next"):
        assert heading in _headings(README), heading
    # no developer internals: those sections live in CONTRIBUTING.md
    for heading in ("Locks", "Mutation score", "Benchmarks", "Layout", "Where the code lives",
                    "Writing notebooks: what the tests enforce"):
        assert heading not in _headings(README), heading
        assert heading in _headings(GUIDE), heading


def test_generated_tables_live_in_the_developers_guide(tmp_path):
    assert readme_section.DEVELOPER_GUIDE == GUIDE
    text = GUIDE.read_text()
    for begin, end in (("<!-- bench:start -->", "<!-- bench:end -->"),
                       ("<!-- mutation:start -->", "<!-- mutation:end -->")):
        assert text.count(begin) == 1 and text.count(end) == 1, begin
        assert text.index(begin) < text.index(end)
    assert "<!-- bench:start -->" not in README.read_text()
    # the writers' splice replaces the section in place, leaving the rest as it was
    copy = tmp_path / "CONTRIBUTING.md"
    shutil.copy(GUIDE, copy)
    begin, end = "<!-- mutation:start -->", "<!-- mutation:end -->"
    readme_section.splice(copy, f"{begin}\nnew table\n{end}", begin, end)
    new = copy.read_text()
    assert f"{begin}\nnew table\n{end}" in new
    assert new.replace(f"{begin}\nnew table\n{end}", "") == \
        re.sub(re.escape(begin) + ".*?" + re.escape(end), "", text, flags=re.S)
    for tool in ("bench.py", "mutation.py"):
        source = (REPO / "tools" / tool).read_text()
        assert 'REPO / "README.md"' not in source and "DEVELOPER_GUIDE" in source, tool


def test_no_section_named_elsewhere_is_missing():
    """A test's, a tool's, the Makefile's or a book page's pointer to a section (the
    file's name, then the heading in double quotes: `CONTRIBUTING.md, "Locks"`, `the
    README's "Forking"`) names a heading of the file it names."""
    files = {"README": set(_headings(README)), "CONTRIBUTING.md": set(_headings(GUIDE))}
    missing = []
    for path in [*(REPO / "tests").glob("*.py"), *(REPO / "tools").glob("*.py"),
                 REPO / "Makefile", *(REPO / "book").glob("*.md")]:
        for m in re.finditer(r'(README|CONTRIBUTING\.md)(?:\'s)?,?\s\(?"(?:#+ )?([^"]+)"',
                             path.read_text()):
            if m.group(2) not in files[m.group(1)]:
                missing.append(f"{path.name}: {m.group(0)}")
    assert not missing, "\n".join(missing)
