"""``wonders render``: cards, wonder sides, tokens and Dice sheets drawn from their data.

Every drawing of every shipped game must be well-formed SVG (parsed with an XML
parser), show what the data says (colour, name, age, copies, cost and effect symbols,
chains, the plain-English description), escape the names it writes, and draw
vocabulary it has no icon for; the gallery must be a well-formed page whose every
picture exists.  Also: ``wonders graph`` leaves a variant's removed cards out, and its
PNG needs (Graphviz) are stated.
"""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import MINI_RULES, Workspace
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl import describe
from wonders.dsl.model import Game
from wonders.engine.sources import resolve
from wonders.render import card_svg, drawings, sheet_svg, token_svg, wonder_svg
from wonders.render.card import players_line

# pydot's DOT parser uses deprecated pyparsing names; that is not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

runner = CliRunner()
NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["base", "base2e", "duel", "dice", "leaders", "cities", "leaders-cities"]


def run(*args: str | Path):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def game(name: str) -> Game:
    loaded = resolve(name).load().game
    assert loaded is not None
    return loaded


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def group(root: ET.Element, name: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == name]


def icons(node: ET.Element) -> list[str]:
    """The names of the symbols drawn under ``node`` (each icon carries a <title>)."""
    return [t.text or "" for g in node.iter(f"{NS}g") for t in g.findall(f"{NS}title")]


def words(node: ET.Element) -> str:
    return " ".join(t for t in node.itertext() if t.strip())


# --- every drawing of every shipped game -------------------------------------------------

@pytest.mark.parametrize("name", SHIPPED)
def test_every_drawing_of_every_shipped_game_parses(name: str) -> None:
    loaded = game(name)
    items = drawings(loaded)
    cards = [c for c in loaded.cards if c.name not in loaded.removed]
    sides = sum(len(w.sides) for w in loaded.wonders)
    sheets = len(loaded.dice.boards) + 1 if loaded.dice is not None else 0
    assert len(items) == len(cards) + sides + len(loaded.tokens) + sheets
    assert len({i.path for i in items}) == len(items)  # one file each
    for item in items:
        root = parse(item.draw())
        assert root.findtext(f"{NS}title", "").startswith(item.caption)


def test_the_tutorial_expansion_draws_its_new_cards() -> None:
    loaded = resolve("base").load([ROOT / "expansions" / "tutorial"]).game
    assert loaded is not None
    items = drawings(loaded)
    new = [c for c in loaded.cards if c.set == "tutorial"]
    assert new and all(any(i.caption == c.name for i in items) for c in new)
    # the cards it removes are out of the gallery
    assert loaded.removed and not any(i.caption in loaded.removed for i in items
                                      if i.section.startswith("Age"))


# --- what a card shows ---------------------------------------------------------------------

def test_a_card_shows_its_colour_name_age_copies_cost_chains_and_effect() -> None:
    base = game("base")
    card = next(c for c in base.cards if c.name == "Caravansery")
    root = parse(card_svg(card, base))
    frame = root.find(f"{NS}rect")
    assert frame is not None and frame.get("fill") == "#e0b030"          # yellow
    assert words(group(root, "name")[0]) == "Caravansery"
    assert root.findtext(f".//{NS}text[@class='age']") == "II"
    assert root.findtext(f".//{NS}text[@class='players']") == "3+ 5+ 6+"  # a copy per marker
    assert icons(group(root, "cost")[0]) == ["wood", "wood"]             # cost: 2 wood
    assert icons(group(root, "effect")[0]) == ["wood", "stone", "ore", "clay"]  # any raw
    chains = words(group(root, "chains")[0])
    assert "free if you built Marketplace" in chains and "makes Lighthouse free" in chains
    assert words(group(root, "description")[0]) == describe.effects(card.effects)


def test_a_free_card_has_no_cost_column_and_coins_show_their_number() -> None:
    base = game("base")
    tavern = next(c for c in base.cards if c.name == "Tavern")
    root = parse(card_svg(tavern, base))
    assert group(root, "cost") == []
    effect = group(root, "effect")[0]
    assert icons(effect) == ["coin"] and "5" in words(effect)
    assert players_line(tavern, base) == "4+ 5+ 7+"


def test_drawn_cards_and_fixed_player_counts() -> None:
    base, duel = game("base"), game("duel")
    guild = next(c for c in base.cards if c.drawn)
    assert parse(card_svg(guild, base)).findtext(f".//{NS}text[@class='players']") == "drawn"
    one = next(c for c in duel.cards if not c.drawn and c.copies(2) == 1)
    assert players_line(one, duel) == ""   # Duel: one copy at its one player count


def test_points_per_card_in_neighbours_draw_the_counted_card_and_arrows() -> None:
    base = game("base")
    text = "end: points 1 per brown card in left, right"
    guild = next(c for c in base.cards if c.effects.text == text)
    shown = icons(group(parse(card_svg(guild, base)), "effect")[0])
    assert shown == ["points", "brown", "neighbours"]   # a brown card, ◀ ▶


