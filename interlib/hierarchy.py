"""The bandwidth ladder: the links a GPU's bytes can take, per direction, peak and achieved.

Chapter 1 compares a few rungs for gradient sync; Chapter 7 climbs the whole ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _validate as v
from .specs import PCIE, PCIE_HOST_COPY_EFFICIENCY, NVLINK, calibration as C, system


@dataclass(frozen=True)
class Rung:
    """One kind of link as one GPU sees it.

    Attributes:
        name: Display name.
        peak: Usable line rate per GPU, bytes/s per direction: the data rate after line
            coding (for PCIe, after 128b/130b), the ceiling the models call "line rate".
        effective: What applications achieve, bytes/s per direction; None where no source
            gives an achieved rate (other vendors' accelerators, :data:`LADDER_OTHER`).
        latency: Per-step latency used in alpha-beta models, s (NCCL tuning.cc model
            constants: software and protocol included, not wire latency); None where no
            NCCL constant applies (other vendors' links).
        basis: How ``effective`` and ``latency`` were obtained.
        quoted: The per-direction figure the vendor quotes, bytes/s, where it differs from
            ``peak`` (PCIe's raw signalling rate before line coding); None means the vendor
            figure already is the data rate (NVLink, InfiniBand, Ethernet).
        row: Which rung of :data:`RUNG_NAMES` it stands in (its tier): ``name`` itself for
            NVIDIA's rungs; e.g. ``"NVLink"`` (scale-up) for a TPU's ICI.
    """

    name: str
    peak: float
    effective: float | None
    latency: float | None
    basis: str
    quoted: float | None = None
    row: str = ""

    def __post_init__(self):
        if self.row:
            v.choice("row", self.row, RUNG_NAMES)
        else:
            object.__setattr__(self, "row", self.name)

    @property
    def vendor_rate(self) -> float:
        """The vendor's per-direction line rate, bytes/s (``quoted``, else ``peak``)."""
        return self.peak if self.quoted is None else self.quoted

    @property
    def efficiency(self) -> float | None:
        """effective / peak (None where no achieved rate is known)."""
        return None if self.effective is None else self.effective / self.peak


# ------------------------------------------------------------------ Chapter 7: the ladder
LADDER_SYSTEMS = {"A100": "dgx-a100", "H100": "dgx-h100", "H200": "hgx-h200",
                  "B200": "dgx-b200", "GB200 NVL72": "gb200-nvl72",
                  "HGX B300": "hgx-b300", "GB300 NVL72": "gb300-nvl72"}
"""GPU generation -> the catalogue system Chapter 7 builds its ladder from."""

LADDER_OTHER = {"TPU v5p": ("tpu-v5p-pod", "ICI", "DCN"),
                "Gaudi 3": ("gaudi3-hls3", "RoCE scale-up", "RoCE scale-out")}
"""Other vendors' accelerators Chapter 7's ladder can show (issue 28): name -> (the
:data:`interlib.specs.SCALEUP_DOMAINS` id, the scale-up rung's name, the scale-out rung's
name). Only the line rates a source gives are drawn; no achieved rates (no source gives
them) and no host link (none in the sources read): :func:`ladder_gaps` lists what is
missing, so the demo can say so."""

LADDER_CHOICES = (*LADDER_SYSTEMS, *LADDER_OTHER)
"""Every name Chapter 7's ladder demo offers: NVIDIA's generations, then other vendors."""

RUNG_NAMES = ("HBM", "NVLink", "NVLink-C2C", "PCIe", "Scale-out NIC", "Spine")
"""Every rung a ladder can have; a system shows a subset (its host link is PCIe or, on
Grace superchips such as GB200, NVLink-C2C). Other vendors' rungs stand in these rows by
tier (:attr:`Rung.row`): scale-up in ``"NVLink"``, host link in ``"PCIe"``, scale-out in
``"Scale-out NIC"``."""


def _system(system_name):
    """A System from a catalogue id, a generation key or a System."""
    from .specs import SYSTEMS, System

    if isinstance(system_name, System):
        return system_name
    if isinstance(system_name, str) and system_name in LADDER_SYSTEMS:
        system_name = LADDER_SYSTEMS[system_name]
    return system(v.choice("system_name", system_name,
                           list(SYSTEMS) + list(LADDER_SYSTEMS) + list(LADDER_OTHER)))


def _other(system_name):
    """(ScaleUpDomain, scale-up name, scale-out name) if ``system_name`` is one of
    :data:`LADDER_OTHER`, else None."""
    if isinstance(system_name, str) and system_name in LADDER_OTHER:
        from .specs import scaleup_domain

        dom, up, out = LADDER_OTHER[system_name]
        return scaleup_domain(dom), up, out
    return None


def ladder_gaps(system_name="dgx-h100") -> dict[str, str]:
    """The rungs a system has but whose rate no source read gives, as ``{row: label}``
    (rows of :data:`RUNG_NAMES`): empty for NVIDIA's systems; for Google's TPU v5p and
    Intel's Gaudi 3 the host link (``{"PCIe": "Host link"}``; both vendors' memory bandwidth
    is catalogued). The ladder leaves these rungs out; the demo prints "not in our sources"
    in their rows.

    >>> ladder_gaps("TPU v5p"), ladder_gaps("Gaudi 3")
    ({'PCIe': 'Host link'}, {'PCIe': 'Host link'})
    """
    other = _other(system_name)
    if other is None:
        _system(system_name)  # validates
        return {}
    dom, up, out = other
    gaps = {}
    if dom.memory_bandwidth is None:
        gaps["HBM"] = "HBM"
    if dom.per_accelerator is None:
        gaps["NVLink"] = up
    gaps["PCIe"] = "Host link"
    if dom.scale_out_per_accelerator is None:
        gaps["Scale-out NIC"] = out
    return gaps


def _other_ladder(other, oversubscription) -> list[Rung]:
    """The line-rate rungs of another vendor's accelerator (see :data:`LADDER_OTHER`)."""
    dom, up, out = other
    line = "line rate only: no achieved rate or step latency in our sources"
    rungs = []
    if dom.memory_bandwidth is not None:
        rungs.append(Rung("HBM", dom.memory_bandwidth.value, None, None,
                          f"{dom.accelerator} vendor peak (read + write, shared); {line}"))
    if dom.per_accelerator is not None:
        rungs.append(Rung(up, dom.per_accelerator.value, None, None,
                          f"{dom.link}: {dom.per_accelerator.note}; {line}", row="NVLink"))
    if dom.scale_out_per_accelerator is not None:
        sout = dom.scale_out_per_accelerator.value
        rungs.append(Rung(out, sout, None, None,
                          f"{dom.scale_out_per_accelerator.note}; {line}",
                          row="Scale-out NIC"))
        rungs.append(Rung("Spine", sout / oversubscription, None, None,
                          f"{out} share / oversubscription {oversubscription:g}:1 (a "
                          "what-if: the sources give no taper)"))
    return rungs


def ladder(system_name="dgx-h100", oversubscription: float = 1.0) -> list[Rung]:
    """The bandwidth ladder one GPU of ``system_name`` sees, fastest first (Chapter 7).

    Rungs (all per GPU; links per direction):

    * **HBM**: the vendor memory bandwidth. It is a *read + write* figure: one number shared
      by both, not "per direction". A GPU-to-GPU transfer reads each byte once from the
      sender's HBM and writes it once into the receiver's, so the per-direction rate of a
      link is compared with the full HBM figure at each end (an on-GPU copy, which reads
      and writes the same HBM, gets at most half of it). Achieved: x the measured copy
      efficiency (:data:`~interlib.specs.HBM_COPY_EFFICIENCY`).
    * **NVLink** (or, for ``intra="pcie"`` systems, nothing: the rung is skipped):
      links x per-link rate; achieved: links x NCCL's effective per-link rate (``topo.h``).
    * **PCIe**: x16 usable rate of the GPU's host generation; achieved: x measured host-copy
      efficiency. On a Grace superchip (GB200) the host link is **NVLink-C2C** instead
      (:data:`interlib.specs.NVLINK_C2C`), with its measured copy efficiency.
    * **Scale-out NIC**: node NIC bandwidth / GPUs per node; achieved: x NCCL's network
      efficiency.
    * **Spine**: the NIC share after the fabric's ``oversubscription`` (taper) between leaf
      and spine: NIC / oversubscription (1 = non-blocking fat tree: the spine costs nothing
      in bandwidth, only in hops).

    Another vendor's accelerator (a key of :data:`LADDER_OTHER`, e.g. ``"TPU v5p"``) gets
    only the rungs its sources give, at line rate (``effective`` and ``latency`` None):
    memory, the scale-up link (row ``"NVLink"``), the scale-out link (row ``"Scale-out
    NIC"``) and the spine; :func:`ladder_gaps` lists the rungs left out.

    Args:
        system_name: Catalogue id (``"dgx-h100"``), a generation key of
            :data:`LADDER_SYSTEMS` (``"H100"``) or of :data:`LADDER_OTHER`
            (``"TPU v5p"``), or a :class:`~interlib.specs.System`.
        oversubscription: Leaf down / up bandwidth ratio, 1 .. 16 (Meta's 24K clusters
            join pods with 1:7).

    Returns:
        A list of :class:`Rung`, peak bandwidth in bytes/s.

    >>> [r.name for r in ladder("H100")][:2]
    ['HBM', 'NVLink']
    >>> [r.name for r in ladder("TPU v5p")]
    ['HBM', 'ICI', 'DCN', 'Spine']
    """
    from .specs import HBM_COPY_EFFICIENCY

    other = _other(system_name)
    sys_ = None if other is not None else _system(system_name)
    v.number("oversubscription", oversubscription, lo=1.0, hi=16.0)
    if other is not None:
        return _other_ladder(other, oversubscription)
    gpu = sys_.gpu
    hbm = gpu.hbm_bandwidth.value
    rungs = [Rung("HBM", hbm, hbm * HBM_COPY_EFFICIENCY.value, 0.0,
                  "vendor peak (read + write, shared) x measured copy efficiency; "
                  "latency not modelled")]
    if sys_.intra == "nvswitch":
        nv = gpu.nvlink
        rungs.append(Rung("NVLink", nv.per_gpu_per_direction, nv.per_gpu_effective,
                          _hop("nvlink"), f"{nv.name}: links x NCCL's effective per-link "
                                          "bandwidth"))
    host = gpu.host  # PCIe x16, or NVLink-C2C on Grace superchips (GB200)
    rungs.append(Rung(host.rung, host.peak, host.achieved, _hop("pcie"),
                      host.basis + ("; latency: NCCL's PCI step latency (tuning.cc has no "
                                    "C2C entry)" if host.rung != "PCIe" else "")))
    nic = sys_.nic_bw_per_gpu
    rungs.append(Rung("Scale-out NIC", nic, nic * C.NET_EFFICIENCY.value, _hop("net"),
                      f"{sys_.nics_per_node} x {sys_.nic.name} per {sys_.gpus_per_node} GPUs "
                      "x the book's fitted network efficiency (Appendix A)"))
    rungs.append(Rung("Spine", nic / oversubscription,
                      nic / oversubscription * C.NET_EFFICIENCY.value, _hop("net"),
                      f"NIC share / oversubscription {oversubscription:g}:1"))
    return rungs


def rung_ratios(system_name="dgx-h100", oversubscription: float = 1.0):
    """Ratios between neighbouring rungs of :func:`ladder`: a list of
    ``(upper, lower, peak ratio, achieved ratio)``."""
    r = ladder(system_name, oversubscription)
    return [(a.name, b.name, a.peak / b.peak,
             None if a.effective is None or b.effective is None
             else a.effective / b.effective)
            for a, b in zip(r[:-1], r[1:])]


def ladder_table(system_name="dgx-h100", oversubscription: float = 1.0):
    """The ladder as a :class:`~interlib.display.Table` (Chapter 7's spec table)."""
    from . import display

    other = _other(system_name)
    sys_ = system_name if other is not None else _system(system_name)
    title = other[0].name if other is not None else sys_.title
    r = ladder(sys_, oversubscription)
    ratios = {a: pr for a, _, pr, _ in rung_ratios(sys_, oversubscription)}
    rows = []
    for x in r:
        direction = "read + write" if x.name == "HBM" else "per direction"
        rows.append([x.name, display.fmt_rate(x.peak),
                     display.fmt_rate(x.effective) if x.effective is not None
                     else "not in our sources", direction,
                     display.fmt_ratio(ratios[x.name]) if x.name in ratios else "–",
                     x.basis])
    rows += [[label, "not in our sources", "not in our sources", "per direction", "–",
              "no source read gives this rate"]
             for label in ladder_gaps(sys_).values()]
    per = "per GPU" if other is None else "per chip"
    return display.Table(
        ["rung", f"peak {per}", f"achieved {per}", "direction", "× the next rung (peak)",
         "basis"], rows,
        f"{title}, {per}. Sources: the catalogue (interlib.specs); HBM is one figure shared "
        "by reads and writes.")


def nvlink_network_gap(system_name="dgx-h100") -> dict:
    """How many times faster NVLink is than the scale-out network, counted several ways.

    * ``per GPU, line rate``: NVLink per GPU per direction / NIC bandwidth per GPU per
      direction (H100 with one 400 Gb/s NIC per GPU: 450 / 50 = 9).
    * ``per GPU, achieved``: the same with NCCL's effective rates.
    * ``mixed scopes``: a node's whole NVLink headline (GPUs x bidirectional per GPU)
      over one NIC's per-direction rate: 8 x 900 / 50 = 144 on DGX H100. This is how
      inflated "NVLink is 100-odd times InfiniBand" claims arise: node scope vs one link,
      both directions vs one.

    Args:
        system_name: As in :func:`ladder` (must have NVLink).

    Returns:
        dict label -> ratio.
    """
    sys_ = _system(system_name)
    if sys_.intra != "nvswitch":
        raise ValueError(f"system_name={sys_.name!r} has no NVLink domain")
    nv = sys_.gpu.nvlink
    nic = sys_.nic_bw_per_gpu
    return {
        "per GPU, line rate (per direction)": nv.per_gpu_per_direction / nic,
        "per GPU, achieved (per direction)": nv.per_gpu_effective
        / (nic * C.NET_EFFICIENCY.value),
        "mixed scopes: node NVLink total, both directions / one NIC, one direction":
            sys_.gpus_per_node * nv.per_gpu_bidirectional / sys_.nic.rate.value,
    }


def _hop(kind: str) -> float:
    return C.HOP_LATENCY[(kind, "ring", "Simple")].value


def link_options() -> dict[str, Rung]:
    """The four links Chapter 1 compares, per GPU and per direction.

    * PCIe 5.0 x16: usable rate after 128b/130b (the vendor quotes the raw rate, kept as
      ``quoted``); achieved = measured host-copy efficiency.
    * NVLink 4 (H100) and NVLink 5 (B200): line rate = links x per-link rate; achieved =
      links x NCCL's per-link effective bandwidth (topo.h).
    * InfiniBand NDR, one 400 Gb/s NIC per GPU: achieved = NCCL's NET efficiency.
    Latencies are NCCL's per-step Ring/Simple latencies (tuning.cc model constants, not
    wire latencies; :func:`hardware_latency` gives those).
    """
    pcie5 = PCIE["5.0"]
    nic = system("dgx-h100").nic
    out = {
        "PCIe 5.0 x16": Rung("PCIe 5.0 x16", pcie5.usable_per_direction(16),
                             pcie5.usable_per_direction(16) * PCIE_HOST_COPY_EFFICIENCY.value,
                             _hop("pcie"), "usable rate x measured host-copy efficiency",
                             quoted=pcie5.raw_per_direction(16)),
    }
    for gen in (4, 5):
        nv = NVLINK[gen]
        out[f"NVLink {gen}"] = Rung(f"NVLink {gen}", nv.per_gpu_per_direction,
                                    nv.per_gpu_effective, _hop("nvlink"),
                                    "links x NCCL's effective per-link bandwidth")
    out["InfiniBand NDR (1 NIC/GPU)"] = Rung(
        "InfiniBand NDR (1 NIC/GPU)", nic.rate.value, nic.rate.value * C.NET_EFFICIENCY.value,
        _hop("net"), "port rate x the book's fitted network efficiency (Appendix A)")
    return out


def hardware_latency(name: str) -> tuple[float, float] | None:
    """Published or measured *hardware* latency of one of :func:`link_options`, seconds,
    as ``(low, high)``; None where our sources give no like-for-like figure (NVLink).

    Unlike :attr:`Rung.latency` (NCCL's tuning.cc step latency, a model constant that
    includes synchronisation and protocol costs), this is what the link and its chips
    add: a PCIe 5.0 peer-to-peer write (:data:`interlib.specs.PCIE_P2P_LATENCY`); for
    InfiniBand, the adapters' end-to-end latency (HDR: NVIDIA's "sub-600ns" for ConnectX-6,
    the newest published) plus one switch hop (:data:`interlib.specs.SWITCH_HOP_LATENCY`,
    low to high, a community figure).
    """
    from .specs import ADAPTER_LATENCY, PCIE_P2P_LATENCY, SWITCH_HOP_LATENCY

    opts = link_options()
    v.choice("name", name, opts)
    if name.startswith("PCIe"):
        return (PCIE_P2P_LATENCY.value, PCIE_P2P_LATENCY.value)
    if name.startswith("InfiniBand"):
        a = ADAPTER_LATENCY["HDR"].value
        return (a + SWITCH_HOP_LATENCY["low"].value, a + SWITCH_HOP_LATENCY["high"].value)
    return None


def _fmt_hw_latency(name: str) -> str:
    from .display import fmt_time

    lat = hardware_latency(name)
    if lat is None:
        return "not in our sources"
    lo, hi = lat
    return fmt_time(lo) if lo == hi else f"{fmt_time(lo)} to {fmt_time(hi)}"


def link(name: str) -> Rung:
    """One of :func:`link_options` by name."""
    opts = link_options()
    return opts[v.choice("name", name, opts)]


def link_table():
    """Chapter 1's spec table: the four links, per GPU, generated from the catalogue (a
    :class:`~interlib.display.Table`).

    Every column means the same thing in every row: the vendor's per-direction line rate
    (:attr:`Rung.vendor_rate`), that figure with both directions added (the headline
    vendors print for PCIe and NVLink), the usable rate per direction after line coding
    (:attr:`Rung.peak`, what the models call line rate), the achieved rate per direction,
    achieved / usable, NCCL's model step latency and the hardware latency.

    >>> t = link_table()
    >>> [r[1:4] for r in t.rows if r[0] == "PCIe 5.0 x16"]
    [['64 GB/s', '128 GB/s', '63 GB/s']]
    """
    from .display import Table, fmt_pct, fmt_rate, fmt_time
    from .specs import SWITCH_HOP_LATENCY as hop

    rows = [[r.name, fmt_rate(r.vendor_rate), fmt_rate(2 * r.vendor_rate), fmt_rate(r.peak),
             fmt_rate(r.effective), fmt_pct(r.efficiency), fmt_time(r.latency),
             _fmt_hw_latency(name), r.basis]
            for name, r in link_options().items()]
    return Table(["link", "vendor line rate, per direction", "both directions added",
                  "usable after line coding, per direction", "achieved, per direction",
                  "achieved / usable", "NCCL model step latency (tuning.cc, Ring/Simple)",
                  "hardware latency (measured or published)", "how achieved is obtained"],
                 rows,
                 "Vendor line rate: the per-direction figure vendors quote; for PCIe it is "
                 "the raw signalling rate before 128b/130b line coding, while the NVLink and "
                 "InfiniBand figures are already data rates after coding. Usable: what is "
                 "left after line coding, the ceiling no transfer can beat (the models' line "
                 "rate). Sources: PCI-SIG and Azure nvbandwidth (PCIe); NVIDIA NVLink pages "
                 "and NCCL topo.h (NVLink); ConnectX-7 docs and NCCL topo.h (InfiniBand); "
                 "NCCL tuning.cc (model step latencies: what NCCL's tuner charges per "
                 "algorithm step, software and protocol included, not the wire). Hardware "
                 "latency: PCIe peer-to-peer write measured on a PCIe 5.0 server; NVLink: "
                 "no like-for-like published measurement in our sources; InfiniBand: "
                 "NVIDIA's HDR adapter latency (ConnectX-6, 'sub-600ns'; no NDR adapter "
                 f"figure in our sources) plus one switch hop of {fmt_time(hop['low'].value)} "
                 f"to {fmt_time(hop['high'].value)}, a community figure (no NVIDIA switch "
                 "datasheet read gives one).")


def grace_figures() -> dict:
    """Chapter 7's figures for the host and NIC rungs of GB200 and GB300 NVL72 (issue 28:
    the superchip's NVLink-C2C serves two GPUs; GB300's NICs no longer sit behind Grace).

    >>> grace_figures()["superchip_gpus"]
    '2'
    """
    from . import display
    from .specs import NVLINK_C2C_SUPERCHIP

    sc = NVLINK_C2C_SUPERCHIP
    gb200, gb300 = _system("gb200-nvl72"), _system("gb300-nvl72")
    nic200, nic300 = (ladder(s)[-2].peak for s in (gb200, gb300))
    nv = ladder(gb300)[1].peak
    return {"superchip_headline": display.fmt_rate(sc.bidirectional),
            "superchip_per_direction": display.fmt_rate(sc.per_direction.value),
            "superchip_gpus": f"{sc.gpus}",
            "gb200_nic": gb200.nic.name, "gb300_nic": gb300.nic.name,
            "gb200_nic_per_gpu": display.fmt_rate(nic200),
            "gb300_nic_per_gpu": display.fmt_rate(nic300),
            "gb300_nvlink_over_nic": display.fmt_ratio(nv / nic300, 3),
            "gb300_pcie": gb300.gpu.pcie.name,
            **_other_vendor_figures()}


def _other_vendor_figures() -> dict:
    """Chapter 7's figures for the ladder of other vendors' accelerators (issue 28)."""
    from . import display
    from .specs import scaleup_domain

    tpu, g3 = scaleup_domain("tpu-v5p-pod"), scaleup_domain("gaudi3-hls3")
    return {"tpu_up_over_out": display.fmt_ratio(tpu.scale_up_over_scale_out, 3),
            "tpu_dcn": display.fmt_rate(tpu.scale_out_per_accelerator.value),
            "tpu_pod": f"{tpu.domain_size.value:,.0f}",
            "gaudi3_up_over_out": display.fmt_ratio(g3.scale_up_over_scale_out, 3)}


def scaleup_ladder_table(names=("gb300-nvl72", "tpu-v5p-pod", "gaudi3-hls3")):
    """The top of the ladder, at line rate, for an NVIDIA system next to other vendors'
    accelerators (Chapter 7; issue 28): memory, the scale-up link and the scale-out link of
    one accelerator, and how far each step falls. Only figures a source gives are shown;
    achieved rates are not, because no source gives them for the other vendors.

    Args:
        names: Catalogue ids of :data:`interlib.specs.SYSTEMS` or
            :data:`interlib.specs.SCALEUP_DOMAINS`.
    """
    from . import display
    from .specs import SCALEUP_DOMAINS, SYSTEMS

    def rate(x):
        return display.fmt_rate(x) if x is not None else "not in our sources"

    def ratio(a, b):
        return display.fmt_ratio(a / b, 3) if a is not None and b is not None else "–"

    rows = []
    for name in v.items("names", names):
        v.choice("names", name, [*SYSTEMS, *SCALEUP_DOMAINS])
        if name in SYSTEMS:
            s = SYSTEMS[name]
            r = {x.name: x.peak for x in ladder(s)}
            mem, up, out = r["HBM"], r.get("NVLink"), r["Scale-out NIC"]
            title, link, st = s.title, s.gpu.nvlink.name, None
        else:
            d = SCALEUP_DOMAINS[name]
            mem = d.memory_bandwidth.value if d.memory_bandwidth else None
            up = d.per_accelerator.value if d.per_accelerator else None
            st = d.stated_per_accelerator
            out = (d.scale_out_per_accelerator.value if d.scale_out_per_accelerator
                   else None)
            title, link = d.name, d.link
        up_text = (f"{display.fmt_rate(st.value)}, direction not stated"
                   if up is None and st is not None else rate(up))
        rows.append([title, rate(mem), link, up_text, rate(out), ratio(mem, up),
                     ratio(up, out)])
    return display.Table(
        ["system", "memory (read + write)", "scale-up link", "scale-up, per direction",
         "scale-out, per direction", "memory ÷ scale-up", "scale-up ÷ scale-out"], rows,
        "Per accelerator, line rates (vendors' figures; bidirectional headlines, such as "
        "NVIDIA's, Google's and AMD's Helios, halved; a figure whose direction its vendor "
        "does not state is quoted as given and enters no ratio). Sources: "
        "interlib.specs.hardware and interlib.specs.scaleup.")
