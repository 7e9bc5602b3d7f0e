"""The messages a page sends, checked before anything reads them, and their rate.

A page speaks JSON over a websocket.  Its first message joins the table:
``{"type": "join", "token": SEAT_TOKEN}`` for a seat, ``{"type": "join"}`` to
watch.  Then ``{"type": "act", "decision": N, "action": ACTION}`` (``ACTION``
is an action's ``to_json()`` as the server described it; ``N`` the number of the
open decision, so a repeated or stale message is refused), ``{"type": "hint"}``
``{"type": "ping"}``, ``{"type": "back"}`` (take back a seat the stand-in bot
plays) and ``{"type": "hand_over", "target": SEAT}`` (give an abandoned seat to a
bot).  A message may name its ``seat``; it must be the seat the connection joined as.
Anything else — too large, not JSON, nested too deep, an unknown type or field, text that is
not valid Unicode (a lone surrogate such as ``"\\ud800"`` in a key or a value), too many
messages — is refused with ``{"type": "refused", "reason": …}`` and changes nothing.  What the
server sends is ASCII JSON (:func:`dumps`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE_BYTES = 4096
MAX_DEPTH = 6
RATE_PER_SECOND = 10.0
RATE_BURST = 30.0
MESSAGE_TYPES: dict[str, frozenset[str]] = {
    "join": frozenset({"type", "token"}),
    "act": frozenset({"type", "decision", "action", "seat"}),
    "hint": frozenset({"type", "seat"}),
    "ping": frozenset({"type"}),
    # a player whose seat the stand-in bot plays takes it back
    "back": frozenset({"type", "seat"}),
    # a seated player hands an abandoned seat (no page for a while, its turn) to a bot
    "hand_over": frozenset({"type", "target", "seat"}),
}


class ProtocolError(ValueError):
    """A message the server refuses before reading it: the reason is sent back."""


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def parse(text: str | bytes | None) -> dict[str, Any]:
    """A message as a checked dict with a known ``type`` and only its fields."""
    if text is None:
        raise ProtocolError("send text messages holding JSON")
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large ({len(text)} bytes; at most "
                            f"{MAX_MESSAGE_BYTES})")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    if _depth(message) > MAX_DEPTH:
        raise ProtocolError(f"values nest more than {MAX_DEPTH} levels deep")
    if not valid_unicode(message):
        raise ProtocolError("the message holds text that is not valid Unicode (a lone "
                            "surrogate such as \\ud800)")
    kind = message.get("type")
    fields = MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError(f"unknown message type {json.dumps(kind)[:40]}; one of "
                            f"{', '.join(MESSAGE_TYPES)}")
    extra = set(message) - fields
    if extra:
        raise ProtocolError(f"unknown field(s) in '{kind}': {', '.join(sorted(extra))[:80]}")
    if kind == "join" and "token" in message and not isinstance(message["token"], str):
        raise ProtocolError("'token' is the text of a seat's join link")
    if kind == "act" and not isinstance(message.get("action"), dict):
        raise ProtocolError("'action' is an action object as the server described it")
    return message


def valid_unicode(value: Any) -> bool:
    """Whether every string of a JSON value (keys included) is valid Unicode: JSON's
    ``\\ud800`` escapes decode to a lone surrogate, which no UTF-8 text holds."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(valid_unicode(k) and valid_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(valid_unicode(v) for v in value)
    return True


def dumps(value: Any) -> str:
    """What the server sends: compact JSON, ASCII (so any text encodes)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


@dataclass
class RateLimit:
    """A token bucket: ``burst`` messages at once, ``per_second`` on average."""

    per_second: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = -1.0   # a full bucket to start with
    last: float = 0.0

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.last:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


__all__ = ["MAX_MESSAGE_BYTES", "ProtocolError", "RateLimit", "dumps", "parse",
           "valid_unicode"]
