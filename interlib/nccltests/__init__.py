"""Read a reader's nccl-tests output and set it against the model and the published runs.

:func:`parse` (:mod:`.read`) turns what ``all_reduce_perf`` (or ``all_gather_perf``,
``alltoall_perf``, an ``_mpi`` build, rccl-tests ...) printed, its ``-J`` JSON file or NCCL
Inspector's records into a :class:`Run`: plain SI numbers (bytes, seconds, bytes/s), what
the log's NCCL lines state about the setup (:class:`RunSetup`), and never the host names
or addresses the log carries. :func:`compare` (:mod:`.comparison`) predicts the same sizes
with :func:`interlib.collectives.predict` for the reader's hardware, puts the model's
prediction interval around it (:func:`band`), finds the nearest published runs and gives
a verdict per size regime; :func:`diagnose` (:mod:`.causes`) ranks the likely causes,
what the log states first. :func:`to_json` and :func:`share` (:mod:`.sharing`) write the
result out. The page "Check your cluster" and ``python -m interlib.check`` both call them.
"""
from __future__ import annotations

from .causes import ERROR_LIMIT, FLOOR_FACTOR, MATCH_TOLERANCE, diagnose
from .comparison import SLOW_RATIO, band, compare, nearest_published, refuse_unmodelled
from .read import parse
from .results import Comparison, Diagnosis, NotModelled, Published, Verdict
from .runs import MAX_CHARS, Row, Run
from .setup import Fact, RunSetup
from .sharing import share, to_json
from .shape import Shape, shape
from .text import COLLECTIVES, PROGRAMS, decode, hosts_in, scrub
from .vendors import GPU_TOKENS, catalogue_gpu

__all__ = ["COLLECTIVES", "ERROR_LIMIT", "FLOOR_FACTOR", "GPU_TOKENS", "MATCH_TOLERANCE",
           "MAX_CHARS", "PROGRAMS", "SLOW_RATIO", "Comparison", "Diagnosis", "Fact",
           "NotModelled", "Published", "Row", "Run", "RunSetup", "Shape", "Verdict", "band",
           "catalogue_gpu", "compare", "decode", "diagnose", "hosts_in", "nearest_published",
           "parse", "refuse_unmodelled", "scrub", "shape", "share", "to_json"]
