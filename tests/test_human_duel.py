"""``wonders play --game duel --human``: the card-structure game at the terminal.

A *driver* answers the prompts as a user would type them, from a bot's choice
for the human's seat: the game played through the terminal must then be the
very game the bots play directly (same history, same score sheet).  The
driver's answers, recorded once, are also fed to the real command line.
Fixed scripts cover bad input, and games set up with chosen wonders reach the
token, destroy and discard-pile prompts.
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
from wonders.cli.structure_human import StructureHumanGame
from wonders.dsl import effects as fx
from wonders.dsl.loader import load_game, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import (
    Action,
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    ChooseWonder,
    DestroyCard,
    Sell,
    Skip,
    TakeToken,
)
from wonders.engine.drafted_city import stage_effects
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import structure as structure_part
from wonders.engine.registry import new_game

pytestmark = pytest.mark.skipif("duel" not in shipped_games(), reason="cards/duel not shipped")

runner = CliRunner()


@pytest.fixture(scope="module")
def duel() -> GameData:
    return load_game([], "duel")


def play(text: str, *args: str):  # type: ignore[no-untyped-def]
    """``play --game duel --human``: seed 0 and random bots unless the test says otherwise
    (the drivers were written for them; the defaults of ``--human`` have tests of their own)."""
    seed = () if "--seed" in args else ("--seed", "0")
    bots = () if "--bots" in args else ("--bots", "random")
    return runner.invoke(app, ["play", "--game", "duel", "--human", *seed, *bots, *args],
                         input=text)


Policy = Callable[[FlowGame, int], Action]


class Driver:
    """Types what a user would type to make ``policy``'s choice, prompt by prompt."""

    def __init__(self, game: FlowGame, seat: int, policy: Policy) -> None:
        self.game = game
        self.seat = seat
        self.policy = policy
        self.chosen: dict[int, Action] = {}
        self.answers: list[str] = []
        self.prompts: list[str] = []

    def action(self) -> Action:
        key = len(self.game.records)
        if key not in self.chosen:
            self.chosen[key] = self.policy(self.game, self.seat)
        return self.chosen[key]

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        answer = self.answer(prompt)
        self.answers.append(answer)
        return answer

    def answer(self, prompt: str) -> str:
        action = self.action()
        if prompt.startswith("Choose a wonder"):
            assert isinstance(action, ChooseWonder)
            return action.wonder.name
        if prompt.startswith("Your move"):
            if isinstance(action, Build):
                return f"build {action.card.name}"
            if isinstance(action, Sell):
                return f"sell {action.card.name}"
            assert isinstance(action, BuildWonder)
            return f"wonder {action.card.name}"
        if prompt.startswith("Wonder "):
            assert isinstance(action, BuildWonder)
            return action.wonder.name
        if prompt.startswith("Take which token"):
            assert isinstance(action, TakeToken)
            return action.token.name
        if prompt.startswith("Destroy which card"):
            assert isinstance(action, DestroyCard)
            return action.card.name
        if prompt.startswith("Build which card"):
            if isinstance(action, Skip):
                return "skip"
            assert isinstance(action, BuildFromDiscard)
            return action.card.name
        if prompt.startswith("Who starts"):
            assert isinstance(action, ChooseStarter)
            return "me" if action.seat == self.seat else "opponent"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def recording_console() -> Console:
    return Console(file=io.StringIO(), width=120, force_terminal=False, color_system=None)


def bot_policy(name: str, seed: int) -> Policy:
    bot = make_bot(name, seed)
    return bot.choose


