"""A conflict track: one pawn pushed by shields towards the rival's capital.

Shields move the pawn at once (``military: {mechanism: track}``; the positions and zones
are :mod:`wonders.engine.track`'s).  Entering a zone with a coin token costs the seat the
pawn moves away from that zone's coins, once; reaching the last space is a military
victory at once when the flow lists ``military_supremacy`` in ``end.at_once``.  At the end
the seat the pawn points away from scores the zone's points, and between rounds the seat it
points at is the weaker military (:mod:`.starter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.dsl.mechanisms import ADVANCE_EVENT, SPACE_COUNT
from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Token
from wonders.engine.actions import ChooseStarter
from wonders.engine.actions import choose_starter as choose_starter_action
from wonders.engine.errors import RuleError
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms.bank import cities_of
from wonders.engine.runtime import act, trigger
from wonders.engine.structure_rules import structure_rules
from wonders.engine.track import TrackRules, entered, push

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "track"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
SUPREMACY: Final = "military_supremacy"   # the end.at_once condition this part raises
VICTORY: Final = "military"               # the victory it is, on the score sheet


class Track(Part):
    """The pawn's ``position`` (positive: towards seat 1's capital) and the coin
    ``tokens`` still on the track, as (zone, side) pairs."""

    def __init__(self, rules: TrackRules, tokens: frozenset[tuple[int, int]],
                 at_once: bool) -> None:
        self.rules = rules
        self.at_once = at_once
        self.position = 0
        self.tokens = set(tokens)
        #: tokens with effects on the track (``lay_track_tokens``): (zone, side) -> token
        self.effect_tokens: dict[tuple[int, int], Token] = {}
        self.blocker: int | None = None   # a space the pawn stops before, once
        # while an advance is announced (``on advance:``): the seat pushing and the spaces
        # moved, which ``per space`` reads (none between turns, so copies never hold one)
        self.advancing = -1
        self.spaces = 0

    def copy(self) -> Track:
        other = Track(self.rules, frozenset(), self.at_once)   # (compiled: via __init__)
        other.position = self.position
        other.tokens = set(self.tokens)
        if self.effect_tokens:
            other.effect_tokens = dict(self.effect_tokens)
        other.blocker = self.blocker
        return other

    def set(self, position: int, tokens: set[tuple[int, int]] | None = None) -> None:
        """Put the pawn (and the tokens left) where a position says (scenarios)."""
        self.position = position
        if tokens is not None:
            self.tokens = set(tokens)

    def shields(self, game: FlowGame, seat: int, count: int) -> None:
        """Push the pawn ``count`` spaces away from ``seat``: tokens in the zones entered
        cost the rival coins (to the bank), the last space wins at once."""
        rules = self.rules
        before = self.position
        after = push(before, seat, count, rules)
        blocker = self.blocker
        if blocker is not None and (before < blocker <= after or after <= blocker < before):
            after = blocker - 1 if after > before else blocker + 1   # stopped before it
            self.blocker = None
        self.position = after
        for index, side, _zone in entered(before, self.position, rules):
            if (index, side) in self.tokens:
                self.use_token(game, index, side)
        if self.effect_tokens:   # (the seat whose shields enter a token's zone takes it)
            for index, zone in enumerate(rules.zones):
                for side, inside in ((1, self.position >= zone.start > before),
                                     (0, self.position <= -zone.start < before)):
                    token = self.effect_tokens.pop((index, side), None) if inside else None
                    if token is not None:
                        act(game.table, seat, token.effects, True)
        moved = after - before if after > before else before - after
        if moved and cities_of(game)[seat].triggers and not game.finished:
            self.advanced(game, seat, moved)
        if self.at_once and abs(self.position) >= rules.supremacy:
            game.win(0 if self.position > 0 else 1, VICTORY)

    def advanced(self, game: FlowGame, seat: int, spaces: int) -> None:
        """Announce ``seat``'s push of ``spaces`` spaces to its ``on advance:`` clauses (the
        zones' tokens already taken: what they cost the rival is gone first)."""
        outer = (self.advancing, self.spaces)   # (a clause's effect may push again)
        self.advancing, self.spaces = seat, spaces
        trigger(game.table, seat, ADVANCE_EVENT, None, None)
        self.advancing, self.spaces = outer

    def count(self, game: FlowGame, s: int, what: str) -> int:
        """``per space``: the spaces of the advance being announced, for the seat pushing
        (0 for the other; -1: not a count of this part's)."""
        if what != SPACE_COUNT:
            return -1
        return self.spaces if s == self.advancing else 0

    def use_token(self, game: FlowGame, index: int, side: int) -> None:
        """The coin token of zone ``index`` on ``side``'s half: that seat loses the zone's
        coins (what it has) to the bank, and the token leaves the track."""
        self.tokens.discard((index, side))
        loser = cities_of(game)[side]
        taken = min(self.rules.zones[index].lose, loser.coins)
        loser.coins -= taken
        game.bank_paid += taken

    def weaker(self, fallback: int) -> int:
        """The seat the pawn points at (its rival is ahead), else ``fallback``."""
        if self.position > 0:
            return 1
        if self.position < 0:
            return 0
        return fallback

    def points(self, players: int) -> list[dict[str, int]]:
        """Each seat's military line: the zone's points for the seat ahead."""
        points = self.rules.points(abs(self.position))
        lines: list[dict[str, int]] = [{VICTORY: 0} for _ in range(players)]
        if self.position:
            lines[0 if self.position > 0 else 1][VICTORY] = points
        return lines

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["conflict"] = self.position
        found["military_tokens"] = sorted(self.tokens)
        if self.blocker is not None:
            found["blocker"] = self.blocker
        if self.effect_tokens:
            found["track_tokens"] = [[zone, side, token.name] for (zone, side), token
                                     in sorted(self.effect_tokens.items())]


