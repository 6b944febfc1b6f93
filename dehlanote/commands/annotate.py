"""``dehlanote annotate``: each deal trick by trick."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

import typer
from rich.text import Text

from ..analysis.judge import claim_judge
from ..output.annotext import DealWriter
from ..output.notes import Streamed, comment_words, game_words, match_end, write_annotated
from ..output.render import (
    deal_table,
    error_text,
    game_heading,
    game_result_text,
)
from .sdoptions import ANALYSIS_TIME_OPTION, DD_OPTION, SEED_OPTION, WORLDS_OPTION, judgement_options_given, note_unused
from ..replay import DealFact, GameFacts, GameReplay, iter_replay
from ..rules.profile import Registry, Rules
from ..syntax import Game
from ..syntax.model import Deal, Loose
if TYPE_CHECKING:
    from ..analysis.deal import DealAnalysis

from .common import (
    say,
    RULES_OPTION,
    AnnotateFormat,
    DpnOut,
    FileReport,
    TextOut,
    canonical_text,
    display_name,
    err_console,
    exit_status,
    expand,
    load_registry,
    located,
    plural,
    records_of,
    why,
)


def annotate(
    ctx: typer.Context,
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="DPN files or glob patterns; - reads standard input."),
    format: AnnotateFormat = typer.Option(AnnotateFormat.text, "--format", "-f", metavar="text|dpn",
                                          help="text: a table per deal; dpn: the record with the "
                                               "facts as {} comments (itself valid DPN)."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
    analyse: bool = typer.Option(False, "--analyse", help="Solve each deal whose hands are known: mark each "
                                 "card expected to lose value ? (?? by a ten or more; with --dd: lost value "
                                 "double dummy, ?? when it changed who wins the deal) in the table "
                                 "(with --format dpn: as its glyph, with an {analysis ...} comment) and say "
                                 "what would have kept it (see dehlanote solve). Single dummy unless "
                                 "--dd; --dd, --worlds and --seed imply it."),
    dd: bool = DD_OPTION,
    worlds: int = WORLDS_OPTION,
    seed: int = SEED_OPTION,
    time_limit: float = ANALYSIS_TIME_OPTION,
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
    note_unused(ctx, dd)
    judge = _Judge(dd, worlds, seed, time_limit or None) if analyse or judgement_options_given(ctx) else None
    specs = expand(files)
    reports: list[FileReport] = []
    out = TextOut()
    out.fast = DIRECT
    direct = DealWriter(out.console, out.piped)
    dpn = DpnOut()              # --format dpn: in colour on a terminal
    first = True
    if judge is not None and sys.stderr.isatty():
        def held() -> None:
            direct.flush()
            sys.stdout.flush()
        judge.flush = held
    with direct.watching():
        for spec in specs:
            report = FileReport(display_name(spec))
            reports.append(report)
            try:
                index = 0
                loose: list[str] = []
                for game in records_of(spec):
                    if isinstance(game, Loose):
                        # comments in no game (a file of notes alone): data, kept as written in
                        # the record written (the tables show games)
                        if format is AnnotateFormat.dpn:
                            dpn(("" if first else "\n") + game.text + "\n")
                            dpn.close()
                            first = False
                        loose += game.comments
                        continue
                    index += 1
                    # deal by deal: a game of thousands of deals needs the memory of one
                    if format is AnnotateFormat.dpn:
                        facts = _annotate_dpn(dpn, game, reg, report.path, first, analyse=judge)
                    else:
                        facts = _annotate_text(out, game, reg, index, report.path, first, several=len(specs) > 1,
                                               symbols=symbols, analyse=judge, direct=direct)
                    report.games += 1
                    report.count += len(facts.errors)
                    first = False
                if index == 0 and format is AnnotateFormat.text:
                    _no_game(out, direct, report.path, loose, first)
                    first = False
            except OSError as exc:
                if isinstance(exc, BrokenPipeError):
                    raise
                direct.flush()
                report.unreadable = why(exc)
                say(f"cannot read {report.path}: {report.unreadable}")
            dpn.close()
    raise typer.Exit(exit_status(reports))


#: the deal tables written by :class:`~dehlanote.output.annotext.DealWriter` (False: every
#: table laid out by Rich, as the differential tests compare)
DIRECT = True


class _Judge:
    """``--analyse``: each deal solved, and judged single dummy unless ``dd``."""

    def __init__(self, dd: bool, worlds: int, seed: int, time_limit: Optional[float]) -> None:
        """``time_limit``: CPU seconds a deal at most (None: no limit)."""
        self.dd, self.worlds, self.seed, self.time_limit = dd, worlds, seed, time_limit
        #: on a terminal, what is written before a deal is solved (the tables held so far), so
        #: that the line saying which deal is being solved stands below them (None: no line)
        self.flush: Optional[Callable[[], None]] = None

    def solve(self, fact: DealFact, rules: Rules) -> DealAnalysis:
        # (the solver imported only for --analyse: a quicker start for the rest)
        from ..analysis.single import analyse as analyse_single
        progress: Optional[Callable[[int, int], None]] = None
        if self.flush is not None:
            # a deal takes up to a minute: one line on standard error says which and how far,
            # rewritten in place and wiped before the deal's table is written
            self.flush()
            what = "solving" if self.dd else "judging"

            def progress(done: int, total: int) -> None:
                sys.stderr.write(f"\r\x1b[K{what} deal {fact.number}: {done}/{total}")
                sys.stderr.flush()

            progress(0, 0)
        try:
            return analyse_single(fact, rules, dd=self.dd, worlds=self.worlds, seed=self.seed,
                                  time_limit=self.time_limit, progress=progress)
        finally:
            if progress is not None:
                sys.stderr.write("\r\x1b[K")
                sys.stderr.flush()

    def __call__(self, deal: Deal, fact: DealFact, rules: Rules) -> tuple[Deal, Optional[str]]:
        from ..analysis.commentary import analysed_deal
        return analysed_deal(deal, fact, rules, self.solve(fact, rules))


def _annotate_dpn(dpn: DpnOut, game: Game, reg: Registry, path: str, first: bool, *,
                  analyse: Optional[_Judge]) -> GameFacts:
    """The record with the facts as comments (a game that could not be read: as written)."""
    if not first:
        dpn("\n")
    if game.errors:     # (a fault of the reader: the game's text kept as written)
        facts = _drained(iter_replay(game, reg, claim_judge))
        dpn(canonical_text(game, facts))
    else:
        facts = write_annotated(game, lambda: iter_replay(game, reg, claim_judge), dpn,
                                mark=analyse)
    dpn.close()                 # the errors after the game's text
    err = err_console()
    for e in facts.errors:
        err.print(str(located(e, game, path)), markup=False)
    return facts


def _drained(replay: GameReplay) -> GameFacts:
    """The game's facts (result, errors, notes), its deals replayed and let go."""
    for item in replay:
        if isinstance(item, GameFacts):
            return item
    raise AssertionError("a replay ends with the game's facts")


