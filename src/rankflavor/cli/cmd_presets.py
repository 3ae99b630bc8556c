"""`rankflavor presets`: one line per preset (name, tool, the axes on which it differs from rankflavor's default,
within 100 columns); `rankflavor presets NAME`: that preset's canonical flavor, default cutoffs, source, note and
how it is checked; `rankflavor presets --diff A B`: the axes on which two flavors or presets differ
(Flavor.differences).
"""

from __future__ import annotations

import argparse
from typing import Any

from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("presets", help="list the presets, or show the axes on which two flavors differ (--diff)",
                       epilog=command_epilog("presets"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", nargs="?", metavar="NAME", help="one preset: its whole flavor, source, note and check")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"),
                   help="two flavor specs or presets, e.g. --diff sklearn@10 trec_eval@10; a preset without @k "
                        "that stands for several cutoffs is compared at its first one")


def rows() -> list[dict[str, str]]:
    """The shipped presets' rows (the generated table, cli/listings.py: no metric family imported) and the
    project's."""
    from rankflavor.cli.listings import preset_rows

    return preset_rows() + project_rows()


def shipped_rows() -> list[dict[str, str]]:
    """The shipped presets' rows as the presets and the registry give them (imports every metric family):
    what `python tools/docs.py` writes into cli/listings.json."""
    from rankflavor.flavor import PRESETS, parse_spec

    out = []
    for preset in PRESETS.values():
        if preset.needs_cutoff:
            flavors = parse_spec(f"{preset.name}@10")
            cutoffs = "required (shown @10)"
        else:
            flavors = parse_spec(preset.name)
            cutoffs = ",".join(str(k) for k in preset.cutoffs if k is not None) or "none"
        out.append({"preset": preset.name, "peer": preset.peer, "default_cutoffs": cutoffs,
                    "flavor": str(flavors[0]), "source": preset.source, "note": preset.note,
                    "checked": preset.checked, "differs": differs_from_default(flavors[0])})
    return out


def project_rows() -> list[dict[str, str]]:
    """The flavors the project pins here (flavor/project.py), as `project.NAME` rows."""
    from rankflavor.flavor.project import PREFIX, find_project

    project = find_project()
    if project is None:
        return []
    from rankflavor.flavor import parse_spec
    out = []
    for name, spec in project.flavors.items():
        flavors = parse_spec(PREFIX + name)
        out.append({"preset": PREFIX + name, "peer": "this project", "default_cutoffs": ",".join(
                    str(f.cutoff) for f in flavors if f.cutoff is not None) or "none", "flavor": str(flavors[0]),
                    "source": f"{project.path}: {name} = {spec!r}", "note": "", "checked": "pinned by the project",
                    "differs": differs_from_default(flavors[0])})
    return out


def differs_from_default(flavor: Any) -> str:
    """The axes (and parameters) on which `flavor` differs from its metric's default flavor at the same cutoff
    (`gain=exp2 ideal=local`), or "none" (trec_eval's NDCG is rankflavor's default)."""
    from rankflavor.flavor import Flavor

    default = Flavor.parse(flavor.metric + ("" if flavor.cutoff is None else f"@{flavor.cutoff}"))
    return " ".join(f"{axis}={token}" for axis, _, token in default.differences(flavor) if axis != "cutoff") or "none"


WIDTH = 100  # the list's lines never pass it: the cells are cut at a word, never wrapped


def clip(text: str, width: int, breaks: str = " ") -> str:
    """`text` within `width` characters: cut before one of `breaks` (a space; for a tool's name also an opening
    parenthesis), never inside a word, and marked `...` when it is longer."""
    if len(text) <= width:
        return text
    head = text[:width - 2]
    cut = max(head.rfind(char) for char in breaks)
    return (head[:cut] if cut > 0 else head[:width - 3]).rstrip(" ,;/") + "..."


def tool_name(peer: str) -> str:
    """A preset's tool without its parenthesised remarks (`ranx ndcg (evaluate(...))` -> `ranx ndcg`): those are
    in the details."""
    out, depth = [], 0
    for i, char in enumerate(peer):
        if char == "(" and (depth or (i > 0 and peer[i - 1] == " ")):
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return " ".join("".join(out).split())


