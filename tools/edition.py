"""Which edition of the book this is: version, date and commit, for the page footers
(``book/_ext/open_book.py``), the PDF's title page (``tools/build_pdf.py``), the release
archives (``tools/release.py``) and the tests.

The version is held in one place, ``[project] version`` in ``pyproject.toml``
(``interlib.__version__`` and the site's interlib wheel read it from there;
``CITATION.cff`` and the top section of ``CHANGELOG.md`` must match it, which
``tests/test_open_book.py`` checks). The commit and date come from git at build time:

* in a clean git checkout: the commit (12 hex digits) and its commit date (UTC), so two
  builds of one commit say the same;
* with uncommitted changes to tracked files: the commit plus ``+modified`` and today's date
  (UTC), so a page never claims to be exactly a commit it is not;
* without git or outside a checkout (a source tarball): ``INTERCONNECTS_COMMIT`` if set,
  otherwise "unknown (not built from a git checkout)", and today's date. The build never
  fails for want of git.

    python tools/edition.py            # prints e.g. "1.2.3, 2026-11-26, commit 0050a06abcde"
    python tools/edition.py --version  # prints the version only (make release uses it)
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NO_COMMIT = "unknown (not built from a git checkout)"


@dataclass(frozen=True)
class Edition:
    version: str
    date: str           # YYYY-MM-DD
    commit: str | None  # 12 hex digits, "+modified" appended for a dirty tree; None without git
    repository: str     # the repository URL from _config.yml

    @property
    def commit_text(self) -> str:
        return self.commit or NO_COMMIT

    @property
    def text(self) -> str:
        """"Edition 1.2.3, 2026-11-26, commit 0050a06abcde"."""
        return f"Edition {self.version}, {self.date}, commit {self.commit_text}"

    @property
    def commit_url(self) -> str | None:
        if not self.commit or self.commit.endswith("+modified"):
            return None
        return f"{self.repository}/commit/{self.commit}"


def version(repo: Path = REPO) -> str:
    """The book's and interlib's version: ``[project] version`` of pyproject.toml."""
    return tomllib.loads((repo / "pyproject.toml").read_text())["project"]["version"]


def repository_url(repo: Path = REPO) -> str:
    import yaml

    config = yaml.safe_load((repo / "_config.yml").read_text())
    return str(config["repository"]["url"]).rstrip("/")


def _git(repo: Path, *args: str) -> str | None:
    if not shutil.which("git") or not (repo / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                             timeout=30, env={**os.environ, "TZ": "UTC"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _today() -> str:
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


def edition(repo: Path = REPO) -> Edition:
    """The edition being built from ``repo`` (module docstring)."""
    commit = _git(repo, "rev-parse", "--short=12", "HEAD")
    if commit is None:
        commit = os.environ.get("INTERCONNECTS_COMMIT") or None
        return Edition(version(repo), _today(), commit, repository_url(repo))
    # Commit dates are given in UTC (TZ=UTC with format-local). Tracked files only: the build output and the venv are untracked (and ignored).
    dirty = _git(repo, "status", "--porcelain", "--untracked-files=no")
    if dirty:
        return Edition(version(repo), _today(), commit + "+modified", repository_url(repo))
    date = _git(repo, "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d")
    return Edition(version(repo), date or _today(), commit, repository_url(repo))


@functools.lru_cache(maxsize=None)
def current() -> Edition:
    """:func:`edition` of this repository, computed once per process (one build)."""
    return edition(REPO)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:
        print(version())
    else:
        e = current()
        print(f"{e.version}, {e.date}, commit {e.commit_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
