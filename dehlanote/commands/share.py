"""``dehlanote share``: a link that shows one deal in the viewer page (``html --viewer``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..replay import GameFacts, replay_game
from ..rules.profile import Registry
from .common import (RULES_OPTION, Exit, check_lang, display_name, err_console, fail, load_registry, no_trick,
                     open_games, plural)


def load_game(spec: str, number: int, reg: Registry) -> GameFacts:
    """Game ``number`` (from 1) of a file, replayed; a usage error when the file has fewer."""
    count = 0
    for game in open_games(spec):
        count += 1
        if count == number:
            return replay_game(game, reg)
    raise fail(f"{display_name(spec)} has {plural(count, 'game')}: there is no game {number}")


def share_command(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    deal: int = typer.Option(..., "--deal", "-d", min=1, metavar="N", help="The deal to share (as numbered in "
                                                                            "the record)."),
    game: int = typer.Option(1, "--game", "-g", min=1, metavar="N", help="Which game of the file (from 1)."),
    trick: Optional[int] = typer.Option(None, "--trick", "-t", min=0, metavar="K",
                                        help="Open the link at the end of trick K (0: as dealt)."),
    base: str = typer.Option("viewer.html", "--base", metavar="URL",
                             help="The viewer page's address (written by dehlanote html --viewer), e.g. "
                                  "https://club.example/viewer.html or file:///home/me/viewer.html."),
    lang: str = typer.Option("en", "--lang", metavar="LANG",
                             help="The language of the deal's story in the link: en, or hi (Hindi). The viewer's "
                                  "own words are the language it was written in (html --viewer --lang)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Print a link that shows one deal in the viewer page.

    The deal travels in the link's fragment (after #), compressed: a fragment is never sent
    to a server, so the deal stays between the link and the browser. Host the viewer once
    (dehlanote html --viewer -o viewer.html) and every deal is a link.

    Exit status: 0, 1 when the game has errors (the link still shows the deal, its errors
    flagged), 2 for usage or an unreadable file.

    Example: dehlanote share samples/match.dpn --deal 3 --base https://club.example/viewer.html
    """
    from ..i18n import speaking
    from ..output.html.viewer import ShareError, link

    check_lang(lang)
    reg = load_registry(rules)
    facts = load_game(file, game, reg)
    if facts.rules is None:
        raise fail(f"game {game} of {display_name(file)} cannot be replayed: its rules are not known",
                   Exit.INVALID)
    try:
        with speaking(lang):        # the story's sentences, made into the link, in that language
            url = link(facts, deal, base=base, trick=trick, number=game)
    except ShareError as exc:
        raise fail(str(exc))
    if trick is not None:
        d = next(d for d in facts.deals if d.number == deal)
        if trick and all(t.number != trick for t in d.tricks):
            raise fail(no_trick(d, trick))
    typer.echo(url)
    errors = [e for e in facts.errors if e.deal == deal]
    if errors:
        err_console().print(f"dehlanote: deal {deal} has {plural(len(errors), 'error')}, flagged in the viewer "
                            f"(dehlanote validate {display_name(file)} lists them)", markup=False)
    raise typer.Exit(Exit.INVALID if errors else Exit.OK)
