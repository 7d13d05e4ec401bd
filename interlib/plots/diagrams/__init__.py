"""Drawn diagrams generated from the catalogue: pure functions, parameters -> Figure.

One function per picture a chapter needs; each reads its counts and rates from
:mod:`interlib.specs` and the models (:mod:`interlib.topology`, :mod:`interlib.packets`,
:mod:`interlib.hierarchy`, :mod:`interlib.capstone`), so the picture changes when the data
does. Every figure carries ``fig.interlib_alt`` (its alt text, which the chapter's cell
metadata repeats) and ``fig.interlib_counts`` (what was drawn, for the tests).

====================  =======  ==================================================
function              chapter  shows
====================  =======  ==================================================
ring_all_reduce_steps 1        the chunks each GPU holds after every ring step
pcie_tree             2        CPUs, PCIe switches, GPUs and NICs of a DGX H100
nvlink_generations    3        NVLink links per GPU, one row per generation
nvswitch_wiring       4        DGX H100 GPUs to its four NVSwitch chips (5+4+4+5)
nvl72_rack            4        GB200 NVL72 compute and switch trays
fat_tree              5        a k-ary fat-tree with its counts
rail_optimised        5        a rail-optimised scalable unit with its counts
packet_layers         6        a RoCEv2 packet's layers to scale, vs InfiniBand
bandwidth_ladder      7        the ladder as bars to a linear scale
capstone_layout       8        the capstone cluster: spines, leaves, nodes by stage
====================  =======  ==================================================

networkx (for the wiring graphs, :mod:`.graphs`) is imported lazily.
"""

from .fabric import fat_tree, packet_layers, rail_optimised
from .inside_box import nvl72_rack, nvlink_generations, nvswitch_wiring, pcie_tree
from .overview import bandwidth_ladder, capstone_layout, ring_all_reduce_steps

__all__ = ["ring_all_reduce_steps", "pcie_tree", "nvlink_generations", "nvswitch_wiring",
           "nvl72_rack", "fat_tree", "rail_optimised", "packet_layers", "bandwidth_ladder",
           "capstone_layout"]
