"""Every shipped game is an OpenSpiel game: registered under its name, passing OpenSpiel's
own random-simulation test, with action ids that name every legal action exactly once,
information states that hold nothing a seat cannot see, and the engine's own games."""

from __future__ import annotations

import doctest
import importlib.util
import io
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'wonders[openspiel]')")

import wonders  # noqa: E402
import wonders.openspiel as wo  # noqa: E402
from wonders.dsl.loader import shipped_expansions, shipped_games  # noqa: E402
from wonders.engine.errors import IllegalActionError, RuleError  # noqa: E402
from wonders.engine.registry import loop_for  # noqa: E402
from wonders.openspiel.actions import ActionCatalogue, slot_of  # noqa: E402
from wonders.openspiel.game import win_returns  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def rule_sets() -> list[str]:
    """Every shipped game and every shipped expansion that is a rule set."""
    return sorted([*shipped_games(), *(name for name, folder in shipped_expansions().items()
                                       if (folder / "rules.yaml").is_file())])


@cache
def game(name: str, players: int | None = None, seed: int = 0) -> Any:
    params: dict[str, int] = {"seed": seed}
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(name, params)


def table_sizes(name: str) -> list[int]:
    kind = game(name).get_type()
    return sorted({kind.min_num_players, kind.max_num_players})


def random_play(state: Any, rng: random.Random) -> None:
    """One random step: a chance outcome, a joint action, or one player's action."""
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p))
                             for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_every_shipped_rule_set_has_an_openspiel_name() -> None:
    registered = {kind.short_name for kind in pyspiel.registered_games()}
    assert sorted(wo.GAMES.values()) == rule_sets()
    for name, rule_set in wo.GAMES.items():
        assert name == wo.short_name(rule_set) and name in registered
    assert wo.short_name("leaders-cities") == "wonders_leaders_cities"


@pytest.mark.parametrize("name", sorted(wo.GAMES))
def test_openspiel_random_simulation_test_passes(name: str) -> None:
    for players in table_sizes(name):
        sims = 2 if players <= 3 else 1
        pyspiel.random_sim_test(game(name, players), num_sims=sims, serialize=False,
                                verbose=False)


