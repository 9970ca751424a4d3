"""A scriptable OpenAI-compatible provider: a real HTTP server for tests and benchmarks.

It serves ``POST /v1/embeddings`` (deterministic hashed bag-of-words vectors)
and ``POST /v1/chat/completions`` (scripted replies), and can be told, per
request, to fail: ``500``, ``503``, ``429`` (optionally with Retry-After),
``400``, ``sleep:<seconds>`` (then answer), ``drop`` (close the connection
without answering) or ``malformed`` (200 with a body that is not JSON). It
counts what it received. Stdlib only, so it starts anywhere in milliseconds::

    with FakeProvider() as provider:
        provider.script("503", "503")           # next two requests fail
        provider.reply_with('{"profile": "..."}')  # then chat answers this
        client = openai.AsyncOpenAI(base_url=provider.base_url, api_key="test")
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any

_WORD = re.compile(r"[^\W_]+")


def hashed_embedding(text: str, dimension: int) -> list[float]:
    """A unit vector in which texts sharing words are similar (deterministic)."""
    vector = [0.0] * dimension
    for word in _WORD.findall(text.lower()) or ["<empty>"]:
        digest = hashlib.sha256(word.encode()).digest()
        vector[int.from_bytes(digest[:4], "big") % dimension] += 1.0
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


STRUCTURED = {
    "schema": "takes response_format with a JSON schema or JSON mode, and tools (OpenAI, vLLM, llama.cpp, Ollama)",
    "json_mode": "refuses a JSON schema (400) but takes JSON mode",
    "tools": "refuses response_format (400); answers a forced tool call through it",
    "ignores": "takes any field and writes the JSON inside prose and a code fence",
}
"""The structured-output behaviours ``FakeProvider(structured=…)`` plays."""


class FakeProvider:
    """The server; a context manager that starts it on a free loopback port."""

    def __init__(
        self, dimension: int = 384, latency: float = 0.0, *, keep_alive: bool = False, structured: str = "schema"
    ) -> None:
        self.dimension = dimension
        self.structured = structured
        """What the server honours of a request's shape, as servers differ (``STRUCTURED``)."""
        self.latency = latency
        """Seconds every answered request takes (a model's think time, for benchmarks)."""
        self.keep_alive = keep_alive
        """Keep each connection open between requests (HTTP/1.1), as a provider does; else one per request."""
        self.open_connections = 0
        """Connections a client holds open now (with ``keep_alive``, until the client closes them)."""
        self.in_flight = 0
        """Requests being answered now."""
        self.peak_in_flight = 0
        """The most requests ever answered at once."""
        self.calls: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []
        self._behaviours: deque[str] = deque()
        self._replies: deque[str] = deque()
        self._responder: Callable[[str, str], str] | None = None
        self._outage_until = 0.0
        self._outage: tuple[str, ...] = ()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """The ``/v1`` base URL to give an OpenAI client."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *behaviours: str) -> None:
        """Queue behaviours for the next requests, in order; afterwards requests succeed."""
        with self._lock:
            self._behaviours.extend(behaviours)

    def reply_with(self, *contents: str) -> None:
        """Queue chat completion contents, used in order by answered chat requests; then ``{}``."""
        with self._lock:
            self._replies.extend(contents)

    def outage(self, seconds: float, *behaviours: str) -> None:
        """Fail every request for ``seconds`` from now, cycling through ``behaviours`` (e.g. 503, 429:1, drop)."""
        with self._lock:
            self._outage_until = time.monotonic() + seconds
            self._outage = behaviours or ("503",)

    def answer_with(self, responder: Callable[[str, str], str]) -> None:
        """Answer chat requests the queue has no reply for with ``responder(system, user)`` (a model that reads)."""
        self._responder = responder

    def __enter__(self) -> FakeProvider:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next_behaviour(self) -> str:
        with self._lock:
            if time.monotonic() < self._outage_until:
                return self._outage[sum(self.calls.values()) % len(self._outage)]
            return self._behaviours.popleft() if self._behaviours else "ok"

    def _next_reply(self) -> str | None:
        """A queued reply is used by the next chat request that is answered (failures keep it)."""
        with self._lock:
            return self._replies.popleft() if self._replies else None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        version = "HTTP/1.1" if self.keep_alive else "HTTP/1.0"
        return type("Handler", (_Handler,), {"provider": self, "protocol_version": version})

    def _connected(self, change: int) -> None:
        with self._lock:
            self.open_connections += change

    def _answering(self, change: int) -> None:
        with self._lock:
            self.in_flight += change
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def _embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        inputs = body.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else inputs
        dim = int(body.get("dimensions") or self.dimension)
        data = [
            {"object": "embedding", "index": i, "embedding": hashed_embedding(t, dim)} for i, t in enumerate(inputs)
        ]
        return {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake"),
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    def refusal(self, body: dict[str, Any]) -> str:
        """Why this server refuses the request's shape fields ("" when it takes them)."""
        kind = (body.get("response_format") or {}).get("type", "")
        if self.structured == "json_mode" and kind == "json_schema":
            return "response_format.type 'json_schema' is not supported"
        if self.structured == "tools" and kind:
            return f"response_format.type {kind!r} is not supported"
        return ""

    def _chat(self, body: dict[str, Any], reply: str | None) -> dict[str, Any]:
        if reply is None and self._responder is not None:
            messages = {m.get("role"): m.get("content", "") for m in body.get("messages", [])}
            reply = self._responder(str(messages.get("system", "")), str(messages.get("user", "")))
        content = reply if reply is not None else "{}"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.structured == "ignores":
            message["content"] = f"Sure! Here is the JSON you asked for:\n```json\n{content}\n```\nAnything else?"
        elif self.structured == "tools" and body.get("tools"):
            name = body["tools"][0]["function"]["name"]
            call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": content}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
            "usage": _usage(body, content),
        }


