"""The seeded long-game soak's driver: one game, start to end, by mail, checked after every mail.

:class:`Soak` plays one game against a running judge (``test_e2e_harness.LiveJudge``: the real
listener, inbox, game work, scheduler and sender over real SMTP on loopback, a capture relay)
with the web archive served by uvicorn on loopback (``test_web.ArchiveServer``). Everything is
drawn from ``random.Random(seed)``: the map (Standard, Colonial, Oceania in turn), gunboat or
not, the press settings, the options, and each mail. The same seed sends the same mails.

The people: the master, one player per power, two observers (one on a dotless domain,
``owl@localhost``), and a stranger who also forges other people's From. Each phase some
random mails go first (press of every kind the game allows, orders in advance with ``PHASE``
and ``IF``/``ELSE``/``ENDIF``, ``CLEAR``, ``BECOME``, ``PREDICT``, ``ROLLBACK``, ``PROCESS``,
settings, ``LIST``/``WHOIS``/``HISTORY``/``SUMMARY``/``WHOGAME``, wrong passwords, forged
senders), then the players' orders (random legal ones, from ``judge.randomgame``), sometimes
in two mails or through the master's ``BECOME``; if the phase still waits, the master sends
``PROCESS``. At the year cap the master sends ``TERMINATE``.

After every mail (:meth:`Soak.check_mail`):

- answered once: the mail got exactly one reply, to its From; its inbox row is ``done``
  after one try (not failed, quarantined, ignored, or retried later against a changed game);
- one notice: no reader got two notices (mails other than replies, results, press and a
  game's start and end) because of one mail;
- told which: the reply to a player's mail lists the power's orders exactly as they are
  now stored;
- legal orders refused, advance orders refused: the players' legal orders (written
  ``A War-Gal`` now and then, with what mail clients add below), and orders for a later
  phase legal where the units stand now (plain, ``IF``/``ELSE``/``ENDIF`` on lines or on one
  line), are taken without an error when the judge reads them in the phase they were written
  for (the second of two order mails may reach a phase the first completed: the judge
  rightly refuses it there, and says so);
- orders shown, grey author, gunboat identity: no mail to anyone but the game's masters
  shows another power's order of the phase not yet processed (as the judge echoes it:
  ``France: Army Paris -> Burgundy.``; result mails, and HISTORY's copies of them, show
  processed phases), names the author of grey press, or (gunboat, before the end) shows a
  player's address beside their power, or at all unless the reader asked about it;
- counts: every count line (``X: n Supply centers, u Units: Builds k units.``) equals
  the engine's (``Position.centre_counts``, ``adjustment_counts``) for the position it
  describes: after the phase of the result header above it (replayed from that phase's
  record), PREDICT's adjudication, or the current position; SUMMARY's table equals the
  stored positions;
- text slip: no ``None``, ``{{`` or ``Traceback`` in a mail;
- web: the archive's pages (the game's and its current phase's after every mail; the index
  and the last processed phase's after every tenth mail and every mail that moved the
  phase) show no address, no grey press author, and no unprocessed order.

At the end: no inbox row failed or was tried twice; replaying every stored phase's orders
through the engine from the first stored position gives each next stored position and the
game's position; every phase page of the archive passes the web checks.

The rule checks above collect every problem (up to ``MAX_EACH`` per kind) with the seed, the
mail's number and first line, and what leaked or disagreed; the test fails listing them.
What the other work on issue 23 may change is kept in one small function each: how an
observer joins (:meth:`Soak.observe`) and how a player moves to a new address
(:meth:`Soak.change_address`), once a new address must confirm; how a failed mail is marked
is read in :meth:`Soak.check_answered` (the inbox row's status and attempts).

The judge's rate limits are raised for the soak (it plays a game a thousand times faster than
people do); the limits have their own tests.
"""

from __future__ import annotations

import html
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from sqlalchemy import func, select
from test_e2e_harness import LiveJudge, Mail
from test_web import ArchiveServer

from judge.engine import Position, adjudicate
from judge.engine.adjustments import adjustment_counts, adjustments_due, centre_counts
from judge.engine.board import Board
from judge.engine.map import Map
from judge.engine.phase import ADJUSTMENT, MOVEMENT, Phase
from judge.game.orders import describe, required
from judge.game.view import board_for, entries_from_json
from judge.maps import load_map
from judge.randomgame import random_orders
from judge.store.base import make_engine, make_sessionmaker
from judge.store.codec import order_from_json
from judge.store.games import MASTER, PLAYER, Game, PhaseRecord, find_game, order_sets, phase_records
from judge.store.mail import InboxMessage, OutboxMessage

TRACE = os.environ.get("JUDGE_SOAK_TRACE", "")  # a file to write every mail sent and received to
MAPS = ("standard", "colonial", "oceania")
MAX_EACH = 3  # problems kept per kind (the first ones; the count of the rest is reported)
DONE_STATES = ("done", "ignored", "failed", "quarantined", "dropped")
WORDS = ("lovely", "weather", "tea", "alliance", "trust", "north", "spring", "peace", "fleet", "maybe",
         "tomorrow", "silence", "deal", "friends", "border", "plans")
#: A count line (``> `` where HISTORY quotes a mail), a result header and any header that
#: numbers a phase (``(game.007)``: results, order listings, LIST's status).
COUNT_RE = re.compile(r"^(?:> ?)?(\S.*?):\s+(\d+) Supply centers,\s+(\d+) Units:\s+(Builds|Removes)\s+(\d+) "
                      r"units?\.", re.MULTILINE)
