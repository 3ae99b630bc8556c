"""Thread settings for the commands that read large inputs, applied before numpy is imported."""

from __future__ import annotations

import os


def one_blas_thread() -> None:
    """Ask OpenBLAS for one thread unless the user chose (OPENBLAS_NUM_THREADS): `eval` and `explain` make no
    BLAS call, and OpenBLAS's idle workers spin after numpy's import on the core Arrow's parser needs
    (numpy's import then costs nearly twice the CPU time). No effect once numpy is imported."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
