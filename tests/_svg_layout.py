"""The text of an SVG chart as boxes, estimated from each text's font size, for layout tests:
no two texts may overlap and every text lies inside the viewBox.

A letter is taken as 0.6 of the font size wide (0.66 bold), a line as the font size tall,
from 0.8 of it above the baseline to 0.2 below; ``text-anchor`` and a quarter turn
(``rotate(-90 ...)``) are followed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float, str]


def _font(element: ET.Element, inherited: dict[str, str]) -> tuple[float, bool]:
    size = float(element.get("font-size") or inherited.get("font-size", "12"))
    bold = (element.get("font-weight") or inherited.get("font-weight", "")) == "bold"
    return size, bold


def text_boxes(svg: str) -> tuple[list[Box], tuple[float, float, float, float]]:
    """Every ``<text>``'s box ``(left, top, right, bottom, text)`` and the viewBox."""
    root = ET.fromstring(svg.encode())
    view = tuple(float(part) for part in root.get("viewBox", "").split())
    top_font = {"font-size": root.get("font-size", "12")}
    boxes: list[Box] = []
    for element in root.iter(f"{NS}text"):
        text = "".join(element.itertext())
        if not text.strip():
            continue
        size, bold = _font(element, top_font)
        width = len(text) * size * (0.66 if bold else 0.6)
        x, y = float(element.get("x", "0")), float(element.get("y", "0"))
        anchor = element.get("text-anchor", "start")
        left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0)
        if element.get("dominant-baseline") == "middle":
            y += 0.3 * size
        box = (left, y - 0.8 * size, left + width, y + 0.2 * size)
        turned = re.fullmatch(r"rotate\(-90 ([\d.]+) ([\d.]+)\)", element.get("transform", ""))
        if turned:  # a quarter turn about (cx, cy): x runs up the page
            cx, cy = float(turned.group(1)), float(turned.group(2))
            left, top, right, bottom = box
            box = (cx + (top - cy), cy - (right - cx), cx + (bottom - cy), cy - (left - cx))
        boxes.append((*box, text))
    return boxes, view  # type: ignore[return-value]


def overlaps(svg: str) -> list[tuple[str, str]]:
    """The pairs of texts whose boxes intersect."""
    boxes, _ = text_boxes(svg)
    found = []
    for number, (l1, t1, r1, b1, a) in enumerate(boxes):
        for l2, t2, r2, b2, b in boxes[number + 1 :]:
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                found.append((a, b))
    return found


def outside(svg: str) -> list[str]:
    """The texts whose boxes leave the viewBox."""
    boxes, (vx, vy, vw, vh) = text_boxes(svg)
    return [
        text
        for left, top, right, bottom, text in boxes
        if left < vx or top < vy or right > vx + vw or bottom > vy + vh
    ]


def assert_laid_out(svg: str) -> None:
    """No two texts overlap and none leaves the viewBox."""
    assert overlaps(svg) == []
    assert outside(svg) == []
