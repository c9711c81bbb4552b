"""Your agent under test. Replace the body of ``target`` with a call into your real agent.

Wrap every tool the agent calls with ``@tool()`` so failures stay distinguishable from empty
results, and so the faults declared in cases.jsonl can be injected.
"""

from __future__ import annotations

from typing import Any

import fairwitness
from fairwitness import Empty, Err, tool

ORDERS = {"A-1": {"id": "A-1", "status": "shipped"}, "A-2": {"id": "A-2", "status": "packing"}}


@tool(empty_when=lambda rows: rows == [])
async def find_orders(customer: str) -> list[dict[str, Any]]:
    """Orders of one customer."""
    return list(ORDERS.values()) if customer == "ada" else []


async def target(text: str) -> dict[str, str]:
    """One question in; the answer and the route the agent took out."""
    if "order" not in text.lower():
        fairwitness.current().set_verdict("out_of_scope")
        return {"text": "I can only help with orders.", "verdict": "out_of_scope"}
    result = await find_orders(customer="ada" if "ada" in text.lower() else "someone")
    if isinstance(result, Err):
        answer = "I couldn't look up your orders because the order service failed. Please retry."
    elif isinstance(result, Empty):
        answer = "You have no orders."
    else:
        answer = "Your orders: " + ", ".join(f"{o['id']} ({o['status']})" for o in result.value)
    return {"text": answer, "verdict": "orders"}
