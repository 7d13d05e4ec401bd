"""interlib: the computation package behind *Interconnects*.

Data flows one way: catalogue (:mod:`interlib.specs`) -> models (:mod:`~interlib.transfer`,
:mod:`~interlib.collectives`, ...) -> plots and widgets -> notebook cells.
"""

from . import collectives, specs, transfer, units


def _version() -> str:
    """The installed version: ``[project] version`` of pyproject.toml, the one place it is
    held (the book's edition; tools/edition.py)."""
    from importlib import metadata

    try:
        return metadata.version("interlib")
    except metadata.PackageNotFoundError:  # imported from a source tree, not installed
        return "unknown"


def __getattr__(name: str):
    # interlib.__version__, looked up when asked: importing importlib.metadata at every
    # import of interlib would slow the live demos' start in the browser (Pyodide).
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'interlib' has no attribute {name!r}")


__all__ = ["collectives", "specs", "transfer", "units"]
