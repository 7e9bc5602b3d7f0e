"""Every effect kind and timing × every shipped game: it plays as documented, or
``wonders validate`` refuses it (docs/errors.md, M901/M902).

Part one writes one effect of each (kind, timing) of the language onto an extra
card (base: marked for 8 players, so the decks stay whole) or an extra token
(Duel: it joins the box, so the structures stay whole) and checks the loader's
verdict against the loop's declared capabilities (:mod:`wonders.dsl.mechanisms`).
Part two plays the cases of issue 11 in the base game and checks the numbers.
Part three goes inside each kind (issue 28): the modifiers, amounts and timings the
grammar lets a clause say, made from each shipped game's vocabulary and rules
(tests/modifier_cases.py), each refused or warned by validate or proven by a generated
scenario; a grammar test keeps the cases covering every form of the language.
"""

from __future__ import annotations

import functools
import io
import random
from pathlib import Path

import pytest
from extra_cards import card_named, load_extra
from rich.console import Console

from wonders.bots import make_bot
from wonders.cli.human import HumanGame
from wonders.dsl import effects as fx
from wonders.dsl.effects_table import game_cell
from wonders.dsl.loader import load, load_game
from wonders.dsl.mechanisms import EFFECT_WORDS, LOOPS
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine import registry
from wonders.engine.actions import Build, DestroyCard, Sell
from wonders.engine.payment import FREE
from wonders.scenarios.log import replay, write

NOW, ON, END, ONGOING = fx.Timing.NOW, fx.Timing.ON, fx.Timing.END, fx.Timing.ONGOING

# One example per (effect word, timing) the language accepts, per game (Duel's places differ).
EXAMPLES: dict[str, dict[tuple[str, fx.Timing], str]] = {
    "base": {
        ("produce", ONGOING): "produce wood", ("science", ONGOING): "science wheel",
        ("points", END): "end: points 2", ("copy", END): "copy purple card from left",
        ("coins", NOW): "now: coins 2", ("coins", ON): "on red card: coins 5",
        ("shields", ONGOING): "shields 1", ("shields", NOW): "now: shields 2",
        ("shields", ON): "on red card: shields 1",
        ("buy", ONGOING): "buy raw from left at 1", ("ability", ONGOING): "ability free_build",
        ("loses", NOW): "neighbours loses 1 coin", ("loses", ON): "on card: left loses 1 coin",
        ("destroy", NOW): "destroy brown card in left", ("replay", NOW): "now: replay",
        ("replay", ON): "on wonder: replay", ("discount", ONGOING): "discount 1 resource on wonder",
        ("copy", NOW): "now: copy purple card from left, right",
        ("draw", NOW): "draw 2 reserve cards", ("build", NOW): "build 1 reserve card",
        ("gives", NOW): "left, right gives 1 coin",
        ("gives", ON): "on age start: left gives 1 coin",
        ("gains", NOW): "neighbours gains 1 coin", ("gains", ON): "on wonder: left gains 2 coins",
        ("take", NOW): "take 1 victory token",
        ("activate", NOW): "activate victory token from tops",
        ("discard", NOW): "discard any structure card", ("track", NOW): "place blocker on track",
        ("wonder", NOW): "unbuild wonder in left",
        ("influence", NOW): "influence place 1 in any", ("influence", ONGOING):
            "influence bonus 2", ("conspire", NOW): "conspire",
        ("trigger", NOW): "trigger victory token", ("or", NOW): "now: coins 2 or shields 1",
        ("science of", NOW): "science of green card in left",
        ("coins aside", NOW): "now: coins 7 aside",
        ("build chain", ONGOING): "build chain cards for 1 coin",
        ("remove", NOW): "remove victory token from left",
        ("build free", NOW): "build free card from removed",
        ("swap", NOW): "swap blue card with left",
    },
    "duel": {
        ("produce", ONGOING): "produce wood", ("science", ONGOING): "science wheel",
        ("points", END): "end: points 2", ("copy", END): "copy purple card from opponent",
        ("coins", NOW): "now: coins 2", ("coins", ON): "on red card: coins 5",
        ("shields", ONGOING): "shields 1", ("shields", NOW): "now: shields 2",
        ("shields", ON): "on red card: shields 1",
        ("buy", ONGOING): "buy stone at 1", ("ability", ONGOING): "ability trade_income",
        ("loses", NOW): "opponent loses 1 coin", ("loses", ON): "on card: opponent loses 1 coin",
        ("destroy", NOW): "destroy brown card in opponent", ("take", NOW):
            "take progress token from box draw 2", ("replay", NOW): "now: replay",
        ("replay", ON): "on wonder: replay", ("discount", ONGOING): "discount 1 resource on wonder",
        ("copy", NOW): "now: copy purple card from opponent",
        ("draw", NOW): "draw 2 reserve cards", ("build", NOW): "build 1 reserve card",
        ("gives", NOW): "opponent gives 2 coins", ("gives", ON): "on card: opponent gives 1 coin",
        ("gains", NOW): "opponent gains 1 coin", ("gains", ON): "on wonder: opponent gains 2 coins",
        ("activate", NOW): "activate progress token from tops",
        ("discard", NOW): "discard any structure card", ("track", NOW): "place blocker on track",
        ("wonder", NOW): "take unbuilt wonder from opponent",
        ("influence", NOW): "influence place 1 in any", ("influence", ONGOING):
            "influence bonus 2", ("conspire", NOW): "conspire",
        ("trigger", NOW): "trigger progress token", ("or", NOW): "now: coins 2 or shields 1",
        ("science of", NOW): "science of green card in opponent",
        ("coins aside", NOW): "now: coins 7 aside",
        ("build chain", ONGOING): "build chain cards for 1 coin",
        ("remove", NOW): "remove progress token from board, opponent",
        ("build free", NOW): "build free card from last row",
        ("swap", NOW): "swap blue | green card with opponent",
    },
}
# The forms a priced row and the moves between cities add (Pantheon): each is played in
# the shipped expansion's data and its scenarios (tests/scenarios/pantheon-*.yaml).
PANTHEON_FORMS = ("discount 2 coins on activation", "discount 3 coins on activation once",
                  "activate divinity token from deck", "take brown | grey card from opponent",
                  "unbuild wonder in self, opponent", "build wonder with discarded card",
                  "discard military token; use military token",
                  "science of green card in opponent",
                  "now: coins 7 aside; end: points 1 per aside coin",
                  "on advance: opponent loses 1 coin per space", "build chain cards for 1 coin")
