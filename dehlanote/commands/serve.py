"""``dehlanote serve [DIR]``: the tables of a club night on the players' phones.

A thin shell over :mod:`dehlanote.serve`: check the folder and the libraries, take the
folder's lock, bind the address, print the URL (and in ``--lan`` its QR code), then run
uvicorn on the socket until Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..stops import signals_clean_up
from ..errors import missing_folder, why
from ..files import kind_of
from .common import Exit, fail, lang_code, load_registry, rules_path, served_folder

INSTALL = "pip install 'dehlanote[serve]'"


def serve_command(
    folder_name: Optional[str] = typer.Argument(None, metavar="[DIR]", show_default=False,
                                                help="The folder of the night's records (table-N.dpn), default the "
                                                     "current one."),
    lan: bool = typer.Option(False, "--lan", help="Answer the other phones on the local network: bind this "
                             "machine's LAN address, require the printed secret in every request, print a QR code."),
    host: Optional[str] = typer.Option(None, "--host", metavar="ADDRESS",
                                       help="The address to bind (default 127.0.0.1, or the LAN address with --lan)."),
    port: int = typer.Option(8000, "--port", metavar="N", help="The port (0: any free one)."),
    lang: Optional[str] = typer.Option(None, "--lang", metavar="LANG", parser=lang_code,
                                       help="The pages' language (en, hi); default: each browser's own."),
    rules_file: Optional[Path] = typer.Option(None, "--rules-file", metavar="FILE.yaml", parser=rules_path,
                                              help="Extra rule profiles, as on every command."),
    sync: bool = typer.Option(True, "--sync/--no-sync", help="Flush every card to disk (fsync)."),
    new_key: bool = typer.Option(False, "--new-key", help="With --lan: a new secret (the phones must scan the new "
                                 "code); by default the folder keeps its secret across restarts."),
) -> None:
    """Serve the tables of a club night to phones: start a table, enter each card by a tap, watch live.

    Each table's record is kept as DPN in DIR (table-1.dpn, table-2.dpn ...), checked and saved
    after every card as `dehlanote record` does, so a crash loses nothing: run the same command to
    resume. Prints the address (http://HOST:PORT/...) on standard output. One server a folder; a
    record being served cannot be opened by `dehlanote record`.

    Example: dehlanote serve night/ --lan
    """
    # (typed as text: an empty name, "$NIGHT" with the variable unset, served the current folder)
    folder = served_folder(folder_name) if folder_name is not None else Path(".")
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise fail(f"missing-dependency: dehlanote serve needs Starlette and uvicorn: {INSTALL}")
    from ..i18n import LanguageUnavailable, catalog, languages
    if lang is not None:
        if lang not in languages():
            raise fail(f"--lang {lang}: the pages speak {', '.join(languages())}")
        try:
            catalog(lang)
        except LanguageUnavailable as exc:
            raise fail(f"missing-dependency: {exc}")
    if not folder.is_dir():
        try:
            os.stat(folder)
        except FileNotFoundError:
            pass
        except NotADirectoryError:
            pass                    # (a file above it: said below)
        except OSError as exc:      # (a loop of links is no missing folder)
            raise fail(f"cannot serve {folder}: {why(exc)}") from None
        name = os.fspath(folder)
        if os.path.exists(name):        # (a file, a device: it was "not a folder", as of one missing)
            what = kind_of(os.stat(name)).replace("regular ", "")
            raise fail(f"{folder} is {what}, not a folder: give the folder of the night's records")
        raise fail(f"cannot serve {folder}: the folder {missing_folder(name)}: give the folder of the night's "
                   "records (it must exist)")
    if not 0 <= port <= 65535:
        raise fail(f"--port {port}: a port is 0 to 65535")
    if lan:
        try:
            import segno
        except ImportError:
            raise fail(f"missing-dependency: --lan draws a QR code with segno: {INSTALL}")
    address = host or (_lan_address() if lan else "127.0.0.1")
    if address is None:
        raise fail("--lan: this machine has no local network address; give one with --host")
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise fail(f"--host {address}: give an IP address (e.g. 127.0.0.1 or 192.168.1.20)")
    if ip.is_unspecified:
        # every address of the machine: no phone can open the address printed, and the server
        # answers only to its own, so it refused every request (wrong-host)
        raise fail(f"--host {address}: give one address of this machine (e.g. 192.168.1.20; --lan finds "
                   "the one on the local network)")
    from ..serve import FolderBusy, Tables, create_app, folder_secret, new_secret
    reg = load_registry(rules_file)
    try:
        tables = Tables(folder, reg=reg, sync=sync)
    except FolderBusy as exc:
        raise fail(f"{folder} is already served or recorded ({exc}): one server a folder, and a record "
                   "being served is not opened by dehlanote record")
    except OSError as exc:
        raise fail(f"cannot use the folder {folder}: {(exc.strerror or str(exc)).lower()}")
    try:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError as exc:
            sock.close()
            raise fail(f"cannot listen on {address}:{port}: {(exc.strerror or str(exc)).lower()}")
        sock.listen(64)
        bound = sock.getsockname()[1]
        try:
            secret = folder_secret(tables.folder, renew=new_key) if lan else new_secret()
        except OSError as exc:
            raise fail(f"cannot keep the secret in {folder}: {(exc.strerror or str(exc)).lower()}")
        shown = f"[{address}]" if family == socket.AF_INET6 else address
        hosts = (f"{shown}:{bound}",) + ((f"localhost:{bound}",) if address == "127.0.0.1" else ())
        app = create_app(tables, secret=secret, lan=lan, lang=lang, hosts=hosts)
        url = f"http://{shown}:{bound}/" + (f"?key={secret}" if lan else "")
        print(url, flush=True)
        if lan:
            qr = segno.make(url, error="m")
            qr.terminal(out=sys.stderr, compact=True, border=2)
            print(f"dehlanote: scan the code with each phone, or type the whole address: {url}",
                  file=sys.stderr, flush=True)
        for entry, reason in tables.left_alone:
            print(f"dehlanote: note: {entry} is left alone, not served: {reason}", file=sys.stderr,
                  flush=True)
        for note in tables.notes:
            print(f"dehlanote: note: {note}", file=sys.stderr, flush=True)
        print(f"dehlanote: serving {tables.folder} ({len(tables.tables)} table(s) found); Ctrl-C stops",
              file=sys.stderr, flush=True)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", http=_deadline_h11(),
                                timeout_graceful_shutdown=2, limit_concurrency=200, h11_max_incomplete_event_size=16384)
        hub = app.app.state.hub        # (the guard's app is Starlette's)

        class Server(uvicorn.Server):
            def handle_exit(self, sig: int, frame: Any) -> None:
                hub.stop()
                super().handle_exit(sig, frame)

        server = Server(config)
        # uvicorn stops on SIGTERM as on Ctrl-C, then sends the signal again to itself: it then
        # raises SystemExit(143) here (not the default action, which would end the process at
        # once), so the records' holds are let go below
        with signals_clean_up():
            server.run(sockets=[sock])
    finally:
        tables.close()
    raise typer.Exit(Exit.OK)


#: seconds a connection has to send a whole request's head (after it opens, or after an answer)
REQUEST_SECONDS = 10.0


def _deadline_h11() -> type:
    """uvicorn's h11 protocol with a deadline on each request's head: a connection that sends
    nothing whole within :data:`REQUEST_SECONDS` of opening, or of its last answer, is closed.
    Without it, a few hundred idle connections (no byte sent, no key needed) held every place
    of the server (``limit_concurrency``) and every phone got 503 until they went away."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class DeadlineH11(H11Protocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def _arm(self) -> None:
            waiting_after = self.cycle     # the request answered last (None: none yet)

            def due() -> None:
                idle = self.cycle is waiting_after and (waiting_after is None or waiting_after.response_complete)
                if idle and not self.transport.is_closing():
                    self.transport.close()
            self.loop.call_later(REQUEST_SECONDS, due)

    return DeadlineH11


def _lan_address() -> Optional[str]:
    """This machine's first private IPv4 address, read from its own names (nothing is sent)."""
    candidates: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    except OSError:
        pass
    for addr in candidates:
        ip = ipaddress.ip_address(addr)
        if ip.is_private and not ip.is_loopback:
            return addr
    return None
