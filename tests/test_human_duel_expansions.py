"""``wonders play --game agora|pantheon-agora --human``: Duel's expansions at the terminal.

The driver of tests/test_human_duel.py answers as a user would, and also the expansions'
prompts: a turn's other moves (activate, prepare) by their notation, the follow-ups
(a chamber, a conspiracy kept or triggered, an effect chosen) by theirs.  The game
played through the terminal must be the very game the bots play directly, and the
Senate and the held tokens are shown with what their tokens do."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from test_human_duel import Driver, bot_policy, directly, recording_console

from wonders.bots import make_bot
from wonders.cli.structure_human import StructureHumanGame
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import ChooseWonder
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move

ROOT = Path(__file__).resolve().parents[1]


class MovesDriver(Driver):
    """Answers the listed prompts of the flow's moves, and Duel's prompts as before."""

    def answer(self, prompt: str) -> str:
        action = self.action()
        if prompt.startswith("Choose 1–") and "(or write it)" in prompt:
            assert isinstance(action, Move), (prompt, action)
            return str(action)
        if ": a1–a" in prompt:   # a turn's moves beside the cards
            return str(action) if isinstance(action, Move) else ""
        return super().answer(prompt)


def through(game: FlowGame, seat: int, seed: int) -> tuple[MovesDriver, str]:
    """The game played through the terminal: the human's seat typed by the driver."""
    driver = MovesDriver(game, seat, bot_policy("greedy", seed * 1000 + seat))
    console = recording_console()
    bots = {1 - seat: make_bot("random", seed * 1000 + 1 - seat)}
    assert StructureHumanGame(game, seat, bots, console, driver).run()
    return driver, console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("folder, seed, seat", [("agora", 1, 0), ("agora", 3, 1),
                                                ("pantheon-agora", 3, 0),
                                                ("pantheon-agora", 4, 1)])
def test_an_expansion_game_through_the_terminal_is_the_game_the_bots_play(
        folder: str, seed: int, seat: int) -> None:
    data: GameData = load_game([ROOT / "expansions" / folder])
    game = FlowGame(data, 2, seed)
    driver, out = through(game, seat, seed)
    direct = directly(data, seed, seat, bot_policy("greedy", seed * 1000 + seat), "random")
    assert game.history == direct.history
    assert game.score_sheet().to_json() == direct.score_sheet().to_json()
    assert "The chambers" in out and "Cubes left: you" in out
    assert "Held tokens: you" in out
    assert "Decree" in out and "face down" in out
    assert any(": a1–a" in p or "(or write it)" in p for p in driver.prompts)
    assert "Final score sheet" in out and "Traceback" not in out


def test_coins_laid_aside_are_shown_beside_the_treasury() -> None:
    """Astarte's coins (``coins 7 aside``) are the player's but not the treasury's: the
    cities table shows both."""
    data = load_game([ROOT / "expansions" / "pantheon"])
    game = FlowGame(data, 2, 0)
    game.cities[0].aside = 7
    console = recording_console()
    StructureHumanGame(game, 0, {1: make_bot("random", 1)}, console, lambda _: "").show_cities()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "(+7 laid aside" in out


def agora_wonders_first(seed: int) -> Callable[[FlowGame, int], object]:
    """Pick Curia Julia or Knossos whenever offered in the draft, else play greedy."""
    greedy = make_bot("greedy", seed)

    def choose(game: FlowGame, seat: int) -> object:
        legal = game.legal_actions(seat)
        picks = [a for a in legal if isinstance(a, ChooseWonder)
                 and a.wonder.name in ("Curia Julia", "Knossos")]
        return picks[0] if picks else greedy.choose(game, seat)
    return choose


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_wonders_chosen_in_the_draft_ask_the_human_before_the_next_pick(
        seed: int) -> None:
    """Curia Julia and Knossos picked by the human: the conspiracy kept (and returned) and
    the cube placed are asked at the terminal during the draft, and the game is the game the
    same choices make directly."""
    data: GameData = load_game([ROOT / "expansions" / "agora"])
    game = FlowGame(data, 2, seed)
    policy = agora_wonders_first(seed)
    driver = MovesDriver(game, 0, policy)  # type: ignore[arg-type]
    console = recording_console()
    assert StructureHumanGame(game, 0, {1: make_bot("random", seed * 1000 + 1)}, console,
                              driver).run()
    direct = directly(data, seed, 0, agora_wonders_first(seed),  # type: ignore[arg-type]
                      "random")
    assert game.history == direct.history
    draft = [r for r in game.history if r["age"] == 0]
    mine = {r["actions"]["0"].get("wonder") for r in draft if r["phase"] == "wonder_draft"
            and "0" in r["actions"]}
    follow_ups = [r["phase"] for r in draft if "0" in r["actions"]]
    assert mine & {"Curia Julia", "Knossos"}, mine
    if "Curia Julia" in mine:
        assert {"keep", "return"} <= set(follow_ups), follow_ups
        assert any(p.startswith("Choose 1–") for p in driver.prompts)
    if "Knossos" in mine:
        assert "influence" in follow_ups, follow_ups
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Traceback" not in out