# The forms a board of chambers and held tokens add (Agora): played in the shipped
# expansion's data and its scenarios (tests/scenarios/agora-rules.yaml).
AGORA_FORMS = ("influence act in left", "influence place 1 in any or conspire",
               "influence remove 1 in opponent", "influence move 1", "influence move decree",
               # the decrees' and conspiracies' counts, triggers, prices and discounts
               "on blue card in self, opponent: coins 1 per age",
               "on wonder in self, opponent: coins 1 per age", "on sell: coins 2",
               "buy raw at 1 coin less", "discount 1 resource or every coin on yellow card",
               "opponent gives 1 coin per 2 coins in them rounded up",
               "opponent loses 1 coin per influence in them",
               # the conspiracies' moves of wonders and structure cards
               "destroy wonder in opponent", "discard accessible structure card",
               "discard up to 1 accessible structure card",
               # the wonders' picks in the wonder draft (Curia Julia, Knossos)
               "on draft: conspire", "on draft: influence place 1 in any",
               # the last four conspiracies': a token out of play, free builds, a swap
               "remove progress token from board, opponent, box",
               "build free brown | grey | blue | green | yellow | red | purple card from last row",
               "build free card from removed", "swap blue | green card with opponent")
OFFERS = {"base": "draft", "duel": "structure"}


def _extra(game: str, effect: str) -> str:
    if game == "base":
        return ("kind: cards\nset: extra\ngame: base\ncards:\n  - name: Probe\n    age: 1\n"
                f"    colour: red\n    players: [8]\n    cost: free\n    effect: \"{effect}\"\n")
    return ("kind: tokens\nset: extra\ngame: duel\ntokens:\n  - name: Probe\n"
            f"    kind: progress\n    effect: \"{effect}\"\n")


CASES = [(game, key, text) for game, examples in EXAMPLES.items()
         for key, text in examples.items()]


@pytest.mark.parametrize("game, key, text", CASES,
                         ids=[f"{g}-{k[0]}-{k[1].value}" for g, k, _ in CASES])
