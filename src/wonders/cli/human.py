"""A human at the terminal: ``wonders play --human``.

Each turn shows the hand with what every card costs *this* player now and why
(free, chain, own production, which neighbour to buy what from, the free-build
power, or why it is impossible), the wonder stage, the player's city and the
neighbours' cities; the player chooses a card by number or name, then the
action, then the payment when there is a choice.  Only what the human's seat
may see is shown: their own hand, public city data, hand sizes and the size of
the discard pile (its cards only while they build from it).

Input and output are injectable — a rich ``Console`` and an ``ask(prompt)``
function — so the whole interaction can be scripted in tests.  ``ask`` raises
``EOFError`` at the end of input; the game then stops cleanly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Sequence, cast

from rich.console import Console
from rich.table import Table
from rich.text import Text

from wonders.bots import Bot
from wonders.cli.terminal import HELP_WORDS, Ask, Quit, TerminalSession, as_number
from wonders.dsl import describe
from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.engine.actions import (
    CHAIN,
    FREE_BUILD,
    Action,
    Build,
    BuildFromDiscard,
    BuildStage,
    ChooseSide,
    Keep,
    Sell,
    Skip,
)
from wonders.engine.contract import GameState
from wonders.engine.game import Game, Phase
from wonders.engine.payment import Payment
from wonders.engine.production import Production
from wonders.engine.sides import side_aliases, side_names
from wonders.engine.table import left_of, right_of
from wonders.serve.present import CANNOT_MARK, TRADE_MARK, indicator

COLOUR_STYLES = {"brown": "#b0703c", "grey": "grey62", "blue": "bright_blue", "green": "green",
                 "yellow": "yellow", "red": "red", "purple": "magenta"}
BUILD_WORDS = {"build", "b"}
STAGE_WORDS = {"stage", "wonder", "w"}
SELL_WORDS = {"sell", "discard", "s", "d"}
SKIP_WORDS = {"skip", "pass", "none", "no", "n"}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}

HELP = """\
[bold]How to play a turn[/bold]
  Type a card's number or name (case-insensitive; the start of a name is enough),
  then the action: [bold]b[/bold]uild it, use it for a [bold]w[/bold]onder stage, or \
