"""dialects/trec_print.py: trec_eval's printed line and its one query loop (`block`), which `eval --format trec`
and `rankflavor trec_eval` both print with."""

from __future__ import annotations

import math

from rankflavor.dialects.trec_print import COUNT, NONE, TEXT, VALUE, Column, block, fixed4, line


def test_a_line_is_trec_eval_s_format():
    assert line("map", "q1", 0.123456) == "map                   \tq1\t0.1235\n"
    assert line("num_ret", "all", 1500.0, count=True) == "num_ret               \tall\t1500\n"
    assert line("P_5", "q1", 0.2, z="Z") == "Z" + "P_5".ljust(22) + "\tq1\t0.2000\n"
    assert fixed4(-math.nan) == "  -nan" and fixed4(math.nan) == "   nan"


def test_block_prints_each_row_column_by_column_and_skips_what_prints_nothing():
    columns = [Column("map", VALUE), Column("num_ret", COUNT), Column("gm_map", NONE), Column("relstring", TEXT)]
    rows = [("q1", [0.5, 3.0, -1.2, "'10-'"]), ("q2", [None, 4.0, -0.5, "''"])]
    assert list(block(columns, rows)) == [
        line("map", "q1", 0.5), line("num_ret", "q1", 3.0, count=True), line("relstring", "q1", "'10-'"),
        line("num_ret", "q2", 4.0, count=True), line("relstring", "q2", "''")]


def test_under_z_every_name_but_a_text_s_is_prefixed():
    columns = [Column("runid", TEXT), Column("num_q", VALUE), Column("map", VALUE)]
    assert list(block(columns, [("all", ["STANDARD", 3.0, 0.25])], z="Z")) == [
        "runid".ljust(22) + "\tall\tSTANDARD\n", "Z" + "num_q".ljust(22) + "\tall\t3.0000\n",
        "Z" + "map".ljust(22) + "\tall\t0.2500\n"]


def test_rows_are_taken_as_they_are_printed():
    """A failure while a row is made (trec_eval's exit 4) leaves the lines of the rows before it printed."""
    def rows():
        yield "q1", [0.5]
        raise RuntimeError("stop at q2")

    printed = []
    try:
        for text in block([Column("map", VALUE)], rows()):
            printed.append(text)
    except RuntimeError:
        pass
    assert printed == [line("map", "q1", 0.5)]
