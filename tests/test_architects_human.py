"""``wonders play --game architects --human``: the flow games' terminal, driven with scripted
input as a user would (numbers, typed moves, mistakes, help, quitting)."""

from __future__ import annotations

from io import StringIO
from typing import Callable, Iterator

import pytest
from rich.console import Console
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.cli.flow_human import describe_token, play_flow_human
from wonders.dsl.loader import load_game
from wonders.engine.flow import FlowGame

runner = CliRunner()


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return load_game(game="architects")


def scripted(answers: Iterator[str], prompts: list[str]) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)
    return ask


def test_a_whole_two_player_game_through_the_command_line() -> None:
    """Always the first move: the game reaches its end and prints the score sheet."""
    result = runner.invoke(app, ["play", "--game", "architects", "--human", "--players", "2",
                                 "--seed", "4", "--bots", "random"], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("seed 4 (the same deal again: --seed 4); opponents: random\n")
    for shown in ("Your Wonder: ", "Your cards", "Everyone", "Decks", "Progress tokens",
                  "Conflict: ", "Your decision: taking a card", "1. take left — the ",
                  "take central — the central deck (top: face down", "Since your last move:",
                  "Final score sheet", "pieces", "winner"):
        assert shown in out, shown
    assert "You win!" in out or "You share the victory!" in out or "You finished" in out
    assert "Traceback" not in out


def test_typed_moves_mistakes_help_and_show(data) -> None:  # type: ignore[no-untyped-def]
    """A move typed in full or by a unique beginning is played; a number out of range, a
    word that is no move, and an ambiguous beginning are explained and asked again."""
    game = FlowGame(data, 2, 4)
    out = StringIO()
    prompts: list[str] = []
    answers = iter(["9", "dance", "take", "help", "show", "TAKE   Left", "take ce"]
                   + ["1"] * 400)
    assert play_flow_human(game, 0, {1: make_bot("random", 1)}, Console(file=out, width=140),
                           scripted(answers, prompts))
    text = out.getvalue()
    assert "Choose a number from 1 to 3." in text
    assert "cannot play 'dance' now" in text and "take left" in text
    assert "'take' begins 3 moves: take left, take right, take central" in text
    assert "A Wonder piece is built as soon as your cards pay" in text   # help
    assert game.over
    # seat 0's first two turns: its own deck (left), then the central one
    ours = [str(move) for _, kind, seat, move, _, _ in game.records
            if seat == 0 and kind == "turn"]
    assert ours[:2] == ["take left", "take central"]


def test_quitting_leaves_the_game_unfinished(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 2, 1)
    out = StringIO()
    answers = iter(["1", "q"])
    assert not play_flow_human(game, 1, {0: make_bot("random", 0)}, Console(file=out),
                               scripted(answers, []))
    assert "You left the game." in out.getvalue()
    assert not game.over


def test_end_of_input_quits(data) -> None:  # type: ignore[no-untyped-def]
    def ask(prompt: str) -> str:
        raise EOFError

    game = FlowGame(data, 3, 2)
    bots = {1: make_bot("random", 1), 2: make_bot("random", 2)}
    assert not play_flow_human(game, 0, bots, Console(file=StringIO()), ask)


@pytest.mark.parametrize("seed, follow_ups", [(11, {"progress", "look", "keep", "extra"}),
                                               (13, {"progress", "deck", "build", "extra"})])
def test_follow_ups_are_asked_and_recapped(data, seed: int,  # type: ignore[no-untyped-def]
                                           follow_ups: set[str]) -> None:
    """Whole games against greedy bots in which the human was asked follow-ups (a token, a
    deck to look into and a card to keep, one more card, a deck, a piece and its payment):
    each was shown with its wording, and the recap says what every seat did."""
    game = FlowGame(data, 3, seed)
    out = StringIO()
    answers = iter(["1"] * 600)
    bots = {1: make_bot("greedy", 1), 2: make_bot("greedy", 2)}
    assert play_flow_human(game, 0, bots, Console(file=out, width=160), scripted(answers, []))
    text = out.getvalue()
    asked = {kind for _, kind, seat, _, _, _ in game.records if seat == 0}
    assert follow_ups <= asked
    wording = {"build": "building a Wonder piece", "progress": "taking a progress token",
               "extra": "taking one more card (or not)", "deck": "choosing a deck to take from",
               "look": "choosing a deck to look into",
               "keep": "keeping one of the cards looked at"}
    for kind in follow_ups:
        assert f"Your decision: {wording[kind]}" in text, kind
    if "keep" in follow_ups:
        assert "You look at: " in text
    assert f"{game.seats[2].label()}: " in text and "You now: " in text
    assert "Battle! shields: " in text


def test_tokens_are_described_from_their_data(data) -> None:  # type: ignore[no-untyped-def]
    words = {describe_token(token) for token in data.components.progress}
    assert len(words) == len(data.components.progress)   # no two alike
    assert "—" not in words