def _no_game(out: TextOut, direct: DealWriter, path: str, comments: list[str], first: bool) -> None:
    """A file with no game, said as such, with its comments (it printed nothing, as if lost)."""
    _rich(direct)
    if not first:
        out.blank()
    what = ", only comments:" if comments else ""
    out.text(Text(f"{path}: no game in this file{what}", style="bold"))
    for words in comment_words(comments):
        out.text(Text(words))


def _rich(direct: Optional[DealWriter]) -> None:
    """Before Rich writes: what the direct writer holds, written first."""
    if direct is not None:
        direct.flush()


def _annotate_text(out: TextOut, game: Game, reg: Registry, index: int, path: str, first: bool, *,
                   several: bool, symbols: bool, analyse: Optional[_Judge],
                   direct: Optional[DealWriter] = None) -> GameFacts:
    """A game as tables, one per deal, then its result and errors (``direct``: the writer of
    the command's earlier games, made here when None)."""
    symbols = symbols and (out.encoding or "").lower().startswith("utf")
    if not DIRECT:
        direct = None
    elif direct is None:
        direct = DealWriter(out.console, out.piped)
    if not first:
        if direct is None:
            out.blank()
        else:
            direct.blank()
    replay = iter_replay(game, reg, claim_judge)
    rules = replay.rules
    head = GameFacts(game, rules, (), None, ())
    heading = game_heading(head, index)
    if several:
        heading = Text(f"{path} · ", style="bold").append_text(heading)
    if direct is None or not direct.rule(heading, "═"):
        _rich(direct)
        out.rule(heading, characters="═")
    for words in game_words(game):                 # the record's own comments on the game
        said = Text(words)
        if direct is None or not direct.text(said):
            _rich(direct)
            out.text(said)
    stream = Streamed(replay)
    analysis: list[str] = []
    for deal, final in stream:
        assert rules is not None
        marks: dict[tuple[int, int], str] = {}
        if analyse is not None:
            # solved before its table is drawn: the cards that lost value are marked in it
            solved = analyse.solve(deal, rules)
            from ..analysis.commentary import analysed_deal, deal_marks
            marks = {at: mark for at, (mark, _) in deal_marks(deal, rules, solved).items()}
            analysis.append(analysed_deal(deal.deal, deal, rules, solved)[1])
        ending = final or match_end(head, deal)
        if direct is None or not direct.deal(deal, rules, ending, symbols=symbols, lost_value=marks, blank=True):
            _rich(direct)
            out.print()
            out.print(deal_table(deal, rules, ending, symbols=symbols, lost_value=marks))
    facts = stream.facts
    assert facts is not None
    if facts.rules is not None:
        result = game_result_text(facts)
        if direct is None:
            out.blank()
            out.text(result)
        else:
            direct.blank()
            if not direct.text(result):
                _rich(direct)
                out.text(result)
    _rich(direct)
    for note in facts.notes + tuple(analysis):
        out.print(f"note: {note}", style="dim", markup=False)
    if facts.errors:
        out.blank()
        out.print(f"{plural(len(facts.errors), 'error')}:", style="bold red")
        for e in facts.errors:
            out.text(error_text(located(e, facts.game, path), path))
    return facts
