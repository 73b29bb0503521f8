"""Running adjudicator test cases written in the jDip DATC text format.

``judge datc FILE...`` prints ``PASS <case>`` or ``FAIL <case>: <what differed>`` per case,
then ``N passed, M failed``. Extensions: ``VARIANT_ALL <map>`` picks the map, and
``OPTIONS_ALL name=value ...`` (file-wide) and ``OPTIONS name=value ...`` (in a case, before
``PRESTATE``) set game options. A case without ``PRESTATE_SUPPLYCENTER_OWNERS`` starts with the
map's home centres owned by their powers. Orders the parser or validation refuse are dropped,
as a judge would refuse them at entry; the unit then holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .engine import Board, Map, Options, OrderError, Phase, Position, Unit, adjudicate, initial_position
from .engine.adjudicator import MovementOutcome
from .engine.map import province_of
from .engine.parser import parse_order
from .engine.phase import RETREAT
from .engine.position import Dislodged
from .engine.retreats import retreat_options
from .engine.validation import check_order
from .maps import load_board

_SECTIONS = {
    "PRESTATE_SETPHASE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "PRESTATE_DISLODGED",
    "PRESTATE_RESULTS", "ORDERS", "POSTSTATE", "POSTSTATE_SAME", "POSTSTATE_DISLODGED", "END",
}


@dataclass
class Case:
    """One ``CASE`` block."""

    name: str
    variant: str
    options: dict[str, str] = field(default_factory=dict)
    phase: str | None = None
    owners: list[str] | None = None
    prestate: list[str] = field(default_factory=list)
    dislodged: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    poststate: list[str] | None = None
    post_dislodged: list[str] = field(default_factory=list)
    line: int = 0


def read_cases(text: str) -> list[Case]:
    """Split a case file into cases."""
    cases: list[Case] = []
    variant = "standard"
    file_options: dict[str, str] = {}
    case: Case | None = None
    section = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        key = word.upper()
        if key == "VARIANT_ALL":
            variant = rest.strip()
        elif key == "OPTIONS_ALL":
            file_options.update(_options(rest))
        elif key == "CASE":
            case = Case(rest.strip(), variant, dict(file_options), line=number)
            section = ""
        elif case is None:
            raise ValueError(f"line {number}: {line!r} outside a CASE")
        elif key == "OPTIONS":
            case.options.update(_options(rest))
        elif key in _SECTIONS:
            section = key
            if key == "PRESTATE_SETPHASE":
                case.phase = rest.strip()
            elif key == "PRESTATE_SUPPLYCENTER_OWNERS":
                case.owners = []
            elif key == "POSTSTATE":
                case.poststate = []
            elif key == "POSTSTATE_SAME":
                case.poststate = None
                section = "POSTSTATE_SAME"
            elif key == "END":
                cases.append(case)
                case = None
        else:
            target = {
                "PRESTATE_SUPPLYCENTER_OWNERS": case.owners, "PRESTATE": case.prestate,
                "PRESTATE_DISLODGED": case.dislodged, "PRESTATE_RESULTS": case.results,
                "ORDERS": case.orders, "POSTSTATE": case.poststate,
                "POSTSTATE_DISLODGED": case.post_dislodged,
            }.get(section)
            if target is None:
                raise ValueError(f"line {number}: {line!r} is not in a section that takes lines")
            target.append(line)
    return cases


def _options(text: str) -> dict[str, str]:
    out = {}
    for item in text.split():
        name, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"option {item!r} must be written name=value")
        out[name] = value
    return out


def _location(m: Map, text: str) -> str:
    t = " ".join(text.lower().replace("(", "/").replace(")", "").split())
    t = t.replace(" /", "/")
    loc = m.aliases.get(t)
    if loc is None and "/" in t:
        prov, _, coast = t.partition("/")
        base = m.aliases.get(prov)
        if base is not None:
            loc = f"{province_of(base)}/{coast}"
    if loc is None:
        raise ValueError(f"unknown place {text!r}")
    return loc


def _unit_line(m: Map, line: str) -> Unit:
    power_text, _, rest = line.partition(":")
    if not rest:
        power_text, _, rest = line.partition(" ")
    power = m.find_power(power_text)
    if power is None:
        raise ValueError(f"unknown power in {line!r}")
    utype, _, where = rest.strip().partition(" ")
    return Unit(power.name, utype.strip().upper()[0], _location(m, where.strip()))


def _split_power(m: Map, line: str) -> tuple[str, str]:
    power_text, _, rest = line.partition(":")
    power = m.find_power(power_text)
    if power is None:
        raise ValueError(f"unknown power in {line!r}")
    return power.name, rest.strip()


def _prestate(board: Board, case: Case) -> Position:
    m = board.map
    phase = Phase.parse(case.phase) if case.phase else Phase.parse(m.start)
    if case.owners is None:
        owners = dict(initial_position(m).owners)
    else:
        owners = {}
        for line in case.owners:
            unit = _unit_line(m, line)
            owners[unit.province] = unit.power
    units = [_unit_line(m, line) for line in case.prestate]
    dislodged: list[Dislodged] = []
    if phase.kind == RETREAT:
        dislodged = _retreat_setup(board, case, units)
    return Position.build(phase, units, dislodged, owners)


def _retreat_setup(board: Board, case: Case, units: list[Unit]) -> list[Dislodged]:
    """Rebuild each dislodged unit's retreats from the previous movement's results, as the
    engine's ``retreat_options`` gives them after that movement."""
    m = board.map
    occupied = {u.province for u in units}
    moves: list[tuple[bool, str, str, bool]] = []  # success, origin, dest, by convoy
    for line in case.results:
        status, _, rest = line.partition(":")
        _, text = _split_power(m, rest)
        words = text.replace("->", "-").split()
        body = " ".join(words[1:])
        if "-" in body and " S " not in f" {body.upper()} " and " C " not in f" {body.upper()} ":
            parts = [p.strip() for p in body.split("-")]
            via = "via convoy" in body.lower()
            origin = province_of(_location(m, parts[0]))
            dest = province_of(_location(m, parts[-1].replace("via convoy", "").strip()))
            by_convoy = via or len(parts) > 2 or dest not in m.any_adj.get(origin, ())
            moves.append((status.strip().upper() == "SUCCESS", origin, dest, by_convoy))
    dislodged = [_unit_line(m, line) for line in case.dislodged]
    attackers = {
        u.province: next((o for ok, o, d, _ in moves if ok and d == u.province), None) for u in dislodged
    }
    # a unit that lost a head-to-head leaves no standoff where its attacker came from
    lost = {(u.province, a) for u in dislodged if (a := attackers[u.province]) is not None}
    outcome = MovementOutcome(
        succeeded=frozenset(o for ok, o, _, _ in moves if ok),
        dislodged={p: a for p, a in attackers.items() if a is not None},
        by_convoy=frozenset(o for _, o, _, c in moves if c),
        void=frozenset(), cut=frozenset(), no_route=frozenset(),
        contested=frozenset(d for ok, o, d, _ in moves if not ok and d not in occupied and (o, d) not in lost),
    )
    after = {u.province: u for u in units}
    return [Dislodged(unit, retreat_options(board, unit, outcome, after)) for unit in dislodged]


