"""The card language: YAML card sets, the effect language, schemas and checks.

``wonders.dsl`` turns text written by people into compiled, validated data
(:class:`~wonders.dsl.model.Game`); it never imports the engine.
"""

from wonders.dsl.errors import (
    DataError,
    Diagnostic,
    EffectSyntaxError,
    Location,
    Severity,
    WondersError,
)

__all__ = ["DataError", "Diagnostic", "EffectSyntaxError", "Location", "Severity", "WondersError"]
