"""Rule profiles as data: YAML files read with ``yaml.safe_load`` and validated on load.

A profile is a frozen set of parameters the replayer reads; nothing in the engine asks
for a profile by name. Options (``kots=3``, ``trump=closed``, ``six-player`` ...) are data
too: each names the parameters it sets. ``Rules`` tags read ``"NAME opt opt=value ..."``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Mapping, Optional, Union, get_args

from ..deck import seats_for, sides_for
from ..errors import DpnError

# the rule modes: each a Literal (checked by mypy where the engine compares them) and the
# tuple of its values (checked when a profile is loaded)
TrumpMethod = Literal["announce", "partner", "first-void", "first-void-five", "closed"]
CaptureMode = Literal["centre", "immediate"]
ScoreMode = Literal["tens", "points", "tricks"]
LevelMode = Literal["non-dealers", "none"]
AllTensEffect = Literal["kot", "match"]
KotDealer = Literal["rule", "partner"]
LevelDealer = Literal["previous", "same", "right"]
ClosedSetter = Literal["dealer-right", "first-void"]

TRUMP_METHODS: tuple[TrumpMethod, ...] = get_args(TrumpMethod)
CAPTURE_MODES: tuple[CaptureMode, ...] = get_args(CaptureMode)
SCORE_MODES: tuple[ScoreMode, ...] = get_args(ScoreMode)
LEVEL_MODES: tuple[LevelMode, ...] = get_args(LevelMode)
ALL_TENS_EFFECTS: tuple[AllTensEffect, ...] = get_args(AllTensEffect)
KOT_DEALER: tuple[KotDealer, ...] = get_args(KotDealer)
LEVEL_DEALER: tuple[LevelDealer, ...] = get_args(LevelDealer)
CLOSED_SETTERS: tuple[ClosedSetter, ...] = get_args(ClosedSetter)

#: a profile file is a few KB; over this it is refused before YAML reads it (a YAML
#: sexagesimal number of 900 KB took 11.5 s to reject; at 64 KB it takes 0.06 s)
MAX_PROFILE_BYTES = 64 << 10


def _param(default: Any, allowed: Union[tuple[Any, ...], range], words: str, meaning: str) -> Any:
    """A parameter of :class:`Rules`, declared once: its default, the values it takes, how a
    message names it and what it sets. Validation, ``dehlanote rules NAME``, the JSON's
    ``rules.params`` and the table of docs/rules.md all read :data:`PARAMS`, built from these."""
    return field(default=default, metadata={"param": (allowed, words, meaning)})


@dataclass(frozen=True)
class Rules:
    """The parameters of one rule system. Every profile and option of docs/rules.md is a value here."""

    name: str = "standard"
    description: str = ""
    source: str = ""
    decisions: tuple[str, ...] = ()
    seats: int = _param(4, (4, 6), "the number of players",
                        "players at the table (sides AC and BD, or ACE and BDF)")
    decks: int = _param(1, (1, 2, 3), "the number of decks", "52-card decks shuffled together")
    trump: TrumpMethod = _param("announce", TRUMP_METHODS, "how trump is set",
                                "how trump is set: announce, partner, first-void, first-void-five, closed")
    capture: CaptureMode = _param("centre", CAPTURE_MODES, "how tricks are captured",
                                  "centre: two tricks in a row sweep the centre; immediate: each trick to its winner")
    score: ScoreMode = _param("tens", SCORE_MODES, "what decides a deal (score)",
                              "what decides a deal: tens, points (tens 2, other cards 1) or tricks")
    level: LevelMode = _param("non-dealers", LEVEL_MODES, "what a level deal gives",
                              "a level split goes to the non-dealers, or is no result (none)")
    all_tens: AllTensEffect = _param("kot", ALL_TENS_EFFECTS, "what all the tens win",
                                     "all the tens in one deal: a kot, or the match at once")
    streak: int = _param(7, range(0, 101), "the kot streak (streak)",
                         "consecutive deal wins that make a kot (0: none)")
    kots: int = _param(1, range(0, 1001), "the kots that win the match (kots)",
                       "kots that win the match (0: an open-ended session)")
    match_points: int = _param(0, range(0, 1001), "the match points (match_points)",
                               "deals won (not in a row) that win the match (0: off)")
    streak_reset_after_kot: bool = _param(True, (True, False), "whether the runs restart after a kot",
                                          "both sides' runs restart after a kot")
    dealer_after_all_tens: KotDealer = _param("rule", KOT_DEALER, "who deals after an all-tens kot",
                                              "after an all-tens kot: rule 7, or the dealer's partner deals")
    level_dealer: LevelDealer = _param("previous", LEVEL_DEALER, "who deals after a no-result deal",
                                       "who deals after a no-result deal: by the previous deal (hukum's rule), "
                                       "the same dealer, or the next seat (right)")
    closed_setter: ClosedSetter = _param("dealer-right", CLOSED_SETTERS, "who sets a closed trump",
                                         "who chooses a closed trump: the dealer's right (from the first five), "
                                         "or the first player unable to follow (first-void)")
    options: tuple[tuple[str, Any], ...] = field(default=())

    @cached_property
    def tricks_per_deal(self) -> int:
        return 52 * self.decks // self.seats

    @cached_property
    def hand_size(self) -> int:
        return self.tricks_per_deal

    @cached_property
    def total_tens(self) -> int:
        return 4 * self.decks

    @cached_property
    def seat_letters(self) -> str:
        """The seats in playing order: ``"ABCD"``, or ``"ABCDEF"`` with six players."""
        return seats_for(self.seats)

    @cached_property
    def sides(self) -> tuple[str, str]:
        """The two partnerships: ``("AC", "BD")``, or ``("ACE", "BDF")`` with six players."""
        return sides_for(self.seats)

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def params(self) -> dict[str, Any]:
        """Every parameter's value, in the declarations' order (the JSON's ``rules.params``)."""
        return {name: getattr(self, name) for name in PARAMS}

    def label(self) -> str:
        """The profile as a ``Rules`` tag value: ``"pagat kots=3 trump=first-void-five"``."""
        parts = [self.name]
        for key, value in self.options:
            parts.append(key if value is True else f"{key}={value}")
        return " ".join(parts)


@dataclass(frozen=True)
class Param:
    """One parameter of :class:`Rules`, as its field declares it (see :func:`_param`)."""

    name: str
    kind: type                              # int, str or bool: the type of its default
    default: Any
    allowed: Union[tuple[Any, ...], range]
    words: str                              # how a message names it: "the number of players"
    meaning: str                            # what it sets, for ``rules NAME`` and the docs

    def allowed_text(self) -> str:
        """The values it takes, for a message or the docs: ``0 to 100``, ``4, 6``."""
        if isinstance(self.allowed, range):
            return f"{self.allowed.start} to {self.allowed.stop - 1}"
        return ", ".join(_value_text(a) for a in self.allowed)


def _value_text(value: Any) -> str:
    """A value as a YAML profile writes it (``true``, ``first-void``, ``7``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


#: every rule parameter, by name, in the order of the :class:`Rules` fields
PARAMS: dict[str, Param] = {
    f.name: Param(f.name, type(f.default), f.default, *f.metadata["param"])
    for f in fields(Rules) if "param" in f.metadata
}
_TEXT_KEYS = ("name", "description", "source", "decisions", "base", "params")


def parameters_table() -> str:
    """The table of docs/rules.md's Parameters section (Markdown), from :data:`PARAMS`."""
    rows = ["| parameter | values | default | meaning |", "|---|---|---|---|"]
    for p in PARAMS.values():
        rows.append(f"| `{p.name}` | {p.allowed_text()} | `{_value_text(p.default)}` | {p.meaning} |")
    return "\n".join(rows) + "\n"


def _fail(origin: str, message: str) -> DpnError:
    return DpnError("unknown-rules", f"{origin}: {message}", 1, 1)


def _show(value: Any, size: int = 40) -> str:
    """A short picture of a YAML value or key for a message. Never the whole of a list or a
    mapping (an anchors bomb makes one of billions of items, and repr() would walk them
    all), nor the digits of a huge number (str() refuses over 4,300 of them)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        text = repr(value) if value.bit_length() <= 128 else f"a number of {value.bit_length()} bits"
    elif isinstance(value, str):
        text = repr(value[: size + 1])
    elif isinstance(value, (list, tuple)):
        text = f"a list of {len(value)} items"
    elif isinstance(value, dict):
        text = f"a mapping of {len(value)} keys"
    else:
        text = f"a {type(value).__name__}"
    return text if len(text) <= size else text[: size - 3] + "..."


def _check_param(origin: str, key: Any, value: Any) -> Any:
    param = PARAMS.get(key) if isinstance(key, str) else None
    if param is None:
        raise _fail(origin, f"unknown parameter {_show(key)} (known: {', '.join(sorted(PARAMS))})")
    if param.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _fail(origin, f"{key} must be a whole number, not {_show(value)}")
    if param.kind is bool and not isinstance(value, bool):
        raise _fail(origin, f"{key} must be true or false, not {_show(value)}")
    if param.kind is str and not isinstance(value, str):
        raise _fail(origin, f"{key} must be a word (one of {param.allowed_text()}), not {_show(value)}")
    if value not in param.allowed:
        among = "from" if isinstance(param.allowed, range) else "one of"
        raise _fail(origin, f"{key} must be {among} {param.allowed_text()}, not {_show(value)}")
    return value


def _validate(rules: Rules, origin: str) -> Rules:
    if (52 * rules.decks) % rules.seats:
        raise _fail(origin, f"{rules.decks} deck(s) cannot be dealt evenly to {rules.seats} players")
    return rules


@dataclass(frozen=True)
class Option:
    """An option of a ``Rules`` tag: a flag (``coat``) or a key with a value (``kots=3``)."""

    name: str
    description: str
    sets: Mapping[str, Any]               # parameters a flag sets
    param: Optional[str] = None           # the parameter a valued option sets
    choices: tuple[Any, ...] = ()         # allowed values (empty: any the parameter takes)
    # decisions taken where the sources are silent: always, or by value (trump=closed ...)
    decisions: tuple[str, ...] = ()
    value_decisions: Mapping[Any, tuple[str, ...]] = field(default_factory=dict)

    def decisions_for(self, value: Any) -> tuple[str, ...]:
        """The decisions that apply when the option is used with ``value`` (True for a flag)."""
        return self.decisions + self.value_decisions.get(value, ())

    @property
    def params(self) -> tuple[str, ...]:
        """Every parameter the option sets, as its YAML declares (``sets`` and ``param``):
        two options of one ``Rules`` tag may not share one, so that no meaning hangs on
        their order."""
        return tuple(self.sets) + ((self.param,) if self.param is not None else ())


class Registry:
    """The known profiles and options: the package's, plus any loaded from YAML files."""

    def __init__(self) -> None:
        self.profiles: dict[str, Rules] = {}
        self.options: dict[str, Option] = {}
        self._resolved: dict[str, Rules] = {}   # Rules tag value -> rules (cleared by every load)

    # -- loading ---------------------------------------------------------------------------
    def load_text(self, text: str, origin: str) -> list[Rules]:
        """Load profiles (and options) from YAML text; ``origin`` names it in errors.

        Raises:
            DpnError: ``unknown-rules`` naming the file and the key at fault.
        """
        if len(text) > MAX_PROFILE_BYTES:
            raise _fail(origin, "the profile file is too large (over 64 KB)")
        import yaml     # (here: the package's own profiles are usually read from a cache)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            problem = getattr(exc, "problem", None)
            raise _fail(origin, f"not valid YAML{where}" + (f": {problem[:200]}" if isinstance(problem, str) else "")) \
                from None
        except RecursionError:
            raise _fail(origin, "the YAML is nested too deeply") from None
        except Exception as exc:  # noqa: BLE001 - a value YAML parses but Python cannot build
            raise _fail(origin, f"not valid YAML: a value cannot be read ({type(exc).__name__})") from None
        return self.load_data(data, origin)

    def load_data(self, data: Any, origin: str) -> list[Rules]:
        """Load profiles (and options) from what a YAML file holds, as :meth:`load_text` does
        once it has parsed the text. Raises DpnError (``unknown-rules``)."""
        self._resolved.clear()
        if data is None:
            return []
        if not isinstance(data, dict):
            raise _fail(origin, "expected a mapping with 'profiles' and/or 'options', or one profile")
        loaded: list[Rules] = []
        if "options" in data:
            self._load_options(data["options"], origin)
        if "profiles" in data:
            items = data["profiles"]
            if not isinstance(items, list):
                raise _fail(origin, "'profiles' must be a list of profiles")
        elif "name" in data:
            items = [data]
        else:
            items = []
        extra = set(data) - {"options", "profiles"} - (set(_TEXT_KEYS) if "name" in data else set())
        if extra and "name" not in data:
            raise _fail(origin, f"unknown key {min(_show(k) for k in extra)}")
        for i, item in enumerate(items):
            loaded.append(self._load_profile(item, f"{origin}: profile {i + 1}"))
        return loaded

    def load_path(self, path: Union[str, Path]) -> list[Rules]:
        """Load a YAML profile file. Raises DpnError (unknown-rules) or OSError."""
        p = Path(path)
        # read at most one byte over the limit, whatever the file is: st_size is 0 for a
        # device or a FIFO (/dev/zero read to the end was a MemoryError)
        with open(p, "rb") as stream:
            data = stream.read(MAX_PROFILE_BYTES + 1)
        if len(data) > MAX_PROFILE_BYTES:
            raise _fail(str(p), "the profile file is too large (over 64 KB)")
        return self.load_text(data.decode("utf-8"), str(p))

    def _load_profile(self, item: Any, origin: str) -> Rules:
        if not isinstance(item, dict):
            raise _fail(origin, "a profile must be a mapping")
        for key in item:
            if key not in _TEXT_KEYS:
                raise _fail(origin, f"unknown key {_show(key)} (known: {', '.join(_TEXT_KEYS)})")
        name = item.get("name")
        if not isinstance(name, str) or not name or " " in name or "=" in name:
            raise _fail(origin, "'name' must be one word")
        origin = f"{origin.split(': profile')[0]}: profile {name}"
        known = self._named(self.profiles, name)
        if known is not None:
            # (a club's "standard" silently changed what every game without a Rules tag plays; names
            # are the same in any case, so "Standard" would have been a second one Rules tags cannot tell)
            raise _fail(origin, f'a profile named "{known}" is known already: give yours a name of its own '
                                f"(with base: {known} to start from its rules)")
        base_name = item.get("base")
        if base_name is not None:
            if not isinstance(base_name, str) or base_name not in self.profiles:
                raise _fail(origin, f"base profile {_show(base_name)} is not known")
            base = self.profiles[base_name]
        else:
            base = Rules()
        params = item.get("params") or {}
        if not isinstance(params, dict):
            raise _fail(origin, "'params' must be a mapping")
        values = {key: _check_param(origin, key, value) for key, value in params.items()}
        decisions = item.get("decisions", base.decisions if base_name else ())
        if isinstance(decisions, str):
            decisions = (decisions,)
        if not isinstance(decisions, (list, tuple)) or not all(isinstance(d, str) for d in decisions):
            raise _fail(origin, "'decisions' must be a list of sentences")
        for key in ("description", "source"):
            if key in item and not isinstance(item[key], str):
                raise _fail(origin, f"'{key}' must be text")
        rules = replace(
            base, name=name, description=item.get("description", base.description if base_name else ""),
            source=item.get("source", base.source if base_name else ""),
            decisions=tuple(decisions), options=(), **values)
        rules = _validate(rules, origin)
        self.profiles[name] = rules
        return rules

    def _load_options(self, data: Any, origin: str) -> None:
        if not isinstance(data, dict):
            raise _fail(origin, "'options' must be a mapping of option names")
        for name, spec in data.items():
            if not isinstance(name, str):
                raise _fail(origin, f"an option's name must be a word, not {_show(name)}")
            where = f"{origin}: option {_show(name)}"
            if not isinstance(spec, dict):
                raise _fail(where, "an option must be a mapping")
            for key in spec:
                if key not in ("description", "sets", "param", "choices", "decisions"):
                    raise _fail(where, f"unknown key {_show(key)}")
            sets = spec.get("sets") or {}
            if not isinstance(sets, dict):
                raise _fail(where, "'sets' must be a mapping of parameters")
            sets = {k: _check_param(where, k, v) for k, v in sets.items()}
            param = spec.get("param")
            if param is not None and (not isinstance(param, str) or param not in PARAMS):
                raise _fail(where, f"unknown parameter {_show(param)}")
            if not isinstance(spec.get("description", ""), str):
                raise _fail(where, "'description' must be text")
            choices = spec.get("choices") or ()
            if not isinstance(choices, (list, tuple)):
                raise _fail(where, "'choices' must be a list")
            if param is not None:
                for c in choices:
                    _check_param(where, param, c)
            # decisions: a list (whenever the option is used) or, for a valued option, a
            # mapping of values to lists
            raw = spec.get("decisions") or ()
            always: tuple[str, ...] = ()
            by_value: dict[Any, tuple[str, ...]] = {}
            if isinstance(raw, str):
                raw = [raw]
            if isinstance(raw, dict) and param is not None:
                for value, items in raw.items():
                    _check_param(where, param, value)
                    items = [items] if isinstance(items, str) else items
                    if not isinstance(items, list) or not all(isinstance(d, str) for d in items):
                        raise _fail(where, f"the decisions for {_show(value)} must be a list of sentences")
                    by_value[value] = tuple(items)
            elif isinstance(raw, (list, tuple)) and all(isinstance(d, str) for d in raw):
                always = tuple(raw)
            else:
                raise _fail(where, "'decisions' must be a list of sentences (or, for an option with a "
                                   "value, a mapping of values to lists)")
            self.options[str(name)] = Option(str(name), str(spec.get("description", "")), sets, param,
                                             tuple(choices), always, by_value)

    # -- lookup ------------------------------------------------------------------------------
    def resolve(self, label: str) -> Rules:
        """The rules a ``Rules`` tag value names: ``"hukum streak=5"``.

        Raises:
            TypeError: ``label`` is not a str.
            DpnError: ``unknown-rules`` (position 0; the caller places it) naming what is unknown.
        """
        if not isinstance(label, str):
            from .. import inputs
            raise inputs.refuse("resolve", "a Rules tag's value (a str such as 'standard trump=closed')", label)
        cached = self._resolved.get(label)
        if cached is not None:
            return cached
        rules = self._resolve(label)
        if len(self._resolved) < 1024:
            self._resolved[label] = rules
        return rules

    def _named(self, table: dict[str, Any], word: str) -> Optional[str]:
        """The name in ``table`` that ``word`` spells, ignoring case (DPN 1.1)."""
        if word in table:
            return word
        low = word.lower()
        for name in table:
            if name.lower() == low:
                return name
        return None

    def _resolve(self, label: str) -> Rules:
        words = label.split()
        if not words:
            # an empty tag names no rules: standard is what a game with no Rules tag plays, not
            # what a blank one was meant to say (docs/DECISIONS.md)
            known = ", ".join(sorted(self.profiles))
            raise DpnError("unknown-rules", f"the rules are empty: name a rule profile (known: {known}), "
                           "or leave the Rules tag out to play standard")
        written, *opts = words
        name = self._named(self.profiles, written)
        if name is None:
            known = ", ".join(sorted(self.profiles))
            if self._named(self.options, written.partition("=")[0]) is not None:
                # ("six-player" alone: the profile comes first, as rules NAME shows it)
                raise DpnError("unknown-rules", f'"{written}" is an option, not a rule profile: name the profile '
                               f'first ("standard {" ".join(words)}"; known: {known})')
            raise DpnError("unknown-rules", f'"{written}" is not a known rule profile (known: {known})')
        rules = self.profiles[name]
        applied: list[tuple[str, Any]] = []
        changes: dict[str, Any] = {}
        setters: dict[str, tuple[str, int]] = {}    # parameter -> (option as written, its place)
        for place, opt in enumerate(opts, 1):
            word, eq, raw = opt.partition("=")
            key = self._named(self.options, word)
            if key is None:
                known = ", ".join(sorted(self.options))
                raise DpnError("unknown-rules", f'"{word}" is not a known option (known: {known})')
            spec = self.options[key]
            for param in spec.params:
                if param in setters:
                    first, at = setters[param]
                    if self._named(self.options, first.partition("=")[0]) == key:
                        raise DpnError("unknown-rules", f'the option {key} is given twice ("{first}", option {at}, '
                                       f'and "{opt}", option {place}): give each option once')
                    raise DpnError("unknown-rules", f'"{first}" (option {at}) and "{opt}" (option {place}) both '
                                   f"set {PARAMS[param].words}: the game would depend on their "
                                   "order, so give only one of them")
                setters[param] = (opt, place)
            if spec.param is None:
                if eq:
                    raise DpnError("unknown-rules", f'the option "{key}" takes no value')
                changes.update(spec.sets)
                applied.append((key, True))
                continue
            if not eq or not raw:
                raise DpnError("unknown-rules", f'the option "{key}" needs a value: {key}=...')
            kind = PARAMS[spec.param].kind
            value: Any = raw
            if kind is int:
                if not (raw.isascii() and raw.isdigit()):   # int("²") fails
                    raise DpnError("unknown-rules", f'{key} needs a whole number, not "{raw[:20]}"')
                digits = raw.lstrip("0") or "0"
                if len(digits) > 6:
                    # a whole number all the same (it was said not to be one): past every range, and
                    # not made into an int (a line of digits could be megabytes long)
                    shown = digits if len(digits) <= 20 else f"{digits[:20]}... ({len(digits)} digits)"
                    raise DpnError("unknown-rules", _fail(key, f"{key} must be from "
                                                          f"{PARAMS[spec.param].allowed_text()}, not {shown}").message)
                value = int(digits)
            elif spec.choices:
                value = next((c for c in spec.choices if str(c).lower() == raw.lower()), raw)
            if spec.choices and value not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise DpnError("unknown-rules", f'{key}={raw[:20]} is not allowed (allowed: {allowed})')
            try:
                _check_param(key, spec.param, value)
            except DpnError as exc:
                raise DpnError("unknown-rules", exc.message) from None
            changes[spec.param] = value
            changes.update(spec.sets)
            applied.append((key, value))
        if not changes and not applied:
            return rules
        # in the option table's order, so that the same options in any order are equal rules
        table = list(self.options)
        applied.sort(key=lambda item: table.index(item[0]))
        # the options' decisions follow the profile's (each once, labelled with its option)
        decisions = list(rules.decisions)
        for key, value in applied:
            tag = key if value is True else f"{key}={value}"
            for d in self.options[key].decisions_for(value):
                if not any(x.endswith(d) for x in decisions):
                    decisions.append(f"{tag}: {d}")
        try:
            return _validate(replace(rules, options=tuple(applied), decisions=tuple(decisions), **changes),
                             label)
        except DpnError as exc:
            raise DpnError("unknown-rules", exc.message) from None


def default_registry() -> Registry:
    """A registry with the package's profiles and options (read from the YAML files)."""
    reg = Registry()
    folder = resources.files("dehlanote.rules").joinpath("profiles")
    files = [(f"{name}.yaml", folder.joinpath(f"{name}.yaml").read_text(encoding="utf-8"))
             for name in ("options", "standard", "pagat", "hukum")]
    cached = _cached_data(files)
    for i, (origin, text) in enumerate(files):
        if cached is not None:
            reg.load_data(cached[i], origin)
        else:
            reg.load_text(text, origin)
    return reg


def _cached_data(files: list[tuple[str, str]]) -> Optional[list[Any]]:
    """What the package's profile files hold, from a JSON copy in the per-user cache folder
    (:mod:`dehlanote.cache`) named by a digest of their text (written on first use): the
    command line then starts without loading PyYAML (~15 ms). None when it cannot be read or
    made (then the YAML is read), or when the data would not come back from JSON as it is."""
    from .. import cache
    digest = hashlib.sha256("\0".join(text for _, text in files).encode("utf-8")).hexdigest()[:16]
    name = f"profiles-{digest}.json"
    kept = cache.read(name)
    if kept is not None:
        try:
            data = json.loads(kept)
            if isinstance(data, list) and len(data) == len(files):
                return data
        except ValueError:
            pass
    try:
        import yaml
        data = [yaml.safe_load(text) for _, text in files]
        if json.loads(json.dumps(data)) != data:
            return None
        cache.write(name, json.dumps(data).encode("utf-8"))
        return data
    except Exception:  # noqa: BLE001 - no cache: the files are read as YAML, as before
        return None


@lru_cache(maxsize=1)
def registry() -> Registry:
    """The shared default registry (loaded once)."""
    return default_registry()


def rules_from_tag(value: Optional[str], reg: Optional[Registry] = None) -> Rules:
    """The rules a game's ``Rules`` tag names (``standard`` when absent).

    Raises:
        TypeError: ``value`` is not a str (nor None), or ``reg`` not a Registry.
        DpnError: ``unknown-rules`` (the profile or an option is unknown).
    """
    from .. import inputs
    inputs.optional(value, str, "rules_from_tag", "a Rules tag's value (a str such as 'standard trump=closed', "
                    "or None for standard)")
    inputs.registry(reg, Registry, "rules_from_tag")
    return (reg or registry()).resolve("standard" if value is None else value)


def param_names() -> list[str]:
    """The rule parameters' names, in the declarations' order."""
    return list(PARAMS)
