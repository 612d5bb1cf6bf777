"""The OpenAPI schema is valid and complete; Swagger UI is served from our own static files."""

from __future__ import annotations

import re

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_schema_validates_without_a_single_warning(tmp_path):
    # --validate checks it against the OpenAPI 3 JSON schema; --fail-on-warn turns every
    # warning (an untyped field, a view spectacular cannot read) into a failure.
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert "post" in paths["/api/events/{slug}/fixtures/{fixture_id}/result/"]
    assert "get" in paths["/api/events/{slug}/fixtures/{fixture_id}/record/"]
    assert {"get", "post"} <= set(paths["/api/events/{slug}/rounds/"])
    assert {"get", "patch", "delete"} <= set(paths["/api/events/{slug}/"])
    assert "get" in paths["/api/events/{slug}/ledger/"]
    assert {"basicAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])


def test_the_schema_is_served(anonymous):
    response = anonymous.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/events/" in response.json()["paths"]


def test_swagger_ui_loads_nothing_from_another_site(anonymous):
    response = anonymous.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    # No CDN: every src/href is a path on this site (no scheme, no protocol-relative //host).
    for url in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html):
        assert url.startswith("/"), url
        assert not url.startswith("//"), url
    assert not re.search(r"https?://|[\"']//[a-z]", html), "an external URL in the Swagger page"
    for asset in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"):
        assert finders.find(f"drf_spectacular_sidecar/swagger-ui-dist/{asset}"), asset
