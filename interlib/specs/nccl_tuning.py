"""NCCL's tuner constants release by release: ``src/graph/tuning.cc`` read at every tag
from v2.18.1-1 to v2.30.7-1 (NVIDIA/nccl), so NCCL's own estimate
(:func:`interlib.collectives.nccl_estimate`) can be made with the constants of the NCCL a
run used.

:data:`HISTORY` holds, for each constant the book's copy of NCCL's cost model reads, every
value it took over those releases: the first release with that value, the value, and the
line of ``tuning.cc`` it was read from at that tag (its number and its text). A value holds
until the next entry. Latencies are in microseconds and bandwidths in GB/s, as in
``tuning.cc``; :func:`constants` gives one release's values.

Keys:

* ``("baseLat", algorithm, protocol)``: base latency of one call, us;
* ``("hwLat", hop, algorithm, protocol)``: latency per step over an ``"nvlink"``,
  ``"pcie"`` or ``"net"`` hop, us;
* ``("llMaxBws", row)``: LL's bandwidth ceiling, GB/s, for one node by GPU
  (``"Ampere/AMD"``, ``"Hopper"``, ``"Blackwell"``; the row ``"Volta/Intel"``) and across
  nodes by CPU (row ``"Volta/Intel"`` for Intel hosts, ``"Ampere/AMD"`` for AMD), columns
  1 node, 2 nodes, 3+ nodes;
* ``("perChMaxRingLL128Bws" | "perChMaxTreeLL128Bws" | "perChMaxTreeBws" |
  "perChMaxNVLSTreeBws", arch)``: per-channel caps, GB/s, columns 1 node, 2, 3+;
* ``("nvlsEfficiency", arch)``: NVLS's share of the NVLink bandwidth (from 2.28.3);
* ``("treeCorrectionFactor", protocol)``: tree bandwidth factors by ``log2(size / 64)``;
* ``("rule", name)``: a formula of the model that changed (its value selects the variant;
  see each entry's line).

``tests/test_nccl_tuning.py`` holds a second copy of every entry as literals with the line
they were read from: adding a constant or a release here without its literal fails there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ._base import Source

TAGS = ("2.18.1", "2.18.3", "2.18.5", "2.18.6", "2.19.1", "2.19.3", "2.19.4", "2.20.3",
        "2.20.5", "2.21.5", "2.22.3", "2.23.4", "2.24.3", "2.25.1", "2.26.2", "2.26.3",
        "2.26.5", "2.26.6", "2.27.3", "2.27.5", "2.27.6", "2.27.7", "2.28.3", "2.28.7",
        "2.28.9", "2.29.2", "2.29.3", "2.29.7", "2.30.3", "2.30.4", "2.30.7")
"""The NCCL releases whose ``tuning.cc`` was read (tags ``v<release>-1``), oldest first."""

DEFAULT_VERSION = "2.30.7"
"""The release whose constants NCCL's estimate uses when a run does not state its NCCL:
the newest read (NVIDIA/nccl master at 5067397 has the same ``tuning.cc``)."""


def source(version: str) -> Source:
    """The :class:`~interlib.specs._base.Source` of one release's ``tuning.cc``."""
    return Source(f"NVIDIA NCCL v{version}-1 source, src/graph/tuning.cc",
                  f"https://github.com/NVIDIA/nccl/blob/v{version}-1/src/graph/tuning.cc",
                  "NCCL's tuner constants at this release (base and per-step latencies, "
                  "per-channel bandwidth caps, protocol factors, tree correction).")


@dataclass(frozen=True)
class Reading:
    """One value of a constant and where it was read.

    Attributes:
        since: The first release (of :data:`TAGS`) with this value.
        value: The value (us, GB/s, a fraction, a tuple of them, or a rule's variant).
        line: Its line number in ``src/graph/tuning.cc`` at tag ``v<since>-1``.
        text: That line, whitespace collapsed.
    """

    since: str
    value: object
    line: int
    text: str


_R = Reading

