"""WebSocket consumers: they authenticate and route; services validate; engines decide."""
