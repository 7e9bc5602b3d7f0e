"""A human at the terminal in a card-structure game: ``wonders play --game duel --human``.

The table is drawn as it lies: the age's structure row by row, each row offset
by its half-card columns, face-down cards as a card back, the cards that can
be taken numbered; the conflict track with its pawn and the coin tokens still
on it; the tokens on the board; both cities (coins, production and what a
resource costs at the bank, cards by colour, wonders built and not, tokens,
science symbols).  Every decision has its prompt: the wonder draft, a turn
(build, sell, or build a wonder with the card), a token to take, a card to
destroy, a card to build from the discard pile, and who starts the next age.

Only what the human's seat may see is shown: face-down cards stay hidden, and
the cards removed from the age's deck are never named.

Input and output are injectable, as in :mod:`wonders.cli.human`: a rich
``Console`` and an ``ask(prompt)`` function that raises ``EOFError`` at the end
of input.  No card, wonder or token is named here: everything comes from data.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from rich.console import Console
from rich.table import Table
from rich.text import Text

from wonders.bots import Bot
from wonders.cli.human import (
    COLOUR_STYLES,
    ROMAN,
    SELL_WORDS,
    SKIP_WORDS,
    built_by_colour,
    cost_style,
    production_text,
)
from wonders.cli.terminal import BACK_WORDS, HELP_WORDS, Ask, Quit, TerminalSession
from wonders.dsl import describe
from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token, Wonder
from wonders.engine.actions import (
    CHAIN,
    Action,
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    ChooseWonder,
    DestroyCard,
    Sell,
    Skip,
    TakeToken,
)
from wonders.engine.drafted_city import DraftedCity, stage_cost, stage_effects
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import bank, wonder_draft
from wonders.engine.mechanisms import structure as structure_offer
from wonders.engine.mechanisms import track as track_part
from wonders.engine.scoring import amount
from wonders.engine.structure import Structure
from wonders.engine.structure_rules import StructureRules, structure_rules

BUILD_WORDS = {"build", "b"}
WONDER_WORDS = {"wonder", "w"}
ME_WORDS = {"me", "i", "myself", "you"}
OPPONENT_WORDS = {"opponent", "them", "other", "bot", "o"}
CARD_BACK = "▒"
VICTORY_TEXT = {"military": ("military supremacy", "the conflict pawn reached the capital"),
                "science": ("scientific supremacy", "enough different science symbols"),
                "civilian": ("civilian victory", "most points at the end of the game")}

HELP = """\
[bold]How to play a turn[/bold]
  Take one of the numbered cards of the structure (the cards nothing lies on): type its
  number or name (case-insensitive; the start of a name is enough), then what to do with it:
  [bold]b[/bold]uild it, [bold]s[/bold]ell it (discard it for coins), or use it to build one of your
  [bold]w[/bold]onders. Or in one go: [bold]build 3[/bold], [bold]sell lumber[/bold], \