def test_a_wonder_side_shows_its_start_and_each_stage() -> None:
    base = game("base")
    wonder = next(w for w in base.wonders if w.name == "Gizah")
    result = run("render", "--game", "base", "--wonder", "Gizah", "--side", "night")
    assert result.exit_code == 0, result.output
    root = parse(result.stdout)
    assert "side B · Night" in words(root)
    side = wonder.sides["B"]
    stages = group(root, "stage")
    assert len(stages) == len(side.stages) == 4
    for stage, data in zip(stages, side.stages):
        assert icons(group(stage, "effect")[0]) != []
        assert describe.effects(data.effects).split()[0] in words(stage)
    assert icons(group(root, "start")[0]) == ["stone"]
    assert parse(wonder_svg(wonder, wonder.sides["A"], base)) is not None


def test_a_token_shows_its_effect() -> None:
    duel = game("duel")
    law = next(t for t in duel.tokens if t.name == "Law")
    root = parse(token_svg(law))
    assert icons(group(root, "effect")[0]) == ["law"]
    assert "Law" in words(root) and "science symbol law" in words(root)


def test_a_dice_sheet_has_a_row_per_building_and_the_boards_stages() -> None:
    dice = game("dice")
    assert dice.dice is not None
    board = dice.dice.boards[0]
    root = parse(sheet_svg(dice, board.name))
    buildings = group(root, "building")
    assert len(buildings) == len(dice.dice.buildings)
    for line, building in zip(buildings, dice.dice.buildings):
        assert len(group(line, "space")) == len(building.spaces)
        assert building.name in words(line)
    assert len(group(root, "stage")) == len(board.stages)
    result = run("render", "--game", "dice", "--sheet", "dice")
    assert result.exit_code == 0 and parse(result.stdout) is not None


def test_the_catalogue_keys_drawings_as_the_web_tables_catalogue_keys_data() -> None:
    from wonders.render import catalogue
    from wonders.serve.present import catalogue as page_catalogue

    duel = game("duel")
    drawn, data = catalogue(duel), page_catalogue(duel)
    assert set(drawn["cards"]) == set(data["cards"])
    assert set(drawn["tokens"]) == set(data["tokens"])
    wonders = drawn["wonders"]
    assert set(wonders) == set(data["wonders"])
    for name, sides in data["wonders"].items():
        drawn_sides = wonders[name]
        assert isinstance(drawn_sides, dict) and set(drawn_sides) == set(sides)
    svg = drawn["cards"]["Lumber Yard"]
    assert isinstance(svg, str) and ' id="' not in svg   # inline many to a page
    parse(svg)


# --- names from the data are escaped; new vocabulary still draws -------------------------

WEIRD = '<&"> Folly'

CUSTOM_RULES = MINI_RULES.replace("manufactured: [glass, papyrus, loom]",
                                  "manufactured: [glass, papyrus, loom, marble]") \
    .replace("[brown, grey, yellow, blue, green, red, purple]",
             "[brown, grey, yellow, blue, green, red, purple, teal]") \
    .replace("science: [compass, wheel, tablet]", "science: [compass, wheel, tablet, lyre]")

CUSTOM_CARDS = f"""\
kind: cards
set: odd
game: mini
cards:
  - name: '{WEIRD}'
    age: 1
    colour: teal
    players: [3+]
    cost: 2 marble, 1 coin
    effect: produce marble; science lyre
"""


def custom(ws: Workspace) -> Game:
    ws.rules(CUSTOM_RULES)
    ws.write("cards.yaml", CUSTOM_CARDS)
    result = ws.load(ws.root)
    assert result.game is not None, result.report.sorted()
    return result.game


def test_names_are_escaped_and_new_vocabulary_gets_labelled_glyphs(ws: Workspace) -> None:
    loaded = custom(ws)
    card = loaded.cards[0]
    svg = card_svg(card, loaded)
    assert WEIRD not in svg and "&lt;&amp;" in svg
    root = parse(svg)
    assert words(group(root, "name")[0]) == WEIRD
    assert icons(group(root, "cost")[0]) == ["coin", "marble", "marble"]
    effect = group(root, "effect")[0]
    assert icons(effect) == ["marble", "lyre"]
    assert "marble" in words(effect) and "lyre" in words(effect)   # labelled glyphs
    frame = root.find(f"{NS}rect")
    assert frame is not None and (frame.get("fill") or "").startswith("#")  # a colour of its own


def test_gallery_of_a_custom_set_is_well_formed_html(ws: Workspace, tmp_path: Path) -> None:
    custom(ws)
    out = tmp_path / "gallery"
    result = run("render", ws.root, "-o", out)
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    html = ET.fromstring(page.split("\n", 1)[1])
    assert WEIRD in [f.text for f in html.iter("figcaption")]


# --- the gallery ---------------------------------------------------------------------------

