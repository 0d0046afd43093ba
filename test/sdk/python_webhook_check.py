"""Runs the Python SDK's verify_webhook over cases given as JSON and prints one JSON verdict per case.

Usage: python3 python_webhook_check.py '<json: [{name, secret, headers, body (base64), now, tolerance?, as?}]>'
as: how the headers and body are handed over -- "dict" (default, body bytes), "mapping" (a read-only
Mapping), "pairs" (a list of (bytes, bytes) pairs, as ASGI has them), "message" (an email.message.Message, as
http.server's self.headers) or "str" (the body as str).
The jest suite (sdk-webhooks.e2e-spec.ts) compares the verdicts with the TypeScript SDK's.
"""
import base64
import json
import os
import sys
from datetime import datetime, timezone
from email.message import Message
from types import MappingProxyType

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "python"))

from fundgate import WebhookVerificationError, verify_webhook  # noqa: E402


def run(case):
    body = base64.b64decode(case["body"])
    headers = case["headers"]
    style = case.get("as", "dict")
    if style == "mapping":
        headers = MappingProxyType(dict(headers))
    elif style == "pairs":
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    elif style == "message":
        headers = Message()
        for k, v in case["headers"].items():
            headers[k] = v
    if style == "str":
        body = body.decode("utf-8")
    now = case["now"]
    if style == "mapping":
        now = datetime.fromtimestamp(now, tz=timezone.utc)  # a datetime as well as Unix seconds
    try:
        event = verify_webhook(case["secret"], headers, body, tolerance_seconds=case.get("tolerance", 300), now=now)
        return {"name": case["name"], "ok": True, "event": event}
    except WebhookVerificationError as err:
        return {"name": case["name"], "ok": False, "code": err.code, "message": str(err)}


def main() -> None:
    print(json.dumps([run(case) for case in json.loads(sys.argv[1])]))


if __name__ == "__main__":
    main()
