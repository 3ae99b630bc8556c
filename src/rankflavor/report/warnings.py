"""Warnings attached to every result: what a hidden axis did to this number. Silent when nothing applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rankflavor.flavor import Flavor

if TYPE_CHECKING:
    from rankflavor.report.report import Result


def warnings_for(result: Result, flavor: Flavor) -> list[str]:
    c = result.counts
    out = []
    if c["ties_across_cutoff"]:
        out.append(f"{c['ties_across_cutoff']} queries have tied scores across the cutoff @{flavor.cutoff}: "
                   f"ties={flavor.ties} decides which docs are scored")
    if c["unjudged_in_top"] and flavor.unjudged == "zero":
        out.append(f"{c['unjudged_in_top']} unjudged docs among the scored ranks count as grade 0 (unjudged=zero)")
    if c["zero_ideal"] and flavor.metric == "ndcg":
        out.append(f"{c['zero_ideal']} queries have IDCG 0 (nothing relevant in the ideal); empty={flavor.empty}")
    if c["missing"]:
        out.append(f"{c['missing']} judged queries are absent from the run; missing={flavor.missing}")
    if c["unjudged_queries"]:
        out.append(f"{c['unjudged_queries']} run queries have no judgments and are not scored")
    return out
