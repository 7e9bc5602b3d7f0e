"""Chain links (free builds), the checks made on them, and their graph (networkx).

A link says "having built A makes B free".  Cards may declare it from either
side (``makes_free`` on A, ``free_if_built`` on B); the graph holds one edge per
link with where it was declared.  Checks: links to cards that do not exist (the
classic "Aquaduct"), links to a card of the same or an earlier age, cycles,
links the two cards of one set declare differently, and links to a card of a
set that is not loaded.

The checks run on plain dictionaries: networkx, slow to import, is imported only to
draw the graph (``wonders graph``, :attr:`Chains.graph`) and to list the cycles of data
that has some (``docs/performance.md``, "Start-up").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from wonders.dsl.errors import Diagnostic, Location, Severity, closest
from wonders.dsl.model import Card

if TYPE_CHECKING:
    import networkx as nx

FREE_IF_BUILT = "free_if_built"
MAKES_FREE = "makes_free"


@dataclass(frozen=True)
class Link:
    """One declared chain link: building ``before`` makes ``after`` free."""

    before: str
    after: str
    declared_by: str  # the card whose data holds the link
    field: str  # FREE_IF_BUILT or MAKES_FREE
    location: Location
    set: str

    @property
    def target(self) -> str:
        """The name the declaring card points at."""
        return self.before if self.field == FREE_IF_BUILT else self.after


def links_of(cards: Iterable[tuple[Card, Callable[[str, int], Location]]]) -> list[Link]:
    """All links declared by cards; ``locate(field, index)`` places each list item."""
    links: list[Link] = []
    for card, locate in cards:
        for i, name in enumerate(card.free_if_built):
            links.append(Link(name, card.name, card.name, FREE_IF_BUILT, locate(FREE_IF_BUILT, i),
                              card.set))
        for i, name in enumerate(card.makes_free):
            links.append(Link(card.name, name, card.name, MAKES_FREE, locate(MAKES_FREE, i),
                              card.set))
    return links


def chain_graph(cards: Sequence[Card], links: Sequence[Link]) -> "nx.DiGraph[str]":
    """Cards as nodes (with their ages, colour and set), links between known cards as edges."""
    import networkx as nx

    graph: nx.DiGraph[str] = nx.DiGraph()
    for card in cards:
        if card.name in graph:
            graph.nodes[card.name]["ages"].add(card.age)
        else:
            graph.add_node(card.name, ages={card.age}, colour=card.colour, set=card.set)
    for link in links:
        if link.before in graph and link.after in graph:
            if graph.has_edge(link.before, link.after):
                graph.edges[link.before, link.after]["declared"].append(link)
            else:
                graph.add_edge(link.before, link.after, declared=[link])
    return graph


class Chains:
    """The cards and links of one load; their networkx graph is built when first asked for."""

    def __init__(self, cards: Sequence[Card], links: Sequence[Link]) -> None:
        self.cards = tuple(cards)
        self.links = tuple(links)
        self._graph: "nx.DiGraph[str] | None" = None

    @property
    def graph(self) -> "nx.DiGraph[str]":
        """The chain graph (:func:`chain_graph`), built once."""
        if self._graph is None:
            self._graph = chain_graph(self.cards, self.links)
        return self._graph


def _plain_graph(cards: Sequence[Card], links: Sequence[Link],
                 ) -> tuple[dict[str, set[int]], dict[str, dict[str, list[Link]]]]:
    """:func:`chain_graph` as dictionaries (ages by card; links by card and successor),
    in networkx's order: nodes as first met, each node's successors as first linked."""
    ages: dict[str, set[int]] = {}
    succ: dict[str, dict[str, list[Link]]] = {}
    for card in cards:
        if card.name in ages:
            ages[card.name].add(card.age)
        else:
            ages[card.name] = {card.age}
            succ[card.name] = {}
    for link in links:
        if link.before in ages and link.after in ages:
            succ[link.before].setdefault(link.after, []).append(link)
    return ages, succ


def _has_cycle(succ: dict[str, dict[str, list[Link]]]) -> bool:
    """Whether links form a cycle of two cards or more (a self-link is not counted)."""
    done: set[str] = set()
    for root in succ:
        if root in done:
            continue
        on_path = {root}
        stack: list[tuple[str, Any]] = [(root, iter(succ[root]))]
        while stack:
            node, successors = stack[-1]
            for nxt in successors:
                if nxt == node or nxt in done:
                    continue
                if nxt in on_path:
                    return True
                on_path.add(nxt)
                stack.append((nxt, iter(succ[nxt])))
                break
            else:
                stack.pop()
                on_path.discard(node)
                done.add(node)
    return False


def check_chains(cards: Sequence[Card], links: Sequence[Link],
                 set_of_unloaded: Callable[[str], str | None] = lambda name: None,
                 tokens: frozenset[str] = frozenset(),
                 ) -> tuple[Chains, list[Diagnostic]]:
    """The chains and every chain problem, each at the link that causes it.  A
    ``free_if_built`` naming a token (of ``tokens``) is a chain from a token: holding the
    token makes the card free, as a built card would (no age order: a token is taken in
    any age)."""
    links = [link for link in links
             if not (link.field == FREE_IF_BUILT and link.before in tokens)]
    chains = Chains(cards, links)
    ages, succ = _plain_graph(cards, links)
    found: list[Diagnostic] = []
    names = sorted(ages)
    for link in links:
        if link.target in ages:
            continue
        elsewhere = set_of_unloaded(link.target)
        if elsewhere:
            found.append(Diagnostic(
                "C505", f"'{link.declared_by}' chains to '{link.target}', a card of set "
                f"'{elsewhere}', which is not loaded (add it to 'requires' and load it)",
                link.location, text=link.target))
        else:
            found.append(Diagnostic(
                "C501", f"'{link.declared_by}' chains to '{link.target}', which is not a loaded "
                "card", link.location, text=link.target, suggestion=closest(link.target, names)))

    for before, successors in succ.items():
        for after, declared in successors.items():
            before_ages, after_ages = ages[before], ages[after]
            if max(before_ages) >= min(after_ages):
                link = declared[0]
                found.append(Diagnostic(
                    "C502", f"'{before}' (age {_ages(before_ages)}) cannot make '{after}' "
                    f"(age {_ages(after_ages)}) free: a chain must lead to a later age",
                    link.location, text=link.target))

    if _has_cycle(succ):  # only faulty data has one: networkx lists them
        import networkx as nx

        graph = chains.graph
        for cycle in sorted(nx.simple_cycles(graph), key=lambda c: sorted(c)):
            if len(cycle) == 1:
                continue  # a self-link is already an age error
            first = cycle.index(min(cycle))  # start at the same card on every run
            cycle = cycle[first:] + cycle[:first]
            link = graph.edges[cycle[0], cycle[1 % len(cycle)]]["declared"][0]
            path = " → ".join(cycle + [cycle[0]])
            found.append(Diagnostic("C503", f"chain links form a cycle: {path}", link.location,
                                    text=link.target))

    found.extend(_disagreements(cards, links))
    return chains, found


def _disagreements(cards: Sequence[Card], links: Sequence[Link]) -> list[Diagnostic]:
    """Within one set, a link one card declares must be declared by the other if it lists any."""
    declared: dict[tuple[str, str], set[str]] = defaultdict(set)
    lists: dict[tuple[str, str], set[str]] = defaultdict(set)  # (card, field) -> names
    sets = {card.name: card.set for card in cards}
    for link in links:
        declared[(link.before, link.after)].add(link.field)
        lists[(link.declared_by, link.field)].add(link.target)
    found = []
    for link in links:
        other = link.target
        if sets.get(other) != link.set:
            continue
        other_field = MAKES_FREE if link.field == FREE_IF_BUILT else FREE_IF_BUILT
        if lists.get((other, other_field)) and other_field not in declared[(link.before,
                                                                            link.after)]:
            found.append(Diagnostic(
                "C504", f"'{link.declared_by}' says {link.field}: {other}, but '{other}' "
                f"does not list '{link.declared_by}' in its {other_field} "
                f"({', '.join(sorted(lists[(other, other_field)]))})",
                link.location, text=other, severity=Severity.ERROR))
    return found


def _ages(ages: set[int]) -> str:
    return "/".join(str(a) for a in sorted(ages))


def to_dot(graph: "nx.DiGraph[str]") -> str:
    """The chain graph in Graphviz DOT, cards grouped by age and filled with their colour."""
    import pydot

    palette = {"brown": "#b5835a", "grey": "#b0b0b0", "yellow": "#f2d15c", "blue": "#7fa7e0",
               "green": "#7cc47f", "red": "#e07f7f", "purple": "#b38ad9"}
    dot = pydot.Dot("chains", graph_type="digraph", rankdir="LR")
    dot.set_node_defaults(shape="box", style="filled,rounded", fontname="Helvetica")
    by_age: dict[int, list[str]] = defaultdict(list)
    for name, data in graph.nodes(data=True):
        by_age[min(data["ages"])].append(name)
    for age in sorted(by_age):
        cluster = pydot.Cluster(f"age{age}", label=f"Age {age}")
        for name in sorted(by_age[age]):
            colour = graph.nodes[name].get("colour", "")
            cluster.add_node(pydot.Node(_quote(name), fillcolor=palette.get(colour, "white")))
        dot.add_subgraph(cluster)  # type: ignore[arg-type]  # a Cluster is a subgraph
    for before, after in sorted(graph.edges):
        dot.add_edge(pydot.Edge(_quote(before), _quote(after)))
    return str(dot.to_string())


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_text(graph: "nx.DiGraph[str]") -> list[str]:
    """One line per chain, for a terminal: ``First (1) → Second (2) → Third (3)``."""
    lines = []
    starts = sorted(n for n in graph.nodes if graph.in_degree(n) == 0 and graph.out_degree(n) > 0)

    def label(name: str) -> str:
        return f"{name} ({_ages(graph.nodes[name]['ages'])})"

    def walk(node: str, path: list[str]) -> None:
        successors = sorted(graph.successors(node))
        if not successors or node in path:
            lines.append(" → ".join(label(n) for n in path + [node]))
            return
        for succ in successors:
            walk(succ, path + [node])

    for start in starts:
        walk(start, [])
    return lines
