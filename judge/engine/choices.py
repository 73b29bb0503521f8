"""The DATC 3.0 choices (section 4) the engine makes, each a game option read where it applies.

The DATC leaves some rules open, names the readings and states a preference. Each open rule
is a game option whose default is the DATC's preference, so that a game (or a case file's
``OPTIONS`` line) may play another reading; :class:`DatcChoices` is the frozen view of them
that a :class:`~judge.engine.board.Board` carries, and the engine reads it where each rule
applies:

- ``convoy_disruption`` (4.A.1), ``paradox_rule`` (4.A.2), ``adjacent_convoy`` (4.A.3),
  ``convoyed_attack`` (4.A.4), ``convoy_path`` (4.A.6), ``dislodged_bounce`` (4.A.7): the
  movement resolver, ``adjudicator.py``;
- ``convoy_origin_retreat`` (4.A.5): ``retreats.retreat_options``;
- ``adjustment_surplus`` (4.D.4-4.D.6) and ``civil_disorder`` (4.D.8): ``adjustments.py``.

The readings, as the DATC describes them:

- 4.A.1 ``one_route``: a convoy with several routes is disrupted when a fleet on any of its
  routes is dislodged (1971); a fleet ordered to convoy that lies on no route does not count
  (6.F.12).
- 4.A.2 ``1982``: a convoyed army does not cut the support of a fleet supporting an action
  in a body of water that holds a convoying fleet. ``2000`` (also the 2023 rulebook): a
  convoyed army does not cut the support of a unit supporting an attack on a fleet its
  convoy needs (one without which no route is left). Both keep the Szykman rule as the
  backup for what they leave open (DATC: the 2000 rule has no answer for second-order
  paradoxes, 6.F.22-24, nor the betrayal paradox, 6.F.18).
- 4.A.3 ``fallback``: intent as in 2023 ("via convoy", or a fleet of the army's power
  convoys it), but when no convoy route is left the army takes the land route (DATC 2).
  ``explicit``: only "via convoy" makes an army to an adjacent province go by convoy (DPTG).
  ``1971``: the convoy route is taken when a convoy is ordered, by anyone, and the unit in
  the destination moves the other way, and only while the convoy is not disrupted; "via
  convoy" means nothing.
- 4.A.4 ``from_sea``: an army convoyed from the province a support is aimed at cuts it.
- 4.A.5 ``no``: a unit dislodged by a convoyed army may not retreat to that army's origin.
- 4.A.6 ``binding``: a written convoy path (``A lon - nth - bel``) is the only one the army
  takes; ``required``: a convoyed move without a written path fails.
- 4.A.7 ``never``: a dislodged unit has no effect on the province its attacker came from,
  head-to-head battle or not (the literal rulebook).
- 4.D.4-4.D.6 ``last``: of too many builds or removals (or two builds in one province) the
  last legal ones count; ``void``: all of them fail (surplus removals then follow the
  civil-disorder rule).
- 4.D.8 ``2000``: the rule judges used before 2023 (DATC 2): distance to the nearest home
  centre, owned or not; armies count moves over land and sea, fleets only fleet moves.

Choices the engine makes with no alternative to play (applied by the parser and validation):
4.B.1-4.B.3 a fleet's missing coast is filled in only when one coast is reachable; 4.B.4
supports name provinces; 4.B.5/4.B.6 wrong or irrelevant coasts are ignored; 4.B.7 a fleet
built on a split coast needs its coast; 4.C.1-4.C.6 missing or wrong unit types and
nationalities are ignored, a build without a type builds an army (a fleet where a coast is
written), a fleet cannot be built inland; 4.D.3 a unit ordered twice holds (the mail judge
keeps a player's last line instead, see ``judge.game``); 4.D.7 builds may be waived; 4.D.9 a
unit in civil disorder can receive hold support; 4.E.1 an illegal order is ignored and the
unit holds; 4.E.3-4.E.5 no implicit, perpetual or proxy orders.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import Options, OptionSpec, declare

ALL_ROUTES, ONE_ROUTE = "all_routes", "one_route"
SZYKMAN, RULE_1982, RULE_2000 = "szykman", "1982", "2000"
INTENT_2023, FALLBACK, EXPLICIT, RULE_1971 = "2023", "fallback", "explicit", "1971"
FROM_ORIGIN, FROM_SEA = "from_origin", "from_sea"
PATH_IGNORED, PATH_BINDING, PATH_REQUIRED = "ignored", "binding", "required"
UNLESS_HEAD_TO_HEAD, NEVER = "unless_head_to_head", "never"
FIRST, LAST, VOID_ALL = "first", "last", "void"
DISORDER_2023, DISORDER_2000 = "2023", "2000"


def _choice(name: str, default: str | bool, values: tuple[str, ...] | None, text: str) -> None:
    declare(OptionSpec(name, default, values, text))


_choice("convoy_disruption", ALL_ROUTES, (ALL_ROUTES, ONE_ROUTE),
        "DATC 4.A.1: a convoy with several routes fails when all_routes are disrupted "
        "(preferred) or when one_route is (1971 rules).")
_choice("paradox_rule", SZYKMAN, (SZYKMAN, RULE_1982, RULE_2000),
        "DATC 4.A.2: convoy paradoxes. szykman (preferred): the convoying fleets of the paradox "
        "hold; 1982: a convoyed army does not cut a fleet's support of an action in a sea holding "
        "a convoying fleet; 2000: a convoyed army does not cut a support of an attack on a fleet "
        "its convoy needs.")
_choice("adjacent_convoy", INTENT_2023, (INTENT_2023, FALLBACK, EXPLICIT, RULE_1971),
        "DATC 4.A.3: an army moving to an adjacent province goes by convoy when its order says "
        "'via convoy' or its own power's fleet convoys it, with no fallback to the land route "
        "(2023, preferred); fallback: the same, but the land route when the convoy fails; "
        "explicit: only with 'via convoy'; 1971: when any convoy is ordered and the unit there "
        "moves the other way.")
_choice("convoyed_attack", FROM_ORIGIN, (FROM_ORIGIN, FROM_SEA),
        "DATC 4.A.4: a convoyed army attacks from_origin (preferred: it cannot cut a support "
        "of an attack on its own province) or from_sea (it can).")
_choice("convoy_origin_retreat", True, None,
        "DATC 4.A.5: a unit dislodged by a convoyed army may retreat to that army's origin "
        "(yes, preferred; 2023 rules).")
_choice("convoy_path", PATH_IGNORED, (PATH_IGNORED, PATH_BINDING, PATH_REQUIRED),
        "DATC 4.A.6: a written convoy path (A lon - nth - bel) is ignored (preferred), binding "
        "(the army takes only that path), or required (a convoy without one fails).")
_choice("dislodged_bounce", UNLESS_HEAD_TO_HEAD, (UNLESS_HEAD_TO_HEAD, NEVER),
        "DATC 4.A.7: a dislodged unit still bounces a unit in the province its attacker came "
        "from unless_head_to_head (preferred), or never.")
_choice("adjustment_surplus", FIRST, (FIRST, LAST, VOID_ALL),
        "DATC 4.D.4-4.D.6: of too many builds or removals the first legal ones count "
        "(preferred), the last ones, or none (void).")
_choice("civil_disorder", DISORDER_2023, (DISORDER_2023, DISORDER_2000),
        "DATC 4.D.8: civil-disorder removals by distance to the nearest owned centre over land "
        "and sea (2023, preferred), or to the nearest home centre, fleets by sea only (2000).")


@dataclass(frozen=True, slots=True)
class DatcChoices:
    """The DATC choices of one game, read from its options (see the module text)."""

    convoy_disruption: str = ALL_ROUTES
    paradox_rule: str = SZYKMAN
    adjacent_convoy: str = INTENT_2023
    convoyed_attack: str = FROM_ORIGIN
    convoy_origin_retreat: bool = True
    convoy_path: str = PATH_IGNORED
    dislodged_bounce: str = UNLESS_HEAD_TO_HEAD
    adjustment_surplus: str = FIRST
    civil_disorder: str = DISORDER_2023

    @classmethod
    def of(cls, options: Options) -> DatcChoices:
        return cls(
            convoy_disruption=str(options["convoy_disruption"]),
            paradox_rule=str(options["paradox_rule"]),
            adjacent_convoy=str(options["adjacent_convoy"]),
            convoyed_attack=str(options["convoyed_attack"]),
            convoy_origin_retreat=bool(options["convoy_origin_retreat"]),
            convoy_path=str(options["convoy_path"]),
            dislodged_bounce=str(options["dislodged_bounce"]),
            adjustment_surplus=str(options["adjustment_surplus"]),
            civil_disorder=str(options["civil_disorder"]),
        )
