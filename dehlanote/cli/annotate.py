"""``dehlanote annotate``: each deal trick by trick."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..output.annotate import (
    annotated_game,
)
from ..output.render import (
    deal_table,
    error_text,
    game_heading,
    game_result_text,
)
from ..replay import replay_game
from ..syntax import write_game
from .app import app
from .common import (
    RULES_OPTION,
    SYNTAX_CODES,
    AnnotateFormat,
    FileReport,
    canonical_text,
    display_name,
    emit,
    err_console,
    exit_status,
    load_registry,
    located,
    open_games,
    TextOut,
    plural,
)


@app.command()
def annotate(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    format: AnnotateFormat = typer.Option(AnnotateFormat.text, "--format", "-f", metavar="text|dpn",
                                          help="text: a table per deal; dpn: the record with the "
                                               "facts as {} comments (itself valid DPN)."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Show each deal trick by trick.

    For each trick: the cards (the winner's marked *), the winner, the centre, each capture
    with the tens it moved, the running ten count; a ten won in a trick by one side but
    swept by the other is marked. Then each deal's result, streak and next dealer.

    Exit status: as validate.

    Example: dehlanote annotate samples/worked-example.dpn
    """
    reg = load_registry(rules)
    games = open_games(file)
    path = display_name(file)
    report = FileReport(path)
    if format is AnnotateFormat.dpn:
        err = err_console()
        first = True
        for game in games:
            facts = replay_game(game, reg)
            report.count += len(facts.errors)
            if any(e.code in SYNTAX_CODES for e in game.errors):
                text = canonical_text(game, facts)
            else:
                text = write_game(annotated_game(facts))
            emit(("" if first else "\n") + text)
            first = False
            for e in facts.errors:
                err.print(str(located(e, game, path)), markup=False)
        raise typer.Exit(exit_status([report]))
    out = TextOut()
    symbols = symbols and (out.encoding or "").lower().startswith("utf")
    for index, game in enumerate(games, 1):
        facts = replay_game(game, reg)
        if index > 1:
            out.print()
        out.rule(game_heading(facts, index), characters="═")
        if facts.rules is not None:
            for deal in facts.deals:
                out.print()
                out.print(deal_table(deal, facts.rules, facts, symbols=symbols))
            out.print()
            out.print(game_result_text(facts))
        for note in facts.notes:
            out.print(f"note: {note}", style="dim", markup=False)
        if facts.errors:
            out.print()
            out.print(f"{plural(len(facts.errors), 'error')}:", style="bold red")
            for e in facts.errors:
                out.print(error_text(located(e, game, path), path))
        report.count += len(facts.errors)
    raise typer.Exit(exit_status([report]))


