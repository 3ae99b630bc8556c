"""pytrec_eval's names (`pytrec_eval.NAME`): trec_eval's names (dialects/trec_eval.py) for the measures as
pytrec_eval computes them, trec_eval 9.0.x's code, which compares scores in float32 (precision=f32) and turns a
recall level into a count of relevant docs with (long)(level·R + 0.9) (count=add0.9). trec_eval 10.0's unj, rbp
and rbp_resid are not in trec_eval 9.0.x: `pytrec_eval.unj_5` is no measure. gm_map and gm_bpref are pytrec_eval's
per-query numbers, log(max(value, 1e-5)), and its mean of them, exp(their mean) (gm_map_log, gm_bpref_log).
"""

from __future__ import annotations

from rankflavor.dialects import trec_eval
from rankflavor.dialects.measure import PeerMeasure

PREFIX = "pytrec_eval."
AXES = {"precision": "f32"}  # the axes pytrec_eval sets for every measure
PARAMS = {"iprec": {"count": "add0.9"}, "iprec_avg": {"count": "add0.9"}}  # the parameters it sets for some
LOG_VALUED = {"gm_map": "gm_map_log", "gm_bpref": "gm_bpref_log"}  # per query: log(max(value, 1e-5)) (metrics/gm.py)
ONLY_IN_10 = {"unj", "rbp", "rbp_resid"}  # trec_eval 10.0's measures that pytrec_eval (9.0.x) does not have


def measure(name: str, params: tuple[tuple[str | None, str], ...] = (), cutoff: int | None = None,
            ) -> PeerMeasure | None:
    """The measure `pytrec_eval.NAME` stands for (NAME without the prefix), or None."""
    known = trec_eval.trec_eval_measure(name)
    if known is None or known.metric in ONLY_IN_10:
        return None
    found = trec_eval.measure(name, params, cutoff, prefix=PREFIX)
    assert found is not None
    return found._replace(metric=LOG_VALUED.get(found.metric, found.metric),
                          params={**PARAMS.get(found.metric, {}), **found.params}, axes=dict(AXES))