def test_every_effect_plays_or_is_refused(game: str, key: tuple[str, fx.Timing], text: str,
                                          tmp_path: Path) -> None:
    path = tmp_path / "extra.yaml"
    path.write_text(_extra(game, text), encoding="utf-8")
    result = load([path], game)
    errors = [d for d in result.report.sorted() if d.severity.value == "error"]
    caps = LOOPS[OFFERS[game]]
    word = key[0]
    runs = key in caps.effects and (word != "ability" or text.split()[1] in caps.abilities) \
        and (word != "buy" or "from" not in text or bool(caps.buy_places)) \
        and (word not in ("draw", "build")  # the reserve's: only where the rule set has one
             or _shipped(game).rules.model.reserve.colour is not None) \
        and word != "activate"   # (only with a priced row, which no shipped game here has)
    if runs:
        assert not errors, [d.render() for d in errors]
    else:
        assert errors and {d.code for d in errors} <= {"M901", "M902"}, \
            [d.render() for d in errors]
        assert errors[0].location.file.endswith("extra.yaml")
    # the generated table (docs/language.md, `wonders effects`) says what validate says
    cell = game_cell(caps, _shipped(game), word, key[1])
    if cell.startswith("runs"):
        assert not errors, cell
    else:
        assert cell.split(":")[0] in {d.code for d in errors}, cell


@functools.cache
def _shipped(game: str) -> GameData:
    return load_game([], game)


def test_every_effect_and_timing_has_an_example() -> None:
    """Each game's examples cover every (effect word, timing) the compiler accepts."""
    from wonders.dsl.compiler import effect_timings

    wanted = {(word, timing) for word, timings in effect_timings().items()
              for timing in timings}
    for game, examples in EXAMPLES.items():
        assert set(examples) >= wanted, (game, sorted(wanted - set(examples)))


def test_every_effect_kind_is_declared() -> None:
    """The catalogue names every effect class of the language, and each registered loop
    has its entry (the declaration cannot drift from the registry)."""
    effect_classes = set(fx.Effect.__args__)  # type: ignore[attr-defined]
    assert set(EFFECT_WORDS) == effect_classes
    assert set(registry.LOOPS) == set(LOOPS)


# --- part two: the cases, played in the base game ------------------------------

EXTRA_CARDS = """\
kind: cards
set: extra
game: base
cards:
  - {name: Patron, age: 1, colour: blue, players: [8], cost: free, effect: "on red card: coins 5"}
  - {name: Drill, age: 1, colour: red, players: [8], cost: free, effect: "now: shields 2"}
  - {name: Raider, age: 1, colour: red, players: [8], cost: free, effect: destroy brown card in left}
  - {name: Tax, age: 1, colour: yellow, players: [8], cost: free, effect: neighbours loses 1 coin}
"""


@pytest.fixture(scope="module")
def base_extra(tmp_path_factory: pytest.TempPathFactory) -> GameData:
    return load_extra(tmp_path_factory.mktemp("extra"), EXTRA_CARDS)


_card = card_named


def _turn(game: object, builds: dict[int, Card]) -> None:
    """Every seat builds the given card for free (put into its hand) or sells its first."""
    actions: dict[int, Build | Sell] = {}
    for seat in game.to_move():  # type: ignore[attr-defined]
        hand = game.hands[seat]  # type: ignore[attr-defined]
        if seat in builds:
            hand[0] = builds[seat]
            actions[seat] = Build(builds[seat], FREE)
        else:
            actions[seat] = Sell(hand[0])
    game.invalidate()  # type: ignore[attr-defined]
    game.play(actions)  # type: ignore[attr-defined]


def _game(data: GameData) -> object:
    game = registry.new_game(data, 3, 7, sides="A")
    assert game.decision().kind == "turn"
    return game


def test_on_red_card_pays_when_a_red_card_is_built_later(base_extra: GameData) -> None:
    game = _game(base_extra)
    _turn(game, {0: _card(base_extra, "Patron")})
    before = game.cities[0].coins  # type: ignore[attr-defined]
    _turn(game, {0: _card(base_extra, "Drill")})  # seats 1, 2 sell (3 coins each)
    assert game.cities[0].coins == before + 5  # type: ignore[attr-defined]


def test_now_shields_count_in_battles(base_extra: GameData) -> None:
    game = _game(base_extra)
    _turn(game, {0: _card(base_extra, "Drill")})
    assert game.cities[0].shields() == 2  # type: ignore[attr-defined]
    assert game.cities[0].bonus_shields == 2  # type: ignore[attr-defined]


