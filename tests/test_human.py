"""``wonders play --human``: driven as a user would, with scripted input.

Most tests go through the command line (typer's CliRunner with ``input=``);
a few drive ``HumanGame`` with a scripted ``ask`` function and a recording
console, to reach situations a fixed script cannot aim at (several payments,
building from the discard pile, Babylon's last card).
"""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Callable

import pytest
from rich.console import Console
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.cli.human import HumanGame
from wonders.engine import Build, BuildStage, Game, Phase

runner = CliRunner()

# every turn: try to build the first card, take the cheapest payment, else sell it
GREEDY_SCRIPT = "build 1\n\nsell 1\n" * 80


def play(text: str, *args: str):  # type: ignore[no-untyped-def]
    """``play --human``; sides dealt at random unless the test says otherwise, so the
    scripts below start on the first turn (choosing sides has tests of its own); seed 0
    and random bots unless the test says otherwise (the scripts were written for that
    deal; the defaults of ``--human`` have tests of their own)."""
    sides = () if "--side" in args else ("--side", "random")
    seed = () if "--seed" in args else ("--seed", "0")
    bots = () if "--bots" in args else ("--bots", "random")
    return runner.invoke(app, ["play", "--human", *sides, *seed, *bots, *args], input=text)


# --- complete games through the command line -------------------------------------------------

def test_complete_game_through_the_cli() -> None:
    result = play(GREEDY_SCRIPT, "--players", "3", "--seed", "2")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Age I · turn 1" in out and "Age III · turn 6" in out
    assert "Your hand" in out and "costs you now" in out
    assert "Your neighbours" in out and "Your city" in out
    assert "You: built" in out
    assert "Military at the end of age I" in out
    assert "Final score sheet" in out
    assert "(you)" in out
    assert ("You win!" in out or "You share the victory!" in out or "You finished" in out)
    assert "Traceback" not in out


def test_defaults_a_fresh_printed_seed_and_greedy_opponents() -> None:
    """Without --seed and --bots, ``play --human`` deals a new game each time against the
    greedy bot, and prints the seed: the same seed and ``--bots greedy`` replay exactly
    that game, random bots play another one."""
    def human(*args: str) -> str:
        result = runner.invoke(app, ["play", "--human", "--side", "random", "--players", "3",
                                     *args], input=GREEDY_SCRIPT)
        assert result.exit_code == 0, result.output
        assert "Final score sheet" in result.output
        return result.output

    first, second = human(), human()
    seeds = [int(out.split()[1]) for out in (first, second)]
    assert first.startswith(f"seed {seeds[0]} (the same deal again: --seed {seeds[0]}); "
                            "opponents: greedy\n")
    assert seeds[0] != seeds[1]  # one in a million to fail
    assert human("--seed", str(seeds[0]), "--bots", "greedy") == first
    replayed_with_random = human("--seed", str(seeds[0]), "--bots", "random")
    assert replayed_with_random.splitlines()[0] == (
        f"seed {seeds[0]} (the same deal again: --seed {seeds[0]}); opponents: random")
    assert replayed_with_random.splitlines()[1:] != first.splitlines()[1:]


def test_complete_game_by_names_and_numbers_with_seat_and_bots() -> None:
    # seat 1, the other seats named explicitly; cards chosen by number then action
    result = play("1\ns\n" * 30 + "sell 1\n" * 30, "--players", "4", "--seed", "5",
                  "--seat", "1", "--bots", "random,random,random")
    assert result.exit_code == 0, result.output
    assert "You are seat 1" in result.output
    assert "Final score sheet" in result.output
    assert "You: sold" in result.output


def test_first_turn_shows_costs_and_why() -> None:
    result = play("quit\n", "--players", "3", "--seed", "1")
    out = result.output
    assert result.exit_code == 0
    # the opening hand of seat 0 (Babylon B) for seed 1
    game = Game.new("base", players=3, seed=1, sides="random")
    for card in game.hands[0]:
        assert card.name in out
    assert "free" in out
    assert "Wonder stage 1 of" in out
    assert "Selling a card gives 3 coins" in out
    assert "Game abandoned (you quit)" in out


