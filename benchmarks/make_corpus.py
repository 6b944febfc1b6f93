"""Write a reproducible corpus of random legal DPN games (for benchmarks and fuzzing).

    python benchmarks/make_corpus.py --deals 20000 --seed 1 -o benchmarks/out/corpus.dpn \
        [--profile pagat] [--option kots=3 --option trump=first-void-five] [--loose] [--hands]

The same arguments always give the same file (see dehlanote.oracle.playout). A progress line is
written on standard error.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dehlanote.oracle.playout import Style, iter_matches, normalize_options  # noqa: E402


def parse_option(text: str) -> tuple[str, object]:
    """``k=v`` -> (k, v); a bare flag such as ``coat`` -> (flag, True)."""
    key, eq, value = text.partition("=")
    return key, (value if eq else True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000, help="about this many deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="benchmarks/out/corpus.dpn")
    parser.add_argument("--profile", default="standard", choices=("standard", "pagat", "hukum"))
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a rule option, e.g. kots=3, trump=closed, coat (repeatable)")
    parser.add_argument("--hands", action="store_true", help="write hands lines")
    parser.add_argument("--loose", action="store_true", help="hand-written look")
    parser.add_argument("--no-leaders", action="store_true", help="omit the leader seats")
    parser.add_argument("--withdrawn", type=float, default=0.0,
                        help="chance per illegal opportunity of a withdrawn card")
    parser.add_argument("--bias", type=float, default=0.0,
                        help="chance per play of favouring AC (more kots)")
    args = parser.parse_args(argv)

    try:
        options = normalize_options(args.profile, dict(parse_option(o) for o in args.option))
    except ValueError as exc:
        parser.error(str(exc))
    style = Style(hands=args.hands, loose=args.loose, leaders=not args.no_leaders,
                  withdrawn=args.withdrawn)
    directory = os.path.dirname(args.output)
    if directory:
        os.makedirs(directory, exist_ok=True)

    start = time.perf_counter()
    games = deals = 0
    with open(args.output, "w", encoding="utf-8", newline="\n") as out:
        for text, facts in iter_matches(args.seed, args.deals, args.profile, options, style,
                                        bias=args.bias):
            out.write(text)
            games += 1
            deals += len(facts["deals"])
            if games % 200 == 0:
                print(f"\r{deals}/{args.deals} deals, {games} games", end="", file=sys.stderr)
    elapsed = time.perf_counter() - start
    size = os.path.getsize(args.output)
    print(f"\r{deals} deals, {games} games, {size / 1e6:.1f} MB in {elapsed:.1f}s -> {args.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
