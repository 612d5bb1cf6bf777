"""Ratings: openskill (Weng-Lin) per player and game, from every finished match.

`compute` is pure (no Django); `services` loads and writes rows, `receivers` listens to
gameplay's `match_finished` for friendly tables. See docs/ratings.md.
"""
