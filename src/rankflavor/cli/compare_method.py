"""compare's method lines and its table of pairs (`rankflavor compare`'s text output): the test, the intervals,
the correction, the effect size and the settings' canonical string (compare/stats.py `TestSettings`); per pair
the means, the difference with its interval, Cohen's d_z, wins / ties / losses, p and the corrected p."""

from __future__ import annotations

from rankflavor import registry
from rankflavor.cli import render
from rankflavor.cli.render import fmt

# compare/stats.py's TESTS, CORRECTIONS, INTERVALS, FAMILIES (written out: --help imports no numpy; a test checks they agree)
TESTS = ("randomization", "t", "wilcoxon", "sign", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
INTERVALS = ("bootstrap", "t")
FAMILIES = ("per_comparison", "simultaneous")


def _p(x: float, floored: bool = False) -> str:
    """A p-value; `floored`: its Monte Carlo test found no resample as extreme, so the p-value is at the test's
    floor 1/(R+1) (or a multiple of it after Holm's correction) and is printed as a bound, `<1e-04`."""
    if x != x:
        return "null"
    if floored:
        return f"<{x:.0e}" if x < 1e-4 else f"<{x:.4f}"
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"


def print_method(cmp) -> None:
    from rankflavor.compare.paper import TEST_NAMES

    s = cmp.settings
    test = {**TEST_NAMES, "randomization": "paired randomization (sign flip; exact over all 2^n flips when 2^n <= "
            "resamples)", "t": "paired t-test (scipy.stats.ttest_rel)"}[s["test"]]
    resampling = f", {s['n_resamples']} resamples, seed {s['seed']}" if s["test"] in ("randomization", "tukey") else ""
    print(f"test: {test}, {int(s['confidence'] * 100)}% CI: {s['ci']}{resampling}; "
          f"multiple comparisons: {s['correction']}; a run is significantly better where {_p_name(cmp)} < "
          f"{s['alpha']} and both the test's statistic and the mean favour it")
    print(f"effect size: {s['effect_size']}; settings: {s['canonical']}")
    if "interval_coverage" in s:
        print(f"intervals: {s['interval_coverage']}")
        wilcoxon = f"; Wilcoxon: {s['wilcoxon']}" if s.get("wilcoxon") else ""
        print(f"ties: {s['tolerance_rule']}{wilcoxon}")
    print(f"means, differences and tests {s['paired_queries']}")
    pairs = cmp.pairs
    if "constant_diff" in pairs:
        constant = pairs[(pairs.constant_diff == pairs.constant_diff) & (pairs.constant_diff != 0)]
        if len(constant):
            row = constant.iloc[0]
            print(f"note: under {row.label}, every paired difference of {row.run_a} - {row.run_b} is "
                  f"{row.constant_diff:+.6g}" + (f" (and under {len(constant) - 1} more flavor x pair rows)"
                                                 if len(constant) > 1 else "")
                  + ": no spread, so d_z is undefined (null) and the t statistic infinite (p 0); the randomization, "
                    "Wilcoxon and sign tests' p is exact, 2 / 2^n")
    disagree = pairs[pairs.means_winner != pairs.winner]
    if len(disagree):
        print(f"note: under {len(disagree)} flavor x pair rows the means order the "
              f"runs differently from the paired difference, e.g. {disagree.label.iloc[0]}: "
              f"{disagree.means_winner.iloc[0]} by the means, {disagree.winner.iloc[0]} by the pairs")
    small = pairs[(pairs.n > 0) & (pairs.n < 6)]
    if len(small) and s["test"] == "randomization":
        n = int(small.n.min())
        print(f"note: with n = {n} paired queries the smallest attainable p-value is {min(1.0, 2.0 ** (1 - n)):g}")


def _p_name(cmp) -> str:  # the corrected p-value's column: p_holm, p_bonferroni, p_bh, p_none
    return "p_" + cmp.settings.get("correction_method", "holm")


def _signed(x: float) -> str:
    return "null" if x != x else f"{x:+.6f}"


def print_pairs(cmp) -> None:
    from rankflavor.compare.pair_tests import finding_text
    from rankflavor.compare.paper import set_caption

    rows = [["label", "run_a", "run_b", "mean_a", "mean_b", "diff", "95% CI", "d_z", "w/t/l", "p", _p_name(cmp), "n",
             "excl", "finding"]]
    floor = 1.0 / (cmp.settings["n_resamples"] + 1)
    for r in cmp.pairs.itertuples():
        floored = cmp.settings["test"] in ("randomization", "tukey") and not r.exact and r.p <= floor * (1 + 1e-9)
        rows.append([r.label, r.run_a, r.run_b, fmt(r.mean_a), fmt(r.mean_b), _signed(r.diff),
                     f"[{_signed(r.ci_low)}, {_signed(r.ci_high)}]", "null" if r.effect_size != r.effect_size
                     else f"{r.effect_size:+.3f}", f"{r.wins}/{r.ties}/{r.losses}", _p(r.p, floored),
                     _p(r.p_adjusted, floored) + ("*" if r.significant else ""), str(r.n), str(r.excluded),
                     finding_text(r)])
    print("\n".join(render.aligned(rows)))
    print("\n".join(render.flavor_key(list(zip(cmp.pairs.label, cmp.pairs.flavor, strict=True)))))
    print(f"means, differences and tests {set_caption(cmp)}")
    sums = [label for label, flavor in dict.fromkeys(zip(cmp.pairs.label, cmp.pairs.flavor, strict=True))
            if registry.get(cmp.flavor(flavor).metric).aggregate == "sum"]
    if sums:
        print(f"note: {', '.join(sums)}: mean_a and mean_b are sums over each run's queries (trec_eval's summary of "
              "a count); diff is the mean of the paired per-query differences")
    if cmp.skipped:
        print(f"\nskipped {len(cmp.skipped)} flavors (invalid, or refused by the data):")
        for combination, reason in cmp.skipped[:5]:
            print(f"  {combination}: {reason}")
        if len(cmp.skipped) > 5:
            print(f"  ... and {len(cmp.skipped) - 5} more (--format json lists them all)")
