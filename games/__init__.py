"""The game: matches against the AI, rooms, the live table, AI seats and the clock."""
