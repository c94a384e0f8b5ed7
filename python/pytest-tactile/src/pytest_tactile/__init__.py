"""pytest-tactile: test touch apps under a headless Tactile, through the `tactile` CLI."""

from . import scripts
from .session import Tactile, Window

__all__ = ["Tactile", "Window", "scripts"]
__version__ = "0.1.0"
