"""Tests against a real daphne child process with its own sweeper (the clock and AI seats run for real).

`fast_ai` (tests/conftest.py) makes the AI seats quick; request it before `live_daphne`.
"""
