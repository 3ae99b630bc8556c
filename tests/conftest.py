"""Shared fixtures and the hypothesis profiles (`ci` is bounded so the whole suite stays within budget; `fast`,
`make test-fast`'s, runs a quarter of every property test's examples)."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", parent=settings.get_profile("dev"))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)
FAST_SHARE = 4  # the fast profile runs 1/FAST_SHARE of each property test's examples, at least 5 (or all it asks)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running tests (skipped by make test-fast)")


def pytest_collection_modifyitems(config, items):
    """Under the fast profile, each property test runs a quarter of the examples its own @settings (or the
    profile) asks for: the inner loop samples every property, `make test` (the ci profile) runs them in full."""
    if PROFILE != "fast":
        return
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if not getattr(test, "is_hypothesis_test", False) or getattr(test, "_rankflavor_fast", False):
            continue
        own = test._hypothesis_internal_use_settings  # what @given/@settings resolved; read when the test runs
        share = max(min(own.max_examples, 5), own.max_examples // FAST_SHARE)
        test._hypothesis_internal_use_settings = settings(own, max_examples=share)
        test._rankflavor_fast = True


@pytest.fixture(autouse=True)
def sigint_not_left_ignored():
    """A test that leaves SIGINT ignored (a pool worker's start-up run in this process) would have every command a
    later test starts inherit it (an ignored signal survives exec; a Python handler, such as pyspark's, does not), and
    Ctrl-C tests fail far from the cause: put it back and fail the test that did."""
    before = signal.getsignal(signal.SIGINT)
    yield
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN and before is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, before)
        pytest.fail("the test left SIGINT ignored: every command a later test starts would inherit it")
