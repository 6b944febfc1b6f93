"""``dehlanote lsp``: the language server for editors (see dehlanote/langserver.py)."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Optional

import typer

from .common import RULES_OPTION, Exit, fail, load_registry


def lsp_command(
    stdio: bool = typer.Option(True, "--stdio/--no-stdio", help="Speak LSP on standard input and output "
                                                                 "(the only way; editors pass --stdio)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Run the DPN language server for an editor (Neovim, Helix, VS Code, Emacs ...).

    Diagnostics as you type (validate's errors, with their codes), hover on a card for the
    position after it, completion of the cards the player may play, formatting as fmt.
    The editor starts it and talks to it on standard input and output; it needs pygls:
    pip install 'dehlanote[lsp]'.

    Example (Helix, languages.toml): command = "dehlanote", args = ["lsp"]
    """
    if not stdio:
        raise fail("the language server speaks only on standard input and output (--stdio)")
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise fail("the language server needs pygls: pip install 'dehlanote[lsp]'")
    if sys.stdin.isatty():
        sys.stderr.write("dehlanote lsp: waiting for an editor on standard input (Ctrl-C to stop); "
                         "see the editor setup in the docs (lsp.md)\n")
    reg = load_registry(rules)
    from ..langserver import serve

    status = serve(reg)
    # the server closed standard output when the editor said exit: nothing more goes there
    sys.stdout = io.StringIO()
    raise typer.Exit(Exit.OK if status == 0 else status)   # LSP: 1 for an exit without shutdown
