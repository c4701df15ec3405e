"""The API's interactive documentation (docs/api.md): Swagger UI at /api/docs, served from this
site only (no CDN), started by a static script so the Content-Security-Policy needs no inline
script, reading /api/openapi.json; linked from the profile next to the API tokens."""
from __future__ import annotations

import re

from service_helpers import web_sign_in


def test_the_api_docs_page_loads_only_this_sites_files(client):
    page = client.get("/api/docs")
    assert page.status_code == 200
    body = page.data.decode()
    assert 'data-openapi="/api/openapi.json"' in body
    sources = re.findall(r'<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"', body)
    assert "/api/docs/assets/swagger-ui-bundle.js" in sources and "/api/docs/assets/swagger-ui.css" in sources
    assert "/static/api-docs.js" in sources
    assert all(source.startswith("/") and not source.startswith("//") for source in sources), sources
    assert not re.search(r"https?://", body), "no address of another site in the page"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), "no inline script"
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]


def test_swagger_ui_is_served_from_the_package_with_its_licence_and_version(client):
    script = client.get("/api/docs/assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and script.mimetype in ("text/javascript", "application/javascript")
    assert b"SwaggerUIBundle" in script.data
    style = client.get("/api/docs/assets/swagger-ui.css")
    assert style.status_code == 200 and style.mimetype == "text/css"
    licence = client.get("/api/docs/assets/LICENSE")
    assert licence.status_code == 200 and b"Apache License" in licence.data
    version = client.get("/api/docs/assets/VERSION").data.decode().strip().lstrip("v")
    assert re.fullmatch(r"\d+\.\d+\.\d+", version) and f"Swagger UI {version}" in client.get("/api/docs").data.decode()
    starter = client.get("/static/api-docs.js")
    assert starter.status_code == 200 and b"SwaggerUIBundle(" in starter.data and b"data-openapi" in starter.data


def test_only_the_listed_swagger_ui_files_are_served(client):
    for name in ("index.html", "oauth2-redirect.html", "..%2F__init__.py", "swagger-ui.js", "%00"):
        assert client.get(f"/api/docs/assets/{name}").status_code == 404, name


def test_the_profile_links_the_api_docs_beside_the_tokens(app, client):
    web_sign_in(client, app, "ana@example.com")
    page = client.get("/profile").data.decode()
    tokens = page.split('id="api-tokens"', 1)[1].split("<h2", 1)[0]
    assert 'href="/api/docs"' in tokens and 'href="/api/openapi.json"' in tokens
