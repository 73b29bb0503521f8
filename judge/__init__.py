"""judge: a play-by-email Diplomacy judge."""

from .version import VERSION as __version__

__all__ = ["__version__"]