class _Handler(BaseHTTPRequestHandler):
    """One request; ``provider`` is set on the subclass each FakeProvider makes."""

    provider: FakeProvider
    disable_nagle_algorithm = True  # headers and body are two writes: a kept-alive client waited ~40 ms for the body

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  # stdlib signature
        """Stay quiet."""

    def setup(self) -> None:
        """A client connected."""
        super().setup()
        self.provider._connected(+1)

    def finish(self) -> None:
        """The connection ends (the client closed it, or the server after one request)."""
        try:
            super().finish()
        finally:
            self.provider._connected(-1)

    def do_POST(self) -> None:  # stdlib naming
        """Answer one request according to the script (counted in flight meanwhile)."""
        self.provider._answering(+1)
        try:
            self._post()
        finally:
            self.provider._answering(-1)

    def _post(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        with self.provider._lock:
            self.provider.calls[self.path] += 1
            self.provider.requests.append({"path": self.path, "body": body, "at": time.time()})
        behaviour = self.provider._next_behaviour()
        if behaviour == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if behaviour.startswith("sleep:"):
            time.sleep(float(behaviour.split(":", 1)[1]))
        elif behaviour not in ("ok", "malformed"):
            code, _, retry_after = behaviour.partition(":")
            self._send(
                int(code),
                {"error": {"message": f"scripted {code}", "type": "scripted"}},
                {"Retry-After": retry_after} if retry_after else {},
            )
            return
        if self.provider.latency:
            time.sleep(self.provider.latency)
        if behaviour == "malformed":
            self._send_raw(200, b"{not json")
        else:
            self._answer(body)

    def _answer(self, body: dict[str, Any]) -> None:
        if self.path.endswith("/embeddings"):
            self._send(200, self.provider._embeddings(body))
        elif self.path.endswith("/chat/completions"):
            refusal = self.provider.refusal(body)
            if refusal:
                self._send(400, {"error": {"message": refusal, "type": "invalid_request_error"}})
                return
            self._send(200, self.provider._chat(body, self.provider._next_reply()))
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def _send(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(code, json.dumps(payload).encode(), headers)

    def _send_raw(self, code: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(code)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout, or a killed worker): nobody is left to answer


def _usage(body: dict[str, Any], content: str) -> dict[str, int]:
    """Token usage estimated like a real provider reports it (about four characters per token)."""
    prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4 + 1
    completion = len(content) // 4 + 1
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


class ProviderProcess:
    """A ``FakeProvider`` answering every chat request with one reply, in a process of its own.

    For benchmarks of the workers: in their process, the server's threads took the interpreter's lock
    from the event loop it measures (a provider is another machine). A context manager; ``chat_calls``
    asks the process how many chat requests it has answered.
    """

    def __init__(self, reply: str, latency: float, *, keep_alive: bool = True) -> None:
        context = multiprocessing.get_context("spawn")  # not fork: the parent runs threads
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, reply, latency, keep_alive), daemon=True)
        self.base_url = ""

    def __enter__(self) -> ProviderProcess:
        self._process.start()
        self.base_url = self._conn.recv()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._conn.send("stop")
        self._process.join(10)
        self._conn.close()

    def chat_calls(self) -> int:
        """Chat requests answered so far."""
        self._conn.send("calls")
        return int(self._conn.recv())


def _serve(conn: Connection, reply: str, latency: float, keep_alive: bool) -> None:
    with FakeProvider(latency=latency, keep_alive=keep_alive) as provider:
        provider.answer_with(lambda _system, _user: reply)
        conn.send(provider.base_url)
        while (message := conn.recv()) != "stop":
            if message == "calls":
                conn.send(provider.calls["/v1/chat/completions"])
