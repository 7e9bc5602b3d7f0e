"""Conflict tokens flipped by war horns, and the battle the last one calls.

Set-up lays a number of conflict tokens (by player count) peace side up.  Each horn on a
red card taken flips one to its battle side (fewer left than horns: what is left); the
turn that flips the last one ends in a battle for everyone: each seat compares its
shields with each neighbour's and wins a military victory token for each neighbour with
fewer.  With two players the one with more shields wins one token, two with at least
``double`` times the other's (and at least ``double`` against none).  Then every red card
with horns is discarded and every conflict token turns back to peace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms import decks, pieces, progress
from wonders.engine.table import left_of, right_of

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME = "conflict"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)


class Conflict(Part):
    """The conflict tokens: ``peace`` of them peace side up, ``total`` in all; ``battle``:
    whether a battle is due at the end of this turn; ``battles``: each battle's shields, by
    seat; ``victories``: the victory tokens each seat has won; ``victory``: the points of
    one."""

    def __init__(self, victory: int, players: int) -> None:
        self.victory = victory
        self.victories = [0] * players
        self.peace = 0
        self.total = 0
        self.battle = False
        self.battles: list[list[int]] = []

    def copy(self) -> Conflict:
        other = Conflict(self.victory, 0)
        other.victories = list(self.victories)
        other.peace = self.peace
        other.total = self.total
        other.battle = self.battle
        other.battles = list(self.battles)
        return other

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["conflict"] = {"peace": self.peace, "battle": self.total - self.peace}

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        entry["shields"] = shields(game, s)
        entry["victories"] = self.victories[s]

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        line["military"] = self.victory * self.victories[s]

    def summary(self, game: FlowGame, s: int, found: dict[str, object]) -> None:
        found["victories"] = self.victories[s]

    def count(self, game: FlowGame, s: int, what: str) -> int:
        return self.victories[s] if what == "victory_token" else -1


def make(players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Conflict:
    """The conflict tokens of a flow whose steps have ``arguments`` (by step name)."""
    return Conflict(int(arguments.get("battle_if_due", {}).get("victory", 3)), players)


def victories(game: FlowGame, seat: int) -> int:
    """The victory tokens ``seat`` has won."""
    return state(game).victories[seat]


def state(game: FlowGame) -> Conflict:
    """The game's conflict tokens (the part this mechanism owns)."""
    return cast(Conflict, game.slots[SLOT])


def lay(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Lay the conflict tokens for the table's size (the largest count given at or below
    it when the size is not listed)."""
    by_players = {int(k): v for k, v in dict(parameters.get("tokens", {})).items()
                  if str(k).isdigit() and isinstance(v, int)}
    sizes = [p for p in sorted(by_players) if p <= game.players]
    count = by_players[sizes[-1]] if sizes else 0
    table = state(game)
    table.total = table.peace = count


def flip(game: FlowGame, horns: int) -> None:
    """Flip a peace token per horn; flipping the last one calls a battle."""
    table = state(game)
    if horns and table.peace:
        table.peace -= min(horns, table.peace)
        if table.peace == 0:
            table.battle = True


def shields(game: FlowGame, seat: int) -> int:
    """The seat's shields: its red cards', its pieces' and its tokens'."""
    held = game.seats[seat].held
    return (sum(kind.shields * held[k] for k, kind in enumerate(game.kinds))
            + pieces.shields(game, seat) + progress.shields(game, seat))


def won(mine: int, theirs: int, double: int) -> int:
    """Victory tokens won by ``mine`` shields against ``theirs`` at a two-player table."""
    if mine <= theirs:
        return 0
    return 2 if mine >= double * max(theirs, 1) else 1


def battle(game: FlowGame, double: int) -> None:
    """Fight the battle due, then discard the horned red cards and restore the peace."""
    table = state(game)
    discard = decks.state(game).discard
    players = game.players
    counts = [shields(game, s) for s in range(players)]
    if players == 2:
        for s in range(2):
            table.victories[s] += won(counts[s], counts[1 - s], double)
    else:
        for s in range(players):
            for other in (left_of(s, players), right_of(s, players)):
                if counts[other] < counts[s]:
                    table.victories[s] += 1
    table.battles.append(counts)
    for city in game.seats:
        for k, kind in enumerate(game.kinds):
            if kind.horns and city.held[k]:
                discard.extend([k] * city.held[k])
                city.held[k] = 0
    table.peace, table.battle = table.total, False


def battle_if_due(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """After a turn: the battle the last flipped token called, if any."""
    if state(game).battle:
        battle(game, int(parameters.get("double", 2)))


__all__ = ["NAME", "Conflict", "battle", "battle_if_due", "flip", "lay", "make", "shields",
           "state", "victories", "won"]