def test_gallery_of_base_has_every_card_and_wonder_side(tmp_path: Path) -> None:
    base = game("base")
    out = tmp_path / "base"
    result = run("render", "--game", "base", "-o", out)
    assert result.exit_code == 0, result.output
    expected = len(base.cards) + sum(len(w.sides) for w in base.wonders)
    assert result.stdout == f"wrote {expected} drawings and {out / 'index.html'}\n"
    html = ET.fromstring((out / "index.html").read_text(encoding="utf-8").split("\n", 1)[1])
    sections = [h.text for h in html.iter("h2")]
    assert sections == ["Age I", "Age II", "Age III", "Wonders"]
    pictures = [img.get("src") or "" for img in html.iter("img")]
    assert len(pictures) == expected == 78 + 14   # 78 cards, 7 wonders of 2 sides
    for src in pictures:
        parse((out / src).read_text(encoding="utf-8"))
    # within an age, the colours come in the vocabulary's order
    colours = [h.text for h in html.iter("h3")][:7]
    assert colours == ["brown", "grey", "yellow", "blue", "green", "red"] + colours[6:]


# --- the command line ----------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--card", "Lumbr Yard"], "did you mean 'Lumber Yard'"),
    (["--card", "Loom"], "give --age"),
    (["--card", "Loom", "--age", "3"], "not 3"),
    (["--card", "Baths", "--token", "Law"], "one thing at a time"),
    ([], "-o DIR"),
    (["--sheet", "x"], "no player sheets"),
    (["--wonder", "Gizah", "--side", "C"], "no side named 'C'"),
    (["--token", "Law"], "no tokens"),
    (["--side", "A"], "--side goes with --wonder"),
    (["--card", "Baths", "--format", "png"], "needs --output"),
])
def test_usage_errors_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    result = run("render", "--game", "base", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", "").split())


def test_one_card_to_a_file_and_to_standard_output(tmp_path: Path) -> None:
    target = tmp_path / "baths.svg"
    result = run("render", "--game", "base", "--card", "Baths", "-o", target)
    assert result.exit_code == 0 and result.stdout == f"wrote {target}\n"
    assert target.read_text(encoding="utf-8") == run(
        "render", "--game", "base", "--card", "Baths").stdout
    bad = run("render", "--game", "base", "--card", "Baths", "-o", tmp_path / "no" / "x.svg")
    assert bad.exit_code == 1 and "cannot write" in bad.output


def test_png_without_cairosvg_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # an import of it now fails
    result = run("render", "--game", "base", "--card", "Baths", "-f", "png",
                 "-o", tmp_path / "baths.png")
    assert result.exit_code == 1
    assert "pip install 'wonders[render]'" in result.output
    assert not (tmp_path / "baths.png").exists()


def test_png_through_cairosvg(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    target = tmp_path / "baths.png"
    result = run("render", "--game", "base", "--card", "Baths", "-f", "png", "-o", target)
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (400, 600)   # 200 × 300 units at 2 pixels a unit


# --- wonders graph: removed cards, and what PNG needs ---------------------------------------

NO_BATHS = """\
kind: cards
set: nobaths
game: base
remove: [Baths]
cards:
  - name: Spa
    age: 1
    colour: blue
    players: [3+, 7+]
    cost: 1 stone
    effect: points 3
"""


@pytest.mark.parametrize("form", ["text", "dot"])
def test_graph_leaves_removed_cards_out(ws: Workspace, form: str) -> None:
    variant = ws.write("cards.yaml", NO_BATHS)
    assert "Baths" in run("graph", "--game", "base", "--format", form).stdout
    result = run("graph", "--game", "base", variant, "--format", form)
    assert result.exit_code == 0, result.output
    kept = "Altar (1) → Temple (2)" if form == "text" else '"Altar" -> "Temple"'
    assert "Baths" not in result.stdout and kept in result.stdout


def test_graph_png_states_it_needs_graphviz(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = run("graph", "--game", "base", "--format", "png", "-o", tmp_path / "g.png")
    assert result.exit_code == 1
    assert "Graphviz's 'dot' program" in result.output and "apt-get install graphviz" in \
        result.output
    assert "Graphviz" in run("graph", "--help").output


def test_a_decks_game_draws_its_card_kinds_wonders_and_progress_tokens(tmp_path: Path) -> None:
    from wonders.render.gallery import drawings
    data = game("architects")
    found = drawings(data)
    components = data.components
    assert components is not None
    assert {d.section for d in found} == {"Cards", "Wonders", "Tokens"}
    assert len(found) == (len(components.kinds) + len(components.wonders)
                          + len(components.progress))
    for drawing in found:
        root = ET.fromstring(drawing.draw())
        assert root.tag.endswith("svg") and root.find("{*}title") is not None
    wonder = next(d for d in found if d.section == "Wonders" and d.caption == "Rhodes")
    assert "26 points" in wonder.detail   # reference: Rhodes 4 + 4 + 5 + 6 + 7


def test_render_draws_one_decks_component_by_name() -> None:
    runner = CliRunner()
    drawn = runner.invoke(app, ["render", "--game", "architects", "--wonder", "Giza"])
    assert drawn.exit_code == 0 and "30 points" in drawn.stdout   # 4 + 5 + 6 + 7 + 8
    wrong = runner.invoke(app, ["render", "--game", "architects", "--token", "Culturr"])
    assert wrong.exit_code == 2 and "did you mean 'Culture'" in wrong.output
