"""Rule sets with several parents (issue 12): ``extends: [A, B]``.

The parents are joined in order as changes to what they have in common (a shared
ancestor counts once), vocabulary lists and the score order are united, and two
parents that change one value differently are a located L709 unless the child sets
it; every mistake of a list item (unknown parent, cycle) is located at that item.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import Workspace

from wonders.dsl.loader import load

A = "kind: rules\nname: a\nextends: base\nsetup: {coins: 5}\nvocabulary: {colours: [white]}\n" \
    "score:\n  order: [military, treasury, wonder, civilian, science, commercial, guilds, " \
    "whites]\n  colours: {white: whites}\n"
B = "kind: rules\nname: b\nextends: base\nplayers: {max: 6}\nvocabulary: {colours: [black]}\n" \
    "score:\n  order: [military, treasury, wonder, civilian, science, commercial, guilds, " \
    "blacks]\n  colours: {black: blacks}\n"


def _both(ws: Workspace, child_extra: str = "", a: str = A, b: str = B) -> Path:
    ws.write("a/rules.yaml", a)
    ws.write("b/rules.yaml", b)
    return ws.write("ab/rules.yaml", "kind: rules\nname: ab\nextends: [../a, ../b]\n"
                    + child_extra)


def test_parents_join_on_their_common_ancestor(ws: Workspace) -> None:
    result = load([_both(ws)])
    game = result.game
    assert game is not None, [d.render() for d in result.report.sorted()]
    rules = game.rules
    assert rules.lineage == ("a", "b", "base")
    assert rules.model.setup.coins == 5 and rules.max_players == 6
    assert rules.vocabulary.colours[-2:] == ("white", "black")
    score = rules.parameters["score"]
    assert score["order"][-2:] == ["whites", "blacks"]   # united, first parent's first
    assert score["colours"]["white"] == "whites" and score["colours"]["black"] == "blacks"
    assert score["colours"]["blue"] == "civilian"         # the ancestor's, once
    # base's cards come once, although both parents bring them
    base = load([], "base").game
    assert base is not None and len(game.cards) == len(base.cards)


def test_a_value_two_parents_change_differently_is_located(ws: Workspace) -> None:
    b = B.replace("players: {max: 6}", "players: {max: 6}\nsetup: {coins: 7}")
    path = _both(ws, b=b)
    [problem] = load([path]).report.sorted()
    assert problem.code == "L709"
    assert (Path(problem.location.file).name, problem.location.line,
            problem.location.column) == ("rules.yaml", 3, 10)
    assert "'setup.coins' differently: 5" in problem.message and " and 7 (" in problem.message
    assert "a/rules.yaml:4:" in problem.message and "b/rules.yaml:5:" in problem.message
    # the child settles it by setting the value
    path = _both(ws, "setup: {coins: 4}\n", b=b)
    result = load([path])
    assert result.game is not None and result.game.rules.model.setup.coins == 4


def test_the_same_value_twice_or_a_shared_parent_is_no_conflict(ws: Workspace) -> None:
    b = B.replace("players: {max: 6}", "players: {max: 6}\nsetup: {coins: 5}")
    result = load([_both(ws, b=b)])
    assert result.game is not None and result.game.rules.model.setup.coins == 5
    # a parent named twice counts once; base beside a variant of base adds nothing
    ws.write("a/rules.yaml", A)
    path = ws.write("twice.yaml", "kind: rules\nname: t\nextends: [a, a, base]\n")
    result = load([path])
    assert result.game is not None, [d.render() for d in result.report.sorted()]
    assert result.game.rules.model.setup.coins == 5


def test_unknown_parent_and_cycle_are_located_at_their_item(ws: Workspace) -> None:
    ws.write("a/rules.yaml", A)
    path = ws.write("v.yaml", "kind: rules\nname: v\nextends: [a, citeis]\n")
    [problem] = load([path]).report.sorted()
    assert (problem.code, problem.location.line, problem.location.column) == ("L706", 3, 14)
    assert problem.suggestion == "cities"
    ws.write("c1.yaml", "kind: rules\nname: c1\nextends: [base, c2.yaml]\n")
    ws.write("c2.yaml", "kind: rules\nname: c2\nextends: c1.yaml\n")
    [problem] = load([ws.root / "c1.yaml"]).report.sorted()
    assert problem.code == "L707" and "closes a cycle" in problem.message
    path = ws.write("empty.yaml", "kind: rules\nname: e\nextends: []\n")
    [problem] = load([path]).report.sorted()
    assert (problem.code, problem.location.line) == ("S105", 3)
    assert "a non-empty list of them" in problem.message


def test_the_shipped_pair_names_its_parents() -> None:
    root = Path(__file__).resolve().parent.parent
    game = load([root / "expansions" / "leaders-cities"]).game
    assert game is not None
    assert game.rules.lineage == ("leaders", "cities", "base")
    order = game.rules.parameters["score"]["order"]
    assert order[-3:] == ["leaders", "city", "debt"]


def _lattice(ws: Workspace, n: int) -> Path:
    """n rule sets, each extending the next three (the last ones fewer, the last base):
    every rule set is reached by a number of paths that grows exponentially with n."""
    for i in range(n):
        parents = [f"r{j}.yaml" for j in range(i + 1, min(n, i + 4))] or ["base"]
        coins = f"setup: {{coins: {i}}}\n" if i == n - 1 else ""
        ws.write(f"lattice/r{i}.yaml", f"kind: rules\nname: r{i}\n"
                 f"extends: [{', '.join(parents)}]\n{coins}")
    return ws.root / "lattice" / "r0.yaml"


def test_a_lattice_of_parents_is_read_and_merged_once_each(
        ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """Validating an ``extends:`` graph takes time linear in its files: each parent is
    read (and merged) once, however many paths reach it.  Before issue 28 each was read
    again on every path (n = 13 took 8.6 s, n = 16 72 s) and a combined title repeated
    every parent's on every path."""
    import wonders.dsl.loader as loader

    reads: dict[str, int] = {}
    real = loader.load_file

    def counted(path: Path, name: str) -> object:
        reads[Path(path).name] = reads.get(Path(path).name, 0) + 1
        return real(path, name)

    monkeypatch.setattr(loader, "load_file", counted)
    n = 30
    start = time.process_time()
    result = load([_lattice(ws, n)])
    spent = time.process_time() - start
    assert result.report.sorted() == [] and result.game is not None
    assert {reads[f"r{i}.yaml"] for i in range(n)} == {1}
    assert result.game.rules.parameters["setup"]["coins"] == n - 1   # the deepest parent's
    assert result.game.rules.lineage[:3] == ("r1", "r2", "r3")
    assert len(result.game.rules.title) < 100
    assert spent < 5, f"{spent:.1f} s of CPU to load {n} rule sets"
