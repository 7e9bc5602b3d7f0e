"""The names a rule set declares, against which effects and costs are checked.

The grammar knows no game: whether ``ore`` is a resource, ``purple`` a colour or
``opponent`` a place is decided here, by the rule set's ``vocabulary:`` block.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Vocabulary:
    resource_categories: dict[str, tuple[str, ...]]  # e.g. raw -> (wood, stone, ore, clay)
    colours: tuple[str, ...]
    science: tuple[str, ...]
    tokens: tuple[str, ...] = ()
    places: tuple[str, ...] = ("self",)
    abilities: tuple[str, ...] = ()
    periods: tuple[str, ...] = ("age",)
    variables: tuple[str, ...] = ("players",)
    resource_colours: dict[str, str] = field(default_factory=dict)  # category -> card colour
    pools: tuple[str, ...] = ()  # where tokens wait to be taken ("take … token from board")

    @property
    def resources(self) -> tuple[str, ...]:
        seen: list[str] = []
        for names in self.resource_categories.values():
            seen.extend(n for n in names if n not in seen)
        return tuple(seen)

    def expand_resources(self, name: str) -> tuple[str, ...] | None:
        """A resource or a category name → the resources it stands for (None: unknown)."""
        if name in self.resource_categories:
            return self.resource_categories[name]
        if name in self.resources:
            return (name,)
        return None

    @classmethod
    def from_data(cls, data: dict[str, object]) -> "Vocabulary":
        """Build from the (schema-valid) ``vocabulary`` mapping of a rule set."""
        categories_raw = data.get("resources", {})
        categories: dict[str, tuple[str, ...]] = {}
        if isinstance(categories_raw, dict):
            for category, members in categories_raw.items():
                if isinstance(members, list):
                    categories[str(category)] = tuple(str(n) for n in members)

        def names(key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
            value = data.get(key)
            if isinstance(value, list):
                return tuple(str(v) for v in value)
            return default

        return cls(
            resource_categories=categories,
            colours=names("colours"),
            science=names("science"),
            tokens=names("tokens"),
            places=names("places", ("self",)),
            abilities=names("abilities"),
            periods=names("periods", ("age",)),
            pools=names("pools"),
        )
