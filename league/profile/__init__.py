"""The player's side of an account: sign-up's name rule, the profile page and the API token.

Here in league, not in accounts, because each needs the account's `Player` (accounts never
imports league). allauth's account views do the rest (docs/accounts.md).
"""
