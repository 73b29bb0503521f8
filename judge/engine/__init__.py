"""The rules of Diplomacy, pure: maps, positions, orders, adjudication, variants.

Public API::

    from judge.maps import load_board
    from judge.engine import Options, adjudicate, initial_position
    from judge.engine.parser import parse_order
    from judge.engine.validation import check_order

    board = load_board("standard", Options())   # or Board.of(load_map("standard"), options)
    pos = initial_position(board.map)
    order = parse_order(board, pos, "England", "F lon - nth")
    check_order(board, pos, order)
    result = adjudicate(board, pos, [order])    # results per order and the next position

Nothing here does I/O; maps are read by :mod:`judge.maps`.
"""

from .adjustments import centre_counts, tally
from .board import Board
from .choices import DatcChoices
from .map import ARMY, FLEET, Map, Power, Province, coast_of, province_of
from .options import OptionError, Options, option_specs
from .orders import Build, Convoy, Disband, Hold, Move, Order, OrderError, Remove, Retreat, Support, Waive
from .phase import Phase, PhaseError
from .position import Dislodged, Position, PositionError, Unit
from .results import Adjudication, OrderResult, Tally
from .setup import initial_position
from .turn import adjudicate, victors

__all__ = [
    "ARMY", "FLEET", "Adjudication", "Board", "Build", "Convoy", "DatcChoices", "Disband",
    "Dislodged", "Hold", "Map", "Move", "OptionError", "Options", "Order", "OrderError",
    "OrderResult", "Phase", "PhaseError", "Position", "PositionError", "Power", "Province",
    "Remove", "Retreat", "Support", "Tally", "Unit", "Waive", "adjudicate", "centre_counts", "coast_of",
    "initial_position", "option_specs", "province_of", "tally", "victors",
]
