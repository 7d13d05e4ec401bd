"""Network topologies between the boxes: fat-tree (folded Clos), dragonfly, torus.

Each builder returns a frozen dataclass with the counts a cluster designer needs: switches,
cables, bisection bandwidth (per direction) and the worst-case number of switch hops.
Chapter 5 introduces them; Chapter 8 reuses :func:`fat_tree` for switch and cable counts.

Conventions:

* A *host* is one network endpoint (one NIC port). On a DGX H100 with one 400 Gb/s NIC
  per GPU, hosts = GPUs.
* Every link runs at ``link_rate`` bytes/s **per direction**. Bisection bandwidth is the
  total rate, per direction, across the worst cut into two equal halves.
* ``cables`` counts every link once: host-to-switch plus switch-to-switch (for the torus,
  node-to-node).

>>> ft = k_ary_fat_tree(4)          # Al-Fares et al. 2008: k^3/4 hosts, 5k^2/4 switches
>>> ft.hosts, ft.switches
(16, 20)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .specs import infiniband

#: Default link: one 4x NDR InfiniBand port, 400 Gb/s = 50 GB/s per direction.
def _default_rate() -> float:
    return infiniband("NDR").port_rate(4)


# ------------------------------------------------------------------------ fat-tree
@dataclass(frozen=True)
class FatTree:
    """A folded-Clos (fat-tree) network built from identical ``radix``-port switches.

    Attributes:
        hosts: Endpoints attached (NIC ports).
        radix: Ports per switch.
        tiers: Switch tiers (1 = a single switch, 2 = leaf-spine, 3 = leaf-spine-core).
        switches_per_tier: Switch count per tier, leaf first.
        switches: Total switches.
        host_cables: Host-to-leaf links (= hosts).
        switch_cables: Switch-to-switch links.
        cables: All links, ``host_cables + switch_cables``.
        leaf_down: Host ports per leaf switch.
        leaf_up: Uplink ports per leaf switch.
        oversubscription: Achieved leaf down:up ratio (``leaf_down / leaf_up``; 1.0 =
            non-blocking; 1.0 for a single switch).
        bisection_links: Links' worth of capacity across the worst equal cut, per direction.
        bisection_per_direction: ``bisection_links x link_rate``, bytes/s per direction.
        full_bisection_per_direction: What a non-blocking network would give,
            ``hosts/2 x link_rate``, bytes/s per direction.
        max_hops: Switches on the longest shortest path between two hosts (2 x tiers - 1).
        max_hosts: The most hosts these tiers can take at this radix and oversubscription.
        link_rate: Per-direction rate of every link, bytes/s.
    """

    hosts: int
    radix: int
    tiers: int
    switches_per_tier: tuple
    switches: int
    host_cables: int
    switch_cables: int
    cables: int
    leaf_down: int
    leaf_up: int
    oversubscription: float
    bisection_links: float
    bisection_per_direction: float
    full_bisection_per_direction: float
    max_hops: int
    max_hosts: int
    link_rate: float

    @property
    def bisection_ratio(self) -> float:
        """Bisection bandwidth as a share of full bisection (1.0 = non-blocking)."""
        return self.bisection_per_direction / self.full_bisection_per_direction

    @property
    def max_links(self) -> int:
        """Links crossed on the longest shortest host-to-host path: up ``tiers`` links
        and down ``tiers`` links, ``2 x tiers`` (the measure :class:`Dragonfly` and
        :class:`Torus` also give, so the three can be compared)."""
        return 2 * self.tiers


def leaf_ports(radix: int, oversubscription: float = 1.0) -> tuple[int, int]:
    """Split a leaf switch's ports into (down to hosts, up to the next tier).

    ``down = floor(radix x r / (1 + r))``, ``up = radix - down`` for a down:up ratio r.
    With r = 1 (non-blocking) each side gets ``radix / 2``.

    Args:
        radix: Ports per switch, an even integer 4..1024.
        oversubscription: Desired down:up ratio r >= 1 (e.g. 3 for "3:1").

    >>> leaf_ports(64, 1.0), leaf_ports(64, 3.0)
    ((32, 32), (48, 16))
    """
    k = v.integer("radix", radix, lo=4, hi=1024)
    if k % 2:
        raise ValueError(f"radix={radix!r} must be even (a fat-tree splits ports in halves)")
    r = float(v.number("oversubscription", oversubscription, lo=1.0, hi=float(k - 1)))
    down = int(math.floor(k * r / (1 + r) + 1e-9))
    down = min(max(down, k // 2), k - 1)
    return down, k - down


def max_hosts(radix: int, tiers: int, oversubscription: float = 1.0) -> int:
    """Most hosts a ``tiers``-tier fat-tree of ``radix``-port switches can connect.

    One switch: ``radix``. Two tiers: ``radix x down``. Each further tier multiplies by
    ``radix/2`` (a middle switch uses half its ports down, half up), so three tiers give
    ``radix x radix/2 x down`` = k^3/4 for a non-blocking k-ary fat-tree
    (Al-Fares, Loukissas and Vahdat, SIGCOMM 2008).

    Args:
        radix: Even port count 4..1024.
        tiers: 1..5.
        oversubscription: Leaf down:up ratio >= 1.

    >>> max_hosts(64, 2), max_hosts(64, 3)
    (2048, 65536)
    """
    down, _ = leaf_ports(radix, oversubscription)
    L = v.integer("tiers", tiers, lo=1, hi=5)
    if L == 1:
        return int(radix)
    return int(radix * down * (radix // 2) ** (L - 2))


def fat_tree(hosts: int, radix: int = 64, oversubscription: float = 1.0,
             link_rate: float | None = None, tiers: int | None = None) -> FatTree:
    """Size a fat-tree (folded Clos) for ``hosts`` endpoints.

    Leaves use ``down`` ports for hosts and ``up`` for uplinks (:func:`leaf_ports`); every
    higher tier is non-blocking (half down, half up) and the top tier uses all its ports
    down. Counts are the port-count minimum:

    * leaves ``n1 = ceil(hosts / down)``, with ``n1 x up`` uplinks;
    * each middle tier ``n_i = ceil(links_below / (radix/2))``, with ``n_i x radix/2``
      uplinks;
    * top tier ``n_L = ceil(links_below / radix)``.

    For the full non-blocking 3-tier build (hosts = k^3/4) this gives k^2/2 leaves,
    k^2/2 aggregation and k^2/4 core switches: 5k^2/4 in all (Al-Fares et al. 2008).
    Bisection (per direction) is ``min(hosts, n1 x up) / 2`` links: the leaf uplinks are
    the only tapered tier. Real designs round up to whole pods or scalable units and
    may add rails; this is the counting skeleton.

    Args:
        hosts: Endpoints (NIC ports), 1..10,000,000.
        radix: Ports per switch (even, 4..1024). NDR Quantum-2: 64 at 400 Gb/s.
        oversubscription: Leaf down:up ratio >= 1 (1 = full bisection).
        link_rate: Per-direction link rate, bytes/s (> 0); default one NDR 4x port
            (400 Gb/s = 50 GB/s).
        tiers: Force the number of tiers (1..5); default the fewest that fit.

    Returns:
        A :class:`FatTree`.

    >>> ft = fat_tree(1024, 64)            # DGX H100 SuperPOD, 4 scalable units
    >>> ft.switches_per_tier, ft.cables
    ((32, 16), 2048)
    """
    n = v.integer("hosts", hosts, lo=1, hi=10_000_000)
    down, up = leaf_ports(radix, oversubscription)
    k = int(radix)
    rate = _default_rate() if link_rate is None else float(v.positive("link_rate", link_rate))
    if tiers is None:
        L = next((t for t in range(1, 6) if max_hosts(k, t, oversubscription) >= n), None)
        if L is None:
            raise ValueError(f"hosts={hosts!r} is out of range: more than 5 tiers of "
                             f"{k}-port switches can connect")
    else:
        L = v.integer("tiers", tiers, lo=1, hi=5)
        if max_hosts(k, L, oversubscription) < n:
            raise ValueError(f"hosts={hosts!r} is out of range for tiers={L}: at most "
                             f"{max_hosts(k, L, oversubscription)} with radix {k}")
    if L == 1:
        return FatTree(n, k, 1, (1,), 1, n, 0, n, n, 0, 1.0, n // 2, (n // 2) * rate,
                       n / 2 * rate, 1, k, rate)
    per_tier = [math.ceil(n / down)]
    links_up = [per_tier[0] * up]
    for _ in range(L - 2):
        per_tier.append(math.ceil(links_up[-1] / (k // 2)))
        links_up.append(per_tier[-1] * (k // 2))
    per_tier.append(math.ceil(links_up[-1] / k))
    switch_cables = int(sum(links_up))
    bis = min(n, links_up[0]) // 2
    return FatTree(n, k, L, tuple(per_tier), int(sum(per_tier)), n, switch_cables,
                   n + switch_cables, down, up, down / up, bis, bis * rate, n / 2 * rate,
                   2 * L - 1, max_hosts(k, L, oversubscription), rate)


def fat_tree_counts(hosts, radix: int = 64, oversubscription: float = 1.0):
    """Vectorised switch and cable counts of :func:`fat_tree` for an array of host
    counts (fewest tiers each): returns ``(tiers, switches, cables)`` integer arrays.

    Args:
        hosts: Host counts (>= 1), array or scalar; each must fit in 5 tiers.
        radix: Even port count 4..1024.
        oversubscription: Leaf down:up ratio >= 1.
    """
    down, up = leaf_ports(radix, oversubscription)
    k = int(radix)
    v.whole("hosts", hosts, lo=1)
    n = np.atleast_1d(np.asarray(hosts, dtype=float)).astype(np.int64)
    caps = np.array([max_hosts(k, t, oversubscription) for t in range(1, 6)])
    if np.any(n > caps[-1]):
        raise ValueError(f"hosts={int(n.max())} is out of range: at most {caps[-1]} in 5 "
                         f"tiers of {k}-port switches")
    tiers = np.searchsorted(caps, n, side="left") + 1
    switches = np.where(tiers == 1, 1, 0).astype(np.int64)
    cables = n.copy()
    leaves = -(-n // down)
    links = leaves * up
    total = leaves.copy()
    sw_cables = links.copy()
    for level in range(2, 6):
        top = -(-links // k)
        is_top = tiers == level
        switches = np.where(is_top, total + top, switches)
        cables = np.where(is_top, n + sw_cables, cables)
        mid = -(-links // (k // 2))
        total = total + mid
        links = mid * (k // 2)
        sw_cables = sw_cables + links
    return tiers, switches, cables


def k_ary_fat_tree(k: int, link_rate: float | None = None) -> FatTree:
    """The full three-tier k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008):
    k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 core switches,
    k^3/4 hosts, 5k^2/4 switches, full bisection.

    Args:
        k: Switch radix, even, 4..256.
        link_rate: Per-direction link rate, bytes/s (default one NDR port).
    """
    k = v.integer("k", k, lo=4, hi=256)
    if k % 2:
        raise ValueError(f"k={k!r} must be even")
    return fat_tree(k**3 // 4, k, 1.0, link_rate, tiers=3)


# ----------------------------------------------------------------------- dragonfly
@dataclass(frozen=True)
class Dragonfly:
    """A dragonfly (Kim, Dally, Scott and Abts, ISCA 2008).

    Routers in a group are fully connected by local links; every router also has ``h``
    global links to other groups; each pair of groups is joined by at least one global
    link when ``groups <= a x h + 1``.

    Attributes:
        p: Hosts per router; a: routers per group; h: global links per router.
        groups: Number of groups.
        radix: Router ports used, ``p + (a - 1) + h``.
        hosts: ``a x p x groups``.
        switches: Routers, ``a x groups``.
        local_cables: ``groups x a (a - 1) / 2``.
        global_cables: ``groups x a x h / 2`` (ports may stay unused in small builds:
            this counts the links needed, ``groups (groups - 1) / 2`` at least).
        cables: hosts + local + global links.
        bisection_links: Global links across an equal split of the groups (one link per
            group pair: ``floor(g/2) x ceil(g/2)``), per direction.
        bisection_per_direction: bytes/s per direction.
        full_bisection_per_direction: ``hosts/2 x link_rate``.
        max_hops: Router-to-router hops on the longest minimal route: local, global,
            local = 3 (so up to 4 routers are traversed).
        link_rate: bytes/s per direction.
        links_per_group_pair: Global links joining each pair of groups.
    """

    p: int
    a: int
    h: int
    groups: int
    radix: int
    hosts: int
    switches: int
    local_cables: int
    global_cables: int
    cables: int
    bisection_links: float
    bisection_per_direction: float
    full_bisection_per_direction: float
    max_hops: int
    link_rate: float
    links_per_group_pair: int = 1

    @property
    def bisection_ratio(self) -> float:
        """Bisection as a share of full bisection."""
        return self.bisection_per_direction / self.full_bisection_per_direction

    @property
    def max_links(self) -> int:
        """Links crossed on the longest minimal host-to-host path: host to router, local,
        global, local, router to host = 5 (3 when a group is a single router)."""
        return 5 if self.a > 1 else 3


def dragonfly(p: int, a: int, h: int, groups: int | None = None,
              link_rate: float | None = None, spread_global: bool = False) -> Dragonfly:
    """Count a dragonfly with ``p`` hosts and ``h`` global links per router, ``a``
    routers per group and ``groups`` groups (default the maximum, ``a h + 1``).

    Kim et al. (ISCA 2008) balance channel load with ``a = 2p = 2h``; they report that a
    dragonfly "reduces cost by 20% compared to a flattened butterfly and by 52% compared
    to a folded Clos network in configurations with 16K nodes" (cost, dominated by long
    global cables, not switch count).

    Args:
        p: Hosts per router (1..128); a: routers per group (1..256); h: global links per
            router (1..128).
        groups: 2 .. a h + 1 (default a h + 1).
        link_rate: bytes/s per direction (default one NDR port).
        spread_global: With fewer than ``a h + 1`` groups, use every global port:
            ``floor(a h / (groups - 1))`` parallel links join each pair of groups
            (``False``: one link per pair, the minimum). With ``a h + 1`` groups both
            give one link per pair.

    >>> d = dragonfly(4, 8, 4)       # radix-15 routers, 33 groups
    >>> d.hosts, d.switches, d.radix
    (1056, 264, 15)
    """
    p = v.integer("p", p, lo=1, hi=128)
    a = v.integer("a", a, lo=1, hi=256)
    h = v.integer("h", h, lo=1, hi=128)
    g_max = a * h + 1
    g = g_max if groups is None else v.integer("groups", groups, lo=2, hi=g_max)
    rate = _default_rate() if link_rate is None else float(v.positive("link_rate", link_rate))
    v.flag("spread_global", spread_global)
    hosts = a * p * g
    local = g * a * (a - 1) // 2
    per_pair = (a * h) // (g - 1) if spread_global else 1
    pairs = g * (g - 1) // 2
    glob = pairs * per_pair if g < g_max else g * a * h // 2
    bis = (g // 2) * ((g + 1) // 2) * per_pair
    return Dragonfly(p, a, h, g, p + a - 1 + h, hosts, a * g, local, glob,
                     hosts + local + glob, bis, bis * rate, hosts / 2 * rate, 3, rate,
                     per_pair)


def balanced_dragonfly(radix: int, link_rate: float | None = None) -> Dragonfly:
    """The largest balanced dragonfly (``a = 2p = 2h``) of routers with ``radix`` ports:
    ``p = h = floor((radix + 1) / 4)``, ``a = 2p``, ``a h + 1`` groups.

    Args:
        radix: Router ports, 3..511.
        link_rate: bytes/s per direction (default one NDR port).
    """
    k = v.integer("radix", radix, lo=3, hi=511)
    p = (k + 1) // 4
    return dragonfly(p, 2 * p, p, None, link_rate)


def dragonfly_for(hosts: int, radix: int, link_rate: float | None = None):
    """The balanced dragonfly of routers with at most ``radix`` ports
    (:func:`balanced_dragonfly`: ``p = h = floor((radix + 1)/4)``, ``a = 2p``) with just
    enough groups for ``hosts`` endpoints (at least 2), every global port used
    (``spread_global=True``). ``None`` if even ``a h + 1`` groups are too few.

    Args:
        hosts: Endpoints, 1..10,000,000.
        radix: Router ports, 3..511.
        link_rate: bytes/s per direction (default one NDR port).

    >>> d = dragonfly_for(4096, 64)
    >>> d.radix, d.groups, d.switches
    (63, 8, 256)
    """
    n = v.integer("hosts", hosts, lo=1, hi=10_000_000)
    top = balanced_dragonfly(radix, link_rate)
    if top.hosts < n:
        return None
    per_group = top.a * top.p
    groups = min(max(2, -(-n // per_group)), top.a * top.h + 1)
    return dragonfly(top.p, top.a, top.h, groups, link_rate, spread_global=True)


# --------------------------------------------------------------------------- torus
@dataclass(frozen=True)
class Torus:
    """A torus (direct network: each node is its own router, no switches).

    Attributes:
        dims: Size of each dimension.
        hosts: Nodes, the product of ``dims``.
        switches: 0 (direct network).
        links_per_node: Neighbour links per node (2 per dimension of size > 2, 1 for
            size 2, 0 for size 1).
        cables: Node-to-node links.
        bisection_links: Links cut by halving the largest dimension (the wrap-around
            doubles it: ``2 x hosts / d_max``), per direction.
        bisection_per_direction: bytes/s per direction.
        full_bisection_per_direction: ``hosts/2 x link_rate``.
        max_hops: Diameter, ``sum(floor(d/2))``.
        mean_hops: Mean shortest-path hops over all ordered pairs (self included),
            ``sum(floor(d/2) ceil(d/2) / d)``.
        link_rate: bytes/s per direction.
    """

    dims: tuple
    hosts: int
    switches: int
    links_per_node: int
    cables: int
    bisection_links: float
    bisection_per_direction: float
    full_bisection_per_direction: float
    max_hops: int
    mean_hops: float
    link_rate: float

    @property
    def bisection_ratio(self) -> float:
        """Bisection as a share of full bisection."""
        return self.bisection_per_direction / self.full_bisection_per_direction

    @property
    def max_links(self) -> int:
        """Links crossed on the longest shortest path: the diameter (each node is an
        endpoint and its own router, so there are no host links)."""
        return self.max_hops


def torus(dims, link_rate: float | None = None) -> Torus:
    """Count a k-ary n-cube (torus) with the given dimension sizes, e.g. ``(8, 8, 8)``.

    Each dimension of size d > 2 is a ring of d links per line; size 2 gives one link.
    Bisection: cutting the largest dimension d_max in half crosses two links per ring
    (the direct and the wrap-around link), ``2 x hosts / d_max`` links per direction
    (Dally and Towles, *Principles and Practices of Interconnection Networks*, 2004).

    Args:
        dims: Sequence of 1..4 integer sizes, each 1..1024.
        link_rate: bytes/s per direction (default one NDR port).

    >>> t = torus((8, 8, 8))
    >>> t.hosts, t.cables, t.bisection_links, t.max_hops
    (512, 1536, 128, 12)
    """
    dims = tuple(dims) if np.ndim(dims) else (dims,)
    if not 1 <= len(dims) <= 4:
        raise ValueError(f"dims={dims!r} must have 1 to 4 dimensions")
    for i, d in enumerate(dims):
        v.integer(f"dims[{i}]", d, lo=1, hi=1024)
    dims = tuple(int(d) for d in dims)
    rate = _default_rate() if link_rate is None else float(v.positive("link_rate", link_rate))
    n = int(np.prod(dims))
    per_dim = [0 if d == 1 else (1 if d == 2 else 2) for d in dims]
    cables = sum((n // d) * (0 if d == 1 else (1 if d == 2 else d)) for d in dims)
    d_max = max(dims)
    if d_max == 1:
        bis = 0
    else:
        bis = (n // d_max) * (1 if d_max == 2 else 2)
    mean = sum((d // 2) * ((d + 1) // 2) / d for d in dims)
    return Torus(dims, n, 0, sum(per_dim), cables, bis, bis * rate, n / 2 * rate,
                 sum(d // 2 for d in dims), float(mean), rate)


def cube_torus(hosts: int, link_rate: float | None = None) -> Torus:
    """The most cube-like 3D torus with at least ``hosts`` nodes:
    ``d = ceil(hosts^(1/3))`` per side, shrinking sides while the product still fits.

    Args:
        hosts: 1..10,000,000.
        link_rate: bytes/s per direction.
    """
    n = v.integer("hosts", hosts, lo=1, hi=10_000_000)
    d = max(1, math.ceil(round(n ** (1 / 3), 9)))
    dims = [d, d, d]
    for i in (2, 1):
        while dims[i] > 1 and (dims[i] - 1) * int(np.prod(dims)) // dims[i] >= n:
            dims[i] -= 1
    return torus(tuple(dims), link_rate)


# --------------------------------------------------------------------- comparison
TOPOLOGIES = ("fat-tree", "dragonfly", "3D torus")
"""The three topologies :func:`compare` builds, in display order."""


def compare(hosts: int, radix: int = 64, link_rate: float | None = None) -> dict:
    """Fat-tree, dragonfly and 3D torus for about ``hosts`` endpoints, with the same link
    rate and, where switches are used, switches of the same radix:

    * ``"fat-tree"``: :func:`fat_tree` of ``radix``-port switches (non-blocking);
    * ``"dragonfly"``: :func:`dragonfly_for` with routers of at most ``radix`` ports
      (``None`` if a balanced dragonfly of that radix cannot reach ``hosts``);
    * ``"3D torus"``: :func:`cube_torus` (no switches; each node has up to 6 neighbour
      links, whatever ``radix`` is).

    Compare them by ``switches``, ``cables``, ``bisection_ratio`` and ``max_links``
    (links crossed on the longest path, host to host).

    Args:
        hosts: Endpoints, 1..10,000,000 (the fat-tree must fit in 5 tiers).
        radix: Even switch port count, 4..510.
        link_rate: bytes/s per direction (default one NDR port).

    >>> c = compare(4096, 64)
    >>> c["fat-tree"].switches, c["dragonfly"].switches, c["3D torus"].switches
    (320, 256, 0)
    """
    k = v.integer("radix", radix, lo=4, hi=510)
    n = v.integer("hosts", hosts, lo=1, hi=10_000_000)
    return {"fat-tree": fat_tree(n, k, 1.0, link_rate),
            "dragonfly": dragonfly_for(n, k, link_rate),
            "3D torus": cube_torus(n, link_rate)}
