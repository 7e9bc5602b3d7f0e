"""A rule set as an OpenSpiel Python game: ``pyspiel.Game`` and ``pyspiel.State`` over the
engine's one game contract (:class:`~wonders.engine.contract.GameState`).

How the engine maps onto OpenSpiel's model (``docs/openspiel.md`` says why):

- **chance** is ``EXPLICIT_STOCHASTIC`` with one chance node, the first: the deal.  The
  engine draws every shuffle and roll from its game's seeded generator inside ``play``, so
  a game is a function of its seed and the decisions; chance picks the seed, uniformly
  among ``deals`` of them (``seed``, ``seed + 1`` … ``seed + deals - 1``), and no seat sees
  which: what it learns of the deal is what its views show as play goes;
- a decision of **several seats** (a drafting turn, a dice turn) is a simultaneous node
  (``current_player() == SIMULTANEOUS``): every deciding seat gives one of its actions and
  every other seat the single action ``wait``; a decision of **one seat** (every Duel
  decision, a follow-up choice) is that player's node;
- **observations** are what a seat sees now: its ``view`` (JSON) and, when it decides,
  the ids it may choose among; **information states** are its observations at every
  decision so far and what it chose there, in order (perfect recall); neither holds
  anything another seat keeps hidden;
- **returns** are win/loss/draw, zero-sum: with ``w`` winners of ``n`` players each winner
  gets ``(n / w - 1) / (n - 1)`` and every other player ``-1 / (n - 1)`` (1 and -1 for a
  two-player win, 0 each for a tie).
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Sequence

import pyspiel

from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import default_players, loop_for, new_game
from wonders.openspiel.actions import ActionCatalogue

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import AnyAction, GameState

#: How many seeds chance deals from by default (the ``deals`` parameter).
DEALS = 1000

_DYNAMICS = {"simultaneous": pyspiel.GameType.Dynamics.SIMULTANEOUS,
             "sequential": pyspiel.GameType.Dynamics.SEQUENTIAL}
_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}


def game_type(short_name: str, data: GameData) -> Any:
    """The ``pyspiel.GameType`` of a rule set, from its loop's declared kind."""
    kind = loop_for(data).kind
    rules = data.rules
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"7 Wonders: {rules.title or rules.name} (wonders engine)",
        dynamics=_DYNAMICS[kind.dynamics],
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_INFORMATION[kind.information],
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification={"players": default_players(data), "seed": 0,
                                 "deals": DEALS})


def win_returns(winners: Sequence[int], players: int) -> list[float]:
    """Zero-sum win/loss/draw returns: winners share ``n / w - 1``, scaled by ``n - 1``."""
    share = (players / len(winners) - 1) / (players - 1)
    return [share if seat in winners else -1 / (players - 1) for seat in range(players)]


