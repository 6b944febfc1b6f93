"""A long fuzzing campaign against dehlanote: mutated records, raw bytes, arbitrary text.

    python tests/fuzz/campaign.py --minutes 30 [--seed N] [--out fuzz-findings] [--cli-every 25]

Every input goes through the library (parse_string, iter_games over bytes read a few
bytes at a time, replay_game, game_json/document, write_game/explicit, and the canonical
text of a valid game read back) and, every ``--cli-every`` inputs, through the command
line (validate, json, fmt, annotate, replay --plain in process). Where the fast parse path
reads a game, it must read exactly what Lark reads. An input that breaks the contract (an
exception, an uncoded error, a position outside the input, a lost game, an exit status
other than 0/1/2, a traceback, or more than ``--timeout`` seconds) is shrunk and written
to the findings folder with what went wrong; the same failure is reported once.

The run prints its progress every 30 seconds and ends with a summary (also written as
``summary.json`` in the findings folder). Exit status: 0 nothing found, 1 findings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dpnfuzz as F  # noqa: E402


class Hang(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise Hang()


def _signature(message: str) -> str:
    """What identifies a failure: its first line with numbers and quoted words blanked."""
    first = message.strip().split("\n")[0]
    tb = [line for line in message.split("\n") if line.strip().startswith("File ")]
    where = tb[-1].strip() if tb else ""
    return re.sub(r'"[^"]*"|\'[^\']*\'|\d+', "_", first)[:200] + " @ " + re.sub(r"line \d+", "", where)


class Campaign:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.seeds = F.seeds(args.generated)
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix="dehlanote-fuzz-"))
        self.tried = 0
        self.cli_runs = 0
        self.by_kind: dict[str, int] = {}
        self.found: dict[str, dict] = {}
        self.slowest = (0.0, "")
        self.slow: list[tuple[float, int, str]] = []     # over --timeout once, then passed

    # -- inputs ------------------------------------------------------------------------------
    def make_input(self) -> tuple[str, Callable[[], None], str | bytes, str]:
        """(kind, check, data, description) of the next input."""
        rng = self.rng
        r = rng.random()
        if r < 0.08:
            text = F.random_text(rng)
            return "random-text", (lambda: self._text(text)), text, "random text"
        name, text = rng.choice(self.seeds)
        if r < 0.13:
            # DPN 1.1: a mutation placed between two valid games never changes the one after it
            other_name, other = rng.choice(self.seeds)
            payload = rng.choice((rng.choice(F.BETWEEN), rng.choice(F.UNICODE), rng.choice(F.LINES),
                                  F.apply(rng.choice(self.seeds)[1], F.random_mutations(rng))))
            if F.between_payloads(payload):
                return "between", (lambda: F.check_between(text, payload, other, block=rng.choice((None, 7)))), \
                    text + "\n" + payload + "\n\n" + other, f"{name} + {payload[:200]!r} + {other_name}"
        if r < 0.16:
            other_name, other = rng.choice(self.seeds)
            joined = text.rstrip("\n") + "\n\n" + other
            cut = rng.randrange(len(joined.encode("utf-8")) + 1)
            return "cut", (lambda: F.check_cut(joined, cut)), joined.encode("utf-8")[:cut], \
                f"{name} + {other_name} cut at byte {cut}"
        if r < 0.19:
            muts = F.random_mutations(rng)
            mutated = F.apply(text, muts)
            return "round-trip", (lambda: F.check_round_trip(mutated)), mutated, f"fmt round trip {name} {muts!r}"
        if r < 0.27:
            other_name, other = rng.choice(self.seeds)
            muts = F.random_mutations(rng)
            mutated = F.apply(other, muts)
            joined = text + rng.choice(("", "\n", "\n\n")) + mutated + "\n" + rng.choice(self.seeds)[1]
            return "multi-game", (lambda: self._text(joined, games_at_least=1)), joined, \
                f"{name} + mutated {other_name} {muts!r} + another"
        muts = F.random_mutations(rng)
        if any(m[0] in F.BYTE_KINDS for m in muts):
            data = F.apply_bytes(text, muts)
            return "bytes", (lambda: self._bytes(data)), data, f"{name} {muts!r}"
        mutated = F.apply(text, muts)
        return "mutated", (lambda: self._text(mutated)), mutated, f"{name} {muts!r}"

    def _text(self, text: str, games_at_least: int = 0) -> None:
        block = self.rng.choice((None, 1, 3, 17, 64, 4096))
        if block is not None and len(text) > (1 << 18):
            block = 4096         # a few bytes at a time, a megabyte is slow whatever the code
        n = F.check_library(text, block=block)
        if n < games_at_least:
            raise F.Violation(f"{n} games read from a file that holds at least {games_at_least}")
        F.check_fast_path(text)
        if self.tried % self.args.cli_every == 0:
            self._cli(text.encode("utf-8", "surrogatepass"), n)

    def _bytes(self, data: bytes) -> None:
        n = F.check_bytes(data, block=self.rng.choice((None, 2, 5, 100)) if len(data) < (1 << 18) else None)
        if self.tried % self.args.cli_every == 0:
            self._cli(data, n)

    def _cli(self, data: bytes, games: int) -> None:
        path = self.tmp / "input.dpn"
        path.write_bytes(data)
        for args in F.CLI_COMMANDS:
            F.check_cli(path, args, expected_games=games if args[0] in ("json", "validate") else None)
            self.cli_runs += 1
        if path.read_bytes() != data:
            raise F.Violation("a command changed its input file")

    # -- running ------------------------------------------------------------------------------
    def run(self) -> int:
        deadline = time.monotonic() + 60 * self.args.minutes
        next_report = time.monotonic() + 30
        start = time.monotonic()
        signal.signal(signal.SIGALRM, _alarm)
        while time.monotonic() < deadline and (self.args.inputs is None or self.tried < self.args.inputs):
            kind, check, data, what = self.make_input()
            self.tried += 1
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            t0 = time.monotonic()
            signal.alarm(self.args.timeout)
            try:
                check()
            except Hang:
                # a loaded machine can be slow: a hang counts only if the input also fails a
                # second run with four times the time
                signal.alarm(4 * self.args.timeout)
                t1 = time.monotonic()
                try:
                    check()
                    self.slow.append((round(time.monotonic() - t1, 1), len(data), what[:200]))
                except Hang:
                    self.record(f"hang: more than {4 * self.args.timeout} s", data, what, check=None)
                except F.Violation as v:
                    self.record(str(v), data, what, check=check)
            except F.Violation as v:
                self.record(str(v), data, what, check=check)
            finally:
                signal.alarm(0)
            spent = time.monotonic() - t0
            if spent > self.slowest[0]:
                self.slowest = (spent, what[:200])
            if time.monotonic() >= next_report:
                next_report += 30
                rate = self.tried / (time.monotonic() - start)
                print(f"[{(time.monotonic() - start) / 60:5.1f} min] {self.tried} inputs ({rate:.0f}/s), "
                      f"{self.cli_runs} command runs, {len(self.found)} distinct findings", flush=True)
        return self.finish(time.monotonic() - start)

    def record(self, message: str, data: str | bytes, what: str, check) -> None:
        sig = _signature(message)
        if sig in self.found:
            self.found[sig]["count"] += 1
            return
        n = len(self.found) + 1
        small = self.shrink(data, message) if isinstance(data, str) else data
        suffix = ".dpn"
        path = self.out / f"finding-{n:03d}{suffix}"
        if isinstance(small, bytes):
            path.write_bytes(small)
        else:
            path.write_text(small, encoding="utf-8", errors="surrogatepass")
        (self.out / f"finding-{n:03d}.txt").write_text(f"{what}\n\n{message}\n", encoding="utf-8")
        self.found[sig] = {"count": 1, "file": str(path), "input": what[:500], "message": message[:2000]}
        print(f"FINDING {n}: {message.splitlines()[0][:200]}\n  input: {what[:200]}\n  saved: {path}", flush=True)

    def shrink(self, text: str, message: str, budget: float = 20.0) -> str:
        """A smaller text that fails the same way (lines, then characters; a few seconds)."""
        sig = _signature(message)
        end = time.monotonic() + budget

        def fails(candidate: str) -> bool:
            signal.alarm(self.args.timeout)
            try:
                F.check_library(candidate, block=3)
                F.check_fast_path(candidate)
                return False
            except F.Violation as v:
                return _signature(str(v)) == sig
            except Hang:
                return sig.startswith("hang")
            finally:
                signal.alarm(0)

        if sig.startswith("hang") or not fails(text):
            return text
        for unit in ("\n", None):
            pieces = text.split("\n") if unit else list(text)
            chunk = max(1, len(pieces) // 2)
            while chunk >= 1 and time.monotonic() < end:
                i = 0
                changed = False
                while i < len(pieces) and time.monotonic() < end:
                    candidate = pieces[:i] + pieces[i + chunk:]
                    joined = ("\n" if unit else "").join(candidate)
                    if candidate and fails(joined):
                        pieces = candidate
                        changed = True
                    else:
                        i += chunk
                if not changed:
                    chunk //= 2
            text = ("\n" if unit else "").join(pieces)
        return text

    def finish(self, elapsed: float) -> int:
        summary = {
            "minutes": round(elapsed / 60, 1), "seed": self.args.seed, "inputs": self.tried,
            "inputs_per_second": round(self.tried / max(elapsed, 1e-9)), "by_kind": self.by_kind,
            "command_runs": self.cli_runs, "slowest_input_seconds": round(self.slowest[0], 3),
            "slowest_input": self.slowest[1], "slow_then_passed": self.slow[:20],
            "findings": list(self.found.values()),
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
        print(json.dumps({k: v for k, v in summary.items() if k != "findings"}, indent=2, ensure_ascii=False))
        print(f"{len(self.found)} distinct findings" + (f" (in {self.out})" if self.found else ""))
        for f in self.found.values():
            print(f"  {f['count']}x {f['message'].splitlines()[0][:160]}  [{f['file']}]")
        return 1 if self.found else 0


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long to run (default 30)")
    parser.add_argument("--inputs", type=int, default=None, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("DEHLANOTE_FUZZ_SEED", "0")) or None)
    parser.add_argument("--out", default="fuzz-findings", help="folder for findings and summary.json")
    parser.add_argument("--cli-every", type=int, default=25, help="run the commands on every Nth input")
    parser.add_argument("--timeout", type=int, default=30,
                        help="seconds for one input (its library checks and commands); an input over it is run "
                             "again with four times as long, and only then counts as a hang")
    parser.add_argument("--generated", type=int, default=3, help="generated seed matches per profile and style")
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    print(f"dehlanote fuzz campaign: seed {args.seed}, {args.minutes} minutes, findings in {args.out}", flush=True)
    return Campaign(args).run()


if __name__ == "__main__":
    sys.exit(main())
