"""The text a person sees on a rendered page: what a screen shows or a screen reader says.

Text nodes outside `<script>`, `<style>` and `<template>`, plus the attributes that are read out
or shown on hover (`title`, `aria-label`, `alt`, `placeholder`, a button's `value`). Links' targets,
names of inputs and data attributes are for machines and stay out.
"""

from __future__ import annotations

from html.parser import HTMLParser

HIDDEN = {"script", "style", "template"}
SHOWN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN:
            self.hidden += 1
            return
        values = dict(attrs)
        self.parts += [v for k, v in attrs if k in SHOWN_ATTRIBUTES and v]
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: bytes | str) -> str:
    """The page's visible text, whitespace folded."""
    parser = _Text()
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    return " ".join(" ".join(parser.parts).split())
