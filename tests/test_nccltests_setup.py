"""What a log says about how NCCL ran (interlib.nccltests.setup.read_setup), each fact with
the line it came from, and the setup in words (RunSetup.lines).

Lines are NCCL's own formats (NVIDIA/nccl ``src/init.cc``: ``comm %p rank %d nRanks %d
nNodes %d localRanks %d``, ``NCCL version %s``; ``src/transport/*.cc``: ``Channel %02d/%d :
%d[%d] -> %d[%d] via %s``; ``src/transport/net_ib.cc``: ``NET/IB : Using [0]mlx5_0:1/IB
...``; ``src/init.cc``/``src/graph/connect.cc``: ``%d coll channels``, ``Connected all
rings``, ``Trees [0] ...``; ``src/misc/param.cc``: ``%s set by environment to %s.``), most
copied from the corpus logs in tests/fixtures/nccltests (host names as there); RCCL's
``RCCL version : 2.22.3-HEAD:7d8d67c`` and nccl-tests' ``nccl-library=22907`` header as the
corpus prints them. Expected facts by reading the lines.
"""
from __future__ import annotations

import pytest

from interlib.nccltests.setup import Fact, RunSetup, nranks_in, read_setup

H = "nccl-test-host-1:166:207 [0] NCCL INFO "
LOG = [
    "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5",  # 1
    H + "NCCL version 2.21.5+cuda12.4",                                      # 2
    H + "NCCL_P2P_PXN_LEVEL set by environment to 0.",                        # 3
    H + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1/RoCE ; OOB eth0:10.1.2.3<0>",  # 4
    H + "Using network IB",                                                  # 5
    H + "comm 0x55d5c0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",  # 6
    H + "Channel 00/24 :    0   1   2   3   4   5   6   7",                  # 7
    H + "32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels",  # 8
    H + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",                           # 9
    H + "Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/3/GDRDMA",            # 10
    H + "Channel 01/0 : 6[6] -> 14[6] [send] via NET/IB/2/GDRDMA",           # 11
    H + "Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1",                       # 12
    H + "Connected all rings",                                               # 13
    H + "Connected all trees",                                               # 14
    "nccl-test-host-1:166:207 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs",  # 15
    H + '  <net name="mlx5_0" dev="0" speed="400000" port="1"/>',        # 16 (topology dump)
    H + "NVLS multicast support is available on dev 0",                     # 17
    H + '  <net name="mlx5_3" dev="1" speed="200000" port="1"/>',        # 18
    H + "comm 0x55d5c0 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 - Init COMPLETE",  # 19
]


def setup(lines, hosts=("nccl-test-host-1",)):
    return read_setup(list(enumerate(lines, 1)), hosts)


def blank(line):
    return line.replace("nccl-test-host-1", "<host>").replace("10.1.2.3", "<host>")


def test_every_fact_with_its_line():
    s = setup(LOG)
    f = lambda value, n: Fact(value, n, blank(LOG[n - 1]))  # noqa: E731
    assert s.library == f("NCCL", 2) and s.version == f("2.21.5", 2)
    assert s.env == {"NCCL_P2P_PXN_LEVEL": f("0", 3)}
    assert s.nics == f(("mlx5_0", "mlx5_3"), 4)
    assert s.network == f("IB", 4)          # the NIC line names the network first
    assert (s.ranks, s.nodes, s.local_ranks) == (f(16, 6), f(2, 6), f(8, 6))
    assert s.channels == f(24, 7)           # the first line that says: Channel 00/24
    assert s.transports == {"P2P/IPC": f("P2P/IPC", 9), "NET/IB/GDRDMA": f("NET/IB/GDRDMA", 10)}
    assert s.gdr == f(True, 10)
    assert s.algorithms == {"tree": f(True, 12), "ring": f(True, 13), "NVLS": f(True, 17)}
    assert s.warnings == (f("Failed to open libibverbs", 15),)
    assert s.nic_speeds == f((200000, 400000), 16)
    assert not s.empty
    assert "nccl-test-host-1" not in repr(s) and "10.1.2.3" not in repr(s)