def test_neighbours_lose_coins_at_the_end_of_the_turn(base_extra: GameData) -> None:
    game = _game(base_extra)
    coins = [c.coins for c in game.cities]  # type: ignore[attr-defined]
    _turn(game, {0: _card(base_extra, "Tax")})  # seats 1 and 2 sell: +3, then lose 1
    assert [c.coins for c in game.cities] == [  # type: ignore[attr-defined]
        coins[0], coins[1] + 2, coins[2] + 2]


def test_destroy_is_a_pending_decision_after_the_turn(base_extra: GameData) -> None:
    game = _game(base_extra)
    left = 1  # the left neighbour of seat 0
    brown = next(c for c in base_extra.cards if c.colour == "brown" and c.age == 1
                 and c.cost.is_free)
    _turn(game, {left: brown})
    _turn(game, {0: _card(base_extra, "Raider")})
    decision = game.decision()  # type: ignore[attr-defined]
    assert (decision.kind, decision.seats) == ("destroy", (0,))
    options = game.legal_actions(0)  # type: ignore[attr-defined]
    assert options == [DestroyCard(brown, left)]
    game.play({0: options[0]})  # type: ignore[attr-defined]
    assert brown not in game.cities[left].built  # type: ignore[attr-defined]
    assert brown in game.discard  # type: ignore[attr-defined]
    assert game.history[-1]["phase"] == "destroy"  # type: ignore[attr-defined]
    assert game.decision().kind == "turn"  # type: ignore[attr-defined]


# --- the new decisions in the terminal and in logs ---------------------------------------------

def _raided(data: GameData) -> tuple[object, Card]:
    """A 3-player game (sides A) where seat 0 has just built Raider against a brown card."""
    game = _game(data)
    brown = next(c for c in data.cards if c.colour == "brown" and c.age == 1 and c.cost.is_free)
    _turn(game, {1: brown})
    _turn(game, {0: _card(data, "Raider")})
    return game, brown


def test_the_terminal_asks_a_human_which_card_to_destroy(base_extra: GameData) -> None:
    game, brown = _raided(base_extra)
    out = io.StringIO()
    answers = iter(["nothing", brown.name, "quit"])
    session = HumanGame(game, 0, {1: make_bot("random", 1), 2: make_bot("random", 2)},
                        Console(file=out, width=140, color_system=None),
                        lambda prompt: next(answers))
    assert session.choose() == DestroyCard(brown, 1)
    text = out.getvalue()
    assert "You destroy a card of another city" in text and brown.name in text
    assert "No card 'nothing'" in text


RAIDERS = """\
kind: cards
set: raiders
game: base
requires: [base]
remove: [Guard Tower]
cards:
  - {name: Raider, age: 1, colour: red, players: [3+, 4+], cost: free,
     effect: destroy brown card in left}
"""


def test_a_destroy_decision_replays_from_the_log(tmp_path: Path) -> None:
    """Random games with a dealt Raider (instead of Guard Tower) until one destroys a card:
    the log replays it identically, the destroy decision included."""
    path = tmp_path / "raiders.yaml"
    path.write_text(RAIDERS, encoding="utf-8")
    data = load([path], "base").game
    assert data is not None
    for seed in range(60):
        game = registry.new_game(data, 3, seed)
        rng = random.Random(seed)
        while not game.over:
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        if any(entry["phase"] == "destroy" for entry in game.history):
            break
    else:
        raise AssertionError("no random game destroyed a card")
    log = tmp_path / "raid.jsonl"
    write(game, log, "base", [str(path)])
    result = replay(log)
    assert result.identical, result.divergence
    assert result.decisions == len(game.history)
    assert result.game is not None and result.game.history == game.history




# --- part three: modifiers, amounts and timings inside a kind (issue 28) ----------------
#
# tests/modifier_cases.py makes the cases of each shipped game from its vocabulary and rule
# parameters; per game, `validate` refuses each case (a documented error, at the clause) or
# warns that it never acts (M908), or it plays: then its generated scenario must pass (it
# shows the number the description promises) or, with no position for it, PROVEN names its
# proof.  The grammar test keeps the cases complete: every rule alternative and every word
# of the effect grammar appears in some case or part one's examples.