def run_case(case: Case) -> str | None:
    """Adjudicate one case; None if it passes, else what differed."""
    board = load_board(case.variant, Options(case.options))
    m = board.map
    position = _prestate(board, case)
    orders = []
    for line in case.orders:
        power, text = _split_power(m, line)
        try:
            order = parse_order(board, position, power, text)
            check_order(board, position, order)
        except OrderError:
            continue
        orders.append(order)
    result = adjudicate(board, position, orders)
    got = {(u.power, u.type, u.location) for u in result.next.units.values()}
    if case.poststate is None:
        want = {(u.power, u.type, u.location) for u in position.units.values()}
    else:
        want = {(u.power, u.type, u.location) for u in map(lambda s: _unit_line(m, s), case.poststate)}
    problems = []
    if got != want:
        problems.append(_diff("units", want, got))
    got_d = {(d.unit.power, d.unit.type, d.unit.location) for d in result.dislodged if d.retreats}
    want_d = {(u.power, u.type, u.location) for u in map(lambda s: _unit_line(m, s), case.post_dislodged)}
    if got_d != want_d:
        problems.append(_diff("dislodged", want_d, got_d))
    return "; ".join(problems) or None


def _diff(label: str, want: set[tuple[str, str, str]], got: set[tuple[str, str, str]]) -> str:
    def fmt(items: Iterable[tuple[str, str, str]]) -> str:
        return ", ".join(f"{p} {t} {loc}" for p, t, loc in sorted(items)) or "-"
    return f"{label}: expected but missing [{fmt(want - got)}], unexpected [{fmt(got - want)}]"


def run_files(paths: Iterable[str | Path], out: Callable[[str], object] = print) -> tuple[int, int]:
    """Run every case in the files, printing one line each and the totals."""
    passed = failed = 0
    for path in paths:
        for case in read_cases(Path(path).read_text(encoding="utf-8")):
            try:
                problem = run_case(case)
            except Exception as exc:  # a broken case must not stop the run
                problem = f"error: {type(exc).__name__}: {exc}"
            if problem is None:
                passed += 1
                out(f"PASS {case.name}")
            else:
                failed += 1
                out(f"FAIL {case.name}: {problem}")
    out(f"{passed} passed, {failed} failed")
    return passed, failed
