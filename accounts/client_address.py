"""The client's address: one answer for log-in lockouts, API throttles and the spectator cap.

`X-Forwarded-For` is believed only when the connection comes from a configured proxy
(`TRUSTED_PROXIES`): anyone else can write any address there, and a limit keyed on it would be
no limit. From a trusted proxy the header is read from the right: each hop appended by a trusted
proxy is stepped over, and the first address no trusted proxy stands for is the client (the
left-hand entries are whatever the client sent, so they are never believed).

An IPv6 client counts by its /64 network (its first address stands for it): one host is
commonly handed a whole /64, so a per-address limit on single IPv6 addresses limits nothing.
An IPv4 address mapped into IPv6 counts as the IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_address(raw: str) -> Address | None:
    """An address as a peer or a proxy writes it (`1.2.3.4`, `1.2.3.4:5678`, `[::1]:443`)."""
    text = raw.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port; a bare IPv6 address has several colons
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in trusted)


def client_address(
    peer: str | None, forwarded_for: str | None, trusted: Iterable[str] = ()
) -> str | None:
    """The client's address key, from the connection's peer and its X-Forwarded-For header.

    None when the peer is unknown (a Unix socket, unless the server puts the forwarded client
    there): the spectator cap does not count such a socket, while the log-in lockout and the
    throttles count every such client as one.
    """
    address = parse_address(peer) if peer else None
    if address is None:
        return None
    networks = _networks(tuple(trusted))
    if networks and forwarded_for:
        for hop in reversed(forwarded_for.split(",")):
            if not any(address in network for network in networks):
                break  # not a proxy of ours: the client
            previous = parse_address(hop)
            if previous is None:
                break  # a malformed hop: charge the last address we can vouch for
            address = previous
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False).network_address)
    return str(address)


def request_client_address(request: Any) -> str | None:
    """The address of an HTTP request (django-axes' AXES_CLIENT_IP_CALLABLE, API throttles)."""
    meta: Mapping[str, str] = request.META
    return client_address(
        meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"), settings.TRUSTED_PROXIES
    )


def scope_client_address(scope: Mapping[str, Any]) -> str | None:
    """The address of an ASGI connection (a WebSocket's scope)."""
    client = scope.get("client")
    peer = str(client[0]) if client else None
    forwarded = [
        value.decode("latin1")
        for name, value in scope.get("headers", ())
        if name.lower() == b"x-forwarded-for"
    ]
    return client_address(peer, ",".join(forwarded) or None, settings.TRUSTED_PROXIES)
