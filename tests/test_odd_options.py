"""Odd options and arguments are usage errors naming the value, never internal errors: `--resamples` 0 or
negative, `--alpha` outside (0, 1) or NaN, `--seed` negative, `-k` not a whole number of 1 or more (compare,
report and power; the API's TestSettings),
flavors that are not specs (`rf.evaluate(qrels, run, None)`), a tampered `eval --against` file. Each through the
CLI (exit 2, one message, nothing written) and the API (rankflavor.UsageError or SpecError, both ValueErrors).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import rankflavor as rf
from cli_capture import cli
from rankflavor.compare.stats import TestSettings
from rankflavor.errors import UsageError
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from rankflavor.report.against import load_saved

QRELS, X, Y = (str(p) for p in (SEED000_QRELS, *SEED000_RUNS))



def refused(option: str, value: str, err: str) -> bool:
    """argparse's one line naming the option (as `-k/--cutoff` when it has two names) and the value refused."""
    return f"{value!r} is not a" in err and "internal error" not in err and any(
        line.startswith("rankflavor: error: argument ") and option in line.split(":")[2].split()[1].split("/")
        for line in err.splitlines())


BAD_OPTIONS = [("--resamples", "0"), ("--resamples", "-5"), ("--resamples", "1e3"), ("--alpha", "nan"),
               ("--alpha", "1.5"), ("--alpha", "0"), ("--alpha", "1"), ("--alpha", "-0.05"), ("--seed", "-1"),
               ("-k", "0"), ("-k", "-2"), ("--cutoff", "x"), ("--cutoff", "2.5")]


@pytest.mark.parametrize(("option", "value"), BAD_OPTIONS)
def test_compare_refuses_the_value(option, value):
    code, out, err = cli("compare", QRELS, X, Y, "-m", "ndcg@3", option, value)
    assert code == 2 and out == "", err
    assert refused(option, value, err)


@pytest.mark.parametrize(("option", "value"), BAD_OPTIONS)
def test_report_refuses_the_value_before_writing(option, value, tmp_path):
    page = tmp_path / "page.html"
    code, out, err = cli("report", QRELS, X, Y, "-m", "ndcg@3", option, value, "-o", str(page))
    assert code == 2 and out == "", err
    assert refused(option, value, err)
    assert not page.exists()


@pytest.mark.parametrize(("option", "value"), [o for o in BAD_OPTIONS if o[0] != "--alpha" or o[1] != "nan"])
def test_power_refuses_the_value(option, value):
    code, out, err = cli("power", QRELS, X, Y, "-m", "ndcg@3", option, value)
    assert code == 2 and out == "", err
    assert refused(option, value, err)


@pytest.mark.parametrize(("keyword", "value"), [("n_resamples", 0), ("n_resamples", -3), ("n_resamples", 2.5),
                                                ("n_resamples", True), ("alpha", math.nan), ("alpha", 1.0),
                                                ("alpha", 0), ("alpha", "0.05"), ("confidence", 1.5),
                                                ("confidence", math.nan), ("seed", -1)])
def test_the_api_refuses_the_value(keyword, value):
    with pytest.raises(UsageError, match=f"^{keyword}={value!r}: give"):
        rf.compare.compare(QRELS, [X, Y], ["ndcg@3"], **{keyword: value})
    with pytest.raises(ValueError, match=f"^{keyword}={value!r}: give"):  # (the type a ValueError, as before)
        TestSettings(**{keyword: value})


def test_the_settings_in_range_are_kept():
    settings = TestSettings(n_resamples=1, seed=0, confidence=0.5, alpha=0.999)
    assert (settings.n_resamples, settings.seed, settings.confidence, settings.alpha) == (1, 0, 0.5, 0.999)
    code, out, err = cli("compare", QRELS, X, Y, "-m", "ndcg@3", "--resamples", "1", "--alpha", "0.5", "--seed", "3")
    assert code == 0 and "1 resamples, seed 3" in out and "p_holm < 0.5" in out, err


@pytest.mark.parametrize(("flavors", "named"), [(None, "flavors=None (NoneType)"), (5, "flavors=5 (int)"),
                                                (b"ndcg@3", "flavors=b'ndcg@3' (bytes)"),
                                                ([None], "None (NoneType) among the flavors"),
                                                (["ndcg@3", 3.5], "3.5 (float) among the flavors")])
def test_flavors_that_are_not_specs(flavors, named):
    with pytest.raises(rf.SpecError, match=f"^{named.replace('(', '[(]').replace(')', '[)]')} .*not a flavor spec"):
        rf.evaluate(QRELS, X, flavors)


@pytest.mark.parametrize("call", [lambda: rf.parse_spec(None), lambda: rf.Flavor.parse(None),
                                  lambda: rf.explain(QRELS, X, "q1", None), lambda: rf.parse_specs([7])])
def test_one_spec_that_is_not_a_string(call):
    with pytest.raises(rf.SpecError, match=r"\((NoneType|int)\) .*not a flavor spec"):
        call()


TAMPERED = [  # (what is changed in the saved JSON, the message's words)
    (lambda s: s["results"][0].update(mean="0.9"), "results[0] has no 'mean' of the right type (got '0.9')"),
    (lambda s: s["results"][0].update(mean=True), "results[0] has no 'mean' of the right type (got True)"),
    (lambda s: s["results"][0].update(run={"name": "X.run"}), "has no 'run' of the right type (got {'name': 'X.run'})"),
    (lambda s: s["results"][0].update(flavor=5), "results[0] has no 'flavor' of the right type (got 5)"),
    (lambda s: s["results"][0].update(label=["ndcg@3"]), "results[0] has no 'label' of the right type (got ['ndcg@3'])"),
    (lambda s: s["results"].__setitem__(0, 3), "results[0] is a JSON int, not an object"),
    (lambda s: s.update(provenance=[]), "its 'provenance' is not an object with an 'inputs' list of objects (got [])"),
    (lambda s: s["provenance"].update(inputs=[1]), "its 'provenance' is not an object with an 'inputs' list"),
    (lambda s: s.update(results={"mean": 1}), "no 'results' list"),
]


@pytest.mark.parametrize(("tamper", "message"), TAMPERED)
def test_a_tampered_against_file(tamper, message, tmp_path):
    code, out, err = cli("eval", QRELS, X, Y, "-m", "ndcg@3", "--format", "json")
    saved = json.loads(out)
    tamper(saved)
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved))
    code, out, err = cli("eval", "-q", QRELS, X, Y, "-m", "ndcg@3", "--against", str(path))  # (-q: no reading note)
    assert code == 2 and out == "", err
    assert err.startswith(f"rankflavor: {path}: not the JSON of rankflavor eval --format json: ") and message in err
    assert err.count("\n") == 1 and "internal error" not in err
    with pytest.raises(UsageError, match="not the JSON of rankflavor eval --format json: ") as refused:
        load_saved(path)
    assert message in str(refused.value)
    with pytest.raises(rf.InputError):  # (rankflavor.load reads the file by the same checks)
        rf.load(Path(path))
