"""Plain-English rendering of compiled effects and costs, for listings and the terminal.

Written from the compiled objects (not the source text), so it shows what the
engine will actually do: a designer reads it to confirm the card means what
they meant.
"""

from __future__ import annotations

from wonders.dsl import effects as fx

_CITY = {"self": "your city", "left": "your left neighbour's city",
         "right": "your right neighbour's city", "neighbours": "your neighbours' cities",
         "opponent": "your opponent's city", "all": "every city", "others": "every other city",
         "most": "the city with the most"}


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def _cities(places: tuple[str, ...], joiner: str = "and") -> str:
    names = list(places)
    if "left" in names and "right" in names:
        names[names.index("left")] = "neighbours"
        names.remove("right")
    words = [_CITY.get(p, p) for p in names]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {joiner} " + words[-1]


def _coins_owed(item: fx.LoseCoins | fx.GiveCoins, one: str,
                several: str) -> tuple[str, list[str]]:
    """The verb (``one`` for a single city, else ``several``) and the parts of what a
    ``loses`` or ``gives`` takes from each city: its amount, and what ``… in them``
    counts in the city itself."""
    verb = one if len(item.places) == 1 and item.places[0] != "neighbours" else several
    parts = [] if item.amount.is_fixed and item.amount.fixed == 0 and item.each else [
        amount(item.amount, "coin")]
    if item.each is not None:
        parts += [f"{t.value} {_plural('coin', t.value)} per "
                  f"{_counted(t.counted, t.divisor)} they hold" for t in item.each.terms]
    return verb, parts


def _who(places: tuple[str, ...], joiner: str = "and") -> str:
    """Cities as people: "your opponent", "your neighbours"."""
    who = _cities(places, joiner).replace("cities", "").replace("city", "").strip()
    who = who.replace("'s", "").replace("' ", " ").rstrip("'")
    return {"every other": "every other player", "every": "every player"}.get(who, who)


def _places(places: tuple[str, ...]) -> str:
    return "in " + _cities(places)


def _counted(counted: fx.Counted, divisor: int) -> str:
    unit = ""
    if isinstance(counted, fx.CountCards):
        colours = " or ".join(sorted(counted.colours)) if counted.colours else ""
        unit = f"{colours} card".strip()
    elif isinstance(counted, fx.CountStages):
        unit = "built wonder stage"
    elif isinstance(counted, fx.CountTokens):
        unit = f"{counted.kind} token"
    elif isinstance(counted, fx.CountScienceSets):
        unit = f"complete set of science symbols ({', '.join(counted.symbols)})"
    elif isinstance(counted, fx.CountSets):
        unit = f"set of one {', '.join(counted.colours)} card each"
    elif isinstance(counted, fx.CountAsideCoins):
        unit = "coin laid aside"
    elif isinstance(counted, fx.CountKept):   # the current age's number, cubes placed
        unit = ("cube on the board of chambers" if counted.name == "influence"
                else "space the pawn moved" if counted.name == "space"
                else f"{counted.name} (its number now)")
    else:
        unit = "coin"
    if divisor == 1:
        return unit
    return f"{divisor} {_plural(unit, divisor)}"


def amount(value: fx.Amount, unit: str) -> str:
    parts = []
    if value.fixed or not value.terms:
        parts.append(f"{value.fixed} {_plural(unit, value.fixed)}")
    for term in value.terms:
        counted = term.counted   # (a count the game keeps, but cubes, is no city's)
        where = ("" if isinstance(counted, fx.CountKept) and counted.name != "influence"
                 else f" {_places(term.places)}")
        parts.append(f"{term.value} {_plural(unit, term.value)} per "
                     f"{_counted(counted, term.divisor)}{where}")
    return " plus ".join(parts)


