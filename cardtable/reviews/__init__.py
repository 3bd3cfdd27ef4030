"""After a game with people: each seat's decisions weighed by search (docs/review.md)."""
