"""Tests of the pure-Python rules in ``games/``."""
