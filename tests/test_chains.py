"""Chain links (free builds): the graph, and every chain mistake at the link that causes it."""

from __future__ import annotations

import csv
from pathlib import Path

import pydot
import pytest
import yaml
from conftest import CARDS_HEADER, Workspace, card, card_file, only

from wonders.dsl.chains import FREE_IF_BUILT, MAKES_FREE, Link, check_chains, to_dot, to_text
from wonders.dsl.errors import Location, Severity
from wonders.dsl.loader import load, shipped_expansions, yaml_files
from wonders.dsl.model import Card

# pydot's DOT parser uses deprecated pyparsing names; that is not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REFERENCE = Path(__file__).parent / "reference" / "base-1e-cards.tsv"


def chain(*entries: str) -> str:
    return card_file(*entries)


def places(diagnostics: list, code: str) -> list[tuple[int, int, str | None]]:
    return [(d.location.line, d.location.column, d.text) for d in diagnostics if d.code == code]


# --- misspelt targets -------------------------------------------------------------------

def test_aquaduct_is_a_misspelt_aqueduct(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Baths", extra="makes_free: [Aquaduct]\n"),
                              card("Aqueduct", age=2, extra="free_if_built: [Baths]\n")))
    diagnostic = only(found, "C501")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 18)
    # Aqueduct's side of the link now has no partner: said once more, at its own line
    assert places(found, "C504") == [(17, 21, "Baths")]
    assert "(Aquaduct)" in only(found, "C504").message
    assert diagnostic.message == "'Baths' chains to 'Aquaduct', which is not a loaded card"
    assert diagnostic.suggestion == "Aqueduct" and diagnostic.text == "Aquaduct"


def test_misspelt_free_if_built_target(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Baths"), card("Aqueduct", age=2,
                                                  extra="free_if_built: [Bath, Wel]\n")))
    assert [(d.code, d.location.line, d.location.column, d.suggestion) for d in found] == [
        ("C501", 16, 21, "Baths"), ("C501", 16, 27, None)]


def test_case_only_typo_is_suggested(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Baths", extra="makes_free: [aqueduct]\n"),
                              card("Aqueduct", age=2)))
    assert only(found, "C501").suggestion == "Aqueduct"


# --- ages ---------------------------------------------------------------------------------

def test_link_to_the_same_age(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                              card("Temple", extra="free_if_built: [Altar]\n")))
    # declared on both sides: one edge, reported once, at the first declaration
    diagnostic = only(found, "C502")
    assert [d.code for d in found] == ["C502"]
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 18)
    assert diagnostic.message == ("'Altar' (age 1) cannot make 'Temple' (age 1) free: a chain "
                                  "must lead to a later age")


def test_link_to_an_earlier_age(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Pantheon", age=3, extra="makes_free: [Temple]\n"),
                              card("Temple", age=2)))
    diagnostic = only(found, "C502")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 18)
    assert "'Pantheon' (age 3) cannot make 'Temple' (age 2) free" in diagnostic.message


def test_card_in_two_ages_uses_its_latest_and_earliest_age(ws: Workspace) -> None:
    # Loom exists in ages 1 and 2; it cannot make an age-2 card free
    found = ws.diagnose(chain(card("Loom", extra="makes_free: [Forum]\n"), card("Loom", age=2),
                              card("Forum", age=2)))
    assert "'Loom' (age 1/2) cannot make 'Forum' (age 2) free" in only(found, "C502").message


def test_link_to_itself_is_an_age_error_not_a_cycle(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Altar]\n")))
    assert [d.code for d in found] == ["C502"]


# --- cycles ---------------------------------------------------------------------------------

def test_two_card_cycle(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                              card("Temple", age=2, extra="makes_free: [Altar]\n")))
    assert sorted(d.code for d in found) == ["C502", "C503"]
    cycle = only(found, "C503")
    assert cycle.message == "chain links form a cycle: Altar → Temple → Altar"
    assert (cycle.location.line, cycle.location.column) == (10, 18)
    assert places(found, "C502") == [(17, 18, "Altar")]


