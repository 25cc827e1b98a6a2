"""A match's life, the services: start it, apply its moves, its clock, the people at a room's table
(presence, signals, spectators), how many one may play, and what it pays when it ends (rewards,
stakes, tournaments). No web here: callers publish after the commit (docs/architecture.md)."""
