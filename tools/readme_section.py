"""Replace one generated section of a README in place, between its BEGIN and END markers.

The vendoring scripts (``tools/vendor_assets.sh``, ``tools/vendor_pyodide.py``) each own one
section of ``book/_vendor/README.md``; the benchmark (``tools/bench.py --readme``) and the
mutation score (``tools/mutation.py --readme``) each own one of :data:`DEVELOPER_GUIDE`
(their tables moved there from README.md, which is the readers' front door). A re-run
rewrites only its own section, so ``git diff`` shows whether anything changed. A README
without the section gets it appended.

    python tools/readme_section.py README SECTION_FILE BEGIN END
"""

from __future__ import annotations

import sys
from pathlib import Path

DEVELOPER_GUIDE = Path(__file__).resolve().parent.parent / "CONTRIBUTING.md"
"""The developer's guide, where the generated benchmark and mutation tables live."""


def splice(readme: Path, section: str, begin: str, end: str, new: str = "") -> None:
    """Write ``section`` (which starts with ``begin`` and ends with ``end``) into
    ``readme`` in place of the text between those markers, or append it if they are absent.
    A missing ``readme`` starts as ``new``."""
    text = readme.read_text() if readme.exists() else new
    if begin in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    readme.write_text(text)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: readme_section.py README SECTION_FILE BEGIN END")
    splice(Path(sys.argv[1]), Path(sys.argv[2]).read_text().rstrip("\n"), sys.argv[3],
           sys.argv[4])
