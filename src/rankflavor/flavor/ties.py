"""The definition of `ties=random(seed)`: tied documents are ordered by a keyed hash of (seed, query, doc).

key = the first 8 bytes (big-endian) of BLAKE2b(f"{seed}\\0{query}\\0{doc}"), ascending. The order depends
only on the seed and the two ids, so it does not change when other queries, docs or runs are added.
"""

from __future__ import annotations

import hashlib


def random_tie_key(seed: int, query: str, doc: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}\x00{query}\x00{doc}".encode(), digest_size=8).digest(), "big")
