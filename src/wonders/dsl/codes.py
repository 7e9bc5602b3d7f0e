"""Every diagnostic code, with a one-line meaning.

Codes are stable: tools may match on them.  ``docs/errors.md`` documents each
one with an example, and the test suite triggers each one.  The first letter
says which step found the problem.
"""

from __future__ import annotations

CODES: dict[str, str] = {
    # Y: reading the file as YAML
    "Y001": "the file cannot be read, or is not UTF-8 text (binary, NUL bytes)",
    "Y002": "YAML syntax error",
    "Y003": "the file is too large",
    "Y004": "the document is too large or too deeply nested once aliases are expanded",
    "Y005": "a YAML tag or construct that could build objects, or a non-text key",
    "Y006": "a key appears twice in one map",
    "Y007": "the file is empty, or holds more than one YAML document",
    # S: the shape of the document (JSON Schema)
    "S100": "the document does not match its schema (other cases)",
    "S101": "a value has the wrong type",
    "S102": "a required key is missing",
    "S103": "an unknown key",
    "S104": "a value that is not one of the allowed values",
    "S105": "a value in the wrong format",
    "S106": "a value out of range, too short or too long, or a list with a repeated item",
    "S107": "two keys that cannot go together ('players' and 'count'; 'sides' and a single stage)",
    # E: effect, cost and formula syntax
    "E201": "an unexpected character",
    "E202": "an unexpected word or symbol",
    "E203": "the text ends too early (or is empty)",
    "E204": "a number of more than six digits (above 999999)",
    # N: names checked against the rule set's vocabulary
    "N301": "unknown resource (or resource category)",
    "N302": "unknown colour",
    "N303": "unknown science symbol",
    "N304": "unknown place",
    "N305": "unknown token kind",
    "N306": "unknown ability",
    "N307": "unknown variable in a formula",
    "N308": "unknown period in 'once per …'",
    "N309": "unknown token pool",
    "N310": "unknown place to activate from ('activate KIND token from tops' or '… from deck')",
    "N311": "unknown influence action (influence place, remove, move, act, bonus)",
    "N312": "unknown count in 'per NAME' (a period, or a count a mechanism keeps: influence)",
    "N320": "unknown moment in 'on WORD:' (a moment named by one word: draft)",
    "N316": "unknown place to remove a token from ('remove KIND token from …': a token pool "
            "or a place)",
    "N317": "unknown place to build a free card from ('build free card from last row' or "
            "'… from removed')",
    # T: meaning of effects
    "T401": "a timing ('now:', 'end:') the effect does not have",
    "T402": "a quantity above 1 with a choice of resources",
    "T403": "a zero that makes no sense (0 shields, per 0, a cost of 0)",
    "T404": "the same name listed twice",
    "T405": "the place 'most' where it names no city (outside a count, or with other places), "
            "or 'them' listed with other places",
    "T406": "a condition ('if …') on a clause that has no moment to check it (an ongoing "
            "effect, a copy)",
    "T407": "a discount on trade in resources (a neighbour's price is in coins), or a "
            "discount of other cities' costs ('… in PLACES') that is not in coins",
    "T408": "a price ('for N coins') on a discount that is not of resources",
    "T409": "a 'gives' that makes no sense: paid in tokens ('or KIND tokens'), or by the "
            "owner to itself ('self gives')",
    "T410": "an influence action written without what it needs (a count, a chamber, a "
            "section) or with what it does not read",
    "T411": "'rounded up' on a count that is not divided ('per N …')",
    "T412": "a count the flow keeps ('per age', 'per influence') where nothing is counted "
            "in play (an ongoing or end-of-game clause, a condition)",
    "T413": "'discount N resources or every coin' on something else than cards",
    "T414": "'per space' (the spaces of the conflict pawn's advance) outside an 'on advance:' "
            "clause, or counted in other cities",
    "T421": "'on draft:' on an effect that has no once-form ('now:'): points, production …",
    "T422": "'on draft:' on what no wonder draft picks: a card, a token, a board's start, "
            "a rule's effect",
    "T417": "'swap … with self': a city swapping a card with itself",
    # C: chains (free builds)
    "C501": "a chain link to a card that is not loaded (a misspelt name)",
    "C502": "a chain link that does not lead to a later age",
    "C503": "chain links that form a cycle",
    "C504": "two cards of one set declare a chain link differently",
    "C505": "a chain link to a card of a set that is not loaded",
    # D: decks and card sets
    "D601": "an age does not deal exactly a hand to every player at some player count",
    "D602": "a card without player markers that no draw rule draws",
    "D603": "a card in an age the rule set does not have",
    "D604": "a player marker above the game's maximum (warning: that copy is never used)",
    "D605": "a card defined twice (same name and age)",
    "D606": "a wonder defined twice",
    "D607": "'remove' names a card, wonder or wonder side that is not loaded",
    "D608": "a draw rule draws more cards than exist",
    "D609": "an age's deck does not fill its card structure (offer: structure)",
    "D610": "an age without a card structure, or a structure for an age the rule set does not have",
    "D611": "a card structure whose cards overlap in a row, or cover nothing in the row above",
    "D612": "a face-down row that the card structure does not have",
    "D613": "a token defined twice",
    "D614": "the setup lays out more tokens or wonders than are loaded",
    "D615": "dice data naming a building, symbol or die that is not defined, or defined twice "
            "(offer: dice)",
    "D616": "fewer cards of the reserve's colour than its draft deals at the most players",
    "D617": "components data (offer: decks) naming a card kind, deck or piece that is not "
            "defined, a Wonder without its deck or a deck without its Wonder, or a section "
            "given twice",
    "D620": "'replaces:' names a card that is not loaded",
    # L: loading files and sets
    "L701": "no such file or folder, or a folder without YAML files",
    "L702": "no rule set is loaded, or an unknown game is named",
    "L703": "more than one rule set is loaded",
    "L704": "cards written for another game than the loaded rule set",
    "L705": "a required set is not loaded",
    "L706": "'extends' names no shipped game and no rule-set file or folder",
    "L707": "rule sets that extend one another in a cycle (or a chain too long)",
    "L708": "a file that is not game data (a scenario file) among data files: skipped "
            "(warning)",
    "L709": "two rule sets a rule set extends change one value differently, and it does "
            "not set that value itself",
    # R: rule sets
    "R801": "the minimum player count is above the maximum",
    "R802": "a per-age list whose length differs from the number of ages",
    "R803": "a score line that is not in the score sheet's order, or an empty order",
    "R804": "a wonder draft whose pick order does not fit its pools or the player count",
    "R805": "conflict track zones out of order, or beyond supremacy",
    # M: what the rule set's game loop runs (wonders/dsl/mechanisms.py)
    "M901": "an effect or timing the game loop does not run (replay in a drafting game, "
            "a discount with neighbour trading, buy from places with bank trading …)",
    "M902": "an ability the game loop does not implement",
    "M903": "a token pool nothing fills, a take from a pool that never holds that kind, or "
            "tokens no pool deals",
    "M904": "fewer wonder boards than players, where each player is dealt a board",
    "M905": "a slot mechanism the game loop does not play with, or a rule-set key it never "
            "reads",
    "M906": "an ability with a frequency ('once', 'once per age') the game loop does not "
            "run for it",
    "M907": "a trade price ('buy … at N') above the rule set's fixed price: it never acts",
    "M908": "a clause that can never act where it is written ('on age start:' on a card of "
            "the last age, shields after the last battle) (warning)",
    "M909": "a flow step, offer or end condition the flow interpreter does not run, a step "
            "where it cannot act or with a parameter it does not read, or a flow beside an "
            "offer whose own loop would ignore it",
    "M912": "an 'on draft:' effect whose mechanism's set-up step comes after the wonder "
            "draft (draft_wonders) in flow.setup",
}

# X: rule scenarios (``wonders check``, wonders/scenarios/draft.py).  Kept apart from CODES,
# which are the data's codes (each with its own section and example in docs/errors.md);
# these three share the section "Scenarios" there.
SCENARIO_CODES: dict[str, str] = {
    "X901": "an expectation of a scenario does not hold",
    "X902": "a scenario that does not fit the loaded game: a name that does not exist, "
            "a seat out of range, a key the game's positions or checks do not have, a "
            "pool or draft that does not fit the rule set",
    "X903": "internal error in a scenario (a bug of the engine: the other scenarios still run)",
}
