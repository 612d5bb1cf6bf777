"""Path converters: what a URL may name, checked before any view or consumer runs.

A table id is `new_table_id()` (16 hex digits); the converter admits any id the column can
hold in a URL-safe alphabet (an id made some other way still resolves), and nothing else: no
NUL (PostgreSQL refuses it in a query), no dots or slashes, no unicode, nothing longer than
the column. Such a URL is a 404, or a refused WebSocket handshake.
"""

from __future__ import annotations

from django.urls import register_converter


class TableIdConverter:
    regex = r"[0-9A-Za-z_-]{1,32}"  # Table.id is a CharField(max_length=32)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TableIdConverter, "table_id")
