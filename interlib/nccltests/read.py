"""One entry point for whatever a reader hands the book: :func:`parse` decides whether the
text is nccl-tests output (:mod:`.logs`) or JSON (:mod:`.jsonio`), after checking the
arguments, the size and that there is text at all."""
from __future__ import annotations

from .. import _validate as v
from ..units import MB
from .jsonio import parse_json
from .logs import parse_text
from .runs import MAX_CHARS, Run
from .text import COLLECTIVES, hosts_in, normalise, scrub


def parse(text: str, collective: str | None = None, test=None) -> Run:
    """Parse the output of one nccl-tests (or rccl-tests) program, its ``-J`` JSON file, or
    NCCL Inspector's JSON records.

    Args:
        text: The log as printed (``str``, UTF-16 read as text is undone), at most
            :data:`MAX_CHARS` characters. Bytes from a file: :func:`decode` them first.
        collective: What the run measured, when the log does not say (one of
            :data:`COLLECTIVES`); a log that names its program wins only if they agree.
        test: Which test to read when the file holds several (its number from 1, or a
            word of its name: the message listing them gives both).

    Returns:
        A :class:`Run` (times in seconds, bandwidths in bytes/s).

    Raises:
        ValueError: for an empty or oversized paste, a binary file, a failed run (quoting
            its first failure line), a build without MPI, a paste that stops before the
            table, a file of several tests without ``test``, a truncated or malformed row
            (naming the line and what was expected), or a program that disagrees with
            ``collective``. Messages never show the log's host names or addresses.

    >>> log = '''#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
    ... #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
    ...    1048576        262144     float     sum      -1    85.58   12.25   22.97      0    84.50   12.41   23.27      0
    ... # Avg bus bandwidth    : 23.12'''
    >>> run = parse(log, collective="all_reduce")
    >>> run.rows[0].busbw_out / 1e9, run.rows[0].time_in_s * 1e6
    (22.97, 84.5)
    """
    v.instance("text", text, str, "the log as text (str)")
    if collective is not None:
        v.choice("collective", collective, COLLECTIVES)
    if test is not None and not isinstance(test, (str, int)):
        raise ValueError(f"test={test!r} must be a number or a word of the test's name")
    if len(text) > MAX_CHARS:
        raise ValueError(f"the log is {len(text) / MB:.1f} MB; the limit is "
                         f"{MAX_CHARS / MB:.0f} MB: paste only the nccl-tests output, from "
                         "'# nThread' to '# Avg bus bandwidth'")
    text, note = normalise(text)
    if not text.strip():
        raise ValueError("the log is empty: paste the output of the test, from '# nThread' "
                         "to '# Avg bus bandwidth' (or its JSON file)")
    printable = sum(1 for c in text[:4000] if c.isprintable() or c in "\r\n\t")
    if printable < 0.7 * min(len(text), 4000):
        raise ValueError("the log is not text (most of its first characters are not "
                         "printable): a binary or compressed file? Paste the test's text "
                         "output")
    try:
        if text.lstrip()[:1] == "{":
            run = parse_json(text, collective, test)
        else:
            run = parse_text(text, collective, test)
    except ValueError as e:  # a message may quote the log: never show its hosts back
        raise ValueError(scrub(str(e), hosts_in(text))) from None
    if note:
        from dataclasses import replace

        run = replace(run, notes=(note,) + run.notes)
    return run
