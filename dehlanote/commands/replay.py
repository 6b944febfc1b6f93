"""``dehlanote replay``: step through a game, in the terminal or as text."""

from __future__ import annotations

import os
import select
import signal
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.control import Control

from ..analysis.judge import claim_judge
from ..stops import signal_exit
from ..output.notes import deal_heading, deal_result_text
from ..output.stepper import Stepper, flag_text, match_parts, match_state
from ..output.analysis_view import Analyser, BackgroundAnalysis, DealView
from ..output.keys import StepperKeys, key_hints
from ..text import safe_console
from ..output.stepper_view import (
    ERROR_MARK,
    AnalysisShown,
    ScreenSize,
    plain_hands,
    plain_step_lines,
    stepper_screen,
)
from ..replay import GameFacts, replay_game
from ..rules.profile import Registry
from .sdoptions import ANALYSIS_TIME_OPTION, DD_OPTION, SEED_OPTION, WORLDS_OPTION, judgement_options_given, note_unused
from .common import (
    ANALYSE_FROM_OPTION,
    RULES_OPTION,
    STDIN,
    Exit,
    analysis_progress,
    deal_span,
    display_name,
    err_console,
    fail,
    load_registry,
    located,
    no_trick,
    open_games,
    out_console,
    plural,
    validate_hint,
)


def _load_game(spec: str, number: int, reg: Registry) -> GameFacts:
    games = open_games(spec)
    count = 0
    for game in games:
        count += 1
        if count == number:
            return replay_game(game, reg, judge=claim_judge)
    raise fail(f"{display_name(spec)} has {plural(count, 'game')}: there is no game {number}")


