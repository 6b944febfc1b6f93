"""The search's trick arithmetic, on cards as (suit, rank) with rank 0 for a two up to 12 for an ace
(kept apart from :mod:`dehlanote.analysis.search` so that module stays within its size)."""

from __future__ import annotations


def leading(cards: list[tuple[int, int]], trump: int) -> tuple[int, int, int]:
    """The card winning a trick so far, as (its index, suit, rank): of equal cards the first played."""
    bk, bs, br = 0, cards[0][0], cards[0][1]
    for j in range(1, len(cards)):
        cs, cr = cards[j]
        if cs == bs:
            if cr > br:
                bk, br = j, cr
        elif cs == trump:
            bk, bs, br = j, cs, cr
    return bk, bs, br
