"""Agora's constructs as users meet them: refused where no mechanism runs them (M901 with
the step to add), a misspelt influence action (N311), and whole games that play."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wonders.dsl.loader import load_game
from wonders.engine.flow import FlowGame

AGORA = Path(__file__).resolve().parent.parent / "expansions" / "agora"
RULES = "kind: rules\nname: duel-probe\nextends: duel\n"


def _validate(folder: Path, effect: str) -> str:
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "tokens.yaml").write_text(
        "kind: tokens\nset: probe\ngame: duel-probe\ntokens:\n"
        f"  - {{name: Probe, kind: progress, effect: \"{effect}\"}}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from wonders.cli import main; main()",
                           "validate", "--game", str(folder)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize(("effect", "code", "words"), [
    ("influence place 1 in any", "M901", "flow step lay_chambers"),
    ("conspire", "M901", "flow step stack_held"),
    ("influence jump 1", "N311", "did you mean"),
    ("influence remove 1 in any", "T410", "influence remove N in opponent"),
])
def test_a_construct_no_mechanism_runs_is_refused(tmp_path: Path, effect: str, code: str,
                                                  words: str) -> None:
    out = _validate(tmp_path, effect)
    assert "tokens.yaml:5:" in out and code in out, out
    if words != "did you mean":
        assert words in out, out


def test_the_rule_set_is_valid_and_deals_the_senators_over_the_ages() -> None:
    data = load_game(game=str(AGORA))
    game = FlowGame(data, 2, 7)
    # (the structure is laid after the draft and the picks' follow-ups: a token kept, a cube)
    while game.decision().kind != "turn":
        seat = game.to_move()[0]
        game.play({seat: game.legal_actions(seat)[0]})
    seen = {card.name for card in game.offer_cards()}
    senators = {c.name for c in data.cards if c.colour in ("politician", "conspirator")}
    assert len(seen) == 25 and len(seen & senators) == 5   # A4, A5: Age I


@pytest.mark.parametrize("seed", range(6))
def test_random_games_play_to_the_end(seed: int) -> None:
    import random
    data = load_game(game=str(AGORA))
    game = FlowGame(data, 2, seed)
    rng = random.Random(seed)
    steps = 0
    while not game.over:
        seat = game.to_move()[0]
        game.play({seat: rng.choice(list(game.legal_actions(seat)))})
        steps += 1
        assert steps < 2000
    sheet = game.score_sheet()
    assert "senate" in sheet.order
