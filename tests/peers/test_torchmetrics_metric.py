"""rankflavor.torchmetrics' RetrievalFlavor against torchmetrics 1.9.0's RetrievalNormalizedDCG, fed the same
batches (a query's documents spread over several update() calls, ties, graded and all-zero queries): equal under
the `torchmetrics` preset (float32: to 1e-6), for each top_k and empty_target_action; merged states (what a
distributed sync gathers: `dist_reduce_fx="cat"`) give the number of one metric fed everything, and so does a real
two-process gloo group (slow); reset() empties;
another flavor equals rankflavor.evaluate of the concatenated batches."""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, require

import rankflavor as rf

torch = require("torch")
require("torchmetrics")
from torchmetrics.retrieval import RetrievalNormalizedDCG  # noqa: E402

import rankflavor.torchmetrics as rft  # noqa: E402


def batches(seed: int, count: int = 4, size: int = 24):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(count):
        indexes = torch.randint(0, 7, (size,), generator=g)
        preds = torch.round(torch.randn(size, generator=g) * 2) / 2  # ties
        target = torch.randint(0, 4, (size,), generator=g) * (indexes != 0)  # query 0: nothing relevant
        out.append((preds, target, indexes))
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("top_k", [None, 1, 3])
@pytest.mark.parametrize("action", ["neg", "pos", "skip"])
def test_equal_to_retrieval_normalized_dcg(seed, top_k, action):
    ours = rft.RetrievalFlavor(top_k=top_k, empty_target_action=action)
    theirs = RetrievalNormalizedDCG(top_k=top_k, empty_target_action=action)
    for preds, target, indexes in batches(seed):
        ours.update(preds, target, indexes)
        theirs.update(preds, target, indexes)
    assert close(float(ours.compute()), float(theirs.compute()), 1e-6)
    assert len(ours.last.per_query) == len(torch.unique(torch.cat([b[2] for b in batches(seed)])))


def test_merged_states_are_one_metric_fed_everything():
    everything, parts = rft.RetrievalFlavor(top_k=3), [rft.RetrievalFlavor(top_k=3) for _ in range(2)]
    for i, batch in enumerate(batches(7)):
        everything.update(*batch)
        parts[i % 2].update(*batch)
    assert all(parts[0]._reductions[name] is not None for name in ("indexes", "preds", "target"))
    parts[0].merge_state(parts[1])
    assert close(float(parts[0].compute()), float(everything.compute()), 1e-12)
    everything.reset()
    assert float(everything.compute()) == 0.0 and everything.indexes == []


def test_another_flavor_is_rankflavor_evaluate_of_the_batches():
    spec = "ndcg@3 gain=exp2 ties=input"
    metric, default = rft.RetrievalFlavor(spec), rft.RetrievalFlavor(top_k=3)
    qrels, run = {}, {}
    for b, (preds, target, indexes) in enumerate(batches(3)):
        metric.update(preds, target, indexes)
        default.update(preds, target, indexes)
        for i, (p, t, q) in enumerate(zip(preds.tolist(), target.tolist(), indexes.tolist(), strict=True)):
            qrels.setdefault(str(q), {})[f"b{b}d{i:02d}"] = t
            run.setdefault(str(q), {})[f"b{b}d{i:02d}"] = np.float32(p).item()
    assert close(float(metric.compute()), rf.evaluate(qrels, run, spec).mean(), 1e-6)
    assert not close(float(metric.compute()), float(default.compute()))


def _rank(rank: int, world: int, port: int, out: str) -> None:
    """One process of a two-process gloo group: half of the batches, then compute() (which syncs the states)."""
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    try:
        metric = rft.RetrievalFlavor(top_k=3)
        for i, batch in enumerate(batches(11)):
            if i % world == rank:
                metric.update(*batch)
        value = float(metric.compute())
        if rank == 0:
            with open(out, "w") as f:
                f.write(repr(value))
    finally:
        dist.destroy_process_group()


@pytest.mark.slow  # (two spawned processes each import torch: about 25 s here)
def test_states_sync_across_two_processes(tmp_path):
    """torch.distributed (gloo, loopback): each process updates half of the batches; compute() gathers the
    `dist_reduce_fx="cat"` states and gives the value of RetrievalNormalizedDCG fed every batch."""
    import socket

    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "value.txt"
    mp.spawn(_rank, args=(2, port, str(out)), nprocs=2, join=True)
    theirs = RetrievalNormalizedDCG(top_k=3)
    for batch in batches(11):
        theirs.update(*batch)
    assert close(float(out.read_text()), float(theirs.compute()), 1e-6)
