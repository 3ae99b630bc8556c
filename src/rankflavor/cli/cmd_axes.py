"""`rankflavor axes [AXIS]`: every value of every axis (or of one), its meaning, source, the presets that use it
and the default (flavor/axis_docs.py; docs/axes.md is the same text)."""

from __future__ import annotations

import argparse

from rankflavor.errors import EXIT_OK, EXIT_USAGE


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("axes", help="every value of every flavor axis: meaning, source, presets, default",
                       epilog=command_epilog("axes"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("axis", nargs="?", help="one axis (gain, discount, ties, ...); default: every axis")


def run(args: argparse.Namespace) -> int:
    import sys

    from rankflavor.flavor.axes import AXIS_NAMES
    from rankflavor.flavor.axis_docs import axes_reference
    from rankflavor.flavor.suggest import close, did_you_mean

    if args.axis is not None and args.axis not in AXIS_NAMES:
        hint = did_you_mean(close(args.axis, AXIS_NAMES))
        sys.stderr.write(f"rankflavor: no axis {args.axis!r}; {hint + ' ' if hint else ''}"
                         f"the axes: {', '.join(AXIS_NAMES)}\n")
        return EXIT_USAGE
    sys.stdout.write(axes_reference(None if args.axis is None else [args.axis]))
    return EXIT_OK
