"""Link-level flow control: InfiniBand credits vs a lossy link, and Ethernet PFC.

Two small, seeded, time-stepped simulations (one time step = one packet time on the link,
e.g. a 4 KiB packet at 400 Gb/s is about 82 ns). Chapter 5 uses :func:`credit_vs_lossy`;
Chapter 6 uses :func:`pfc_storm`.

Both are deliberately small models, not packet-accurate switch simulators. They keep the
mechanism and the hand-checkable limits:

* a credit-limited sender never overflows the receiver, and with credits >= the round-trip
  bandwidth-delay product it runs at full rate (throughput = min(1, credits / RTT));
* a sender with no flow control overflows a congested buffer, and every drop costs a
  go-back-N resend (the classic RoCE NIC recovery) during which the receiver starves;
* with PFC, a receiver that stops draining pauses its switch, which pauses the switch
  upstream, which pauses every sender behind it (head-of-line blocking); a watchdog that
  stops honouring pauses on a port stuck for too long contains the storm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v


# ------------------------------------------------------------- credits vs lossy
@dataclass(frozen=True)
class LinkRun:
    """Result of one :func:`credit_vs_lossy` run.

    Attributes:
        mode: ``"credit"`` (lossless, credit-based) or ``"lossy"`` (no flow control).
        goodput: Packets delivered in order per time step (share of the link rate).
        offered: Packets the sender put on the wire per time step.
        drops: Packets dropped at the full receive buffer.
        discarded: Packets that arrived out of order after a drop and were thrown away
            (go-back-N), so had to be sent again.
        occupancy: Receive-buffer occupancy after every step, packets (array, length
            ``steps``).
        delivered: Cumulative in-order packets delivered after every step (array).
    """

    mode: str
    goodput: float
    offered: float
    drops: int
    discarded: int
    occupancy: np.ndarray
    delivered: np.ndarray


def bdp_packets(rtt_steps: int) -> int:
    """Bandwidth-delay product of a link measured in packets: one packet per step for
    ``rtt_steps`` steps, i.e. ``rtt_steps`` packets (credits needed for full rate)."""
    return v.integer("rtt_steps", rtt_steps, lo=2, hi=10_000)


def credit_throughput_bound(credits, rtt_steps: int, drain: float = 1.0):
    """Steady throughput of a credit-limited sender, share of link rate:
    ``min(1, drain, credits / rtt_steps)``.

    A credit returns one round trip after its packet was sent (if the receiver drains
    immediately), so at most ``credits`` packets are in flight per round trip.

    Args:
        credits: Receive-buffer credits (packets, > 0), scalar or array.
        rtt_steps: Round trip in packet times (>= 2).
        drain: Share of steps in which the receiver can forward a packet, (0, 1].
    """
    v.positive("credits", credits)
    v.whole("credits", credits)
    bdp_packets(rtt_steps)
    v.fraction("drain", drain)
    c = np.asarray(credits, dtype=float)
    return np.minimum(np.minimum(1.0, drain), c / rtt_steps)[()]


def credit_vs_lossy(mode: str, buffer_packets: int = 32, load: float = 0.0,
                    rtt_steps: int = 16, steps: int = 3000, seed: int = 0) -> LinkRun:
    """Simulate one sender streaming into one receive buffer.

    Each step: packets sent ``rtt_steps/2`` steps ago arrive; the receiver forwards one
    packet downstream with probability ``1 - load`` (other traffic takes the rest of its
    output port); the sender transmits at most one packet.

    * ``"credit"`` (InfiniBand): the sender starts with ``buffer_packets`` credits, spends
      one per packet and gets it back half a round trip after the receiver frees the slot.
      Nothing is ever dropped.
    * ``"lossy"`` (Ethernet without PFC, no congestion control): the sender always
      transmits; a packet arriving at a full buffer is dropped. The receiver accepts only
      the next in-order packet, discards later ones and sends a NAK; on the NAK the
      sender goes back to the lost packet (go-back-N). A NAK is repeated at most once per
      round trip (a stand-in for the retransmission timer).

    Args:
        mode: ``"credit"`` or ``"lossy"``.
        buffer_packets: Receive buffer = credits, packets (1..4096).
        load: Share of the receiver's output taken by other traffic, [0, 0.95].
        rtt_steps: Round-trip time in packet times, even, 2..512.
        steps: Steps to simulate (100..100,000).
        seed: Seed of the drain process (deterministic output).

    Returns:
        A :class:`LinkRun`.

    >>> r = credit_vs_lossy("credit", buffer_packets=16, rtt_steps=16, steps=2000)
    >>> r.drops, round(r.goodput, 2)
    (0, 1.0)
    """
    v.choice("mode", mode, ("credit", "lossy"))
    B = v.integer("buffer_packets", buffer_packets, lo=1, hi=4096)
    v.number("load", load, lo=0.0, hi=0.95)
    rtt = v.integer("rtt_steps", rtt_steps, lo=2, hi=512)
    if rtt % 2:
        raise ValueError(f"rtt_steps={rtt_steps!r} must be even (two equal one-way delays)")
    T = v.integer("steps", steps, lo=100, hi=100_000)
    v.integer("seed", seed, lo=0)
    d = rtt // 2
    drain = (np.random.default_rng(seed).random(T) >= load).tolist()
    credit = mode == "credit"
    pipe = [-1] * d          # packet sequence numbers in flight to the receiver
    nak_pipe = [-1] * d      # NAKs in flight back to the sender
    cred_pipe = [0] * d      # credits in flight back to the sender
    credits, q, nxt, expected = B, 0, 0, 0
    last_nak = -10**9
    drops = discarded = sent = 0
    occ = np.empty(T, dtype=np.int32)
    dlv = np.empty(T, dtype=np.int64)
    delivered = 0
    for t in range(T):
        i = t % d
        # 1. the sender hears what the receiver wrote d steps ago (same slot)
        if credit:
            credits += cred_pipe[i]
            cred_pipe[i] = 0
        elif nak_pipe[i] >= 0:
            nxt = nak_pipe[i]                # go back N
            nak_pipe[i] = -1
        # 2. the packet sent d steps ago reaches the receiver
        seq = pipe[i]
        if seq >= 0:
            if q >= B:                       # only possible without credits
                drops += 1
            elif seq == expected:
                q += 1
                expected += 1
            else:
                discarded += 1
                if seq > expected and t - last_nak >= rtt:
                    nak_pipe[i] = expected
                    last_nak = t
        # 3. the receiver forwards one packet downstream when its output is free
        if q > 0 and drain[t]:
            q -= 1
            delivered += 1
            if credit:
                cred_pipe[i] += 1
        # 4. the sender transmits (if it holds a credit)
        if credit and credits == 0:
            pipe[i] = -1
        else:
            pipe[i] = nxt
            nxt += 1
            sent += 1
            if credit:
                credits -= 1
        occ[t] = q
        dlv[t] = delivered
    return LinkRun(mode, delivered / T, sent / T, drops, discarded, occ, dlv)


# --------------------------------------------------------------------------- PFC
@dataclass(frozen=True)
class PFCRun:
    """Result of :func:`pfc_storm`; arrays have one entry per time step.

    Attributes:
        t: Time steps (0 .. steps-1).
        good_rx: Packets per step reaching the healthy receiver.
        bad_rx: Packets per step reaching the failing receiver.
        q_leaf: Packets queued in the first switch (towards the uplink).
        q_good, q_bad: Packets queued in the second switch towards each receiver.
        paused_uplink: 1 where the second switch pauses the uplink.
        paused_hosts: Number of senders paused by the first switch.
        dropped: Cumulative packets dropped by the watchdog.
        pause_steps: Total steps any link was paused.
        watchdog_fired_at: Step at which the watchdog fired, or -1.
    """

    t: np.ndarray
    good_rx: np.ndarray
    bad_rx: np.ndarray
    q_leaf: np.ndarray
    q_good: np.ndarray
    q_bad: np.ndarray
    paused_uplink: np.ndarray
    paused_hosts: np.ndarray
    dropped: np.ndarray
    pause_steps: int
    watchdog_fired_at: int


def pfc_storm(senders: int = 4, load: float = 0.6, failure: bool = True,
              watchdog: bool = True, fail_at: int = 50, watchdog_steps: int = 100,
              xoff: float = 40.0, xon: float = 20.0, steps: int = 600) -> PFCRun:
    """A fluid, time-stepped model of a PFC pause storm on two switches.

    ``senders`` hosts hang off switch 1; its uplink (capacity 1 packet per step) goes to
    switch 2, which serves a healthy receiver and a failing one (each link 1 packet per
    step). Host 0 sends to the failing receiver, the others to the healthy one; together
    they offer ``load`` packets per step, shared equally. (One lossless priority class:
    PFC pauses a whole link class, not a flow.)

    Rules (IEEE 802.1Qbb priority flow control, simplified to one class):

    * A switch pauses an ingress link when the packets it holds from that link exceed
      ``xoff`` (holding exactly ``xoff`` does not pause) and resumes once they are back at
      ``xon`` or below. Switch 2 counts everything that came over the uplink; switch 1
      counts each host's packets in its queue.
    * From ``fail_at`` on (if ``failure``), the failing receiver stops draining and keeps
      its link paused (a stuck NIC sending pause frames).
    * Watchdog (if ``watchdog``): a switch egress paused for ``watchdog_steps`` in a row
      stops honouring pauses and drops what it holds for that port and what arrives for it
      (the PFC storm-prevention behaviour of data-centre switches).
    * Queues are served in proportion to their content (fluid FIFO).

    Args:
        senders: Hosts on switch 1 (1..16). With one sender there is no failing receiver
            traffic to share with: host 0 is the only flow.
        load: Total offered load, packets per step, (0, 1].
        failure: Whether the failing receiver gets stuck.
        watchdog: Whether the PFC watchdog is on.
        fail_at: Step at which the receiver gets stuck (0..steps-1).
        watchdog_steps: Continuous pause that trips the watchdog (1..10,000 steps).
        xoff, xon: Pause and resume thresholds, packets (0 < xon < xoff <= 10,000).
        steps: Steps to simulate (10..20,000).

    Returns:
        A :class:`PFCRun`.
    """
    n = v.integer("senders", senders, lo=1, hi=16)
    v.number("load", load, lo=0.0, hi=1.0, lo_open=True)
    T = v.integer("steps", steps, lo=10, hi=20_000)
    f_at = v.integer("fail_at", fail_at, lo=0, hi=T - 1)
    wd = v.integer("watchdog_steps", watchdog_steps, lo=1, hi=10_000)
    v.number("xoff", xoff, lo=0.0, hi=10_000.0, lo_open=True)
    v.number("xon", xon, lo=0.0, hi=float(xoff), hi_open=True)
    if not isinstance(failure, (bool, np.bool_)):
        raise ValueError(f"failure={failure!r} must be True or False")
    if not isinstance(watchdog, (bool, np.bool_)):
        raise ValueError(f"watchdog={watchdog!r} must be True or False")
    rate = load / n
    to_bad = [n > 1 and h == 0 for h in range(n)]
    q1 = [0.0] * n                   # switch-1 queue content per host (all to the uplink)
    q_good = q_bad = 0.0
    paused_host = [False] * n
    paused_up = False
    bad_paused_run = 0
    wd_fired = -1
    dropped = 0.0
    cols = [[0.0] * T for _ in range(8)]
    pause_steps = 0
    for t in range(T):
        stuck = failure and t >= f_at and wd_fired < 0
        for h in range(n):           # hosts send unless paused
            if not paused_host[h]:
                q1[h] += rate
        tot1 = sum(q1)               # uplink serves switch 1 (fluid FIFO) unless paused
        arrive_bad = arrive_good = 0.0
        if not paused_up and tot1 > 0:
            frac = min(1.0, tot1) / tot1
            for h in range(n):
                moved = q1[h] * frac
                q1[h] -= moved
                if to_bad[h]:
                    arrive_bad += moved
                else:
                    arrive_good += moved
        if wd_fired >= 0:            # watchdog: drop traffic for the dead port
            dropped += arrive_bad
            arrive_bad = 0.0
        q_good += arrive_good
        q_bad += arrive_bad
        g = min(1.0, q_good)
        q_good -= g
        if stuck:
            b = 0.0
            bad_paused_run += 1
        else:
            b = min(1.0, q_bad)
            q_bad -= b
            bad_paused_run = 0
        if watchdog and stuck and bad_paused_run >= wd:
            wd_fired = t
            dropped += q_bad
            q_bad = 0.0
        # PFC decisions for the next step, with XOFF/XON hysteresis
        held2 = q_good + q_bad
        paused_up = held2 > (xon if paused_up else xoff)
        paused_host = [q1[h] > (xon if paused_host[h] else xoff) for h in range(n)]
        n_paused = sum(paused_host)
        pause_steps += int(paused_up) + n_paused + int(stuck and wd_fired < 0)
        for col, val in zip(cols, (g, b, sum(q1), q_good, q_bad, float(paused_up),
                                   float(n_paused), dropped)):
            col[t] = val
    out = dict(zip(("good", "bad", "ql", "qg", "qb", "pu", "ph", "dr"),
                   (np.asarray(c) for c in cols)))
    return PFCRun(np.arange(T), out["good"], out["bad"], out["ql"], out["qg"], out["qb"],
                  out["pu"], out["ph"], out["dr"], pause_steps, wd_fired)


# ------------------------------------------------------------ buffer sizing
#: Signal speed in optical fibre, m/s (refractive index about 1.5: about 5 ns per metre).
FIBRE_SPEED = 2.0e8


def round_trip(distance_m, extra_s: float = 0.0):
    """Round-trip propagation time over ``distance_m`` of fibre plus ``extra_s``, s:
    ``2 x distance / FIBRE_SPEED + extra_s`` (about 10 ns per metre of cable).

    Args:
        distance_m: One-way cable length, m (>= 0), scalar or array.
        extra_s: Added fixed delay (switch and NIC pipeline), s (>= 0).
    """
    v.non_negative("distance_m", distance_m)
    v.non_negative("extra_s", extra_s)
    t = 2 * np.asarray(distance_m, dtype=float) / FIBRE_SPEED + extra_s
    return float(t) if t.ndim == 0 else t


def credit_buffer_bytes(link_rate, distance_m, extra_s: float = 0.0):
    """Receive buffer (credits) a credit-based link needs to run at full rate: the
    bandwidth-delay product ``link_rate x round_trip(distance_m, extra_s)``, bytes.

    Args:
        link_rate: bytes/s per direction (> 0).
        distance_m: One-way cable length, m (>= 0).
        extra_s: Added fixed delay in the loop, s (>= 0).

    >>> from interlib.units import GB_per_s
    >>> credit_buffer_bytes(50 * GB_per_s, 100)      # 400 Gb/s over 100 m: 1 us round trip
    50000.0
    """
    v.positive("link_rate", link_rate)
    return link_rate * round_trip(distance_m, extra_s)


def pfc_headroom_bytes(link_rate, distance_m, response_s: float = 0.0,
                       mtu_bytes: float = 4096.0):
    """Buffer a PFC switch must keep free above its XOFF threshold so nothing is lost
    while a pause takes effect: what the sender keeps sending during the round trip and
    the receiver's reaction time, plus one maximum-size packet in flight at each end:
    ``link_rate x (round_trip + response_s) + 2 x mtu_bytes`` (the usual headroom
    reasoning, e.g. Guo et al. SIGCOMM 2016).

    Args:
        link_rate: bytes/s per direction (> 0).
        distance_m: One-way cable length, m (>= 0).
        response_s: Time for the upstream port to react to a pause frame, s (>= 0).
        mtu_bytes: Largest frame, bytes (> 0).
    """
    v.positive("link_rate", link_rate)
    v.non_negative("response_s", response_s)
    v.positive("mtu_bytes", mtu_bytes)
    return link_rate * round_trip(distance_m, response_s) + 2 * mtu_bytes
