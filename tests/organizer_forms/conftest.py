"""The organizer personas and scene of tests/organizers (olga owns a published 3-5-8 league with
round 1 published and round 2 a draft; cora co-organizes; pat plays; otto runs another event),
and a reader for the forms a page offers."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.home.page import Node, parse
from tests.organizers.conftest import cora, olga, otto, pat, scene  # noqa: F401  (fixtures)


@dataclass
class Form:
    """One rendered form: where it goes, how, and the values it would send as it stands."""

    page: str
    method: str
    action: str
    fields: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)  # a select's option values
    blank: list[str] = field(default_factory=list)  # text the person has to type
    label: str = ""

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.action or self.page} {self.label!r} {self.fields}"


def _options(select: Node) -> list[Node]:
    return [o for o in select.walk() if o.tag == "option"]


def forms_of(page: str, html: bytes | str) -> list[Form]:
    """Every form of the page with the values a click on its button would post."""
    out = []
    for node in parse(html).find_all("form"):
        form = Form(
            page=page,
            method=node.attrs.get("method", "get").lower(),
            action=node.attrs.get("action", "") or page,
            label=" ".join(b.text for b in node.find_all("button")),
        )
        for item in node.walk():
            name = item.attrs.get("name", "")
            if not name or name == "csrfmiddlewaretoken" or "disabled" in item.attrs:
                continue
            if item.tag == "input":
                kind = item.attrs.get("type", "text")
                if kind in ("checkbox", "radio"):
                    if "checked" in item.attrs:
                        form.fields[name] = item.attrs.get("value", "on")
                elif kind == "file":
                    continue
                else:
                    form.fields[name] = item.attrs.get("value", "")
                    if kind != "hidden" and not form.fields[name]:
                        form.blank.append(name)
            elif item.tag == "textarea":
                form.fields[name] = item.text
                if not item.text:
                    form.blank.append(name)
            elif item.tag == "select":
                options = _options(item)
                chosen = [o for o in options if "selected" in o.attrs] or options[:1]
                form.fields[name] = chosen[0].attrs.get("value", "") if chosen else ""
                form.choices[name] = [o.attrs.get("value", "") for o in options]
        out.append(form)
    return out
