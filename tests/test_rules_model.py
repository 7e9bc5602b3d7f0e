"""The rule set's typed model: every section parsed once in dsl, defaults in one place,
and the engine reading only the model (never the raw document)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from conftest import MINI_RULES

from wonders.dsl import rules_model as rm
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.dsl.rules_model import read_rules
from wonders.engine.mechanisms import battles
from wonders.engine.registry import offer_of
from wonders.engine.rules import parameters
from wonders.engine.structure_rules import structure_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base() -> GameData:
    return load_game(game="base")


@pytest.fixture(scope="module")
def duel() -> GameData:
    return load_game(game="duel")


def test_base_model(base: GameData) -> None:
    model = base.rules.model
    assert (model.setup.coins, model.setup.wonder_side) == (3, "choose")
    assert model.setup.wonders == rm.WonderDeal()          # one board dealt to each
    assert (model.ages.count, model.ages.hand, model.ages.passes, model.ages.last_card) == (
        3, 7, ("left", "right", "left"), "discard")
    assert [(d.age, d.colour, d.count.text) for d in model.ages.draws] == [
        (3, "purple", "players + 2")]
    assert (model.offer.mechanism, model.turns.mechanism) == ("draft", "simultaneous")
    assert model.trade == rm.Trade("neighbours", 2, ("start", "brown", "grey"))
    assert model.military.mechanism == "battles"
    assert model.military.battles == rm.Battles((1, 3, 5), -1)
    assert (model.science.mechanism, model.science.set, model.science.pair) == ("sets", 7, None)
    assert model.score.order[0] == "military" and model.score.colours["blue"] == "civilian"
    assert model.tie_break == ("coins",)
    assert model.sell is not None and model.treasury is not None
    # the RuleSet's shortcuts read the model
    assert (base.rules.ages, base.rules.hand, base.rules.draws) == (3, 7, model.ages.draws)


def test_duel_model(duel: GameData) -> None:
    model = duel.rules.model
    assert model.setup.coins == 7
    assert model.setup.wonders == rm.WonderDeal("draft", 2, 4, (0, 1, 1, 0, 1, 0, 0, 1))
    assert model.setup.tokens == {"progress": {"board": 5}}
    assert (model.ages.remove, model.ages.hand) == (3, None)
    assert model.offer.mechanism == "structure" and sorted(model.offer.layouts) == [1, 2, 3]
    assert model.offer.layouts[1].rows[0] == (5, 7) and model.offer.layouts[3].face_down == (
        2, 4, 6)
    assert model.turns == rm.Turns("sequential", "weaker_military")
    assert model.trade.mechanism == "bank"
    assert model.trade.add == rm.BankAdd(("brown", "grey"), "opponent")
    assert model.military.mechanism == "track"
    assert model.military.track == rm.Track(9, (rm.Zone(1, 2, 0), rm.Zone(3, 5, 2),
                                                 rm.Zone(6, 10, 5)))
    assert (model.science.mechanism, model.science.supremacy) == ("pairs", 6)
    assert model.science.pair is duel.rules.science_pair is not None
    assert model.wonders.limit == 7
    assert model.score.tokens == {"progress": "progress"} and model.tie_break == ("civilian",)


def test_defaults_of_a_rule_set_that_names_nothing() -> None:
    model = read_rules(yaml.safe_load(MINI_RULES))
    assert model == rm.RuleModel()   # every default is the model's own
    assert model.setup.coins == 3 and model.setup.wonder_side == "random"
    assert model.trade.buyable == ("start", "brown", "grey")
    assert model.score.colours == rm.DEFAULT_COLOUR_LINES


def test_defaults_follow_the_number_of_ages() -> None:
    model = read_rules({"ages": {"count": 5}})
    assert model.ages.passes == ("left", "right", "left", "right", "left")
    assert model.military.battles.victory == (1, 3, 5, 7, 9)
    assert model.military.battles.victory_in(9) == 9   # past the list: the last value


def test_unnamed_companion_slots_take_the_offer_loops_defaults() -> None:
    model = read_rules({"offer": {"mechanism": "structure", "layouts": {1: {"rows": [[1]]}}}})
    assert (model.turns.mechanism, model.trade.mechanism, model.military.mechanism,
            model.science.mechanism) == ("sequential", "bank", "track", "pairs")
    assert model.offer.layouts == {1: rm.StructureLayout(((1,),))}


def test_trade_buyable_falls_back_to_the_bank_colours() -> None:
    model = read_rules({"trade": {"mechanism": "bank", "add": {"colours": ["grey"],
                                                               "place": "opponent"}}})
    assert model.trade.buyable == ("grey",)


@pytest.mark.parametrize("document", [
    {"setup": 3, "ages": [], "offer": "x", "trade": {"price": "two", "add": 1},
     "military": {"victory": "1", "zones": [1, {"points": 2}], "supremacy": True},
     "science": {"set": None}, "score": {"order": 5, "colours": []}, "tie_break": {}},
    {"setup": {"wonders": {"order": "0"}, "tokens": {"progress": 5, "x": {"board": "y"}}}},
])
def test_reading_never_fails_on_bad_shapes(document: dict[str, object]) -> None:
    model = read_rules(document)   # the schema reports these; the model falls back
    assert model.trade.price == 2 and model.military.track.zones == ()
    assert model.setup.wonders.order == () and model.ages.count == 3


def test_engine_parameters_come_from_the_model(base: GameData, duel: GameData) -> None:
    params = parameters(base.rules)
    model = base.rules.model
    assert (params.start_coins, params.hand, params.passes, params.victory, params.defeat,
            params.trade_price, params.buyable, params.score_order, params.tie_break) == (
        model.setup.coins, model.ages.hand, model.ages.passes, model.military.battles.victory,
        model.military.battles.defeat, model.trade.price, frozenset(model.trade.buyable),
        model.score.order, model.tie_break)
    setup = structure_rules(duel)
    model = duel.rules.model
    assert setup.track.supremacy == 9 and [z.start for z in setup.track.zones] == [1, 3, 6]
    assert (setup.bank.price, setup.bank.add_colours, setup.bank.add_place) == (
        2, frozenset({"brown", "grey"}), "opponent")
    assert setup.draft.order == model.setup.wonders.order and setup.remove == 3
    assert setup.layouts[1].rows == model.offer.layouts[1].rows
    assert setup.token_board == {"progress": 5} and setup.next_age == "weaker_military"
    assert (offer_of(base), offer_of(duel)) == ("draft", "structure")


def test_the_engine_never_reads_the_raw_document() -> None:
    """Mechanisms read ``RuleSet.model``; ``RuleSet.parameters`` is the document as written."""
    readers = [path for path in (ROOT / "src" / "wonders" / "engine").rglob("*.py")
               if re.search(r"\.parameters\b(?!\()", path.read_text(encoding="utf-8"))]
    assert readers == []


def test_neighbour_battles() -> None:
    battle = rm.Battles((1, 3, 5), -1)
    # seat 0 (3 shields) beats both neighbours; seats 1 and 2 tie with each other
    assert battles.tokens_won([3, 1, 1], battle, 2) == [
        [("victory", 3), ("victory", 3)], [("defeat", -1)], [("defeat", -1)]]
    assert battles.tokens_won([0, 0, 0, 0], battle, 1) == [[], [], [], []]
