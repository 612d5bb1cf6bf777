"""The translation catalogues (docs/translations.md, "The completeness test").

Every entry of locale/{de,it,ja} is translated and none is fuzzy, in both domains (django:
templates and Python; djangojs: static/js); a translation keeps the placeholders of its English;
the committed .mo files are the .po files compiled; and the catalogues hold exactly the strings
the code has today (extracted again into a temporary directory), so a new or changed string
fails here until `make messages` and its translation.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

LANGUAGES = ("de", "it", "ja")
DOMAINS = ("django", "djangojs")
PLURAL_FORMS = {"de": 2, "it": 2, "ja": 1}
LOCALE = Path(settings.BASE_DIR) / "locale"
# The same ignores as `make messages` (Makefile, MESSAGES_IGNORE).
IGNORE = [".venv", "var", "bench", "staticfiles", "test-output", "tests"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}")
HAVE_GETTEXT = bool(shutil.which("xgettext") and shutil.which("msgfmt"))


def catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))


def key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or "")


def label(entry: polib.POEntry) -> str:
    where = ", ".join(sorted({path for path, _ in entry.occurrences}))
    context = f"[{entry.msgctxt}] " if entry.msgctxt else ""
    return f"{context}{entry.msgid!r} ({where})"


def cases() -> list:
    return [
        pytest.param(language, domain, id=f"{language}-{domain}")
        for domain in DOMAINS
        for language in LANGUAGES
    ]


@pytest.mark.parametrize(("language", "domain"), cases())
def test_every_entry_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    po = catalogue(language, domain)
    assert not po.metadata_is_fuzzy, "the header is fuzzy: msgfmt would drop it"
    assert f"nplurals={PLURAL_FORMS[language]};" in po.metadata.get("Plural-Forms", "")
    entries = [e for e in po if not e.obsolete]
    untranslated = [label(e) for e in entries if not e.translated() and "fuzzy" not in e.flags]
    fuzzy = [label(e) for e in entries if "fuzzy" in e.flags]
    assert not untranslated, (
        f"{len(untranslated)} untranslated in {language}/{domain}.po: "
        + "; ".join(untranslated[:20])
    )
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}/{domain}.po: " + "; ".join(fuzzy[:20])
    for e in entries:
        if e.msgid_plural:
            assert len(e.msgstr_plural) == PLURAL_FORMS[language], label(e)


@pytest.mark.parametrize(("language", "domain"), cases())
def test_translations_keep_the_placeholders(language: str, domain: str) -> None:
    """`%(name)s`, `%s`, `{seats}`: a lost or misspelt one shows the raw code to the reader (or,
    in Python, raises); msgfmt checks python-format, nothing checks the scripts' strings."""
    wrong = []
    for e in catalogue(language, domain):
        if e.obsolete or not e.translated():
            continue
        if e.msgid_plural:
            english = set(PLACEHOLDER.findall(e.msgid)) | set(PLACEHOLDER.findall(e.msgid_plural))
            # A form may leave the count out ("one card"), never add one the English lacks.
            if any(
                not set(PLACEHOLDER.findall(form)) <= english for form in e.msgstr_plural.values()
            ):
                wrong.append(label(e))
        elif set(PLACEHOLDER.findall(e.msgstr)) != set(PLACEHOLDER.findall(e.msgid)):
            wrong.append(label(e))
    assert not wrong, f"placeholders changed in {language}/{domain}.po: " + "; ".join(wrong[:20])


@pytest.mark.parametrize(("language", "domain"), cases())
def test_the_committed_mo_files_are_the_po_files_compiled(language: str, domain: str) -> None:
    """The .mo files are committed (a fresh clone runs translated without gettext): after a
    change to a .po file, `make compilemessages`."""
    mo_path = LOCALE / language / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} missing: make compilemessages"

    def table(entries) -> dict:
        out = {}
        for e in entries:
            if e.msgid == "" or getattr(e, "obsolete", False) or "fuzzy" in e.flags:
                continue
            if e.msgid_plural:
                forms = tuple(e.msgstr_plural[i] for i in sorted(e.msgstr_plural))
                if all(forms):
                    out[key(e)] = forms
            elif e.msgstr:
                out[key(e)] = e.msgstr
        return out

    compiled = table(polib.mofile(str(mo_path)))
    written = table(catalogue(language, domain))
    stale = sorted(str(k[1]) for k in set(compiled) ^ set(written))
    stale += sorted(str(k[1]) for k in set(compiled) & set(written) if compiled[k] != written[k])
    assert not stale, f"{language}/{domain}.mo is stale (make compilemessages): {stale[:10]}"


def source_copy(dest: Path) -> None:
    """The project's sources, without the ignored directories and without locale/: makemessages
    writes (merges) into the locale directories it finds, so it runs on a copy, never on the
    catalogues the translators edit."""
    skip = set(IGNORE) | {"locale"}
    for item in Path(settings.BASE_DIR).iterdir():
        if item.name.startswith(".") or item.name in skip:
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(item, dest / item.name)
    (dest / "locale").mkdir()


def snapshot() -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in LOCALE.rglob("*.po")}


@pytest.mark.skipif(not HAVE_GETTEXT and not os.environ.get("CI"), reason="needs GNU gettext")
@pytest.mark.parametrize(
    "domain",
    ["django", "djangojs"],
)
def test_the_catalogues_hold_the_strings_of_the_code(domain, tmp_path, monkeypatch, settings):
    """Extract the strings again (as `make messages` does) from a copy of the sources and
    compare: a string added to or changed in the code is missing from the catalogues until
    `make messages`, and one that left the code lingers in them."""
    source_copy(tmp_path)
    before = snapshot()
    monkeypatch.chdir(tmp_path)
    settings.LOCALE_PATHS = []  # only the copy's locale/ (a LOCALE_PATHS entry would be written)
    call_command(
        "makemessages",
        locale=["de"],
        domain=domain,
        ignore_patterns=IGNORE,
        add_location="file",
        verbosity=0,
    )
    assert snapshot() == before, "makemessages touched the real catalogues"
    fresh_po = tmp_path / "locale" / "de" / "LC_MESSAGES" / f"{domain}.po"
    fresh = {key(e) for e in polib.pofile(str(fresh_po))}
    assert fresh, f"nothing extracted into {fresh_po}"
    for language in LANGUAGES:
        held = {key(e) for e in catalogue(language, domain) if not e.obsolete}
        missing = sorted(k[1] for k in fresh - held)
        gone = sorted(k[1] for k in held - fresh)
        assert not missing and not gone, (
            f"locale/{language}/LC_MESSAGES/{domain}.po is out of date with the code "
            f"(make messages): {len(missing)} new, e.g. {missing[:8]}; "
            f"{len(gone)} no longer used, e.g. {gone[:8]}"
        )