def wonders_first(seed: int) -> Policy:
    """Build a wonder whenever possible (to reach what wonders ask for), else greedy."""
    greedy = make_bot("greedy", seed)

    def choose(game: FlowGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        wonders = [a for a in legal if isinstance(a, BuildWonder)]
        return wonders[0] if wonders else greedy.choose(game, seat)
    return choose


def through_the_terminal(game: FlowGame, seat: int, policy: Policy,
                         opponent: str, seed: int) -> tuple[Driver, str]:
    driver = Driver(game, seat, policy)
    console = recording_console()
    bots = {1 - seat: make_bot(opponent, seed * 1000 + 1 - seat)}
    finished = StructureHumanGame(game, seat, bots, console, driver).run()
    assert finished
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return driver, output


def directly(data: GameData, seed: int, seat: int, policy: Policy, opponent: str,
             **options: object) -> FlowGame:
    game = FlowGame(data, 2, seed, **options)  # type: ignore[arg-type]
    other = make_bot(opponent, seed * 1000 + 1 - seat)
    while not game.over:
        (mover,) = game.to_move()
        game.play({mover: policy(game, mover) if mover == seat else other.choose(game, mover)})
    return game


# --- complete games ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed,seat", [(1, 0), (2, 1), (5, 0)])
def test_a_game_through_the_terminal_is_the_game_the_bots_play(duel: GameData, seed: int,
                                                                 seat: int) -> None:
    game = FlowGame(duel, 2, seed)
    driver, out = through_the_terminal(game, seat, bot_policy("greedy", seed * 1000 + seat),
                                       "random", seed)
    direct = directly(duel, seed, seat, bot_policy("greedy", seed * 1000 + seat), "random")
    assert game.history == direct.history
    assert game.score_sheet().to_json() == direct.score_sheet().to_json()
    assert "Wonder draft" in out and "Choose a wonder" in driver.prompts[0]
    assert "Age I · turn" in out
    assert "Conflict track" in out and "capital" in out
    assert "The structure (age I)" in out and "Cards you can take" in out
    assert "The cities" in out and "bank price per unit" in out
    assert "Final score sheet" in out
    assert f"Victory: {game.score_sheet().victory}" in out
    assert ("You win by" in out) == (game.score_sheet().winners == [seat])
    assert "Traceback" not in out


def test_the_command_line_plays_a_whole_game(duel: GameData) -> None:
    """The answers a driver typed, fed to ``wonders play --game duel --human``."""
    seed = 3
    game = new_game(duel, 2, seed)
    assert isinstance(game, FlowGame)
    driver, _ = through_the_terminal(game, 0, bot_policy("greedy", 7), "greedy", seed)
    result = play("\n".join(driver.answers) + "\n", "--seed", str(seed), "--bots", "greedy")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Final score sheet" in out and "Game abandoned" not in out
    sheet = game.score_sheet()
    assert f"Victory: {sheet.victory}" in out
    total_line = next(line for line in out.splitlines() if line.strip("│ ").startswith("total"))
    assert total_line.replace("│", " ").split()[1:] == [str(t) for t in sheet.totals]


def _wonder_with(data: GameData, test: Callable[[fx.Effect], bool]) -> str:
    for wonder in data.wonders:
        if any(test(c.effect) for c in stage_effects(wonder).clauses):
            return wonder.name
    raise AssertionError("no such wonder in the data")


def test_token_destroy_and_discard_prompts(duel: GameData) -> None:
    """Wonders that ask for a token, a card to destroy and a discard-pile build."""
    chosen = [
        _wonder_with(duel, lambda e: isinstance(e, fx.TakeToken)),
        _wonder_with(duel, lambda e: isinstance(e, fx.Destroy)),
        _wonder_with(duel, lambda e: isinstance(e, fx.Ability) and
                     e.name == "build_from_discard"),
    ]
    others = [w.name for w in duel.wonders if w.name not in chosen][:3]
    seen: set[str] = set()
    for seed in range(12):
        game = FlowGame(duel, 2, seed, wonders=[chosen, others])
        driver, out = through_the_terminal(game, 0, wonders_first(seed), "random", seed)
        direct = directly(duel, seed, 0, wonders_first(seed), "random", wonders=[chosen, others])
        assert game.history == direct.history
        for prompt in driver.prompts:
            seen.add(prompt.split(" — ")[0])
        if {"Take which token", "Destroy which card", "Build which card"} <= seen:
            break
    assert {"Take which token", "Destroy which card", "Build which card"} <= seen, seen
    assert "You take a token" in out or "You destroy" in out or "discard pile" in out


def test_who_starts_the_next_age_prompt(duel: GameData) -> None:
    for seed in range(20):
        game = FlowGame(duel, 2, seed)
        driver, out = through_the_terminal(game, 0, bot_policy("random", seed), "greedy", seed)
        if any(p.startswith("Who starts") for p in driver.prompts):
            assert "You choose who starts age II" in out or "You choose who starts age III" in out
            ended, nxt = ("I", "II") if "starts age II" in out else ("II", "III")
            assert f"End of age {ended}" in out
            # the new age's structure is laid out before the choice, and shown with it
            shown = out[out.index(f"Age {nxt} is laid out"):out.index("You choose who starts")]
            age = 2 if nxt == "II" else 3
            assert f"The structure (age {nxt})" in shown
            assert any(card.name in shown for card in duel.cards if card.age == age), shown
            assert not any(card.name in shown for card in duel.cards if card.age == age - 1)
            return
    pytest.fail("the human never chose who starts an age")


# --- what is shown -------------------------------------------------------------------------------

def _to_first_turn(duel: GameData, seed: int) -> tuple[FlowGame, str]:
    game = FlowGame(duel, 2, seed, wonders=[[w.name for w in duel.wonders[:4]],
                                                 [w.name for w in duel.wonders[4:8]]])
    console = recording_console()
    answers = iter(["quit"])
    StructureHumanGame(game, 0, {1: make_bot("random", 1)}, console,
                       lambda prompt: next(answers)).run()
    return game, console.file.getvalue()  # type: ignore[attr-defined]


def test_the_structure_is_drawn_as_it_lies(duel: GameData) -> None:
    game, out = _to_first_turn(duel, 4)
    structure = structure_part.state(game).structure
    assert structure is not None
    drawing = out.split("The structure (age I)")[1].split("Cards you can take")[0]
    rows = [line for line in drawing.splitlines()[1:] if line.strip()]
    layout = structure.layout
    assert len(rows) == len(layout.rows)
    # face-down rows show card backs and no name; face-up cards are named
    for slot in range(layout.size):
        card = structure.cards[slot]
        row = rows[layout.slot_rows[slot] - 1]
        if structure.face_up[slot]:
            assert card.name[:8] in row
        else:
            assert "▒▒▒▒" in row
            assert card.name not in drawing
    # rows are offset by half a card: the first row starts further right than the last
    first, last = rows[0], rows[-1]
    assert len(first) - len(first.lstrip()) > len(last) - len(last.lstrip())
    # the accessible cards are numbered 1..n, in the table too
    accessible = len(structure.accessible)
    for number in range(1, accessible + 1):
        assert f"[{number} " in drawing
    table = out.split("Cards you can take")[1]
    assert f"│ {accessible} │" in table and f"│ {accessible + 1} │" not in table


def test_hidden_cards_are_never_named(duel: GameData) -> None:
    game, out = _to_first_turn(duel, 6)
    structure = structure_part.state(game).structure
    assert structure is not None
    visible = {structure.cards[s].name for s in range(structure.layout.size)
               if structure.face_up[s]}
    hidden = ({structure.cards[s].name for s in structure.hidden_slots()}
              | {c.name for c in structure_part.state(game).removed}) - visible
    assert hidden
    # chains name other cards ("chains to: …"): those lines are about the visible card
    shown = "\n".join(line for line in out.splitlines()
                      if "chains to" not in line and "free if you have" not in line)
    for name in hidden:
        assert name not in shown


def test_track_tokens_and_cities_are_shown(duel: GameData) -> None:
    game, out = _to_first_turn(duel, 2)
    assert "Conflict track" in out
    assert "●" in out  # the pawn
    assert "The pawn is in the centre" in out
    for token in game.table.pools["board"]:
        assert token.name in out
    for token in game.table.pools["box"]:
        assert token.name not in out
    for seat in (0, 1):
        for wonder in game.cities[seat].wonders:
            assert wonder.name in out
    assert "You (seat 0)" in out and "Your opponent (seat 1)" in out
    assert "Selling a card gives you 2 coins" in out
    assert "Game abandoned (you quit) in age I, turn 1" in out


# --- input through the command line ------------------------------------------------------------

def test_draft_by_number_name_and_bad_input() -> None:
    result = play("help\nshow\nxyz\n9\n0\n\n1\nquit\n", "--seed", "3")
    out = result.output
    assert result.exit_code == 0, out
    assert out.split("You: take")[0].count("Wonder draft") == 2  # show: the draft again
    assert "Wonder draft" in out and "Choose a wonder" in out
    assert "Type the number or name of the wonder" in out
    assert "No wonder 'xyz' here" in out
    assert "There is no wonder 9: choose a number from 1 to 4" in out
    assert "There is no wonder 0" in out
    assert "Type a number from 1 to 4 or a name" in out
    assert "You: take" in out
    assert "Game abandoned (you quit) during the wonder draft" in out
    assert "Traceback" not in out


def test_turn_input_errors_and_a_sale() -> None:
    # draft: always the first wonder; then a turn with mistakes, a sale, and quit
    draft = "1\n" * 4
    result = play(draft + "Zeppelin\n99\n\nbuild\nhelp\nshow\n1\nx\n\nsell 1\nquit\n",
                  "--seed", "2")
    out = result.output
    assert result.exit_code == 0, out
    assert "No card 'Zeppelin' here" in out
    assert "There is no card 99" in out
    assert "Type a card number (1–" in out
    assert "No card 'build' here" in out
    assert "How to play a turn" in out
    assert out.count("Cards you can take") >= 2  # show printed the table again
    assert "What do you do with" in out
    assert "'x' is not an action" in out
    assert "You: sell" in out
    assert "Game abandoned (you quit)" in out


def test_impossible_build_is_refused_with_a_reason(duel: GameData) -> None:
    for seed in range(30):
        game = FlowGame(duel, 2, seed, wonders=[[w.name for w in duel.wonders[:4]],
                                                     [w.name for w in duel.wonders[4:8]]])
        game.cities[0].coins = 0  # a poor city: only free cards can be built
        game.invalidate()
        human = StructureHumanGame(game, 0, {}, recording_console(), input)
        cards = human.accessible()
        legal = game.legal_actions(0)
        dear = [c for c in cards if not any(isinstance(a, Build) and a.card is c for a in legal)]
        if not dear:
            continue
        number = cards.index(dear[0]) + 1
        answers = iter([f"build {number}", "quit"])
        console = recording_console()
        StructureHumanGame(game, 0, {1: make_bot("random", 0)}, console,
                           lambda prompt: next(answers)).run()
        out = console.file.getvalue()  # type: ignore[attr-defined]
        assert f"You cannot build {dear[0].name}: costs" in out
        assert "you have 0" in out
        assert "costs you now" in out
        return
    pytest.fail("no seed with an unaffordable accessible card")


def test_eof_exits_cleanly() -> None:
    result = play("", "--seed", "1")
    assert result.exit_code == 0
    assert "Game abandoned (input ended)" in result.output


def test_eof_in_a_real_process_has_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "wonders.cli", "play", "--game", "duel",
                           "--human", "--seed", "3"], input="1\n2\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Game abandoned (input ended)" in done.stdout
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("args", [["--seat", "2"], ["--json"], ["--players", "3"],
                                  ["--bots", "random,random,random"], ["--side", "A"]])
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    result = play("", *args)
    assert result.exit_code == 2, result.output


def test_log_of_a_human_game_replays(duel: GameData, tmp_path) -> None:  # type: ignore[no-untyped-def]
    seed = 8
    game = new_game(duel, 2, seed)
    assert isinstance(game, FlowGame)
    driver, _ = through_the_terminal(game, 1, bot_policy("greedy", 3), "random", seed)
    log = tmp_path / "duel.jsonl"
    result = play("\n".join(driver.answers) + "\n", "--seed", str(seed), "--seat", "1",
                  "--log", str(log))
    assert result.exit_code == 0, result.output
    assert f"wrote {log}" in result.output
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "identical" in replayed.output
