"""Your agent under test. Replace the body of ``target`` with a call into your real agent.

Wrap every tool the agent calls with ``@tool()`` so failures stay distinguishable from empty
results, and so the faults declared in cases.jsonl can be injected. Return ``state`` (what the
world looks like after the agent acted) and a case's ``expect.state`` checks it.
"""

from __future__ import annotations

import re
from typing import Any

import fairwitness
from fairwitness import Empty, Err, tool

ORDERS = {"A-1": {"id": "A-1", "status": "shipped"}, "A-2": {"id": "A-2", "status": "packing"}}


@tool(empty_when=lambda rows: rows == [])
async def find_orders(customer: str) -> list[dict[str, Any]]:
    """Orders of one customer."""
    return list(ORDERS.values()) if customer == "ada" else []


@tool()
async def cancel_order(order_id: str) -> dict[str, str]:
    """Cancel one order that has not shipped; the order as it is afterwards."""
    order = ORDERS.get(order_id)
    if order is None:
        raise LookupError(f"no order {order_id}")
    if order["status"] == "shipped":
        return dict(order)
    return {**order, "status": "cancelled"}


async def target(text: str) -> dict[str, Any]:
    """One question in; the answer, the route the agent took and the orders' state out."""
    lowered = text.lower()
    state = {"orders": {key: order["status"] for key, order in ORDERS.items()}}
    if "cancel" in lowered:
        fairwitness.current().set_verdict("cancel")
        wanted = re.search(r"\bA-\d+\b", text, flags=re.IGNORECASE)
        if wanted is None:
            return {"text": "Which order should I cancel?", "verdict": "cancel", "state": state}
        order_id = wanted.group(0).upper()
        result = await cancel_order(order_id=order_id)
        if isinstance(result, Err):
            answer = f"I couldn't cancel order {order_id}: the order service failed. Please retry."
        elif isinstance(result, Empty) or result.value["status"] != "cancelled":
            answer = f"Order {order_id} has already shipped, so it can't be cancelled."
        else:
            state["orders"][result.value["id"]] = "cancelled"
            answer = f"Order {result.value['id']} is cancelled."
        return {"text": answer, "verdict": "cancel", "state": state}
    if "order" not in lowered:
        fairwitness.current().set_verdict("out_of_scope")
        return {"text": "I can only help with orders.", "verdict": "out_of_scope", "state": state}
    result = await find_orders(customer="ada" if "ada" in lowered else "someone")
    if isinstance(result, Err):
        answer = "I couldn't look up your orders because the order service failed. Please retry."
    elif isinstance(result, Empty):
        answer = "You have no orders."
    else:
        answer = "Your orders: " + ", ".join(f"{o['id']} ({o['status']})" for o in result.value)
    return {"text": answer, "verdict": "orders", "state": state}
