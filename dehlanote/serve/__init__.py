"""``dehlanote serve``: a club night's tables on the players' phones (a local web app).

:class:`~.tables.Tables` keeps the folder's records (one a table, saved after every card by
the recorder's store); :func:`~.app.create_app` is the ASGI app (Starlette) that the
command runs with uvicorn. Starlette and uvicorn come with the ``serve`` extra.
"""

from typing import Any

from .tables import FolderBusy, Limits, Refusal, Table, Tables, folder_secret, new_secret

__all__ = ["FolderBusy", "Limits", "Refusal", "Table", "Tables", "create_app", "folder_secret", "new_secret"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """The guarded ASGI app (imports Starlette only when called)."""
    from .app import create_app as make
    return make(*args, **kwargs)
