"""Just enough of a PDF reader for Chromium's own PDFs (Skia): the pages and the text on each.

No PDF library is among the project's requirements, and Skia writes plain objects: each page a
``/Type /Page`` dictionary naming its content stream and fonts, text drawn with ``Tj`` from
hexadecimal glyph codes that each font's ``/ToUnicode`` map turns back into characters. That is
all this reads; a PDF of any other maker may need more.
"""

from __future__ import annotations

import re
import unicodedata
import zlib

OBJECT = re.compile(rb"(\d+) 0 obj\b")
STREAM_START = re.compile(rb"\bstream\r?\n")
PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
# A font chosen (/F4 12 Tf), a string shown (<0024…> Tj) or strings with kerning ([<…> -5 <…>] TJ)
TEXT_TOKEN = rb"/(\w+)\s+[\d.]+\s+Tf|(<[0-9A-Fa-f]*>)\s*Tj|\[([^\]]*)\]\s*TJ"


def _objects(data: bytes) -> dict[int, bytes]:
    """Each object's text by number; a stream is read by its /Length, as its bytes may hold
    anything (even the word that ends an object)."""
    objects: dict[int, bytes] = {}
    at = 0
    while found := OBJECT.search(data, at):
        start = found.end()
        head = STREAM_START.search(data, start)
        end = data.find(b"endobj", start)
        if head and head.start() < end:
            length = re.search(rb"/Length\s+(\d+)", data[start : head.start()])
            if length:
                end = data.find(b"endobj", head.end() + int(length.group(1)))
        objects[int(found.group(1))] = data[start:end]
        at = end + len(b"endobj")
    return objects


def _stream(body: bytes) -> bytes:
    head = STREAM_START.search(body)
    length = re.search(rb"/Length\s+(\d+)", body[: head.start()]) if head else None
    if not head or not length:
        return b""
    raw = body[head.end() : head.end() + int(length.group(1))]
    return zlib.decompress(raw) if b"/FlateDecode" in body[: head.start()] else raw


def _ref(body: bytes, key: bytes) -> int | None:
    found = re.search(rb"/" + key + rb"\s+(\d+) 0 R", body)
    return int(found.group(1)) if found else None


def _unicode_map(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap's glyph codes → text (its bfchar and bfrange sections)."""
    out: dict[int, str] = {}

    def chars(hex_text: bytes) -> str:
        return bytes.fromhex(hex_text.decode()).decode("utf-16-be")

    for section in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, text in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", section):
            out[int(code, 16)] = chars(text)
    for section in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
        for low, high, start in re.findall(
            rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", section
        ):
            first = int(start, 16)
            for i, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                out[code] = chr(first + i)
    return out


def page_count(data: bytes) -> int:
    """The number of pages: the page objects (``/Type /Pages`` is their tree, not a page)."""
    return len(PAGE.findall(data))


def page_texts(data: bytes) -> list[str]:
    """The text of each page in order, each run of text (a BT … ET block) on a line of its own."""
    objects = _objects(data)
    pages = [(n, body) for n, body in objects.items() if PAGE.search(body)]
    kids = re.search(rb"/Kids\s*\[([^\]]*)\]", data)
    if kids:
        order = [int(n) for n in re.findall(rb"(\d+) 0 R", kids.group(1))]
        pages.sort(key=lambda page: order.index(page[0]) if page[0] in order else len(order))
    texts = []
    for _n, body in pages:
        fonts: dict[bytes, dict[int, str]] = {}
        font_dict = re.search(rb"/Font\s*<<(.*?)>>", body, re.S)
        for name, ref in re.findall(
            rb"/(\w+)\s+(\d+) 0 R", font_dict.group(1) if font_dict else b""
        ):
            cmap = _ref(objects.get(int(ref), b""), b"ToUnicode")
            fonts[name] = _unicode_map(_stream(objects.get(cmap, b""))) if cmap else {}
        content = _stream(objects.get(_ref(body, b"Contents") or -1, b""))
        lines = []
        for block in re.findall(rb"BT(.*?)ET", content, re.S):
            font: dict[int, str] = {}
            line = []
            for token in re.finditer(TEXT_TOKEN, block, re.S):
                if token.group(1):
                    font = fonts.get(token.group(1), {})
                    continue
                for codes in re.findall(rb"<([0-9A-Fa-f]*)>", token.group(2) or token.group(3)):
                    for i in range(0, len(codes), 4):
                        line.append(font.get(int(codes[i : i + 4], 16), "\ufffd"))
            lines.append("".join(line))
        # NFKC: the ligatures a font draws (ﬁ) read as their letters again
        texts.append(unicodedata.normalize("NFKC", "\n".join(lines)))
    return texts
