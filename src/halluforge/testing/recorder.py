"""A header-recording HTTP server for key-routing tests (standard library only, 127.0.0.1 only).

It records every request it receives (method, target, headers with lower-case names, body) in
:attr:`Recorder.requests` and answers in the shape of the API asked for, echoing the last user
message: ``.../chat/completions`` as OpenAI's chat API, ``.../messages`` as Anthropic's
Messages API. A model name containing ``reflect`` gets a 401 whose message repeats every header
value it received, as a careless server might: a client must scrub its key from such an error
before storing it.

The same server also works as a plain-HTTP proxy. With ``HTTP_PROXY`` pointing at it, a client
that calls ``http://remote.example.invalid/...`` sends that request here in absolute form
(``POST http://remote.example.invalid/v1/messages``), so a test can see exactly what a
client would have sent to a host on another machine, while no packet leaves this one::

    with Recorder() as recorder:
        monkeypatch.setenv("HTTP_PROXY", recorder.url)
        ...  # call http://remote.example.invalid/...
        assert not recorder.requests  # nothing was sent
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HOST = "127.0.0.1"


@dataclass(frozen=True)
class Recorded:
    """One request as the recorder received it."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def host(self) -> str:
        """The host the client meant to reach (its ``Host`` header)."""
        return self.headers.get("host", "")


def _last_user_text(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    content = users[-1].get("content", "") if users else ""
    if isinstance(content, list):
        return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return str(content)


def _answer(path: str, body: dict[str, Any], text: str) -> dict[str, Any]:
    model = str(body.get("model", ""))
    if path.endswith("/messages"):
        return {
            "id": "msg_recorder",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": len(text.split()), "output_tokens": len(text.split())},
        }
    return {
        "id": "chatcmpl-recorder",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests read :attr:`Recorder.requests`, not a log."""

    def _record(self) -> Recorded:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        seen = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        with self.server.lock:
            self.server.requests.append(seen)
        return seen

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._record()
        self._send(404, {"error": {"message": "not found", "type": "not_found_error"}})

    def do_POST(self) -> None:
        seen = self._record()
        try:
            body = json.loads(seen.body or b"{}")
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        path = seen.target.split("?", 1)[0]
        if "reflect" in str(body.get("model", "")):
            echoed = "; ".join(f"{k}={v}" for k, v in seen.headers.items())
            message = f"invalid credentials, you sent: {echoed}"
            self._send(401, {"type": "error", "error": {"message": message, "type": "authentication_error"}})
            return
        if not path.endswith(("/chat/completions", "/messages")):
            self._send(404, {"error": {"message": f"no route {path}", "type": "not_found_error"}})
            return
        self._send(200, _answer(path, body, _last_user_text(body)))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__((HOST, 0), _Handler)
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()


class Recorder:
    """The recording server, run in a daemon thread while its ``with`` block lasts."""

    def __init__(self) -> None:
        self._server = _Server()
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def requests(self) -> list[Recorded]:
        """Every request received so far, in arrival order."""
        with self._server.lock:
            return list(self._server.requests)

    def seen(self) -> str:
        """Every request's target, header values and body as one text, to search for a key."""
        return "\n".join(
            f"{r.method} {r.target}\n"
            + "\n".join(f"{k}: {v}" for k, v in r.headers.items())
            + "\n"
            + r.body.decode("utf-8", "replace")
            for r in self.requests
        )

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


__all__ = ["Recorded", "Recorder"]
