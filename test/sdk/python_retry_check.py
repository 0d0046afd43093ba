"""Exercises the Python SDK's retry, error and timeout handling against a scripted local HTTP server.

Prints one JSON document; sdk.e2e-spec.ts asserts on it. Standard library only.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "python"))

from fundgate import FundgateClient, FundgateError  # noqa: E402

SCRIPT = []  # (status, headers, body, delay_seconds) answered in order
SEEN = []  # (method, path, idempotency key)


class Handler(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        SEEN.append((self.command, self.path, self.headers.get("idempotency-key")))
        status, headers, body, delay = SCRIPT.pop(0)
        if delay:
            threading.Event().wait(delay)
        data = json.dumps(body).encode()
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, *args):  # silence
        pass


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    client = FundgateClient("svc_dk_test", base_url=base, timeout=5, max_retries=3)
    out = {}

    # A propose without a key: 429 (Retry-After 0), 503, then 201 -- one generated key, reused.
    SCRIPT[:] = [
        (429, {"retry-after": "0"}, {"code": "rate_limited", "status": 429}, 0),
        (503, {}, {"code": "unavailable", "status": 503}, 0),
        (201, {"idempotent-replayed": "true", "x-request-id": "r3"}, {"id": "p1"}, 0),
    ]
    SEEN.clear()
    res = client.propose_expense({"category": "legal", "vendor": "v", "amount": "1.00", "accrualDate": "2026-01-01", "description": "d"})
    out["propose"] = {"result": res, "attempts": client.last_response.attempts, "replayed": client.last_response.replayed,
                      "requestId": client.last_response.request_id, "keys": [k for _m, _p, k in SEEN]}

    # A 400 is never retried; its problem fields are surfaced.
    SCRIPT[:] = [(400, {"x-request-id": "r4"}, {"code": "invalid_parameter", "status": 400, "detail": "bad", "errors": [{"field": "limit", "message": "m"}]}, 0)]
    SEEN.clear()
    try:
        client.get_trades(limit=0)
    except FundgateError as e:
        out["bad"] = {"status": e.status, "code": e.code, "errors": e.errors, "requestId": e.request_id, "calls": len(SEEN), "path": SEEN[0][1]}

    # A Retry-After beyond max_retry_after is not waited for.
    SCRIPT[:] = [(429, {"retry-after": "3600"}, {"code": "rate_limited"}, 0)]
    SEEN.clear()
    try:
        client.get_overview()
    except FundgateError as e:
        out["longRetryAfter"] = {"code": e.code, "retryAfter": e.retry_after, "calls": len(SEEN)}

    # A slow answer: timeout, retried, then the error.
    SCRIPT[:] = [(200, {}, {}, 1.0), (200, {}, {}, 1.0)]
    SEEN.clear()
    slow = FundgateClient("svc_dk_test", base_url=base, timeout=0.2, max_retries=1)
    try:
        slow.get_overview()
    except FundgateError as e:
        out["timeout"] = {"status": e.status, "code": e.code, "calls": len(SEEN)}

    # A 503 with Retry-After 1 is retried after a second, not at once.
    SCRIPT[:] = [(503, {"retry-after": "1"}, {"code": "unavailable"}, 0), (200, {}, {"ok": True}, 0)]
    SEEN.clear()
    started = time.monotonic()
    client.get_overview()
    out["retryAfter503"] = {"calls": len(SEEN), "waited": time.monotonic() - started >= 0.9}

    # A redirect is not followed (urllib would carry the Authorization header to its target).
    SCRIPT[:] = [(302, {"location": "http://evil.invalid/x"}, {}, 0)]
    SEEN.clear()
    try:
        client.get_overview()
    except FundgateError as e:
        out["redirect"] = {"status": e.status, "calls": len(SEEN)}

    server.shutdown()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
