"""Statistics, leaderboards and achievements (trophies and medals)."""