HISTORY = {
    ('baseLat', 'collnet_chain', 'Simple'): (
        _R('2.18.1', 0, 58, '{ 6.8, 14.0, 0 }, { 6.8, 14.0, 0 }, // Collnet Direct, Chain'),
    ),
    ('baseLat', 'collnet_direct', 'Simple'): (
        _R('2.18.1', 0, 58, '{ 6.8, 14.0, 0 }, { 6.8, 14.0, 0 }, // Collnet Direct, Chain'),
    ),
    ('baseLat', 'nvls', 'Simple'): (
        _R('2.18.1', 23, 59, '{ 0, 0, 23.0 }, { 0, 0, 23.0 }}; // NVLS, NVLS Tree'),
        _R('2.19.1', 0, 59, '{ 0, 0, 0 }, { 0, 0, 0 }}; // NVLS, NVLS Tree'),
    ),
    ('baseLat', 'nvls_tree', 'Simple'): (
        _R('2.18.1', 23, 59, '{ 0, 0, 23.0 }, { 0, 0, 23.0 }}; // NVLS, NVLS Tree'),
        _R('2.19.1', 0, 59, '{ 0, 0, 0 }, { 0, 0, 0 }}; // NVLS, NVLS Tree'),
    ),
    ('baseLat', 'ring', 'LL'): (
        _R('2.18.1', 6.6, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('baseLat', 'ring', 'LL128'): (
        _R('2.18.1', 14, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('baseLat', 'ring', 'Simple'): (
        _R('2.18.1', 8.4, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('baseLat', 'tree', 'LL'): (
        _R('2.18.1', 6.8, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('baseLat', 'tree', 'LL128'): (
        _R('2.18.1', 14, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('baseLat', 'tree', 'Simple'): (
        _R('2.18.1', 0, 57, '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
        _R('2.23.4', 8.4, 57, '{ 6.8, 14.0, 8.4 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ),
    ('hwLat', 'net', 'collnet_chain', 'Simple'): (
        _R('2.18.1', 14, 78, '/* CollNetDirect (Simple)*/ { 0, 0, 10.7 }, /* CollNetChain (Simple)*/ { 0, 0, 14 },'),
        _R('2.19.1', 30, 76, '/* CollNetDirect (Simple)*/ { 0, 0, 31 }, /* CollNetChain (Simple)*/ { 0, 0, 30 },'),
    ),
    ('hwLat', 'net', 'collnet_direct', 'Simple'): (
        _R('2.18.1', 10.7, 78, '/* CollNetDirect (Simple)*/ { 0, 0, 10.7 }, /* CollNetChain (Simple)*/ { 0, 0, 14 },'),
        _R('2.19.1', 31, 76, '/* CollNetDirect (Simple)*/ { 0, 0, 31 }, /* CollNetChain (Simple)*/ { 0, 0, 30 },'),
    ),
    ('hwLat', 'net', 'nvls', 'Simple'): (
        _R('2.18.1', 18, 79, '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 19 } }'),
    ),
    ('hwLat', 'net', 'nvls_tree', 'Simple'): (
        _R('2.18.1', 19, 79, '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 19 } }'),
        _R('2.19.1', 14, 77, '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 14 } }'),
        _R('2.28.9', 20.9, 165, '{ 0, 0, 18 }, { 0, 0, 20.9 }, /* NVLS (LL/LL128/Simple), NVLSTree (LL/LL128/Simple)*/'),
    ),
    ('hwLat', 'net', 'ring', 'LL'): (
        _R('2.18.1', 2.7, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'net', 'ring', 'LL128'): (
        _R('2.18.1', 4, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'net', 'ring', 'Simple'): (
        _R('2.18.1', 14, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'net', 'tree', 'LL'): (
        _R('2.18.1', 5, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'net', 'tree', 'LL128'): (
        _R('2.18.1', 8.5, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'net', 'tree', 'Simple'): (
        _R('2.18.1', 28, 77, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        _R('2.18.3', 14, 75, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 14 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        _R('2.19.1', 28, 75, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        _R('2.23.4', 14, 75, '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 14 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ),
    ('hwLat', 'nvlink', 'collnet_chain', 'Simple'): (
        _R('2.18.1', 4.75, 70, '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 4.75 },'),
        _R('2.19.1', 2.8, 68, '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ),
    ('hwLat', 'nvlink', 'collnet_direct', 'Simple'): (
        _R('2.18.1', 8, 70, '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 4.75 },'),
        _R('2.19.1', 3.7, 68, '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ),
    ('hwLat', 'nvlink', 'nvls', 'Simple'): (
        _R('2.18.1', 0, 71, '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
        _R('2.19.1', 23, 69, '/* NVLS */ { 0, 0, 23 }, /* NVLSTree */ { 0, 0, 23 } },'),
        _R('2.21.5', 25, 69, '/* NVLS */ { 0, 0, 25 }, /* NVLSTree */ { 0, 0, 25 } },'),
    ),
    ('hwLat', 'nvlink', 'nvls_tree', 'Simple'): (
        _R('2.18.1', 0, 71, '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
        _R('2.19.1', 23, 69, '/* NVLS */ { 0, 0, 23 }, /* NVLSTree */ { 0, 0, 23 } },'),
        _R('2.21.5', 25, 69, '/* NVLS */ { 0, 0, 25 }, /* NVLSTree */ { 0, 0, 25 } },'),
    ),
    ('hwLat', 'nvlink', 'ring', 'LL'): (
        _R('2.18.1', 0.6, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'nvlink', 'ring', 'LL128'): (
        _R('2.18.1', 1.9, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'nvlink', 'ring', 'Simple'): (
        _R('2.18.1', 3.4, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'nvlink', 'tree', 'LL'): (
        _R('2.18.1', 0.6, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'nvlink', 'tree', 'LL128'): (
        _R('2.18.1', 1.25, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'nvlink', 'tree', 'Simple'): (
        _R('2.18.1', 28, 69, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        _R('2.18.3', 4, 67, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 4 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        _R('2.19.1', 28, 67, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        _R('2.23.4', 4, 67, '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 4.0 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ),
    ('hwLat', 'pcie', 'collnet_chain', 'Simple'): (
        _R('2.18.1', 8, 74, '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 8.0 },'),
        _R('2.19.1', 2.8, 72, '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ),
    ('hwLat', 'pcie', 'collnet_direct', 'Simple'): (
        _R('2.18.1', 8, 74, '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 8.0 },'),
        _R('2.19.1', 3.7, 72, '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ),
    ('hwLat', 'pcie', 'nvls', 'Simple'): (
        _R('2.18.1', 0, 75, '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
    ),
    ('hwLat', 'pcie', 'nvls_tree', 'Simple'): (
        _R('2.18.1', 0, 75, '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
    ),
    ('hwLat', 'pcie', 'ring', 'LL'): (
        _R('2.18.1', 1, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('hwLat', 'pcie', 'ring', 'LL128'): (
        _R('2.18.1', 2.5, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('hwLat', 'pcie', 'ring', 'Simple'): (
        _R('2.18.1', 5.7, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('hwLat', 'pcie', 'tree', 'LL'): (
        _R('2.18.1', 1, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('hwLat', 'pcie', 'tree', 'LL128'): (
        _R('2.18.1', 1.9, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('hwLat', 'pcie', 'tree', 'Simple'): (
        _R('2.18.1', 28, 73, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        _R('2.18.3', 6, 71, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 6 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        _R('2.19.1', 28, 71, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        _R('2.23.4', 4, 71, '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 4.0 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ),
    ('llMaxBws', 'Ampere/AMD'): (
        _R('2.18.1', (87.7, 22.5, 19), 91, '/* Ampere-N1/AMD-N2/AMD-N4) */ {87.7, 22.5 /*avg of ring & tree*/, 19.0},'),
    ),
    ('llMaxBws', 'Blackwell'): (
        _R('2.25.1', (282, 90, 70), 155, '/* Blackwell-N1/AMD-N2/AMD-N4) */ {2*141.0, 2*45.0 /*avg of ring & tree*/, 2*35.0},'),
    ),
    ('llMaxBws', 'Hopper'): (
        _R('2.18.1', (87.7, 22.5, 19), 92, '/* Hopper-N1/AMD-N2/AMD-N4) */ {87.7, 22.5 /*avg of ring & tree*/, 19.0}'),
        _R('2.21.5', (141, 45, 35), 89, '/* Hopper-N1/AMD-N2/AMD-N4) */ {141.0, 45.0 /*avg of ring & tree*/, 35.0}'),
    ),
    ('llMaxBws', 'Volta/Intel'): (
        _R('2.18.1', (39, 39, 20.4), 90, '/* Volta-N1/Intel-N2/Intel-N4) */ {39.0, 39.0, 20.4},'),
    ),
    ('nvlsEfficiency', 'Blackwell'): (
        _R('2.28.3', 0.74, 138, '0.74f, // Blackwell'),
    ),
    ('nvlsEfficiency', 'Hopper'): (
        _R('2.28.3', 0.85, 137, '0.85f, // Hopper'),
    ),
    ('perChMaxNVLSTreeBws', 'Blackwell'): (
        _R('2.28.3', (0, 96, 43.1), 197, '{0.0, 96.0, 43.1} /* Blackwell (N1/N2/N4) */'),
        _R('2.28.9', (0, 96, 43.8), 197, '{0.0, 96.0, 43.8} /* Blackwell (N1/N2/N4) */'),
        _R('2.30.3', (0, 96, 80), 205, '{0.0, 96.0, 80.0} /* Blackwell (N1/N2/N4) */'),
    ),
    ('perChMaxNVLSTreeBws', 'Hopper'): (
        _R('2.28.3', (0, 57.7, 45.5), 196, '{0.0, 57.7, 45.5}, /* Hopper (N1/N2/N4) */'),
    ),
    ('perChMaxRingLL128Bws', 'Ampere'): (
        _R('2.18.1', (20, 20, 20), 88, 'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ),
    ('perChMaxRingLL128Bws', 'Blackwell'): (
        _R('2.25.1', (73.4, 73.4, 73.4), 162, '/* Blackwell (N1/N2/N4) */ {2*36.7, 2*36.7, 2*36.7},'),
        _R('2.28.7', (73.4, 34.6, 73.4), 179, '{2*36.7, 34.6, 2*36.7}, /* Blackwell (N1/N2/N4) */'),
        _R('2.29.2', (34.5, 34.6, 34.5), 179, '{34.5, 34.6, 34.5}, /* Blackwell (N1/N2/N4) */'),
        _R('2.29.7', (40, 40, 40), 180, '{40.0, 40.0, 40.0}, /* Blackwell (N1/N2/N4) */'),
    ),
    ('perChMaxRingLL128Bws', 'Hopper'): (
        _R('2.18.1', (36.7, 36.7, 36.7), 88, 'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ),
    ('perChMaxTreeBws', 'Ampere'): (
        _R('2.18.1', (24, 23.6, 17.8), 97, '/* Ampere (N1/N2/N4) */ {24.0, 23.6, 17.8},'),
    ),
    ('perChMaxTreeBws', 'Blackwell'): (
        _R('2.25.1', (77.4, 82.8, 72), 174, '/* Blackwell (N1/N2/N4) */ {2*38.7, 2*41.4, 2*36.0},'),
        _R('2.28.3', (70, 42.8, 24), 191, '{70.0, 42.8, 24.0}, /* Blackwell (N1/N2/N4) */'),
    ),
    ('perChMaxTreeBws', 'Hopper'): (
        _R('2.18.1', (38.7, 41.4, 33), 98, '/* Hopper (N1/N2/N4) */ {38.7, 41.4, 33.0},'),
        _R('2.18.3', (38.7, 41.4, 36), 105, '/* Hopper (N1/N2/N4) */ {38.7, 41.4, 36.0},'),
    ),
    ('perChMaxTreeLL128Bws', 'Ampere'): (
        _R('2.18.1', (20, 20, 20), 88, 'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ),
    ('perChMaxTreeLL128Bws', 'Blackwell'): (
        _R('2.25.1', (73.4, 73.4, 58), 168, '/* Blackwell (N1/N2/N4) */ {2*36.7, 2*36.7, 2*29.0},'),
        _R('2.28.3', (55.6, 31.67, 20), 185, '{55.6, 31.67, 20.0}, /* Blackwell (N1/N2/N4) */'),
    ),
    ('perChMaxTreeLL128Bws', 'Hopper'): (
        _R('2.18.1', (36.7, 36.7, 36.7), 88, 'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
        _R('2.18.3', (36.7, 36.7, 29), 100, '/* Hopper (N1/N2/N4) */ {36.7, 36.7, 29.0},'),
    ),
    ('treeCorrectionFactor', 'LL'): (
        _R('2.18.1', (1, 1, 1, 1, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 1, 1), 366, '{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0 },'),
        _R('2.29.2', (1, 1, 1, 1, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 1, 1, 1), 581, '{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0 },'),
    ),
    ('treeCorrectionFactor', 'LL128'): (
        _R('2.18.1', (1, 1, 1, 1, 1, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1, 1), 367, '{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0 },'),
        _R('2.29.2', (1, 1, 1, 1, 1, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1, 1, 1), 582, '{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0 },'),
    ),
    ('treeCorrectionFactor', 'Simple'): (
        _R('2.18.1', (0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9), 368, '{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9 }'),
        _R('2.29.2', (0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9, 0.9), 583, '{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9 }'),
    ),
    ("rule", "ringLLFactor"): (
        _R("2.18.1", (0.25, 1 / 3), 169, "if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL) { busBw = "
           "std::min(llMaxBw, busBw * ((nNodes > 1 || coll == ncclFuncAllReduce || coll == "
           "ncclFuncReduce) ? 1.0/4.0 : 1.0/3.0)); }"),
        _R("2.21.5", (0.5, 0.5), 180, "if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL) { busBw = "
           "std::min(llMaxBw, busBw * .5); }"),
    ),
    ("rule", "ringLL128Factor"): (
        _R("2.18.1", (0.7, 0.92), 170, "if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL128) busBw = "
           "std::min(busBw * (ppn < 2 ? 0.7 : 0.92 /*120.0/128.0*/), "
           "ll128MaxBwPerCh[compCapIndex]*graphs[a]->nChannels);"),
        _R("2.23.4", (0.92, 0.92), 188, "if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL128) busBw = "
           "std::min(busBw * (0.92 /*120.0/128.0*/), graphs[a]->nChannels*perChMaxRingLL128Bw);"),
    ),
    ("rule", "ringInterSteps"): (
        _R("2.18.1", 0, 152, "int nInterSteps = coll == ncclFuncAllReduce ? (nNodes > 1 ? "
           "2*nNodes :0) :"),
        _R("2.23.4", -1, 258, "int nInterSteps = nNodes == 1 ? 0 : coll == ncclFuncAllReduce ? "
           "2*(nNodes-1) : nNodes-1;"),
    ),
    ("rule", "ringPlateau"): (
        _R("2.18.1", 1.4, 382, "lat *= info->comm->minCompCap < 80 ? 1.9 : 1.4; // Plateau "
           "effect of ring"),
    ),
    ("rule", "ppn1TreeNetLatency"): (
        _R("2.18.1", 0, 194, "float interLat = hwLat[NCCL_HW_NET][a][p] + "
           "graphs[a]->latencyInter;"),
        _R("2.23.4", 1, 236, "float interLat = ppn == 1 ? hwLat[NCCL_HW_NET][NCCL_ALGO_TREE][p] "
           ": hwLat[NCCL_HW_NET][a][p];"),
    ),
    ("rule", "nvlsModel"): (
        _R("2.18.1", 1, 188, "else if (a == NCCL_ALGO_NVLS_TREE) ratio = .70 * nNodes / "
           "(2*(nNodes-1));"),
        _R("2.19.1", 2, 176, "if (a == NCCL_ALGO_NVLS_TREE) bw = std::min(graphs[a]->bwIntra, "
           "nNodes <= 2 ? graphs[a]->bwInter : graphs[a]->bwInter/2);"),
        _R("2.28.3", 3, 290, "float intraBw = graphs[a]->bwIntra * nvlsEfficiency[compCapIndex] * "
           "(graphs[a]->nChannels - 1) / graphs[a]->nChannels;"),
    ),
    ("rule", "nvlsRatio"): (
        _R("2.18.1", 0.75, 187, "else if (a == NCCL_ALGO_NVLS) ratio = .75;"),
        _R("2.18.3", 5 / 6, 197, "else if (a == NCCL_ALGO_NVLS) ratio = 5.0/6.0;"),
    ),
    ("rule", "nvlsLatency"): (
        _R("2.18.1", 1, 228, "comm->latencies[coll][a][p] += 2*(nNodes-1)*hwLat[NCCL_HW_NET][a][p];"),
        _R("2.19.1", 2, 243, "comm->latencies[coll][a][p] += intraLat + 2 * log2i(nNodes) * "
           "interLat;"),
    ),
    ("rule", "nvlsTreeX86Correction"): (
        _R("2.18.1", 0, 378, "if (algorithm == NCCL_ALGO_TREE && logSize < 23) bw *= "
           "treeCorrectionFactor[protocol][logSize];"),
        _R("2.29.2", 1, 595, "if (algorithm == NCCL_ALGO_NVLS_TREE && coll == ncclFuncAllReduce && "
           "logSize >= 0 && logSize < 24 && comm->minCompCap >= 100 && comm->cpuArch == "
           "NCCL_TOPO_CPU_ARCH_X86) bw *= treeCorrectionFactor[protocol][logSize];"),
    ),
}
"""Every value of every tuner constant the book's copy of NCCL's model reads, by release
(see the module docstring for the keys)."""

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def parse_version(version: str) -> tuple[int, int, int]:
    """``"2.21.5"`` as ``(2, 21, 5)``; anything else raises a ValueError naming it."""
    if not isinstance(version, str):
        raise ValueError(f"nccl_version={version!r} is not an NCCL release like '2.21.5'")
    return _parse_version(version)


@lru_cache(maxsize=None)  # a pure function of a few strings, asked on every prediction
def _parse_version(version: str) -> tuple[int, int, int]:
    m = _VERSION.match(version)
    if not m:
        raise ValueError(f"nccl_version={version!r} is not an NCCL release like '2.21.5'")
    return tuple(int(x) for x in m.groups())


def release(version: str | None) -> str:
    """The release of :data:`TAGS` whose constants a run on NCCL ``version`` had: the
    newest read release not newer than it (:data:`DEFAULT_VERSION` for None; for a
    release newer than every one read, the newest read, since nothing later was read).

    >>> release("2.21.6"), release(None), release("2.32.6")
    ('2.21.5', '2.30.7', '2.30.7')
    """
    if version is None:
        return DEFAULT_VERSION
    parse_version(version)  # anything but a release is refused, by name, before the cache
    return _release(version)


@lru_cache(maxsize=None)  # a pure function of a few strings, asked on every prediction
def _release(version: str) -> str:
    want = parse_version(version)
    first = parse_version(TAGS[0])
    if want < first:
        raise ValueError(f"nccl_version={version!r} is older than the oldest release whose "
                         f"tuner constants were read ({TAGS[0]}): the book has no constants "
                         "for it")
    return max((t for t in TAGS if parse_version(t) <= want), key=parse_version)


def reading(key, version: str | None = None) -> Reading:
    """The :class:`Reading` of constant ``key`` in force at ``version``."""
    if key not in HISTORY:
        raise ValueError(f"key={key!r} is not a tuner constant of HISTORY")
    v = parse_version(release(version))
    held = [r for r in HISTORY[key] if parse_version(r.since) <= v]
    if not held:
        raise ValueError(f"{key!r} has no value in NCCL {release(version)} (first read in "
                         f"{HISTORY[key][0].since})")
    return held[-1]


@lru_cache(maxsize=64)
def constants(version: str | None = None) -> dict:
    """Every constant of :data:`HISTORY` in force at NCCL ``version`` (its :func:`release`),
    ``{key: value}``; constants that did not exist yet are left out."""
    v = parse_version(release(version))
    out = {}
    for key, rs in HISTORY.items():
        held = [r for r in rs if parse_version(r.since) <= v]
        if held:
            out[key] = held[-1].value
    return out


def changed(since: str, until: str) -> list:
    """The keys whose value at ``until`` differs from their value at ``since`` (or that
    exist in only one of them), in :data:`HISTORY` order."""
    a, b = constants(since), constants(until)
    return [k for k in HISTORY if a.get(k) != b.get(k)]


# ------------------------------------------------------------ NVLS channels (nvls.cc)
def nvls_source(version: str) -> Source:
    """The :class:`~interlib.specs._base.Source` of one release's ``nvls.cc``."""
    return Source(f"NVIDIA NCCL v{version}-1 source, src/transport/nvls.cc",
                  f"https://github.com/NVIDIA/nccl/blob/v{version}-1/src/transport/nvls.cc",
                  "How many channels (thread blocks) NCCL gives NVLink SHARP at this release.")


NVLS_HISTORY = {
    ("nvlsChannels", "default"): (
        _R("2.18.1", 16, 231, 'NCCL_PARAM(NvlsChannels, "NVLS_NCHANNELS", 16);'),
    ),
    ("nvlsChannels", "SM90"): (
        _R("2.25.1", 16, 144, "#define NVLS_NCHANNELS_SM90 16"),
    ),
    ("nvlsChannels", "SM100"): (
        _R("2.25.1", 32, 145, "#define NVLS_NCHANNELS_SM100 32"),
    ),
    ("nvlsChannels", "SM100_NVL"): (
        _R("2.27.3", 24, 149, "#define NVLS_NCHANNELS_SM100_NVL 24"),
    ),
    ("rule", "nvlsTreeSm100Tuning"): (
        _R("2.30.3", 1, 158, "static ncclResult_t ncclNvlsTreeSm100Tuning(struct ncclComm* "
           "comm, int* nChannels, int* chunkSize, int* treeMaxChunkSize) {"),
    ),
}
"""The NVLS channel counts of ``src/transport/nvls.cc`` by release, as :data:`HISTORY` holds
``tuning.cc``'s (each :class:`Reading`'s line is a line of ``nvls.cc`` at its tag): the
``NCCL_NVLS_NCHANNELS`` default for every GPU up to 2.24.3; from 2.25.1 one count per
architecture (SM90 Hopper, SM100 Blackwell); from 2.27.3 a smaller one for a Blackwell
communicator inside one NVLink domain; from 2.30.3 a Blackwell multi-node rule by node
count, NIC speed and GPUs per node (:func:`nvls_channels`)."""


def _nvls_since(key) -> tuple[int, int, int]:
    return parse_version(NVLS_HISTORY[key][0].since)


def nvls_channels(arch: str, nodes: int, gpus_per_node: int, nic_gbyte_per_s: float,
                  version: str | None = None) -> int:
    """The channels NCCL gives NVLS (and NVLSTree) at ``version`` (its :func:`release`),
    as ``nvls.cc`` sets them (:data:`NVLS_HISTORY`):

    * before 2.25.1: ``NCCL_NVLS_NCHANNELS``'s default, 16, on every GPU;
    * from 2.25.1: 16 on Hopper, 32 on Blackwell;
    * from 2.27.3, Blackwell inside one NVLink domain (one node, or one multi-node NVLink
      rack, which NCCL counts as one node): 24 (v2.27.3-1 lines 179-193);
    * from 2.30.3, Blackwell on more than one node (``ncclNvlsTreeSm100Tuning``, v2.30.3-1
      lines 166-185): two nodes with NICs of 48 GB/s or more: 32; else NICs of 96 GB/s or
      more: 24 with at most 8 GPUs per node, 32 with more; else NICs of 48 GB/s or more:
      24; slower NICs keep 32.

    The NVLSTree chunk sizes that rule also sets are not modelled.

    Args:
        arch: GPU architecture (``"Hopper"``, ``"Blackwell"``, ...).
        nodes: Nodes (NVLink domains), >= 1.
        gpus_per_node: GPUs per node (NCCL's ``minLocalRanks``), >= 1.
        nic_gbyte_per_s: One NIC's rate, GB/s (NCCL's ``minNetBw``; 50 for 400 Gb/s).
        version: The NCCL release (None: :data:`DEFAULT_VERSION`).

    >>> [nvls_channels("Blackwell", 1, 72, 50, v) for v in ("2.26.2", "2.27.3")]
    [32, 24]
    >>> [nvls_channels("Blackwell", k, 8, 50, "2.30.7") for k in (2, 4)]
    [32, 24]
    """
    v = parse_version(release(version))
    if v < _nvls_since(("nvlsChannels", "SM90")):
        return int(NVLS_HISTORY[("nvlsChannels", "default")][-1].value)
    if arch != "Blackwell":
        return int(NVLS_HISTORY[("nvlsChannels", "SM90")][-1].value)
    multi = int(NVLS_HISTORY[("nvlsChannels", "SM100")][-1].value)
    if v < _nvls_since(("nvlsChannels", "SM100_NVL")):
        return multi
    if nodes == 1:
        return int(NVLS_HISTORY[("nvlsChannels", "SM100_NVL")][-1].value)
    if v < _nvls_since(("rule", "nvlsTreeSm100Tuning")):
        return multi
    if nodes == 2 and nic_gbyte_per_s >= 48.0:   # v2.30.3-1 nvls.cc:166-167
        return 32
    if nic_gbyte_per_s >= 96.0:                  # :175-181
        return 24 if gpus_per_node <= 8 else 32
    if nic_gbyte_per_s >= 48.0:                  # :184-185
        return 24
    return multi
