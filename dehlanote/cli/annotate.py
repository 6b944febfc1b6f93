"""``dehlanote annotate``: each deal trick by trick."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.text import Text

from ..output.annotate import (
    annotated_game,
)
from ..output.render import (
    deal_table,
    error_text,
    game_heading,
    game_result_text,
)
from ..analysis.annotate import analysed
from ..replay import GameFacts, replay_game
from ..syntax import Game, write_game
from .app import app
from .common import (
    RULES_OPTION,
    STDIN,
    SYNTAX_CODES,
    AnnotateFormat,
    FileReport,
    TextOut,
    canonical_text,
    display_name,
    emit,
    err_console,
    exit_status,
    expand,
    fail,
    games_of,
    load_registry,
    located,
    plural,
    why,
)


@app.command()
def annotate(
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="DPN files or glob patterns; - reads standard input."),
    format: AnnotateFormat = typer.Option(AnnotateFormat.text, "--format", "-f", metavar="text|dpn",
                                          help="text: a table per deal; dpn: the record with the "
                                               "facts as {} comments (itself valid DPN)."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
    analyse: bool = typer.Option(False, "--analyse", help="Solve each deal whose hands are known: mark each "
                                 "card that lost value ? (?? when it changed who wins the deal) and say "
                                 "what would have kept it (see dehlanote solve)."),
) -> None:
    """Show each deal trick by trick.

    For each trick: the cards (the winner's marked *), the winner, the centre, each capture
    with the tens it moved, the running ten count; a ten won in a trick by one side but
    swept by the other is marked. Then each deal's result, streak and next dealer.

    Several files are annotated one after the other (with --format dpn, as one stream of
    records). A file that cannot be read is reported and the others are still annotated.

    Exit status: as validate.

    Example: dehlanote annotate samples/worked-example.dpn
    """
    reg = load_registry(rules)
    specs = expand(files)
    if specs.count(STDIN) > 1:
        raise fail("standard input (-) can be read only once")
    reports: list[FileReport] = []
    out = TextOut()
    err = err_console()
    first = True
    for spec in specs:
        report = FileReport(display_name(spec))
        reports.append(report)
        try:
            for index, game in enumerate(games_of(spec), 1):
                facts = replay_game(game, reg)
                facts = analysed(facts) if analyse else facts
                report.games += 1
                report.count += len(facts.errors)
                if format is AnnotateFormat.dpn:
                    _annotate_dpn(game, facts, report.path, first)
                else:
                    _annotate_text(out, facts, index, report.path, first, several=len(specs) > 1,
                                   symbols=symbols)
                first = False
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            report.unreadable = why(exc)
            err.print(f"dehlanote: cannot read {escape(report.path)}: {escape(report.unreadable)}",
                      style="red" if sys.stderr.isatty() else None)
    raise typer.Exit(exit_status(reports))


def _annotate_dpn(game: Game, facts: GameFacts, path: str, first: bool) -> None:
    """The record with the facts as comments (a game that could not be read: as written)."""
    if any(e.code in SYNTAX_CODES for e in game.errors):
        text = canonical_text(game, facts)
    else:
        text = write_game(annotated_game(facts))
    emit(("" if first else "\n") + text)
    err = err_console()
    for e in facts.errors:
        err.print(str(located(e, game, path)), markup=False)


def _annotate_text(out: TextOut, facts: GameFacts, index: int, path: str, first: bool, *, several: bool,
                   symbols: bool) -> None:
    """A game as tables, one per deal, then its result and errors."""
    symbols = symbols and (out.encoding or "").lower().startswith("utf")
    if not first:
        out.print()
    heading = game_heading(facts, index)
    if several:
        heading = Text(f"{path} · ", style="bold").append_text(heading)
    out.rule(heading, characters="═")
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
            out.print(error_text(located(e, facts.game, path), path))
