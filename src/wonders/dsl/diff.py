"""What one rule set changes against another (``wonders diff A B``).

A variant written with ``extends:`` says only what differs, but what it *means*
is the whole loaded game: this compares two loaded games — their rule-set
parameters (the merged document, key by key), their cards (by name and age:
added, removed from the decks, changed in cost, effect, colour, copies or chains),
their wonder boards (by name and side) and their tokens — so a designer sees the
effect of a house rule, an edition or an expansion at a glance.  Effects and
costs are compared and shown in the plain-English words of :mod:`.describe`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from wonders.dsl import describe
from wonders.dsl.model import Card, Game, Token, WonderSide

# Keys of a rule set that name it rather than change how it plays.
_NAMING = ("name", "title", "kind", "extends")


@dataclass
class Change:
    """One difference: ``what`` changed (``+`` added, ``-`` removed, ``~`` changed)."""

    section: str          # parameters, cards, wonders, tokens
    sign: str
    subject: str          # the key, card, board side or token
    before: str = ""
    after: str = ""
    item: str = ""        # the card, board or token changed (several lines may change one)

    def render(self) -> str:
        if self.sign == "~":
            return f"  ~ {self.subject}: {self.before} -> {self.after}"
        shown = self.after if self.sign == "+" else self.before
        return f"  {self.sign} {self.subject}" + (f": {shown}" if shown else "")

    def to_json(self) -> dict[str, str]:
        return {"section": self.section, "change": {"+": "added", "-": "removed",
                                                     "~": "changed"}[self.sign],
                "subject": self.subject, "before": self.before, "after": self.after}


@dataclass
class Diff:
    changes: list[Change] = field(default_factory=list)

    def render(self, a: str, b: str) -> str:
        if not self.changes:
            return f"{b} plays as {a}: no difference in parameters, cards, wonders or tokens\n"
        lines = [f"--- {a}", f"+++ {b}"]
        for section in ("parameters", "cards", "wonders", "tokens"):
            found = [c for c in self.changes if c.section == section]
            if found:
                lines.append(f"{section}:")
                lines += [c.render() for c in found]
        counts = {s: len({c.item or c.subject for c in self.changes if c.section == s + "s"})
                  for s in ("parameter", "card", "wonder", "token")}
        lines.append(", ".join(f"{n} {s}{'' if n == 1 else 's'}" for s, n in counts.items()
                               if n) + " changed")
        return "\n".join(lines) + "\n"


def _flat(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict) and value:
        for key in value:
            yield from _flat(value[key], f"{path}.{key}" if path else str(key))
    else:
        yield path, value


def _shown(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _card(card: Card) -> dict[str, str]:
    markers = ", ".join(f"{p}+" for p in card.players) if card.players else "drawn"
    return {"colour": card.colour, "copies": markers, "cost": describe.cost(card.cost),
            "effect": describe.effects(card.effects),
            "chains from": ", ".join(card.free_if_built) or "none",
            "chains to": ", ".join(card.makes_free) or "none"}


def _side(side: WonderSide) -> str:
    stages = "; ".join(f"{describe.cost(s.cost)} -> {describe.effects(s.effects)}"
                       for s in side.stages)
    return f"start {describe.effects(side.start)}; stages: {stages or 'none'}"


def _token(token: Token) -> str:
    return f"{token.kind}: {describe.effects(token.effects)}"


def diff(a: Game, b: Game) -> Diff:
    """What ``b`` changes against ``a``."""
    result = Diff()
    add = result.changes.append
    old = {k: v for k, v in _flat(a.rules.parameters) if k.split(".")[0] not in _NAMING}
    new = {k: v for k, v in _flat(b.rules.parameters) if k.split(".")[0] not in _NAMING}
    for param in [*old, *(k for k in new if k not in old)]:
        if param not in new:
            add(Change("parameters", "-", param, _shown(old[param])))
        elif param not in old:
            add(Change("parameters", "+", param, after=_shown(new[param])))
        elif old[param] != new[param]:
            add(Change("parameters", "~", param, _shown(old[param]), _shown(new[param])))

    def in_deck(game: Game) -> dict[tuple[str, int], Card]:
        """The cards in play: the age decks' and the reserve's (``reserve.colour``)."""
        return {(c.name, c.age): c for c in (*game.deck_cards(), *game.reserve_cards())}

    cards_a, cards_b = in_deck(a), in_deck(b)
    for key in [*cards_a, *(k for k in cards_b if k not in cards_a)]:
        subject = f"{key[0]} (age {key[1]})"
        if key not in cards_b:
            add(Change("cards", "-", subject, cards_a[key].colour))
        elif key not in cards_a:
            card = cards_b[key]
            add(Change("cards", "+", subject, after=f"{card.colour}; "
                       f"{describe.effects(card.effects)}"))
        else:
            before, after = _card(cards_a[key]), _card(cards_b[key])
            for part in before:
                if before[part] != after[part]:
                    add(Change("cards", "~", f"{subject} {part}", before[part], after[part],
                               item=subject))
    wonders_a = {w.name: w for w in a.wonders}
    wonders_b = {w.name: w for w in b.wonders}
    for name in [*wonders_a, *(n for n in wonders_b if n not in wonders_a)]:
        if name not in wonders_b:
            add(Change("wonders", "-", name, f"sides {', '.join(wonders_a[name].sides)}"))
            continue
        if name not in wonders_a:
            add(Change("wonders", "+", name, after=f"sides {', '.join(wonders_b[name].sides)}"))
            continue
        sides_a, sides_b = wonders_a[name].sides, wonders_b[name].sides
        for side in [*sides_a, *(s for s in sides_b if s not in sides_a)]:
            subject = f"{name} side {side}"
            if side not in sides_b:
                add(Change("wonders", "-", subject, _side(sides_a[side]), item=name))
            elif side not in sides_a:
                add(Change("wonders", "+", subject, after=_side(sides_b[side]), item=name))
            elif _side(sides_a[side]) != _side(sides_b[side]):
                add(Change("wonders", "~", subject, _side(sides_a[side]), _side(sides_b[side]),
                           item=name))
    tokens_a = {t.name: t for t in a.tokens}
    tokens_b = {t.name: t for t in b.tokens}
    for name in [*tokens_a, *(n for n in tokens_b if n not in tokens_a)]:
        if name not in tokens_b:
            add(Change("tokens", "-", name, _token(tokens_a[name])))
        elif name not in tokens_a:
            add(Change("tokens", "+", name, after=_token(tokens_b[name])))
        elif _token(tokens_a[name]) != _token(tokens_b[name]):
            add(Change("tokens", "~", name, _token(tokens_a[name]), _token(tokens_b[name])))
    return result


__all__ = ["Change", "Diff", "diff"]
