"""``dehlanote html``: self-contained replay pages, or a site with an index of statistics."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from ..errors import missing_folder
from ..batch.check import open_checked, printable
from ..files import InputKept, OutputRefused, WriteError, inputs_kept, kind_of
from ..output.analysis_view import Analyser
from ..output.html.site import PER_PAGE, Extend, PageReport, build_site, write_page
from ..replay import DealFact
from ..rules.profile import Rules
from .sdoptions import (ANALYSIS_TIME_OPTION, DD_OPTION, SEED_OPTION, WORLDS_OPTION, judgement_options_given,
                        note_unused, typed)
from .common import (
    ANALYSE_FROM_OPTION,
    RULES_OPTION,
    STDIN,
    check_lang,
    lang_code,
    Exit,
    analysis_progress,
    display_name,
    err_console,
    expand,
    fail,
    load_registry,
    once_each,
    FolderName,
    output_place,
    plural,
    refuse_input_output,
    why,
)



def site_name(spec: str) -> str:
    """How a site names an input on its pages, which are made to be published: the path as
    given when it is relative and stays inside the working folder, else only the file's name
    (an absolute path such as /home/NAME/... tells the world the machine's folders)."""
    if spec == STDIN or os.path.isabs(spec) or os.path.normpath(spec).startswith(os.pardir):
        return display_name(spec if spec == STDIN else os.path.basename(spec))
    return display_name(spec)

def _sizes(specs: list[str]) -> int:
    total = 0
    for spec in specs:
        try:
            total += os.path.getsize(spec) if spec != STDIN else 0
        except OSError:
            pass
    return total


def html_command(
    ctx: typer.Context,
    files: Optional[list[str]] = typer.Argument(None, metavar="FILE",
                                                help="DPN files or glob patterns; - reads standard input."),
    output: Path = typer.Option(..., "--output", "-o", parser=output_place, metavar="OUT",
                                help="The page to write (one input), or the site's folder (several inputs "
                                     "or --site)."),
    site: bool = typer.Option(False, "--site", help="Write a folder with an index.html (statistics, charts, "
                                                     "every game) even for one input."),
    title: Optional[str] = typer.Option(None, "--title", help="The site's title (its index page; with --viewer, "
                                                              "the viewer's). Default: DPN games."),
    four_colour: bool = typer.Option(False, "--four-colour", help="Start with the four-colour deck "
                                                                  "(spades black, hearts red, diamonds blue, "
                                                                  "clubs green); pages have a switch."),
    per_page: int = typer.Option(PER_PAGE, "--games-per-page", min=1, metavar="N",
                                 help="In a site, a file with more games is split into pages of N games."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="A progress bar on standard error (default: on a terminal, "
                                                 "for a site)."),
    analyse: bool = typer.Option(False, "--analyse", help="Solve each deal whose hands are known: the page "
                                 "marks each card expected to lose value (judged single dummy: ? beyond the "
                                 "sampling error, ?? by a ten; with --dd double dummy) with what would have "
                                 "kept it, and shows the value under best play before each trick (see "
                                 "dehlanote solve). A minute or more a deal. --dd, --worlds and --seed imply it."),
    analyse_from: Optional[int] = ANALYSE_FROM_OPTION,
    dd: bool = DD_OPTION,
    worlds: int = WORLDS_OPTION,
    seed: int = SEED_OPTION,
    time_limit: float = ANALYSIS_TIME_OPTION,
    viewer: bool = typer.Option(False, "--viewer", help="Write the viewer page instead (no FILE): it shows the "
                                                          "deal carried in its link (see dehlanote share)."),
    rules: Optional[Path] = RULES_OPTION,
    lang: str = typer.Option("en", "--lang", metavar="LANG", parser=lang_code,
                             help="The pages' language: en, or hi (Hindi)."),
    force: bool = typer.Option(False, "--force", help="Write over read-only pages too."),
) -> None:
    """Write self-contained HTML replay pages.

    One page per input, or with several inputs (or --site) a folder: OUT/index.html with
    the archive's statistics and charts and a list of every game, and OUT/games/ with one
    page per file. A page needs no network: open it from disk and step through the cards
    with the buttons or the keys (arrows, Home/End, [ ] for deals, ? for help). A
    position can be linked: page.html#game=1&deal=2&trick=7.

    A page replaces its file only once it is whole (a device or FIFO is written as it is, a
    read-only file is refused without --force); a site's folder is never written through a
    link planted in it.

    Exit status: 0 all valid, 1 some record has errors (its pages are still written, with
    the errors flagged), 2 usage, an unreadable file or a page that cannot be written.

    Example: dehlanote html samples/match.dpn -o match.html
    """
    from ..i18n import translator
    check_lang(lang)
    err = err_console()
    if viewer:
        unused = [name for name, given in (("--site", site), ("--analyse", analyse),
                                           ("--analyse-from", analyse_from is not None), ("--dd", dd),
                                           ("--worlds", typed(ctx, "worlds")), ("--seed", typed(ctx, "seed")),
                                           ("--time-limit", typed(ctx, "time_limit")),
                                           ("--rules", rules is not None)) if given]
        if unused:
            one = len(unused) == 1
            raise fail(f"usage: --viewer writes the page that shows a shared deal, which {' and '.join(unused)} "
                       f"{'does' if one else 'do'} not apply to: give {'it' if one else 'them'} "
                       "without --viewer (nothing was written)")
        _write_viewer(files, output, err, lang, title=title, four_colour=four_colour, force=force)
    if not files:
        raise fail("give a DPN file (or --viewer for the page that shows shared deals)")
    reg = load_registry(rules)
    specs = expand(files)
    as_site = site or len(specs) > 1
    if STDIN in specs and as_site:
        raise fail("standard input can be made into one page only: give files for a site")
    if as_site:
        specs = once_each(specs)        # a site counts each game once, as stats and review do (their links agree)
    started = time.perf_counter()
    note_unused(ctx, dd)
    analyser = (Analyser(from_trick=analyse_from or 1, dd=dd, worlds=worlds, seed=seed, words=translator(lang),
                         time_limit=time_limit or None)
                if analyse or analyse_from or judgement_options_given(ctx) else None)
    extend = _analysis(analyser, progress if progress is not None else sys.stderr.isatty()) if analyser else None
    if not as_site:
        spec = specs[0]
        # (-o out/: a page in the folder out, which must exist, not a file named out)
        target = output / f"{_stem(spec)}.html" if output.is_dir() or isinstance(output, FolderName) else output
        if not target.parent.exists():
            raise fail(f"cannot write {_shown(target)}: the folder {_shown(target.parent)} "
                       f"{missing_folder(str(target.parent))}")
        refuse_input_output(target, [spec, rules])
        try:
            with open_checked(spec) as stream:
                report = write_page(stream, site_name(spec), target, reg, four_colour=four_colour,
                                    extend=extend, lang=lang, force=force)
        except OutputRefused as exc:
            raise fail(f"will not write {_shown(exc.path or target)}: {exc}")
        except WriteError as exc:
            raise fail(f"cannot write {_shown(exc.filename or target)}: {why(exc)}")
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise fail(f"cannot read {display_name(spec)}: {why(exc)}")
        _errors(err, [report])
        _analysed(err, analyser)
        err.print(f"wrote {_shown(target)}: {plural(report.games, 'game')}, {plural(report.deals, 'deal')}"
                  + (f", {plural(report.errors, 'error')} flagged" if report.errors else ""), markup=False)
        raise typer.Exit(Exit.INVALID if report.errors else Exit.OK)
    if output.exists() and not output.is_dir():
        # (what it is: a FIFO or a device was said to be "a file")
        what = kind_of(os.stat(output)).replace("regular ", "")
        raise fail(f"{_shown(output)} is {what}: a site needs a folder (it is made if missing)")
    # while deals are solved the analysis shows its own bar (one bar at a time)
    show = (progress if progress is not None else sys.stderr.isatty()) and extend is None
    total = _sizes(specs)
    opener: Callable[[str], Any] = open_checked
    review: Optional[Callable[[Path, dict[str, str]], dict[str, str]]] = None
    if analyser is not None and extend is not None:
        # an analysed site gets each player's mistake review and drill pages
        from ..output.html.review import SiteReview
        reviewer = SiteReview(analyser, per_page=per_page, opener=open_checked, shown=site_name, lang=lang)
        extend = _reviewed(extend, reviewer)
        opener, review = reviewer.opener, reviewer.write
    try:
        # a page whose name is a record read (an input in the site's folder) is refused, not replaced
        with _bar(total, show) as advance, inputs_kept([*specs, *([rules] if rules else [])]):
            result = build_site(specs, output, reg, title=printable(title or "DPN games"), four_colour=four_colour,
                                per_page=per_page, progress=advance, extend=extend, opener=opener,
                                lang=lang, force=force, shown=site_name, review=review)
    except InputKept as exc:
        raise fail(f"output-is-input: {_shown(exc.path or output)} is an input of this command: writing it would "
                   f"lose the record; give another output folder{_unfinished(exc.path, output)}")
    except OutputRefused as exc:
        raise fail(f"will not write {_shown(exc.path or output)}: {exc}{_unfinished(exc.path, output)}")
    except WriteError as exc:
        raise fail(f"cannot write {_shown(exc.filename or output)}: {why(exc)}{_unfinished(exc.filename, output)}")
    _errors(err, result.files)
    _analysed(err, analyser)
    games = sum(f.games for f in result.files)
    deals = sum(f.deals for f in result.files)
    errors = sum(f.errors for f in result.files)
    seconds = time.perf_counter() - started
    err.print(f"wrote {_shown(result.index or '')} and {plural(sum(len(f.pages) for f in result.files), 'page')}: "
              f"{plural(games, 'game')}, {plural(deals, 'deal')}"
              + (f", {plural(errors, 'error')} flagged" if errors else "") + f" in {seconds:.1f} s", markup=False)
    if any(f.unreadable for f in result.files):
        raise typer.Exit(Exit.USAGE)
    raise typer.Exit(Exit.INVALID if errors else Exit.OK)


def _write_viewer(files: Optional[list[str]], output: Path, err: Any, lang: str, *, title: Optional[str] = None,
                  four_colour: bool = False, force: bool = False) -> None:
    """``html --viewer``: the page that shows the deal of a ``dehlanote share`` link."""
    from ..files import OutputRefused, write_target
    from ..output.html.viewer import render_viewer

    if files:
        raise fail("--viewer writes the page that reads its deal from a link: give no FILE")
    target = output / "viewer.html" if output.is_dir() or isinstance(output, FolderName) else output
    try:
        with write_target(target, force=force) as stream:
            stream.write(render_viewer(title, lang=lang,
                                       four_colour=four_colour))
    except OutputRefused as exc:
        raise fail(f"will not write {target}: {exc}")
    except OSError as exc:
        raise fail(f"cannot write {target}: {why(exc)}")
    err.print(f"wrote {target}: the viewer (links from dehlanote share FILE --deal N --base ADDRESS-OF-THIS-PAGE)",
              markup=False)
    raise typer.Exit(Exit.OK)


def _analysis(analyser: Analyser, show: bool) -> Extend:
    """Each deal's page data gets its analysis (``an``), solved once per run, with a progress
    bar on standard error while it is solved; deal by deal, as the page is written."""
    def extend(game: int, fact: DealFact, rules: Rules, data: dict[str, Any]) -> None:
        solve = analyser.cached(fact, rules) is None
        with analysis_progress(show and solve) as meter:
            view = analyser.view(fact, rules, meter.deal(f"game {game}, deal {fact.number}") if solve else None)
        data["an"] = view.to_json()
    return extend


def _reviewed(extend: Extend, reviewer: Any) -> Extend:
    """The site's analysis of each deal, then its decisions kept for the review pages."""
    def both(game: int, fact: DealFact, rules: Rules, data: dict[str, Any]) -> None:
        extend(game, fact, rules, data)
        reviewer.deal(game, fact, rules)
    return both


def _analysed(err: Any, analyser: Optional[Analyser]) -> None:
    if analyser is not None:
        parts = ([f"{plural(analyser.solved, 'deal')} solved"]
                 if analyser.solved or not (analyser.unknown or analyser.refused) else [])
        if analyser.unknown:
            parts.append(f"{plural(analyser.unknown, 'deal')} not analysed: hands unknown")
        if analyser.refused:
            parts.append(f"{plural(analyser.refused, 'deal')} not analysed (each deal's page says why)")
        err.print("analysis: " + "; ".join(parts), markup=False)


def _unfinished(where: object, output: Path) -> str:
    """What a site left by a failure is: nothing is said when the failure was the site's own
    folder or its games folder, opened (or made) before any page is written; after that, that
    the site is not complete (it was said of a site never begun: "-o a", a a loop of links)."""
    if isinstance(where, (str, Path)) and os.path.normpath(where) in (os.path.normpath(output),
                                                                       os.path.normpath(output / "games")):
        return ""
    return " (the site is not complete)"


def _shown(path: object) -> str:
    return printable(str(path))


def _stem(spec: str) -> str:
    return "stdin" if spec == STDIN else Path(spec).stem or "games"


def _errors(err, reports: list[PageReport]) -> None:
    for r in reports:
        if r.unreadable:
            err.print(f"dehlanote: cannot read {r.path}: {r.unreadable}", markup=False)
            continue
        for e in r.first_errors:
            err.print(str(e.with_context(path=r.path)), markup=False)
        if r.errors > len(r.first_errors):
            err.print(f"{r.path}: {r.errors - len(r.first_errors)} more errors (dehlanote validate lists them)",
                      markup=False)


class _bar:
    """A progress bar over the bytes of all inputs, on standard error (or nothing)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.done = 0               # bytes of the files finished
        self.path: Optional[str] = None
        self.games = 0

    def __enter__(self) -> Callable[[str, int], None]:
        if not self.enabled:
            return lambda path, position: None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(TextColumn("building"), BarColumn(), TextColumn("{task.percentage:>3.0f} %"),
                                 TextColumn("{task.fields[games]} games"), TimeElapsedColumn(),
                                 console=Console(stderr=True, highlight=False), transient=True)
        self.task = self.progress.add_task("", total=self.total, games=0)
        self.progress.start()
        return self.advance

    def advance(self, path: str, position: int) -> None:
        if path != self.path:
            if self.path is not None:
                try:
                    self.done += os.path.getsize(self.path)
                except OSError:
                    pass
            self.path = path
        self.games += 1
        if self.games % 10 == 0 or position < 0:
            self.progress.update(self.task, completed=self.done + max(position, 0), games=self.games)

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.progress.update(self.task, completed=self.total, games=self.games)
            self.progress.stop()
