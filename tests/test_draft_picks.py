"""``on draft:`` beyond Agora's two wonders: every effect word the wonder draft runs at a
pick acts once, for the picker, before the next pick (a Duel wonder added for the test);
what the pick does not run, or a game without a wonder draft, is refused by validate."""

from __future__ import annotations

from pathlib import Path

from wonders.dsl.loader import load
from wonders.scenarios.draft import check_file

PROBE = """\
kind: wonders
set: probe
game: duel
wonders:
  - name: The Probe
    cost: 2 stone
    effect: "on draft: coins 2; on draft: opponent loses 3 coins; on draft: shields 1;
      on draft: opponent gains 1 coin; on draft: opponent gives 2 coins; points 1"
"""

# Duel's start: 7 coins each. Seat 0 picks The Probe: +2, then the opponent loses 3 (7 -> 4),
# gains 1 (5), gives 2 to seat 0 (3; seat 0: 9 + 2 = 11); 1 shield: the pawn 1 toward seat 1.
SCENARIOS = """\
kind: scenarios
game: duel
load: [probe.yaml]
scenarios:
  - name: every effect of a pick acts once, for the picker, before the next pick
    source: docs/language.md, on draft
    position:
      wonder_pools:
        - [The Probe, The Pyramids, The Sphinx, Piraeus]
        - [The Great Library, The Mausoleum, Circus Maximus, The Appian Way]
      players: [{}, {}]
    expect:
      - turn:
          actions: {0: {choose_wonder: The Probe}}
          expect:
            - state: {player: 0, coins: 11, wonders: [The Probe]}
            - state: {player: 1, coins: 3}
            - conflict: 1
            - to_move: [1]
            - turn:
                actions: {1: {choose_wonder: Piraeus}}
                expect:
                  - state: {player: 0, coins: 11}      # the pick acted once only
                  - state: {player: 1, coins: 3}

  - name: a wonder handed out without a draft never acts for it
    source: docs/language.md, on draft
    position:
      offer: [Baths, Altar]
      players: [{coins: 7, wonders: [The Probe]}, {coins: 7}]
    expect:
      - state: {player: 0, coins: 7}
      - state: {player: 1, coins: 7}
      - conflict: 0
"""


def test_every_effect_word_of_a_pick_plays(tmp_path: Path) -> None:
    (tmp_path / "probe.yaml").write_text(PROBE, encoding="utf-8")
    file = tmp_path / "picks.yaml"
    file.write_text(SCENARIOS, encoding="utf-8")
    result = check_file(file)
    assert result.report.ok, [d.render() for d in result.report.diagnostics]
    failed = {o.name: [d.message for d in o.failures] for o in result.outcomes if o.failures}
    assert not failed, failed
    assert len(result.outcomes) == 2 and all(o.checked for o in result.outcomes)


def _errors(tmp_path: Path, game: str, text: str) -> list[str]:
    path = tmp_path / "extra.yaml"
    path.write_text(text, encoding="utf-8")
    return [d.render() for d in load([path], game).report.sorted()
            if d.severity.value == "error"]


def test_what_a_pick_does_not_run_is_refused(tmp_path: Path) -> None:
    replay = _errors(tmp_path, "duel", PROBE.replace(
        '"on draft: coins 2;', '"on draft: replay; on draft: coins 2;'))
    assert len(replay) == 1 and "M901" in replay[0] and \
        "'replay' cannot act as a wonder is picked in the wonder draft" in replay[0], replay
    # Duel has no Senate: a cube at the pick needs lay_chambers (named), as when built
    cube = _errors(tmp_path, "duel", PROBE.replace(
        '"on draft: coins 2;', '"on draft: influence place 1 in any; on draft: coins 2;'))
    assert len(cube) == 1 and "M901" in cube[0] and "lay_chambers" in cube[0], cube
    # the base game deals its boards: no wonder draft announces a pick
    board = _errors(tmp_path, "base", """\
kind: wonders
set: probe
game: base
wonders:
  - name: Probe
    sides:
      A:
        start: produce wood
        stages:
          - {cost: 2 stone, effect: "on draft: coins 2"}
""")
    assert any("M901" in e and "does not hold (flow step draft_wonders)" in e
               for e in board), board
