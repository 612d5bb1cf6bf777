"""The league's REST API (DRF): read-only public endpoints and the organizer's verbs.

Views are thin: they load rows with a fixed number of queries, call the service functions of
`league/services/` for every write, and turn `LeagueError` into a 400 with its message.
"""
