"""What every terminal player session shares: reading answers and printing messages.

The drafting game (:mod:`.human`) and the card-structure game
(:mod:`.structure_human`) show different tables and ask different questions,
but both read a line through an injectable ``ask`` function (tests feed
scripted answers), treat end of input and the quit words alike, and print
errors the same way.
"""

from __future__ import annotations

from typing import Callable, Generic, Sequence, TypeVar, cast

from rich.console import Console
from rich.table import Table
from rich.text import Text

from wonders.bots import Bot
from wonders.dsl import describe
from wonders.dsl.errors import closest
from wonders.dsl.model import Card
from wonders.engine.actions import Action, CopyCard, DestroyCard, PayOrTake, TakeToken
from wonders.engine.contract import GameState

Ask = Callable[[str], str]
QUIT_WORDS = {"quit", "exit", "q", ":q"}
HELP_WORDS = {"help", "?", "h"}
BACK_WORDS = {"back", "cancel"}
SHOW_WORDS = {"show", "look", "table", "hand", "l"}
GameT = TypeVar("GameT")
T = TypeVar("T")



MAX_DIGITS = 9  # a typed number longer than this is out of every range (never int() of it)


def as_number(text: str) -> int | None:
    """``text`` as a whole number when it is one (an optional ``-`` and ASCII digits), else
    None.  Defensive: ``--5``, ``²`` or ``٣`` are not numbers, and a number of more than
    :data:`MAX_DIGITS` digits is returned as one beyond any list (not converted)."""
    text = text.strip()
    body = text[1:] if text.startswith("-") else text
    if not body or not body.isascii() or not body.isdigit():
        return None
    value = int(body) if len(body) <= MAX_DIGITS else 10 ** MAX_DIGITS
    return -value if text.startswith("-") else value

class Quit(Exception):
    """The player left the game (a quit word, or end of input)."""