def test_only_own_hand_is_shown() -> None:
    result = play("quit\n", "--players", "3", "--seed", "7")
    game = Game.new("base", players=3, seed=7, sides="random")
    own = {c.name for c in game.hands[0]}
    hidden = {c.name for s in (1, 2) for c in game.hands[s]} - own
    assert hidden
    hand_table = result.output.split("Your hand")[1]
    for name in hidden:
        assert name not in hand_table and name not in result.output


# --- bad input -----------------------------------------------------------------------------------

def first_hand(seed: int, players: int = 3) -> list[str]:
    return [c.name for c in Game.new("base", players=players, seed=seed, sides="random").hands[0]]


def test_unknown_card_out_of_range_and_garbage_reprompt() -> None:
    result = play("Zeppelin\n99\n0\n!!!\n\nbuild\nsell 1\nquit\n", "--players", "3",
                  "--seed", "1")
    out = result.output
    assert result.exit_code == 0, out
    assert "No card 'Zeppelin' in your hand" in out
    assert "There is no card 99: choose a number from 1 to 7" in out
    assert "There is no card 0" in out
    assert "No card '!!!' in your hand" in out
    assert "Type a card number (1–7) or name" in out
    assert "No card 'build' in your hand" in out
    assert "You: sold" in out
    assert "Traceback" not in out


def test_did_you_mean_prefix_and_case() -> None:
    hand = first_hand(1)
    name = hand[0]
    typo = name[:-1] + ("x" if name[-1] != "x" else "y")
    result = play(f"{typo}\n{name.upper()}\ns\nquit\n", "--players", "3", "--seed", "1")
    out = result.output
    assert f"Did you mean '{name}'?" in out
    assert f"What do you do with {name}?" in out
    # a prefix works when unique, and lists the candidates when not
    prefix = name[:3].lower()
    same = [n for n in dict.fromkeys(hand) if n.lower().startswith(prefix)]
    result = play(f"{prefix}\nquit\n", "--players", "3", "--seed", "1")
    if len(same) == 1:
        assert f"What do you do with {name}?" in result.output
    else:
        assert "matches several cards" in result.output


def test_ambiguous_prefix_lists_the_cards() -> None:
    for seed in range(40):
        hand = list(dict.fromkeys(first_hand(seed)))
        for a in hand:
            for b in hand:
                if a < b and a[0].lower() == b[0].lower():
                    result = play(f"{a[0]}\nquit\n", "--players", "3", "--seed", str(seed))
                    assert "matches several cards" in result.output
                    assert a in result.output.split("matches several cards")[1]
                    return
    pytest.skip("no hand with two cards of the same initial")


def impossible_build(seed: int) -> str | None:
    game = Game.new("base", players=3, seed=seed, sides="random")
    legal = game.legal_actions(0)
    for index, card in enumerate(game.hands[0], 1):
        if not any(isinstance(a, Build) and a.card is card for a in legal):
            return str(index)
    return None


def test_impossible_build_and_stage_are_refused_with_a_reason() -> None:
    seed = next(s for s in range(50) if impossible_build(s))
    number = impossible_build(seed)
    result = play(f"build {number}\n{number}\nb\nw\n\nquit\n", "--players", "3",
                  "--seed", str(seed))
    out = result.output
    assert result.exit_code == 0, out
    assert "You cannot build" in out
    assert "more than you make plus what your neighbours sell" in out or "you have" in out
    assert "impossible" in out
    assert "Game abandoned" in out


def test_bad_action_letter_reprompts() -> None:
    result = play("1\nx\nbuild\nback\nquit\n", "--players", "3", "--seed", "1")
    out = result.output
    assert "'x' is not an action" in out
    assert "'build' is not an action" not in out  # build is a valid action word
    assert "Traceback" not in out


def test_eof_exits_cleanly_with_a_message() -> None:
    result = play("", "--players", "3", "--seed", "1")
    assert result.exit_code == 0
    assert "Game abandoned (input ended)" in result.output


