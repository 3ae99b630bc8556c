"""rankflavor's version: the one place it is written (pyproject.toml reads it; JSON outputs record it)."""

__version__ = "0.1.0"
