"""``dehlanote generate``: random legal matches written as DPN.

The matches come from :mod:`dehlanote.oracle.playout`, a second implementation of the rules kept
independent of the replayer (it is the tests' oracle), so what it writes is a check of the
replayer too: ``dehlanote generate ... | dehlanote validate -`` must find no error.
"""

from __future__ import annotations

import enum
import random
from pathlib import Path
from collections.abc import Iterator
from typing import Optional

import typer

from ..files import OutputRefused
from ..oracle.playout import Style, generate_match, make_rules, parse_rules_text
from .common import Exit, emit, fail, output_path, replacing, why

#: a match still undecided after this many deals for each kot it is played to stops there
#: (Result "*"): rules under which kots are rare never end otherwise
MAX_DEALS = 200


class WritingStyle(str, enum.Enum):
    plain = "plain"
    loose = "loose"


def generate_command(
    rules: str = typer.Option("standard", "--rules", "-r", metavar="RULES",
                              help='The rules, as a Rules tag names them: "pagat kots=3", "hukum trump=closed".'),
    games: int = typer.Option(1, "--games", "-n", min=1, max=1_000_000, help="How many matches."),
    seed: int = typer.Option(0, "--seed", "-s", min=0,
                             help="The random seed, 0 or more: the same seed writes the same text, another seed "
                                  "another."),
    hands: bool = typer.Option(False, "--hands", help="Write each deal's hands."),
    style: WritingStyle = typer.Option(WritingStyle.plain, "--style",
                                       help="plain: the canonical layout; loose: hand-written spellings, "
                                            "comments, glyphs, corrections, several tricks to a line."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", parser=output_path, metavar="FILE",
                                          help="Write to FILE instead of standard output."),
    force: bool = typer.Option(False, "--force", help="With -o, replace a read-only file too."),
) -> None:
    """Write random legal matches as DPN (deterministic for a seed).

    Every match is played to its end under the rules (an open-ended pagat session, kots=0,
    lasts 1 to 12 deals). Profiles: standard, pagat, hukum, with their options.

    Example: dehlanote generate --rules "pagat kots=3" --games 5 --seed 7 --hands
    """
    try:
        profile, options = parse_rules_text(rules)
        kots = make_rules(profile, options).kots_to_win
    except ValueError as exc:
        raise fail(f'--rules "{rules}": {exc}') from None
    look = Style(hands=hands, loose=style is WritingStyle.loose,
                 withdrawn=0.05 if style is WritingStyle.loose else 0.0)
    rng = random.Random(seed)
    # an open-ended session (kots=0) picks its own length; any other match plays to its end
    # (kots=50, seed 1, took 207 deals: a limit of 200 whatever the kots ended it unfinished, Result "*")
    limit = None if kots == 0 else MAX_DEALS * kots

    def texts() -> Iterator[str]:
        # one blank line between games and none at the end, as the canonical layout has it
        for n in range(games):
            text, _facts = generate_match(rng, profile, options, look, max_deals=limit)
            yield ("\n" if n else "") + text.rstrip("\n") + "\n"

    if output is None:
        for text in texts():
            emit(text)
        raise typer.Exit(Exit.OK)
    try:
        with replacing(output, force=force) as stream:
            for text in texts():
                stream.write(text)
    except OutputRefused as exc:
        raise fail(f"will not write {output}: {exc}", Exit.USAGE) from None
    except OSError as exc:
        raise fail(f"cannot write {output}: {why(exc)}", Exit.USAGE) from None
    raise typer.Exit(Exit.OK)