def test_the_setup_in_words():
    assert setup(LOG).lines() == [
        "NCCL 2.21.5 (line 2: '" + blank(LOG[1]) + "')",
        "network: IB (line 4: '" + blank(LOG[3]) + "')",
        "transport P2P/IPC (line 9: '" + blank(LOG[8]) + "')",
        "transport NET/IB/GDRDMA (line 10: '" + blank(LOG[9]) + "')",
        "GPUDirect RDMA on (line 10: '" + blank(LOG[9]) + "')",
        "NICs: mlx5_0, mlx5_3 (line 4: '" + blank(LOG[3]) + "')",
        "NIC speeds: 200 Gb/s, 400 Gb/s (line 16: '" + blank(LOG[15]).strip() + "')",
        "24 channels (line 7: '" + blank(LOG[6]) + "')",
        "tree built (line 12: '" + blank(LOG[11]) + "')",
        "ring built (line 13: '" + blank(LOG[12]) + "')",
        "NVLS built (line 17: '" + blank(LOG[16]) + "')",
        "16 ranks on 2 node(s), 8 per node (line 6: '" + blank(LOG[5]) + "')",
        "NCCL_P2P_PXN_LEVEL=0 (line 3: '" + blank(LOG[2]) + "')",
        "warning: line 15: '" + blank(LOG[14]) + "'",
    ]


def test_an_empty_setup_says_nothing():
    s = setup(["#  size  count  type", "  8  2  float  sum  -1  5.1  0.00  0.00  0"])
    assert s == RunSetup() and s.empty and s.lines() == []
    for one in (["RCCL version : 2.22.3-HEAD:7d8d67c"], [H + "Using network Socket"],
                [H + "Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct"],
                [H + "8 coll channels, 8 p2p channels"], [H + "Connected all rings"],
                ["mpirun -x NCCL_DEBUG=INFO ./all_reduce_perf"],
                [H + "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0"],
                ["x:1:2 [0] misc/socket.cc:1 NCCL WARN oops"]):
        assert not setup(one).empty, one
    # speeds alone, or a GDR flag alone, do not make a setup
    assert RunSetup(nic_speeds=Fact((1,), 1, "x")).empty
    assert not RunSetup(gdr=Fact(False, 1, "x")).empty


def test_versions_rccl_and_the_library_code():
    r = setup(["RCCL version : 2.22.3-HEAD:7d8d67c"])
    assert (r.library.value, r.version.value) == ("RCCL", "2.22.3")
    assert r.lines()[0] == "RCCL 2.22.3 (line 1: 'RCCL version : 2.22.3-HEAD:7d8d67c')"
    # nccl-tests' header: the library code 22907 = 2.29.7 (NCCL_VERSION(X,Y,Z) = X*10000 +
    # Y*100 + Z); no library named, so the words say NCCL
    head = "# nccl-tests version 2.18.0 nccl-headers=22907 nccl-library=22907"
    c = setup([head])
    assert (c.library, c.version.value) == (None, "2.29.7")
    assert c.lines() == [f"NCCL 2.29.7 (line 1: '{head}')"]
    # the first version stated is kept
    assert setup([LOG[1], head]).version.value == "2.21.5"
    assert setup([head, LOG[1]]).version.value == "2.29.7"
    assert setup(["# nccl-tests version 2.18.0 nccl-library=123"]).version is None


def test_environment_from_nccl_and_from_the_command_line():
    s = setup(["mpirun -np 16 -x NCCL_IB_HCA=mlx5_0,mlx5_3 --env NCCL_ALGO=Ring "
               "-x LD_LIBRARY_PATH=/x NCCL_DEBUG=INFO ./all_reduce_perf",
               "export NCCL_SOCKET_IFNAME=eth0",
               H + "NCCL_IB_HCA set by environment to mlx5_9",
               H + "NCCL_NET_GDR_LEVEL set by environment to PHB.",
               H + "NCCL_DEBUG set by environment to WARN"])
    assert {k: (f.value, f.lineno) for k, f in s.env.items()} == {
        "NCCL_IB_HCA": ("mlx5_0,mlx5_3", 1), "NCCL_ALGO": ("Ring", 1),
        "NCCL_DEBUG": ("INFO", 1), "NCCL_SOCKET_IFNAME": ("eth0", 2),
        "NCCL_NET_GDR_LEVEL": ("PHB", 4)}
    # a NCCL line that only mentions a variable is not a setting
    assert setup([H + "NCCL_IB_HCA is not set"]).env == {}
    assert setup(["MY_NCCL_X=1 ./run"]).env == {}


def test_at_most_five_warnings():
    s = setup([f"x:1:2 [0] a.cc:1 NCCL WARN warning {i}" for i in range(8)])
    assert [w.value for w in s.warnings] == [f"warning {i}" for i in range(5)]


@pytest.mark.parametrize("via, name", [
    ("P2P/IPC", "P2P/IPC"), ("P2P/CUMEM/read", "P2P/CUMEM"),
    ("P2P/direct pointer", "P2P/direct pointer"), ("SHM/direct/direct", "SHM/direct/direct"),
    ("NET/IB/0/GDRDMA", "NET/IB/GDRDMA"), ("NET/IB/12", "NET/IB"),
    ("NET/Socket/0", "NET/Socket"), ("NET/AWS Libfabric/3/GDRDMA", "NET/AWS Libfabric/GDRDMA"),
    ("NVLS", "NVLS"), ("CollNetDirect", "CollNetDirect"),
])
def test_transports_without_device_indices(via, name):
    s = setup([H + f"Channel 00/0 : 0[0] -> 1[1] via {via}"])
    assert list(s.transports) == [name]


