"""Players that choose actions from what a real player may see."""

from .random_bot import RandomBot

__all__ = ["RandomBot"]
