"""Exercises the Python SDK's key handling, transport failures, headers, redirects and 409 retries against
scripted local servers (HTTP and raw sockets). Prints one JSON document; sdk-client.e2e-spec.ts asserts on it.
Standard library only.
"""
import json
import os
import socket
import struct
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "python"))

from fundgate import FundgateClient, FundgateError  # noqa: E402

EXPENSE = {"category": "legal", "vendor": "v", "amount": "1.00", "accrualDate": "2026-01-01", "description": "d"}


def http_server(script):
    """A local HTTP server answering (status, headers, body bytes) from script (the last repeats)."""
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self):
            length = int(self.headers.get("content-length") or 0)
            if length:
                self.rfile.read(length)
            seen.append({"method": self.command, "path": self.path, "headers": self.headers, "at": time.monotonic()})
            status, headers, body = script.pop(0) if len(script) > 1 else script[0]
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = _answer
        do_POST = _answer

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % server.server_address[1], seen, server


def raw_server(answer):
    """A socket server: reads a request's head, then answer(conn) writes whatever it likes. Counts connections."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    count = [0]

    def loop():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            count[0] += 1
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                data += chunk
            answer(conn)

    threading.Thread(target=loop, daemon=True).start()
    return "http://127.0.0.1:%d" % listener.getsockname()[1], count, listener


def error_of(call):
    try:
        call()
    except FundgateError as e:
        return e
    return None


def keys(out):
    base, seen, server = http_server([(200, {"content-type": "application/json"}, b'{"ok": true}')])
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("svc_dk_secret1\n")
    with open(f.name) as key_file:
        FundgateClient(key_file.read(), base_url=base).get_overview()
    os.unlink(f.name)
    FundgateClient("  svc_dk_secret1\r\n", base_url=base).get_overview()
    out["trimmed"] = [s["headers"].get("authorization") for s in seen]
    refused = []
    for key in ["svc_dk_sec\nret2", "svc_dk_sec\r\nret2", "svc_dk_sec\0ret2", "svc_dk_sec ret2", "svc_dk_sec\u20acret2"]:
        try:
            FundgateClient(key, base_url=base)
            refused.append(None)
        except Exception as e:  # noqa: BLE001 - the type is what is checked
            refused.append({"type": type(e).__name__, "showsKey": "ret2" in str(e) or "svc_dk" in str(e),
                            "namesApiKey": "api_key" in str(e)})
    out["refused"] = refused
    client = FundgateClient("svc_dk_hidden", base_url=base)
    out["hidden"] = {"varsShowsKey": "svc_dk_hidden" in repr(vars(client)), "reprShowsKey": "svc_dk_hidden" in repr(client),
                     "apiKeyAttr": hasattr(client, "api_key")}
    server.shutdown()


def incomplete_read(out):
    def cut_off(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"a\":")
        conn.close()

    base, count, listener = raw_server(cut_off)
    e = error_of(lambda: FundgateClient("k", base_url=base, max_retries=2).get_overview())
    out["incompleteRead"] = {"status": e.status, "code": e.code, "calls": count[0], "detail": e.detail}
    listener.close()


def reset(out):
    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"a\":")
        time.sleep(0.05)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with RST
        conn.close()

    base, count, listener = raw_server(answer)
    e = error_of(lambda: FundgateClient("k", base_url=base, max_retries=1).get_overview())
    out["reset"] = {"status": e.status, "code": e.code, "calls": count[0]}
    listener.close()


def not_utf8(out):
    base, _seen, server = http_server([(200, {"x-request-id": "r1"}, b'{"name": "\xff\xfe"}')])
    e = error_of(lambda: FundgateClient("k", base_url=base).get_overview())
    out["notUtf8"] = {"status": e.status, "code": e.code, "requestId": e.request_id, "detail": e.detail}
    server.shutdown()


def refused_connection(out):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    e = error_of(lambda: FundgateClient("k", base_url="http://127.0.0.1:%d" % port, max_retries=0).get_overview())
    out["refusedConnection"] = {"status": e.status, "code": e.code, "detail": e.detail}


def headers_and_redirects(out):
    base, seen, server = http_server([(201, {"content-type": "application/json"}, b'{"id": "p1"}')])
    client = FundgateClient("svc_dk_mine", base_url=base, headers={
        "User-Agent": "myapp/1.0", "authorization": "Bearer other", "IDEMPOTENCY-KEY": "fixed", "Accept": "text/html",
        "X-Trace": "t1"})
    client.propose_expense(EXPENSE)
    client.propose_expense(EXPENSE, idempotency_key="call-key")
    h = seen[0]["headers"]
    out["headers"] = {"userAgent": h.get_all("user-agent"), "authorization": h.get_all("authorization"),
                      "accept": h.get_all("accept"), "trace": h.get_all("x-trace"),
                      "keyIsFresh": len(h.get_all("idempotency-key")) == 1 and h.get("idempotency-key") != "fixed",
                      "callKey": seen[1]["headers"].get("idempotency-key")}
    bad = []
    for headers in ({"X-Bad": "a\r\nb"}, {"bad name": "a"}):
        try:
            FundgateClient("k", base_url=base, headers=headers)
            bad.append(None)
        except Exception as e:  # noqa: BLE001
            bad.append(type(e).__name__)
    out["badHeaders"] = bad
    server.shutdown()

    other, other_seen, other_server = http_server([(200, {}, b'{"stolen": true}')])
    base, seen, server = http_server([(302, {"location": other + "/collect"}, b"")])
    e = error_of(lambda: FundgateClient("k", base_url=base, max_retries=2).propose_expense(EXPENSE))
    out["redirect"] = {"status": e.status, "code": e.code, "calls": len(seen), "elsewhere": len(other_seen)}
    server.shutdown()
    other_server.shutdown()

    results = []
    for base_url in ["fund.example.com", "localhost:3000", "ftp://fund.example.com", "https://u:p@fund.example.com",
                     "https://x.example/?a=1", "https://x.example/api?", "https://x.example/api#"]:
        try:
            FundgateClient("k", base_url=base_url)
            results.append(None)
        except Exception as e:  # noqa: BLE001
            results.append({"type": type(e).__name__, "namesBaseUrl": "base_url" in str(e)})
    out["baseUrl"] = results


def in_progress(out):
    base, seen, server = http_server([
        (409, {"retry-after": "1", "content-type": "application/problem+json"}, b'{"code": "idempotency_in_progress"}'),
        (201, {"content-type": "application/json"}, b'{"id": "p1"}'),
    ])
    res = FundgateClient("k", base_url=base).propose_expense(EXPENSE)
    out["inProgress"] = {"result": res, "calls": len(seen), "waited": seen[1]["at"] - seen[0]["at"] >= 0.9}
    server.shutdown()
    base, seen, server = http_server([(409, {"retry-after": "0"}, b'{"code": "idempotency_in_progress"}')])
    e = error_of(lambda: FundgateClient("k", base_url=base, max_retries=2).propose_expense(EXPENSE))
    out["inProgressAlways"] = {"code": e.code, "calls": len(seen)}
    server.shutdown()


def drip(out):
    """A server sending its answer a byte at a time: the timeout bounds the attempt, not each read."""
    def headers_then_drip(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n")
        drip_bytes(conn, b"{" + b" " * 38 + b"}")

    def drip_bytes(conn, data):
        try:
            for byte in data:
                conn.sendall(bytes([byte]))
                time.sleep(0.25)
        except OSError:
            pass
        conn.close()

    for name, answer in (("body", headers_then_drip),
                         ("head", lambda conn: drip_bytes(conn, b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"))):
        base, count, listener = raw_server(lambda conn, answer=answer: threading.Thread(target=answer, args=(conn,)).start())
        started = time.monotonic()
        e = error_of(lambda: FundgateClient("k", base_url=base, timeout=1, max_retries=0).get_overview())
        out["drip_" + name] = {"code": e and e.code, "status": e and e.status, "within": time.monotonic() - started < 1.8,
                               "calls": count[0]}
        listener.close()


def stale_last_response(out):
    """After a transport failure last_response is that call's (status 0, its key), and the error carries the key."""
    def first_then_drop(conn):
        if count[0] == 1:
            conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}")
        conn.close()

    base, count, listener = raw_server(first_then_drop)
    client = FundgateClient("k", base_url=base, max_retries=1)
    client.get_overview()
    e = error_of(lambda: client.propose_expense(EXPENSE))
    last = client.last_response
    key = getattr(e, "idempotency_key", None)
    out["stale"] = {"code": e.code, "keyOnError": bool(key) and len(key) == 36,
                    "last": last and {"method": last.method, "status": last.status, "headers": last.headers,
                                      "sameKey": last.idempotency_key == key, "attempts": last.attempts,
                                      "path": last.url[len(base):]}}
    listener.close()
    base, seen, server = http_server([(201, {"content-type": "application/json"}, b'{"id": "p1"}')])
    client.base_url = base
    client.propose_expense(EXPENSE, idempotency_key=key)  # the README's retry with the same key
    out["staleRetrySentKey"] = seen[0]["headers"].get("idempotency-key") == key
    base, seen, server2 = http_server([(422, {}, b'{"code": "validation_failed"}')])
    e = error_of(lambda: FundgateClient("k", base_url=base).propose_expense(EXPENSE, idempotency_key="mine-1"))
    r = error_of(lambda: FundgateClient("k", base_url=base).get_overview())
    out["answeredKey"] = [getattr(e, "idempotency_key", None), getattr(r, "idempotency_key", "absent")]
    server.shutdown()
    server2.shutdown()