def test_three_card_cycle_is_reported_once(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                              card("Temple", age=2, extra="makes_free: [Pantheon]\n"),
                              card("Pantheon", age=3, extra="makes_free: [Altar]\n")))
    cycle = only(found, "C503")
    assert cycle.message == "chain links form a cycle: Altar → Temple → Pantheon → Altar"
    assert (cycle.location.line, cycle.location.column) == (10, 18)
    assert places(found, "C502") == [(24, 18, "Altar")]


def test_cycle_report_is_stable_across_runs(ws: Workspace) -> None:
    text = chain(card("Temple", age=2, extra="makes_free: [Altar]\n"),
                 card("Altar", extra="makes_free: [Temple]\n"))
    first = [d.render() for d in ws.diagnose(text)]
    for _ in range(3):
        assert [d.render() for d in ws.diagnose(text)] == first


# --- both sides disagree --------------------------------------------------------------------

def test_two_sides_disagree(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                              card("Temple", age=2, extra="free_if_built: [Baths]\n"),
                              card("Baths")))
    diagnostic = only(found, "C504")
    assert [d.code for d in found] == ["C504"]
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 18)
    assert diagnostic.message == ("'Altar' says makes_free: Temple, but 'Temple' does not list "
                                  "'Altar' in its free_if_built (Baths)")
    assert diagnostic.severity is Severity.ERROR


def test_disagreement_seen_from_the_later_card(ws: Workspace) -> None:
    found = ws.diagnose(chain(card("Altar", extra="makes_free: [Pantheon]\n"),
                              card("Temple", age=2, extra="free_if_built: [Altar]\n"),
                              card("Pantheon", age=3)))
    # Pantheon lists no free_if_built at all, so Altar's one-sided link is fine; Temple's is not
    assert places(found, "C504") == [(17, 21, "Altar")]
    messages = [d.message for d in found if d.code == "C504"]
    assert messages[0] == ("'Temple' says free_if_built: Altar, but 'Altar' does not list "
                           "'Temple' in its makes_free (Pantheon)")


def test_agreeing_or_one_sided_links_are_fine(ws: Workspace) -> None:
    assert ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                             card("Temple", age=2, extra="free_if_built: [Altar]\n"))) == []
    assert ws.diagnose(chain(card("Altar", extra="makes_free: [Temple]\n"),
                             card("Temple", age=2))) == []
    assert ws.diagnose(chain(card("Altar"),
                             card("Temple", age=2, extra="free_if_built: [Altar]\n"))) == []


def test_other_sets_may_declare_one_side_only(ws: Workspace) -> None:
    # a card of another set adds a link the base side does not know about: not a disagreement
    other = CARDS_HEADER.replace("set: mini", "set: extra")
    ws.rules()
    first = ws.write("a.yaml", chain(card("Altar", extra="makes_free: [Temple]\n"),
                                     card("Temple", age=2, extra="free_if_built: [Altar]\n")))
    second = ws.write("b.yaml", card_file(card("Shrine", extra="makes_free: [Temple]\n"),
                                          header=other))
    assert ws.load(ws.root / "rules.yaml", first, second).report.sorted() == []


# --- a set that is not loaded -----------------------------------------------------------------

def _card(name: str, age: int, set: str = "mini", before: tuple[str, ...] = (),
          after: tuple[str, ...] = ()) -> Card:
    from wonders.dsl import effects as fx
    return Card(name, age, "blue", (3,), fx.FREE, fx.NO_EFFECTS, before, after, set,
                Location("x.yaml", age, 1))


def _links(cards: list[Card]) -> list[Link]:
    from wonders.dsl.chains import links_of
    return links_of([(c, lambda field, i, c=c: Location("x.yaml", c.location.line,
                                                         10 + i)) for c in cards])