def _text(view: dict[str, Any]) -> str:
    """A view as one line of JSON, keys sorted (equal views, equal strings)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def observe(engine: GameState, seat: int, catalogue: ActionCatalogue) -> str:
    """What ``seat`` sees: its view, and when it decides, the ids it may choose among (its
    own options are its to know; a view need not list them all, a drawn token's for one)."""
    text = _text(engine.view(seat))
    if not engine.over and seat in engine.decision().seats:
        ids = catalogue.legal(engine.legal_actions(seat))
        text += "\nlegal: " + ",".join(str(i) for i in ids)
    return text


class _Frame:
    """The engine's game at one past decision (a clone never played on), and what each
    seat observed there, made when first asked for; shared by every state that passed there."""

    __slots__ = ("game", "seen")

    def __init__(self, game: GameState) -> None:
        self.game = game
        self.seen: dict[int, str] = {}

    def observation(self, seat: int, catalogue: ActionCatalogue) -> str:
        found = self.seen.get(seat)
        if found is None:
            found = self.seen[seat] = observe(self.game, seat, catalogue)
        return found


class _Table:
    """What every state of one game shares and never changes: the data, the table size,
    the seeds chance deals from and the catalogue (a clone keeps the same one)."""

    def __init__(self, data: GameData, players: int, seed: int, deals: int) -> None:
        self.data = data
        self.players = players
        self.seed = seed
        self.deals = deals
        self.catalogue = ActionCatalogue(data, players)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self


class _Play:
    """What a state holds beyond OpenSpiel's own history: the engine's game (None before
    the deal), the past decisions (frames and the actions played there, as text) and the
    legal ids.

    ``clone()`` deep-copies a Python state's attributes; this one copies itself the cheap
    way (the engine's ``clone``, the frames and the table shared)."""

    def __init__(self, engine: GameState | None, table: _Table) -> None:
        self.engine = engine
        self.table = table
        self.catalogue = table.catalogue
        self.frames: list[_Frame] = []
        self.played: list[dict[int, str]] = []
        self.legal: dict[int, dict[int, AnyAction]] = {}
        self.words: dict[int, dict[int, str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        other = _Play(None if self.engine is None else self.engine.clone(), self.table)
        other.frames = list(self.frames)
        other.played = list(self.played)
        return other

    def game(self) -> GameState:
        if self.engine is None:
            raise RuleError("the cards are not dealt yet: apply a chance outcome (the deal) "
                            "first")
        return self.engine

    def legal_ids(self, seat: int) -> dict[int, AnyAction]:
        found = self.legal.get(seat)
        if found is None:
            found = self.legal[seat] = self.catalogue.legal(self.game().legal_actions(seat))
        return found

    def texts(self, seat: int) -> dict[int, str]:
        """The legal actions of ``seat`` in words, by id: the engine's text, with the id's
        description added where two would read the same (two cards of one name, of two ages)."""
        found = self.words.get(seat)
        if found is None:
            legal = self.legal_ids(seat)
            plain = {action_id: str(action) for action_id, action in legal.items()}
            counts: dict[str, int] = {}
            for text in plain.values():
                counts[text] = counts.get(text, 0) + 1
            found = self.words[seat] = {
                action_id: text if counts[text] == 1
                else f"{text} [{self.catalogue.describe(action_id)}]"
                for action_id, text in plain.items()}
        return found

    def play(self, chosen: dict[int, int]) -> None:
        """Resolve the pending decision with an id from each deciding seat."""
        engine = self.game()
        actions: dict[int, AnyAction] = {}
        for seat, action_id in chosen.items():
            action = self.legal_ids(seat).get(action_id)
            if action is None:
                raise IllegalActionError(
                    seat, f"action {action_id} ({self.catalogue.describe(action_id)})",
                    f"not legal now; the legal ids are {sorted(self.legal_ids(seat))}")
            actions[seat] = action
        self.frames.append(_Frame(engine.clone()))
        self.played.append({seat: self.texts(seat)[chosen[seat]] for seat in actions})
        engine.play(actions)
        self.legal = {}
        self.words = {}


class WondersGame(pyspiel.Game):  # type: ignore[misc]
    """One rule set and table size as an OpenSpiel game (``pyspiel.load_game`` makes it).

    Parameters: ``players``; ``seed``, the first seed chance deals from, and ``deals``, how
    many (``{"seed": 7, "deals": 1}``: always the game ``wonders play --seed 7`` plays)."""

    #: Set by each registered subclass (:func:`wonders.openspiel.register`): OpenSpiel
    #: registers a game class and calls it with the parameters.
    short_name: str = ""
    rule_data: GameData | None = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        short_name, data = self.short_name, self.rule_data
        if data is None:
            raise RuleError("WondersGame is made by pyspiel.load_game of a registered name "
                            "(import wonders.openspiel; see wonders.openspiel.register)")
        params = dict(params or {})
        players = int(params.get("players", default_players(data)))
        rules = data.rules
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{short_name} is played by {rules.min_players} to "
                            f"{rules.max_players} players, not {players}")
        self.deals = int(params.get("deals", DEALS))
        if self.deals < 1:
            raise RuleError(f"deals is how many seeds chance deals from: at least 1, "
                            f"not {self.deals}")
        self.data = data
        self.players = players
        self.seed = int(params.get("seed", 0))
        self.table = _Table(data, players, self.seed, self.deals)
        self.catalogue = self.table.catalogue
        game_info = pyspiel.GameInfo(
            num_distinct_actions=len(self.catalogue),
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=loop_for(data).kind.max_decisions)
        super().__init__(game_type(short_name, data), game_info,
                         {"players": players, "seed": self.seed, "deals": self.deals})

    def new_initial_state(self) -> WondersState:
        """A game before the deal: a chance node (apply an outcome ``k``: seed ``seed + k``)."""
        return WondersState(self)

    def dealt_state(self, seed: int) -> WondersState:
        """The game the engine plays with this seed (``wonders play --seed SEED``), dealt."""
        if not self.seed <= seed < self.seed + self.deals:
            raise RuleError(f"seed {seed} is not among this game's deals, "
                            f"{self.seed}..{self.seed + self.deals - 1}")
        state = self.new_initial_state()
        state.apply_action(seed - self.seed)
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> WondersObserver:
        """Information states (perfect recall) or observations of one seat."""
        if params:
            raise ValueError(f"wonders observers take no parameters; got {params}")
        return WondersObserver(pyspiel.IIGObservationType(perfect_recall=False)
                               if iig_obs_type is None else iig_obs_type)


class WondersState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: OpenSpiel's state over the engine's :class:`GameState`."""

    def __init__(self, game: WondersGame) -> None:
        super().__init__(game)
        self._play = _Play(None, game.table)

    @property
    def engine(self) -> GameState:
        """The engine's game (read it; play through ``apply_action``/``apply_actions``)."""
        return self._play.game()

    def current_player(self) -> int:
        engine = self._play.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.over:
            return int(pyspiel.PlayerId.TERMINAL)
        seats = engine.decision().seats
        return seats[0] if len(seats) == 1 else int(pyspiel.PlayerId.SIMULTANEOUS)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: each of the game's seeds, equally likely."""
        if self._play.engine is not None:
            return []
        return [(k, 1.0 / self._play.table.deals) for k in range(self._play.table.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._play.engine
        if engine is None or engine.over:
            return []
        seats = engine.decision().seats
        if player in seats:
            return list(self._play.legal_ids(player))
        return [self._play.catalogue.wait] if len(seats) > 1 else []

    def legal_engine_actions(self, player: int) -> dict[int, AnyAction]:
        """The legal actions of ``player`` by id (the engine's values)."""
        return dict(self._play.legal_ids(player))

    def _apply_action(self, action: int) -> None:
        if self._play.engine is None:
            table = self._play.table
            if not 0 <= action < table.deals:
                raise IllegalActionError(int(pyspiel.PlayerId.CHANCE), f"deal {action}",
                                         f"the deal is an outcome 0..{table.deals - 1}")
            self._play.engine = new_game(table.data, table.players, table.seed + int(action))
            return
        seat = self.current_player()
        if seat < 0:
            raise RuleError("the game is over: no action can be applied"
                            if seat == pyspiel.PlayerId.TERMINAL else
                            "a simultaneous node takes apply_actions (one action per player)")
        self._play.play({seat: int(action)})

    def _apply_actions(self, actions: Sequence[int]) -> None:
        seats = self._play.game().decision().seats
        if len(actions) != self._play.table.players:
            raise RuleError(f"a simultaneous node takes one action per player, "
                            f"{self._play.table.players}; got {len(actions)}")
        wait = self._play.catalogue.wait
        for seat, action in enumerate(actions):
            if seat not in seats and action != wait:
                raise IllegalActionError(seat, f"action {action}", f"player {seat} does not "
                                         f"decide now: its action is {wait} (wait)")
        self._play.play({seat: int(actions[seat]) for seat in seats})

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self._play.table.seed + int(action)}"
        engine = self._play.engine
        deciding = engine is not None and not engine.over and player in engine.decision().seats
        found = self._play.texts(player).get(int(action)) if deciding else None
        return found if found is not None else self._play.catalogue.describe(int(action))

    def string_to_action(self, *args: Any) -> int:
        """The id of an action from its text (``action_to_string``'s), for one player:
        ``string_to_action(player, text)``, or ``string_to_action(text)`` at a player's
        node.  (OpenSpiel's own looks among the current player's actions only, so it
        cannot answer at a simultaneous node.)"""
        if len(args) == 1:
            player, text = self.current_player(), str(args[0])
        else:
            player, text = int(args[0]), str(args[1])
        for action_id in self._legal_actions(player):
            if self._action_to_string(player, action_id) == text:
                return action_id
        raise IllegalActionError(player, repr(text), "no legal action of this player reads "
                                 "so now (see action_to_string)")

    def is_terminal(self) -> bool:
        return self._play.engine is not None and self._play.engine.over

    def returns(self) -> list[float]:
        engine = self._play.engine
        if engine is None or not engine.over:
            return [0.0] * self._play.table.players
        return win_returns(engine.score_sheet().winners, engine.players)

    def view_string(self, seat: int) -> str:
        """What ``seat`` sees now (its observation; "" before the deal): its view as one line
        of JSON, and when it decides, a line of the ids it may choose among."""
        engine = self._play.engine
        return "" if engine is None else observe(engine, seat, self._play.catalogue)

    def history_string(self, seat: int) -> str:
        """Everything ``seat`` saw and chose, one line a decision (its information state)."""
        lines: list[str] = []
        for frame, played in zip(self._play.frames, self._play.played):
            lines.append(frame.observation(seat, self._play.catalogue))
            if seat in played:
                lines.append(f"you: {played[seat]}")
        lines.append(self.view_string(seat))
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WondersState:
        """A state ``player_id`` cannot tell from this one: everything it cannot see dealt
        again (the engine's ``determinize``, which also reseeds the generator).  The other
        seats' past views stay the true ones (the same in every sample: they tell nothing)."""
        rng = random.Random(int(float(probability_sampler()) * 2 ** 53))
        other: WondersState = self.clone()
        other._play.engine = self._play.game().determinize(player_id, rng)
        other._play.legal = {}
        other._play.words = {}
        return other

    def __str__(self) -> str:
        engine = self._play.engine
        if engine is None:
            table = self._play.table
            return f"before the deal (seeds {table.seed}..{table.seed + table.deals - 1})"
        head = ("over: " + " ".join(str(t) for t in engine.score_sheet().totals)
                if engine.over else f"{engine.decision().kind} {list(engine.decision().seats)}")
        last = json.dumps(engine.history[-1], sort_keys=True) if engine.history else "{}"
        return f"seed {engine.seed}, decision {len(self._play.played)}, {head}\nlast: {last}"


class WondersObserver:
    """OpenSpiel's ``PyObserver``: a seat's information state (``perfect_recall``) or
    observation as a string; no tensors (``docs/openspiel.md``)."""

    def __init__(self, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER \
                or not iig_obs_type.public_info:
            raise ValueError("wonders observes one seat at a time, public and private "
                             "information together (private_info=SINGLE_PLAYER, "
                             "public_info=True)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: WondersState, player: int) -> None:
        """(No tensor to fill.)"""

    def string_from(self, state: WondersState, player: int) -> str:
        return state.history_string(player) if self.perfect_recall \
            else state.view_string(player)


__all__ = ["WondersGame", "WondersObserver", "WondersState", "game_type", "win_returns"]
