"""Read a reader's nccl-tests output and set it against the model and the published runs.

:func:`parse` (:mod:`.logs`) turns the text ``all_reduce_perf`` (or ``all_gather_perf``,
``reduce_scatter_perf``, ``alltoall_perf``, ``sendrecv_perf``, ...) printed into a
:class:`Run`: plain SI numbers (bytes, seconds, bytes/s), and never the host names or
addresses the log carries. :func:`compare` (:mod:`.comparison`) predicts the same sizes
with :func:`interlib.collectives.predict` for the reader's hardware, puts the model's
prediction interval around it (:func:`band`), finds the nearest published runs
(:func:`interlib.validation.load_measurements`) and gives a verdict per size regime;
:func:`diagnose` (:mod:`.causes`) ranks the likely causes when a regime falls below the
band. What they return is in :mod:`.results`. The page "Check your cluster" and
``python -m interlib.check`` both call :func:`compare`.
"""
from __future__ import annotations

from .causes import ERROR_LIMIT, FLOOR_FACTOR, MATCH_TOLERANCE, diagnose
from .comparison import GPU_TOKENS, band, compare, nearest_published
from .logs import COLLECTIVES, MAX_CHARS, PROGRAMS, Row, Run, hosts_in, parse, scrub
from .results import Comparison, Diagnosis, Published, Verdict

__all__ = ["COLLECTIVES", "ERROR_LIMIT", "FLOOR_FACTOR", "GPU_TOKENS", "MATCH_TOLERANCE",
           "MAX_CHARS", "PROGRAMS", "Comparison", "Diagnosis", "Published", "Row", "Run",
           "Verdict", "band", "compare", "diagnose", "hosts_in", "nearest_published", "parse",
           "scrub"]
