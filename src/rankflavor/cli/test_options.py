"""The test settings' options, one definition for `compare` and `report`: --test, --correction, --ci,
--resamples, --seed, --alpha and --settings (the canonical string, compare/stats.py `TestSettings.parse`)."""

from __future__ import annotations

import argparse
from typing import Any

from rankflavor.cli.cmd_eval import resamples, seed, significance_level
from rankflavor.cli.compare_method import CORRECTIONS, FAMILIES, INTERVALS, TESTS


class _GivenTest(argparse.Action):
    """--test, and that it was given: otherwise `--table pyterrier` takes PyTerrier's default, the paired t-test."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, values)
        namespace.test_given = True


def add_test_options(p: argparse.ArgumentParser) -> None:
    """The options that make a comparison's `TestSettings`."""
    p.set_defaults(test_given=False)
    p.add_argument("--test", choices=TESTS, default="randomization", action=_GivenTest,
                   help="paired randomization (sign-flip) test (the default), scipy's paired t-test (the default of "
                        "--table pyterrier, as PyTerrier's), Wilcoxon's signed-rank test, the sign test, or the "
                        "randomised Tukey HSD test over all runs (Carterette 2012)")
    p.add_argument("--correction", choices=CORRECTIONS, default="", help="over each measure's pairs: holm (default), "
                   "bonferroni, bh (Benjamini-Hochberg), none (the only one under --test tukey)")
    p.add_argument("--ci", choices=INTERVALS, default="", help="every interval (of each mean and each difference): "
                   "bootstrap (percentile; the default) or t (the default under --test t)")
    p.add_argument("--intervals", choices=FAMILIES, default="per_comparison",
                   help="what each difference's interval covers: per_comparison (the default: its own pair) or "
                        "simultaneous (the pairs of a flavor together, as the correction: Bonferroni's level for "
                        "holm and bonferroni, Benjamini-Yekutieli's for bh, the null ranges' quantile for tukey)")
    p.add_argument("--tolerance", type=tolerance, default=1e-9,
                   help="differences within it are equal before a test reads a sign or a rank (default 1e-9)")
    p.add_argument("--resamples", type=resamples, default=10_000, help="resamples for the randomization test and bootstrap")
    p.add_argument("--seed", type=seed, default=0, help="seed of the resampling (default 0)")
    p.add_argument("--alpha", type=significance_level, default=0.05, help="significance level after the correction")
    p.add_argument("--settings", metavar="TEXT", help="the test settings as a comparison's caption prints them ("
                   "'test=t resamples=10000 seed=0 correction=holm ci=t confidence=0.95 alpha=0.05 "
                   "intervals=per_comparison tolerance=1e-09'), instead of --test, --resamples, --seed, --correction, "
                   "--ci, --alpha, --intervals, --tolerance")


def chosen_settings(args: argparse.Namespace, test: str | None = None) -> dict[str, Any]:
    """The settings the options give, as `compare(...)`'s keywords: --settings when given, else the options
    (`test` overrides --test: compare's `--table pyterrier` default)."""
    if args.settings is not None:
        from dataclasses import asdict

        from rankflavor.compare.stats import TestSettings

        return asdict(TestSettings.parse(args.settings))
    return dict(test=test or args.test, n_resamples=args.resamples, seed=args.seed, alpha=args.alpha,
                correction=args.correction, ci=args.ci, intervals=args.intervals, tolerance=args.tolerance)


def tolerance(text: str) -> float:
    """--tolerance: a number from 0 up to (not including) 0.001."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value < 1e-3:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number from 0 up to (not including) 0.001, e.g. 1e-9")
    return value
