"""Verb-named service functions: the only writers of league rows.

Each authorizes (where a user acts), validates, writes inside a transaction and schedules side
effects (standings recomputation) with `transaction.on_commit`, carrying ids, not objects.
"""
