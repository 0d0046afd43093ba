"""Withdraws proposals with the generated Python SDK against a running fundgate server; prints one JSON document.

Usage: python3 python_withdraw_check.py '<json: baseUrl, makerKey, pending, noted, theirs, approved>'
(the ids of proposals staged for it). sdk-withdraw.e2e-spec.ts compares the answers with REST.
Standard library only.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "python"))

from fundgate import FundgateClient, FundgateError  # noqa: E402


def refusal(call):
    """What the SDK raised, as the fields a caller reads; None when it answered."""
    try:
        call()
        return None
    except FundgateError as err:
        return {"status": err.status, "code": err.code, "detail": err.detail, "errors": err.errors}


def main() -> None:
    args = json.loads(sys.argv[1])
    maker = FundgateClient(args["makerKey"], base_url=args["baseUrl"], timeout=30, max_retries=1)
    out = {}

    out["withdrawn"] = maker.withdraw_proposal(args["pending"])
    info = maker.last_response
    out["withdrawnInfo"] = {
        "status": info.status,
        "idempotencyKey": info.idempotency_key,
        "attempts": info.attempts,
    } if info is not None else None
    out["again"] = maker.withdraw_proposal(args["pending"])
    out["noted"] = maker.withdraw_proposal(args["noted"], {"note": "python sdk: wrong amount"})
    out["theirs"] = refusal(lambda: maker.withdraw_proposal(args["theirs"]))
    out["approved"] = refusal(lambda: maker.withdraw_proposal(args["approved"]))
    out["approvedAttempts"] = maker.last_response.attempts if maker.last_response is not None else None
    # the id is one path segment: "/" and ".." are encoded, so the route itself answers (400 naming id)
    out["slashed"] = refusal(lambda: maker.withdraw_proposal("../../proposals/journal-entry"))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