def effect(item: fx.Effect) -> str:
    if isinstance(item, fx.Produce):
        if item.relative:
            which = ("a resource your city already produces" if item.relative == "produced"
                     else "a resource none of your production sources produces")
            return (f"produces one unit of {which} each turn (by your start resource and "
                    "the cards neighbours may buy from)"
                    + ("" if item.buyable else " (neighbours cannot buy it)"))
        what = " or ".join(item.resources)
        text = f"produces {item.amount} {what}" if item.amount > 1 else (
            f"produces one of {what} each turn" if len(item.resources) > 1 else f"produces {what}")
        return text + ("" if item.buyable else " (neighbours cannot buy it)")
    if isinstance(item, fx.Points):
        return amount(item.amount, "victory point")
    if isinstance(item, fx.Coins):
        return amount(item.amount, "coin")
    if isinstance(item, fx.Shields):
        if item.each is not None:
            return amount(fx.Amount(item.count, item.each.terms), "shield")
        return f"{item.count} {_plural('shield', item.count)}"
    if isinstance(item, fx.Science):
        if len(item.symbols) == 1:
            return f"science symbol {item.symbols[0]}"
        return f"one science symbol of your choice ({', '.join(item.symbols)}), chosen at scoring"
    if isinstance(item, fx.TradePrice):
        source = f" from {_who(item.places)}" if item.places else ""
        return f"buy {', '.join(sorted(item.resources))}{source} for {item.price} " \
               f"{_plural('coin', item.price)} each"
    if isinstance(item, fx.Ability):
        name = item.name.replace("_", " ")
        if item.colours:
            name += " of " + " or ".join(sorted(item.colours)) + " cards"
        if item.once_per == "game":
            return f"ability: {name} (once)"
        return f"ability: {name}" + (f" (once per {item.once_per})" if item.once_per else "")
    if isinstance(item, fx.LoseCoins):
        verb, parts = _coins_owed(item, "loses", "lose")
        text = f"{_who(item.places)} {verb} {' plus '.join(parts)}"
        if item.debt is not None:
            text += (f" (each chooses how many to pay, and takes a {item.debt} token for "
                     "every coin not paid)")
        return text
    if isinstance(item, fx.GainCoins):
        verb = "gains" if len(item.places) == 1 and item.places[0] != "neighbours" else "gain"
        return f"{_who(item.places)} {verb} {amount(item.amount, 'coin')} from the bank"
    if isinstance(item, fx.GiveCoins):
        verb, parts = _coins_owed(item, "gives", "give")
        each = " each" if verb == "give" else ""
        return (f"{_who(item.places)}{each} {verb} you {' plus '.join(parts)}, from their own "
                "coins (as many as they have, up to that)")
    if isinstance(item, fx.Replay):
        return "play again straight away"
    if isinstance(item, fx.Destroy):
        colours = " or ".join(sorted(item.colours))
        return f"discard one {colours} card of {_cities(item.places, 'or')}"
    if isinstance(item, fx.TakeToken):
        if not item.pool:
            return f"take {item.count} {_plural(item.kind + ' token', item.count)}"
        source = f"the {item.pool}" if item.draw is None else \
            f"{item.draw} drawn at random from the {item.pool}"
        return f"take a {item.kind} token from {source}"
    if isinstance(item, fx.Discount):
        if item.target == "trade":
            return (f"the coins you pay {_who(item.places, 'or')} for the resources of one "
                    f"build are {item.count} less (never below 0)")
        if item.every:
            what = ("wonder stages" if item.target == "wonder" else
                    (" or ".join(sorted(item.colours)) + " cards") if item.colours else "cards")
            return f"{what} are built without paying their resources (coins still paid)"
        if item.target == "wonder":
            target = "wonder stages"
        else:
            target = (" or ".join(sorted(item.colours)) + " cards") if item.colours else "cards"
        unit = "coin" if item.unit == "coins" else "resource"
        if item.cities:
            return (f"the {target} of {_cities(item.cities, 'and')} cost them "
                    f"{item.count} {_plural(unit, item.count)} less (never below 0)")
        if item.price:
            return (f"for {item.price} {_plural('coin', item.price)} to the bank, {target} "
                    f"cost {item.count} {_plural(unit, item.count)} less (at most once a build)")
        return f"{target} cost {item.count} {_plural(unit, item.count)} less"
    if isinstance(item, fx.DrawReserve):
        return (f"draw {item.count} unused reserve {_plural('card', item.count)} into your "
                "reserve hand")
    if isinstance(item, fx.BuildReserve):
        return (f"build {item.count} more {_plural('card', item.count)} of your reserve hand "
                "at once, paying the cost (or not)")
    if isinstance(item, fx.Influence):
        return _influence(item)
    if isinstance(item, fx.Conspire):
        return "conspire: draw 2 conspiracies, keep 1, the other on top or bottom of the deck"
    if isinstance(item, fx.TriggerHeld):
        return f"you may trigger one of your {item.kind} tokens at once, even unprepared"
    if isinstance(item, fx.Either):
        return f"either {effect(item.first)}, or {effect(item.second)}"
    moved = _moved(item)
    if moved:
        return moved
    assert isinstance(item, fx.CopyCard)
    colours = " or ".join(sorted(item.colours))
    return f"copy one {colours} card from {_cities(item.places, 'or')} (scored as your own)"


