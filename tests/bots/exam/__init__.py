"""The bots' exam: positions where good players agree on the right decision, or on decisions
that are wrong (`positions/<game>.json`, read by `exam.py`; docs/bots.md, "The exam")."""
