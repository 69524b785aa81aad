"""Which API key goes to which host: the one key-routing policy of every backend that sends a key.

A config file may come from someone else, so the addresses in it must never be able to take a
user's key. The rules, the same for the OpenAI-compatible backend, the Anthropic backend and
any later one (each describes itself with a :class:`KeyPolicy`):

1. A vendor's own variable goes only to that vendor's hosts: ``OPENAI_API_KEY`` to
   ``*.openai.com``, ``ANTHROPIC_API_KEY`` to ``*.anthropic.com`` (see :data:`VENDOR_KEYS`).
   The backend reads it by default only when its server is one of those hosts.
2. Any other server gets only the variable the user names for the backend
   (``backends.<name>.api_key_env``); without one it gets a placeholder, never a key. Naming a
   vendor's variable for another host is refused (copy the key into a variable of its own),
   except for a server on this machine (a local gateway or proxy).
3. A key is never sent over plain HTTP to a host other than this machine unless the user opts
   in with ``backends.<name>.allow_insecure_http: true``.

A needed key that is unset is a :class:`~halluforge.errors.ModelError` that names the
variable; a key that may not go where it is asked to is a :class:`~halluforge.errors.ConfigError`
raised when the backend is created, before any request. :func:`scrub` takes a key out of any
text (an error message a server echoed) before it can reach a log, the store or the cache.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from urllib.parse import urlparse

from halluforge.errors import ConfigError, ModelError

#: what a server that needs no key gets (the SDKs insist on some value)
NO_KEY = "EMPTY"

#: every vendor's own variable and the domains it may be sent to (the domain or any subdomain)
VENDOR_KEYS: dict[str, tuple[str, ...]] = {
    "OPENAI_API_KEY": ("openai.com",),
    "ANTHROPIC_API_KEY": ("anthropic.com",),
}


@dataclass(frozen=True)
class KeyPolicy:
    """How one backend finds its key: its config section and its vendor's variable."""

    backend: str
    vendor_env: str

    @property
    def vendor_domains(self) -> tuple[str, ...]:
        """The domains the vendor's variable belongs to."""
        return VENDOR_KEYS[self.vendor_env]


OPENAI = KeyPolicy(backend="openai", vendor_env="OPENAI_API_KEY")
ANTHROPIC = KeyPolicy(backend="anthropic", vendor_env="ANTHROPIC_API_KEY")


def host_of(url: str) -> str:
    """The host name of ``url``, lower case, without port or brackets ('' when there is none)."""
    return (urlparse(url).hostname or "").lower()


def is_loopback(url: str) -> bool:
    """True for a URL whose host is this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    host = host_of(url)
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def in_domains(url: str, domains: tuple[str, ...]) -> bool:
    """True when the URL's host is one of ``domains`` or a subdomain of one."""
    host = host_of(url)
    return any(host == d or host.endswith("." + d) for d in domains)


def is_secure(url: str) -> bool:
    """True when a key may travel to ``url``: HTTPS, or any scheme to this machine."""
    return urlparse(url).scheme == "https" or is_loopback(url)


def key_variable(policy: KeyPolicy, base_url: str, api_key_env: str | None) -> str | None:
    """The environment variable whose key goes to ``base_url``, or None when no key belongs there.

    Raises :class:`ConfigError` when the user names a vendor's variable for a host outside
    that vendor's domains (and not on this machine).
    """
    if api_key_env is None:
        return policy.vendor_env if in_domains(base_url, policy.vendor_domains) else None
    name = api_key_env.strip()
    domains = VENDOR_KEYS.get(name)
    if domains is not None and not in_domains(base_url, domains) and not is_loopback(base_url):
        raise ConfigError(
            f"refusing to send {name} to {host_of(base_url) or base_url}: it goes only to "
            f"{' and '.join('*.' + d for d in domains)}",
            hint=f"put this server's key in a variable of its own (export MY_SERVER_KEY=...) and set "
            f"backends.{policy.backend}.api_key_env: MY_SERVER_KEY",
        )
    return name


def resolve_key(
    policy: KeyPolicy,
    base_url: str,
    *,
    api_key_env: str | None = None,
    allow_insecure_http: bool = False,
    environ: dict[str, str] | None = None,
) -> str:
    """The key to send to ``base_url`` under ``policy``, from the environment.

    :data:`NO_KEY` when no key belongs there; see the module docstring for the rules.
    """
    env = os.environ if environ is None else environ
    name = key_variable(policy, base_url, api_key_env)
    if name is None:
        return NO_KEY
    key = env.get(name, "").strip()
    if not key:
        raise ModelError(
            f"no API key for {base_url}: the environment variable {name} is not set",
            hint=f"set {name} (export {name}=...) or point the address at a local server",
        )
    if not is_secure(base_url) and not allow_insecure_http:
        raise ConfigError(
            f"refusing to send the key in {name} over plain HTTP to {base_url}",
            hint=f"use an https:// URL, or set backends.{policy.backend}.allow_insecure_http: true "
            "if this network is trusted",
        )
    return key


def scrub(text: str, secret: str) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***`` (the placeholder is no secret)."""
    if secret and secret != NO_KEY:
        return text.replace(secret, "***")
    return text


__all__ = [
    "ANTHROPIC",
    "NO_KEY",
    "OPENAI",
    "VENDOR_KEYS",
    "KeyPolicy",
    "host_of",
    "in_domains",
    "is_loopback",
    "is_secure",
    "key_variable",
    "resolve_key",
    "scrub",
]
