"""The actions of a game run by the flow interpreter: a verb and its words.

One small value for every decision a flow's mechanisms ask (``take left``, ``build 2 pay
wood stone``, ``progress stack with tablet tablet``, ``decline``): its notation is its
words joined by spaces, printed and parsed the same way, and its JSON form names the verb
and the words, so logs, the web protocol and the environment need nothing per mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class Move:
    """A decision's answer: ``verb`` (what is done) and ``words`` (what it names, in order)."""

    verb: str
    words: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.words))

    def to_json(self) -> dict[str, object]:
        return {"action": self.verb, "words": list(self.words)}

    @staticmethod
    def from_json(record: Mapping[str, Any]) -> Move | None:
        """The move a JSON record holds (None: not a move's record)."""
        verb, words = record.get("action"), record.get("words")
        if not isinstance(verb, str) or not isinstance(words, list) or not all(
                isinstance(w, str) for w in words):
            return None
        return Move(verb, tuple(words))


__all__ = ["Move"]
