"""The engine's mechanisms: one module (or a few) per slot kind a rule set fills.

A rule set names, per slot, which mechanism fills it; the dsl parses each slot's
section once into a typed value (:mod:`wonders.dsl.rules_model`, where every
default lives), and each mechanism reads only its own section of that model.
This package is the map from slot kind to code; new mechanisms go here.  Some
older ones still live at the top of the engine, because they are on the
compiled hot path and their import names are part of the build (``setup.py``);
they are listed here so each slot has one place to look.

=====================  ==============================  =====================================
slot (rule-set key)    mechanism                       module(s)
=====================  ==============================  =====================================
``offer``              ``draft``: hands passed around  :mod:`wonders.engine.game` (the loop
                                                       registered for it in
                                                       :mod:`wonders.engine.registry`),
                                                       :mod:`.hands` (the ages' decks, dealt
                                                       and passed, the last card)
``offer``              ``structure``: overlapping      :mod:`wonders.engine.structure` (the
                       rows of cards, run by the flow  layouts), :mod:`.structure` (the
                       interpreter                     offer), :mod:`.cities` (the cities
                                                       effects act on), :mod:`.pools`,
                                                       :mod:`.wonder_draft`,
                                                       :mod:`wonders.engine.structure_rules`
                                                       (its compiled parameters)
``turns``              ``simultaneous`` /              the offer's loop (who is asked at once)
                       ``sequential``
``trade``              ``neighbours``                  :mod:`.neighbours` (each seat's trade
                                                       context, payments, what it may buy),
                                                       :mod:`wonders.engine.payment` (every
                                                       Pareto-optimal left/right split),
                                                       :mod:`wonders.engine.production`
(effects)              ``discount …``,                 :mod:`.discounts` (coins and
                       ``ability free_build …``        resources off costs and trade),
                                                       :mod:`.free_builds` (free builds and
                                                       their uses per period)
``trade``              ``bank``                        :mod:`wonders.engine.bank` (the
                                                       cheapest purchase),
                                                       :mod:`wonders.engine.bank_terms`
                                                       (cached prices per city),
                                                       :mod:`.bank` (terms per seat, shared
                                                       offers)
``military``           ``battles``                     :mod:`wonders.engine.mechanisms.battles`
``military``           ``track``                       :mod:`wonders.engine.track` (pawn,
                                                       zones, coin tokens), :mod:`.track`
                                                       (its part; who starts a round)
``science``            ``sets``                        :func:`wonders.engine.scoring.
                                                       science_points`
``science``            ``pairs``                       :mod:`.pairs` (a pair's effect,
                                                       supremacy)
``setup.wonders``      ``deal``                        :func:`wonders.engine.sides.deal_boards`
                                                       (boards and their sides)
``reserve``            a second deck drafted before    :mod:`.card_reserve` (the draft, the
                       the first round                 reserve turn, draws, sold cards)
``setup.wonders``      ``draft``                       :mod:`.wonder_draft` (picks from
                                                       pools, ``order``)
``offer``              ``dice``: a shared forum of     :mod:`wonders.engine.flow` (the flow
                       dice, player sheets (a          interpreter, every seat at once),
                       ``flow:``, ``forum`` and        :mod:`.forum` (dice shaken into priced
                       ``sheets`` files)               quadrants), :mod:`.sheets` (the sheets:
                                                       options, crossing, refusals),
                                                       :mod:`.sheet` (spaces in order,
                                                       resource types), :mod:`.reserve`
                                                       (bounded coins), :mod:`.gates`
                                                       (compare with neighbours),
                                                       :mod:`.attacks` (attack less
                                                       defences), :mod:`.end_trigger` (N
                                                       reached, M more turns)
``offer``              ``decks``: decks between        :mod:`wonders.engine.flow` (the flow
                       neighbours (a ``flow:`` and     interpreter), :mod:`.decks` (the
                       ``components`` files)           decks, the discard), :mod:`.pieces`
                                                       (Wonders built when paid),
                                                       :mod:`.progress` (tokens for science
                                                       sets), :mod:`.conflict` (horns and
                                                       battles), :mod:`.pawn` (a pawn that
                                                       scores); each owns a state part
                                                       (:class:`~wonders.engine.flow_state.
                                                       Part`)
``score``,             the score sheet and ties        :mod:`wonders.engine.scoring`
``tie_break``,
``treasury``
=====================  ==============================  =====================================

Modules here are plain typed Python that mypyc can compile (``setup.py``'s
``HOT_PATH`` lists the ones a compiled module imports): no ``__dict__`` tricks,
no recursive type aliases.
"""
