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
