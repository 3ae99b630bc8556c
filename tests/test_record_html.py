"""Record._repr_html_ (display/notebook.py record_html): the HTML parsed back, every cell checked against the
record's own numbers."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given, settings

import rankflavor as rf
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from strategies import flavors, qrels_and_run

DECIMALS = {"grade": 3, "gain": 4}  # what explain prints; other numbers: 6


class Parsed(HTMLParser):
    """The tables (caption -> header and rows of cell texts), the text outside them and the span's title."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list]] = {}
        self.text: list[str] = []
        self.title = None
        self._table = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._in_caption = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._table = {"caption": "", "head": [], "rows": []}
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "span":
            self.title = dict(attrs).get("title")
        elif tag == "br":
            self.text.append("\n")

    def handle_endtag(self, tag):
        if tag == "table":
            self.tables[self._table["caption"]] = self._table
            self._table = None
        elif tag == "caption":
            self._in_caption = False
        elif tag in ("td", "th"):
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr":
            if self._table is not None:
                self._table["rows" if self._table["head"] else "head"].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._in_caption:
            self._table["caption"] += data
        elif self._cell is not None:
            self._cell.append(data)
        else:
            self.text.append(data)


def _number(text: str, name: str) -> float | None:
    return None if text == "null" else float(text)


def check_table(table: dict, rows: list[dict], shown: int) -> None:
    head = table["head"][0]
    assert head[:2] == ["rank", "doc"] and "score" not in head and "tie_group" not in head
    body = table["rows"]
    if len(rows) > shown:
        hidden = len(rows) - shown
        assert body[-1] == [f"... {hidden} more row{'s' * (hidden != 1)} (all in the record)"]
        body = body[:-1]
    assert len(body) == min(len(rows), shown)
    for cells, row in zip(body, rows, strict=False):
        got = dict(zip(head, cells, strict=True))
        assert int(got["rank"]) == row["rank"] and got["doc"] == row["doc"]
        for name in head[2:]:
            if name == "grade" and row.get("judged") is False:
                assert got[name] == "unjudged"
                continue
            expected = row[name]
            if expected is None:
                assert got[name] == "null"
            else:
                assert _number(got[name], name) == pytest.approx(expected, abs=0.51 * 10 ** -DECIMALS.get(name, 6))


def check_record_html(record, shown: int = 20) -> Parsed:
    parsed = Parsed(record._repr_html_() if shown == 20 else __import__(
        "rankflavor.display.notebook", fromlist=["record_html"]).record_html(record, shown))
    text = "".join(parsed.text)
    assert f"run {record.run}, query {record.query}" in text
    assert parsed.title == record.flavor  # the canonical string on hover, its short form shown
    assert rf.Flavor.parse(record.flavor).short in text
    value = "null" if record.value is None else f"{record.value:.6f}"
    assert f"value {value} ({record.status})" in text
    for name, part in record.parts.items():
        shown_part = text.split(f"{name.upper()} ", 1)[1].split()[0]
        assert _number(shown_part, name) == (None if part is None else pytest.approx(part, abs=5.1e-7))
    assert f"why: {record.reason}" in text
    wanted = {"ranked list": record.ranked, **{f"{k} list": v for k, v in record.lists.items()},
              "removed before scoring": record.dropped}
    assert set(parsed.tables) == {title for title, rows in wanted.items() if rows}
    for title, table in parsed.tables.items():
        if title == "removed before scoring":
            assert table["head"][0] == ["doc", "reason"]
            assert table["rows"][:shown] == [[d["doc"], d["reason"]] for d in record.dropped[:shown]]
        else:
            check_table(table, wanted[title], shown)
    return parsed


def test_the_seed000_record_shows_its_dcg_idcg_and_both_lists():
    record = rf.explain(SEED000_QRELS, SEED000_RUNS[1], "q1", "ndcg@3 gain=exp2")
    parsed = check_record_html(record)
    assert list(parsed.tables) == ["ranked list", "ideal list"]
    assert parsed.tables["ranked list"]["head"][0] == ["rank", "doc", "grade", "gain", "discount", "contribution"]
    assert [row[1] for row in parsed.tables["ideal list"]["rows"]] == ["A", "C", "B", "D"]


def test_an_excluded_query_says_why_and_ids_are_escaped():
    qrels = {"q1": {"a<b&c": 0, "b": 0}, "q2": {"a": 1}}
    record = rf.explain(qrels, {"q1": {"a<b&c": 1.0, "u": 0.5}, "q2": {"a": 1.0}}, "q1", "ndcg@3 empty=skip")
    assert record.status == "zero_ideal" and record.value is None
    parsed = check_record_html(record)
    assert "left out of the mean" in "".join(parsed.text)
    assert parsed.tables["ranked list"]["rows"][1][:3] == ["2", "u", "unjudged"]
    missing = rf.explain(qrels, {"q2": {"a": 1.0}}, "q1", "ndcg@3")
    parsed = check_record_html(missing)
    assert not parsed.tables and "absent from the run" in "".join(parsed.text)


def test_a_long_list_shows_its_first_rows_and_counts_the_rest():
    qrels = {"q1": {f"d{i}": i % 4 for i in range(30)}}
    run = {"q1": {f"d{i}": float(i) for i in range(30)}}
    record = rf.explain(qrels, run, "q1", "ndcg@10")
    check_record_html(record, shown=7)
    parsed = check_record_html(record)
    assert parsed.tables["ranked list"]["rows"][-1] == ["... 10 more rows (all in the record)"]


def test_other_metrics_show_their_own_columns():
    record = rf.explain(SEED000_QRELS, SEED000_RUNS[1], "q1", "map")
    parsed = check_record_html(record)
    assert parsed.tables["ranked list"]["head"][0] == ["rank", "doc", "grade", "relevant", "precision"]


@settings(max_examples=40)
@given(qrels_and_run(), flavors())
def test_random_records_show_their_own_numbers(data, flavor):
    qrels, run = data
    try:
        report = rf.evaluate(qrels, run, flavor, warnings=False)
    except (rf.InputError, rf.EvaluationError):  # (an empty run, empty=error on a zero-ideal query, ...)
        return
    for query in list(qrels)[:2]:
        try:
            record = report.explain(None, query, flavor)
        except KeyError:  # (a query with no judgment is not in the qrels)
            continue
        check_record_html(record, shown=5)
