"""The options of single-dummy judgement, shared by solve, annotate, replay and html."""

from __future__ import annotations

import typer

from ..analysis import WORLDS

DD_OPTION = typer.Option(False, "--dd", help="Judge each card double dummy only (as if its player saw every hand): "
                                             "no sampling, much faster.")
WORLDS_OPTION = typer.Option(WORLDS, "--worlds", min=1, metavar="N",
                             help="Single dummy: the deals sampled for each card (all of them when fewer fit).")
SEED_OPTION = typer.Option(0, "--seed", metavar="N",
                           help="Single dummy: the seed of the sampling (same seed, same judgement).")



def judgement_options_given(ctx: typer.Context) -> bool:
    """Whether --dd, --worlds or --seed was typed: they speak of the analysis, so they ask for it
    (``annotate --dd FILE`` analyses, as ``--analyse-from`` does; it was a plain annotate)."""
    return any(typed(ctx, name) for name in ("dd", "worlds", "seed"))


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
