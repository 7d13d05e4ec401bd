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


__version__ = _version()
__all__ = ["collectives", "specs", "transfer", "units"]
