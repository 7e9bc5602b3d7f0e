"""The shipped games: one folder per game (its rule set, cards, wonders and tokens), data only.

A package so that ``importlib`` finds it in every kind of install; nothing here is code.
"""