[bold]s[/bold]ell it.
  Or in one go: [bold]build 3[/bold], [bold]stage lumber[/bold], [bold]sell 5[/bold].
  When several payments are possible you choose one (Enter takes the cheapest).
  [bold]show[/bold] prints the table again, [bold]quit[/bold] leaves the game."""


# --- what a card costs this player, and why -------------------------------------------------------

def _colour(card: Card) -> str:
    return COLOUR_STYLES.get(card.colour, "default")


def card_text(card: Card) -> Text:
    return Text(card.name, style=f"bold {_colour(card)}")


def _units(resources: dict[str, int] | Counter[str]) -> str:
    return ", ".join(f"{n} {r}" for r, n in sorted(resources.items()) if n)


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


@dataclass
class TradePlan:
    """Which resources come from where for one payment."""

    own: Counter[str]
    left: Counter[str]
    right: Counter[str]


def trade_plan(game: Game, seat: int, resources: tuple[tuple[str, int], ...],
               payment: Payment) -> TradePlan | None:
    """Which units of ``resources`` the city makes and which it buys from whom for ``payment``.

    A small search over the few units of a card cost; None when the cost is too
    large to search (the payment itself is still right: it comes from the engine).
    """
    units = [r for r, n in resources for _ in range(n)]
    if not units or len(units) > 8:
        return None
    own = game.cities[seat].production(game.params)[0]
    market = game.market(seat)
    best: TradePlan | None = None
    seen: set[tuple[tuple[str, str], ...]] = set()
    for sides in product(("own", "left", "right"), repeat=len(units)):
        key = tuple(sorted(zip(units, sides)))
        if key in seen:
            continue
        seen.add(key)
        groups: dict[str, Counter[str]] = {"own": Counter(), "left": Counter(),
                                           "right": Counter()}
        for unit, side in key:
            groups[side][unit] += 1
        left = sum(market.price("left", r) * n for r, n in groups["left"].items())
        right = sum(market.price("right", r) * n for r, n in groups["right"].items())
        if (left, right) != (payment.left, payment.right):
            continue
        if not (_supplies(own, groups["own"]) and _supplies(market.left, groups["left"])
                and _supplies(market.right, groups["right"])):
            continue
        plan = TradePlan(groups["own"], groups["left"], groups["right"])
        if best is None or sum(plan.own.values()) > sum(best.own.values()):
            best = plan
    return best


def _supplies(production: Production, need: Counter[str]) -> bool:
    return not need or production.can_supply(dict(need))


def payment_text(game: Game, seat: int, card_or_cost: fx.Cost, payment: Payment) -> str:
    """One payment in words: what the city makes itself, what it buys from whom, the bank."""
    parts: list[str] = []
    resources = card_or_cost.resources
    plan = trade_plan(game, seat, resources, payment)
    if plan is not None:
        if plan.left:
            parts.append(f"buy {_units(plan.left)} from left for {payment.left}")
        if plan.right:
            parts.append(f"buy {_units(plan.right)} from right for {payment.right}")
        if plan.own and not (plan.left or plan.right):
            parts.append("own production")
        elif plan.own:
            parts.append(f"own {_units(plan.own)}")
    else:
        if payment.left:
            parts.append(f"{payment.left} to left")
        if payment.right:
            parts.append(f"{payment.right} to right")
        if resources and not (payment.left or payment.right):
            parts.append("own production")
    if payment.bank:
        parts.insert(0, f"{payment.bank} {_plural('coin', payment.bank)} to the bank")
    return ", ".join(parts) or "free"


def _chain_source(game: Game, seat: int, card: Card) -> str | None:
    city = game.cities[seat]
    for built in city.built:
        if card.name in built.makes_free:
            return built.name
    for name in card.free_if_built:
        if name in city.names:
            return name
    return None


def why_impossible(game: Game, seat: int, cost: fx.Cost, what: str) -> str:
    """Why ``seat`` cannot pay ``cost`` now (assuming the engine found no payment)."""
    city = game.cities[seat]
    if cost.coins > city.coins:
        return f"{what}costs {cost.coins} {_plural('coin', cost.coins)}; you have {city.coins}"
    pairs = game.trade(seat).pairs(cost.resources)
    if not pairs:
        market = game.market(seat)
        everything = city.production(game.params)[0] + market.left + market.right
        short = [f"{n} {r}" for r, n in cost.resources if not everything.can_supply({r: n})]
        if short:
            return (f"{what}needs {', '.join(short)}: more than you make plus what your "
                    "neighbours sell")
        return (f"{what}needs {describe.cost(cost)}: you and your neighbours cannot supply "
                "all of it at once")
    cheapest = min(left + right for left, right in pairs) + cost.coins
    return (f"{what}would cost {cheapest} {_plural('coin', cheapest)} "
            f"(buying from neighbours); you have {city.coins}")


def _with_total(text: str, payment: Payment) -> str:
    if payment.left or payment.right:
        return f"{payment.total} {_plural('coin', payment.total)}: {text}"
    return text


def build_reason(game: Game, seat: int, card: Card, builds: Sequence[Build]) -> tuple[bool, str]:
    """(possible, what the card costs this player and why) for building ``card``."""
    city = game.cities[seat]
    if card.name in city.names:
        return False, f"you already have {card.name}"
    if not builds:
        return False, why_impossible(game, seat, card.cost, "")
    first = builds[0]
    if first.method == CHAIN:
        source = _chain_source(game, seat, card)
        return True, f"free — chain from {source}" if source else "free — chain"
    paid = [b for b in builds if b.method != FREE_BUILD]
    free_power = any(b.method == FREE_BUILD for b in builds)
    if not paid:
        why = why_impossible(game, seat, card.cost, "paying ")
        return True, f"free-build power only ({why})"
    if card.cost.is_free:
        text = "free"
    else:
        text = _with_total(payment_text(game, seat, card.cost, paid[0].payment),
                           paid[0].payment)
        if len(paid) > 1:
            text += f" (+{len(paid) - 1} other {_plural('payment', len(paid) - 1)})"
    if free_power:
        text += "; or free with your free-build power"
    return True, text


def stage_reason(game: Game, seat: int, stages: Sequence[BuildStage]) -> tuple[bool, str]:
    city = game.cities[seat]
    total = len(city.side.stages)
    if city.stages >= total:
        return False, "every stage of your wonder is built"
    stage = city.side.stages[city.stages]
    name = f"stage {city.stages + 1} of {total}"
    if not stages:
        return False, why_impossible(game, seat, stage.cost, name + " ")
    payment = stages[0].payment
    text = "free" if stage.cost.is_free else _with_total(
        payment_text(game, seat, stage.cost, payment), payment)
    if len(stages) > 1:
        text += f" (+{len(stages) - 1} other {_plural('payment', len(stages) - 1)})"
    return True, text


COST_STYLES = {CANNOT_MARK: "red", TRADE_MARK: "yellow"}   # own production, chain, power: green


def cost_style(game: GameState, seat: int,
               builds: Sequence[Build] | Sequence[BuildStage]) -> str:
    """The colour of what a card or stage costs this player, as the web table marks it:
    red when it cannot be built, yellow when it takes buying from neighbours, green when
    the city's own production, a chain or a free-build power suffices."""
    return COST_STYLES.get(indicator(game, seat, list(builds))["mark"], "green")


