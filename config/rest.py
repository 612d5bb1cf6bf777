"""What every JSON API of the site shares, whichever app serves it.

`JSONParser` is REST_FRAMEWORK's DEFAULT_PARSER_CLASSES' first: every API view reads JSON through
it, so a malformed body is the same clear 400 everywhere (lobby-api.md: never a 500).
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils.json import strict_constant


class JSONParser(parsers.JSONParser):
    """DRF's parser, with every body that is not JSON a 400 in the reader's language.

    DRF's own lets a RecursionError through (a body of a thousand `[` is a 500: `json` recurses
    once per level) and words the rest in English with Python's message.
    """

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        # A charset that is no text encoding (`bz2_codec`) is refused here, as DRF refuses it.
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream)
            return json.load(text, parse_constant=strict_constant if self.strict else None)
        except RecursionError:
            raise ParseError(_("The JSON in the request is nested too deeply.")) from None
        except json.JSONDecodeError as error:
            raise ParseError(
                _("The request is not valid JSON (line %(line)d, column %(column)d).")
                % {"line": error.lineno, "column": error.colno}
            ) from None
        except ValueError:
            # Bytes that are not text in the charset, NaN or Infinity, a number too long.
            raise ParseError(_("The request is not valid JSON.")) from None
