"""Recording a game at the table: each element typed is checked at once, the file is never lost.

:class:`Session` is the pure part (feed a line, get it kept or refused with the errors
``validate`` would print); :func:`save` writes a file's text atomically.
"""

from .session import Expect, Outcome, RecordError, Session
from .store import save

__all__ = ["Expect", "Outcome", "RecordError", "Session", "save"]
