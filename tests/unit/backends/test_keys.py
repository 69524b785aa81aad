"""The key-routing policy as a table: which variable goes to which host, for every backend."""

from __future__ import annotations

import pytest

from halluforge.backends.keys import (
    ANTHROPIC,
    NO_KEY,
    OPENAI,
    KeyPolicy,
    in_domains,
    is_loopback,
    key_variable,
    resolve_key,
    scrub,
)
from halluforge.errors import ConfigError, ModelError

ENV = {"OPENAI_API_KEY": "sk-o", "ANTHROPIC_API_KEY": "sk-a", "GATEWAY_KEY": "sk-g"}


def test_hosts() -> None:
    assert (
        is_loopback("http://localhost:1")
        and is_loopback("http://127.9.9.9/")
        and is_loopback("http://[::1]/")
    )
    assert not is_loopback("http://localhost.example.com/") and not is_loopback("http://10.0.0.1/")
    assert in_domains("https://api.openai.com/v1", ("openai.com",))
    assert in_domains("https://EU.API.OPENAI.COM/v1", ("openai.com",))
    assert not in_domains("https://evilopenai.com/v1", ("openai.com",))
    assert not in_domains("https://openai.com.evil.net/v1", ("openai.com",))


@pytest.mark.parametrize(
    ("policy", "url", "named", "variable"),
    [
        (OPENAI, "https://api.openai.com/v1", None, "OPENAI_API_KEY"),
        (ANTHROPIC, "https://api.anthropic.com", None, "ANTHROPIC_API_KEY"),
        (OPENAI, "https://gateway.example/v1", None, None),  # another host: no key by default
        (ANTHROPIC, "http://127.0.0.1:8080", None, None),  # even on this machine
        (ANTHROPIC, "https://gateway.example", "GATEWAY_KEY", "GATEWAY_KEY"),
        (ANTHROPIC, "http://127.0.0.1:8080", "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),  # a local proxy
        (OPENAI, "https://api.openai.com/v1", "GATEWAY_KEY", "GATEWAY_KEY"),
        # a vendor's variable goes to that vendor's hosts from any backend (an OpenAI-style endpoint)
        (OPENAI, "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),
    ],
)
def test_which_variable_goes_where(
    policy: KeyPolicy, url: str, named: str | None, variable: str | None
) -> None:
    assert key_variable(policy, url, named) == variable


@pytest.mark.parametrize(
    ("policy", "url", "named"),
    [
        (OPENAI, "https://gateway.example/v1", "OPENAI_API_KEY"),
        (ANTHROPIC, "https://gateway.example", "ANTHROPIC_API_KEY"),
        (OPENAI, "https://gateway.example/v1", "ANTHROPIC_API_KEY"),  # the other vendor's key
        (ANTHROPIC, "https://api.anthropic.com", "OPENAI_API_KEY"),
    ],
)
def test_a_vendor_variable_never_goes_to_another_host(policy: KeyPolicy, url: str, named: str) -> None:
    with pytest.raises(ConfigError, match=f"refusing to send {named}") as info:
        key_variable(policy, url, named)
    assert f"backends.{policy.backend}.api_key_env" in str(info.value)


@pytest.mark.parametrize("policy", [OPENAI, ANTHROPIC], ids=["openai", "anthropic"])
def test_plain_http_to_another_machine_needs_the_opt_in(policy: KeyPolicy) -> None:
    with pytest.raises(ConfigError, match="plain HTTP") as info:
        resolve_key(policy, "http://10.1.2.3:8000", api_key_env="GATEWAY_KEY", environ=ENV)
    assert f"backends.{policy.backend}.allow_insecure_http" in str(info.value)
    opted = resolve_key(
        policy, "http://10.1.2.3:8000", api_key_env="GATEWAY_KEY", allow_insecure_http=True, environ=ENV
    )
    assert opted == "sk-g"
    assert resolve_key(policy, "http://127.0.0.1:8000", api_key_env="GATEWAY_KEY", environ=ENV) == "sk-g"
    assert resolve_key(policy, "http://10.1.2.3:8000", environ=ENV) == NO_KEY  # no key, nothing to guard


def test_missing_key_names_its_variable() -> None:
    with pytest.raises(ModelError, match="ANTHROPIC_API_KEY is not set"):
        resolve_key(ANTHROPIC, "https://api.anthropic.com", environ={})
    with pytest.raises(ModelError, match="MY_KEY is not set"):
        resolve_key(OPENAI, "https://gateway.example/v1", api_key_env="MY_KEY", environ={"MY_KEY": "  "})


def test_scrub() -> None:
    assert scrub("bad key sk-g here, sk-g again", "sk-g") == "bad key *** here, *** again"
    assert scrub("EMPTY is no secret", NO_KEY) == "EMPTY is no secret"
    assert scrub("nothing", "") == "nothing"