def replay(
    ctx: typer.Context,
    file: str = typer.Argument(..., metavar="FILE",
                               help="A DPN file; - reads standard input (with --plain, or when piped)."),
    game: int = typer.Option(1, "--game", "-g", min=1, metavar="N", help="Which game of the file (from 1)."),
    deal: Optional[int] = typer.Option(None, "--deal", "-d", min=1, metavar="N",
                                       help="Start at deal N (its place in the game, from 1)."),
    trick: Optional[int] = typer.Option(None, "--trick", "-t", min=1, metavar="N",
                                        help="Start at the end of trick N."),
    plain: bool = typer.Option(False, "--plain", help="Print the steps as text, even on a terminal."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    analyse: bool = typer.Option(False, "--analyse", help="Solve each deal whose hands are known: show the value "
                                 "under best play before each trick and mark each card expected to lose value "
                                 "(judged single dummy: ? beyond the sampling error, ?? by a ten; with --dd "
                                 "double dummy) with what would have kept it (see dehlanote solve). A minute "
                                 "or more a deal, solved while you step. --dd, --worlds and --seed imply it."),
    analyse_from: Optional[int] = ANALYSE_FROM_OPTION,
    dd: bool = DD_OPTION,
    worlds: int = WORLDS_OPTION,
    seed: int = SEED_OPTION,
    time_limit: float = ANALYSIS_TIME_OPTION,
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Step through a game in the terminal, card by card.

    Forward and back by card, trick and deal: the four hands, the trick, the centre pile,
    each side's captured pile and tens, trump, dealer, the run of consecutive wins.

    Each deal ends with its result (tens, winner, run, next dealer) and the match as it stands
    (kots, runs; "unknown" where the record does not allow to know); a status line shows the
    match at every step. Errors are marked at the card or trick at fault.

    Keys: {keys}. When standard output is not a terminal (or with --plain) the steps are
    printed as text, each error after the card at fault; --deal and --trick then limit what is
    printed.

    Exit status: 0; with the steps as text, 1 when the record has errors (as validate).

    Example: dehlanote replay samples/worked-example.dpn --trick 2
    """
    interactive = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    if file == STDIN and not plain and sys.stdout.isatty():
        raise fail("the stepper reads its keys from standard input, so it cannot read the record there too: "
                   "give it a file, or print the steps with --plain (dehlanote replay --plain -)")
    reg = load_registry(rules)
    facts = _load_game(file, game, reg)
    err = err_console()
    if facts.rules is None or not facts.deals:
        for e in facts.errors:
            err.print(str(located(e, facts.game, file)), markup=False)
        raise fail(f"game {game} of {file} has no deal that can be replayed", Exit.INVALID)
    if facts.errors:
        err.print(f"dehlanote: game {game} has {plural(len(facts.errors), 'error')}; "
                  f"showing what could be replayed ({validate_hint(file)} lists them)",
                  markup=False)
    stepper = Stepper.of(facts)
    if deal is not None and not stepper.goto(deal):
        raise fail(f"game {game} has no deal {deal} ({deal_span(facts.deals)})")
    if trick is not None and (not stepper.jump(trick)
                              or trick not in {t.number for t in stepper.deals[stepper.deal].tricks}):
        # (a trick written with the wrong number of cards is counted and not replayed: asked for,
        # it printed the deal's heading alone, with no word, and the status of success)
        raise fail(no_trick(stepper.deals[stepper.deal], trick))
    note_unused(ctx, dd)
    analyser = (Analyser(from_trick=analyse_from or 1, dd=dd, worlds=worlds, seed=seed, time_limit=time_limit or None)
                if analyse or analyse_from or judgement_options_given(ctx) else None)
    if interactive:
        _interactive(stepper, facts, symbols, analyser, source=file, reg=reg)
    else:
        _plain_replay(stepper, facts, only_deal=deal is not None, only_trick=trick, analyser=analyser)
        # the steps as text are a report, and a record with errors fails it, as in validate
        raise typer.Exit(Exit.INVALID if facts.errors else Exit.OK)
    raise typer.Exit(Exit.OK)


# the keys in --help come from the one keymap, as the help screen's and the key line's do
replay.__doc__ = (replay.__doc__ or "").replace("{keys}", ", ".join(key_hints()))


def _plain_analysis(analyser: Optional[Analyser], stepper: Stepper, i: int) -> Optional[DealView]:
    """Deal ``i`` solved (or from the cache), with a progress bar on standard error on a terminal."""
    if analyser is None:
        return None
    fact = stepper.deals[i]
    if not analyser.needs_solving(fact, stepper.rules):
        return analyser.view(fact, stepper.rules)
    with analysis_progress(sys.stderr.isatty() and analyser.cached(fact, stepper.rules) is None) as meter:
        return analyser.view(fact, stepper.rules, meter.deal(f"deal {fact.number}"))


def _plain_replay(stepper: Stepper, facts: GameFacts, *, only_deal: bool, only_trick: Optional[int],
                  analyser: Optional[Analyser] = None) -> None:
    """The steps as text; each error printed where it happened, the match after each deal; with
    ``--analyse`` the value before each trick and, after each card that lost value, its mark and
    what would have kept it."""
    out = out_console(soft_wrap=True)
    rules = facts.rules
    assert rules is not None
    indexes = [stepper.deal] if only_deal or only_trick is not None else range(len(stepper.deals))
    for n, i in enumerate(indexes):
        d = stepper.deals[i]
        snaps = stepper.snaps(i)
        flags = [f for f in stepper.flags if f.deal == i]
        view = _plain_analysis(analyser, stepper, i)
        if n:
            out.print()
        out.print(deal_heading(d), markup=False, style="bold")
        if only_trick is None:
            for f in flags:
                if f.played == 0 and not f.at_end:
                    out.print(f"  {ERROR_MARK} {flag_text(f)}", markup=False)
            out.print("  hands:", markup=False)
            for line in plain_hands(snaps[0], rules):
                out.print("  " + line, markup=False)
        if view is not None and view.note:
            out.print(f"  analysis: {view.note}", markup=False)
        for snap in snaps[1:]:
            t = snap.trick
            if t is None or (only_trick is not None and t.number != only_trick):
                continue
            tv = view.tricks.get(t.number) if view is not None else None
            if len(snap.shown) == 1:
                out.print(f" trick {t.number}, {t.leader} leads", markup=False)
                if tv is not None:
                    out.print(f"    {tv.value}", markup=False)
            lines = plain_step_lines(snap, rules)
            mark = tv.marks.get(len(snap.shown) - 1) if tv is not None else None
            if mark is not None:
                card = snap.shown[-1].card
                lines[0] = lines[0].replace(f"plays {card}", f"plays {card}{mark[0]}", 1)
                lines.insert(1, f"    {mark[0]} {mark[1]}")
            out.print(lines[0], markup=False)
            for f in flags:
                if f.played == snap.played and not f.at_end:
                    out.print(f"    {ERROR_MARK} {flag_text(f)}", markup=False)
            for line in lines[1:]:
                out.print(line, markup=False)
        if only_trick is None:
            result = deal_result_text(d, rules, facts if i == len(stepper.deals) - 1 else None)
            for line in result:
                out.print(f"  {line}", markup=False)
            for f in flags:
                if f.at_end:
                    out.print(f"  {ERROR_MARK} {flag_text(f)}", markup=False)
            parts = match_parts(match_state(stepper.deals, i + 1, rules, facts.result), rules)
            if parts[0].startswith("match over") and any(line.startswith("match over") for line in result):
                parts = parts[1:]                   # the deal's result said it already
            text = " · ".join(parts)
            out.print("  " + (text if text.startswith("match over") else f"match: {text}"), markup=False)


# -- the interactive stepper: read keys, let StepperKeys apply them, draw --

def _read_key(fd: int, timeout: float) -> Optional[bytes]:
    """One key press (an escape sequence counts as one), or None after ``timeout`` seconds."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    data = os.read(fd, 1)
    if data != b"\x1b":
        return data
    # an escape sequence arrives at once; a lone Esc does not continue
    while True:
        more, _, _ = select.select([fd], [], [], 0.03)
        if not more:
            return data
        data += os.read(fd, 1)
        if len(data) >= 3 and (data[-1:].isalpha() or data[-1:] == b"~"):
            return data
        if len(data) > 8:
            return data


def _interactive(stepper: Stepper, facts: GameFacts, symbols: bool, analyser: Optional[Analyser] = None, *,
                 source: Optional[str] = None, reg: Optional[Registry] = None) -> None:
    """Run the stepper in the terminal until q or Ctrl-C; the terminal is always restored.

    With ``analyser`` the deals are solved in a background thread, the deal on screen first; the
    screen says what is being solved until its analysis is there, and the keys never wait."""
    import termios
    import tty

    console = safe_console(highlight=False)     # tag values and names never drive the terminal
    symbols = symbols and (console.encoding or "").lower().startswith("utf")
    names = {s: name for s in "ABCDEF" if (name := facts.game.tag(s))}
    title = facts.game.tag("Event") or ""
    control = StepperKeys(stepper, facts=facts, source=source, reg=reg)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    old_term = signal.getsignal(signal.SIGTERM)
    old_hup = signal.getsignal(signal.SIGHUP)
    background = (BackgroundAnalysis(stepper.deals, stepper.rules, analyser, start=stepper.deal)
                  if analyser is not None else None)

    def stop(signum: int, frame: object) -> None:  # noqa: ARG001 - a signal handler's signature
        raise signal_exit(signum)

    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGHUP, stop)
        tty.setcbreak(fd, termios.TCSANOW)
        # Ctrl-C arrives as a key (quit) rather than a signal, so that it never cuts a frame mid-character
        mode = termios.tcgetattr(fd)
        mode[3] &= ~termios.ISIG
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        with console.screen(hide_cursor=True) as screen:
            size = None
            dirty = True
            seen = -1
            while True:
                shown: Optional[AnalysisShown] = None
                if background is not None:
                    background.want(stepper.deal)
                    done = background.finished(stepper.deal)
                    shown = AnalysisShown(background.view(stepper.deal),
                                          "" if done else background.status(stepper.deal))
                    # redraw when the solver has news, and each second while the deal shown is solved
                    if background.version != seen or (not done and background.solving(stepper.deal)):
                        seen = background.version
                        dirty = True
                if dirty or console.size != size:
                    size = console.size
                    console.control(Control.home())      # each frame from the top: it fills the screen
                    screen.update(stepper_screen(stepper, names=names, title=title, symbols=symbols,
                                                 control=control, size=ScreenSize(size.width, size.height),
                                                 analysis=shown))
                    dirty = False
                if control.busy:
                    # what-if: the solver plays on a card at a time; a key between two stops it
                    key = _read_key(fd, 0.0)
                    if key is None:
                        control.tick()
                        dirty = True
                        continue
                else:
                    key = _read_key(fd, 1.0 if shown is not None and shown.status else 0.25)
                if key is None:
                    continue
                dirty = True
                if control.press(key):
                    break
    except KeyboardInterrupt:
        pass
    finally:
        if background is not None:
            background.stop()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGHUP, old_hup)
