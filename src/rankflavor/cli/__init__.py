"""The command-line front: thin wrappers over the library calls.

Importing it installs `rankflavor/_early.py`'s hook: Ctrl-C in the imports before `main` runs is one line and exit
130 (SIGTERM and SIGHUP while a command runs: cli/signals.py)."""

from rankflavor._early import install as _install

_install()
