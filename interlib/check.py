"""Check your cluster from the command line: ``python -m interlib.check LOG --system ...``.

Reads an nccl-tests log (a file, or ``-`` for standard input), compares it with the model
for your hardware (:func:`interlib.nccltests.compare`) and prints the verdict per size
regime, the likely causes of any shortfall and the nearest published runs; ``--plot FILE``
writes the figure (PNG, SVG or PDF by the file's extension). A problem with the log or the
arguments prints one line to standard error and exits with status 2, never a traceback.
The log is read locally and sent nowhere.

Examples::

    python -m interlib.check all_reduce.log --system dgx-h100
    python -m interlib.check run.log --gpu a100-sxm-80gb --gpus-per-node 8 \\
        --nics-per-node 4 --nic-gbps 100 --fabric EFA --plot run.png
"""

from __future__ import annotations

import argparse
import sys

from . import nccltests


def _parser() -> argparse.ArgumentParser:
    from .specs import SYSTEMS, custom

    p = argparse.ArgumentParser(
        prog="python -m interlib.check",
        description="Set an nccl-tests log against the book's model and published runs.")
    p.add_argument("log", help="the nccl-tests output (a text file, or - for stdin)")
    p.add_argument("--system", choices=sorted(SYSTEMS), help="a catalogue system")
    p.add_argument("--gpu", help="your GPU (catalogue id, e.g. h100-sxm) for a node of your "
                   "own; with --nics-per-node, --nic-gbps, --fabric, --intra")
    p.add_argument("--nics-per-node", type=int, help="scale-out NICs per node (custom node)")
    p.add_argument("--nic-gbps", type=float, default=400.0, help="NIC port rate, Gb/s")
    p.add_argument("--fabric", default="InfiniBand", choices=custom.FABRICS)
    p.add_argument("--intra", default="nvswitch", choices=custom.INTRA)
    p.add_argument("--gpus-per-node", type=int, help="GPUs per node in the run "
                   "(default: from the log's Rank lines)")
    p.add_argument("--nodes", type=int, help="nodes in the run (default: from the log)")
    p.add_argument("--collective", choices=nccltests.COLLECTIVES,
                   help="what the run measured, if the log does not say")
    p.add_argument("--in-place", action="store_true", help="compare the in-place columns")
    p.add_argument("--no-nvls", action="store_true", help="the run set NCCL_NVLS_ENABLE=0")
    p.add_argument("--plot", metavar="FILE", help="write the figure to FILE")
    return p


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read(nccltests.MAX_CHARS + 1)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(nccltests.MAX_CHARS + 1)
    except OSError as e:
        raise ValueError(f"cannot read {path!r}: {e.strerror}") from None


def run(argv=None) -> str:
    """Parse ``argv``, compare, write the plot if asked; return the report text.

    Raises:
        ValueError: with a message for the reader (bad log, bad hardware, bad arguments).
    """
    args = _parser().parse_args(argv)
    if (args.system is None) == (args.gpu is None):
        raise ValueError("give either --system (a catalogue system) or --gpu (and the "
                         "other options) for a node of your own")
    if args.gpu is not None:
        from .specs import custom

        system = custom.node(args.gpu, args.gpus_per_node or 8,
                             nics_per_node=args.nics_per_node, nic_gbps=args.nic_gbps,
                             fabric=args.fabric, intra=args.intra, name="your node")
    else:
        system = args.system
    log = nccltests.parse(_read(args.log), collective=args.collective)
    cmp_ = nccltests.compare(log, system, args.gpus_per_node, args.nodes,
                             in_place=args.in_place, nvls=not args.no_nvls)
    report = cmp_.report()
    if args.plot:
        from .plots import check as plots_check

        fig = plots_check.comparison(cmp_)
        try:
            fig.savefig(args.plot)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot write the figure to {args.plot!r}: {e}") from None
        report += f"\n\nFigure written to {args.plot}."
    return report


def main(argv=None) -> int:
    """Entry point: print the report (exit 0) or the error message (exit 2)."""
    try:
        print(run(argv))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