def sell_value(game: Game) -> str:
    sell = game.params.sell
    if sell is None:
        return "nothing"
    parts = [describe.amount(c.effect.amount, "coin") for c in sell.clauses
             if isinstance(c.effect, fx.Coins)]
    return " plus ".join(parts) or "nothing"


# --- showing the table -------------------------------------------------------------------

def production_text(production: Production) -> str:
    parts = [f"{r}×{n}" if n > 1 else r for r, n in production.fixed]
    parts += ["/".join(choice) for choice in production.choices]
    return ", ".join(parts) or "nothing"


def science_text(game: Game, seat: int) -> str:
    fixed, choices = game.cities[seat].science_symbols()
    parts = [f"{s}×{n}" if n > 1 else s for s, n in sorted(fixed.items())]
    parts += ["/".join(c) + " (choose)" for c in choices]
    return ", ".join(parts) or "none"


def tokens_text(tokens: Sequence[tuple[str, int]]) -> str:
    if not tokens:
        return "none"
    return " ".join(f"{points:+d}" for _, points in tokens) + f" (= {sum(p for _, p in tokens)})"


def built_by_colour(cards: Sequence[Card]) -> Text:
    groups: dict[str, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.colour, []).append(card)
    text = Text()
    for colour, group in groups.items():
        if text:
            text.append("\n")
        text.append(f"{colour}: ", style=COLOUR_STYLES.get(colour, "default"))
        text.append(", ".join(c.name for c in group))
    return text if text else Text("no cards yet", style="dim")


def prices_text(game: Game, seat: int, side: str) -> str:
    market = game.market(seat)
    groups: dict[int, list[str]] = {}
    for resource in market.resources:
        groups.setdefault(market.price(side, resource), []).append(resource)
    if len(groups) == 1:
        (price, _), = groups.items()
        return f"{price} each"
    return "; ".join(f"{', '.join(names)} {price}" for price, names in sorted(groups.items()))


def city_name(game: Game, seat: int) -> str:
    city = game.cities[seat]
    return f"seat {seat}: {city.wonder.name} {city.side.side}"


