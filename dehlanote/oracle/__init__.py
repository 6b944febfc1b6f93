"""The independent oracle: random legal matches written as DPN, with a referee's facts.

It keeps its own implementation of the rules (never the replayer's), so that the replayer can
be checked against it; ``dehlanote generate`` writes its matches. See :mod:`.playout`.
"""
