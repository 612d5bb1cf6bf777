"""`/api/schema/`: the OpenAPI schema, made once per process and language, then served from memory.

drf-spectacular makes the schema anew on every request, and making it is not thread-safe: under
ASGI every request runs in a thread of its own, and sixteen requests at once answered 500 (its
extensions load their classes into shared state on first use). The schema changes only with the
code, so each language's (its help texts and choices are translated) is made once, under a lock,
and kept; rendering it as YAML or JSON only reads it.

It is the public schema, as `manage.py spectacular` makes it: the same whoever asks (no request
goes into it), and for the one version the API has (`?version=` is not echoed into it).
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

_making = threading.Lock()


@cache
def _made_in(language: str) -> dict[str, Any]:
    with translation.override(language):
        generator = spectacular_settings.DEFAULT_GENERATOR_CLASS()
        return generator.get_schema(request=None, public=True)


def schema_in(language: str) -> dict[str, Any]:
    """The schema in `language`, made by the first caller; the others wait for it, then share
    it (a cached answer is a dictionary look-up, so holding the lock for it costs nothing)."""
    with _making:
        return _made_in(language)


forget_schemas = _made_in.cache_clear  # for tests that change what goes into it


def asked_language(request: Request) -> str:
    """drf-spectacular's `?lang=` when it names a language of the site, else the page's own
    (LocaleMiddleware's choice, always one of settings.LANGUAGES)."""
    try:
        return translation.get_supported_language_variant(request.query_params.get("lang", ""))
    except LookupError:
        return translation.get_language() or settings.LANGUAGE_CODE


class SchemaView(SpectacularAPIView):
    # drf-spectacular's view serving the schema made once (see the module). Its docstring is the
    # endpoint's description in the schema (translated): drf-spectacular's own, not a note of ours.
    __doc__ = SpectacularAPIView.__doc__

    @extend_schema(**SCHEMA_KWARGS)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        filename = self._get_filename(request, None)
        return Response(
            schema_in(asked_language(request)),
            headers={"Content-Disposition": f'inline; filename="{filename}"'},
        )
