"""The client's own address behind a reverse proxy (nginx, in hosted mode).

Behind a proxy every request's peer is the proxy. It says whom it relays for in
`X-Forwarded-For` (each proxy appends the address it was reached from) and which scheme
the browser used in `X-Forwarded-Proto`. Anyone can send those headers, so they are
believed only when the peer is a proxy the host named (`--trusted-proxy`); then the
client is the right-most address of the header that is not itself a trusted proxy: the
one the outermost trusted proxy saw. Addresses to its left were written by the client
and may be anything. From any other peer the headers are ignored, so no client can pick
its own address, and with it a fresh allowance of every per-client measure (pacing,
fair shares, socket caps, rate limits: all keyed by `clients.client_of`).

The middleware rewrites the ASGI scope's `client` and `scheme`, so every later reader
(`client_of`, the backup's this-machine check, who may read /metrics, the guard's
Origin check behind a TLS proxy) sees the browser's side of the proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_networks(text: str) -> tuple[Network, ...]:
    """`ADDR[,ADDR...]`, each an address or a network (`10.0.0.0/8`); ValueError names
    the one that is neither."""
    networks = []
    for part in (part.strip() for part in text.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network") from None
    return tuple(networks)


def address_of(text: str) -> Address | None:
    """An address as a proxy writes it (`1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `::1`);
    None if it is not one. IPv4 mapped into IPv6 is the IPv4 address: one client, one
    key, however it is spelt."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port (IPv6 has at least two colons)
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


class TrustedProxies:
    """The proxies whose forwarding headers are believed."""

    def __init__(self, networks: Iterable[Network]) -> None:
        self.networks = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: Address | None) -> bool:
        return address is not None and any(
            address.version == network.version and address in network
            for network in self.networks)

    def client_address(self, forwarded_for: str) -> str | None:
        """The client a trusted proxy relays for, from its `X-Forwarded-For`: the
        right-most address not itself a trusted proxy (every one trusted: the left-most,
        a proxy asking on its own behalf). None if that entry is not an address (a proxy
        that passes on the client's header without appending to it)."""
        entries = [entry for entry in forwarded_for.split(",") if entry.strip()]
        if not entries:
            return None
        for entry in reversed(entries):
            address = address_of(entry)
            if not self.trusts(address):
                return None if address is None else str(address)
        first = address_of(entries[0])
        return None if first is None else str(first)


class ForwardedFor:
    """ASGI middleware: the client's address and scheme from a trusted proxy's headers
    (see the module's doc); untouched from any other peer."""

    def __init__(self, app: ASGIApp, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self._from_trusted_proxy(scope):
            scope = self._as_relayed(scope)
        await self.app(scope, receive, send)

    def _from_trusted_proxy(self, scope: Scope) -> bool:
        peer = scope.get("client")
        return bool(self.trusted) and peer is not None and self.trusted.trusts(
            address_of(str(peer[0])))

    def _as_relayed(self, scope: Scope) -> Scope:
        # a header sent several times counts as one list, in order (RFC 9110, 5.3)
        forwarded = ", ".join(value.decode("latin-1") for name, value in scope["headers"]
                              if name == b"x-forwarded-for")
        proto = next((value.decode("latin-1").strip().lower()
                      for name, value in scope["headers"] if name == b"x-forwarded-proto"),
                     None)
        relayed = dict(scope)
        client = self.trusted.client_address(forwarded) if forwarded else None
        if client is not None:
            relayed["client"] = (client, 0)
        if proto in ("http", "https"):
            secure = proto == "https"
            relayed["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" \
                else proto
        return relayed
