"""How large a WebSocket message may be: the table protocol's cap, and the servers' caps made
from it.

`mediana.table/1` refuses a message over MAX_MESSAGE_CHARS characters, but a server reads a
whole frame into memory before the consumer sees it, and left alone uvicorn accepts 16 MiB and
Daphne 1 MiB (sixty idle spectator sockets held 1.1 GB). A character is at most 4 bytes of UTF-8,
so MAX_FRAME_BYTES is the largest frame a message the protocol accepts can be: README's uvicorn
command line passes it (`--ws-max-size`, checked by tests/foundation/test_server_flags.py) and the
settings hand it to Daphne (`manage.py runserver`). A larger frame closes the socket (1009).
"""

MAX_MESSAGE_CHARS = 16_384
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_CHARS
