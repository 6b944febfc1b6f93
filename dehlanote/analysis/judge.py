"""The claim judge the replay is handed: a sound claim wins every remaining trick.

The replay layer knows no solver; whoever replays a record with claims in it hands
:func:`claim_judge` to it (``judge=``). The solver is loaded only when a claim with every
hand known is judged, so a check of records without claims never loads it.
"""

from __future__ import annotations

from typing import Any, Optional


def claim_judge(state: Any, seat: int) -> Optional[bool]:
    """Whether ``seat``'s side wins every trick left from the deal state at the claim
    (None when it cannot be told: see :func:`dehlanote.analysis.claim.claim_state_sound`)."""
    from .claim import claim_state_sound
    return claim_state_sound(state, seat)
