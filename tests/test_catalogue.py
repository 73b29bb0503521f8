"""Every text the judge writes is in the catalogue, and every catalogue entry renders with
StrictUndefined from the values its callers give (judge.render.catalogue)."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from jinja2 import UndefinedError
from jinja2.runtime import Macro

from judge.engine import initial_position
from judge.game.press_rules import MAY_FAKE, WHITE_GREY, PressRules
from judge.maps import load_board
from judge.render import CATALOGUE, Entry
from judge.render.catalogue import PAGE, PART, PICTURE, entry
from judge.render.environment import REFUSALS, environment, refusal, render, templates_dir
from judge.render.markup import markup_environment, render_markup
from judge.render.pictures import phase_picture

ROOT = Path(__file__).resolve().parent.parent
#: The refusals that keep njudge's two lines (judge/game/records.py).
TWO_LINES = {"dedication_too_low", "ontime_too_low", "cd_ratio_too_high"}

HEADER = ":: Judge: XXXX  Game: Dt  Variant: Standard"
WHEN = "Tue Jan 06 2004 23:30:00 +0000"
GAME = SimpleNamespace(name="dt", map="Standard", status="active", phase="S1901M", players=7, ended="Game 'dt' is over: it was terminated by its master.")
PHASE = SimpleNamespace(code="S1901M", title="Spring 1901 Movement", processed=True)
PAGE_VALUES = {"judge_code": "XXXX", "game_path": lambda g: f"/games/{g}",
               "phase_path": lambda g, p: f"/games/{g}/{p}", "powers": ["Austria"], "summary": [(1901, [3])]}

SUMMARY = {"game": "dt", "variant": "Standard", "through": "Fall 1901 Movement", "ended": None, "powers": ["France"],
           "short": ["Fra"], "rows": [("S1901M", [3])], "masters": ["m@x"],
           "tenures": [SimpleNamespace(power="France", address="a@x", start="S1901M", end=None, missed=1, left="")]}

#: The values each entry is rendered with (as the code that renders it gives them).
SAMPLES: dict[str, dict[str, object]] = {
    "all/results": {},  # rendered by results_mail below
    "all/game_start": {"header": HEADER, "recipient": "France", "game": "dt", "players": [("Master", "m@x")],
                       "season": "Spring of 1901", "groups": [[("France", "Army", "Paris")]], "deadline": WHEN,
                       "vacant": ["Italy"], "letters": {"Italy": "I"}},
    "all/press": {"header": HEADER, "game": "dt", "author": "a@x", "role": "France", "recipients": None,
                  "truth": {"author": "a@x", "role": "France", "recipients": ["Italy"]}, "text": "Hello."},
    "all/resign": {"header": HEADER, "game": "dt", "address": "a@x", "powers": ["France"]},
    "all/eject": {"header": HEADER, "game": "dt", "address": "a@x", "powers": ["France"]},
    "all/game_state": {"header": HEADER, "game": "dt", "change": "paused", "reason": "", "deadline": WHEN},
    "all/deadline_changed": {"game": "dt", "deadline": WHEN, "grace": WHEN, "wait_set": False},
    "all/notices": {"header": HEADER, "parts": ["Game 'dt' has been resumed.", "Press is white."]},
    "all/settings_changed": {"header": HEADER, "game": "dt", "changes": ["Press is white."],
                             "deadlines": ["Deadline for 'dt' changed to ..."]},
    "all/takeover": {"header": HEADER, "game": "dt", "power": "France", "address": "a@x", "returned": False,
                     "deadline": WHEN, "grace": WHEN, "wait_set": True},
    "all/reply": {"header": HEADER, "sections": ["One."], "errors": 1, "original": "signon fdt ****",
                  "acted": True, "refused": 1},
    "player/selected": {"header": HEADER, "power": "France", "letter": "F", "game": "dt", "password_hint": None,
                        "title": "Spring of 1901", "groups": [[("France", "Army", "Paris")]], "deadline": WHEN},
    # -- game life A: lateness, absences, settings, records (issue 11) --
    "player/reminder": {"header": HEADER, "orders": "Movement orders for Spring of 1901. (dt.001)", "hours": 8,
                        "errors": False},
    "all/late": {"header": HEADER, "game": "dt", "late": ["France"], "waiting": ["Italy"],
                 "signons": [("Italy", "I")], "grace": WHEN, "nmr": False, "you": "France", "deadline": WHEN},
    "all/waiting": {"header": HEADER, "game": "dt", "abandoned": ["France"], "waiting": ["France"],
                    "signons": [("France", "F")]},
    "master/absence": {"header": HEADER, "game": "dt", "who": "France", "address": "a@x", "starts": WHEN,
                       "ends": WHEN, "cancelled": False, "refused": "An absence may last at most 15 days."},
    "master/member_changed": {"header": HEADER, "game": "dt", "who": "France", "address": "b@x", "old": "a@x"},
    "player/absence": {"game": "dt", "who": "France", "starts": WHEN, "ends": WHEN, "cancelled": False,
                       "pending": [(WHEN, WHEN)], "current": WHEN},
    "player/absences": {"game": "dt", "absences": [("France", WHEN, WHEN)]},
    "player/setting": {"what": "address", "game": "dt", "who": "France", "address": "b@x", "old": "a@x",
                       "zone": "", "default": "UTC"},
    "player/rating": {"address": "a@x", "ratings": [("Overall", "27.42", "8.31", "2.47", 1)], "mu": "25.00",
                      "sigma": "8.33", "shown": "0.00"},
    "player/ratings": {"ladder": "overall", "total": 2, "rows": [(1, "a@x", "2.47", "27.42", "8.31", 1),
                                                                 (2, "bot", "0.66", "25.54", "8.29", 1)]},
    "player/whois": {"address": "a@x", "record": SimpleNamespace(phases=2, on_time=1, late=1, missed=0,
                                                                  dedication=2, started=1, taken_over=0, finished=0,
                                                                  abandoned=0, resigned=0),
                     "places": [("dt", "France", "playing", "active S1901M")], "ontime": "0.500", "cd": "0.000"},
    "all/start_set": {"game": "dt", "start": WHEN, "forming": False, "deadline": WHEN},
    "all/zone_set": {"game": "dt", "zone": "Europe/London"},
    "all/policy_set": {"game": "dt", "what": "reminder", "value": "8", "nmr": False},
    "player/error": {"line": "A par - xyz", "message": "No such province."},
    "player/refused": {"reason": "state", "action": "give orders", "line": "A par - bur", "game": "dt",
                       "status": "forming", "allowed": ["active"], "power": ""},
    "player/wrong_password": {},
    "player/unreadable": {"reason": "its MIME parts are nested too deeply", "keeper": "k@x"},
    "player/rate_limited": {"limit": 30, "keeper": "k@x"},
    "player/game_rate_limited": {"game": "dt", "limit": 120},
    "player/not_acted_on": {"keeper": "k@x"},
    "player/game_changed": {"game": "dt", "phase": "Fall of 1901 (movement)"},
    "player/unread": {"limit": 300, "line": 301},
    "player/reply_cut": {"limit": 250000, "left_out": 12},
    "player/signon": {"power": "France", "game": "dt"},
    "player/observe": {"game": "dt"},
    "player/confirm_asked": {"kind": "address", "address": "b@x", "game": "dt", "who": "France",
                             "token": "c1-abcdefghij", "expires": WHEN},
    "player/confirm_sent": {"address": "b@x", "who": "France", "game": "dt", "expires": WHEN, "old": "a@x"},
    "player/joined": {"game": "dt", "players": 3, "needed": 4, "again": True},
    "player/preference": {"preference": "EFG"},
    "player/diary_recorded": {"game": "dt", "number": 3, "when": "Mon Feb 25 2002 23:30:00 +0100"},
    "player/diary_list": {"game": "dt", "entries": [(1, "Mon Feb 25 2002 23:30:00 +0100")]},
    "player/diary_entry": {"game": "dt", "number": 1, "when": "Mon Feb 25 2002 23:30:00 +0100", "body": "Hm."},
    "player/diary_deleted": {"game": "dt", "deleted": [1, 2]},
    "all/diaries": {"header": HEADER, "game": "dt",
                    "diaries": [("France", [(1, "Mon Feb 25 2002 23:30:00 +0100", "Hm.")])]},
    "player/wait": {"on": True},
    "player/order_lines": {"lines": [("A par - bur", ["No."], ["Careful."])]},
    "player/adjustments": {"power": "France", "allowed": 1, "kept": ["waive"], "dropped": ["build a par"]},
    "player/orders": {"kind": "M", "season": "Spring of 1901", "game": "dt", "seq": 1, "power": "France",
                      "echo": ["Army Paris -> Burgundy."], "needed": True, "complete": True, "errors": 1,
                      "missing": None, "deadline": WHEN, "left": "1 day", "late": False, "grace": WHEN,
                      "grace_left": "8 days", "at_grace": "process"},
    "player/processed": {"game": "dt", "done": "S1901M", "phase": "F1901M", "finished": False, "deadline": WHEN},
    "player/resigned": {"game": "dt", "powers": ["France"]},
    "player/draw_vote": {"game": "dt", "concede": False, "meaning": "with_me", "me": "France",
                         "powers": ["France", "Italy"], "ignored": ["Turkey"], "how": "draw",
                         "winners": ["France", "Italy"]},
    "player/press_sent": {"game": "dt", "author": None, "role": None, "recipients": ["Italy"], "truth": None,
                          "text": "Hi."},
    "player/press_delivered": {"everyone": False, "grey": True, "got": ["Italy"], "unplayed": ["Turkey"],
                               "master_copy": True, "faked": "partial", "shown": ["Russia"], "hidden": False},
    "player/press_refused": {"reason": "too_long", "game": "dt", "size": 30000, "limit": 20000},
    "player/takeover": {"game": "dt", "power": "France", "returned": False, "letter": "F", "deadline": WHEN,
                        "grace": WHEN, "wait_set": True},
    "player/list": {"full": True, "games": [SimpleNamespace(name="dt", variant="Standard", phase="S1901M",
                                                            status="active", players=7, needed=0,
                                                            people=[("France", "a@x")], openings=["Italy"])]},
    "player/game_list": {},  # rendered by game_list_text in tests/test_render_mails.py
    "player/summary": SUMMARY,
    "player/history": {"game": "dt", "entries": [("Mon, 05 Jan 2004 00:00:00 +0000", "S", "B", WHEN)]},
    "player/history_note": {"game": "dt", "shown": True, "left_out": 2, "lines": 100, "start": WHEN, "end": "now",
                            "after": WHEN, "turns": False},
    "player/history_part": {"game": "dt", "number": 1, "total": 3},
    "master/created": {"game": "dt", "master": "m@x", "variant": "Standard", "powers": ["France", "Italy"],
                       "settings": ["GUNBOAT", "NMR"], "practice": "", "letter": ""},
    "master/deadline_set": {"game": "dt", "deadline": WHEN, "left": "1 day", "grace": WHEN, "grace_left": "8 days"},
    "master/state_changed": {"game": "dt", "change": "paused"},
    "master/ejected": {"game": "dt", "address": "a@x", "power": "France"},
    "master/power_orders": {"kind": "M", "kind_name": "Movement", "season": "Spring of 1901", "game": "dt", "seq": 1,
                            "required": "Move", "powers": [SimpleNamespace(power="France", complete=False,
                                                                           errors=False, echo=["Army Paris."])]},
    "all/lengths_set": {"game": "dt", "kind": "Move", "line": "clock 1410", "next": "71 hours", "grace": "167 hours",
                        "delay": "0.5 hours", "minimum": "12 hours", "days": "-MTWTF-", "at": "23:30"},
    "all/option_set": {"game": "dt", "option": "railway", "value": "no", "in_play": True},
    "all/press_set": {"game": "dt", "changed": True, "rules": PressRules(WHITE_GREY, False, MAY_FAKE, True),
                      "summary": "White/Grey, No Partial, Partial may be Faked, Postal Press"},
    # -- game life, part C
    "all/postal_press": {"header": HEADER, "game": "dt", "title": "Movement for Spring of 1901",
                         "messages": [{"author": "a@x", "role": "France", "recipients": None, "text": "Hi."}]},
    "player/future_applied": {"header": HEADER, "game": "dt", "power": "France", "applied": True,
                              "title": "Movement for Fall of 1905", "sections": ["> A par - bur"],
                              "dropped": ["Fall 1905 Retreat"], "errors": 1},
    "player/postal_held": {"game": "dt", "title": "Movement for Spring of 1901", "phase": "S1901M",
                           "role": "France", "author": "a@x", "text": "Hi."},
    "player/future_entered": {"phase": "F1905M", "title": "Fall 1905 Movement", "now": False},
    "player/future_pending": {"pending": [SimpleNamespace(phase="F1905M", title="Fall 1905 Movement",
                                                          lines=["A par - bur"], wait=True)]},
    "player/future_cleared": {"phases": ["F1905M"], "phase": ""},
    "player/future_kept": {"title": "Fall 1905 Movement", "phase": "F1905M", "lines": 3, "wait": None},
    "player/future_wait": {"wait": True, "phase": "F1905M"},
    "player/future_none": {},
    "player/reply_play": {"reason": "signed", "game": "dt", "role": "France"},
    "all/reply_play_set": {"game": "dt", "on": False, "changed": True},
    "all/ending": {"how": "draw", "game": "dt", "powers": ["France", "Italy"]},
    "all/pictures_set": {"game": "dt", "on": False, "whole_game": False},
    "player/map_sent": {"game": "dt", "filename": "dt-S1901M.png"},
    "all/game_over": {"winners": ["France"], "predicted": False},
    # -- game life part B ---------------------------------------------------------------------------
    "all/game_end": {**SUMMARY, "header": HEADER, "how": "draw", "winners": ["France", "Italy"], "dias": False, "unvoted": ["Turkey"],
                     "title": "Movement for Spring of 1901"},
    "all/rolled_back": {"header": HEADER, "game": "dt", "seq": 2, "withdrawn": ["F1901M"], "resumed": True,
                        "restored": ["France"], "kind_name": "Movement", "season": "Fall of 1901",
                        "groups": [[("France", "Army", "Paris")]], "dislodged": [], "deadline": WHEN},
    "all/unstarted": {"header": HEADER, "game": "dt", "players": 6, "powers": 7},
    "master/promoted": {"header": HEADER, "game": "dt", "address": "o@x", "by": "m@x"},
    "all/game_setting": {"game": "dt", "setting": "nodias", "same": False, "dropped": True},
    "master/done": {"game": "dt", "what": "rolled_back", "seq": 2, "phase": "F1901M", "withdrawn": ["F1901M"],
                    "resumed": True, "powers": [], "address": "", "power": ""},
    "player/become_copy": {"game": "dt", "power": "France", "master": "m@x"},
    "player/whogame": {"game": "dt", "full": False, "members": [("France", "a@x", WHEN, 1), ("Master", "m@x", WHEN,
                                                                                            None)]},
    "web/base": PAGE_VALUES,
    "web/index": {**PAGE_VALUES, "games": [GAME]},
    "web/game": {**PAGE_VALUES, "game": GAME, "phases": [PHASE],
                 "withdrawn": [SimpleNamespace(phase="F1901M", title="Fall 1901 Movement",
                                               mailed=datetime(2004, 1, 5, tzinfo=UTC),
                                               withdrawn=datetime(2004, 1, 6, tzinfo=UTC), results="Results")]},
    "web/phase": {**PAGE_VALUES, "game": GAME, "entry": PHASE, "previous": None, "following": None,
                  "detail": SimpleNamespace(results="Movement results", press=[(datetime(2004, 1, 5, tzinfo=UTC),
                                                                                   "Hello.")])},
    "web/summary": PAGE_VALUES,
    "web/not_found": {**PAGE_VALUES, "what": "game xx"},
    "web/ratings": {**PAGE_VALUES, "ratings_path": lambda m: f"/ratings/{m}" if m else "/ratings", "title": "overall",
                    "ladders": [("standard", "Standard")],
                    "rows": [SimpleNamespace(place=1, who="", rating="2.47", mu="27.42", sigma="8.31", games=1,
                                             seats=(("dt", "France"),))]},
}
#: Entries rendered by their own functions in other tests (too much context to write here).
ELSEWHERE = {"all/results": "tests/test_render_results.py", "player/game_list": "tests/test_render_mails.py",
             "pictures/board": "below, through phase_picture"}


def test_every_template_file_is_in_the_catalogue_and_back() -> None:
    root = templates_dir()
    files = {str(p.relative_to(root)) for p in root.rglob("*.j2")}
    assert files == {e.template for e in CATALOGUE}
    assert len({e.name for e in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize("item", [e for e in CATALOGUE if e.form != PART], ids=lambda e: e.name)
def test_every_entry_renders_with_strict_undefined(item: Entry) -> None:
    if item.name in ELSEWHERE:
        assert item.name not in SAMPLES or not SAMPLES[item.name]
        return
    assert item.name in SAMPLES, f"give {item.name} sample values here"
    values = SAMPLES[item.name]
    text = render_markup(item.name, **values) if item.form == PAGE else render(item.name, **values)
    assert text.strip()


def test_a_missing_value_is_an_error_not_a_blank() -> None:
    with pytest.raises(UndefinedError):
        render("player/preference")
    with pytest.raises(UndefinedError):
        render_markup("web/not_found", **{k: v for k, v in PAGE_VALUES.items()})


def test_parts_are_included_by_some_template() -> None:
    root = templates_dir()
    texts = "\n".join(p.read_text() for p in root.rglob("*.j2"))
    for item in CATALOGUE:
        if item.form == PART and item.name != REFUSALS:
            assert f'"{item.template}"' in texts, item.name


def _refusal_macros() -> dict[str, Macro]:
    module = environment().get_template(entry(REFUSALS).template).module
    return {name: value for name, value in vars(module).items() if isinstance(value, Macro)}


def _refusals_used() -> set[str]:
    """The names every ``render.refusal("name", ...)`` in judge/ gives (each must be a literal)."""
    used: set[str] = set()
    for path in (ROOT / "judge").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and "render" in node.module:
                assert "refusal" not in {a.name for a in node.names}, f"{path}: call it as render.refusal"
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "refusal"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "render"):
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), f"{path}:{node.lineno}"
                used.add(first.value)
    return used


def test_every_refusal_used_is_a_macro_and_every_macro_is_used() -> None:
    macros, used = set(_refusal_macros()), _refusals_used()
    assert used - macros == set(), "render.refusal names no macro of templates/player/refusals.txt.j2"
    assert macros - used == set(), "macros of templates/player/refusals.txt.j2 no code uses"


def test_every_refusal_is_one_line_without_surrounding_blanks() -> None:
    for name, macro in _refusal_macros().items():
        text = refusal(name, **{arg: "x" for arg in macro.arguments})
        assert text == text.strip() and text, name
        assert "\n" not in text or name in TWO_LINES, name
    assert refusal("ontime_too_low", game="dt", least="0.900", rated="0.500") == (
        "Sorry, game 'dt' requires an ontime ratio of at least 0.900.\nYou are currently rated 0.500.")


def test_a_refusal_is_strict_about_its_values() -> None:
    assert refusal("condition_missing", word="AND") == "A condition is missing before 'AND'."
    assert refusal("condition_missing", word="") == "A condition is missing at the end."
    assert refusal("preference_unreadable", text="it's") == (
        'Cannot read the preference list "it\'s"; write it like E[FGR][TAI].')
    assert refusal("concede_not_largest", largest=["France", "Italy"], power="Turkey") == (
        "You may concede only to the largest power (France or Italy), not to Turkey.")
    with pytest.raises(KeyError):
        refusal("no_such_refusal")
    with pytest.raises(UndefinedError):
        refusal("game_already_over")
    with pytest.raises(TypeError):
        refusal("game_already_over", game="dt", extra=1)


def test_the_picture_entry_renders_through_phase_picture() -> None:
    board = load_board("standard")
    assert entry("pictures/board").form == PICTURE
    svg = phase_picture(board, initial_position(board.map), game="dt").svg
    assert svg.startswith("<svg") or "<svg" in svg[:200]


def test_names_outside_the_catalogue_are_refused() -> None:
    with pytest.raises(KeyError):
        render("player/nosuch")
    with pytest.raises(KeyError):
        render_markup("web/nosuch.html.j2")
    assert environment() is environment() and markup_environment() is markup_environment()
    assert Path(templates_dir()).is_dir()