def test_check_chains_asks_which_set_holds_an_unknown_name() -> None:
    cards = [_card("Hut", 1), _card("Villa", 2, before=("Quarry", "Hutt"))]
    catalogue = {"Quarry": "extra"}
    chains, found = check_chains(cards, _links(cards), catalogue.get)
    assert [(d.code, d.text, d.location.column) for d in found] == [
        ("C505", "Quarry", 10), ("C501", "Hutt", 11)]
    assert found[0].message == ("'Villa' chains to 'Quarry', a card of set 'extra', which is not "
                                "loaded (add it to 'requires' and load it)")
    assert found[0].suggestion is None and found[1].suggestion == "Hut"
    graph = chains.graph  # built from the same cards and links when asked for
    assert set(graph.nodes) == {"Hut", "Villa"} and not graph.edges


def test_check_chains_default_treats_every_unknown_name_as_misspelt() -> None:
    cards = [_card("Villa", 2, before=("Quarry",))]
    _, found = check_chains(cards, _links(cards))
    assert [d.code for d in found] == ["C501"]


def test_link_to_a_shipped_card_of_a_set_not_loaded(ws: Workspace) -> None:
    # the mini game does not load the base set; its cards are known to the shipped catalogue
    base_card = _first_card_name(Path(load([], "base").files[0]))
    found = ws.diagnose(chain(card("Aqueduct", age=2, extra=f"free_if_built: [{base_card}]\n")))
    diagnostic = only(found, "C505")
    assert [d.code for d in found] == ["C505"]
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 21)
    assert f"'{base_card}', a card of set 'base', which is not loaded" in diagnostic.message


def _first_card_name(path: Path) -> str:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(data["cards"][0]["name"])


def test_link_to_a_card_of_a_shipped_expansion_not_loaded(ws: Workspace) -> None:
    expansions = shipped_expansions()
    names = []
    for folder in expansions.values():
        for path in yaml_files(folder):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("kind") == "cards" and data.get("cards"):
                names.append((str(data["cards"][0]["name"]), str(data["set"])))
    if not names:
        pytest.skip("no shipped expansion with cards yet")
    name, set_name = names[0]
    text = card_file(card("Folly", age=1, extra=f"makes_free: [{name}]\n"),
                     header=CARDS_HEADER.replace("set: mini", "set: custom").replace(
                         "game: mini", "game: base"))
    path = ws.write("custom.yaml", text)
    found = load([path], "base").report.sorted()
    diagnostic = only(found, "C505")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 18)
    assert f"a card of set '{set_name}', which is not loaded" in diagnostic.message


# --- the base game --------------------------------------------------------------------------

def _reference_edges() -> set[tuple[str, str]]:
    edges = set()
    with REFERENCE.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            for before in filter(None, row["free_if_built"].split(",")):
                edges.add((before.strip(), row["name"]))
            for after in filter(None, row["makes_free"].split(",")):
                edges.add((row["name"], after.strip()))
    return edges


@pytest.fixture(scope="module")
def base() -> object:
    return load([], "base")


def test_base_graph_has_no_chain_problems(base) -> None:  # type: ignore[no-untyped-def]
    assert not [d for d in base.report.diagnostics if d.code.startswith("C")]
    assert base.ok


def test_base_graph_edges(base) -> None:  # type: ignore[no-untyped-def]
    graph = base.graph
    for edge in [("Baths", "Aqueduct"), ("Altar", "Temple"), ("Temple", "Pantheon"),
                 ("Marketplace", "Caravansery"), ("Caravansery", "Lighthouse"),
                 ("East Trading Post", "Forum"), ("West Trading Post", "Forum")]:
        assert graph.has_edge(*edge), edge
    assert not graph.has_edge("Aqueduct", "Baths")
    assert set(graph.edges) == _reference_edges()
    assert graph.number_of_edges() == 26
    assert graph.number_of_nodes() == 75  # 78 cards; three names recur in ages 1 and 2
    assert graph.nodes["Loom"]["ages"] == {1, 2}
    fields = {link.field for _, _, data in graph.edges(data=True) for link in data["declared"]}
    assert fields == {FREE_IF_BUILT, MAKES_FREE}
    declared = graph.edges["Baths", "Aqueduct"]["declared"]
    assert sorted(link.declared_by for link in declared) == ["Aqueduct", "Baths"]