def refused_before_sending(out):
    """A malformed Idempotency-Key or a bad number: refused at once, nothing sent, no retries."""
    base, seen, server = http_server([(201, {"content-type": "application/json"}, b'{"id": "p1"}')])
    client = FundgateClient("k", base_url=base, max_retries=2)

    def kind(call):
        try:
            call()
            return None
        except Exception as e:  # noqa: BLE001 - the type is what is checked
            return type(e).__name__

    out["badKeys"] = [kind(lambda k=k: client.propose_expense(EXPENSE, idempotency_key=k))
                      for k in ["日本", "a b", "tab\there", "x" * 256, 12]]
    out["badCallTimeout"] = kind(lambda: client.get_overview(timeout=float("nan")))
    out["sentForBad"] = len(seen)
    client.propose_expense(EXPENSE, idempotency_key="x" * 255)
    out["longestKeySent"] = len(seen) == 1
    server.shutdown()
    bad = [{"timeout": float("nan")}, {"timeout": -5}, {"timeout": 0}, {"timeout": "30"}, {"max_retries": float("nan")},
           {"max_retries": -1}, {"max_retries": 1.5}, {"max_retry_after": float("nan")}, {"max_retry_after": -1}]
    out["badNumbers"] = [kind(lambda o=o: FundgateClient("k", base_url=base, **o)) for o in bad]


def decimal_retry_after(out):
    base, seen, server = http_server([(503, {"retry-after": "1.5"}, b'{"code": "unavailable"}')])
    e = error_of(lambda: FundgateClient("k", base_url=base, max_retries=0).get_overview())
    out["decimalRetryAfter"] = e.retry_after
    server.shutdown()


def main():
    out = {}
    for check in (keys, incomplete_read, reset, not_utf8, refused_connection, headers_and_redirects, in_progress, drip,
                  stale_last_response, refused_before_sending, decimal_retry_after):
        try:
            check(out)
        except Exception as e:  # noqa: BLE001 - reported, so the spec shows which check broke and how
            out[check.__name__ + "Raised"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
