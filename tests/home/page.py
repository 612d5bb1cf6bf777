"""A small reader for rendered pages: find an element by id and read its text, links and forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def _has(node: Node, key: str, value: str) -> bool:
    return node.tag == value if key == "tag" else node.attrs.get(key) == value


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def find(self, **attrs: str) -> Node | None:
        """The first descendant (or self) whose attributes include `attrs` (`tag=` for a tag)."""
        for node in self.walk():
            if all(_has(node, k, v) for k, v in attrs.items()):
                return node
        return None

    def find_all(self, tag: str) -> list[Node]:
        return [node for node in self.walk() if node.tag == tag]

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    @property
    def text(self) -> str:
        parts = []
        for child in self.children:
            parts.append(child if isinstance(child, str) else child.text)
        return " ".join(" ".join(parts).split())

    @property
    def links(self) -> list[str]:
        return [a.attrs.get("href", "") for a in self.find_all("a")]

    def forms(self) -> list[dict[str, str]]:
        """Every form's action and its hidden fields."""
        out = []
        for form in self.find_all("form"):
            fields = {
                i.attrs.get("name", ""): i.attrs.get("value", "")
                for i in form.find_all("input")
                if i.attrs.get("type") == "hidden" and i.attrs.get("name") != "csrfmiddlewaretoken"
            }
            out.append({"action": form.attrs.get("action", ""), **fields})
        return out


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: bytes | str) -> Node:
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    return builder.root