def test_base_graph_as_text(base) -> None:  # type: ignore[no-untyped-def]
    lines = to_text(base.graph)
    assert "Altar (1) → Temple (2) → Pantheon (3)" in lines
    assert "Baths (1) → Aqueduct (2)" in lines
    assert "Scriptorium (1) → Library (2) → University (3)" in lines
    assert lines == sorted(lines)
    assert len(lines) == 19


def test_base_graph_as_dot(base) -> None:  # type: ignore[no-untyped-def]
    (graph,) = pydot.graph_from_dot_data(to_dot(base.graph))
    edges = {(e.get_source().strip('"'), e.get_destination().strip('"'))
             for e in graph.get_edges()}
    assert edges == set(base.graph.edges)
    clusters = {s.get_name(): s for s in graph.get_subgraphs()}
    assert set(clusters) == {"cluster_age1", "cluster_age2", "cluster_age3"}
    assert '"Baths"' in {n.get_name() for n in clusters["cluster_age1"].get_nodes()}


def test_dot_quotes_awkward_names(ws: Workspace) -> None:
    ws.rules()
    path = ws.write("cards.yaml", chain(card('"Say \\"hi\\""', extra="makes_free: [Back\\slash]\n"),
                                        card("Back\\slash", age=2)))
    result = ws.load(ws.root / "rules.yaml", path)
    assert result.ok, [d.render() for d in result.report.diagnostics]
    (graph,) = pydot.graph_from_dot_data(to_dot(result.graph))
    assert len(graph.get_edges()) == 1


# --- the checks without networkx give what networkx gave ----------------------------------------

def _reference_problems(cards: list[Card], links: list[Link]) -> list[tuple[str, str]]:
    """Age and cycle problems found on the networkx graph, as the checks were first written
    (before they ran on plain dictionaries, to keep networkx out of every load)."""
    import networkx as nx

    from wonders.dsl.chains import chain_graph
    graph = chain_graph(cards, links)
    found = []
    for before, after in graph.edges:
        if max(graph.nodes[before]["ages"]) >= min(graph.nodes[after]["ages"]):
            found.append(("C502", f"{before}>{after}"))
    for cycle in sorted(nx.simple_cycles(graph), key=lambda c: sorted(c)):
        if len(cycle) > 1:
            first = cycle.index(min(cycle))
            found.append(("C503", " → ".join(cycle[first:] + cycle[:first])))
    return found


def test_plain_checks_agree_with_networkx_on_random_link_sets() -> None:
    """Random chain links among a few cards (self-links, cycles, unknown names, cards in two
    ages): the age and cycle diagnostics, in order, are those networkx's graph gives."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    names = ["A", "B", "C", "D", "E", "X"]  # "X" is never a card: an unknown target

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(names[:5]), st.integers(1, 3),
                              st.lists(st.sampled_from(names), max_size=3),
                              st.lists(st.sampled_from(names), max_size=3)),
                    min_size=1, max_size=7))
    def check(specs: list[tuple[str, int, list[str], list[str]]]) -> None:
        cards = [_card(name, age, before=tuple(before), after=tuple(after))
                 for name, age, before, after in specs]
        links = _links(cards)
        _, found = check_chains(cards, links)
        ours = []
        for d in found:
            if d.code == "C502":
                before, after = d.message.split("'")[1], d.message.split("'")[3]
                ours.append(("C502", f"{before}>{after}"))
            elif d.code == "C503":
                ours.append(("C503", d.message.removeprefix("chain links form a cycle: ")
                             .rsplit(" → ", 1)[0]))
        assert ours == _reference_problems(cards, links)

    check()
