"""``dehlanote share``: a link that shows one deal in the viewer page (``html --viewer``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..replay import GameFacts, replay_game
from ..rules.profile import Registry
from .common import (RULES_OPTION, Exit, check_lang, display_name, err_console, fail, lang_code, load_registry,
                     no_trick, open_games, plural, validate_hint)


def load_game(spec: str, number: int, reg: Registry) -> GameFacts:
    """Game ``number`` (from 1) of a file, replayed; a usage error when the file has fewer."""
    count = 0
    for game in open_games(spec):
        count += 1
        if count == number:
            return replay_game(game, reg)
    raise fail(f"{display_name(spec)} has {plural(count, 'game')}: there is no game {number}")


def not_replayable(spec: str, number: int, facts: GameFacts) -> str:
    """Why game ``number`` of ``spec`` cannot be replayed (its rules were not found): the first
    of its errors, where it is (a mistake in its tags said "its rules are not known" when its
    Rules tag was right), and the command that lists them all."""
    first = facts.errors[0] if facts.errors else None
    if first is None or first.line is None:
        why = "its rules are not known"
    else:
        why = f"{display_name(spec)}:{first.line}:{first.column}: {first.code}: {first.message}"
    more = "lists every error" if len(facts.errors) > 1 else "says more"
    return f"game {number} of {display_name(spec)} cannot be replayed: {why} ({validate_hint(spec)} {more})"


def share_command(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    deal: int = typer.Option(..., "--deal", "-d", min=1, metavar="N", help="The deal to share: its place in the "
                                                                            "game, from 1 (as solve and replay "
                                                                            "count; validate says when the "
                                                                            "record numbers it otherwise)."),
    game: int = typer.Option(1, "--game", "-g", min=1, metavar="N", help="Which game of the file (from 1)."),
    trick: Optional[int] = typer.Option(None, "--trick", "-t", min=0, metavar="K",
                                        help="Open the link at the end of trick K (0: as dealt)."),
    base: str = typer.Option("viewer.html", "--base", metavar="URL",
                             help="The viewer page's address (written by dehlanote html --viewer), e.g. "
                                  "https://club.example/viewer.html or file:///home/me/viewer.html."),
    lang: str = typer.Option("en", "--lang", metavar="LANG", parser=lang_code,
                             help="The language of the deal's story in the link: en, or hi (Hindi). The viewer's "
                                  "own words are the language it was written in (html --viewer --lang)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Print a link that shows one deal in the viewer page.

    The deal travels in the link's fragment (after #), compressed: a fragment is never sent
    to a server, so the deal stays between the link and the browser. Host the viewer once
    (dehlanote html --viewer -o viewer.html) and every deal is a link.

    Exit status: 0, 1 when the game has errors, in any deal or in its tags (the link still
    shows the deal, its errors and the game's own flagged), 2 for usage or an unreadable file.

    Example: dehlanote share samples/match.dpn --deal 3 --base https://club.example/viewer.html
    """
    from ..i18n import speaking
    from ..output.html.viewer import ShareError, link

    check_lang(lang)
    reg = load_registry(rules)
    facts = load_game(file, game, reg)
    if facts.rules is None:
        raise fail(not_replayable(file, game, facts), Exit.INVALID)
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
    if facts.errors:
        err_console().print(f"dehlanote: {errors_said(facts, deal)} ({validate_hint(file)} "
                            "lists them)", markup=False)
    raise typer.Exit(Exit.INVALID if facts.errors else Exit.OK)


def errors_said(facts: GameFacts, deal: int) -> str:
    """What the game's errors are to the deal shared: the deal's own and the game's (its tags),
    both flagged in the viewer, and those of its other deals, which the link does not carry."""
    mine = sum(1 for e in facts.errors if e.deal == deal)
    loose = sum(1 for e in facts.errors if e.deal is None)
    others = len(facts.errors) - mine - loose
    said = []
    if mine:
        said.append(f"deal {deal} has {plural(mine, 'error')}")
    if loose:
        said.append(f"the game has {plural(loose, 'error')} of its own (not in a deal)")
    flagged = " and ".join(said) + ", flagged in the viewer" if said else ""
    if others:
        rest = f"{plural(others, 'error')} in other deals" + (", not in the link" if said else "")
        return f"{flagged}; {rest}" if said else f"deal {deal} has no error; the game has {rest}, not in the link"
    return flagged
