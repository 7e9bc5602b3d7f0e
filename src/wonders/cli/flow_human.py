"""A human at the terminal in a game the flow interpreter runs (7 Wonders Architects), against bots.

Each decision shows what the seat may see (``game.view``): your Wonder piece by piece
(built, buildable with its cost, or waiting on the pieces below), your cards by kind,
every seat's pieces, shields, progress tokens, victory tokens and the cat, the decks
with their face-up tops and sizes, the face-up progress tokens and the conflict tokens;
then what the others did since your last decision, and a numbered menu of the legal
moves.  A number or a move's notation (``take left``, ``build 2 pay wood stone``; a
unique beginning is enough) answers; ``q`` quits.  Nothing here names a card, a Wonder
or a token: every word shown is the data's.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Console
from rich.table import Table

from wonders.bots import Bot
from wonders.cli.terminal import HELP_WORDS, SHOW_WORDS, Ask, Quit, TerminalSession, as_number
from wonders.dsl.components_model import (
    CardKind,
    Piece,
    Progress,
    describe_piece,
    describe_progress,
)
from wonders.dsl.components_model import describe_kind as describe_card_kind
from wonders.engine.flow import FlowGame, with_actions
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import conflict, decks
from wonders.engine.mechanisms import pieces as built_pieces
from wonders.engine.notation import NotationError, normal

HELP = """Type the number of a move, or its notation (e.g. 'take left', 'build 2 pay wood
stone'; the beginning of one is enough when only one move starts so), 'show' to see the
table again, 'q' to leave.
Each turn you take the top card of the deck on your left, on your right, or of the
central deck (face down). A Wonder piece is built as soon as your cards pay for it
('different': that many different resources; 'same': that many of one; a coin card
stands for any one missing resource); science cards make sets for progress tokens;
horns on red cards flip conflict tokens, and the last one flipped calls a battle at the
end of the turn. The game ends with the turn in which a Wonder is completed."""


def _cost(piece: Piece) -> str:
    return f"{piece.count} {piece.rule}"


def _piece_effect(piece: Piece) -> str:
    """A piece's effect in words: what ``wonders cards`` says after its cost and points."""
    return "; ".join(describe_piece(piece).split("; ")[2:])


def describe_token(token: Progress) -> str:
    """A progress token's effect in words, as ``wonders cards`` says it."""
    return describe_progress(token)


def describe_kind(kind: CardKind) -> str:
    """What a card kind shows, in words, as ``wonders cards`` says it."""
    return describe_card_kind(kind)


class FlowHuman(TerminalSession[FlowGame]):
    help_text = HELP

    def __init__(self, game: FlowGame, seat: int, bots: dict[int, Bot], console: Console,
                 ask: Ask) -> None:
        super().__init__(game, seat, bots, console, ask)
        self._seen = len(game.records)          # records shown in a recap
        self._battles = len(conflict.state(game).battles)
        self._last: list[dict[str, Any]] | None = None   # every seat as last shown

    def run(self) -> bool:
        game = self.game
        try:
            while not game.over:
                seat = game.to_move()[0]
                move: Any = (self.choose() if seat == self.seat
                             else self.bots[seat].choose(game, seat))
                game.play({seat: move})
        except Quit:
            self.say("You left the game.")
            return False
        self.recap()
        self.scores()
        return True

    # --- names ------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        label = self.game.seats[seat].label()
        return label + (" (you)" if seat == self.seat else "")

    def _where(self, deck: dict[str, Any]) -> str:
        """Where a deck lies, seen from the human's seat."""
        players = self.game.players
        owner = deck["owner"]
        if owner is None:
            return "the middle"
        places = []
        if owner == self.seat:
            places.append("your left")
        if owner == (self.seat - 1) % players:
            places.append("your right")
        if not places:
            places.append(f"between seats {owner} and {(owner + 1) % players}")
        return " and ".join(places)

    # --- what happened ----------------------------------------------------------------

    def recap(self) -> None:
        """The others' moves since the human last chose, what every seat gained or spent
        (the human's own builds and tokens, made at once, too), and the battles fought."""
        game = self.game
        lines = []
        for _, _kind, moves, _coins, _round in map(with_actions, game.records[self._seen:]):
            for seat, move in moves.items():
                if seat != self.seat:
                    lines.append(f"{self.seat_name(seat)}: {self._told(seat, move)}")
        self._seen = len(game.records)
        for counts in conflict.state(game).battles[self._battles:]:
            shown = ", ".join(f"{self.seat_name(s)} {n}" for s, n in enumerate(counts))
            lines.append(f"Battle! shields: {shown}")
        self._battles = len(conflict.state(game).battles)
        seats = self.game.view(self.seat)["seats"]
        if self._last is not None:
            for before, now in zip(self._last, seats):
                change = self._change(before, now)
                if change:
                    who = "You" if now["seat"] == self.seat else self.seat_name(now["seat"])
                    lines.append(f"{who} now: {change}")
        self._last = seats
        if lines:
            self.say("Since your last move:", "bold")
            for line in lines:
                self.say("  " + line, "dim")

    def _told(self, seat: int, move: Move) -> str:
        """Another seat's move, its relative deck named (``take right (the X deck)``)."""
        if move.verb == "take" and move.words and move.words[0] in ("left", "right"):
            name = decks.state(self.game).names[decks.slot_of(self.game, seat, move.words[0])]
            return f"{move} (the {name} deck)"
        return str(move)

    @staticmethod
    def _change(before: dict[str, Any], now: dict[str, Any]) -> str:
        parts = []
        cards = sorted(set(before["cards"]) | set(now["cards"]))
        gained = [f"+{now['cards'].get(k, 0) - before['cards'].get(k, 0)} {k}" for k in cards
                  if now["cards"].get(k, 0) > before["cards"].get(k, 0)]
        lost = [f"-{before['cards'].get(k, 0) - now['cards'].get(k, 0)} {k}" for k in cards
                if now["cards"].get(k, 0) < before["cards"].get(k, 0)]
        parts += gained + lost
        built = [str(i + 1) for i, (b, n) in enumerate(zip(before["built"], now["built"]))
                 if n and not b]
        if built:
            parts.append("built piece " + ", ".join(built))
        tokens = list(now["progress"])
        for name in before["progress"]:
            if name in tokens:
                tokens.remove(name)
        if tokens:
            parts.append("took " + ", ".join(tokens))
        if now["victories"] > before["victories"]:
            parts.append(f"+{now['victories'] - before['victories']} victory tokens")
        if now["cat"] and not before["cat"]:
            parts.append("took the cat")
        return ", ".join(parts)

    # --- showing the table --------------------------------------------------------------

    def show(self) -> None:
        game = self.game
        view = game.view(self.seat)
        self.say(f"Turn {view['turn']} — {game.decision().wording}", "bold")
        mine = view["seats"][self.seat]
        city = game.seats[self.seat]
        wonder = game.wonders[city.wonder]
        raised = built_pieces.raised(game, self.seat)
        pieces = Table(title=f"Your Wonder: {wonder.name} — {sum(raised)} of "
                       f"{len(wonder.pieces)} pieces built")
        for column in ("piece", "cost", "points", "effect", "state"):
            pieces.add_column(column)
        for i, piece in enumerate(wonder.pieces):
            if raised[i]:
                state = "built"
            else:
                waiting = [str(j + 1) for j in piece.rests_on if not raised[j]]
                state = ("next: build it as soon as your cards pay" if not waiting
                         else "on piece " + ", ".join(waiting))
            pieces.add_row(str(i + 1), _cost(piece), str(piece.points),
                           _piece_effect(piece) or "—", state)
        self.console.print(pieces)
        cards = Table(title="Your cards")
        for column in ("colour", "cards"):
            cards.add_column(column)
        by_colour: dict[str, list[str]] = {}
        for kind in game.kinds:
            held = mine["cards"].get(kind.name, 0)
            if held:
                what = describe_kind(kind)
                by_colour.setdefault(kind.colour, []).append(
                    f"{kind.name} ×{held}" + (f" ({what})" if what != kind.name else ""))
        for colour, names in by_colour.items():
            cards.add_row(colour, ", ".join(names))
        if not by_colour:
            cards.add_row("—", "none")
        self.console.print(cards)
        seats = Table(title="Everyone")
        for column in ("seat", "pieces", "shields", "progress tokens", "victory tokens",
                       "cat", "points now"):
            seats.add_column(column)
        sheet = game.score_sheet()
        for row in view["seats"]:
            s = row["seat"]
            seats.add_row(self.seat_name(s),
                          f"{sum(row['built'])}/{len(row['built'])}", str(row["shields"]),
                          ", ".join(row["progress"]) or "—", str(row["victories"]),
                          "yes" if row["cat"] else "", str(sheet.total(s)))
        self.console.print(seats)
        decks = Table(title="Decks")
        for column in ("deck", "lies", "top", "cards"):
            decks.add_column(column)
        for deck in view["decks"]:
            top = deck["top"] or "—"
            if deck["top"] is None and deck["cards"]:
                top = "face down"
            elif not deck["face_up"] and deck["top"] is not None:
                top = f"{deck['top']} (you peek: you hold the cat)"
            decks.add_row(deck["name"], self._where(deck), top, str(deck["cards"]))
        self.console.print(decks)
        tokens = Table(title=f"Progress tokens (face down in the stack: "
                       f"{view['progress']['stack']})")
        for column in ("token", "effect"):
            tokens.add_column(column)
        for name in view["progress"]["face_up"]:
            tokens.add_row(name, describe_token(game.progress[self._token(name)]))
        self.console.print(tokens)
        peace = view["conflict"]["peace"]
        total = peace + view["conflict"]["battle"]
        warning = " — a battle at the end of this turn!" if conflict.state(game).battle else ""
        self.say(f"Conflict: {peace} of {total} tokens at peace{warning}")
        if "looking" in view:
            self.say("You look at: " + ", ".join(view["looking"]), "bold")

    def _token(self, name: str) -> int:
        return next(t for t, token in enumerate(self.game.progress) if token.name == name)

    def describe(self, move: Move) -> str:
        """A move with what it means here."""
        game = self.game
        words = move.words
        if move.verb == "take" and words:
            deck = game.view(self.seat)["decks"][self._slot(words[0])]
            top = deck["top"] or "face down"
            return f"{move} — the {deck['name']} deck (top: {top}, {deck['cards']} cards)"
        if move.verb == "build" and words:
            piece = game.wonders[game.seats[self.seat].wonder].pieces[int(words[0]) - 1]
            return (f"{move} — piece {words[0]} ({_cost(piece)}, {piece.points} points) "
                    f"paid with {', '.join(words[2:]) or 'nothing'}")
        if move.verb == "progress" and words and words[0] != "stack":
            return f"{move} — {words[0]}: {describe_token(game.progress[self._token(words[0])])}"
        if move.verb == "progress" and words:
            return f"{move} — the top token of the face-down stack"
        return str(move)

    def _slot(self, place: str) -> int:
        return decks.slot_of(self.game, self.seat, place)

    # --- asking --------------------------------------------------------------------------

    def choose(self) -> Move:
        game = self.game
        self.recap()
        options: Sequence[Move] = game.legal_actions(self.seat)
        self.show()
        while True:
            self.say(f"Your decision: {game.decision().wording}", "bold")
            for i, move in enumerate(options, 1):
                self.say(f"  {i}. {self.describe(move)}")
            answer = self.read(f"Your choice (1–{len(options)}, a move, help, show, q): ")
            if answer.lower() in HELP_WORDS:
                self.console.print(HELP)
                continue
            if answer.lower() in SHOW_WORDS:
                self.show()
                continue
            if not answer:
                self.error(f"Type a number from 1 to {len(options)} or a move.")
                continue
            number = as_number(answer)
            if number is not None:
                if 1 <= number <= len(options):
                    return options[number - 1]
                self.error(f"Choose a number from 1 to {len(options)}.")
                continue
            found = self._typed(answer, options)
            if found is not None:
                return found

    def _typed(self, text: str, options: Sequence[Move]) -> Move | None:
        """The move a typed notation names (exactly, or the one move it begins)."""
        try:
            found: Move = self.game.parse_action(self.seat, text)
            return found
        except NotationError as exc:
            wanted = normal(text)
            starting = [m for m in options if normal(str(m)).startswith(wanted)]
            if len(starting) == 1:
                return starting[0]
            if len(starting) > 1:
                self.error(f"'{text}' begins {len(starting)} moves: "
                           + ", ".join(str(m) for m in starting[:6])
                           + (" …" if len(starting) > 6 else "") + ". Type more of it.")
                return None
            self.error(str(exc))
            return None

    def scores(self) -> None:
        game = self.game
        sheet = game.score_sheet()
        table = Table(title="Final score sheet")
        table.add_column("")
        for s in range(game.players):
            table.add_column(self.seat_name(s), justify="right")
        for line in sheet.order:
            table.add_row(line, *[str(row[line]) for row in sheet.lines])
        table.add_row("total", *[str(t) for t in sheet.totals])
        table.add_row("pieces", *[str(built_pieces.built(game, s)) for s in range(game.players)])
        self.console.print(table)
        winners = sheet.winners
        self.say("winner" + ("s" if len(winners) > 1 else "") + ": "
                 + ", ".join(self.seat_name(s) for s in winners), "bold")
        if self.seat in winners:
            self.say("You win!" if len(winners) == 1 else "You share the victory!", "bold")
        else:
            self.say("You finished; better luck next time.")


def play_flow_human(game: FlowGame, seat: int, bots: dict[int, Bot],
                    console: Console | None = None, ask: Ask | None = None) -> bool:
    """Play a flow ``game`` with a human at ``seat``; True when played to the end."""
    if console is None:
        import sys

        console = Console(width=None if sys.stdout.isatty() else 120)
    return FlowHuman(game, seat, bots, console, ask or input).run()


__all__ = ["FlowHuman", "describe_kind", "describe_token", "play_flow_human"]
