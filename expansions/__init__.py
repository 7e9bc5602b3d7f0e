"""Shipped expansions, edition changes and examples: one folder each, data only.

A package so that ``importlib`` finds it in every kind of install; nothing here is code.
"""
