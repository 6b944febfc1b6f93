"""How the console script runs a command: its output guarded, and plain ``validate`` and ``json`` direct.

:func:`guarded` is what ``dehlanote.cli.main`` does around the Typer app (whatever happens
to standard output, one clear line and a clear status). :func:`direct_validate` runs
``dehlanote validate FILE...`` with only plain options (``--brief``, ``--format``,
``--jobs``, ``--max-errors``, ``--force-jobs``, ``--progress``/``--no-progress``, each at
most once, every value one Typer takes without a word) without building the Typer app:
typer and click were about 35 ms of the 0.13 s a one-file run took. Anything else (another
option, ``--help``, a value Typer would refuse or convert, no file) goes to the Typer app,
so every message about the command line is typer's own; the exit statuses and what
Typer's standalone mode does with an exception are repeated here
(tests/cli/test_direct_validate.py runs both paths side by side). :func:`direct_json` does the
same for ``dehlanote json FILE...`` with ``--compact``, ``--force`` and ``--output``/``-o``
(tests/cli/test_direct_json.py).
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from typing import Any, Callable, Optional

__all__ = ["FALLBACKS", "direct_json", "direct_validate", "guarded", "json_options", "validate_options"]


def guarded(run: Callable[[], Any]) -> None:
    """Run a command (``run`` ends in SystemExit): whatever happens to its output, one clear line.

    Exit statuses: those of the commands; 2 when the output cannot be written (a full
    disk, a closed standard output); 130 on Ctrl-C; 1, silently, on a broken pipe (as
    ``head`` expects).
    """
    from .commands.common import OutputFailed
    _plain_fallbacks()
    if sys.stdout is None or not _is_open(1):
        _say("standard output is closed: send it to a file, a pipe or /dev/null")
        sys.exit(2)
    try:
        run()
    except SystemExit as exc:
        # the command is over: a Ctrl-C from here to the end of the process (its output flushed,
        # the interpreter shutting down) ends it quietly with 130, as while it loads, instead of
        # a KeyboardInterrupt that nothing is left to catch (Python then dies of the signal)
        signal.signal(signal.SIGINT, _quiet_interrupt)
        _finish(exc.code)
        raise
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except OutputFailed as exc:
        _silence_stdout()
        _say(f"cannot write the output: {exc}")
        sys.exit(2)
    except OSError as exc:
        _silence_stdout()
        _say(f"cannot write the output: {(exc.strerror or str(exc)).lower()}")
        sys.exit(2)


# ---- validate without Typer --------------------------------------------------------------

#: flags of validate: the parameter each sets, and to what
_FLAGS = {"--brief": ("brief", True), "-b": ("brief", True), "--force-jobs": ("force_jobs", True),
          "--progress": ("progress", True), "--no-progress": ("progress", False)}
#: options of validate that take a value, and their parameter
_VALUED = {"--format": "format", "-f": "format", "--jobs": "jobs", "-j": "jobs", "--max-errors": "max_errors"}


def _value(key: str, text: str) -> Any:
    """An option's value as Typer converts it, or None when it is not one Typer takes as it
    is (then the Typer app reads the command line, and says what is wrong with it)."""
    if key == "format":
        return text if text in ("text", "json") else None
    # whole numbers as lightparams takes them (no sign, no leading 0); both options have min=0
    if text.isascii() and text.isdigit() and (text == "0" or text[0] != "0"):
        return int(text)
    return None


def validate_options(args: list[str]) -> Optional[dict[str, Any]]:
    """The parameters of ``dehlanote validate ARGS`` when every argument is plain (see the
    module's text), else None. Files are every argument that is ``-`` or does not start with
    ``-``, wherever it stands (as click reads them)."""
    return _plain_options(args, _FLAGS, _VALUED, _value)


def _plain_options(args: list[str], flags: dict[str, tuple[str, Any]], valued: dict[str, str],
                   convert: Callable[[str, str], Any]) -> Optional[dict[str, Any]]:
    """A command line of ``flags`` and ``valued`` options (each value through ``convert``,
    None when it is not plain) and files, read as click reads it, or None when anything in it
    is not plain (the Typer app then reads it, and says what is wrong)."""
    files: list[str] = []
    options: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
            continue
        name, eq, text = arg.partition("=")
        if name in flags and not eq:
            key, value = flags[name]
        elif name in valued and ((eq and name.startswith("--")) or (not eq and i < len(args))):
            if not eq:
                text = args[i]
                i += 1
            key = valued[name]
            value = convert(key, text)
            if value is None:
                return None
        else:
            return None
        if key in options:      # (given twice: left to click)
            return None
        options[key] = value
    if not files:
        return None
    options["files"] = files
    return options


def direct_validate(args: list[str]) -> Optional[Callable[[], None]]:
    """``dehlanote validate ARGS`` ready to run without Typer (its modules imported), or
    None when the Typer app must read this command line. The function returned ends in
    SystemExit, as the Typer app's standalone mode does."""
    options = validate_options(args)
    if options is None:
        return None
    from .commands.common import OutputFormat
    from .commands.validating import run
    if "format" in options:
        options["format"] = OutputFormat(options["format"])
    return _standalone(run, options)


#: json's flags, and its options that take a value (a path; --rules is left to the Typer app)
_JSON_FLAGS = {"--compact": ("compact", True), "--force": ("force", True)}
_JSON_VALUED = {"--output": "output", "-o": "output"}


def _path_value(key: str, text: str) -> Any:
    """``--output``'s path, or None for one that starts with ``-`` (left to the Typer app)."""
    if not text or text.startswith("-") or text.endswith("/"):
        return None             # (a folder's name, -o out/: the Typer app's parser says what it is)
    from pathlib import Path
    return Path(text)


def json_options(args: list[str]) -> Optional[dict[str, Any]]:
    """The parameters of ``dehlanote json ARGS`` when every argument is plain (``--compact``,
    ``--force``, ``--output``/``-o`` with a value that does not start with ``-``, each at most
    once, and at least one file), else None; files as :func:`validate_options` reads them."""
    return _plain_options(args, _JSON_FLAGS, _JSON_VALUED, _path_value)


def direct_json(args: list[str]) -> Optional[Callable[[], None]]:
    """``dehlanote json ARGS`` ready to run without Typer, or None (as :func:`direct_validate`)."""
    options = json_options(args)
    if options is None:
        return None
    from .commands.jsoning import run
    return _standalone(run, options)


def _standalone(run: Callable[..., int], options: dict[str, Any]) -> Callable[[], None]:
    """``run(**options)`` as typer's standalone mode runs a command (typer.core._main): ends in
    SystemExit with its status."""
    def call() -> None:
        try:
            try:
                code = run(**options)
            except EOFError:
                _abort()
            except KeyboardInterrupt:
                sys.exit(130)
            except OSError as exc:
                if exc.errno == errno.EPIPE:
                    from typer._click.utils import PacifyFlushWrapper
                    sys.stdout = PacifyFlushWrapper(sys.stdout)
                    sys.stderr = PacifyFlushWrapper(sys.stderr)
                    sys.exit(1)
                raise
        except Exception as exc:
            typer = sys.modules.get("typer")       # (loaded by something after all: its Exit)
            if typer is not None and isinstance(exc, typer.Exit):
                sys.exit(exc.exit_code)
            raise
        sys.exit(code)
    return call


def _abort() -> None:
    """Typer's answer to EOFError in a command: an empty line, then its "Aborted" (exit 1)."""
    from typer import _click, core
    _click.echo(file=sys.stderr)
    if core.HAS_RICH:
        from typer import rich_utils
        rich_utils.rich_abort_error()
    else:
        _click.echo(core._("Aborted!"), file=sys.stderr)
    sys.exit(1)


# ---- output guards -----------------------------------------------------------------------

def _quiet_interrupt(signum: int, frame: object) -> None:
    os._exit(130)


def _finish(code: object) -> None:
    """Flush standard output before exiting: a failure (a full disk) is said in one line,
    exit 2, rather than Python's "Exception ignored" at shutdown."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except OSError as exc:
        _silence_stdout()
        _say(f"cannot write the output: {(exc.strerror or str(exc)).lower()}")
        sys.exit(2)


#: what a character the terminal's encoding lacks is written as, one character for one so that
#: tables keep their columns (anything else: ?)
FALLBACKS = {
    "\u00b7": ".", "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2192": ">", "\u2190": "<", "\u2191": "^",
    "\u2193": "v", "\u2022": "*", "\u2026": ".", "\u00d7": "x", "\u2018": "'", "\u2019": "'", "\u201c": '"',
    "\u201d": '"', "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2664": "S", "\u2661": "H",
    "\u2662": "D", "\u2667": "C", "\u2713": "v", "\u2717": "x", "\u25b6": ">", "\u25c0": "<", "\u2588": "#",
    "\u2591": ".", "\u2592": ":", "\u2593": "#", "\u2500": "-", "\u2501": "-", "\u2502": "|", "\u2503": "|",
    "\u2550": "=", "\u2551": "|", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\ufffd": "?", "\u2264": "<",
    "\u2265": ">",
}


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start:error.end]
    out = []
    for ch in bad:
        if ch in FALLBACKS:
            out.append(FALLBACKS[ch])
        elif "\u2500" <= ch <= "\u257f":
            out.append("+")             # box corners and joints
        else:
            out.append("?")
    return "".join(out), error.end


def _plain_fallbacks() -> None:
    """On a terminal whose encoding lacks ``·``, ``–``, ``→``, ``•``, the suits ... (Latin-1,
    ASCII: ``PYTHONIOENCODING=latin-1``, ``LANG=C`` on an old system), write plain stand-ins
    (``.``, ``-``, ``->``, ``*``, ``S``) instead of ending in UnicodeEncodeError."""
    import codecs
    codecs.register_error("dehlanote-plain", _fallback)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if stream is None or encoding in ("utf-8", "utf8", "utf-16", "utf-32") or not hasattr(stream, "reconfigure"):
            continue
        try:
            stream.reconfigure(errors="dehlanote-plain")
        except (ValueError, OSError):   # pragma: no cover - a stream that cannot be reconfigured
            pass


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _say(message: str) -> None:
    if sys.stderr is not None:
        try:
            print(f"dehlanote: {message}", file=sys.stderr)
        except OSError:
            pass


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the final flush cannot fail again."""
    from .files import silence
    try:
        silence(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


