"""The book's collective model, behind :func:`interlib.collectives.predict` and
:func:`interlib.collectives.nccl_estimate`, in small parts a reader can take one at a time:

* :mod:`~interlib.collective_model.links`: the bandwidths an algorithm sees (NVLink or PCIe
  per GPU, the node's NICs) and NCCL's per-channel caps;
* :mod:`~interlib.collective_model.fabrics`: the network and its plugin (EFA, RoCE,
  InfiniBand, Google's GPUDirect-TCPXO profiles, AWS's region tuner);
* :mod:`~interlib.collective_model.algorithms`: one function per algorithm (ring, tree,
  recursive halving/doubling, all-to-all, NVLS, NVLSTree, hierarchical, SHARP), each with
  its formula, in NCCL's own view (``tuning.cc``: what NCCL's choice is made from) and in
  the book's (plus launch, pipeline fill and what NCCL's model leaves out);
* :mod:`~interlib.collective_model.choice`: which algorithms and protocols are candidates,
  and why one cannot run;
* :mod:`~interlib.collective_model.calibrated`: the book's calibrated constants, and how
  cross-validation swaps in the values of one fold.

The textbook alpha-beta formulas are :mod:`interlib.alphabeta`.
"""
