"""Check your cluster from the command line: ``python -m interlib.check LOG --system ...``.

Reads an nccl-tests or rccl-tests log (a text file in UTF-8 or UTF-16, the ``-J`` JSON file,
NCCL Inspector's JSON records, or ``-`` for standard input), compares it with the model for
your hardware (:func:`interlib.nccltests.compare`) and prints what the log states about the
setup, the verdict per size regime, the likely causes of any shortfall (what the log states
first, each with its line) and the nearest published runs. ``--plot FILE`` writes the
figure, ``--json FILE`` the parsed run, setup and verdict, ``--share`` a prefilled report to
share the run with the book. The log is read locally and sent nowhere.

Exit status: 0 with a verdict; 2 when the log or the arguments cannot be used (one message
on standard error, never a traceback); 3 when the log was read but the book does not model
it (another vendor's GPUs, a collective outside the model): the report says what the book
can say instead.

Examples::

    python -m interlib.check all_reduce.log --system dgx-h100
    python -m interlib.check run.log --gpu a100-sxm-80gb --gpus-per-node 8 \\
        --nics-per-node 4 --nic-gbps 100 --fabric EFA --plot run.png
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from . import nccltests

_FLAGS = ("collective", "gpus_per_node", "nodes", "test", "system", "nics_per_node",
          "nic_gbps", "fabric", "intra", "gpu", "nccl_version", "tcpxo_profile", "hardware",
          "in_place")
_PY_ARG = re.compile(r"\b(" + "|".join(_FLAGS) + r")=(?: to parse\b)?")


def cli_words(message: str) -> str:
    """A library message in the command line's words: ``collective=`` -> ``--collective``.

    >>> cli_words("give gpus_per_node= and nodes=")
    'give --gpus-per-node and --nodes'
    """
    def flag(m):
        after = message[m.end():m.end() + 1]
        gap = "" if after in ("", " ", ")", ",", ":", ".", ";") else " "
        return "--" + m.group(1).replace("_", "-") + gap

    return _PY_ARG.sub(flag, message)


def _in_cli_words(report: str) -> str:
    """A report with its Python arguments in the command line's words, except in the lines
    that quote the log (``- ...`` under 'What the log states'), which stay as printed."""
    return "\n".join(x if x.startswith("- ") else cli_words(x) for x in report.split("\n"))


_INTRA_HELP = ("how the GPUs of your node reach each other: 'nvswitch' (every GPU at its "
               "full NVLink rate through NVSwitch, as on HGX/DGX boards; also a 4-GPU "
               "NVLink board, assumed all-to-all at that rate), 'pcie' (PCIe only: H100 "
               "PCIe, L40S or A100 PCIe cards without bridges), 'nvlink-bridge' (PCIe cards "
               "paired by NVLink bridges, such as H100 NVL); default nvswitch, printed as "
               "assumed")


def _parser() -> argparse.ArgumentParser:
    from .specs import SYSTEMS, custom
    from .specs import calibration as C

    p = argparse.ArgumentParser(
        prog="python -m interlib.check",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Set an nccl-tests (or rccl-tests) log against the book's model and "
                    "published runs.",
        epilog="Hardware outside the catalogue: the log is still read exactly. For H100 "
               "PCIe cards use --system h100-pcie-only (hypothetical: 8 H100 on PCIe only); "
               "for other NVIDIA GPUs build a node with --gpu (a catalogue GPU of the same "
               "NVLink or PCIe generation) and --intra, and every value you did not give is "
               "printed as assumed. AMD Instinct logs (rccl-tests) are read, then refused: "
               "the model covers NVIDIA NVLink systems only (exit status 3).\n\nExit "
               "status: 0 verdict printed; 2 the log or the arguments cannot be used; 3 read "
               "but not modelled.")
    p.add_argument("log", help="the test's output: a text file (UTF-8 or UTF-16), its -J "
                   "JSON file, NCCL Inspector JSON records, or - for standard input")
    p.add_argument("--system", choices=sorted(SYSTEMS), metavar="SYSTEM",
                   help="a catalogue system: " + ", ".join(sorted(SYSTEMS)) + " (H100 PCIe "
                   "cards: h100-pcie-only; GB200/GB300 NVL72: the rack is one node, its "
                   "trays of 4 GPUs are understood)")
    p.add_argument("--gpu", help="instead of --system, a node of your own with this "
                   "catalogue GPU (e.g. h100-sxm); with --nics-per-node, --nic-gbps, "
                   "--fabric, --intra")
    p.add_argument("--nics-per-node", type=int, help="your node's scale-out NICs (default "
                   "one per GPU, printed as assumed)")
    p.add_argument("--nic-gbps", type=float, help="your NICs' port rate, Gb/s per "
                   "direction (default 400, printed as assumed)")
    p.add_argument("--fabric", choices=custom.FABRICS, help="your scale-out network: "
                   "InfiniBand, Ethernet (RoCE), EFA (AWS) or GPUDirect-TCPXO (Google A3 "
                   "Mega); default InfiniBand, printed as assumed")
    p.add_argument("--intra", choices=custom.INTRA, help=_INTRA_HELP)
    p.add_argument("--tcpxo-profile", choices=tuple(C.TCPXO_PROFILES),
                   help="with --fabric GPUDirect-TCPXO: Google's NCCL settings the run used "
                   "(2024-10 for NCCL 2.21.5 installers; default the current one)")
    p.add_argument("--nccl-version", help="the NCCL version the run used (default: the "
                   "log's own 'NCCL version' line; your own node only)")
    p.add_argument("--gpus-per-node", type=int, help="GPUs per node in the run (a node is "
                   "one NVLink domain; default from the log, see the report's notes)")
    p.add_argument("--nodes", type=int, help="nodes in the run (default from the log)")
    p.add_argument("--collective", choices=nccltests.COLLECTIVES,
                   help="what the run measured, when the log does not say (a paste of rows "
                   "only)")
    p.add_argument("--test", help="which test to read when the file holds several: its "
                   "number, or a word of its name (the message lists them)")
    p.add_argument("--in-place", action="store_true", help="compare the in-place columns")
    p.add_argument("--no-nvls", action="store_true", help="the run set NCCL_NVLS_ENABLE=0")
    p.add_argument("--plot", metavar="FILE", help="write the figure to FILE (PNG, SVG or "
                   "PDF by its extension)")
    p.add_argument("--json", metavar="FILE", help="write the parsed run, the setup and the "
                   "verdict to FILE as JSON")
    p.add_argument("--share", action="store_true", help="print a prefilled report to share "
                   "this run with the book (host names and addresses are never included)")
    p.add_argument("--where", default="", help="with --share: your cloud or cluster, in "
                   "your words")
    return p


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read(4 * nccltests.MAX_CHARS + 8)
    else:
        try:
            with open(path, "rb") as f:
                data = f.read(4 * nccltests.MAX_CHARS + 8)
        except OSError as e:
            raise ValueError(f"cannot read {path!r}: {e.strerror}") from None
    return nccltests.decode(data)


def _system(args, run):
    """(system, its description for a report, assumed values)."""
    from .specs import custom

    if args.system is not None and args.gpu is not None:
        raise ValueError("give either system= (a catalogue system) or gpu= (and the other "
                         "options) for a node of your own, not both")
    if args.system is not None:
        return args.system, args.system, ()
    from .nccltests.sharing import hardware_text

    if args.gpu is None:
        from .nccltests import vendors

        advice = vendors.advice(run.device) if vendors.catalogue_gpu(run.device)[0] is None \
            else None
        hint = f" {advice['text']}." if advice else ""
        raise ValueError("give either system= (a catalogue system) or gpu= (and the other "
                         f"options) for a node of your own.{hint}")
    assumed = []
    g = args.gpus_per_node or run.gpus_per_node
    if g is None:
        g = 8
        assumed.append("8 GPUs per node in your node (gpus_per_node= not given, and the log "
                       "does not say)")
    gbps = args.nic_gbps
    if gbps is None:
        gbps = 400.0
        assumed.append("400 Gb/s per NIC (nic_gbps= not given)")
    fabric = args.fabric or "InfiniBand"
    if args.fabric is None:
        assumed.append("an InfiniBand network (fabric= not given)")
    intra = args.intra or "nvswitch"
    if args.intra is None:
        assumed.append("GPUs joined by NVSwitch (intra= not given)")
    if args.nics_per_node is None:
        assumed.append(f"one NIC per GPU ({g} per node; nics_per_node= not given)")
    version = args.nccl_version or run.nccl_version
    profile = args.tcpxo_profile
    if fabric == "GPUDirect-TCPXO" and profile is None:
        from .specs import calibration as C

        profile = C.TCPXO_PROFILE_BY_NCCL.get(version, C.TCPXO_DEFAULT_PROFILE)
        assumed.append(f"Google's {profile} NCCL settings (tcpxo_profile= not given"
                       + (f"; the profile of NCCL {version}" if version in
                          C.TCPXO_PROFILE_BY_NCCL else "; the current one") + ")")
    node = custom.node(args.gpu, g, nics_per_node=args.nics_per_node, nic_gbps=gbps,
                       fabric=fabric, intra=intra, name="your node",
                       tcpxo_profile=profile, nccl_version=version)
    return node, hardware_text(node), tuple(cli_words(a) for a in assumed)


def run(argv=None) -> tuple:
    """Parse ``argv``, compare, write the plot and JSON if asked; return ``(report text,
    exit status)``.

    Raises:
        ValueError: with a message for the reader in the command line's words (bad log,
            bad hardware, bad arguments).
    """
    args = _parser().parse_args(argv)
    try:
        log = nccltests.parse(_read(args.log), collective=args.collective, test=args.test)
        try:
            nccltests.refuse_unmodelled(log)  # before asking for hardware that would not change it
            system, desc, assumed = _system(args, log)
            cmp_ = nccltests.compare(log, system, args.gpus_per_node, args.nodes,
                                     in_place=args.in_place, nvls=not args.no_nvls,
                                     assumed=assumed)
        except nccltests.NotModelled as e:
            return _not_modelled(args, log, str(e)), 3
    except ValueError as e:
        raise ValueError(cli_words(str(e))) from None
    report = _in_cli_words(cmp_.report())
    if args.plot:
        from .plots import check as plots_check

        fig = plots_check.comparison(cmp_)
        try:
            fig.savefig(args.plot)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot write the figure to {args.plot!r}: {e}") from None
        report += f"\n\nFigure written to {args.plot}."
    if args.json:
        _write_json(args.json, nccltests.to_json(cmp_))
        report += f"\nParsed run, setup and verdict written to {args.json}."
    if args.share:
        report += "\n\n" + _share_text(nccltests.share(cmp_, desc, where=args.where))
    return report, 0


def _not_modelled(args, log, why: str) -> str:
    out = [f"{log.collective or 'a collective'} read from the log"
           + (f" ({log.ranks} ranks)" if log.ranks else "") + ": no verdict.", "", why]
    lines = log.setup.lines()
    if lines:
        out += ["", "What the log states:"] + [f"- {x}" for x in lines]
    if args.json:
        data = nccltests.to_json(log)
        data["not_modelled"] = why
        _write_json(args.json, data)
        out.append(f"\nParsed run and setup written to {args.json}.")
    return "\n".join(out)


def _write_json(path: str, data) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
    except OSError as e:
        raise ValueError(f"cannot write the JSON to {path!r}: {e.strerror}") from None


def _share_text(rep: dict) -> str:
    return ("Share this run with the book (opens a prefilled report; nothing is sent "
            f"until you submit it there):\n{rep['url']}\n{rep['note']}")


def main(argv=None) -> int:
    """Entry point: print the report (exit 0, or 3 when read but not modelled) or the error
    message (exit 2)."""
    try:
        text, status = run(argv)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        print(text)
    except BrokenPipeError:  # the reader piped the report into head, less ...
        sys.stderr.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