def _influence(item: fx.Influence) -> str:
    """An influence action in words."""
    cubes = f"{item.count} {_plural('cube', item.count)}"
    if item.verb == "place":
        where = "any chamber" if item.where == "any" else f"a chamber of the {item.where}"
        return f"place {cubes} in {where}"
    if item.verb == "remove":
        return f"remove {cubes} of your opponent's from any chamber"
    if item.verb == "move" and item.what == "decree":
        return "move a decree under another chamber's"
    if item.verb == "move":
        return f"you may move {cubes} of yours to an adjacent chamber"
    if item.verb == "act":
        return (f"chamber actions (as many as your cards give): each places a cube in the "
                f"{item.where} or moves one of yours to an adjacent chamber")
    return f"count {item.count} more cards for your number of chamber actions"


def _moved(item: fx.Effect) -> str:
    """A priced row's effects, and those moving cards, wonders and the track's pieces, in
    words ('' for another effect)."""
    if isinstance(item, fx.ActivationDiscount):
        return (f"activations cost {item.count} {_plural('coin', item.count)} less (never "
                "below 0)" + ("; spent on the activation it is used for" if item.once else ""))
    if isinstance(item, fx.Activate):
        return (f"activate a {item.kind} free: one of the stacks' tops" if item.source == "tops"
                else f"look through one {item.kind} stack and activate one of it free")
    if isinstance(item, fx.ChainPrice):
        return (f"any card showing a chain symbol may be built for {item.coins} "
                f"{_plural('coin', item.coins)}, without its chain card or token")
    if isinstance(item, fx.CoinsAside):
        return (f"{amount(item.amount, 'coin')} from the bank laid on it: spendable after "
                "your treasury, safe from losses, not in your treasury")
    if isinstance(item, fx.CopyScience):
        colours = " or ".join(sorted(item.colours))
        return (f"the science symbol of one {colours} card of {_cities(item.places, 'or')} "
                "becomes yours too")
    if isinstance(item, fx.TakeCard):
        colours = " or ".join(sorted(item.colours))
        return f"take one {colours} card of {_cities(item.places, 'or')} into your city"
    if isinstance(item, fx.MoveWonder):
        if item.verb == "take":
            return f"take an unbuilt wonder of {_cities(item.places, 'or')}"
        if item.verb == "unbuild":
            return (f"unbuild a wonder of {_cities(item.places, 'or')} (its card to the "
                    "discard pile)")
        return "build one of your wonders free with a card of the discard pile"
    if isinstance(item, fx.DiscardStructure):
        return "discard any card of the structure (covered or face down too)"
    if isinstance(item, fx.RemoveToken):
        sources = [f"the {pool}" for pool in item.pools]
        if item.places:
            sources.append(_cities(item.places, "or"))
        return (f"put a {item.kind} token of {' or '.join(sources)} out of the game: nobody "
                "uses it any more")
    if isinstance(item, fx.BuildFree):
        what = (" or ".join(sorted(item.colours)) + " card") if item.colours else "card"
        where = ("the structure's last row" if item.source == "last row" else
                 "the cards removed at set-up (you alone see them)")
        return f"build a {what} of {where} free"
    if isinstance(item, fx.Swap):
        colours = " or ".join(sorted(item.colours))
        return (f"swap a {colours} card of {_cities(item.places, 'or')} for one of yours of "
                "the same colour")
    if isinstance(item, fx.TrackPiece):
        return {"block": "put a blocker on the conflict track: the pawn stops before it, once",
                "discard": "discard a military token without its effect",
                "use": "apply a military token's effect, then discard it"}[item.verb]
    return ""