def print_list(rows: list[dict[str, str]]) -> None:
    """One line per preset: name, tool, the axes it sets apart from rankflavor's default; at most WIDTH columns."""
    name_width = max(len(row["preset"]) for row in [*rows, {"preset": "preset"}])
    tool_width = 40
    rest = WIDTH - name_width - tool_width - 4
    lines = [("preset", "tool", clip("differs from the default", rest))]
    lines += [(row["preset"], clip(tool_name(row["peer"]), tool_width, " ("), clip(row["differs"], rest)) for row in rows]
    for name, tool, differs in lines:
        print(f"{name:<{name_width}}  {tool:<{tool_width}}  {differs}".rstrip())
    print("\nrankflavor presets NAME: one preset in full (flavor, cutoffs, source, note, how it is checked)")


def one_preset(rows: list[dict[str, str]], name: str) -> dict[str, str]:
    """The row of preset `name` (a UsageError with the close names when there is none)."""
    from rankflavor.errors import UsageError
    from rankflavor.flavor.suggest import close, did_you_mean

    for row in rows:
        if row["preset"] == name:
            return row
    hint = did_you_mean(close(name, [row["preset"] for row in rows]))
    raise UsageError(f"no preset {name!r}{'; ' + hint if hint else ''} (rankflavor presets lists them)")


def print_details(row: dict[str, str]) -> None:
    """A preset's fields, one per paragraph, wrapped at WIDTH between words."""
    import textwrap

    fields = [("preset", row["preset"]), ("tool", row["peer"]), ("default cutoffs", row["default_cutoffs"]),
              ("flavor", row["flavor"]), ("differs from rankflavor's default", row["differs"]),
              ("source", row["source"]), ("note", row["note"]), ("checked", row["checked"])]
    for label, text in fields:
        if text:
            print(textwrap.fill(text, WIDTH, initial_indent=f"{label}: ", subsequent_indent="  ",
                                break_long_words=False, break_on_hyphens=False))


def diff(a: str, b: str) -> dict[str, Any]:
    """Both resolved flavors, the axes on which they differ, and notes on presets that stand for several."""
    from rankflavor.flavor import parse_spec

    resolved, notes = [], []
    for spec in (a, b):
        flavors = parse_spec(spec)
        if len(flavors) > 1:
            cutoffs = ",".join(str(f.cutoff) for f in flavors)
            notes.append(f"{spec!r} stands for {len(flavors)} flavors (cutoffs {cutoffs}); compared at "
                         f"@{flavors[0].cutoff}")
        resolved.append(flavors[0])
    fa, fb = resolved
    return {"a": {"spec": a, "flavor": str(fa)}, "b": {"spec": b, "flavor": str(fb)},
            "differences": [{"axis": axis, "a": x, "b": y} for axis, x, y in fa.differences(fb)], "notes": notes}


def print_diff(result: dict[str, Any]) -> None:
    print(f"A  {result['a']['spec']}: {result['a']['flavor']}")
    print(f"B  {result['b']['spec']}: {result['b']['flavor']}")
    for note in result["notes"]:
        print(f"note: {note}")
    if not result["differences"]:
        print("no difference: A and B are the same flavor")
        return
    table = [["axis", "A", "B"]] + [[d["axis"], d["a"], d["b"]] for d in result["differences"]]
    widths = [max(len(r[i]) for r in table) for i in range(3)]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def run(args: argparse.Namespace) -> int:
    from rankflavor.cli import render
    from rankflavor.errors import UsageError

    if args.diff and args.name:
        raise UsageError("give a preset NAME or --diff A B, not both")
    if args.name:
        row = one_preset(rows(), args.name)
        render.print_json(row) if args.format == "json" else print_details(row)
        return EXIT_OK
    if args.diff:
        result = diff(*args.diff)
        if args.format == "json":
            render.print_json(result)
        else:
            print_diff(result)
        return EXIT_OK
    if args.format == "json":
        render.print_json(rows())
    else:
        print_list(rows())
    return EXIT_OK
