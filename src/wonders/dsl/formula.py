"""Formulas of rule-set variables (``players + 2``): how many cards a draw pool adds.

Kept apart from :mod:`wonders.dsl.effects` because a formula's expression is a
recursive type, which mypyc cannot compile, while the effect classes are
compiled with the engine's hot path (see ``setup.py``).  Formulas are evaluated
once per game set-up, so they lose nothing by staying interpreted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, slots=True)
class Formula:
    """A number computed from variables (``players + 2``); kept as its expression."""

    text: str
    expression: "FormulaNode"

    def evaluate(self, variables: dict[str, int]) -> int:
        return _evaluate(self.expression, variables)


FormulaNode = Union[int, str, tuple[str, "FormulaNode", "FormulaNode"]]


def _evaluate(node: FormulaNode, variables: dict[str, int]) -> int:
    if isinstance(node, int):
        return node
    if isinstance(node, str):
        return variables[node]
    op, left, right = node
    a, b = _evaluate(left, variables), _evaluate(right, variables)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a // b if b else 0
