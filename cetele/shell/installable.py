"""The installable app: the web app manifest and the service worker (static/cetele/sw.js).

The worker is served from the site's root, not from /static/: a worker controls only the pages
under the path it was served from, and whitenoise serves static files under hashed names that
change with every release. The worker's text is static/cetele/sw.js with two constants put in
front: the current URLs of the static files to keep on the phone and a version made from their
contents, so that a release with changed files installs a new worker, which drops the old files.
"""

import hashlib
import json
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

# What every page needs, and the icons: kept by the worker when it installs. The joined
# phones' script and style are kept when a page that uses them asks (static/cetele/seats.js):
# most phones never join a table, and every phone pays for what the worker keeps at install.
OFFLINE_ASSETS = [
    "cetele/app.css",
    "cetele/app.js",
    "cetele/offline.js",
    "cetele/favicon.svg",
    "django_htmx/htmx-2.min.js",  # what {% htmx_script %} loads
]
KEPT_ON_ASKING = ["cetele/seats.js", "cetele/seats.css"]  # in VERSION too: a change renews them
# Not the app icons: only installing fetches them, and the phone keeps them itself.
# The top bar's green and the page's background, light and dark (base.html's theme-color
# metas carry the dark ones: the manifest format has a single theme colour).
THEME_LIGHT, BACKGROUND_LIGHT = "#14532d", "#f7f7f4"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the language this phone chose (the language cookie)."""
    icons = [
        {"src": static("cetele/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("cetele/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("cetele/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "id": "/",
        "name": _("Çetele: 101 Okey çetelesi"),
        "short_name": "Çetele",
        "description": _(
            "101 Okey çetelenizi telefonda tutun: her el, her puan ve nasıl hesaplandığı."
        ),
        "lang": get_language(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND_LIGHT,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    # Its words follow the language switch, so a cached copy is checked each time.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
@gzip_page  # no secret in it, so compressing it leaks nothing (BREACH needs one)
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(worker_source(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every visit (and never keeps one over 24 h).
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@lru_cache(maxsize=1)
def worker_source() -> str:
    """sw.js with ASSETS (their URLs now) and VERSION (a digest of the worker and the assets'
    contents: in development the URLs carry no hash, and a changed file must still reach the
    phone). Read once per process: static files change only with a release."""
    digest = hashlib.sha256()
    source = read_static("cetele/sw.js")
    digest.update(source)
    urls = []
    for name in OFFLINE_ASSETS:
        urls.append(static(name))
        digest.update(urls[-1].encode() + read_static(name))
    for name in KEPT_ON_ASKING:
        digest.update(static(name).encode() + read_static(name))
    header = f'const ASSETS = {json.dumps(urls)};\nconst VERSION = "{digest.hexdigest()[:16]}";\n'
    return header + source.decode()


def read_static(name: str) -> bytes:
    path = finders.find(name)
    if not path:
        raise FileNotFoundError(name)
    with open(path, "rb") as file:
        return file.read()