@pytest.mark.parametrize("name", sorted(wo.GAMES))
def test_game_type_and_sizes_come_from_the_rule_set(name: str) -> None:
    data = wonders.load_game(wo.GAMES[name])
    kind = loop_for(data).kind
    spiel = game(name).get_type()
    assert (spiel.min_num_players, spiel.max_num_players) == (data.rules.min_players,
                                                             data.rules.max_players)
    assert spiel.dynamics == (pyspiel.GameType.Dynamics.SIMULTANEOUS
                              if kind.dynamics == "simultaneous"
                              else pyspiel.GameType.Dynamics.SEQUENTIAL)
    assert spiel.information == (pyspiel.GameType.Information.PERFECT_INFORMATION
                                 if kind.information == "perfect"
                                 else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert spiel.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert spiel.utility == pyspiel.GameType.Utility.ZERO_SUM
    for players in table_sizes(name):
        loaded = game(name, players)
        assert loaded.num_players() == players
        assert loaded.num_distinct_actions() == len(ActionCatalogue(data, players))
        assert loaded.max_game_length() == kind.max_decisions
        assert loaded.max_chance_outcomes() == 1000   # the default 'deals'


def test_the_kinds_of_shipped_games() -> None:
    """Duel is sequential, the drafting games and Dice simultaneous; Dice hides nothing."""
    dynamics = pyspiel.GameType.Dynamics
    assert game("wonders_duel").get_type().dynamics == dynamics.SEQUENTIAL
    assert game("wonders_base").get_type().dynamics == dynamics.SIMULTANEOUS
    assert game("wonders_dice").get_type().dynamics == dynamics.SIMULTANEOUS
    assert game("wonders_dice").get_type().information == \
        pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game("wonders_duel").get_type().information == \
        pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("name, players", [("wonders_duel", 2), ("wonders_base", 4),
                                           ("wonders_dice", 3)])
def test_a_dealt_state_plays_the_engines_game_of_that_seed(name: str, players: int) -> None:
    loaded = game(name, players, 5)
    state = loaded.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "deal seed 7"
    state.apply_action(2)
    engine = wonders.new_game(wo.GAMES[name], players=players, seed=7)
    assert state.engine.setup_record() == engine.setup_record()
    rng = random.Random(3)
    while not state.is_terminal():
        random_play(state, rng)
        last = state.engine.history[-1]["actions"]
        engine.play({int(seat): next(a for a in engine.legal_actions(int(seat))
                                     if a.to_json() == record)
                     for seat, record in last.items()})
    assert engine.over and engine.history == state.engine.history
    assert engine.score_sheet() == state.engine.score_sheet()
    assert loaded.dealt_state(7).engine.setup_record() == engine.setup_record()
    with pytest.raises(RuleError, match="not among this game's deals"):
        loaded.dealt_state(4)


@pytest.mark.parametrize("name", sorted(wo.GAMES))
def test_action_ids_name_every_legal_action_once_and_round_trip(name: str) -> None:
    data = wonders.load_game(wo.GAMES[name])
    for players in table_sizes(name):
        loaded = game(name, players)
        catalogue = ActionCatalogue(data, players)
        rng = random.Random(players)
        for _ in range(2):
            state = loaded.new_initial_state()
            random_play(state, rng)   # the deal
            while not state.is_terminal():
                deciding = state.engine.decision().seats
                for seat in range(players):
                    ids = state.legal_actions(seat)
                    assert ids == sorted(ids)
                    if seat not in deciding:
                        assert ids == ([catalogue.wait] if state.is_simultaneous_node() else [])
                        continue
                    by_id = state.legal_engine_actions(seat)
                    engine_actions = list(state.engine.legal_actions(seat))
                    assert list(by_id) == ids and len(ids) == len(engine_actions)
                    assert sorted(map(str, by_id.values())) == sorted(map(str, engine_actions))
                    texts = [state.action_to_string(seat, i) for i in ids]
                    assert len(set(texts)) == len(texts)
                    for action_id, action in by_id.items():
                        assert 0 <= action_id < loaded.num_distinct_actions()
                        assert catalogue.slots[action_id][0] == slot_of(action)
                    pick = rng.choice(ids)
                    assert state.string_to_action(seat, state.action_to_string(seat, pick)) \
                        == pick
                random_play(state, rng)


def card_names(engine: Any, seat: int) -> tuple[set[str], set[str]]:
    """The names of the cards ``seat`` can see now, and of those it cannot see anywhere."""
    hidden: set[str] = set()
    seen: set[str] = set()
    for visible, cards in engine.card_places(seat).values():
        (seen if visible else hidden).update(card.name for card in cards)
    return seen, hidden - seen


@pytest.mark.parametrize("name, players", [("wonders_base", 4), ("wonders_duel", 2),
                                           ("wonders_leaders_cities", 3)])
def test_information_states_hold_nothing_a_seat_cannot_see(name: str, players: int) -> None:
    rng = random.Random(11)
    resampled_differently = hidden_checked = 0
    for _ in range(2):
        state = game(name, players).new_initial_state()
        random_play(state, rng)
        ever_seen: list[set[str]] = [set() for _ in range(players)]
        while not state.is_terminal():
            for seat in range(players):
                seen, hidden = card_names(state.engine, seat)
                ever_seen[seat] |= seen
                observation = state.observation_string(seat)
                information = state.information_state_string(seat)
                assert information.endswith(observation)
                for card in hidden:
                    assert f'"{card}"' not in observation, (seat, card)
                for card in hidden - ever_seen[seat]:
                    hidden_checked += 1
                    assert f'"{card}"' not in information, (seat, card)
            seat = rng.randrange(players)
            other = state.resample_from_infostate(seat, rng.random)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.legal_actions(seat) == state.legal_actions(seat)
            if other.engine.card_places(seat) != state.engine.card_places(seat):
                resampled_differently += 1
            random_play(state, rng)
    assert resampled_differently > 0   # the worlds resampled did differ in hidden cards
    assert hidden_checked > 0          # and there were cards never seen to look for


def test_information_states_have_perfect_recall() -> None:
    """A seat's information state grows by what it saw and chose at each decision: the
    hand it was dealt stays in it after the hand is passed on."""
    state = game("wonders_base", 3).dealt_state(4)
    first_hand = state.engine.view(0)["hand"]
    seen = state.information_state_string(0)
    rng = random.Random(1)
    while state.engine.decision().kind != "turn" or state.engine.turn < 2:
        random_play(state, rng)
    later = state.information_state_string(0)
    assert later.startswith(seen + "\n") and "\nyou: " in later
    assert state.engine.view(0)["hand"] != first_hand
    assert all(f'"{card}"' in later for card in first_hand)


def test_returns_are_zero_sum_win_loss_draw() -> None:
    assert win_returns([0], 2) == [1.0, -1.0]
    assert win_returns([0, 1], 2) == [0.0, 0.0]
    assert win_returns([2], 4) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert win_returns([1, 3], 4) == pytest.approx([-1 / 3, 1 / 3, -1 / 3, 1 / 3])
    state = game("wonders_base", 4).dealt_state(3)
    rng = random.Random(2)
    while not state.is_terminal():
        assert state.returns() == [0.0] * 4
        random_play(state, rng)
    winners = state.engine.score_sheet().winners
    assert state.returns() == pytest.approx(win_returns(winners, 4))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_bad_moves_and_parameters_say_what_is_wrong() -> None:
    state = game("wonders_duel").dealt_state(0)
    legal = state.legal_actions()
    wrong = next(i for i in range(game("wonders_duel").num_distinct_actions())
                 if i not in legal)
    with pytest.raises(IllegalActionError, match="not legal now"):
        state.apply_action(wrong)
    with pytest.raises(Exception, match="played by 3 to 7 players, not 2"):
        pyspiel.load_game("wonders_base", {"players": 2})
    with pytest.raises(Exception, match="at least 1"):
        pyspiel.load_game("wonders_duel", {"deals": 0})


def test_the_package_docstring_example_runs() -> None:
    found = doctest.testmod(wo)
    assert found.attempted >= 4 and found.failed == 0


def test_the_first_example_of_the_openspiel_page_runs(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    page = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/openspiel.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("build ") or printed[0].startswith("sell ")
    assert printed[1].startswith('{"age":1,"cities":[')


def test_the_duel_example_runs_is_mcts_against_random() -> None:
    spec = importlib.util.spec_from_file_location("openspiel_duel",
                                                  ROOT / "examples" / "openspiel_duel.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = io.StringIO()
    results = example.play(games=2, simulations=3, seed=1, evaluator="standing", out=out)
    lines = out.getvalue().splitlines()
    assert len(results) == 2 and all(r in (-1.0, 0.0, 1.0) for r in results)
    assert lines[0].startswith("game 1: IS-MCTS (player 0) ")
    assert lines[1].startswith("game 2: IS-MCTS (player 1) ")
    assert lines[-1] == (f"IS-MCTS (3 simulations a move, standing evaluator) won "
                         f"{sum(1 for r in results if r > 0)} of 2 games against random play")