import yaml
from lark import Lark, Token, Tree
from modifier_cases import PROVEN, Modifier, modifiers

from wonders.dsl.codes import CODES
from wonders.dsl.errors import Diagnostic, Severity
from wonders.scenarios.draft import check_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"base": "base", "base2e": "base2e", "duel": "duel", "dice": "dice",
         **{name: str(ROOT / "expansions" / name)
            for name in ("cities", "leaders", "leaders-cities", "tutorial")}}
# what validate may say of a generated case, each code documented (docs/errors.md)
REFUSALS = {"M901", "M902", "M905", "M906", "M907", "D603"}  # (M905: dice reads no cards;
# D603: a probe of an age the game does not have)
WARNINGS = {"M908", "D604"}  # (D604: the probe is marked for one player more than the game has)


def _probe_file(game: str, data: GameData, cases: list[Modifier]) -> str:
    """A card file of one probe card per case (``Probe 0`` …), in the case's age."""
    marker = data.rules.max_players + 1
    cards = [{"name": f"Probe {i}", "age": case.age, "colour": case.colour,
              "players": [marker], "cost": "free", "effect": case.text}
             for i, case in enumerate(cases)]
    return yaml.safe_dump({"kind": "cards", "set": "probes", "game": data.rules.name,
                           "cards": cards}, sort_keys=False, allow_unicode=True)


def _verdicts(folder: Path, game: str, data: GameData,
              cases: list[Modifier]) -> dict[int, list[Diagnostic]]:
    """Each case's diagnostics.  The loader checks what the loop runs (M…) once the names
    and meanings are right, so the cases with a name or meaning error are taken out and
    the rest loaded again for their M… verdicts."""
    found: dict[int, list[Diagnostic]] = {i: [] for i in range(len(cases))}
    left = list(range(len(cases)))
    while left:
        path = folder / "probes.yaml"
        path.write_text(_probe_file(game, data, [cases[i] for i in left]), encoding="utf-8")
        text = path.read_text(encoding="utf-8").splitlines()
        starts = [n + 1 for n, line in enumerate(text) if line.startswith("- name: Probe ")]
        early: set[int] = set()
        for d in load([path], GAMES[game]).report.sorted():
            assert d.location.file.endswith(path.name), d.render()
            if d.location.line < starts[0]:  # about the whole file: every case's
                for i in left:
                    found[i].append(d)
                continue
            index = left[max(i for i, start in enumerate(starts) if start <= d.location.line)]
            found[index].append(d)
            if d.severity is Severity.ERROR and not d.code.startswith("M"):
                early.add(index)
        if not early:
            break
        left = [i for i in left if i not in early]
        for i in left:
            found[i] = []
    return found


@functools.cache
def _cases(game: str) -> list[Modifier]:
    return modifiers(_shipped_game(game))


@functools.cache
def _shipped_game(game: str) -> GameData:
    return load_game([], GAMES[game])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_modifier_plays_as_described_or_is_refused(game: str, tmp_path: Path) -> None:
    data = _shipped_game(game)
    cases = _cases(game)
    verdicts = _verdicts(tmp_path, game, data, cases)
    (tmp_path / "probes.yaml").unlink()
    # the loops whose positions the generator writes (docs/scenarios.md)
    draft = data.rules.model.offer.mechanism in ("draft", "structure")
    playing: list[int] = []
    unproven: list[str] = []
    for i, case in enumerate(cases):
        errors = {d.code for d in verdicts[i] if d.severity is Severity.ERROR}
        warnings = {d.code for d in verdicts[i] if d.severity is Severity.WARNING}
        # (a shipped form names what its own game declares: elsewhere a name may be unknown)
        allowed = REFUSALS | ({c for c in errors if c.startswith("N3")}
                              if case.id.startswith("form-") else set())
        assert errors <= allowed and warnings <= WARNINGS, (
            case.id, [d.render() for d in verdicts[i]])
        assert errors | warnings <= set(CODES)
        if errors:
            continue
        if case.text in PROVEN:
            continue
        if draft and case.position is not None:
            playing.append(i)
        else:
            unproven.append(f"{case.id}: {case.text}")
    # every form that validates is proven: here, or where PROVEN says (the structure and
    # dice loops' positions are of their own kind: their cases are in UNPROVEN_ELSEWHERE)
    assert sorted(unproven) == sorted(UNPROVEN_ELSEWHERE.get(game, [])), "\n".join(unproven)
    if not playing:
        return
    # the playing cases, their probes alone, and one scenario each
    kept = [cases[i] for i in playing]
    only = tmp_path / "playing.yaml"
    only.write_text(_probe_file(game, data, kept), encoding="utf-8")
    names = {i: f"Probe {n}" for n, i in enumerate(playing)}
    last_card_played = data.rules.model.ages.last_card == "play"
    scenarios = [cases[i].scenario(names[i], last_card_played) for i in playing]
    file = tmp_path / "modifiers.yaml"
    file.write_text(yaml.safe_dump({"kind": "scenarios", "game": GAMES[game],
                                    "load": [only.name], "scenarios": scenarios},
                                   sort_keys=False), encoding="utf-8")
    result = check_file(file)
    for written in tmp_path.glob("*.yaml"):  # (not left for a later 'wonders check' of tmp)
        written.unlink()
    assert result.report.ok, [d.render() for d in result.report.diagnostics]
    failed = {o.name: [d.message for d in o.failures] for o in result.outcomes if o.failures}
    assert not failed, failed
    assert len(result.outcomes) == len(playing) and all(o.checked for o in result.outcomes)
    assert len(playing) >= 25, len(playing)  # (the generator cannot silently make none)


