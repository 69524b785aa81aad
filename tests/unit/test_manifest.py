from halluforge.manifest import redact


def test_redact_hides_secrets_but_keeps_settings() -> None:
    config = {
        "answer": {"max_tokens": 24},
        "backends": {
            "openai": {"api_key": "sk-123", "api_key_env": "MY_KEY", "token": "t", "concurrency": 4}
        },
        "score": {"options": {"judge": {"password": "p"}}},
    }
    out = redact(config)
    assert out["answer"]["max_tokens"] == 24
    assert out["backends"]["openai"]["api_key_env"] == "MY_KEY"
    assert out["backends"]["openai"]["concurrency"] == 4
    assert out["backends"]["openai"]["api_key"] == "<redacted>"
    assert out["backends"]["openai"]["token"] == "<redacted>"
    assert out["score"]["options"]["judge"]["password"] == "<redacted>"
