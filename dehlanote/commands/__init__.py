"""The commands of the ``dehlanote`` command line, one module a command.

Each module holds one plain function whose parameters are its Typer arguments and options;
:mod:`dehlanote.cli` names them in its ``COMMANDS`` table and registers them on its app.
What the commands share is in :mod:`.common`.
"""
