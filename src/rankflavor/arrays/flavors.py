"""The flavors an array call scores under: the caller's spec(s) or a default, with scikit-learn's arguments
applied as axes.

- `k` is the cutoff: `flavor="lightgbm", k=10` is `lightgbm@10`; a spec that names its own cutoff (`ndcg@5`)
  and a different `k` is refused (say it once).
- `ignore_ties=True` (scikit-learn: "assume that there are no ties in y_score"; it ranks by
  `np.argsort(y_score)[:, ::-1]`) turns `ties=average` into `ties=docid_desc`: doc ids are positions, so tied
  documents rank last-position first, the order that reversed argsort gives when its sort keeps ties in input
  order. scikit-learn's own order on ties depends on numpy's sort (see the `sklearn` preset's note); on scores
  without ties every order gives the same number.
- `sample_weight` makes the mean weighted: `weights=sample_weight` (np.average's sum(w v) / sum(w)).
"""

from __future__ import annotations

from collections.abc import Sequence

from rankflavor.errors import SpecError
from rankflavor.flavor import Flavor, parse_spec

__all__ = ["WEIGHTS", "named", "resolve"]

WEIGHTS = "sample_weight"  # the name the weights are bound under (`weights=sample_weight`)


def _one_spec(item: str | Flavor, k: int | None) -> list[Flavor]:
    if isinstance(item, Flavor):
        flavors, explicit = [item], item.cutoff is not None
    elif isinstance(item, str):
        flavors = parse_spec(item)
        words = item.split()
        explicit = bool(words) and "@" in words[0]
    else:
        raise SpecError(f"flavor={item!r} ({type(item).__name__}) is not a flavor: write a spec such as "
                        "'ndcg@10 gain=exp2' or a preset name ('lightgbm'), or pass a rankflavor.Flavor")
    if k is None:
        return flavors
    if explicit and any(f.cutoff != k for f in flavors):
        raise SpecError(f"k={k} but the flavor {str(item)!r} has its own cutoff: give the cutoff once (k=, or @k "
                        "in the spec)")
    return list(dict.fromkeys(f.with_(cutoff=k) for f in flavors))


def resolve(flavor: str | Flavor | Sequence[str | Flavor] | None, default: str, *, k: int | None = None,
            ignore_ties: bool = False, weighted: bool = False) -> list[Flavor]:
    """The flavors of `flavor` (a spec, a Flavor, or a list of them; None: `default`), with `k`, `ignore_ties`
    and the weights applied, in order, without duplicates."""
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise SpecError(f"k={k!r}: the cutoff must be a positive integer, or None for the whole list")
    items = [default] if flavor is None else [flavor] if isinstance(flavor, (str, Flavor)) else list(flavor)
    if not items:
        raise SpecError("no flavor given: pass a spec such as 'ndcg@10', or leave flavor= out for the default")
    out: list[Flavor] = []
    for item in items:
        for f in _one_spec(item, k):
            if ignore_ties and str(f.ties) == "average":
                f = f.with_(ties="docid_desc")
            if weighted:
                f = f.with_(weights=WEIGHTS)
            if f not in out:
                out.append(f)
    return out


def named(flavor: str | Flavor | Sequence[str | Flavor] | None, default: str, *,
          k: int | None = None) -> list[tuple[Flavor, str]]:
    """`resolve`'s flavors, each with the name a training loop reports it under: the spec as written (spaces
    collapsed), with `@k` added when the spec stands for several cutoffs or `k` sets it (`lightgbm` ->
    `lightgbm@1` ... `lightgbm@5`); a Flavor by its short form."""
    items = [default] if flavor is None else [flavor] if isinstance(flavor, (str, Flavor)) else list(flavor)
    out: list[tuple[Flavor, str]] = []
    for item in items:
        flavors = resolve(item, default, k=k)
        text = " ".join(item.split()) if isinstance(item, str) else None
        for f in flavors:
            if text is None:
                name = f.short
            elif "@" in text.split()[0] or (len(flavors) == 1 and k is None):
                name = text
            else:
                head, _, rest = text.partition(" ")
                name = f"{head}@{f.cutoff}" + (f" {rest}" if rest else "") if f.cutoff is not None else text
            if all(f != seen for seen, _ in out):
                out.append((f, name))
    return out
