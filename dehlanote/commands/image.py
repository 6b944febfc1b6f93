"""``dehlanote image``: a picture of the table at one moment of a deal, as SVG or PNG."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import (RULES_OPTION, Exit, deal_span, display_name, err_console, fail, load_registry, no_trick,
                     output_path, plural, refuse_input_output)


def image_command(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    deal: int = typer.Option(..., "--deal", "-d", min=1, metavar="N", help="The deal: its place in the game, from 1."),
    trick: int = typer.Option(0, "--trick", "-t", min=0, metavar="K",
                              help="The table at the end of trick K (0: as dealt)."),
    card: Optional[int] = typer.Option(None, "--card", "-c", min=0, metavar="J",
                                       help="With --trick K: after J cards of trick K (0: before its lead)."),
    game: int = typer.Option(1, "--game", "-g", min=1, metavar="N", help="Which game of the file (from 1)."),
    output: Path = typer.Option(..., "--output", "-o", parser=output_path, metavar="OUT.png|OUT.svg",
                                help="The picture to write: .svg, or .png (needs cairosvg: pip install "
                                     "'dehlanote[image]')."),
    force: bool = typer.Option(False, "--force", help="Replace a read-only file too."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Write a picture of the table: the hands, the trick, the centre, the piles and the tens.

    The table as the replay page draws it, for a chat message or a web page: SVG (any
    size, a few kilobytes) or PNG (960 pixels wide).

    Exit status: 0, 1 when the game has errors (the picture is still written), 2 for usage,
    an unreadable file or a picture that cannot be written.

    Example: dehlanote image samples/worked-example.dpn --deal 1 --trick 9 -o trick9.png
    """
    from ..files import OutputRefused, write_target
    from ..text import printable
    from ..output.stepper import snapshots
    from ..output.svg import snapshot_svg
    from ..deck import seats_for
    from .share import load_game, not_replayable

    kind = output.suffix.lower()
    if kind not in (".svg", ".png"):
        raise fail(f"{output}: the picture is written as .svg or .png (the name says which)")
    if kind == ".png":
        try:
            import cairosvg
        except (ImportError, OSError) as exc:     # OSError: the cairo library itself is missing
            raise fail("a PNG needs cairosvg and the cairo library: pip install 'dehlanote[image]' "
                       f"(or write an .svg) ({type(exc).__name__}: {exc})")
    refuse_input_output(output, [file, rules])
    reg = load_registry(rules)
    facts = load_game(file, game, reg)
    rules_used = facts.rules
    if rules_used is None:        # (its deals were not replayed: "no deal 1 ... (no deal)" hid why)
        raise fail(not_replayable(file, game, facts), Exit.INVALID)
    chosen = next((d for d in facts.deals if d.number == deal), None)
    if chosen is None:
        raise fail(f"game {game} of {display_name(file)} has no deal {deal} that can be replayed "
                   f"({deal_span(facts.deals)})")
    snaps = snapshots(chosen, rules_used)
    ends = [0] + [i for i, s in enumerate(snaps) if s.trick is not None and s.complete]
    if trick == 0:
        if card:
            raise fail(f"--card {card} counts the cards of a trick: say which with --trick K "
                       f"(e.g. --trick 1 --card {card})")
        index = 0
    else:
        numbers = [t.number for t in chosen.tricks]
        if trick not in numbers:
            raise fail(no_trick(chosen, trick))
        k = numbers.index(trick)
        index = ends[k + 1]
        if card is not None:
            size = len(chosen.tricks[k].plays)
            if card > size:
                raise fail(f"trick {trick} has {size} cards: --card is 0 to {size}")
            index = ends[k] + card
    tags = {t.name: t.value for t in facts.game.tags}
    seats = seats_for(rules_used.seats)[: rules_used.seats]
    names = {s: tags[s] for s in seats if tags.get(s)}
    where = f"trick {trick}" + (f", card {card}" if card is not None else "") if trick else "as dealt"
    title = f"{tags.get('Event') or 'Dehla Pakad'} · deal {deal} · {where}"
    svg = snapshot_svg(snaps[index], seats, names=names, title=title)
    data = svg.encode("utf-8", "replace")
    if kind == ".png":
        try:
            data = cairosvg.svg2png(bytestring=data)
        except Exception as exc:     # cairosvg raises what its parser and cairo raise: any of it is one line
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise fail(f"image-failed: cairosvg could not draw the PNG ({type(exc).__name__}: {printable(first)}); "
                       "nothing was written (an .svg may still be written)") from None
    try:
        with write_target(output, force=force, binary=True) as stream:
            stream.write(data)
    except OutputRefused as exc:
        raise fail(f"will not write {output}: {exc}")
    except OSError as exc:
        raise fail(f"cannot write {output}: {exc.strerror or exc}")
    mine = sum(1 for e in facts.errors if e.deal == deal)
    loose = sum(1 for e in facts.errors if e.deal is None)
    others = len(facts.errors) - mine - loose
    said = [f"{plural(mine, 'error')} in the deal"] if mine else []
    said += [f"{plural(loose, 'error')} of the game's own"] if loose else []
    said += [f"{plural(others, 'error')} in other deals"] if others else []
    err_console().print(f"wrote {output}: deal {deal}, {where}" + (f" ({', '.join(said)})" if said else ""),
                        markup=False)
    raise typer.Exit(Exit.INVALID if facts.errors else Exit.OK)
