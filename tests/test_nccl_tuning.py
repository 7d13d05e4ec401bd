"""NCCL's tuner constants release by release (issue 38 item 1, issue 37 item 4): a second
copy of every value :mod:`interlib.specs.nccl_tuning` holds, each written here as a literal
with the line of ``src/graph/tuning.cc`` it was read from at its tag (NVIDIA/nccl
``v<release>-1``), compared with the catalogue. A constant (or a release of one) added to
the catalogue without its literal here fails ``test_every_constant_has_its_literal``.

The literals were read from the tags' ``tuning.cc`` (``git show v2.18.1-1:src/graph/tuning.cc``
and so on to ``v2.30.7-1``); each line is quoted whitespace-collapsed, and
``test_each_literal_is_written_in_its_line`` checks the value is the one the quoted line
says, so a value copied from the wrong row or release fails.
"""

import math
import re

import numpy as np
import pytest

from interlib import collectives as co
from interlib.specs import calibration as C, custom, nccl_tuning as T
from interlib.units import GB_per_s, GiB, KiB, MiB, us

# {key: [(first release, line of tuning.cc at v<release>-1, value, the line), ...]}
LITERALS = {
    ('baseLat', 'collnet_chain', 'Simple'): [
        ('2.18.1', 58, 0,
         '{ 6.8, 14.0, 0 }, { 6.8, 14.0, 0 }, // Collnet Direct, Chain'),
    ],
    ('baseLat', 'collnet_direct', 'Simple'): [
        ('2.18.1', 58, 0,
         '{ 6.8, 14.0, 0 }, { 6.8, 14.0, 0 }, // Collnet Direct, Chain'),
    ],
    ('baseLat', 'nvls', 'Simple'): [
        ('2.18.1', 59, 23,
         '{ 0, 0, 23.0 }, { 0, 0, 23.0 }}; // NVLS, NVLS Tree'),
        ('2.19.1', 59, 0,
         '{ 0, 0, 0 }, { 0, 0, 0 }}; // NVLS, NVLS Tree'),
    ],
    ('baseLat', 'nvls_tree', 'Simple'): [
        ('2.18.1', 59, 23,
         '{ 0, 0, 23.0 }, { 0, 0, 23.0 }}; // NVLS, NVLS Tree'),
        ('2.19.1', 59, 0,
         '{ 0, 0, 0 }, { 0, 0, 0 }}; // NVLS, NVLS Tree'),
    ],
    ('baseLat', 'ring', 'LL'): [
        ('2.18.1', 57, 6.6,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('baseLat', 'ring', 'LL128'): [
        ('2.18.1', 57, 14,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('baseLat', 'ring', 'Simple'): [
        ('2.18.1', 57, 8.4,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('baseLat', 'tree', 'LL'): [
        ('2.18.1', 57, 6.8,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('baseLat', 'tree', 'LL128'): [
        ('2.18.1', 57, 14,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('baseLat', 'tree', 'Simple'): [
        ('2.18.1', 57, 0,
         '{ 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
        ('2.23.4', 57, 8.4,
         '{ 6.8, 14.0, 8.4 }, { 6.6, 14.0, 8.4 }, // Tree, Ring'),
    ],
    ('hwLat', 'net', 'collnet_chain', 'Simple'): [
        ('2.18.1', 78, 14,
         '/* CollNetDirect (Simple)*/ { 0, 0, 10.7 }, /* CollNetChain (Simple)*/ { 0, 0, 14 },'),
        ('2.19.1', 76, 30,
         '/* CollNetDirect (Simple)*/ { 0, 0, 31 }, /* CollNetChain (Simple)*/ { 0, 0, 30 },'),
    ],
    ('hwLat', 'net', 'collnet_direct', 'Simple'): [
        ('2.18.1', 78, 10.7,
         '/* CollNetDirect (Simple)*/ { 0, 0, 10.7 }, /* CollNetChain (Simple)*/ { 0, 0, 14 },'),
        ('2.19.1', 76, 31,
         '/* CollNetDirect (Simple)*/ { 0, 0, 31 }, /* CollNetChain (Simple)*/ { 0, 0, 30 },'),
    ],
    ('hwLat', 'net', 'nvls', 'Simple'): [
        ('2.18.1', 79, 18,
         '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 19 } }'),
    ],
    ('hwLat', 'net', 'nvls_tree', 'Simple'): [
        ('2.18.1', 79, 19,
         '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 19 } }'),
        ('2.19.1', 77, 14,
         '/* NVLS */ { 0, 0, 18 }, /* NVLSTree */ { 0, 0, 14 } }'),
        ('2.28.9', 165, 20.9,
         '{ 0, 0, 18 }, { 0, 0, 20.9 }, /* NVLS (LL/LL128/Simple), NVLSTree (LL/LL128/Simple)*/'),
    ],
    ('hwLat', 'net', 'ring', 'LL'): [
        ('2.18.1', 77, 2.7,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'net', 'ring', 'LL128'): [
        ('2.18.1', 77, 4,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'net', 'ring', 'Simple'): [
        ('2.18.1', 77, 14,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'net', 'tree', 'LL'): [
        ('2.18.1', 77, 5,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'net', 'tree', 'LL128'): [
        ('2.18.1', 77, 8.5,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'net', 'tree', 'Simple'): [
        ('2.18.1', 77, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        ('2.18.3', 75, 14,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 14 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        ('2.19.1', 75, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 28 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
        ('2.23.4', 75, 14,
         '{ /* Tree (LL/LL128/Simple)*/ { 5.0, 8.5, 14 }, /* Ring (LL/LL128/Simple)*/ { 2.7, 4.0, 14.0 },'),
    ],
    ('hwLat', 'nvlink', 'collnet_chain', 'Simple'): [
        ('2.18.1', 70, 4.75,
         '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 4.75 },'),
        ('2.19.1', 68, 2.8,
         '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ],
    ('hwLat', 'nvlink', 'collnet_direct', 'Simple'): [
        ('2.18.1', 70, 8,
         '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 4.75 },'),
        ('2.19.1', 68, 3.7,
         '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ],
    ('hwLat', 'nvlink', 'nvls', 'Simple'): [
        ('2.18.1', 71, 0,
         '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
        ('2.19.1', 69, 23,
         '/* NVLS */ { 0, 0, 23 }, /* NVLSTree */ { 0, 0, 23 } },'),
        ('2.21.5', 69, 25,
         '/* NVLS */ { 0, 0, 25 }, /* NVLSTree */ { 0, 0, 25 } },'),
    ],
    ('hwLat', 'nvlink', 'nvls_tree', 'Simple'): [
        ('2.18.1', 71, 0,
         '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
        ('2.19.1', 69, 23,
         '/* NVLS */ { 0, 0, 23 }, /* NVLSTree */ { 0, 0, 23 } },'),
        ('2.21.5', 69, 25,
         '/* NVLS */ { 0, 0, 25 }, /* NVLSTree */ { 0, 0, 25 } },'),
    ],
    ('hwLat', 'nvlink', 'ring', 'LL'): [
        ('2.18.1', 69, 0.6,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'nvlink', 'ring', 'LL128'): [
        ('2.18.1', 69, 1.9,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'nvlink', 'ring', 'Simple'): [
        ('2.18.1', 69, 3.4,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'nvlink', 'tree', 'LL'): [
        ('2.18.1', 69, 0.6,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'nvlink', 'tree', 'LL128'): [
        ('2.18.1', 69, 1.25,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'nvlink', 'tree', 'Simple'): [
        ('2.18.1', 69, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        ('2.18.3', 67, 4,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 4 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        ('2.19.1', 67, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 28 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
        ('2.23.4', 67, 4,
         '{ /* Tree (LL/LL128/Simple)*/ { .6, 1.25, 4.0 }, /* Ring (LL/LL128/Simple)*/ { .6, 1.9, 3.4 },'),
    ],
    ('hwLat', 'pcie', 'collnet_chain', 'Simple'): [
        ('2.18.1', 74, 8,
         '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 8.0 },'),
        ('2.19.1', 72, 2.8,
         '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ],
    ('hwLat', 'pcie', 'collnet_direct', 'Simple'): [
        ('2.18.1', 74, 8,
         '/* CollNetDirect (Simple)*/ { 0, 0, 8.0 }, /* CollNetChain (Simple)*/ { 0, 0, 8.0 },'),
        ('2.19.1', 72, 3.7,
         '/* CollNetDirect (Simple)*/ { 0, 0, 3.7 }, /* CollNetChain (Simple)*/ { 0, 0, 2.8 },'),
    ],
    ('hwLat', 'pcie', 'nvls', 'Simple'): [
        ('2.18.1', 75, 0,
         '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
    ],
    ('hwLat', 'pcie', 'nvls_tree', 'Simple'): [
        ('2.18.1', 75, 0,
         '/* NVLS */ { 0, 0, 0 }, /* NVLSTree */ { 0, 0, 0 } },'),
    ],
    ('hwLat', 'pcie', 'ring', 'LL'): [
        ('2.18.1', 73, 1,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('hwLat', 'pcie', 'ring', 'LL128'): [
        ('2.18.1', 73, 2.5,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('hwLat', 'pcie', 'ring', 'Simple'): [
        ('2.18.1', 73, 5.7,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('hwLat', 'pcie', 'tree', 'LL'): [
        ('2.18.1', 73, 1,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('hwLat', 'pcie', 'tree', 'LL128'): [
        ('2.18.1', 73, 1.9,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('hwLat', 'pcie', 'tree', 'Simple'): [
        ('2.18.1', 73, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        ('2.18.3', 71, 6,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 6 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        ('2.19.1', 71, 28,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 28 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
        ('2.23.4', 71, 4,
         '{ /* Tree (LL/LL128/Simple)*/ { 1.0, 1.9, 4.0 }, /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 },'),
    ],
    ('llMaxBws', 'Ampere/AMD'): [
        ('2.18.1', 91, (87.7, 22.5, 19.0),
         '/* Ampere-N1/AMD-N2/AMD-N4) */ {87.7, 22.5 /*avg of ring & tree*/, 19.0},'),
    ],
    ('llMaxBws', 'Blackwell'): [
        ('2.25.1', 155, (282.0, 90.0, 70.0),
         '/* Blackwell-N1/AMD-N2/AMD-N4) */ {2*141.0, 2*45.0 /*avg of ring & tree*/, 2*35.0},'),
    ],
    ('llMaxBws', 'Hopper'): [
        ('2.18.1', 92, (87.7, 22.5, 19.0),
         '/* Hopper-N1/AMD-N2/AMD-N4) */ {87.7, 22.5 /*avg of ring & tree*/, 19.0}'),
        ('2.21.5', 89, (141.0, 45.0, 35.0),
         '/* Hopper-N1/AMD-N2/AMD-N4) */ {141.0, 45.0 /*avg of ring & tree*/, 35.0}'),
    ],
    ('llMaxBws', 'Volta/Intel'): [
        ('2.18.1', 90, (39.0, 39.0, 20.4),
         '/* Volta-N1/Intel-N2/Intel-N4) */ {39.0, 39.0, 20.4},'),
    ],
    ('nvlsEfficiency', 'Blackwell'): [
        ('2.28.3', 138, 0.74,
         '0.74f, // Blackwell'),
    ],
    ('nvlsEfficiency', 'Hopper'): [
        ('2.28.3', 137, 0.85,
         '0.85f, // Hopper'),
    ],
    ('perChMaxNVLSTreeBws', 'Blackwell'): [
        ('2.28.3', 197, (0.0, 96.0, 43.1),
         '{0.0, 96.0, 43.1} /* Blackwell (N1/N2/N4) */'),
        ('2.28.9', 197, (0.0, 96.0, 43.8),
         '{0.0, 96.0, 43.8} /* Blackwell (N1/N2/N4) */'),
        ('2.30.3', 205, (0.0, 96.0, 80.0),
         '{0.0, 96.0, 80.0} /* Blackwell (N1/N2/N4) */'),
    ],
    ('perChMaxNVLSTreeBws', 'Hopper'): [
        ('2.28.3', 196, (0.0, 57.7, 45.5),
         '{0.0, 57.7, 45.5}, /* Hopper (N1/N2/N4) */'),
    ],
    ('perChMaxRingLL128Bws', 'Ampere'): [
        ('2.18.1', 88, (20.0, 20.0, 20.0),
         'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ],
    ('perChMaxRingLL128Bws', 'Blackwell'): [
        ('2.25.1', 162, (73.4, 73.4, 73.4),
         '/* Blackwell (N1/N2/N4) */ {2*36.7, 2*36.7, 2*36.7},'),
        ('2.28.7', 179, (73.4, 34.6, 73.4),
         '{2*36.7, 34.6, 2*36.7}, /* Blackwell (N1/N2/N4) */'),
        ('2.29.2', 179, (34.5, 34.6, 34.5),
         '{34.5, 34.6, 34.5}, /* Blackwell (N1/N2/N4) */'),
        ('2.29.7', 180, (40.0, 40.0, 40.0),
         '{40.0, 40.0, 40.0}, /* Blackwell (N1/N2/N4) */'),
    ],
    ('perChMaxRingLL128Bws', 'Hopper'): [
        ('2.18.1', 88, (36.7, 36.7, 36.7),
         'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ],
    ('perChMaxTreeBws', 'Ampere'): [
        ('2.18.1', 97, (24.0, 23.6, 17.8),
         '/* Ampere (N1/N2/N4) */ {24.0, 23.6, 17.8},'),
    ],
    ('perChMaxTreeBws', 'Blackwell'): [
        ('2.25.1', 174, (77.4, 82.8, 72.0),
         '/* Blackwell (N1/N2/N4) */ {2*38.7, 2*41.4, 2*36.0},'),
        ('2.28.3', 191, (70.0, 42.8, 24.0),
         '{70.0, 42.8, 24.0}, /* Blackwell (N1/N2/N4) */'),
    ],
    ('perChMaxTreeBws', 'Hopper'): [
        ('2.18.1', 98, (38.7, 41.4, 33.0),
         '/* Hopper (N1/N2/N4) */ {38.7, 41.4, 33.0},'),
        ('2.18.3', 105, (38.7, 41.4, 36.0),
         '/* Hopper (N1/N2/N4) */ {38.7, 41.4, 36.0},'),
    ],
    ('perChMaxTreeLL128Bws', 'Ampere'): [
        ('2.18.1', 88, (20.0, 20.0, 20.0),
         'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
    ],
    ('perChMaxTreeLL128Bws', 'Blackwell'): [
        ('2.25.1', 168, (73.4, 73.4, 58.0),
         '/* Blackwell (N1/N2/N4) */ {2*36.7, 2*36.7, 2*29.0},'),
        ('2.28.3', 185, (55.6, 31.67, 20.0),
         '{55.6, 31.67, 20.0}, /* Blackwell (N1/N2/N4) */'),
    ],
    ('perChMaxTreeLL128Bws', 'Hopper'): [
        ('2.18.1', 88, (36.7, 36.7, 36.7),
         'static const double ll128MaxBwPerCh[3] = { 20.0, 20.0, 36.7 };'),
        ('2.18.3', 100, (36.7, 36.7, 29.0),
         '/* Hopper (N1/N2/N4) */ {36.7, 36.7, 29.0},'),
    ],
    ('treeCorrectionFactor', 'LL'): [
        ('2.18.1', 366, (1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0),
         '{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0 },'),
        ('2.29.2', 581, (1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0),
         '{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0 },'),
    ],
    ('treeCorrectionFactor', 'LL128'): [
        ('2.18.1', 367, (1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0, 1.0),
         '{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0 },'),
        ('2.29.2', 582, (1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0, 1.0, 1.0),
         '{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0 },'),
    ],
    ('treeCorrectionFactor', 'Simple'): [
        ('2.18.1', 368, (0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9),
         '{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9 }'),
        ('2.29.2', 583, (0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9, 0.9),
         '{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9 }'),
    ],
    ('rule', 'ringLLFactor'): [
        ('2.18.1', 169, (0.25, 0.3333333333333333),
         'if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL) { busBw = std::min(llMaxBw, busBw * ((nNodes > 1 || coll == ncclFuncAllReduce || coll == ncclFuncReduce) ? 1.0/4.0 : 1.0/3.0)); }'),
        ('2.21.5', 180, (0.5, 0.5),
         'if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL) { busBw = std::min(llMaxBw, busBw * .5); }'),
    ],
    ('rule', 'ringLL128Factor'): [
        ('2.18.1', 170, (0.7, 0.92),
         'if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL128) busBw = std::min(busBw * (ppn < 2 ? 0.7 : 0.92 /*120.0/128.0*/), ll128MaxBwPerCh[compCapIndex]*graphs[a]->nChannels);'),
        ('2.23.4', 188, (0.92, 0.92),
         'if (a == NCCL_ALGO_RING && p == NCCL_PROTO_LL128) busBw = std::min(busBw * (0.92 /*120.0/128.0*/), graphs[a]->nChannels*perChMaxRingLL128Bw);'),
    ],
    ('rule', 'ringInterSteps'): [
        ('2.18.1', 152, 0,
         'int nInterSteps = coll == ncclFuncAllReduce ? (nNodes > 1 ? 2*nNodes :0) :'),
        ('2.23.4', 258, -1,
         'int nInterSteps = nNodes == 1 ? 0 : coll == ncclFuncAllReduce ? 2*(nNodes-1) : nNodes-1;'),
    ],
    ('rule', 'ringPlateau'): [
        ('2.18.1', 382, 1.4,
         'lat *= info->comm->minCompCap < 80 ? 1.9 : 1.4; // Plateau effect of ring'),
    ],
    ('rule', 'ppn1TreeNetLatency'): [
        ('2.18.1', 194, 0,
         'float interLat = hwLat[NCCL_HW_NET][a][p] + graphs[a]->latencyInter;'),
        ('2.23.4', 236, 1,
         'float interLat = ppn == 1 ? hwLat[NCCL_HW_NET][NCCL_ALGO_TREE][p] : hwLat[NCCL_HW_NET][a][p];'),
    ],
    ('rule', 'nvlsModel'): [
        ('2.18.1', 188, 1,
         'else if (a == NCCL_ALGO_NVLS_TREE) ratio = .70 * nNodes / (2*(nNodes-1));'),
        ('2.19.1', 176, 2,
         'if (a == NCCL_ALGO_NVLS_TREE) bw = std::min(graphs[a]->bwIntra, nNodes <= 2 ? graphs[a]->bwInter : graphs[a]->bwInter/2);'),
        ('2.28.3', 290, 3,
         'float intraBw = graphs[a]->bwIntra * nvlsEfficiency[compCapIndex] * (graphs[a]->nChannels - 1) / graphs[a]->nChannels;'),
    ],
    ('rule', 'nvlsRatio'): [
        ('2.18.1', 187, 0.75,
         'else if (a == NCCL_ALGO_NVLS) ratio = .75;'),
        ('2.18.3', 197, 0.8333333333333334,
         'else if (a == NCCL_ALGO_NVLS) ratio = 5.0/6.0;'),
    ],
    ('rule', 'nvlsLatency'): [
        ('2.18.1', 228, 1,
         'comm->latencies[coll][a][p] += 2*(nNodes-1)*hwLat[NCCL_HW_NET][a][p];'),
        ('2.19.1', 243, 2,
         'comm->latencies[coll][a][p] += intraLat + 2 * log2i(nNodes) * interLat;'),
    ],
    ('rule', 'nvlsTreeX86Correction'): [
        ('2.18.1', 378, 0,
         'if (algorithm == NCCL_ALGO_TREE && logSize < 23) bw *= treeCorrectionFactor[protocol][logSize];'),
        ('2.29.2', 595, 1,
         'if (algorithm == NCCL_ALGO_NVLS_TREE && coll == ncclFuncAllReduce && logSize >= 0 && logSize < 24 && comm->minCompCap >= 100 && comm->cpuArch == NCCL_TOPO_CPU_ARCH_X86) bw *= treeCorrectionFactor[protocol][logSize];'),
    ],
}

# What a rule's value selects, as words of its line (a formula changed, not a number).
RULE_WORDS = {
    ("rule", "ringLLFactor"): {(0.25, 1 / 3): "1.0/4.0 : 1.0/3.0", (0.5, 0.5): "busBw * .5"},
    ("rule", "ringLL128Factor"): {(0.7, 0.92): "ppn < 2 ? 0.7 : 0.92", (0.92, 0.92): "busBw * (0.92"},
    ("rule", "ringInterSteps"): {0: "2*nNodes :0", -1: "2*(nNodes-1)"},
    ("rule", "ringPlateau"): {1.4: "1.9 : 1.4"},
    ("rule", "ppn1TreeNetLatency"): {0: "hwLat[NCCL_HW_NET][a][p] +", 1: "ppn == 1 ?"},
    ("rule", "nvlsModel"): {1: ".70 * nNodes", 2: "graphs[a]->bwInter/2",
                            3: "nvlsEfficiency[compCapIndex]"},
    ("rule", "nvlsRatio"): {0.75: "ratio = .75", 5 / 6: "ratio = 5.0/6.0"},
    ("rule", "nvlsLatency"): {1: "2*(nNodes-1)*hwLat", 2: "2 * log2i(nNodes) * interLat"},
    ("rule", "nvlsTreeX86Correction"): {0: "NCCL_ALGO_TREE && logSize < 23",
                                         1: "NCCL_ALGO_NVLS_TREE && coll == ncclFuncAllReduce"},
}


# NVLS channels from src/transport/nvls.cc (review R7): {key: [(first release, line of
# nvls.cc at v<release>-1, value, the line)]}
NVLS_LITERALS = {
    ("nvlsChannels", "default"): [
        ("2.18.1", 231, 16, 'NCCL_PARAM(NvlsChannels, "NVLS_NCHANNELS", 16);')],
    ("nvlsChannels", "SM90"): [("2.25.1", 144, 16, "#define NVLS_NCHANNELS_SM90 16")],
    ("nvlsChannels", "SM100"): [("2.25.1", 145, 32, "#define NVLS_NCHANNELS_SM100 32")],
    ("nvlsChannels", "SM100_NVL"): [("2.27.3", 149, 24, "#define NVLS_NCHANNELS_SM100_NVL 24")],
    ("rule", "nvlsTreeSm100Tuning"): [
        ("2.30.3", 158, 1, "static ncclResult_t ncclNvlsTreeSm100Tuning(struct ncclComm* comm, "
                           "int* nChannels, int* chunkSize, int* treeMaxChunkSize) {")],
}

def _numbers(text):
    """Every brace group of numbers in a line of tuning.cc (``2*141.0`` evaluated)."""
    out = []
    for group in re.findall(r"\{([^{}]*)\}", text):
        group = re.sub(r"/\*.*?\*/", "", group)
        try:
            out.append(tuple(float(eval(x, {})) for x in group.split(",") if x.strip()))
        except (SyntaxError, NameError):
            continue
    return out


# --------------------------------------------------------------- the two copies agree
def test_every_constant_has_its_literal():
    assert set(T.HISTORY) == set(LITERALS)
    for key, readings in T.HISTORY.items():
        assert [r.since for r in readings] == [x[0] for x in LITERALS[key]], key


def test_the_catalogue_holds_the_literals():
    for key, readings in T.HISTORY.items():
        for r, (since, line, value, text) in zip(readings, LITERALS[key]):
            assert r.line == line and r.text == text, (key, since)
            if isinstance(value, tuple):
                assert tuple(r.value) == pytest.approx(value), (key, since)
            else:
                assert r.value == pytest.approx(value), (key, since)


def test_each_literal_is_written_in_its_line():
    for key, entries in LITERALS.items():
        for since, line, value, text in entries:
            if key[0] == "rule":
                assert RULE_WORDS[key][value] in text, (key, since)
                continue
            groups = _numbers(text)
            if key[0] in ("baseLat", "hwLat"):
                # a row of (LL, LL128, Simple) triples: the protocol's column of one group
                col = ("LL", "LL128", "Simple").index(key[-1])
                assert any(len(g) == 3 and g[col] == pytest.approx(value) for g in groups), \
                    (key, since)
            elif key[0] == "nvlsEfficiency":
                assert f"{value}f, // {key[1]}" in text, (key, since)
            elif "ll128MaxBwPerCh[3]" in text:
                # v2.18.1 had one LL128 cap per GPU generation (Volta, Ampere, Hopper), the
                # same for 1, 2 and 3+ nodes and for ring and tree
                arch = ("Volta", "Ampere", "Hopper").index(key[1])
                assert value == (groups[0][arch],) * 3, (key, since)
            else:
                assert any(g == pytest.approx(value) for g in groups if len(g) == len(value)), \
                    (key, since)


def test_every_nvls_channel_count_has_its_literal():
    assert set(T.NVLS_HISTORY) == set(NVLS_LITERALS)
    for key, readings in T.NVLS_HISTORY.items():
        assert [(r.since, r.line, r.value, r.text) for r in readings] == \
            [tuple(x) for x in NVLS_LITERALS[key]], key
        for since, line, value, text in NVLS_LITERALS[key]:
            if key[0] == "nvlsChannels":
                assert text.rstrip(");").endswith(str(value)), key
            assert since in T.TAGS and T.nvls_source(since).url.endswith(
                f"v{since}-1/src/transport/nvls.cc")


def test_lines_are_in_release_order_and_every_release_was_read():
    versions = [T.parse_version(v) for v in T.TAGS]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert T.TAGS[0] == "2.18.1" and T.DEFAULT_VERSION == T.TAGS[-1] == "2.30.7"
    for key, readings in T.HISTORY.items():
        since = [T.parse_version(r.since) for r in readings]
        assert since == sorted(since) and all(r.since in T.TAGS for r in readings), key


# -------------------------------------------------------- what changed, and when
def test_the_blackwell_nvlstree_cap_from_four_nodes_changed_in_2_30_3():
    # issue 39 item 4: "one differs (Blackwell NVLSTree cap at 4+ nodes, 43.8 -> 80.0 from
    # 2.30.3)": v2.29.7-1 tuning.cc line 197 reads {0.0, 96.0, 43.8}, v2.30.3-1 line 205
    # {0.0, 96.0, 80.0}; 2.28.3 had 43.1
    key = ("perChMaxNVLSTreeBws", "Blackwell")
    assert T.constants("2.28.7")[key][2] == 43.1
    assert T.constants("2.29.7")[key][2] == 43.8
    assert T.constants("2.30.3")[key][2] == 80.0
    assert key in T.changed("2.29.7", "2.30.3")
    assert T.changed("2.29.7", "2.30.3") == [key] + [k for k in T.changed("2.29.7", "2.30.3")
                                                      if k != key]
    assert len(T.changed("2.30.3", "2.30.7")) == 0


def test_the_tree_correction_is_not_nccl_2_7s():
    # the catalogue once held NCCL v2.7.3's table (LL128 entry 13 = .5, Simple entry 16 =
    # .5); every release from 2.18.1 reads .6 and .7 there (tuning.cc line 367/368 at
    # v2.18.1-1)
    for version in ("2.18.1", "2.30.7"):
        c = T.constants(version)
        assert c[("treeCorrectionFactor", "LL128")][13] == 0.6
        assert c[("treeCorrectionFactor", "Simple")][16] == 0.7
    assert C.TREE_CORRECTION["LL128"][13] == 0.6 and C.TREE_CORRECTION["Simple"][16] == 0.7
    assert len(C.TREE_CORRECTION["Simple"]) == 24


def test_default_release_is_the_catalogues():
    d = T.constants(None)
    for (a, p), spec in C.BASE_LATENCY.items():
        assert spec.value == pytest.approx(d[("baseLat", a, p)] * us), (a, p)
    for (h, a, p), spec in C.HOP_LATENCY.items():
        assert spec.value == pytest.approx(d[("hwLat", h, a, p)] * us), (h, a, p)
    assert C.PER_CHANNEL_TREE_BW["Blackwell"][1].value == 42.8 * GB_per_s
    assert C.PER_CHANNEL_NVLS_TREE_BW["Blackwell"][2].value == 80.0 * GB_per_s
    assert C.NVLS_EFFICIENCY["Hopper"].value == 0.85


@pytest.mark.parametrize("asked, used", [("2.21.6", "2.21.5"), ("2.18.1", "2.18.1"),
                                         ("2.30.7", "2.30.7"), ("2.32.6", "2.30.7"),
                                         (None, "2.30.7"), ("2.29.4", "2.29.3")])
def test_a_release_between_two_read_takes_the_older(asked, used):
    assert T.release(asked) == used


@pytest.mark.parametrize("bad", ["2.17.1", "2.21", "v2.21.5-1", "latest", 2.21])
def test_a_release_that_cannot_be_read_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="^nccl_version="):
        T.release(bad)


# ----------------------------------------------------- NCCL's estimate, by release
def test_a_node_on_an_older_nccl_than_any_read_takes_the_oldest_and_says_so():
    # a reader's log from NCCL 2.9.9 (tests/fixtures/nccltests, aws-ofi-nccl's p4d run):
    # compared with 2.18.1's constants, the oldest read, and the result names 2.18.1; asking
    # for 2.9.9 explicitly is still refused by name
    node = custom.node("h100-sxm", 8, nccl_version="2.9.9")
    assert co.predict("all_reduce", MiB, node, 8, 2).nccl_version == T.TAGS[0] == "2.18.1"
    assert co.nccl_estimate("all_reduce", MiB, node, 8, 2).nccl_version == "2.18.1"
    with pytest.raises(ValueError, match="^nccl_version='2.9.9'"):
        co.nccl_estimate("all_reduce", MiB, node, 8, 2, nccl_version="2.9.9")


def test_nccl_estimate_says_which_release_it_used():
    e = co.nccl_estimate("all_reduce", MiB, "dgx-h100", 8, 2)
    assert e.nccl_version == T.DEFAULT_VERSION
    assert co.nccl_estimate("all_reduce", MiB, "dgx-h100", 8, 2,
                            nccl_version="2.19.0").nccl_version == "2.18.6"
    node = custom.node("h100-sxm", 8, nccl_version="2.23.4")
    assert co.nccl_estimate("all_reduce", MiB, node, 8, 2).nccl_version == "2.23.4"
    # the argument wins over the node's own
    assert co.nccl_estimate("all_reduce", MiB, node, 8, 2,
                            nccl_version="2.27.7").nccl_version == "2.27.7"
    with pytest.raises(ValueError, match="^nccl_version="):
        co.nccl_estimate("all_reduce", MiB, "dgx-h100", 8, 2, nccl_version="2.17.3")
    with pytest.raises(ValueError, match="^nccl_version="):
        co.nccl_estimate("all_reduce", MiB, "dgx-h100", 8, 2, nccl_version=2.21)


def test_ring_ll_estimate_by_hand_before_and_after_2_21_5():
    # one DGX H100 (8 GPUs, NVLink 18 x 20.6 = 370.8 GB/s, tuning.cc's Hopper 'SM90_NVLINK_BW
    # 20.6'), Ring/LL all-reduce of 8 B (latency-bound) and 1 GiB (bandwidth term):
    # latency = baseLat 6.6 + 14 steps x hwLat NVLink LL 0.6 = 15.0 us, every release;
    # busBw = min(llMaxBw[Hopper][1 node], 370.8 x factor): 2.18.5: min(87.7, 370.8 / 4)
    # = 87.7; 2.21.5 on: min(141.0, 370.8 x 0.5) = 141.0; algBw = busBw x 8 / 14
    for version, bus in (("2.18.5", 87.7), ("2.21.5", 141.0), ("2.30.7", 141.0)):
        e = co.nccl_estimate("all_reduce", np.array([8.0, GiB]), "dgx-h100", 8, 1, "ring",
                             nccl_version=version)
        want = 15.0 * us + np.array([8.0, GiB]) / (bus * GB_per_s * 8 / 14)
        if e.protocol[1] == "LL":  # LL at 1 GiB only if NCCL's own estimate picks it
            assert e.time_s == pytest.approx(want)
        assert e.protocol[0] == "LL" and e.time_s[0] == pytest.approx(want[0])


def test_tree_simple_latency_by_release_on_two_nodes():
    # Tree/Simple, 2 DGX H100 nodes (IB: no plugin latency), 8 B: baseLat + 2 x (7 x NVLink
    # Tree/Simple hop + log2(2) x network Tree/Simple hop): 2.18.5: 0 + 2 (7 x 4 + 14) = 84;
    # 2.19.1-2.22.3: 0 + 2 (7 x 28 + 28) = 448; 2.23.4 on: 8.4 + 2 (7 x 4 + 14) = 92.4 us
    for version, lat in (("2.18.5", 84.0), ("2.21.5", 448.0), ("2.30.7", 92.4)):
        e = co.nccl_estimate("all_reduce", 8.0, "dgx-h100", 8, 2, "tree",
                             nccl_version=version)
        if e.protocol == "Simple":
            assert e.time_s == pytest.approx(lat * us, rel=1e-3)
    from interlib.collective_model.tuner import latency
    from interlib.specs import system
    for version, lat in (("2.18.5", 84.0), ("2.21.5", 448.0), ("2.30.7", 92.4)):
        assert latency(system("dgx-h100"), "all_reduce", "tree", "Simple", 8, 2,
                       version) == pytest.approx(lat * us)


def test_the_blackwell_nvlstree_cap_moves_nccls_estimate_on_four_nodes():
    # 4 DGX B200 nodes, NVLSTree forced, 8 GiB: the per-channel cap 43.8 GB/s (2.29.7) x 32
    # NVLS channels = 1402 GB/s against 80 x 32 = 2560 (2.30.3): the bus bandwidth of the
    # estimate can only rise from one release to the next
    a = co.nccl_estimate("all_reduce", 8 * GiB, "dgx-b200", 8, 4, "nvls_tree",
                         nccl_version="2.29.7")
    b = co.nccl_estimate("all_reduce", 8 * GiB, "dgx-b200", 8, 4, "nvls_tree",
                         nccl_version="2.30.3")
    assert b.busbw >= a.busbw
