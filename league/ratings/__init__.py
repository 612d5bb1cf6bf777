"""Ratings: openskill (Weng-Lin) per player and game, from every finished match.

`compute` is pure (no Django); `services` loads and writes rows; friendly tables reach it from
`league.finished_tables`. See docs/ratings.md.
"""
