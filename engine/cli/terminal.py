"""What every terminal player session shares: reading answers and printing messages.

The drafting game (:mod:`.human`) and the card-structure game
(:mod:`.structure_human`) show different tables and ask different questions,
but both read a line through an injectable ``ask`` function (tests feed
scripted answers), treat end of input and the quit words alike, and print
errors the same way.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

from rich.console import Console
from rich.text import Text

from ..bots import Bot

Ask = Callable[[str], str]
QUIT_WORDS = {"quit", "exit", "q", ":q"}
GameT = TypeVar("GameT")


class Quit(Exception):
    """The player left the game (a quit word, or end of input)."""


class TerminalSession(Generic[GameT]):
    """A human at ``seat`` of ``game``; ``bots`` play the other seats."""

    def __init__(self, game: GameT, seat: int, bots: dict[int, Bot], console: Console,
                 ask: Ask) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.console = console
        self.ask = ask

    def read(self, prompt: str) -> str:
        """One answer, stripped; a quit word or end of input raises :class:`Quit`."""
        try:
            text = self.ask(prompt)
        except EOFError:
            raise Quit("end of input") from None
        text = text.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit("quit")
        return text

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def error(self, message: str) -> None:
        self.console.print(Text("✗ " + message, style="bold red"))
