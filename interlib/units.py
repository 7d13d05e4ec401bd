"""Units: plain SI floats and named multipliers.

Inside ``interlib`` every quantity is a plain float in SI base units: bytes for data,
seconds for time, bytes per second for bandwidth. Values enter and leave through the
named constants below, so a formula never contains a bare ``1e9``::

    >>> 450 * GB_per_s / GB_per_s
    450.0
    >>> 400 * Gbit_per_s == 50 * GB_per_s
    True
    >>> (1 * GiB) / (1 * GB)
    1.073741824

Decimal prefixes (k, M, G, T, P = 10^3 ...) are used for rates and vendor figures.
Binary prefixes (KiB, MiB, GiB, TiB = 2^10 ...) only when a quantity is spelled binary,
such as message sizes in nccl-tests sweeps. A bit is one eighth of a byte
(the book's chapter "Notation and units" explains why this matters).
"""

from __future__ import annotations

# --- data (base unit: byte) -------------------------------------------------------
B = 1.0
bit = B / 8
kB = 1e3 * B
MB = 1e6 * B
GB = 1e9 * B
TB = 1e12 * B
PB = 1e15 * B
KiB = 1024.0 * B
MiB = 1024.0 * KiB
GiB = 1024.0 * MiB
TiB = 1024.0 * GiB
kbit = 1e3 * bit
Mbit = 1e6 * bit
Gbit = 1e9 * bit
Tbit = 1e12 * bit

# --- time (base unit: second) -----------------------------------------------------
s = 1.0
ms = 1e-3 * s
us = 1e-6 * s
ns = 1e-9 * s
minute = 60.0 * s
hour = 3600.0 * s
day = 24.0 * hour

# --- rates (base unit: byte per second) -------------------------------------------
B_per_s = B / s
MB_per_s = MB / s
GB_per_s = GB / s
TB_per_s = TB / s
PB_per_s = PB / s
Gbit_per_s = Gbit / s
Tbit_per_s = Tbit / s
GiB_per_s = GiB / s

# --- signalling (transfers per second, per lane) ----------------------------------
GT_per_s = 1e9  # giga-transfers (symbols) per second; bits per symbol is separate

# --- compute (base unit: floating-point operation per second) ----------------------
FLOP = 1.0
FLOP_per_s = FLOP / s
TFLOP_per_s = 1e12 * FLOP_per_s
PFLOP_per_s = 1e15 * FLOP_per_s

# --- counts ----------------------------------------------------------------------
thousand = 1e3
million = 1e6
billion = 1e9

__all__ = [
    "B", "bit", "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB",
    "kbit", "Mbit", "Gbit", "Tbit",
    "s", "ms", "us", "ns", "minute", "hour", "day",
    "B_per_s", "MB_per_s", "GB_per_s", "TB_per_s", "PB_per_s", "Gbit_per_s",
    "Tbit_per_s", "GiB_per_s", "GT_per_s", "FLOP", "FLOP_per_s", "TFLOP_per_s",
    "PFLOP_per_s", "thousand", "million", "billion",
]
