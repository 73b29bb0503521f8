"""The rules of Diplomacy, pure: maps, positions, orders, adjudication, variants.

Public API::

    from judge.maps import load_map
    from judge.engine import Options, Phase, Position, adjudicate, parse_order, check_order

    m = load_map("standard")
    pos = initial_position(m)
    orders = [parse_order(m, pos, "England", "F lon - nth")]
    result = adjudicate(m, pos, orders)      # results per order and the next position

Nothing here does I/O; maps are read by :mod:`judge.maps`.
"""

from .map import ARMY, FLEET, Map, Power, Province, coast_of, province_of
from .options import OptionError, Options, option_specs
from .orders import Build, Convoy, Disband, Hold, Move, Order, OrderError, Remove, Retreat, Support, Waive
from .phase import Phase, PhaseError
from .position import Dislodged, Position, PositionError, Unit
from .results import Adjudication, OrderResult
from .setup import initial_position
from .turn import adjudicate, centre_counts, victors

__all__ = [
    "ARMY", "FLEET", "Adjudication", "Build", "Convoy", "Disband", "Dislodged", "Hold", "Map",
    "Move", "OptionError", "Options", "Order", "OrderError", "OrderResult", "Phase", "PhaseError",
    "Position", "PositionError", "Power", "Province", "Remove", "Retreat", "Support", "Unit",
    "Waive", "adjudicate", "centre_counts", "coast_of", "initial_position", "option_specs",
    "province_of", "victors",
]
