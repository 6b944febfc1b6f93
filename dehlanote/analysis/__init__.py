"""Double-dummy analysis: the exact value of a deal under best play, card by card.

``Position`` is a position of a deal seen double dummy (every hand known); ``Solver``
values it exactly in the profile's unit (tens, points for double-sar, tricks for court
piece). ``deal_positions`` builds positions from the replayer's states, ``analyse_deal``
values every card of a recorded deal, and ``claim_is_sound`` checks a claim.
"""

from .position import PlayRules, Position, describe, position_for
from .search import OutOfTime, Solver

__all__ = ["PlayRules", "OutOfTime", "Position", "Solver", "describe", "position_for"]
