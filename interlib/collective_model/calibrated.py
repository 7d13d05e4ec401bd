"""The book's calibrated constants as the model reads them, and how cross-validation
replaces them (:func:`calibrated`).

The catalogue (:mod:`interlib.specs.calibration`) holds each constant with the procedure
that fits it; :mod:`interlib.crossval` times a source with the constants fitted without it,
by running the model inside :func:`calibrated`.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import contextmanager

from .. import _validate as v
from ..specs import calibration as C

_OVERRIDE: dict = {}
"""Values of calibrated constants that replace :mod:`interlib.specs.calibration`'s while
:func:`calibrated` is active (empty otherwise): how :mod:`interlib.crossval` times the model
fitted without one source. Never set it by hand."""


def cal(name: str) -> float:
    """The value of the calibrated constant ``name``: the override of :func:`calibrated`,
    else the catalogue's (:mod:`interlib.specs.calibration`)."""
    return _OVERRIDE[name] if name in _OVERRIDE else getattr(C, name).value


@contextmanager
def calibrated(values: dict):
    """Within this block :func:`interlib.collectives.predict` uses ``values`` (``{name:
    value}``, names of ``interlib.specs.calibration.CALIBRATED_FROM``) for the book's
    calibrated constants instead of the catalogue's: how a model fitted on other data is
    timed (:mod:`interlib.crossval`). Restores the previous values on exit."""
    if not isinstance(values, Mapping):
        raise ValueError(f"values={values!r} must be a dict {{name: value}} of calibrated "
                         f"constants (one of {sorted(C.CALIBRATED_FROM)})")
    bad = sorted(set(v.items("values", list(values))) - set(C.CALIBRATED_FROM))
    if bad:
        raise ValueError(f"values names {bad}, which are not calibrated constants "
                         f"(one of {sorted(C.CALIBRATED_FROM)})")
    for name, x in values.items():
        v.number(f"values[{name!r}]", x)
    old = dict(_OVERRIDE)
    _OVERRIDE.update({k: float(x) for k, x in values.items()})
    try:
        yield
    finally:
        _OVERRIDE.clear()
        _OVERRIDE.update(old)