[bold]wonder 2[/bold].
  Resources you do not make are bought from the bank at the price shown in your city
  (2 coins plus one per unit your opponent's brown and grey cards make, in Duel).
  [bold]show[/bold] prints the table again, [bold]quit[/bold] leaves the game."""


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def _coins(n: int) -> str:
    return f"{n} {_plural('coin', n)}"


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def card_text(card: Card, style: str = "bold") -> Text:
    return Text(card.name, style=f"{style} {COLOUR_STYLES.get(card.colour, 'default')}")


def symbols_text(city: DraftedCity) -> str:
    symbols = city.symbols()
    if not symbols:
        return "none"
    return ", ".join(f"{s}×{n}" if n > 1 else s for s, n in sorted(symbols.items())) + \
        f" ({len(symbols)} different)"


def effects_text(effects: fx.Effects) -> str:
    return describe.effects(effects) if effects.clauses else "nothing"


class StructureHumanGame(TerminalSession[FlowGame]):
    """One card-structure game with a human at ``seat`` and a bot at the other seat."""

    help_text = HELP
    verbs = frozenset(BUILD_WORDS | WONDER_WORDS | SELL_WORDS)

    def who(self, seat: int) -> str:
        return "You" if seat == self.seat else "Your opponent"

    # --- what the parts of the game hold (the flow interpreter's) ----------------------

    @property
    def setup(self) -> StructureRules:
        """The rule set's structure parameters (track, pair, limits, coins)."""
        return structure_rules(self.game.data)

    @property
    def laid(self) -> Structure | None:
        """The round's structure (None before the first is laid)."""
        return structure_offer.state(self.game).structure

    @property
    def pawn(self) -> track_part.Track:
        return track_part.state(self.game)

    def legal(self) -> list[Any]:
        """The seat's legal actions (the structure offer's actions)."""
        return list(self.game.legal_actions(self.seat))

    def cost_of(self, seat: int, cost: fx.Cost, discount: int) -> int:
        return bank.state(self.game).cost_of(self.game, seat, cost, discount)

    # --- the game loop ---------------------------------------------------------------

    def run(self) -> bool:
        """Play to the end; False when the player left early."""
        game = self.game
        age = game.age
        try:
            while not game.over:
                (mover,) = game.to_move()
                if mover == self.seat:
                    action = self.choose()
                else:
                    self.console.print(f"[dim]Waiting: your opponent is {game.decision().wording}…"
                                       "[/dim]")
                    action = cast(Action, self.bots[mover].choose(game, mover))
                before = self._snapshot()
                game.play({mover: action})
                self._report(mover, action, before)
                if game.age != age and not game.over:
                    age = game.age
                    if game.to_move() != [self.seat]:  # else the table is shown at once
                        self.console.rule(Text(f"Age {ROMAN.get(age, age)} begins",
                                               style="bold"))
        except Quit as reason:
            what = "input ended" if str(reason) == "end of input" else "you quit"
            where = (f"in age {ROMAN.get(game.age, game.age)}, turn {game.turn}" if game.age
                     else "during the wonder draft")
            self.console.print(f"\n[bold]Game abandoned[/bold] ({what}) {where}. Goodbye!")
            return False
        self.show_scores()
        return True

    def phase(self) -> str:
        return str(self.game.view(self.seat)["phase"])

    def choose(self) -> Action:
        phase = self.phase()
        if phase == wonder_draft.PICK:
            return self.choose_wonder()
        if phase == "token":
            return self.choose_token()
        if phase == "destroy":
            return self.choose_destroy()
        if phase == "discard_build":
            return self.choose_from_discard()
        if phase == track_part.STARTER:
            return self.choose_starter()
        if phase != structure_offer.TURN:   # (a priced row's or a moved card's choice)
            return cast(Action, self.choose_listed())
        self.show_table()
        while True:
            moves = [a for a in self.legal() if isinstance(a, Move)]
            if moves:   # (a priced row's activations, a held token prepared: beside the cards)
                self.show_row()
                for i, move in enumerate(moves, start=1):
                    self.console.print(f"  [bold]a{i}[/bold] {move}")
                verbs = " or ".join(dict.fromkeys(m.verb for m in moves))
                text = self.read(f"{verbs.capitalize()}: a1–a{len(moves)}, or Enter to take "
                                 "a card: ")
                if text:
                    found = self._listed(text, moves, "a")
                    if found is not None:
                        return cast(Action, found)
                    continue
            action = self._turn_input()
            if action is not None:
                return action

    # --- a priced row, and the choices listed by their notation --------------------------

    def show_row(self) -> None:
        """The priced row: each space's item (or face down / empty) and your price."""
        view = self.game.view(self.seat)
        cells = []
        for space in view.get("row", []):
            item = space["item"] or ("face down" if space["filled"] else "empty")
            cells.append(f"{space['space']}: {item} ({space['prices'][self.seat]})")
        if cells:
            self.console.print("Row — " + "; ".join(cells))

    def _listed(self, text: str, moves: Sequence[Any], prefix: str) -> Any:
        lowered = text.strip().lower()
        if lowered.startswith(prefix) and lowered[len(prefix):].isdigit():
            number = int(lowered[len(prefix):])
            if 1 <= number <= len(moves):
                return moves[number - 1]
        for move in moves:
            if str(move).lower() == " ".join(lowered.split()):
                return move
        self.error(f"'{text}' is not one of the choices: type {prefix}1–{prefix}{len(moves)} "
                   "or a choice as written")
        return None

    def choose_listed(self) -> Any:
        """A follow-up choice, each option by its notation (placing an item, a free
        activation, a card or wonder to take, a track space, a chamber …)."""
        moves = self.legal()
        self.show_row()
        self.show_chambers()
        self.show_held()
        self.console.print(f"[bold]{self.game.decision().wording}[/bold]:")
        for i, move in enumerate(moves, start=1):
            self.console.print(f"  [bold]{i}[/bold] {move}")
        while True:
            text = self.read(f"Choose 1–{len(moves)} (or write it): ")
            found = self._listed(text, moves, "")
            if found is not None:
                return found

    # --- the wonder draft ------------------------------------------------------------

    def choose_wonder(self) -> Action:
        options = [a for a in self.legal() if isinstance(a, ChooseWonder)]
        self.show_draft(options)
        numbers = f"1–{len(options)}" if len(options) > 1 else "1"
        return self.pick(f"Choose a wonder — {numbers} or name (quit to leave): ",
                         options, [a.wonder.name for a in options], "wonder",
                         "Type the number or name of the wonder you take into your city; "
                         "you build it later by tucking a card under it.",
                         lambda: self.show_draft(options))

    def show_draft(self, options: Sequence[ChooseWonder]) -> None:
        game = self.game
        self.console.rule(Text("Wonder draft", style="bold"))
        for seat in (self.seat, 1 - self.seat):
            held = game.cities[seat].wonders
            self.console.print(f"{self.who(seat)} hold{'s' if seat != self.seat else ''}: "
                               + (", ".join(w.name for w in held) or "no wonder yet"))
        table = Table(title="Choose a wonder", show_lines=True)
        for header in ("#", "wonder", "cost", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(options, 1):
            wonder = action.wonder
            table.add_row(str(number), Text(wonder.name, style="bold"),
                          describe.cost(stage_cost(wonder)), effects_text(stage_effects(wonder)))
        self.console.print(table)

    # --- a turn ----------------------------------------------------------------------

    def accessible(self) -> list[Card]:
        """The cards that can be taken, in the order they are drawn (row by row)."""
        structure = self.laid
        if structure is None:
            return []
        slots = sorted(structure.accessible, key=lambda s: (structure.layout.slot_rows[s],
                                                            structure.layout.slot_columns[s]))
        return [structure.cards[s] for s in slots]

    def offered_cards(self) -> list[Card]:
        return self.accessible()

    def find_offered(self, text: str, cards: Sequence[Card]) -> Card | None:
        return self.find(text, cards, [c.name for c in cards], "card")

    def _options(self, card: Card) -> tuple[list[Build], list[Sell], list[BuildWonder]]:
        legal = self.legal()
        return ([a for a in legal if isinstance(a, Build) and a.card is card],
                [a for a in legal if isinstance(a, Sell) and a.card is card],
                [a for a in legal if isinstance(a, BuildWonder) and a.card is card])

    def _ask_verb(self, card: Card) -> str | None:
        builds, _, wonders = self._options(card)
        can_build, build_why = self.build_reason(card, builds)
        self.console.print(Text.assemble("What do you do with ", card_text(card), "?"))
        self.console.print(("  [bold]b[/bold] build it — " if can_build else
                            "  [dim]b build it — impossible: [/dim]") + _escape(build_why))
        self.console.print(f"  [bold]s[/bold] sell it — {_coins(self.sell_value())}")
        self.console.print(("  [bold]w[/bold] build a wonder with it — " if wonders else
                            "  [dim]w build a wonder with it — impossible: [/dim]")
                           + _escape(self.wonder_reason(wonders)))
        return self.read_verb("Action — b, s or w (Enter to choose another card): ",
                              BUILD_WORDS | SELL_WORDS | WONDER_WORDS,
                              "type b (build), s (sell) or w (wonder), or Enter to go back.")

    def _action_for(self, card: Card, verb: str) -> Action | None:
        builds, sells, wonders = self._options(card)
        if verb in SELL_WORDS:
            if not sells:
                self.error(f"You cannot sell {card.name} now.")
                return None
            return sells[0]
        if verb in BUILD_WORDS:
            possible, why = self.build_reason(card, builds)
            if not possible:
                self.error(f"You cannot build {card.name}: {why}.")
                return None
            return builds[0]
        if not wonders:
            self.error(f"You cannot build a wonder now: {self.wonder_reason(wonders)}.")
            return None
        if len(wonders) == 1:
            return wonders[0]
        table = Table(title=f"Which wonder do you build with {card.name}?", show_edge=False)
        for header in ("#", "wonder", "costs you", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(wonders, 1):
            table.add_row(str(number), action.wonder.name, _coins(action.payment.total),
                          effects_text(stage_effects(action.wonder)))
        self.console.print(table)
        while True:
            text = self.read(f"Wonder 1–{len(wonders)} or name (Enter = back): ")
            if not text or text.lower() in BACK_WORDS:
                return None
            found = self.find(text, wonders, [a.wonder.name for a in wonders], "wonder")
            if found is not None:
                return found

    # --- what things cost ------------------------------------------------------------

    def sell_value(self) -> int:
        sell = self.game.data.rules.sell
        if sell is None:
            return 0
        return sum(amount(c.effect.amount, self.seat, self.game.cities) for c in sell.clauses
                   if isinstance(c.effect, fx.Coins))

    def _chain_source(self, card: Card) -> str | None:
        city: DraftedCity = self.game.cities[self.seat]
        for built in city.built:
            if card.name in built.makes_free:
                return built.name
        for name in card.free_if_built:
            if name in city.names:
                return name
        return None

    def _price_text(self, cost: fx.Cost, paid: int) -> str:
        """What a payment of ``paid`` coins is made of: the coin cost and the trade."""
        trade = paid - cost.coins
        if paid == 0:
            return "free" if cost.is_free else "free: you make everything it needs"
        parts = []
        if cost.coins:
            parts.append(f"{cost.coins} on the card")
        if trade > 0:
            parts.append(f"{trade} to buy resources at the bank")
        elif cost.resources:
            parts.append("you make the resources")
        return f"{_coins(paid)} ({', '.join(parts)})"

    def build_reason(self, card: Card, builds: Sequence[Build]) -> tuple[bool, str]:
        """(possible, what building ``card`` costs this player now and why)."""
        city = self.game.cities[self.seat]
        if card.name in city.names:
            return False, f"you already have {card.name}"
        if builds:
            build = builds[0]
            if build.method == CHAIN:
                source = self._chain_source(card)
                return True, f"free — chain from {source}" if source else "free — chain"
            return True, self._price_text(card.cost, build.payment.total)
        price = self.cost_of(self.seat, card.cost, 0)
        return False, (f"costs {_coins(price)} with your production and the bank's prices; "
                       f"you have {city.coins}")

    def wonder_reason(self, wonders: Sequence[BuildWonder]) -> str:
        game, city = self.game, self.game.cities[self.seat]
        if wonders:
            return "; ".join(f"{a.wonder.name} for {_coins(a.payment.total)}" for a in wonders)
        if not city.wonders:
            return "you have no wonder left to build"
        limit = self.setup.wonder_limit
        if limit and structure_offer.wonders_built(game) >= limit:
            return f"{limit} wonders are built: no more can be"
        dearest = ", ".join(f"{w.name} costs {_coins(self.cost_of(self.seat, stage_cost(w), 0))}"
                            for w in city.wonders)
        return f"you cannot pay for any ({dearest}; you have {city.coins})"

    # --- the other decisions ---------------------------------------------------------

    def city_label(self, seat: int) -> str:
        return "yours" if seat == self.seat else "your opponent's"

    def choose_from_discard(self) -> Action:
        legal = self.legal()
        choices = [a for a in legal if isinstance(a, BuildFromDiscard)]
        skip = next((a for a in legal if isinstance(a, Skip)), None)
        self.show_cities()
        table = Table(title=f"You build one card from the discard pile for free "
                      f"({len(self.game.discard)} cards in it)")
        for header in ("#", "card", "age", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, action in enumerate(choices, 1):
            table.add_row(str(number), card_text(action.card), str(action.card.age),
                          effects_text(action.card.effects))
        self.console.print(table)
        tail = " (skip to take none)" if skip is not None else ""
        while True:
            text = self.read(f"Build which card — 1–{len(choices)} or name{tail}: ")
            lowered = text.lower()
            if skip is not None and lowered in SKIP_WORDS:
                return skip
            if not text:
                self.error("Type a card number or name" + (", or 'skip'." if skip else "."))
                continue
            if lowered in HELP_WORDS:
                self.console.print("Type the number or name of a card to build it for free.")
                continue
            first, _, rest = text.partition(" ")
            if first.lower() in BUILD_WORDS and rest.strip():
                text = rest.strip()
            found = self.find(text, choices, [a.card.name for a in choices], "card")
            if found is not None:
                return found

    def choose_starter(self) -> Action:
        game = self.game
        options = [a for a in self.legal() if isinstance(a, ChooseStarter)]
        mine = next(a for a in options if a.seat == self.seat)
        theirs = next(a for a in options if a.seat != self.seat)
        # the next age's structure is laid out before the choice (the rulebook's order)
        nxt = ROMAN.get(game.age, str(game.age))
        self.console.rule(Text(f"End of age {ROMAN.get(game.age - 1, game.age - 1)}",
                               style="bold"))
        self.show_track()
        self.console.print(f"Age {nxt} is laid out:")
        self.show_structure()
        self.console.print(f"You choose who starts age {nxt}:\n  [bold]1[/bold] you start\n"
                           "  [bold]2[/bold] your opponent starts")
        while True:
            text = self.read(f"Who starts age {nxt} — 1 (you) or 2 (your opponent): ").lower()
            if text in {"1"} | ME_WORDS:
                return mine
            if text in {"2"} | OPPONENT_WORDS:
                return theirs
            if text in HELP_WORDS:
                self.console.print("Type 1 (or 'me') to start the age yourself, 2 (or "
                                   "'opponent') to let your opponent start.")
                continue
            self.error(f"'{text}' is not a choice: type 1 (you) or 2 (your opponent).")

    # --- what happened ---------------------------------------------------------------

    def _snapshot(self) -> dict[str, object]:
        game = self.game
        structure = self.laid
        return {"coins": [c.coins for c in game.cities], "position": self.pawn.position,
                "track": set(self.pawn.tokens),
                "face_up": list(structure.face_up) if structure is not None else [],
                "structure": structure, "age": game.age}

    def _report(self, seat: int, action: Action, before: dict[str, object]) -> None:
        game = self.game
        parts = [self._action_words(seat, action)]
        coins = before["coins"]
        assert isinstance(coins, list)
        changes = [f"{'your' if s == self.seat else 'their'} coins {coins[s]} → {c.coins}"
                   for s, c in enumerate(game.cities) if c.coins != coins[s]]
        line = Text(f"{self.who(seat)}: " + parts[0], style="bold" if seat != self.seat else "")
        if changes:
            line.append("; " + "; ".join(changes))
        self.console.print(line)
        if self.pawn.position != before["position"]:
            self.console.print(f"  The conflict pawn moves from {self._where(before['position'])}"
                               f" to {self._where(self.pawn.position)}.")
        lost = before["track"]
        assert isinstance(lost, set)
        for index, side in sorted(lost - self.pawn.tokens):
            zone = self.setup.track.zones[index]
            self.console.print(f"  {self.who(side)} lose{'s' if side != self.seat else ''} "
                               f"up to {_coins(zone.lose)}: the pawn entered the zone "
                               f"{zone.start} spaces out.")
        structure = self.laid
        face_up = before["face_up"]
        if structure is not None and structure is before["structure"] and isinstance(face_up,
                                                                                      list):
            revealed = [structure.cards[s] for s in range(structure.layout.size)
                        if structure.face_up[s] and not face_up[s] and not structure.taken[s]]
            if revealed:
                self.console.print(Text("  Turned face up: ").append(
                    Text(", ").join(card_text(c, "") for c in revealed)))

    def _where(self, position: object) -> str:
        assert isinstance(position, int)
        if position == 0:
            return "the centre"
        ahead = 0 if position > 0 else 1
        towards = "your opponent's" if ahead == self.seat else "your"
        return f"{abs(position)} {_plural('space', abs(position))} towards {towards} capital"

    def _action_words(self, seat: int, action: Action) -> str:
        verb = "" if seat == self.seat else "s"
        if isinstance(action, ChooseWonder):
            return f"take{verb} {action.wonder.name}"
        if isinstance(action, Build):
            how = " (free by chain)" if action.method == CHAIN else (
                f" for {_coins(action.payment.total)}" if action.payment.total else " for free")
            return f"build{verb} {action.card.name}{how}"
        if isinstance(action, Sell):
            return f"sell{verb} {action.card.name}"
        if isinstance(action, BuildWonder):
            return (f"build{verb} {action.wonder.name} with {action.card.name} for "
                    f"{_coins(action.payment.total)}")
        if isinstance(action, TakeToken):
            return f"take{verb} the {action.token.name} token"
        if isinstance(action, DestroyCard):
            return f"destroy{verb} {action.card.name}"
        if isinstance(action, BuildFromDiscard):
            return f"build{verb} {action.card.name} from the discard pile"
        if isinstance(action, ChooseStarter):
            starter = "you" if action.seat == self.seat else "your opponent"
            return f"choose{verb} that {starter} start{'s' if starter != 'you' else ''} " \
                "the next age"
        return str(action)

    # --- the table -------------------------------------------------------------------

    def show_table(self) -> None:
        game = self.game
        title = f"Age {ROMAN.get(game.age, game.age)} · turn {game.turn}"
        self.console.rule(Text(title, style="bold"))
        self.console.print(f"You are seat {self.seat}. Discard pile: {len(game.discard)} "
                           f"{_plural('card', len(game.discard))}. "
                           f"Wonders built: {structure_offer.wonders_built(game)}"
                           + (f" of at most {self.setup.wonder_limit}"
                              if self.setup.wonder_limit else "") + ".")
        self.show_track()
        self.show_board_tokens()
        self.show_chambers()
        self.show_held()
        self.show_cities()
        self.show_structure()
        self.show_accessible()

    def show_structure(self) -> None:
        """The structure as it lies: rows offset by half-card columns, backs, numbers."""
        structure = self.laid
        if structure is None:
            return
        layout = structure.layout
        numbers = {id(card): n for n, card in enumerate(self.accessible(), 1)}
        columns = [c for row in layout.rows for c in row]
        low, high = min(columns), max(columns)
        width = self.console.width
        cell = 16
        while cell > 8 and (high - low) * (cell // 2 + 1) + cell > width:
            cell -= 2
        step = cell // 2 + 1
        self.console.print(Text(f"The structure (age {ROMAN.get(self.game.age, self.game.age)}):"
                                " numbered cards can be taken", style="bold"))
        for row in range(1, len(layout.rows) + 1):
            line = Text()
            for slot in range(layout.size):
                if layout.slot_rows[slot] != row:
                    continue
                x = (layout.slot_columns[slot] - low) * step
                if len(line) < x:
                    line.append(" " * (x - len(line)))
                if structure.taken[slot]:
                    line.append(" " * cell)
                elif not structure.face_up[slot]:
                    line.append(CARD_BACK * cell, style="dim")
                else:
                    card = structure.cards[slot]
                    number = numbers.get(id(card))
                    label = f"{number} {card.name}" if number is not None else card.name
                    if len(label) > cell - 2:
                        label = label[:cell - 3] + "…"
                    style = COLOUR_STYLES.get(card.colour, "default")
                    line.append(f"[{label:<{cell - 2}}]",
                                style=f"bold {style}" if number is not None else f"dim {style}")
            self.console.print(line, no_wrap=True, overflow="ellipsis")

    def show_accessible(self) -> None:
        cards = self.accessible()
        table = Table(title="Cards you can take", show_lines=True)
        for header in ("#", "card", "cost", "costs you now", "wonder with it", "effect"):
            table.add_column(header, justify="right" if header == "#" else "left")
        for number, card in enumerate(cards, 1):
            builds, _, wonders = self._options(card)
            possible, why = self.build_reason(card, builds)
            effect = Text(f"{card.colour}: {effects_text(card.effects)}")
            if card.makes_free:
                effect.append(f"\nchains to: {', '.join(card.makes_free)}", style="dim")
            if card.free_if_built:
                effect.append(f"\nfree if you have: {', '.join(card.free_if_built)}",
                              style="dim")
            table.add_row(str(number), card_text(card), describe.cost(card.cost),
                          Text(why, style=cost_style(self.game, self.seat, builds)),
                          "\n".join(f"{a.wonder.name}: {_coins(a.payment.total)}"
                                    for a in wonders) or "–", effect)
        self.console.print(table)
        self.console.print(f"Selling a card gives you {_coins(self.sell_value())}.")

    def show_track(self) -> None:
        """The conflict track: seat 0's capital on the left, seat 1's on the right."""
        track = self.setup.track
        end = track.supremacy
        cells = Text()
        marks = Text()
        for position in range(-end, end + 1):
            if position == self.pawn.position:
                cells.append("●", style="bold red")
            elif position == 0:
                cells.append("|")
            else:
                cells.append("·", style="dim")
            cells.append(" ")
            mark = "  "
            for index, zone in enumerate(track.zones):
                side = 1 if position > 0 else 0
                if zone.lose and abs(position) == zone.start and (index, side) in self.pawn.tokens:
                    mark = f"{zone.lose:<2}"
            marks.append(mark, style="yellow")
        left, right = (f"{'you' if s == self.seat else 'opponent'} ({s})" for s in (0, 1))
        self.console.print(Text("Conflict track", style="bold")
                           + Text(" (the capitals at the ends, seat in brackets)", style="dim"))
        prefix = f"{left} ▐ "
        self.console.print(Text(prefix).append(cells).append(f"▌ {right}"), no_wrap=True)
        self.console.print(Text(" " * len(prefix)).append(marks), no_wrap=True)
        ahead = 0 if self.pawn.position > 0 else 1
        if self.pawn.position:
            lead = "you" if ahead == self.seat else "your opponent"
            points = track.points(abs(self.pawn.position))
            text = (f"The pawn is {self._where(self.pawn.position)}: {lead} would score "
                    f"{points} {_plural('point', points)}")
        else:
            text = "The pawn is in the centre: nobody scores military points"
        self.console.print(f"{text}; {end} spaces win at once. Coin tokens (numbers under the "
                           "track) are lost by the player on whose side the pawn enters them.")

    def show_chambers(self) -> None:
        """A board of chambers: each chamber's section, cubes, controller and the tokens
        on it with what they do (a face-down one unnamed)."""
        board = self.game.view(self.seat).get("chambers")
        if not board:
            return
        sections = {c: name for name, numbers in board.get("sections", {}).items()
                    for c in numbers}
        table = Table(title="The chambers (the seat with more cubes controls one: its "
                      "token works for it)")
        for column in ("", "section", "your cubes", "opponent's", "control", "token"):
            table.add_column(column)
        named = {t.name: t for t in self.game.data.tokens}
        for number, chamber in enumerate(board["chambers"], start=1):
            cubes = chamber["cubes"]
            control = chamber["control"]
            owner = "nobody" if control < 0 else "you" if control == self.seat else "opponent"
            tokens = chamber["decrees"]
            if not chamber["face_up"]:
                what = "face down"
            elif not tokens:
                what = "none"
            else:
                what = "\n".join(f"{n}: {effects_text(named[n].effects)}" if n in named else n
                                 for n in tokens)
            table.add_row(str(number), sections.get(number, ""), str(cubes[self.seat]),
                          str(cubes[1 - self.seat]), owner, what)
        supply = board.get("supply", [])
        self.console.print(table)
        if supply:
            self.console.print(f"Cubes left: you {supply[self.seat]}, opponent "
                               f"{supply[1 - self.seat]}.")

    def show_held(self) -> None:
        """Held tokens: yours with what they do and whether prepared or triggered, the
        opponent's as a count, and the stack."""
        held = self.game.view(self.seat).get("held")
        if not held:
            return
        named = {t.name: t for t in self.game.data.tokens}
        mine = held["seats"][self.seat]
        theirs = held["seats"][1 - self.seat]
        for token in mine:
            state = ("triggered" if token["triggered"] else "prepared" if token["prepared"]
                     else "not prepared")
            name = token["name"]
            what = effects_text(named[name].effects) if name in named else ""
            self.console.print(f"Your held token [bold]{name}[/bold] ({state}): {what}")
        ready = sum(1 for t in theirs if t["prepared"] and not t["triggered"])
        self.console.print(f"Held tokens: you {len(mine)}, opponent {len(theirs)} ({ready} "
                           f"prepared); {held['stack']} in the stack.")

    def show_board_tokens(self) -> None:
        board = [t for pool, tokens in self.game.table.pools.items() if pool != "box"
                 for t in tokens]
        if not board and not any(c.owned_tokens for c in self.game.cities):
            return
        pair = self.setup.pair
        how = (" (a pair of one science symbol: "
               + "; ".join(describe.effect(c.effect) for c in pair.clauses) + ")") if pair else ""
        table = Table(title=f"Tokens on the board{how}", show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for token in board:
            table.add_row(token.name, effects_text(token.effects))
        if not board:
            table.add_row("none left", "")
        self.console.print(table)

    def show_cities(self) -> None:
        game = self.game
        params = self.setup.base
        table = Table(title="The cities", show_lines=True)
        table.add_column("")
        order = (self.seat, 1 - self.seat)
        for seat in order:
            table.add_column(f"{self.who(seat)} (seat {seat})")
        cities = [game.cities[s] for s in order]
        table.add_row("coins", *[str(c.coins) + (f" (+{c.aside} laid aside: spent after these, "
                                                  "safe from losses)" if c.aside else "")
                                 for c in cities])
        table.add_row("production", *[production_text(c.production(params)[0]) for c in cities])
        table.add_row("bank price per unit", *[self._prices(s) for s in order])
        table.add_row("wonders built", *[self._wonders(c.built_wonders, built=True)
                                         for c in cities])
        table.add_row("wonders to build", *[self._wonders(c.wonders, built=False)
                                            for c in cities])
        table.add_row("tokens", *[self._tokens(c.owned_tokens) for c in cities])
        supremacy = self.setup.science_supremacy
        table.add_row("science symbols" + (f"\n({supremacy} different win)" if supremacy else ""),
                      *[symbols_text(c) for c in cities])
        table.add_row("cards", *[built_by_colour(c.built) for c in cities])
        self.console.print(table)

    def _prices(self, seat: int) -> str:
        groups: dict[int, list[str]] = {}
        for resource, price in bank.state(self.game).prices(self.game, seat).items():
            groups.setdefault(price, []).append(resource)
        return "; ".join(f"{', '.join(names)} {price}" for price, names in sorted(groups.items()))

    def _wonders(self, wonders: Sequence[Wonder], built: bool) -> Text:
        if not wonders:
            return Text("none", style="dim")
        text = Text()
        for wonder in wonders:
            if text:
                text.append("\n")
            text.append(wonder.name, style="bold")
            if not built:
                text.append(f" ({describe.cost(stage_cost(wonder))})", style="dim")
            text.append(f": {effects_text(stage_effects(wonder))}")
        return text

    def _tokens(self, tokens: Sequence[Token]) -> Text:
        if not tokens:
            return Text("none", style="dim")
        return Text("\n").join(Text.assemble((t.name, "bold"), f": {effects_text(t.effects)}")
                               for t in tokens)

    def show_scores(self) -> None:
        game = self.game
        sheet = game.score_sheet()
        table = Table(title="Final score sheet")
        table.add_column("")
        for seat in range(game.players):
            table.add_column(f"seat {seat}" + (" (you)" if seat == self.seat else ""),
                             justify="right")
        for line in sheet.order:
            table.add_row(line, *[str(row[line]) for row in sheet.lines])
        table.add_row("[bold]total[/bold]", *[f"[bold]{t}[/bold]" for t in sheet.totals])
        table.add_row("coins", *[str(c) for c in sheet.coins])
        self.console.print(table)
        name, why = VICTORY_TEXT.get(sheet.victory, (sheet.victory, ""))
        self.console.print(f"Victory: {sheet.victory} — {name}" + (f" ({why})" if why else ""))
        winners = sheet.winners
        if self.seat in winners:
            verdict = f"You win by {name}!" if len(winners) == 1 else "You share the victory!"
        else:
            verdict = f"Your opponent wins by {name}."
        self.console.print(Text(verdict, style="bold"))


def play_structure_human(game: FlowGame, seat: int, bots: dict[int, Bot],
                         console: Console | None = None, ask: Ask | None = None) -> bool:
    """Play a card-structure ``game`` with a human at ``seat``; True when played to the end."""
    if console is None:
        import sys

        console = Console(width=None if sys.stdout.isatty() else 120)
    return StructureHumanGame(game, seat, bots, console, ask or input).run()
