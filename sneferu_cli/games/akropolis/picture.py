"""placeholder"""
from typing import Any


def picture(state: Any) -> str:
    return "x"
def sections(state: Any) -> list[tuple[str, str]]:
    return [("x", "x")]
def page_data(state: Any) -> dict[str, Any]:
    return {"x": 1}