RESULT_RE = re.compile(r"^(?:> ?)?(?:Movement results|Retreat orders|Adjustment orders) for .*\((\w+)\.(\d{3})\)",
                       re.MULTILINE)
ECHO_RE = re.compile(r"^(?:Movement|Retreat|Adjustment) orders for .*\((\w+)\.(\d{3})\)$", re.MULTILINE)
NUMBERED_RE = re.compile(r"^(?:> ?)?\S.*\((\w+)\.(\d{3})\)\s*$", re.MULTILINE)
TAG_RE = re.compile(r"<[^>]+>")
CONFIRM_RE = re.compile(r"^\s*CONFIRM (\S+)\s*$", re.MULTILINE)
#: Mails that are no notice of a change: each reader gets at most one notice per mail.
# Mails that are not notices of the mail's commands: a phase's own mails (results, the orders entered
# in advance that a new phase applies), press, a game's start and end, PREDICT's answer.
NOT_NOTICES = re.compile(r"(Results|Press( from \w+)?|Broadcast|Game Over|Game Starting|Game Terminated|Prediction"
                         r"|Orders Entered in Advance: [\w ]+?( \[Error Flag\])?)$")
# A game page's withdrawn results: mailed to everyone before the ROLLBACK, so no secret.
WITHDRAWN_RE = re.compile(r'<details class="withdrawn".*?</details>', re.DOTALL)


