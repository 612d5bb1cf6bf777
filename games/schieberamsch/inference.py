"""Schieberamsch's inference hook (games/core/bots/inference.py, docs/bots.md "Inference").

Its observed actions say little — nearly every hand passes the Grand Hand offer and pushes the
skat, so nearly every world fits them — and weighing the worlds measured no better than
uniform ones (docs/bots.md, "Inference": -1.96 [-5.07, +1.15] on 76 duplicate deals). The
strong level keeps uniform worlds here unless a `Budget(inference=...)` asks for weights.
"""

BY_DEFAULT = False
