"""The options of single-dummy judgement, shared by solve, annotate, replay and html."""

from __future__ import annotations

import math

import typer

from ..analysis import WORLDS

DD_OPTION = typer.Option(False, "--dd", help="Judge each card double dummy only (as if its player saw every hand): "
                                             "no sampling, much faster.")
WORLDS_OPTION = typer.Option(WORLDS, "--worlds", min=1, metavar="N",
                             help="Single dummy: the deals sampled for each card (all of them when fewer fit).")
SEED_OPTION = typer.Option(0, "--seed", metavar="N",
                           help="Single dummy: the seed of the sampling (same seed, same judgement).")



def seconds_limit(text: "str | float") -> float:
    """A ``--time-limit`` (solve, review, and the analysis of annotate, replay and html): seconds, at
    least 0; 0 or ``inf`` is no limit (0 is given back for both). ``nan`` was refused as "should be
    greater than or equal to 0", as if it were a number of seconds below 0."""
    text = str(text)        # (the default comes as a number)
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise typer.BadParameter(f"{text.strip()[:20]!r} is not a number of seconds (e.g. 60, or 0 for no limit)")
    if value < 0:
        raise typer.BadParameter(f"{text.strip()[:20]} seconds: a time limit is 0 seconds or more (0: no limit)")
    return 0.0 if math.isinf(value) else value + 0.0        # (+ 0.0: -0 is 0)


#: annotate, replay and html: the analysis's time a deal (solve and review say it in their own words)
ANALYSIS_TIME_OPTION = typer.Option(60.0, "--time-limit", parser=seconds_limit, metavar="SECONDS",
                                    help="The analysis: CPU seconds a deal at most (0: no limit). The later "
                                         "tricks are solved first, so a deal stopped by the limit still shows "
                                         "them. It implies --analyse.")


def judgement_options_given(ctx: typer.Context) -> bool:
    """Whether --dd, --worlds, --seed or --time-limit was typed: they speak of the analysis, so they
    ask for it (``annotate --dd FILE`` analyses, as ``--analyse-from`` does; it was a plain annotate)."""
    return any(typed(ctx, name) for name in ("dd", "worlds", "seed", "time_limit"))


def typed(ctx: typer.Context, name: str) -> bool:
    """Whether the option (its parameter's name) was given on the command line, not left at its default."""
    return getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"


def note_unused(ctx: typer.Context, dd: bool) -> None:
    """With --dd, a typed --worlds or --seed is said to be unused (the double-dummy view samples no
    worlds): they were dropped without a word, and the user believed the judgement single dummy."""
    given = [f"--{name}" for name in ("worlds", "seed") if typed(ctx, name)]
    if dd and given:
        from .common import err_console
        err_console().print(f"dehlanote: {' and '.join(given)} not used: --dd judges double dummy, with no "
                            "worlds sampled (leave out --dd for the single-dummy judgement)", markup=False)
