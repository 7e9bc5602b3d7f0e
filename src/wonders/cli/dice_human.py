"""A human at the terminal in a dice-forum game, against bots.

Each decision shows the forum (every die: the building and symbol it shows, its
quadrant's price and what it costs you), your sheet (each building's spaces: crossed,
or the resource types they need), your Wonder, coins, resources and bonuses, and your
neighbours' progress; then it lists what you may do, each with its cost in coins and
why (the die's price plus one coin per resource type you lack), and reads a number.
"""

from __future__ import annotations

from typing import Sequence, cast

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from wonders.bots import Bot
from wonders.cli.terminal import HELP_WORDS, SHOW_WORDS, Ask, Quit, TerminalSession, as_number
from wonders.engine.dice_actions import (
    BuildWonderStage,
    CrossSpace,
    Decline,
    DiceAction,
    Pass,
    TakeBonus,
)
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import forum as forum_part
from wonders.engine.mechanisms import sheets

HELP = """Type the number of an option (or 'show' to see the table again, 'quit' to leave).
A space costs the die's price (its quadrant, less your discounts) plus one coin for each
resource type it needs that you lack; resources are never used up. Passing gives coins.
Completing a building lets you take a bonus; the game ends one turn after a player
takes their last bonus."""


class DiceHuman(TerminalSession[FlowGame]):
    help_text = HELP

    def run(self) -> bool:
        game = self.game
        try:
            while not game.over:
                moves: dict[int, DiceAction] = {}
                for seat in game.to_move():
                    if seat == self.seat:
                        moves[seat] = self.choose()
                    else:
                        moves[seat] = cast(DiceAction, self.bots[seat].choose(game, seat))
                game.play(moves)
                for seat, action in sorted(moves.items()):
                    if seat != self.seat:
                        self.say(f"{sheets.state(game).cities[seat].label()}: {action}", "dim")
        except Quit:
            self.say("You left the game.")
            return False
        self.scores()
        return True

    # --- showing the table ------------------------------------------------------------

    def show(self) -> None:
        game = self.game
        dice = sheets.state(game).dice
        city = sheets.state(game).cities[self.seat]
        pool = forum_part.state(game).pool
        self.say(f"Turn {game.turn} — {game.decision().wording}", "bold")
        forum = Table(title="The forum")
        for column in ("#", "die", "shows", "price", "your price"):
            forum.add_column(column)
        for k, index in enumerate(pool.slots):
            die = dice.dice[index]
            face = die.faces[pool.faces[k]]
            shows = dice.face_words(face, names=True)
            usable = die.start or die.colour in city.unlocked
            price = sheets.die_price(game, self.seat, dice.quadrants[pool.quadrants[k]],
                                     die.colour)
            forum.add_row(str(k + 1), escape(die.name), escape(shows),
                          str(dice.quadrants[pool.quadrants[k]]),
                          str(price) if usable else "locked")
        self.console.print(forum)
        # (cells and titles are escaped: rich reads a bare [x] as markup and drops it)
        sheet = Table(title=escape(f"Your sheet: {city.board.name} — {city.coins} coins "
                                   f"(reserve {dice.reserve}), resources: "
                                   f"{', '.join(city.resources) or 'none'}"))
        sheet.add_column("building")
        sheet.add_column(escape("spaces ([x] crossed, else symbol:types needed)"))
        for b, building in enumerate(dice.buildings):
            cells = ["[x]" if city.crossed[b][i] else
                     f"{s.symbol + ':' if s.symbol else ''}{s.cost}"
                     for i, s in enumerate(building.spaces)]
            sheet.add_row(escape(building.name), escape(" ".join(cells)))
        stages = " ".join("[x]" if i < city.stages else str(stage.cost)
                          for i, stage in enumerate(city.board.stages))
        sheet.add_row("Wonder", escape(stages))
        taken = [dice.bonuses[i].name for i, x in enumerate(city.bonuses) if x]
        sheet.add_row("bonuses", escape(", ".join(taken) or "none"))
        self.console.print(sheet)
        others = Table(title="Everyone's progress (spaces crossed)")
        others.add_column("seat")
        for building in dice.buildings:
            others.add_column(escape(building.name), justify="right")
        for column in ("wonder", "bonuses", "coins", "points"):
            others.add_column(column, justify="right")
        for other in sheets.state(game).cities:
            others.add_row(escape(other.label() + (" (you)" if other.seat == self.seat else "")),
                           *[str(n) for n in other.counts], str(other.stages),
                           str(sum(other.bonuses)), str(other.coins),
                           str(sheets.points(game, other.seat)))
        self.console.print(others)

    def describe(self, action: DiceAction) -> str:
        if isinstance(action, CrossSpace):
            why = []
            if action.die:
                why.append(f"die {action.die_price}")
            why.append(f"types lacking {action.shortfall}")
            return f"{action} = {action.pay} coins ({', '.join(why)})"
        if isinstance(action, BuildWonderStage):
            return f"{action} (types lacking: {action.shortfall} coins)"
        if isinstance(action, TakeBonus) and action.cross is not None:
            return (f"take bonus {action.bonus}: cross {action.cross.building} space "
                    f"{action.cross.space + 1} (types lacking: {action.cross.pay} coins)")
        return str(action)

    # --- asking --------------------------------------------------------------------------

    def choose(self) -> DiceAction:
        game = self.game
        options: Sequence[DiceAction] = game.legal_actions(self.seat)
        self.show()
        while True:
            for i, action in enumerate(options, 1):
                self.say(f"  {i}. {self.describe(action)}")
            answer = self.read("Your choice: ")
            if answer.lower() in HELP_WORDS:
                self.console.print(HELP)
                continue
            if answer.lower() in SHOW_WORDS:
                self.show()
                continue
            number = as_number(answer)
            if number is not None and 1 <= number <= len(options):
                return options[number - 1]
            if answer.lower() == "pass":
                found = [a for a in options if isinstance(a, (Pass, Decline))]
                if found:
                    return found[0]
            self.error(f"Choose a number from 1 to {len(options)} (or help, show, quit).")

    def scores(self) -> None:
        game = self.game
        sheet = game.score_sheet()
        table = Table(title="Final scores")
        table.add_column("")
        for city in sheets.state(game).cities:
            table.add_column(escape(city.label()), justify="right")
        for line in sheet.order:
            table.add_row(line, *[str(row[line]) for row in sheet.lines])
        table.add_row("total", *[str(t) for t in sheet.totals])
        table.add_row("coins", *[str(c.coins) for c in sheets.state(game).cities])
        self.console.print(table)
        winners = ", ".join(sheets.state(game).cities[s].label() for s in sheet.winners)
        self.say(f"winner: {winners}", "bold")


def play_dice_human(game: FlowGame, seat: int, bots: dict[int, Bot],
                    console: Console | None = None, ask: Ask | None = None) -> bool:
    """Play a dice-forum ``game`` with a human at ``seat``; True when played to the end."""
    if console is None:
        import sys

        console = Console(width=None if sys.stdout.isatty() else 120)
    return DiceHuman(game, seat, bots, console, ask or input).run()


__all__ = ["DiceHuman", "play_dice_human"]