def _copy_now(item: fx.CopyCard) -> str:
    colours = " or ".join(sorted(item.colours))
    return (f"choose one {colours} card of {_cities(item.places, 'or')}: its whole effect is "
            "yours too (its owner keeps it)")


def _trigger(trigger: fx.Trigger | None) -> str:
    who = "you build" if trigger is None or not trigger.watches else (
        f"a player ({', '.join(trigger.places)}) builds")
    if trigger is None or trigger.event == "card":
        colours = " or ".join(sorted(trigger.colours)) if trigger and trigger.colours else ""
        return f"each time {who} a {colours} card".replace("  ", " ")
    if trigger.event == "wonder":
        return f"each time {who} a wonder stage"
    if trigger.event == "sell":
        return "each time you sell a card"
    if trigger.event == "draft":   # ("on draft:": once, not each time)
        return "when you choose it in the wonder draft"
    if trigger.event == "chain":
        return "each time you build a card free by chain"
    if trigger.event.endswith("_end"):
        return f"at the end of each {trigger.event[:-4]}"
    if trigger.event.endswith("_start"):
        return f"at the start of each {trigger.event[:-6]}"
    if trigger.event.endswith("_token"):
        return f"each time you receive a {trigger.event[:-6]} token"
    if trigger.event == "buy":
        return "for each neighbour you buy resources from in a build"
    if trigger.event == "advance":
        return "each time your shields move the conflict pawn towards your opponent"
    if trigger.event == "bank_coins":
        return "the first time in a turn you take coins from the bank"
    return f"each time of {trigger.event}"


def condition(item: fx.Condition | None) -> str:
    """`` if …`` for a clause's condition, or nothing."""
    if item is None:
        return ""
    if item.kind == "wonder":
        return " if every stage of your wonder is built"
    assert item.amount is not None and item.amount.terms
    term = item.amount.terms[0]
    unit = _counted(term.counted, 1)
    return (f" if there are at least {item.count} {_plural(unit, item.count)} "
            f"{_places(term.places)}")


def clause(item: fx.Clause, now: str = "when built") -> str:
    """A clause in words; ``now``: what its ``now:`` timing is called (a card's clauses act
    when it is built, a token's when it is taken: "at once")."""
    text = (_copy_now(item.effect) if isinstance(item.effect, fx.CopyCard)
            and item.timing is fx.Timing.NOW else effect(item.effect))
    text += condition(item.condition)
    if item.timing is fx.Timing.ON:
        return f"{_trigger(item.trigger)}: {text}"
    if item.timing is fx.Timing.NOW:
        return f"{now}: {text}"
    if item.timing is fx.Timing.END and not (isinstance(item.effect, fx.Points)
                                            and item.effect.amount.is_fixed):
        return f"at game end: {text}"
    return text


def effects(value: fx.Effects, now: str = "when built") -> str:
    return "; ".join(clause(c, now) for c in value.clauses) or "no effect"


def cost(value: fx.Cost) -> str:
    if value.is_free:
        return "free"
    parts = [f"{value.coins} {_plural('coin', value.coins)}"] if value.coins else []
    parts += [f"{n} {name}" for name, n in value.resources]
    return ", ".join(parts)