def seeds_from(text: str) -> list[int]:
    """``"1-200"``, ``"3,7,9"`` or a mix: the seeds it names."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


@dataclass
class Sent:
    """One mail the soak sent and what came of it."""

    number: int
    sender: str
    text: str
    message_id: str
    status: str = ""
    note: str = ""
    attempts: int = 0
    mails: list[Mail] = field(default_factory=list)
    before: tuple[str | None, dict[str, list[str]]] = (None, {})  # the phase and its stored orders before
    acting: str | None = None  # the power whose player sent it

    @property
    def read_in(self) -> str | None:
        """The phase the game was in when the judge read this mail: the one stored just
        before it was sent (the soak alone moves the game; its deadlines are days away)."""
        return self.before[0]

    @property
    def label(self) -> str:
        first = next((line for line in self.text.splitlines() if line and not line.lower().startswith("signon")),
                     self.text.splitlines()[0] if self.text else "")
        return f"mail #{self.number} from {self.sender} ({first[:60]!r})"


@dataclass
class Setup:
    """What a seed draws before the game starts."""

    variant: str
    gunboat: bool
    press: str
    fake: bool
    postal: bool
    pictures: bool
    options: dict[str, str]
    cap: int


def draw_setup(seed: int, rng: Random, cap_years: int) -> Setup:
    variant = MAPS[seed % len(MAPS)]
    options: dict[str, str] = {}
    if variant == "colonial" and rng.random() < 0.7:
        options["hong_kong_rule"] = "yes"
    if rng.random() < 0.3:
        options["convoy_disruption"] = rng.choice(("all_routes", "one_route"))
    start = load_map(variant).start  # e.g. S1901M
    years = cap_years * 2 if variant == "colonial" else cap_years  # Colonial plays one movement a year
    return Setup(variant=variant, gunboat=seed % 2 == 1, press=rng.choice(("white/grey", "grey/white", "white")),
                 fake=rng.random() < 0.5, postal=rng.random() < 0.5, pictures=rng.random() < 0.2,
                 options=options, cap=int(start[1:5]) + years - 1)


class Soak:
    """One seeded game against ``live`` (see the module docstring)."""

    def __init__(self, live: LiveJudge, archive: ArchiveServer, seed: int, *, cap_years: int = 2) -> None:
        self.live, self.archive, self.seed = live, archive, seed
        self.rng = Random(seed)
        self.setup = draw_setup(seed, self.rng, cap_years)
        self.map: Map = load_map(self.setup.variant)
        self.name = f"sk{seed}"
        self.gm = "gm@soak.test"
        self.gm_pw = f"gm{seed}"
        self.players = {p.name: f"{p.name.lower().replace(' ', '')}{seed}@soak.test" for p in self.map.powers}
        self.passwords = {p.name: f"pw{p.letter.lower()}{seed}" for p in self.map.powers}
        self.observers = {"watcher@soak.test": "watchpw", "owl@localhost": "owlpw"}
        self.stranger = "stranger@elsewhere.test"
        self.addresses = {self.gm, *self.players.values(), *self.observers, self.stranger}
        self.engine = make_engine(live.url)
        self.sessions = make_sessionmaker(self.engine)
        self.sent: list[Sent] = []
        self.problems: dict[str, list[str]] = {}
        self._repeats: set[tuple[str, str]] = set()
        self.grey: dict[str, str] = {}  # press token -> author power (grey press)
        self.tokens = 0
        self.rollbacks = 0
        self.moves = 0  # addresses changed
        self.over = False  # the final checks have begun
        self.advanced: set[tuple[str, str]] = set()  # (power, phase) given orders in advance
        self.seen = len(live.relay.messages)

    # -- the record of problems ----------------------------------------------------------------

    def problem(self, kind: str, text: str, *, same: str = "") -> None:
        """Record a problem; ``same`` (when given) names what repeats mail after mail (an
        address on a page): it is recorded once."""
        if same:
            if (kind, same) in self._repeats:
                return
            self._repeats.add((kind, same))
        self.problems.setdefault(kind, []).append(f"seed {self.seed} ({self.setup.variant}"
                                                  f"{', gunboat' if self.setup.gunboat else ''}): {text}")

    def report(self) -> str:
        lines = []
        for kind, items in self.problems.items():
            lines.append(f"{kind}: {len(items)}")
            lines.extend(f"  - {item}" for item in items[:MAX_EACH])
        return "\n".join(lines)

    # -- sending one mail and waiting for all it causes --------------------------------------------

    def mail(self, sender: str, text: str, *, forged_by: str | None = None, acting: str | None = None) -> Sent:
        """Send ``text`` from ``sender`` (or with ``sender`` forged in From by ``forged_by``),
        wait until the judge has read it and sent all it queued, then check what it sent."""
        before = self.stored_orders()
        began = time.monotonic()
        mid = self.live.send(sender, text, envelope=forged_by)
        sent = Sent(len(self.sent) + 1, sender, text, mid, before=before, acting=acting)
        self.sent.append(sent)
        self._wait_read(sent)
        self._wait_sent()
        got = self.live.relay.messages
        sent.mails = [Mail.of(c) for c in got[self.seen:]]
        self.seen = len(got)
        self.live._seen = self.seen  # noqa: SLF001 - keep LiveJudge.quiet() meaningful
        self.check_mail(sent)
        if TRACE:
            with open(TRACE, "a", encoding="utf-8") as out:
                out.write(f"=== {sent.label} -> {sent.status} in {time.monotonic() - began:.2f}s\n{text}\n")
                for m in sent.mails:
                    out.write(f"--- to {m.to}: {m.subject}\n{m.body}\n")
        return sent

    def _wait_read(self, sent: Sent, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with self.sessions() as s:
                row = s.execute(select(InboxMessage.status, InboxMessage.note, InboxMessage.attempts)
                                .where(InboxMessage.message_id.in_((sent.message_id, sent.message_id.strip("<>"))))
                                ).first()
            if row is not None and row[0] in DONE_STATES:
                sent.status, sent.note, sent.attempts = row[0], row[1] or "", row[2]
                return
            if time.monotonic() > deadline:
                sent.status = row[0] if row else "missing"
                return
            self._nap()

    def _wait_sent(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with self.sessions() as s:
                waiting = s.scalar(select(func.count()).select_from(OutboxMessage)
                                   .where(OutboxMessage.status.in_(("pending", "held"))))
            if not waiting or time.monotonic() > deadline:
                return
            self._nap()

    def _nap(self) -> None:
        """Wait a little, but wake at once when the relay gets a message."""
        relay = self.live.relay
        relay.wait_for(len(relay.messages) + 1, timeout=0.02, strict=False)

    # -- reading the store -------------------------------------------------------------------------

    def game(self, s: Any) -> Game:
        row = find_game(s, self.name)
        assert row is not None, f"seed {self.seed}: game {self.name} is not stored"
        return row

    def board(self, game: Game, options: dict[str, Any] | None = None) -> Board:
        return board_for(game.map_name, game.options if options is None else options)

    def position(self) -> tuple[str, Position | None, Board]:
        with self.sessions() as s:
            game = self.game(s)
            board = self.board(game)
            pos = Position.from_json(board.map, game.position) if game.position else None
            return game.status, pos, board

    def members(self) -> list[tuple[str, str, str | None, str]]:
        """(address, role, power, status) of every member of the game."""
        with self.sessions() as s:
            return [(p.email.lower(), p.role, p.power, p.status) for p in self.game(s).players]

    def power_of(self, power: str) -> str:
        """The address playing ``power`` now."""
        for address, role, held, status in self.members():
            if role == PLAYER and held == power and status == "active":
                return address
        return self.players[power]

    # -- the people's mails ------------------------------------------------------------------------

    def signon(self, power: str) -> str:
        return f"signon {self.map.power(power).letter}{self.name} {self.passwords[power]}\n"

    def master(self, text: str) -> Sent:
        return self.mail(self.gm, f"signon M{self.name} {self.gm_pw}\n{text}")

    def player(self, power: str, text: str) -> Sent:
        return self.mail(self.power_of(power), self.signon(power) + text, acting=power)

    def observe(self, address: str, password: str) -> None:
        """An observer joins the game: OBSERVE, whose reply asks the address to confirm, then
        the confirmation from that address (issue 23, "identity before limits")."""
        self.confirm(address, self.mail(address, f"observe {self.name} {password}"))

    def change_address(self, power: str, new: str) -> None:
        """The player of ``power`` moves to the address ``new``, which confirms first."""
        self.addresses.add(new)
        self.confirm(new, self.player(power, f"set address {new}"))
        self.players[power] = self.power_of(power)

    def confirm(self, address: str, asked: Sent) -> None:
        """``address`` confirms the request its mail from ``asked`` names (``CONFIRM <token>``)."""
        for m in asked.mails:
            token = CONFIRM_RE.search(m.body) if m.to.lower() == address.lower() else None
            if token is not None:
                self.mail(address, f"confirm {token.group(1)}")
                return
        self.problem("confirm", f"{asked.label}: no confirmation request reached {address}")

    def press_text(self, author: str | None, grey: bool) -> str:
        self.tokens += 1
        token = f"soak{self.seed}x{self.tokens}q"  # the q: no token begins another
        if grey and author is not None:
            self.grey[token] = author
        return f"{token} " + " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(3, 12)))

    # -- the game --------------------------------------------------------------------------------

    def start(self) -> None:
        st = self.setup
        njudge = st.gunboat and self.seed % 4 == 3  # njudge's words: CREATE ... <variant> gunboat
        self.mail(self.gm, f"create ?{self.name} {self.gm_pw} {st.variant}{' gunboat' if njudge else ''}")
        settings = [f"set {st.press}"]
        with self.sessions() as s:
            made = find_game(s, self.name)
            gunboat = made is not None and made.gunboat
        if made is None:
            self.problem("njudge words", f"'create ?{self.name} pw {st.variant} gunboat' made no game")
            self.mail(self.gm, f"create ?{self.name} {self.gm_pw} {st.variant}")
        if st.gunboat and not gunboat:
            settings.append("set gunboat")
        extras = [w for w, on in (("fake", st.fake), ("postal press", st.postal)) if on]
        if extras:
            settings.append("set " + ", ".join(extras))
        if not st.pictures:
            settings.append("set nopictures")
        settings.extend(f"set option {k}={v}" for k, v in st.options.items())
        self.master("\n".join(settings))
        for address, password in self.observers.items():
            self.observe(address, password)
        for p in self.map.powers:
            star = "*" if self.rng.random() < 0.15 else ""  # njudge: '*' is any power after those named
            sent = self.mail(self.players[p.name], f"signon ?{self.name} {self.passwords[p.name]}\n"
                                                   f"set preference {p.letter}{star}")
            if star and any("[Error Flag]" in m.subject for m in sent.mails if m.in_reply_to == sent.message_id):
                self.problem("njudge words", f"{sent.label}: 'set preference {p.letter}*' was refused")
        # powers go by preference (a '*' or a refusal may change who gets which): read them
        password_of = {self.players[p]: self.passwords[p] for p in self.players}
        for address, role, power, _ in self.members():
            if role == PLAYER and power is not None:
                self.players[power] = address
                self.passwords[power] = password_of[address]
        status, _, _ = self.position()
        if status != "active":
            self.problem("setup", f"the game is {status} after every power signed on")

    def play(self) -> None:
        """The whole game: setup, phases to the end, the final checks."""
        try:
            self._play()
        finally:
            self.engine.dispose()

    def _play(self) -> None:
        self.start()
        guard = 0
        while True:
            status, pos, board = self.position()
            if status not in ("active", "paused") or pos is None:
                break
            if pos.phase.year > self.setup.cap:
                self.master("terminate")
                break
            guard += 1
            if guard > 60:
                self.problem("stuck", f"the game is still at {pos.phase.code} after {guard} rounds")
                break
            if status == "paused":
                self.master("resume")
                continue
            for _ in range(self.rng.choice((0, 1, 2, 3, 4, 5))):
                self.chatter(pos, board)
                if self._moved(pos):
                    break
            if not self._moved(pos):
                self.orders(pos, board)
            if not self._moved(pos):
                self.master("process")
        self.final_checks()

    def _moved(self, pos: Position) -> bool:
        status, now, _ = self.position()
        return status not in ("active",) or now is None or now.phase.code != pos.phase.code \
            or now.to_json(self.map) != pos.to_json(self.map)

    def orders(self, pos: Position, board: Board) -> None:
        """Every power that must order sends random legal orders: in one mail, in two, with a
        PHASE line naming the current phase, or through the master's BECOME."""
        orders = random_orders(board, pos, self.rng)
        powers = [p.name for p in self.map.powers if required(board, pos).get(p.name)]
        self.rng.shuffle(powers)
        for power in powers:
            lines = [self.spelled(line) for line in orders.get(power, [])]
            if pos.phase.kind == ADJUSTMENT:
                lines = lines + ["waive"] * max(0, abs(adjustments_due(board, pos).get(power, 0)) - len(lines))
            how = self.rng.random()
            if how < 0.1:
                self.master(f"become {power}\n" + "\n".join(lines))
            elif how < 0.25 and len(lines) > 1:
                cut = self.rng.randint(1, len(lines) - 1)
                self.clean(self.player(power, "\n".join(lines[:cut])), pos)
                self.clean(self.player(power, "\n".join(lines[cut:]) + self.client_tail()), pos)
            elif how < 0.35:
                self.clean(self.player(power, f"phase {self.phase_words(board, pos.phase)}\n" + "\n".join(lines)), pos)
            else:
                self.clean(self.player(power, "\n".join(lines) + self.client_tail()), pos)
            if self._moved(pos):
                return

    def client_tail(self) -> str:
        """What common mail clients add below a reply, now and then (issue 23 item 16)."""
        return self.rng.choice((
            "", "", "", "", "", "\n\nSent from my iPhone",
            "\n\nOn Mon, Dec 7, 2026 at 10:00 AM Judge <judge@judge.test>\nwrote:\n> Movement orders for Spring\n> of 1901.",
            "\n\n-----Original Message-----\nFrom: judge@judge.test\nSent: Monday, December 7, 2026 10:00\n"
            "Subject: Re: orders\n\nMovement orders for Spring of 1901.\nAustria: No orders received yet.",
        ))

    def clean(self, sent: Sent, pos: Position, kind: str = "legal orders refused") -> None:
        """Orders legal at ``pos`` (as players write them, with what their mail client adds;
        or for a later phase, orders legal where the units stand now) are taken without an
        error when the judge read the mail at ``pos``'s phase. Read in another one (the first
        half of a power's orders completed the phase, which was processed), they were not
        written for the game the judge applied them to, which may refuse them."""
        if sent.read_in != pos.phase.code:
            return
        reply = next((m for m in sent.mails if m.in_reply_to == sent.message_id), None)
        if reply is not None and "[Error Flag]" in reply.subject:
            errors = [line.strip() for line in reply.body.splitlines() if line.strip().startswith("Error:")]
            self.problem(kind, f"{sent.label}: legal orders were flagged: {errors[:3]}")

    def phase_words(self, board: Board, phase: Phase) -> str:
        """``Fall 1901 Movement``: a phase as a PHASE line names it."""
        return board.rules.calendar.long_name(phase)

    def next_movement(self, board: Board, pos: Position) -> Phase:
        return board.rules.calendar.next_movement(pos.phase)

    # -- the random mails before the orders ---------------------------------------------------------

    def chatter(self, pos: Position, board: Board) -> None:
        actions: list[tuple[float, Callable[[Position, Board], None]]] = [
            (3, self.a_press), (2, self.a_advance), (1, self.a_clear), (2, self.a_info), (1, self.a_wrong_password),
            (1, self.a_forged), (1, self.a_setting), (1, self.a_become), (0.5, self.a_predict),
            (0.4, self.a_rollback), (0.3, self.a_process), (0.8, self.a_observer_press), (0.5, self.a_master_setting),
            (0.2, self.a_address),
        ]
        weights = [w for w, _ in actions]
        _, action = self.rng.choices(actions, weights=weights)[0]
        action(pos, board)

    def some_power(self) -> str:
        return self.rng.choice([p.name for p in self.map.powers])

    def letters(self, but: str) -> str:
        others = [p.letter for p in self.map.powers if p.name != but]
        return "".join(self.rng.sample(others, self.rng.randint(1, 3)))

    def a_press(self, pos: Position, board: Board) -> None:
        power = self.some_power()
        st = self.setup
        kinds = ["white", "broadcast"]
        if "grey" in st.press:
            kinds += ["grey", "grey broadcast"]
        if st.fake:
            kinds.append("fake")
        if st.postal:
            kinds.append("postal")
        kind = self.rng.choice(kinds)
        grey = kind.startswith("grey") or (kind in ("white", "broadcast") and st.press == "grey/white")
        body = self.press_text(power, grey)
        head = {"white": f"press to {self.letters(power)}", "broadcast": "broadcast",
                "grey": f"press grey to {self.letters(power)}", "grey broadcast": "broadcast grey",
                "fake": f"press to all but {self.letters(power)} fake broadcast", "postal": "postal press"}[kind]
        self.player(power, f"{head}\n{body}\nendpress")

    def a_observer_press(self, pos: Position, board: Board) -> None:
        address = self.rng.choice(list(self.observers))
        self.mail(address, f"signon O{self.name} {self.observers[address]}\nbroadcast\n"
                           f"{self.press_text(None, False)}\nendpress")

    def _lines_for(self, pos: Position, board: Board, power: str) -> list[str]:
        if pos.phase.kind != MOVEMENT:
            return [f"{u.type} {u.location} H" for u in pos.units_of(power)][:3] or ["A xxx H"]
        return random_orders(board, pos, self.rng).get(power) or ["A xxx H"]

    def spelled(self, line: str) -> str:
        """``A war - gal`` as players also write it: ``A War-Gal`` (one word, capitals)."""
        parts = line.split()
        if self.rng.random() < 0.3 and len(parts) == 4 and parts[2] == "-" and "/" not in line:
            return f"{parts[0]} {parts[1].capitalize()}-{parts[3].capitalize()}"
        return line

    def a_advance(self, pos: Position, board: Board) -> None:
        """Orders in advance for the next movement phase (or the one after): plain,
        conditional (on lines, or on one line), or after CLEAR (most often when the phase
        has this power's advance orders already)."""
        power = self.rng.choice(sorted({u.power for u in pos.units.values()}) or [self.some_power()])
        phase = self.next_movement(board, pos)
        if self.rng.random() < 0.25:
            phase = board.rules.calendar.next_movement(phase)
        target = self.phase_words(board, phase)
        lines = [self.spelled(line) for line in self._lines_for(pos, board, power)]
        other = self.rng.choice(sorted(pos.units.values(), key=lambda u: u.province))
        cond = f"{self.map.power(other.power).adjective} {other.province}"
        how = self.rng.random()
        if (power, phase.code) in self.advanced and how < 0.5:
            how = 1.0
        if how < 0.35:
            text = f"phase {target}\n" + "\n".join(lines)
        elif how < 0.55:
            text = (f"phase {target}\nif {cond}\n" + "\n".join(lines) + "\nelse\n"
                    + "\n".join(lines[:1]) + "\nendif")
        elif how < 0.7:
            text = f"phase {target}\nif not {cond} then {lines[0]} else {lines[-1]} endif"
        else:
            text = f"clear\nphase {target}\n" + "\n".join(lines)
        self.advanced.add((power, phase.code))
        self.clean(self.player(power, text), pos, "advance orders refused")

    def a_clear(self, pos: Position, board: Board) -> None:
        power = self.rng.choice([p.name for p in self.map.powers])
        if self.rng.random() < 0.5:
            self.player(power, "clear")
        else:
            self.player(power, f"phase {self.phase_words(board, self.next_movement(board, pos))}\nclear")

    def a_info(self, pos: Position, board: Board) -> None:
        who = self.rng.choice([self.stranger, *self.observers, self.players[self.some_power()]])
        asked = self.rng.choice([*self.players.values(), *self.observers, self.gm])
        text = self.rng.choice(["list", "list full", f"list {self.name}", f"whois {asked}", f"info player {asked}",
                                f"history {self.name}", f"summary {self.name}", f"whogame {self.name}"])
        self.mail(who, text)

    def a_wrong_password(self, pos: Position, board: Board) -> None:
        power = self.some_power()
        line = self._lines_for(pos, board, power)[0]
        self.mail(self.power_of(power), f"signon {self.map.power(power).letter}{self.name} nottheword\n{line}")

    def a_forged(self, pos: Position, board: Board) -> None:
        """The stranger sends with a player's (or the master's) address in From."""
        victim_power = self.some_power()
        victim = self.rng.choice([self.power_of(victim_power), self.gm])
        text = self.rng.choice(["list", f"signon {self.map.power(victim_power).letter}{self.name} guess\n"
                                        + self._lines_for(pos, board, victim_power)[0],
                                f"signon M{self.name} guess\nprocess", f"summary {self.name}"])
        self.mail(victim, text, forged_by=self.stranger)

    def a_setting(self, pos: Position, board: Board) -> None:
        power = self.some_power()
        text = self.rng.choice(["set wait", "set nowait", "set zone Europe/Paris", "set zone America/New_York",
                                "set nopictures", "set pictures", f"set password {self.passwords[power]}",
                                "set zone America/Los_Angeles\nset absence Jan 1 2099 to 9999-12-31"])
        self.player(power, text)

    def a_address(self, pos: Position, board: Board) -> None:
        power = self.some_power()
        self.moves += 1
        self.change_address(power, f"{power.lower().replace(' ', '')}{self.seed}m{self.moves}@soak.test")

    def a_master_setting(self, pos: Position, board: Board) -> None:
        """One to three of the master's settings in one mail (each member is told once)."""
        choices = ["set nmr", "set nonmr", f"set {self.setup.press}", "pause\nset moves delay 0 min 0\nresume", "set list",
                   "set moves delay 0 min 0", "set dias", "set concessions", "set deadline Dec 31 2099",
                   "set deadline 9999-12-31"]
        self.master("\n".join(self.rng.sample(choices, self.rng.randint(1, 3))))

    def a_become(self, pos: Position, board: Board) -> None:
        power = self.some_power()
        self.master(f"become {power}\n" + "\n".join(self._lines_for(pos, board, power)))

    def a_predict(self, pos: Position, board: Board) -> None:
        self.master("predict")

    def a_rollback(self, pos: Position, board: Board) -> None:
        with self.sessions() as s:
            seq = self.game(s).seq
        if self.rollbacks < 2 and seq > 1:
            self.rollbacks += 1
            self.master("rollback")

    def a_process(self, pos: Position, board: Board) -> None:
        self.master("process")

    # -- the checks after each mail ------------------------------------------------------------

    def check_mail(self, sent: Sent) -> None:
        self.check_answered(sent)
        self.check_told(sent)
        with self.sessions() as s:
            game = find_game(s, self.name)
            if game is None:
                return
            masters = {p.email.lower() for p in game.players if p.role == MASTER}
            secret = self.unprocessed_orders(s, game)
            over = game.status in ("finished", "terminated")
            identities = [] if over or not game.gunboat else [
                (p.email.lower(), p.power) for p in game.players if p.role == PLAYER and p.power]
            holder = {p.email.lower(): p.power for p in game.players if p.role == PLAYER and p.power}
            for m in sent.mails:
                for to in m.to.lower().split(","):
                    if to in masters:
                        continue
                    self.check_secrets(sent, m, to, holder.get(to), secret, identities, game.seq)
                self.check_counts(s, game, sent, m)
        self.check_web(sent)

    def check_answered(self, sent: Sent) -> None:
        replies = [m for m in sent.mails if m.in_reply_to == sent.message_id and m.to.lower() == sent.sender.lower()]
        if len(replies) != 1:  # (a copy to another address, SET ADDRESS's new one, is no second reply)
            self.problem("answered once", f"{sent.label} got {len(replies)} replies "
                                          f"(inbox row {sent.status} {sent.note!r})")
        for m in sent.mails:
            slip = re.search(r".*(\bNone\b|\{\{|\{%|Traceback).*", m.body)
            if slip:
                self.problem("text slip", f"{sent.label}: the mail to {m.to} ({m.subject!r}) has {slip[0].strip()!r}")
        notices: dict[str, list[str]] = {}
        for m in sent.mails:
            if m.in_reply_to != sent.message_id and not NOT_NOTICES.search(m.subject):
                notices.setdefault(m.to.lower(), []).append(m.subject)
        for to, subjects in notices.items():
            if len(subjects) > 1:
                self.problem("one notice", f"{sent.label}: {to} (and maybe others) got {len(subjects)} notices: "
                                           f"{sorted(subjects)}", same=str(sent.number))
        if sent.status != "done" or sent.attempts > 1:
            self.problem("inbox row", f"{sent.label}: inbox row {sent.status} after {sent.attempts} tries: "
                                      f"{sent.note[:200]!r}")

    def stored_orders(self) -> tuple[str | None, dict[str, list[str]]]:
        with self.sessions() as s:
            game = find_game(s, self.name)
            return (None, {}) if game is None else (game.phase, self.unprocessed_orders(s, game, secret=False))

    def check_told(self, sent: Sent) -> None:
        """A player's reply lists the power's order set as it is now stored: the sender is
        told exactly which orders stand (issue 23: "the sender is told which")."""
        reply = next((m for m in sent.mails if m.in_reply_to == sent.message_id), None)
        power = sent.acting
        phase, after = self.stored_orders()
        if reply is None or power is None or phase != sent.read_in:
            return
        with self.sessions() as s:
            seq = self.game(s).seq
        heads = [h for h in ECHO_RE.finditer(reply.body) if h[1] == self.name and int(h[2]) == seq]
        if not heads:
            return
        told = []
        for line in reply.body[heads[-1].end():].lstrip("\n").splitlines():
            if not line.startswith(f"{power}:"):
                break
            if not line.endswith(("No Order Processed.", "No orders are needed from you in this phase.",
                                  "No orders received yet.")):
                told.append(line[len(power) + 1:].strip())
        stored = after.get(power, [])
        if sorted(told) != sorted(stored):
            self.problem("told which", f"{sent.label}: the reply lists {power}'s orders as {told}; stored: {stored}")

    def unprocessed_orders(self, s: Any, game: Game, *, secret: bool = True) -> dict[str, list[str]]:
        """Per power, its stored orders of the current phase as the judge echoes them; when
        ``secret``, not those everyone was mailed in the results a ROLLBACK withdrew."""
        if not game.phase:
            return {}
        m = self.board(game).map
        mailed = {(power, describe(m, order_from_json(e["order"])))
                  for r in phase_records(s, game, withdrawn=True) if secret and r.phase == game.phase
                  for power, entries in r.orders.items() for e in entries}
        return {power: [line for e in stored.entries
                        if (power, line := describe(m, order_from_json(e["order"]))) not in mailed]
                for power, stored in order_sets(s, game, game.phase).items()}

    def check_secrets(self, sent: Sent, m: Mail, to: str, own: str | None, secret: dict[str, list[str]],
                      identities: list[tuple[str, str]], seq: int) -> None:
        where = f"{sent.label}: the mail to {to} ({m.subject!r})"
        heads = [(h.start(), h[1], int(h[2])) for h in NUMBERED_RE.finditer(m.body)]
        for power, lines in secret.items():
            if power == own or m.subject.endswith(" Results"):
                continue
            for line in lines:
                for found in re.finditer(rf"^{re.escape(power)}:\s+{re.escape(line)}\s*$", m.body, re.MULTILINE):
                    head = next((h for h in reversed(heads) if h[0] < found.start()), None)
                    if head is not None and head[1] == self.name and head[2] < seq:
                        continue  # under the header of a phase processed already (HISTORY)
                    self.problem("orders shown", f"{where} shows {power}'s unprocessed order {line!r}")
                    break
                else:
                    continue
                break
        for token, author in self.grey.items():
            if token in m.body and to != self.players.get(author, "").lower() and own != author:
                leak = self.grey_author(f"{m.subject}\n{m.body}", token, author)
                if leak:
                    self.problem("grey author", f"{where} names {author} as the author of grey press: {leak!r}")
        for address, power in identities:
            if address == to or address not in m.body.lower() or (power == sent.acting and to == sent.sender.lower()):
                continue
            if re.search(rf"\b{re.escape(power)}\b", m.body):
                self.problem("gunboat identity", f"{where} shows {address} beside {power}")
            elif address not in sent.text.lower():  # an address the reader asked about is echoed
                self.problem("gunboat identity", f"{where} shows the player's address {address}")

    def grey_author(self, text: str, token: str, author: str) -> str:
        """The part of ``text`` before a copy of ``token`` (back to the previous press) that
        names ``author`` as its sender; else ''."""
        letter = self.map.power(author).letter
        for copy in re.finditer(re.escape(token), text):  # a page may show it more than once
            at = copy.start()
            start = max((t.end() for t in re.finditer(rf"soak{self.seed}x\d+q", text[:at])), default=0)
            window = text[max(start, at - 600):at]
            for pattern in (rf"\bfrom {re.escape(author)}\b", rf"\bas {re.escape(author)}\b", "Master's copy",
                            re.escape(self.players[author]), rf"Press from {letter}$"):
                found = re.search(pattern, window, re.IGNORECASE | re.MULTILINE)
                if found:
                    return window[max(0, found.start() - 40):found.end() + 40].strip()
        return ""

    def check_counts(self, s: Any, game: Game, sent: Sent, m: Mail) -> None:
        """Each count line against the engine, for the position it describes: after the phase
        of the result header above it (replayed from that phase's record: HISTORY holds many,
        and a rolled-back phase's too), else the current position (LIST)."""
        heads = [(h.start(), h[1], int(h[2])) for h in RESULT_RE.finditer(m.body)]
        cache: dict[int | None, list[tuple[Position, Board, str]]] = {}
        for line in COUNT_RE.finditer(m.body):
            head = next((h for h in reversed(heads) if h[0] < line.start()), None)
            seq = head[2] if head is not None and head[1] == game.name else None
            if m.subject.endswith(" Prediction"):
                seq = -1
            if seq not in cache:
                cache[seq] = self.predicted(s, game) if seq == -1 else self.described_positions(s, game, seq)
            power, centres, units, word, n = line.groups()
            got = (int(centres), int(units), int(n) if word == "Builds" else -int(n))
            wants = [((centre_counts(board, pos.owners).get(power, 0), len(pos.units_of(power)),
                       adjustment_counts(board, pos).get(power, 0)), what) for pos, board, what in cache[seq]]
            if wants and all(got != want for want, _ in wants):
                want, what = wants[0]
                self.problem("counts", f"{sent.label}: {m.subject!r} ({what}) says {power}: {got[0]} centres, "
                                       f"{got[1]} units, {got[2]:+d}; the engine: {want[0]} centres, {want[1]} units, "
                                       f"{want[2]:+d}")
        if "Supply centers owned:" in m.body:
            self.check_summary(s, game, sent, m)

    def predicted(self, s: Any, game: Game) -> list[tuple[Position, Board, str]]:
        """PREDICT's position: the current phase adjudicated with the orders in."""
        board = self.board(game)
        if game.position is None or not game.phase:
            return []
        pos = Position.from_json(board.map, game.position)
        orders = [order_from_json(e["order"]) for stored in order_sets(s, game, game.phase).values()
                  for e in stored.entries]
        return [(adjudicate(board, pos, orders).next, board, f"{game.phase} predicted")]

    def described_positions(self, s: Any, game: Game, seq: int | None) -> list[tuple[Position, Board, str]]:
        """The positions after the phase(s) numbered ``seq`` (a rollback leaves more than one),
        replayed from their records; the current position when there is none."""
        out = []
        records = [*phase_records(s, game), *phase_records(s, game, withdrawn=True)] if seq is not None else []
        for record in records:
            if record.seq == seq:
                board = self.board(game, record.options or {})
                out.append((self.replayed(board, record), board, f"after {record.phase}"))
        if not out and game.position is not None:
            board = self.board(game)
            out.append((Position.from_json(board.map, game.position), board, f"at {game.phase}"))
        return out

    def replayed(self, board: Board, record: PhaseRecord) -> Position:
        pos = Position.from_json(board.map, record.position)
        orders = [e.order for entries in entries_from_json(record.orders).values() for e in entries]
        return adjudicate(board, pos, orders).next

    def check_summary(self, s: Any, game: Game, sent: Sent, m: Mail) -> None:
        board = self.board(game)
        known = {r.phase: Position.from_json(board.map, r.position) for r in phase_records(s, game)}
        if game.position is not None and game.phase:
            known[game.phase] = Position.from_json(board.map, game.position)
        powers = [p.name for p in self.map.powers]
        body = m.body.split("Supply centers owned:", 1)[1]
        for code, numbers in re.findall(r"^([SFWU]\d{4}[MRB])((?:\s+\d+)+)\s*$", body, re.MULTILINE):
            pos = known.get(code)
            if pos is None:
                continue
            got = [int(n) for n in numbers.split()]
            want = [centre_counts(board, pos.owners).get(p, 0) for p in powers]
            if got != want:
                self.problem("counts", f"{sent.label}: {m.subject!r} summary row {code} says {got}; "
                                       f"the stored position: {want}")

    # -- the web archive ------------------------------------------------------------------------

    def check_web(self, sent: Sent) -> None:
        with self.sessions() as s:
            game = find_game(s, self.name)
            if game is None or not game.phase:
                return
            secret = self.unprocessed_orders(s, game)
            done = [r.phase for r in phase_records(s, game)]
        for path in (f"/games/{self.name}", f"/games/{self.name}/{game.phase}"):
            self.check_page(sent, path, secret)
        if sent.read_in != game.phase or sent.number % 10 == 0:  # (the rest all at the end)
            self.check_page(sent, "/", secret)
            if done:  # a processed phase's page shows its orders: no check of orders there
                self.check_page(sent, f"/games/{self.name}/{done[-1]}", {})

    def check_page(self, sent: Sent, path: str, secret: dict[str, list[str]]) -> None:
        status, _, raw = self.archive.get(path)
        where = f"{sent.label}: the web page {path}"
        if status != 200:
            if status >= 500:
                self.problem("web", f"{where} answered {status}")
            return
        text = html.unescape(TAG_RE.sub("", raw.decode("utf-8", "replace")))
        if TRACE and sent is self.sent[-1] and self.over:
            with open(TRACE, "a", encoding="utf-8") as out:
                out.write(f"=== page {path}\n{text}\n")
        lowered = text.lower()
        for address in sorted(self.addresses):
            if address.lower() in lowered:
                self.problem("web address", f"{where} shows the address {address}", same=f"{path} {address}")
        unmailed = html.unescape(TAG_RE.sub("", WITHDRAWN_RE.sub("", raw.decode("utf-8", "replace"))))
        for power, lines in secret.items():
            for line in lines:
                if re.search(rf"^\s*{re.escape(power)}:\s+{re.escape(line)}\s*$", unmailed, re.MULTILINE):
                    self.problem("orders shown", f"{where} shows {power}'s unprocessed order {line!r}",
                                 same=f"{path} {power} {line}")
                    break
        for token, author in self.grey.items():
            if token in text:
                leak = self.grey_author(text, token, author)
                if leak:
                    self.problem("grey author", f"{where} names {author} as the author of grey press: {leak!r}",
                                 same=f"{path} {token}")

    # -- at the end ------------------------------------------------------------------------------

    def final_checks(self) -> None:
        with self.sessions() as s:
            for row in s.scalars(select(InboxMessage).where(InboxMessage.status.in_(("failed", "quarantined", "new"))
                                                            | (InboxMessage.attempts > 1))):
                self.problem("inbox row", f"at the end the inbox row of {row.message_id} is {row.status} after "
                                          f"{row.attempts} tries: {(row.note or '')[:200]!r}")
            game = self.game(s)
            records = phase_records(s, game)
            if not records:
                self.problem("replay", "no phase was stored")
                return
            for i, record in enumerate(records):
                board = self.board(game, record.options or {})
                nxt = self.replayed(board, record).to_json(board.map)
                stored = records[i + 1].position if i + 1 < len(records) else game.position
                if stored != nxt:
                    label = records[i + 1].phase if i + 1 < len(records) else f"the game's position ({game.phase})"
                    self.problem("replay", f"replaying {record.phase} (#{record.seq}) does not give {label}: "
                                           f"{_diff(nxt, stored)}")
        self.over = True
        for path in ("/", f"/games/{self.name}", *(f"/games/{self.name}/{r.phase}" for r in records)):
            self.check_page(self.sent[-1], path, {})


def _diff(want: dict[str, Any], got: dict[str, Any] | None) -> str:
    if got is None:
        return "nothing stored"
    keys = sorted(set(want) | set(got))
    return "; ".join(f"{k}: engine {want.get(k)!r} stored {got.get(k)!r}" for k in keys if want.get(k) != got.get(k))[:400]
