"""interlib: the computation package behind *Interconnects*.

Data flows one way: catalogue (:mod:`interlib.specs`) -> models (:mod:`~interlib.transfer`,
:mod:`~interlib.collectives`, ...) -> plots and widgets -> notebook cells.
"""

from . import collectives, specs, transfer, units

__version__ = "0.1.0"
__all__ = ["collectives", "specs", "transfer", "units"]
