"""The scale-up ladder table (interlib.hierarchy.scaleup_ladder_table) for accelerators whose
scale-up figure has no stated direction, or no figure at all.

AWS Neuron documentation, Trainium2 architecture: "NeuronLink-v3 for device-to-device
interconnect provides 1.28 TB/sec bandwidth per device" (no direction stated): the table
quotes it and says so, never halves it, and leaves the per-direction ratios out. The UALink
200G 1.0 white paper gives lane rates, no per-accelerator figure: "not in our sources".
"""
from __future__ import annotations

from interlib import hierarchy


def test_a_figure_without_a_direction_is_quoted_and_said():
    row = hierarchy.scaleup_ladder_table(("trainium2-trn2",)).rows[0]
    assert row[3] == "1.28 TB/s, direction not stated"
    assert row[5:] == ["–", "–"]       # no per-direction figure to divide by


def test_no_figure_at_all():
    row = hierarchy.scaleup_ladder_table(("ualink-pod",)).rows[0]
    assert row[3] == "not in our sources" and row[5:] == ["–", "–"]