def lay_tokens(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``lay_track_tokens: {kind, zones: {ZONE: [TOKEN, TOKEN]}}``: on zone
    ZONE (1-based, of ``military.zones``) of each seat's side (seat 0's first), the token
    of ``kind`` so named; the seat whose shields push the pawn into it takes it (its
    effects act for that seat at once, as a taken token's do)."""
    part = state(game)
    kind = str(parameters.get("kind", "military"))
    named = {t.name: t for t in game.data.tokens if t.kind == kind}
    for zone, names in parameters.get("zones", {}).items():
        for side, name in enumerate(names):
            token = named.get(str(name))
            if token is None:
                raise RuleError(f"lay_track_tokens: no {kind} token named '{name}' "
                                f"(loaded: {', '.join(sorted(named)) or 'none'})")
            part.effect_tokens[(int(zone) - 1, side)] = token


def state(game: FlowGame) -> Track:
    """The game's conflict track."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)




# --- who starts the next round --------------------------------------------------------

STARTER: Final = "starter"   # the decision, and its task on the agenda
WORDING: Final[dict[str, str]] = {STARTER: "choosing who starts the next age"}
WEAKER_MILITARY: Final = "weaker_military"   # the one ``who`` this mechanism knows


def choose_starter(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Round-start step ``choose_starter: {who: weaker_military, from_round: N}``: from
    round N, the seat the pawn points at (else the seat that took the last card) chooses
    who starts the round (after ``lay_structure``: the chooser sees the new cards)."""
    if game.age < int(parameters.get("from_round", 2)):
        return
    who = parameters.get("who", WEAKER_MILITARY)
    if who != WEAKER_MILITARY:
        raise RuleError(f"choose_starter: who '{who}' is not a way this mechanism knows to "
                        f"choose who starts ({WEAKER_MILITARY})")
    chooser = state(game).weaker(game.current)
    game.current = chooser
    game.schedule([(STARTER, chooser, 0)])


def ask_starter(game: FlowGame, seat: int, about: int) -> None:
    game.wait(STARTER, seat, [choose_starter_action(s) for s in range(game.players)])


def resolve_starter(game: FlowGame, asked: Ask, action: Any) -> None:
    game.current = cast(ChooseStarter, action).seat


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Track:
    setup = structure_rules(data)
    flow = data.rules.model.flow
    return Track(setup.track, setup.track_tokens,
                 flow is not None and SUPREMACY in flow.at_once)


__all__ = ["NAME", "STARTER", "SUPREMACY", "Track", "VICTORY", "WORDING", "ask_starter",
           "choose_starter", "make", "resolve_starter", "state"]