class TerminalSession(Generic[GameT]):
    """A human at ``seat`` of ``game``; ``bots`` play the other seats.

    A turn is read the same way in every game: a card of those on offer (by
    number or name), optionally led by a verb (``build 3``); without a verb the
    session asks what to do with the card.  Subclasses say which cards are on
    offer, how a name is found among them, which verbs exist and what each does.
    """

    help_text = ""
    verbs: frozenset[str] = frozenset()  # words that may lead a one-line move

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

    def find(self, text: str, items: Sequence[T], names: Sequence[str], what: str, *,
             several: str = "", where: str = "here", listed: str = "the list") -> T | None:
        """An item by number or name (case-insensitive, unique prefix of the name or of
        one of its words); explains a miss with a "did you mean".  ``several``,
        ``where`` and ``listed`` word the messages ("matches several cards", "in your
        hand", "from the table")."""
        number = as_number(text)
        if number is not None:
            if 1 <= number <= len(items):
                return items[number - 1]
            shown = text if len(text) <= 12 else text[:12] + "…"
            self.error(f"There is no {what} {shown}: choose a number from 1 to {len(items)}.")
            return None
        lowered = text.lower()
        for item, name in zip(items, names):
            if name.lower() == lowered:
                return item
        distinct = list(dict.fromkeys(names))
        starts = [n for n in distinct if n.lower().startswith(lowered)]
        if not starts:
            starts = [n for n in distinct
                      if any(w.lower().startswith(lowered) for w in n.split())]
        if len(starts) == 1:
            return items[list(names).index(starts[0])]
        if len(starts) > 1:
            self.error(f"'{text}' matches several{several}: {', '.join(starts)}. Type more "
                       "of the name or its number.")
            return None
        hint = closest(text, names)
        message = f"No {what} '{text}' {where}."
        if hint:
            message += f" Did you mean '{hint}'?"
        self.error(message + f" Choose 1–{len(items)} or a name from {listed}.")
        return None

    def read_verb(self, prompt: str, verbs: frozenset[str] | set[str], wrong: str) -> str | None:
        """Ask what to do with a chosen card: one of ``verbs``; None (Enter, back or
        cancel) to choose another card; help prints the help; ``wrong`` explains a miss."""
        while True:
            answer = self.read(prompt).lower()
            if not answer or answer in BACK_WORDS:
                return None
            if answer in HELP_WORDS:
                self.console.print(self.help_text)
                continue
            if answer in verbs:
                return answer
            self.error(f"'{answer}' is not an action: {wrong}")

    def pick(self, prompt: str, items: Sequence[T], names: Sequence[str], what: str,
             help_text: str, show: Callable[[], None] | None = None) -> T:
        """Ask until the player names one of ``items``; ``show`` prints the choice again."""
        while True:
            text = self.read(prompt)
            if not text:
                self.error(f"Type a number from 1 to {len(items)} or a name.")
                continue
            if text.lower() in HELP_WORDS:
                self.console.print(help_text)
                continue
            if text.lower() in SHOW_WORDS:
                (show or self.show_table)()
                continue
            found = self.find(text, items, names, what)
            if found is not None:
                return found

    # --- follow-up choices effects ask for (the same in every game) -------------------

    def choose_token(self) -> Action:
        """A ``take … token`` effect: which of the offered tokens to take."""
        options = [a for a in self.legal() if isinstance(a, TakeToken)]
        self.show_cities()
        table = Table(title="You take a token", show_lines=True)
        for header in ("#", "token", "kind", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(options, 1):
            token = action.token
            table.add_row(str(number), Text(token.name, style="bold"), token.kind,
                          describe.effects(token.effects))
        self.console.print(table)
        return self.pick(f"Take which token — 1–{len(options)} or name: ", options,
                         [a.token.name for a in options], "token",
                         "Type the number or name of the token you take; its effect is yours "
                         "from now on.")

    def choose_debt(self) -> Action:
        """A ``loses N coins or KIND tokens`` effect: how many of the coins to pay (a token
        for each coin not paid)."""
        options = [a for a in self.legal() if isinstance(a, PayOrTake)]
        self.show_cities()
        table = Table(title="You lose coins: pay them, or take a token for each coin not paid")
        for header in ("#", "coins paid", "tokens taken"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(options, 1):
            table.add_row(str(number), str(action.coins), f"{action.tokens} {action.kind}")
        self.console.print(table)
        return self.pick(f"Which — 1–{len(options)}: ", options,
                         [f"pay {a.coins}" for a in options], "choice",
                         "Type the number of the line: the coins you pay to the bank; you "
                         "take one token for each coin you do not pay.")

    def choose_destroy(self) -> Action:
        """A ``destroy`` effect: which of the other cities' cards goes to the discard pile."""
        return self._choose_city_card(
            [a for a in self.legal() if isinstance(a, DestroyCard)],
            "You destroy a card of another city (it goes to the discard pile)",
            "Destroy", "Type the number or name of the card to discard.")

    def choose_copy(self) -> Action:
        """A ``now: copy …`` effect: which card of another city to copy (its whole effect
        becomes yours too; its owner keeps it)."""
        return self._choose_city_card(
            [a for a in self.legal() if isinstance(a, CopyCard)],
            "You copy a card of another city: its whole effect is yours too (its owner "
            "keeps it)",
            "Copy", "Type the number or name of the card whose effect you copy.")

    def _choose_city_card(self, options: Sequence[DestroyCard | CopyCard], title: str, verb: str,
                          help_text: str) -> Action:
        """One card of the other cities (``options``: actions with ``card`` and
        ``seat``), shown with its city and effect; a name shared by two cities is told
        apart by the city."""
        self.show_cities()
        table = Table(title=title)
        for header in ("#", "card", "city", "colour", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(options, 1):
            table.add_row(str(number), Text(action.card.name, style="bold"),
                          self.city_label(action.seat), action.card.colour,
                          describe.effects(action.card.effects))
        self.console.print(table)
        names = [a.card.name if [b.card.name for b in options].count(a.card.name) == 1
                 else f"{a.card.name} ({self.city_label(a.seat)})" for a in options]
        return self.pick(f"{verb} which card — 1–{len(options)} or name: ", options, names,
                         "card", help_text)

    def legal(self) -> list[Action]:
        return cast("list[Action]", self.game_state().legal_actions(self.seat))

    def game_state(self) -> GameState:
        assert isinstance(self.game, GameState)
        return self.game

    def show_cities(self) -> None:
        """The cities a choice is about (each game shows them its own way)."""
        raise NotImplementedError

    def city_label(self, seat: int) -> str:
        """How a city is named in a choice: the player's own, or another seat's."""
        raise NotImplementedError

    # --- a turn ----------------------------------------------------------------------

    def _turn_input(self) -> Action | None:
        """One turn's answer as an action, or None after help, the table or a mistake."""
        cards = self.offered_cards()
        text = self.read(f"Your move — card 1–{len(cards)} or name (help, show, quit): ")
        if not text:
            self.error(f"Type a card number (1–{len(cards)}) or name; 'help' explains more.")
            return None
        lowered = text.lower()
        if lowered in HELP_WORDS:
            self.console.print(self.help_text)
            return None
        if lowered in SHOW_WORDS:
            self.show_table()
            return None
        verb: str | None = None
        first, _, rest = text.partition(" ")
        if first.lower() in self.verbs and rest.strip():
            verb, text = first.lower(), rest.strip()
        card = self.find_offered(text, cards)
        if card is None:
            return None
        if verb is None:
            verb = self._ask_verb(card)
            if verb is None:
                return None
        return self._action_for(card, verb)

    def offered_cards(self) -> list[Card]:
        raise NotImplementedError

    def find_offered(self, text: str, cards: Sequence[Card]) -> Card | None:
        raise NotImplementedError

    def show_table(self) -> None:
        raise NotImplementedError

    def _ask_verb(self, card: Card) -> str | None:
        raise NotImplementedError

    def _action_for(self, card: Card, verb: str) -> Action | None:
        raise NotImplementedError
