"""A conflict track: one pawn pushed between two capitals by shields.

The rule set's ``military: {mechanism: track, supremacy: 9, zones: [...]}`` describes it
(read once into :class:`wonders.dsl.rules_model.Track`).  Each shield moves the pawn one
space towards the opponent's capital; reaching ``supremacy`` spaces wins at once.  Zones
start ``from`` a distance: the player the pawn points away from scores the ``points`` of the
zone the pawn ends in, and a zone with ``lose`` holds a one-shot token on each side: the
first time the pawn enters it, the player on that side loses that many coins (all they have
if fewer).

Positions are from seat 0's point of view: positive means the pawn is on seat
1's side (seat 0 is ahead).
"""

from __future__ import annotations

from dataclasses import dataclass

from wonders.dsl import rules_model as model


@dataclass(frozen=True)
class Zone:
    start: int
    points: int
    lose: int


@dataclass(frozen=True)
class TrackRules:
    supremacy: int
    zones: tuple[Zone, ...]  # by distance, nearest first

    @classmethod
    def from_model(cls, track: model.Track) -> "TrackRules":
        """The rule set's typed ``military`` track (the loader checked that zones rise
        from 1 and stay short of supremacy: R805)."""
        zones = sorted((Zone(z.start, z.points, z.lose) for z in track.zones),
                       key=lambda z: z.start)
        return cls(track.supremacy, tuple(zones))

    def points(self, distance: int) -> int:
        """Points for the player ahead when the pawn ends ``distance`` spaces from the centre."""
        found = 0
        for zone in self.zones:
            if distance >= zone.start:
                found = zone.points
        return found


def push(position: int, seat: int, shields: int, rules: TrackRules) -> int:
    """The pawn's position after ``seat`` (0 or 1) gains ``shields``, stopped at supremacy."""
    step = shields if seat == 0 else -shields
    return max(-rules.supremacy, min(rules.supremacy, position + step))


def entered(before: int, after: int, rules: TrackRules) -> list[tuple[int, int, Zone]]:
    """Coin-loss zones the pawn entered moving from ``before`` to ``after``:
    (zone index, seat on whose side it lies, zone)."""
    found = []
    for index, zone in enumerate(rules.zones):
        if not zone.lose:
            continue
        if after >= zone.start > before:
            found.append((index, 1, zone))
        if after <= -zone.start < before:
            found.append((index, 0, zone))
    return found