class HumanGame(TerminalSession[Game]):
    """One game with a human at ``seat`` and bots at the other seats."""

    help_text = HELP
    verbs = frozenset(BUILD_WORDS | STAGE_WORDS | SELL_WORDS)

    # --- the game loop ---------------------------------------------------------------------

    def run(self) -> bool:
        """Play to the end; False when the player left early."""
        game = self.game
        try:
            while not game.over:
                movers = game.to_move()
                before = self._snapshot()
                actions: dict[int, Action] = {}
                if self.seat in movers:
                    actions[self.seat] = self.choose()
                else:
                    self._waiting(movers)
                for mover in movers:
                    if mover != self.seat:
                        actions[mover] = cast(Action, self.bots[mover].choose(game, mover))
                phase, age = game.phase, game.age
                game.play(actions)
                self._report(before, phase, age, movers, actions.get(self.seat))
        except Quit as reason:
            what = "input ended" if str(reason) == "end of input" else "you quit"
            self.console.print(f"\n[bold]Game abandoned[/bold] ({what}) in age {game.age}, "
                               f"turn {game.turn}. Goodbye!")
            return False
        self.show_scores()
        return True

    def _waiting(self, movers: Sequence[int]) -> None:
        names = ", ".join(city_name(self.game, s) for s in movers)
        what = {Phase.SIDE: "choosing the side of their board",
                Phase.DISCARD_BUILD: "building from the discard pile",
                Phase.LAST_CARD: "playing their last card"}.get(self.game.phase,
                                                               self.game.decision().wording)
        self.console.print(f"[dim]Waiting: {names} {what}…[/dim]")

    def choose(self) -> Action:
        if self.game.phase is Phase.DISCARD_BUILD:
            return self.choose_from_discard()
        if self.game.phase is Phase.SIDE:
            return self.choose_side()
        if self.game.phase is Phase.PICK:
            return self.choose_keep()
        if self.game.phase is Phase.DESTROY:
            return self.choose_destroy()
        if self.game.phase is Phase.TOKEN:
            return self.choose_token()
        if self.game.phase is Phase.DEBT:
            return self.choose_debt()
        if self.game.phase is Phase.COPY:
            return self.choose_copy()
        if self.game.phase is Phase.RESERVE_BUILD:
            return self.choose_reserve_build()
        self.show_table()
        while True:
            action = self._turn_input()
            if action is not None:
                return action

    # --- a regular turn ----------------------------------------------------------------

    def hand(self) -> list[Card]:
        """The human's own hand (the seat's own cards, which it may see)."""
        names = self.game.view(self.seat)["hand"]
        cards = list(self.game.hands[self.seat])
        assert [c.name for c in cards] == names
        return cards

    def offered_cards(self) -> list[Card]:
        return self.hand()

    def find_offered(self, text: str, cards: Sequence[Card]) -> Card | None:
        return self.find_card(text, cards)

    def find_card(self, text: str, cards: Sequence[Card]) -> Card | None:
        """A card of the hand by number or name (see ``TerminalSession.find``)."""
        return self.find(text, cards, [c.name for c in cards], "card", several=" cards",
                         where="in your hand", listed="the table")

    def _ask_verb(self, card: Card) -> str | None:
        legal = self.game.legal_actions(self.seat)
        builds = [a for a in legal if isinstance(a, Build) and a.card is card]
        stages = [a for a in legal if isinstance(a, BuildStage) and a.card is card]
        can_build, build_why = build_reason(self.game, self.seat, card, builds)
        can_stage, stage_why = stage_reason(self.game, self.seat, stages)
        self.console.print(Text.assemble("What do you do with ", card_text(card), "?"))
        self.console.print(("  [bold]b[/bold] build it — " if can_build else
                            "  [dim]b build it — impossible: [/dim]") + _escape(build_why))
        self.console.print(("  [bold]w[/bold] wonder stage — " if can_stage else
                            "  [dim]w wonder stage — impossible: [/dim]") + _escape(stage_why))
        self.console.print(f"  [bold]s[/bold] sell it — {sell_value(self.game)}")
        return self.read_verb("Action — b, w or s (Enter to choose another card): ",
                              BUILD_WORDS | STAGE_WORDS | SELL_WORDS,
                              "type b (build), w (wonder stage) or s (sell), or Enter to go "
                              "back.")

    def _action_for(self, card: Card, verb: str) -> Action | None:
        game, seat = self.game, self.seat
        legal = game.legal_actions(seat)
        if verb in SELL_WORDS:
            sells = [a for a in legal if isinstance(a, Sell) and a.card is card]
            if not sells:
                self.error(f"You cannot sell {card.name} now.")
                return None
            return sells[0]
        options: list[Action]
        labels: list[str]
        if verb in BUILD_WORDS:
            builds = [a for a in legal if isinstance(a, Build) and a.card is card]
            possible, why = build_reason(game, seat, card, builds)
            if not possible:
                self.error(f"You cannot build {card.name}: {why}.")
                return None
            options = list(builds)
            labels = [self._build_label(b) for b in builds]
        else:
            stages = [a for a in legal if isinstance(a, BuildStage) and a.card is card]
            possible, why = stage_reason(game, seat, stages)
            if not possible:
                self.error(f"You cannot build a wonder stage: {why}.")
                return None
            city = game.cities[seat]
            cost = city.side.stages[city.stages].cost
            options = list(stages)
            labels = [payment_text(game, seat, cost, s.payment) for s in stages]
        if len(options) == 1:
            return options[0]
        return self._choose_payment(options, labels)

    def _build_label(self, build: Build) -> str:
        if build.method == CHAIN:
            return "free by chain"
        if build.method == FREE_BUILD:
            return "free with your free-build power (used up for this age)"
        if build.card.cost.is_free:
            return "free"
        return payment_text(self.game, self.seat, build.card.cost, build.payment)

    def _choose_payment(self, options: Sequence[Action], labels: Sequence[str]) -> Action | None:
        table = Table(title="How do you pay?", show_edge=False)
        for header in ("#", "left", "right", "bank", "total", "how"):
            table.add_column(header, justify="right" if header != "how" else "left")
        for number, (option, label) in enumerate(zip(options, labels), 1):
            payment = getattr(option, "payment", Payment())
            table.add_row(str(number), str(payment.left), str(payment.right),
                          str(payment.bank), str(payment.total), label)
        self.console.print(table)
        while True:
            answer = self.read(f"Payment 1–{len(options)} (Enter = 1, back = another card): ")
            if not answer:
                return options[0]
            if answer.lower() in {"back", "cancel"}:
                return None
            choice = as_number(answer)
            if choice is not None and 1 <= choice <= len(options):
                return options[choice - 1]
            self.error(f"'{answer}' is not a payment: type a number from 1 to {len(options)}.")

    # --- building from the discard pile ----------------------------------------------------

    def show_cities(self) -> None:
        self.show_city()
        self.show_neighbours()

    def city_label(self, seat: int) -> str:
        return "yours" if seat == self.seat else city_name(self.game, seat)

    def choose_keep(self) -> Action:
        """The reserve draft before Age I: show the hand and ask which card to keep (the
        rest is passed on)."""
        game = self.game
        choices = [a for a in game.legal_actions(self.seat) if isinstance(a, Keep)]
        kept = game.view(self.seat)["reserve"]
        table = Table(title="Keep one card for later (the rest is passed on)"
                      + (f"; kept so far: {', '.join(kept)}" if kept else ""))
        for header in ("#", "card", "cost", "effect"):
            table.add_column(header)
        for n, action in enumerate(choices, 1):
            table.add_row(str(n), card_text(action.card), describe.cost(action.card.cost),
                          describe.effects(action.card.effects))
        self.console.print(table)
        cards = [a.card for a in choices]
        while True:
            text = self.read("Keep which card (number or name): ").strip()
            if text.lower() in HELP_WORDS:
                self.console.print("Type the number or the name of the card to keep.")
                continue
            card = self.find(text, cards, [c.name for c in cards], "card",
                             several=" cards", where="in your hand", listed="the table")
            if card is not None:
                return next(a for a in choices if a.card is card)

    def choose_side(self) -> Action:
        """Show both sides of the board dealt to the player and ask which one to play."""
        game = self.game
        city = game.cities[self.seat]
        choices = [a for a in game.legal_actions(self.seat) if isinstance(a, ChooseSide)]
        names = side_names(game.data)
        table = Table(title=f"Your wonder board: {city.wonder.name}. Choose the side you play "
                      "(the other players choose at the same time)")
        for header in ("side", "start", "stages: cost → effect"):
            table.add_column(header)
        for action in choices:
            side = city.wonder.sides[action.side]
            label = action.side + (f" ({names[action.side]})" if action.side in names else "")
            stages = "\n".join(f"{n}. {describe.cost(stage.cost)} → "
                               f"{describe.effects(stage.effects)}"
                               for n, stage in enumerate(side.stages, 1))
            table.add_row(label, describe.effects(side.start), stages)
        self.console.print(table)
        while True:
            text = self.read(f"Which side — {' or '.join(a.side for a in choices)}: ").strip()
            if text.lower() in HELP_WORDS:
                self.console.print("Type the side's letter (or its name) to play that side.")
                continue
            wanted = text.upper()
            for name, letter in side_aliases(game.data).items():
                if text.lower() == name:
                    wanted = letter
            for action in choices:
                if action.side == wanted:
                    return action
            self.error(f"No side '{text}': type {' or '.join(a.side for a in choices)}.")

    def choose_from_discard(self) -> Action:
        legal = self.game.legal_actions(self.seat)
        choices = [a for a in legal if isinstance(a, BuildFromDiscard)]
        skip = next(a for a in legal if isinstance(a, Skip))
        view = self.game.view(self.seat)
        self.show_city()
        table = Table(title=f"Your wonder lets you build one card from the discard pile for free "
                      f"({len(view['discard_cards'] or [])} cards in it)")
        for header in ("#", "card", "age", "effect"):
            table.add_column(header)
        for number, action in enumerate(choices, 1):
            table.add_row(str(number), card_text(action.card), str(action.card.age),
                          describe.effects(action.card.effects))
        self.console.print(table)
        cards = [a.card for a in choices]
        while True:
            text = self.read(f"Build which card — 1–{len(choices)} or name (skip to take none): ")
            lowered = text.lower()
            if lowered in SKIP_WORDS:
                return skip
            if not text:
                self.error("Type a card number or name, or 'skip'.")
                continue
            if lowered in HELP_WORDS:
                self.console.print("Type the number or name of a card to build it for free, "
                                   "or 'skip'.")
                continue
            first, _, rest = text.partition(" ")
            if first.lower() in BUILD_WORDS and rest.strip():
                text = rest.strip()
            card = self.find_card(text, cards)
            if card is not None:
                return next(a for a in choices if a.card is card)

    def choose_reserve_build(self) -> Action:
        """A ``build N reserve cards`` effect: which card of the reserve hand to build at
        once, and how to pay (or skip)."""
        legal = self.game.legal_actions(self.seat)
        choices = [a for a in legal if isinstance(a, Build)]
        skip = next(a for a in legal if isinstance(a, Skip))
        self.show_city()
        kept = ", ".join(c.name for c in self.game.reserve_hand(self.seat)) or "none"
        table = Table(title=f"You may build one more card of your reserve at once, paying "
                      f"its cost (your reserve: {kept})")
        for header in ("#", "card", "how", "effect"):
            table.add_column(header)
        for number, action in enumerate(choices, 1):
            how = str(action)[len(f"build {action.card.name}"):].strip() or "nothing to pay"
            table.add_row(str(number), card_text(action.card), how,
                          describe.effects(action.card.effects))
        self.console.print(table)
        while True:
            text = self.read(f"Build which — 1–{len(choices)} or name (skip to build none): ")
            lowered = text.lower()
            if lowered in SKIP_WORDS:
                return skip
            if not text:
                self.error("Type a number or a card name, or 'skip'.")
                continue
            if lowered in HELP_WORDS:
                self.console.print("Type the number of a line (a card and how it is paid) or "
                                   "a card's name to build it now, or 'skip'.")
                continue
            first, _, rest = text.partition(" ")
            if first.lower() in BUILD_WORDS and rest.strip():
                text = rest.strip()
            picked = as_number(text)
            if picked is not None:
                if 1 <= picked <= len(choices):
                    return choices[picked - 1]
                self.error(f"Type a number from 1 to {len(choices)}, a name, or 'skip'.")
                continue
            card = self.find_card(text, [a.card for a in choices])
            if card is not None:
                return next(a for a in choices if a.card is card)  # the first way to pay

    # --- what happened -------------------------------------------------------------------

    def _snapshot(self) -> list[tuple[int, int, int, int, int]]:
        return [(len(c.built), c.stages, c.coins, len(c.tokens), len(c.copied))
                for c in self.game.cities]

    def _report(self, before: Sequence[tuple[int, int, int, int, int]], phase: Phase,
                age: int, movers: Sequence[int], mine: Action | None) -> None:
        game = self.game
        lines: list[Text] = []
        for seat, city in enumerate(game.cities):
            built, stages, coins, tokens, copied = before[seat]
            who = "You" if seat == self.seat else city_name(game, seat)
            parts: list[str] = []
            for card in city.built[built:]:
                parts.append(f"built {card.name}")
            if city.stages > stages:
                parts.append(f"built wonder stage {city.stages}")
            for card in city.copied[copied:]:
                parts.append(f"copied {card.name}")
            if phase is Phase.PICK:  # the reserve draft: only one's own card is known
                parts.append(f"kept {mine.card.name}" if seat == self.seat
                             and isinstance(mine, Keep) else "kept a card")
            elif seat == self.seat and isinstance(mine, Sell):
                parts.append(f"sold {mine.card.name}")
            elif seat == self.seat and isinstance(mine, Skip):
                parts.append("built no card of the reserve" if phase is Phase.RESERVE_BUILD
                             else "took nothing from the discard pile")
            elif not parts and seat in movers and (phase is Phase.TURN or phase is Phase.RESERVE
                                                   or phase is Phase.LAST_CARD):
                parts.append("sold a card")
            if city.coins != coins:
                parts.append(f"coins {coins} → {city.coins}")
            if parts:
                lines.append(Text(f"{who}: " + "; ".join(parts)))
        if lines:
            self.console.print(Text("This turn: ", style="bold"), *lines, sep="\n  ")
        if any(len(city.tokens) != before[s][3] for s, city in enumerate(game.cities)):
            self.console.print(Text(f"Military at the end of age {ROMAN.get(age, age)}:",
                                    style="bold"))
            for seat, city in enumerate(game.cities):
                gained = city.tokens[before[seat][3]:]
                who = "You" if seat == self.seat else city_name(game, seat)
                self.console.print(f"  {who} ({city.shields()} shields): "
                                   f"{tokens_text(gained)}")

    # --- the table -----------------------------------------------------------------------

    def show_table(self) -> None:
        game, seat = self.game, self.seat
        view = game.view(seat)
        params = game.params
        direction = params.passes[(game.age - 1) % len(params.passes)]
        target = left_of(seat, game.players) if direction == "left" else right_of(
            seat, game.players)
        title = f"Age {ROMAN.get(game.age, game.age)} · turn {game.turn}"
        if game.phase is Phase.LAST_CARD:
            title += " · your last card: your wonder lets you play it"
        self.console.rule(Text(title, style="bold"))
        self.console.print(f"You are {city_name(game, seat)}. Hands pass {direction} (to seat "
                           f"{target}) · discard pile: {view['discard_pile']} cards · hand sizes: "
                           + ", ".join(str(n) for n in view["hand_sizes"]))
        self.show_neighbours()
        self.show_city()
        self.show_hand()

    def show_hand(self) -> None:
        game, seat = self.game, self.seat
        legal = game.legal_actions(seat)
        hand = self.hand()
        table = Table(title="Your hand", show_lines=True)
        table.add_column("#", justify="right")
        table.add_column("card")
        table.add_column("cost")
        table.add_column("costs you now")
        table.add_column("effect")
        for number, card in enumerate(hand, 1):
            builds = [a for a in legal if isinstance(a, Build) and a.card is card]
            possible, why = build_reason(game, seat, card, builds)
            effect = Text(describe.effects(card.effects))
            if card.makes_free:
                effect.append(f"\nchains to: {', '.join(card.makes_free)}", style="dim")
            if card.free_if_built:
                effect.append(f"\nfree if you have: {', '.join(card.free_if_built)}", style="dim")
            table.add_row(str(number), card_text(card), describe.cost(card.cost),
                          Text(why, style=cost_style(game, seat, builds)), effect)
        self.console.print(table)
        city = game.cities[seat]
        stages = [a for a in legal if isinstance(a, BuildStage)]
        if city.stages < len(city.side.stages):
            stage = city.side.stages[city.stages]
            possible, why = stage_reason(game, seat, [s for s in stages
                                                      if s.card is stages[0].card]
                                         if stages else [])
            self.console.print(Text.assemble(
                ("Wonder stage ", "bold"),
                (f"{city.stages + 1} of {len(city.side.stages)}", "bold"),
                f": costs {describe.cost(stage.cost)} → {describe.effects(stage.effects)}. "
                "Costs you: ", (why, cost_style(game, seat, [s for s in stages
                                                             if s.card is stages[0].card]
                                                if stages else [])),
                " (any card can be used for it)" if possible else ""))
        else:
            self.console.print("Wonder: every stage is built.")
        self.console.print(f"Selling a card gives {sell_value(game)}.")

    def show_city(self) -> None:
        game, seat = self.game, self.seat
        city = game.cities[seat]
        own = city.production(game.params)[0]
        table = Table(title="Your city", show_header=False, show_lines=False)
        table.add_column(style="bold")
        table.add_column()
        table.add_row("wonder", f"{city.wonder.name}, side {city.side.side}: "
                      f"{city.stages} of {len(city.side.stages)} stages built")
        table.add_row("coins", str(city.coins))
        table.add_row("production", production_text(own))
        table.add_row("shields", str(city.shields()))
        table.add_row("science", science_text(game, seat))
        table.add_row("military tokens", tokens_text(city.tokens))
        powers = [describe.effect(a) for a in city.abilities()]
        if powers:
            table.add_row("powers", "; ".join(powers))
        table.add_row("built", built_by_colour(city.built))
        self.console.print(table)

    def show_neighbours(self) -> None:
        game, seat = self.game, self.seat
        view = game.view(seat)
        left, right = left_of(seat, game.players), right_of(seat, game.players)
        table = Table(title="Your neighbours", show_lines=True)
        table.add_column("")
        table.add_column(f"left — {city_name(game, left)}")
        table.add_column(f"right — {city_name(game, right)}")
        cities = [game.cities[left], game.cities[right]]
        table.add_row("coins", *[str(c.coins) for c in cities])
        table.add_row("shields", *[f"{c.shields()} (you: {game.cities[seat].shields()})"
                                   for c in cities])
        table.add_row("military tokens", *[tokens_text(c.tokens) for c in cities])
        table.add_row("wonder", *[f"{c.stages} of {len(c.side.stages)} stages" for c in cities])
        table.add_row("you may buy", *[production_text(c.production(game.params)[1])
                                       for c in cities])
        table.add_row("your price", prices_text(game, seat, "left"),
                      prices_text(game, seat, "right"))
        table.add_row("built", *[built_by_colour(c.built) for c in cities])
        self.console.print(table)
        others = [s for s in range(game.players) if s not in (seat, left, right)]
        if others:
            rest = Table(title="Other cities")
            for header in ("city", "coins", "shields", "stages", "cards", "hand"):
                rest.add_column(header)
            for other in others:
                city = game.cities[other]
                rest.add_row(city_name(game, other), str(city.coins), str(city.shields()),
                             f"{city.stages}/{len(city.side.stages)}", str(len(city.built)),
                             str(view["hand_sizes"][other]))
            self.console.print(rest)

    def show_scores(self) -> None:
        game = self.game
        sheet = game.score_sheet()
        table = Table(title="Final score sheet")
        table.add_column("")
        for city in game.cities:
            name = f"{city.seat}: {city.wonder.name} {city.side.side}"
            table.add_column(name + (" (you)" if city.seat == self.seat else ""), justify="right")
        for line in sheet.order:
            table.add_row(line, *[str(row[line]) for row in sheet.lines])
        table.add_row("[bold]total[/bold]", *[f"[bold]{t}[/bold]" for t in sheet.totals])
        table.add_row("coins", *[str(c) for c in sheet.coins])
        self.console.print(table)
        winners = sheet.winners
        if self.seat in winners:
            verdict = "You win!" if len(winners) == 1 else "You share the victory!"
        else:
            place = sheet.ranking().index(self.seat) + 1
            verdict = (f"Winner: {', '.join(city_name(game, s) for s in winners)}. "
                       f"You finished {place} of {game.players}.")
        self.console.print(Text(verdict, style="bold"))


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def play_human(game: Game, seat: int, bots: dict[int, Bot], console: Console | None = None,
               ask: Ask | None = None) -> bool:
    """Play ``game`` with a human at ``seat``; True when it was played to the end."""
    if console is None:
        import sys

        console = Console(width=None if sys.stdout.isatty() else 120)
    return HumanGame(game, seat, bots, console, ask or input).run()
