"""Where a game's data comes from: a shipped game by name, or a rule set on disk.

Every command's ``--game`` takes either form, and logs record it so a replay
loads the same thing:

* a **name** (``base``, ``duel``): a folder of ``cards/`` with a ``rules.yaml``;
* a **folder** (``--game my/variant/``): every YAML file in it, like a shipped game;
* a **rule-set file** (``--game my/variant/rules.yaml``): that rule set and the
  other data files beside it (its cards, wonders and tokens), in its folder only, not
  the folders below (a house rule saved in a crowded folder loads); other rule sets
  and scenario files in the same folder are left out, so variants (house rules that
  ``extends:`` a game) and their scenarios can sit side by side;
* any other **file** (a card file): just that file, which brings in the game its
  ``game:`` key names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import yaml

from wonders.dsl.errors import closest
from wonders.dsl.loader import (
    YAML_SUFFIXES,
    LoadResult,
    file_problem,
    goes_beside,
    load,
    shipped_expansions,
    shipped_games,
    yaml_beside,
)
from wonders.engine.errors import RuleError


class SourceError(RuleError):
    """``--game`` names no shipped game and no file or folder."""


@dataclass(frozen=True)
class Source:
    """A resolved ``--game``: a shipped game's name, or the files that make up the game."""

    given: str
    name: str | None = None
    paths: tuple[str, ...] = ()
    expansion: str | None = None  # a shipped expansion that is a rule set, by its name

    @property
    def spec(self) -> str:
        """What a log records to load the same game again: the name (a shipped game's or
        a shipped expansion's), or an absolute path."""
        if self.name is not None:
            return self.name
        return self.expansion or str(Path(self.given).resolve())

    def load(self, extra: Sequence[str | Path] = ()) -> LoadResult:
        return load([*self.paths, *extra], self.name)


def looks_like_path(text: str) -> bool:
    return ("/" in text or os.sep in text or text.endswith(YAML_SUFFIXES)
            or text in (".", ".."))


def _kind(path: Path) -> object:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return data.get("kind") if isinstance(data, dict) else None


def _str_or_none(kind: object) -> str | None:
    return kind if isinstance(kind, str) else None


def resolve(game: str) -> Source:
    """Resolve ``--game``; :class:`SourceError` says what is wrong, with a "did you mean"."""
    games = shipped_games()
    if game in games and not looks_like_path(game):
        return Source(game, game)
    path = Path(game)
    if game == "":
        raise SourceError("--game is empty: give a shipped game's name or a path")
    refused = file_problem(path)
    if refused is not None and refused != "no such file or folder":
        raise SourceError(f"{game}: {refused}")
    if path.is_dir():
        return Source(game, None, (str(path.resolve()),))
    if path.is_file():
        resolved = path.resolve()
        files = [str(resolved)]
        if _kind(resolved) == "rules":
            beside, problems = yaml_beside(resolved)
            if problems:
                raise SourceError(f"beside {game}: " + "; ".join(d.render() for d in problems))
            files += [str(p) for p in beside if goes_beside(_str_or_none(_kind(p)))]
        return Source(game, None, tuple(files))
    if looks_like_path(game):
        raise SourceError(f"no such file or folder: {game}")
    variants = variant_expansions()
    if game in variants:  # a shipped expansion written as a variant (expansions/leaders)
        return Source(game, None, (str(variants[game].resolve()),), game)
    names = game_names()
    hint = closest(game, names)
    raise SourceError(f"no shipped game '{game}'" + (f" (did you mean '{hint}'?)" if hint else "")
                      + f"; shipped: {', '.join(names) or 'none'}; or give the path of a "
                      "rule-set file or folder")


def variant_expansions() -> dict[str, Path]:
    """The shipped expansions that are rule sets of their own (a ``rules.yaml`` that
    ``extends:`` a game, as Leaders does), by name: ``--game leaders`` plays one from any
    folder, a fresh install included."""
    return {name: path for name, path in shipped_expansions().items()
            if (path / "rules.yaml").is_file()}


def game_names() -> list[str]:
    """Every name ``--game`` takes (and a scenario file's ``game:``): the shipped games,
    then the shipped expansions that are rule sets of their own."""
    return [*shipped_games(), *variant_expansions()]


def resolve_optional(game: str | None) -> Source | None:
    return None if game is None else resolve(game)


def load_source(game: str | None, paths: Sequence[str | Path] = ()) -> LoadResult:
    """Load ``--game`` (a name or a path, or nothing) plus extra files."""
    source = resolve_optional(game)
    if source is None:
        return load(list(paths), None)
    return source.load(paths)
