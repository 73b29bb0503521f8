"""judge: a play-by-email Diplomacy judge."""

__version__ = "0.1.0"
