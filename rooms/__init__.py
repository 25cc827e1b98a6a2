"""Rooms: people playing people. The lobby, creating and joining rooms, the waiting room; a full room starts a match."""