# Cases that validate in a loop whose positions the generator does not write (Duel's, Dice's),
# each with where the form is proven instead.
UNPROVEN_ELSEWHERE: dict[str, list[str]] = {}


def test_every_construct_of_the_grammar_has_a_case() -> None:
    """Every rule alternative (alias) and every word (terminal) of the effect grammar that
    ``effects`` reaches is used by some generated case or part one's example: a new form
    added to the language fails here until a case shows what it does."""
    grammar = (ROOT / "src" / "wonders" / "dsl" / "effects.lark").read_text(encoding="utf-8")
    parser = Lark(grammar, start="effects", parser="lalr", keep_all_tokens=True)
    by_origin: dict[str, list[object]] = {}
    for rule in parser.rules:
        by_origin.setdefault(rule.origin.name, []).append(rule)
    reachable: set[str] = set()
    stack = ["effects"]
    wanted: set[str] = set()
    while stack:
        name = stack.pop()
        if name in reachable:
            continue
        reachable.add(name)
        for rule in by_origin.get(name, []):
            if rule.alias:  # type: ignore[attr-defined]
                wanted.add(rule.alias)  # type: ignore[attr-defined]
            elif not name.startswith("_") and not rule.options.expand1:  # type: ignore
                wanted.add(name)  # (a ?rule of one child is inlined: never a node)
            for symbol in rule.expansion:  # type: ignore[attr-defined]
                if symbol.is_term:
                    wanted.add(symbol.name)
                else:
                    stack.append(symbol.name)
    texts = {text for examples in EXAMPLES.values() for text in examples.values()}
    shipped = " ".join(t.effects.text for t in load_game([ROOT / "expansions" / "pantheon"]).tokens)
    shipped += " ".join(w.sides[next(iter(w.sides))].stages[0].effects.text
                        for w in load_game([ROOT / "expansions" / "pantheon"]).wonders
                        if w.sides)
    for form in PANTHEON_FORMS:
        for part in form.split("; "):
            assert part in shipped or form.startswith("discount 2"), part
    texts |= set(PANTHEON_FORMS)
    agora = load_game([ROOT / "expansions" / "agora"])
    shipped = " ".join(c.effects.text for c in agora.cards) + " ".join(
        t.effects.text for t in agora.tokens) + " ".join(
        w.sides[next(iter(w.sides))].stages[0].effects.text for w in agora.wonders)
    for form in AGORA_FORMS:
        assert form in shipped, form
    texts |= set(AGORA_FORMS)
    texts |= {case.text for game in GAMES for case in _cases(game)}
    used: set[str] = set()
    for text in texts:
        stack2: list[object] = [parser.parse(text)]
        while stack2:
            node = stack2.pop()
            if isinstance(node, Token):
                used.add(node.type)
            elif isinstance(node, Tree):
                used.add(str(node.data))
                stack2.extend(node.children)
    missing = sorted(wanted - used)
    assert not missing, f"forms of the effect grammar no case uses: {missing}"