def test_eof_in_a_real_process_has_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "wonders.cli", "play", "--human",
                           "--seed", "3"], input="2\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Game abandoned (input ended)" in done.stdout
    assert "Traceback" not in done.stderr + done.stdout


def test_help_and_show() -> None:
    result = play("help\nshow\nquit\n", "--players", "3", "--seed", "1")
    assert "How to play a turn" in result.output
    assert result.output.count("Your hand") == 2


@pytest.mark.parametrize("args", [["--seat", "5"], ["--seat", "-1"], ["--json"],
                                  ["--bots", "random,random,random,random"],
                                  ["--bots", "nosuchbot"]])
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    result = play("", "--players", "3", *args)
    assert result.exit_code == 2, result.output


def test_log_of_a_human_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "game.jsonl"
    result = play(GREEDY_SCRIPT, "--players", "3", "--seed", "2", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert log.exists()
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "identical" in replayed.output


# --- in-process: payments, discard builds, the last card ------------------------------------------

class Script:
    """A user who answers prompts with a function of the prompt and the game."""

    def __init__(self, game: Game, answer: Callable[[str, Game], str]) -> None:
        self.game = game
        self.answer = answer
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answer(prompt, self.game)


def run_human(game: Game, answer: Callable[[str, Game], str], seat: int = 0) -> tuple[bool, str]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    bots = {s: make_bot("random", s) for s in range(game.players) if s != seat}
    finished = HumanGame(game, seat, bots, console, Script(game, answer)).run()
    return finished, out.getvalue()


def builder(prompt: str, game: Game) -> str:
    """A user who builds wonder stages first, then resources and other cards, else sells."""
    if prompt.startswith("Payment"):
        return ""
    legal = game.legal_actions(0)
    hand = game.hands[0]
    for i, card in enumerate(hand, 1):
        if any(isinstance(a, BuildStage) and a.card is card for a in legal):
            return f"stage {i}"
    ranked = sorted(range(len(hand)), key=lambda i: hand[i].colour not in ("brown", "grey"))
    for i in ranked:
        if any(isinstance(a, Build) and a.card is hand[i] for a in legal):
            return f"build {i + 1}"
    return "sell 1"


def test_choosing_the_second_payment() -> None:
    chosen: list[Build] = []
    payments: list[str] = []

    def answer(prompt: str, game: Game) -> str:
        if prompt.startswith("Payment"):
            payments.append(prompt)
            return "2" if len(payments) == 1 else "1"
        if prompt.startswith("Your move"):
            legal = game.legal_actions(0)
            for card in game.hands[0]:
                builds = [a for a in legal if isinstance(a, Build) and a.card is card]
                if len(builds) > 1 and not chosen:
                    chosen.append(builds[1])
                    return f"build {card.name.lower()}"
            return "sell 1"
        raise AssertionError(prompt)

    for seed in range(30):
        chosen.clear()
        payments.clear()
        game = Game.new("base", players=3, seed=seed, sides="random")
        finished, out = run_human(game, answer)
        assert finished
        if chosen:
            assert "How do you pay?" in out
            assert "buy " in out
            built = next(h for h in game.history if h["actions"]["0"]["action"] == "build")
            assert built["actions"]["0"]["card"] == chosen[0].card.name
            assert built["actions"]["0"]["payment"] == chosen[0].payment.to_json()
            return
    pytest.fail("no game offered several payments")


def test_bad_payment_number_reprompts() -> None:
    answers: list[str] = []

    def answer(prompt: str, game: Game) -> str:
        if prompt.startswith("Payment"):
            answers.append(prompt)
            return "9" if len(answers) == 1 else ("zz" if len(answers) == 2 else "")
        legal = game.legal_actions(0)
        for card in game.hands[0]:
            if len([a for a in legal if isinstance(a, Build) and a.card is card]) > 1:
                return f"build {card.name}"
        return "sell 1"

    for seed in range(30):
        answers.clear()
        finished, out = run_human(Game.new("base", players=3, seed=seed, sides="random"), answer)
        if answers:
            assert "'9' is not a payment" in out
            assert "'zz' is not a payment" in out
            return
    pytest.fail("no game offered several payments")


def test_building_from_the_discard_pile() -> None:
    seen: list[str] = []

    def answer(prompt: str, game: Game) -> str:
        if prompt.startswith("Build which card"):
            seen.append(prompt)
            return "nonsense" if len(seen) == 1 else "1"
        return builder(prompt, game)

    game = Game(Game.new("base", players=3, sides="random").data, 3, 4, sides="A",
                wonders=["Halikarnassus", "Gizah", "Rhodos"])
    finished, out = run_human(game, answer)
    assert finished
    assert seen, "the discard build was never offered"
    assert "build one card from the discard pile" in out
    assert "No card 'nonsense'" in out
    builds = [h for h in game.history if h["phase"] == "discard_build"]
    assert builds and builds[0]["actions"]["0"]["action"] == "discard_build"


def test_skipping_the_discard_build() -> None:
    def answer(prompt: str, game: Game) -> str:
        if prompt.startswith("Build which card"):
            return "skip"
        return builder(prompt, game)

    game = Game(Game.new("base", players=3, sides="random").data, 3, 4, sides="A",
                wonders=["Halikarnassus", "Gizah", "Rhodos"])
    finished, out = run_human(game, answer)
    assert finished
    skips = [h for h in game.history if h["phase"] == "discard_build"]
    assert skips and all(h["actions"]["0"]["action"] == "skip" for h in skips)
    assert "took nothing from the discard pile" in out


def test_last_card_decision() -> None:
    phases: list[str] = []

    def answer(prompt: str, game: Game) -> str:
        phases.append(game.phase.value)
        return builder(prompt, game)

    game = Game(Game.new("base", players=3, sides="random").data, 3, 0, sides="B",
                wonders=["Babylon", "Gizah", "Rhodos"])
    finished, out = run_human(game, answer)
    assert finished
    assert Phase.LAST_CARD.value in phases
    assert "your last card: your wonder lets you play it" in out
    last = [h for h in game.history if h["phase"] == "last_card"]
    assert last and "0" in last[0]["actions"]


def test_view_only_shows_own_hand_in_process() -> None:
    game = Game.new("base", players=3, seed=11, sides="random")
    finished, out = run_human(game, lambda prompt, g: "quit")
    assert not finished
    for seat in (1, 2):
        for card in game.hands[seat]:
            if card not in game.hands[0]:
                assert card.name not in out


def test_sold_and_free_build_labels() -> None:
    game = Game(Game.new("base", players=3, sides="random").data, 3, 2, sides="A",
                wonders=["Olympia", "Gizah", "Rhodos"])

    finished, out = run_human(game, builder)
    assert finished
    assert "free with your free-build power" in out or "free-build power only" in out


# --- choosing the side of the board (setup.wonder_side: choose) ----------------------------

def test_the_player_chooses_a_side_by_letter_or_name() -> None:
    """The base rules say each player chooses: the terminal shows both sides of the board
    dealt and asks before Age I; the rule set's name for a side (Night = B) is understood."""
    game = Game.new("base", players=3, seed=3)
    assert game.decision().kind == "side" and game.to_move() == [0, 1, 2]
    result = play("C\nnight\nquit\n", "--players", "3", "--seed", "3", "--side", "choose")
    out = result.output
    assert result.exit_code == 0, out
    assert f"Your wonder board: {game.cities[0].wonder.name}" in out
    assert "B (Night)" in out and "A (Day)" in out
    assert "No side 'C'" in out
    assert f"seat 0: {game.cities[0].wonder.name} B" in out  # the side it now plays
    assert "Age I · turn 1" in out


def test_sides_per_seat_on_the_command_line() -> None:
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "4", "--side",
                                 "Day,night,random", "--json"])
    assert result.exit_code == 0, result.output
    assert "\"side\": \"A\"" in result.output and "\"side\": \"B\"" in result.output
    wrong = runner.invoke(app, ["play", "--players", "3", "--side", "A,B"])
    assert wrong.exit_code == 2 and "one per seat (3)" in wrong.output
    typo = runner.invoke(app, ["play", "--players", "3", "--side", "nigth"])
    assert typo.exit_code == 2 and "did you mean 'Night'" in typo.output
