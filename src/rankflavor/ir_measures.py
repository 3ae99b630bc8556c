"""rankflavor as an ir_measures provider (ir_measures 0.4.3): importing this module registers the provider
`rankflavor` in `ir_measures.providers.registry`.

    import ir_measures, rankflavor.ir_measures
    from ir_measures import nDCG, P, AP
    rankflavor.ir_measures.provider.calc_aggregate([nDCG@10, P(rel=2)@5, AP], qrels, run)
    ir_measures.providers.registry["rankflavor"].iter_calc([nDCG@10], qrels, run)   # the same provider
    with rankflavor.ir_measures.prefer():    # first in ir_measures' DefaultPipeline: ir_measures.calc_aggregate,
        ir_measures.calc_aggregate([nDCG@10], qrels, run)   # ... and pt.Experiment use it where it supports a measure

Each measure is computed under the flavor ir_measures gives it (the `ir_measures.NAME` dialect: `rankflavor metrics`,
docs/ir_measures.md); a measure rankflavor cannot compute as ir_measures does is not supported, and ir_measures'
DefaultPipeline falls back to its own providers. The body is rankflavor/adapters/ir_measures_provider.py.
"""

try:
    import ir_measures as _ir_measures
except ModuleNotFoundError as error:  # (only this module needs ir_measures; rankflavor never imports it)
    if error.name != "ir_measures":
        raise
    raise ModuleNotFoundError("rankflavor.ir_measures needs ir_measures: pip install ir-measures",
                              name="ir_measures") from error

from rankflavor.adapters.ir_measures_provider import (
    NAME,
    Preferred,
    RankflavorEvaluator,
    RankflavorProvider,
    flavor_of,
    prefer,
)

provider: RankflavorProvider = _ir_measures.providers.registry.get(NAME)  # type: ignore[assignment]
if not isinstance(provider, RankflavorProvider):
    provider = _ir_measures.providers.register(RankflavorProvider())

__all__ = ["NAME", "Preferred", "RankflavorEvaluator", "RankflavorProvider", "flavor_of", "prefer", "provider"]
