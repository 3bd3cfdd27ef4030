"""Skill ratings per game for registered players (openskill), their leaderboards and their rebuild."""
