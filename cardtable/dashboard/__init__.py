"""Staff dashboard, replays and game statistics over the tables' records."""
