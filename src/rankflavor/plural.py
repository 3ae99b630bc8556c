"""Counted nouns in messages: `counted(1, "query has", "queries have")` -> `'1 query has'`."""


def counted(n: int, one: str, many: str) -> str:
    """`n` followed by `one` when n is 1, else by `many` (0 queries, 1 query, 2 queries)."""
    return f"{n} {one if n == 1 else many}"
