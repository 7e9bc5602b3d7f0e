"""Token pools as a state part: the tokens dealt into each pool at set-up, taken by effects.

The deal is :func:`wonders.engine.pools.deal`'s (the same for every loop, from
``setup: tokens``); the set-up step ``deal_pools`` runs it on the game's generator.  The
effect runtime takes tokens from :attr:`TokenPools.pools` (``take … token from POOL``).
Reserve pools are hidden: the view and the set-up record list only the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Token
from wonders.engine.flow_state import Part, part_index
from wonders.engine.pools import deal as deal_tokens
from wonders.engine.pools import hidden

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "pools"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)


class TokenPools(Part):
    """Each pool's tokens, in order (``hidden``: the reserve pools nobody sees)."""

    def __init__(self, hidden_pools: frozenset[str]) -> None:
        self.hidden = hidden_pools
        self.pools: dict[str, list[Token]] = {}
        self.dealt: dict[str, list[str]] = {}

    def copy(self) -> TokenPools:
        other = TokenPools(self.hidden)
        other.pools = {name: list(tokens) for name, tokens in self.pools.items()}
        other.dealt = self.dealt
        return other

    def set(self, pools: Mapping[str, list[Token]]) -> None:
        """Lay the pools a position says (scenarios; in place: effects hold the dict)."""
        self.pools.clear()
        self.pools.update({name: list(tokens) for name, tokens in pools.items()})

    def keep_setup(self, game: FlowGame) -> None:
        self.dealt = {pool: [t.name for t in tokens] for pool, tokens
                      in sorted(self.pools.items()) if pool not in self.hidden}

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record["board_tokens"] = self.dealt

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["tokens"] = {pool: [t.name for t in tokens] for pool, tokens in self.pools.items()
                           if pool not in self.hidden}


def deal(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``deal_pools``: fill every declared pool from ``setup: tokens``."""
    state(game).set(deal_tokens(game.data, game.generator(), game.drawer()))


def make(data: GameData, players: int,
         arguments: Mapping[str, Mapping[str, Any]]) -> TokenPools:
    return TokenPools(hidden(data))


def state(game: FlowGame) -> TokenPools:
    """The game's token pools."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["NAME", "TokenPools", "deal", "make", "state"]
