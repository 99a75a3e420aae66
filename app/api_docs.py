"""The interactive API page (Swagger UI), served from this host only.

The Swagger UI files come from the ``fastapi-offline`` package (a PyPI package that
ships them); the page holds no inline script, so the same
``Content-Security-Policy: default-src 'self'`` as every other answer applies.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} — API</title>
<link rel="stylesheet" href="{base}/assets/swagger-ui.css">
<link rel="icon" href="{base}/assets/favicon.png"></head>
<body><div id="swagger-ui" data-spec="{spec}"></div>
<script src="{base}/assets/swagger-ui-bundle.js"></script>
<script src="{base}/init.js"></script></body></html>
"""

_INIT = """window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.spec, dom_id: "#swagger-ui", deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    layout: "BaseLayout", showExtensions: true, showCommonExtensions: true
  });
});
"""


def install(app: FastAPI, docs_url: str, openapi_url: str) -> None:
    app.mount(f"{docs_url}/assets", StaticFiles(directory=str(ASSETS)), name="api-docs-assets")
    page = _PAGE.format(title=app.title, base=docs_url, spec=openapi_url)

    @app.get(docs_url, include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get(f"{docs_url}/init.js", include_in_schema=False)
    def init() -> Response:
        return Response(_INIT, media_type="text/javascript")
