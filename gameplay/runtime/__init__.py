"""The table server's runtime for speed, apart from its domain services.

The few modules that reach past the frameworks for a faster move — the thread hop (`pool`), the
consumers' message loop (`dispatch`), the fan-out with channels_redis internals (`notify`), where
bot moves and clock sweeps run (`runner`) and where bots think (`thinkers`, `bot_jobs`), the
in-memory tables (`cache`), the move's hand-written SQL (`claim`) and a connection's limits
(`limits`). They know tables as rows and matches, never the rules of play: the domain services
(`gameplay.services`) and the consumers use them, they never use the services back (contract
`gameplay-runtime`, docs/architecture.md). Nothing is imported here, so a bot's process can
import `bot_jobs` without Django.
"""