def test_gdr_from_the_first_network_transport_or_a_ring_flag():
    assert setup([H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0"]).gdr.value is False
    assert setup([H + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"]).gdr is None
    both = setup([H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0",
                  H + "Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/1/GDRDMA"])
    assert both.gdr.value is False and both.gdr.lineno == 1
    ring = setup([H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
                  H + "Ring 00 : 0 -> 8 [send] use ring GDR 0"])
    assert (ring.gdr.value, ring.gdr.lineno) == (False, 2)
    assert ring.lines()[1] == f"GPUDirect RDMA off (line 2: '{blank(H)}Ring 00 : 0 -> 8 " \
                              "[send] use ring GDR 0')"
    assert setup([H + "Ring 00 : use ring GDR 1"]).gdr.value is True


def test_network_and_nics():
    s = setup([H + "Using network AWS Libfabric", H + "Using network IB"])
    assert s.network.value == "AWS Libfabric" and s.nics is None
    sock = setup([H + "NET/Socket : Using [0]eth0:10.0.0.1<0> [1]eth1:10.0.0.2<0>"])
    assert (sock.network.value, sock.nics.value) == ("Socket", ("eth0", "eth1"))
    ofi = setup([H + "NET/OFI Selected Provider is efa", H + "NET/OFI : Using nothing"])
    assert ofi.network.value == "OFI" and ofi.nics is None
    # the first NIC line is kept
    two = setup([LOG[3], H + "NET/IB : Using [0]mlx5_9:1/IB"])
    assert two.nics.value == ("mlx5_0", "mlx5_3")


def test_channels_from_either_line():
    assert setup([H + "8 coll channels, 8 p2p channels"]).channels.value == 8
    assert setup([H + "Channel 03/16 :    0   1"]).channels.value == 16
    # a transport line's "Channel 00/0" is not a channel count
    assert setup([H + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"]).channels is None
    assert setup([H + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                  H + "Channel 00/04 :    0   1"]).channels.value == 4


@pytest.mark.parametrize("line, name", [
    ("Connected all rings", "ring"), ("Connected all trees", "tree"),
    ("Trees [0] 2/-1/-1->1->0", "tree"), ("Connected NVLS", "NVLS"),
    ("NVLS multicast support is available on dev 0", "NVLS"), ("NVLS Head  0: 0 8", "NVLS"),
    ("CollNet channels enabled", "CollNet"), ("Connected collnet + chain", "CollNet"),
    ("Connected CollNet", "CollNet"),
])
def test_algorithms_built(line, name):
    assert list(setup([H + line]).algorithms) == [name]


def test_nothing_from_lines_that_are_not_nccls():
    """Outside NCCL's own lines only versions and command-line variables are read."""
    s = setup(["Connected all rings", "Using network IB", "8 coll channels",
               "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2",
               "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", "NCCL_WARN x"])
    assert s == RunSetup()


def test_nranks_in_takes_the_largest():
    lines = list(enumerate([H + "comm 0x1 rank 0 nranks 8 cudaDev 0 - Init COMPLETE",
                            H + "comm 0x2 rank 0 nranks 16 cudaDev 0 - Init COMPLETE",
                            H + "comm 0x2 rank 0 nranks 4 cudaDev 0 - Init COMPLETE",
                            "comm 0x3 rank 0 nranks 64 (not NCCL's line)"], 1))
    assert nranks_in(lines) == 16
    assert nranks_in(lines[:2]) == 16 and nranks_in([]) is None
    assert nranks_in([(1, H + "nranks x")]) is None


def test_nranks_in_reads_the_nranks_nnodes_line():
    # NCCL 2.23.4's init line as printed in nccl-tests#311 (4 nodes x 2 A100, rank 0 and 7),
    # a paste that kept it but not the 'nranks 8 ... Init START/COMPLETE' lines
    real = ["gpu34:23654:23684 [0] NCCL INFO comm 0x5aae1d0 rank 0 nRanks 8 nNodes 4 "
            "localRanks 2 localRank 0 MNNVL 0",
            "gpu41:63047:63078 [1] NCCL INFO comm 0x6a02830 rank 7 nRanks 8 nNodes 4 "
            "localRanks 2 localRank 1 MNNVL 0"]
    assert nranks_in(list(enumerate(real, 1))) == 8
    # localRanks alone is not the communicator's size
    assert nranks_in([(1, "h:1:2 [0] NCCL INFO localRanks 2 localRank 0")]) is None
