"""Drives the generated Python SDK against a running fundgate server and prints one JSON document.

Usage: python3 python_sdk_check.py '<json: baseUrl, readKey, proposeKey, attributionDate, journalFrom, journalTo, accounts>'
The jest suite (sdk.e2e-spec.ts) compares every answer with the raw REST answer.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "python"))

from fundgate import OPERATIONS, FundgateClient, FundgateError  # noqa: E402


def main() -> None:
    args = json.loads(sys.argv[1])
    reader = FundgateClient(args["readKey"], base_url=args["baseUrl"], timeout=30, max_retries=1)
    proposer = FundgateClient(args["proposeKey"], base_url=args["baseUrl"], timeout=30, max_retries=1)
    out = {"operations": [name for name, _method, _path in OPERATIONS]}

    out["overview"] = reader.get_overview()
    out["requestId"] = reader.last_response.request_id if reader.last_response else None
    out["positions"] = reader.get_positions()
    out["exposureSeries"] = reader.get_exposure_series(days=10)
    out["valueAtRisk"] = reader.get_value_at_risk(window_days=30, confidence="0.95")
    out["pnlAttribution"] = reader.get_pnl_attribution(date=args["attributionDate"])
    out["journalEntries"] = reader.get_journal_entries(from_=args["journalFrom"], to=args["journalTo"], limit=5)
    out["glDetail"] = reader.get_gl_detail(account_code="1000", limit=3)
    out["stressTest"] = reader.get_stress_test(preset="covid-2020")
    out["tradesPage"] = reader.get_trades(limit=7, side="buy")
    out["tradeIds"] = [t["id"] for t in reader.iter_trades(limit=500)]
    out["glLines"] = list(reader.iter_gl_detail(account_code="1000", limit=4))
    out["expenseIds"] = [e["id"] for e in reader.iter_expenses(limit=4)]
    out["me"] = reader.get_me()

    try:
        reader.get_trades(limit=0)
        out["badParameter"] = None
    except FundgateError as err:
        out["badParameter"] = {"status": err.status, "code": err.code, "errors": err.errors, "requestId": err.request_id}

    try:
        reader.get_proposals()
        out["insufficientScope"] = None
    except FundgateError as err:
        out["insufficientScope"] = {"status": err.status, "code": err.code}

    if args.get("accounts"):
        debit, credit = args["accounts"]
        body = {
            "entryDate": args["journalTo"],
            "description": "python sdk idempotency check",
            "lines": [{"accountCode": debit, "debit": "3.21"}, {"accountCode": credit, "credit": "3.21"}],
        }
        key = args["idempotencyKey"]
        first = proposer.propose_journal_entry(body, idempotency_key=key)
        first_info = proposer.last_response
        second = proposer.propose_journal_entry(body, idempotency_key=key)
        second_info = proposer.last_response
        auto = proposer.propose_journal_entry(dict(body, description="python sdk auto key"))
        out["propose"] = {
            "first": first,
            "firstStatus": first_info.status,
            "firstReplayed": first_info.replayed,
            "second": second,
            "secondReplayed": second_info.replayed,
            "autoKey": proposer.last_response.idempotency_key,
            "autoReplayed": proposer.last_response.replayed,
            "fetched": proposer.get_proposal(first["id"]),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
