"""Settings, read from the environment with safe local defaults.

DJANGO_DEBUG            "1" only for local development (`make run` sets it). Off by default.
DJANGO_SECRET_KEY       required when debug is off.
DJANGO_ALLOWED_HOSTS    comma-separated host names (default: localhost,127.0.0.1).
DATABASE_URL            default: the SQLite file db.sqlite3 in the project root.
DJANGO_HTTPS            "0" to serve plain HTTP with debug off (local load tests); default on.
DJANGO_BEHIND_TLS_PROXY "1" when a proxy terminates TLS and sets X-Forwarded-Proto.
DJANGO_TRUSTED_PROXIES  comma-separated IPs/CIDRs of that proxy (default 127.0.0.1,::1 with the
                        flag above, none without): X-Forwarded-* from anyone else is ignored.
DJANGO_HSTS_SECONDS     Strict-Transport-Security max-age (default one year).
DJANGO_ADMIN_PATH       the operator's admin answers on this path (e.g. yonetim-7f3a); unset: off.
DJANGO_CACHE_URL        the shared cache: redis://host:port/db, db (default) or locmem.
"""

import ipaddress
import os
import re
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "insecure-local-development-key-only-for-make-run"

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "cetele",
]

MIDDLEWARE = [
    # First: nothing may read X-Forwarded-* before it is known to come from our proxy.
    "cetele.shell.middleware.TrustedProxyMiddleware",
    # Next: its privacy headers go on every response whose URL holds a key, whoever answered.
    "cetele.shell.middleware.KeyedUrlHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cetele.shell.middleware.TurkishFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "cetele.shell.middleware.FormOnlyAddressMiddleware",
    "cetele.shell.middleware.DatabaseRefusedMiddleware",
    # Last, so its refusals carry every header above; still before the CSRF check reads the body.
    "cetele.shell.middleware.RequestBodyGuardMiddleware",
]

ROOT_URLCONF = "cetele.urls"
WSGI_APPLICATION = "cetele.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["template_partials.templatetags.partials"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
SQLITE_LOCK_WAIT = 20  # seconds a write waits for SQLite's lock before it fails
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several gunicorn workers share one file: WAL lets readers run beside the writer, and
    # IMMEDIATE takes the write lock at BEGIN so that concurrent writers wait (up to `timeout`
    # seconds) instead of failing with "database is locked" when a read lock is upgraded.
    # synchronous=FULL: an acknowledged hand survives a power cut, not only a process crash.
    # secure_delete: a deleted match's names are overwritten in the file, not left in free pages
    # (Debian's SQLite does it by default; other builds do not).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": SQLITE_LOCK_WAIT,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA secure_delete=ON;"
        ),
    }
    # A persistent SQLite connection is cheap and keeps the PRAGMAs applied.
    DATABASES["default"]["CONN_MAX_AGE"] = None

# --- Cache ----------------------------------------------------------------------------------
# What every worker and every app server must share: the admin login's counts of wrong passwords
# (cetele.shell.wrong_passwords; links are never counted). Kept in one process's memory, two
# workers would let twice the guesses through. DJANGO_CACHE_URL chooses where they live:
#   redis://host:port/db (also rediss://, unix://)  Django's RedisCache: for several app servers;
#   db       a table of their own in the database (cetele.models.MissCount): shared by every
#            process using it, counted up by one UPDATE (Django's database cache was used
#            before: its incr() is a read then a write, so parallel guessers counted over each
#            other, and it culls entries when full, live counts among them);
#   locmem   this process's memory: one process only (`make run`, tests).
# Default: db, or locmem with debug on. Redis and locmem count with the cache's own atomic incr.


def cache_settings(url: str) -> dict:
    """CACHES for DJANGO_CACHE_URL (see above). With `db` the default cache is Django's database
    cache (`manage.py createcachetable`): what it still shares between processes (the deletion
    mark, cetele.your_data.forgetting) must reach every one of them."""
    url = url.strip()
    if url.split("://", 1)[0] in {"redis", "rediss", "unix"}:
        backend = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    elif url == "db":
        backend = {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "cetele_cache",
        }
    elif url == "locmem":
        backend = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    else:
        raise ImproperlyConfigured(
            "DJANGO_CACHE_URL must be redis://host:port/db, rediss://…, unix://…, db or locmem."
        )
    return {
        "default": {**backend, "KEY_PREFIX": "cetele"},
        "sheets": SHEETS_CACHE,
        "forms": FORMS_CACHE,
    }


def miss_counts(url: str) -> str:
    """Where cetele.sharing.links counts misses for DJANGO_CACHE_URL: "database" or "cache"."""
    return "database" if url.strip() == "db" else "cache"


# What cetele/matches/sheet.py draws once and keeps (the sheet per version, the open hand's rows
# per version): keyed by what they show, so never stale and never shared; this process's memory
# is the fastest place for them. At most this many entries (about 100 MB a worker), the least
# recently used third dropped when full: every save and every row written makes new ones, and
# the old ones are never asked for again.
SHEETS_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "cetele-sheets",
    "TIMEOUT": 3600,
    "OPTIONS": {"MAX_ENTRIES": 10000},
}
# What is drawn once for a match's whole life and asked for again only at its next save, minutes
# later (the next hand's empty fields, the gösterge's chips): apart from the drawings above, whose
# churn dropped them first. Kept beside them, at 2,400 tables each worker drew every table's empty
# fields again at each of its saves (make loadtest, 2026-12-06: 8 % of a worker's CPU under push).
# One entry a match and language, 19 KB as kept (a 4-player match): 5,000 matches, more than one
# server carries, are under 100 MB a worker.
FORMS_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "cetele-forms",
    "TIMEOUT": 3600,
    "OPTIONS": {"MAX_ENTRIES": 5000},
}


# How many times sooner than cetele.live.schedule.rows_every a page asks for the open
# hand's rows: 1, the pace itself. Only tests/settings.py changes it, so that the browser
# tests of joined phones wait for a row to arrive rather than for the seconds of a table's pace.
CETELE_ROWS_POLL_SPEEDUP = 1

# A café's Wi-Fi can hang rather than fail. A phone's write (a hand, a row, a tea tap) left
# unanswered this many seconds is kept on the phone like one that failed, and sent again later
# (its one-time token makes that safe). Longer than SQLite's wait for its lock, so that a write
# only waiting its turn is not given up. The scripts read it from every page (_assets.html).
CETELE_UNANSWERED_SECONDS = SQLITE_LOCK_WAIT + 5


# Live by push (cetele.live.push): nchan's publisher, as the app servers reach it
# ("http://127.0.0.1:8002/pub/"; scripts/serve.sh and the compose stack set it), and the path
# under which the phones' pages, on the site's own address, hold their streams. Unset: no push,
# every live page polls (make run: Django's development server alone holds no stream).
CETELE_PUSH_PUBLISH = os.environ.get("CETELE_PUSH_PUBLISH", "")
CETELE_PUSH_STREAMS = "/canli/"


CACHE_URL = os.environ.get("DJANGO_CACHE_URL") or ("locmem" if DEBUG else "db")
CACHES = cache_settings(CACHE_URL)
CETELE_MISS_COUNTS = miss_counts(CACHE_URL)

# Flash messages ride in a signed cookie: there are no accounts and no sessions.
MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "tr"
LANGUAGES = [("tr", _("Türkçe")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Istanbul"

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
if DEBUG:
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}

# --- Security -------------------------------------------------------------------------------
HTTPS = env_flag("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
# A load balancer or an orchestrator probes the app server itself, over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
BEHIND_TLS_PROXY = env_flag("DJANGO_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The peers (IPs or networks) whose X-Forwarded-For / -Proto are believed; anyone else's are
# dropped by cetele.shell.middleware.TrustedProxyMiddleware (a client can write them itself).
TRUSTED_PROXIES = [
    proxy.strip()
    for proxy in os.environ.get(
        "DJANGO_TRUSTED_PROXIES", "127.0.0.1,::1" if BEHIND_TLS_PROXY else ""
    ).split(",")
    if proxy.strip()
]
try:
    [ipaddress.ip_network(proxy, strict=False) for proxy in TRUSTED_PROXIES]
except ValueError as error:
    raise ImproperlyConfigured(f"DJANGO_TRUSTED_PROXIES: {error}") from error
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]
# Match links are keys: never leak them to another site through the Referer header. A
# same-origin Referer goes only to us (and our logs redact keys: cetele.shell.logs), and under this
# policy browsers send a real Origin with our own POSTs, which Django's CSRF check verifies
# (under no-referrer they send `Origin: null`, which it must refuse).
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Request bodies: no form here takes a file, and the largest real forms measure ~8 KB (the preset
# editor, name and description at their longest in emoji) and ~4.5 KB (a 4-player hand with 10
# penalties per seat): tests/web/shell/test_request_size.py. 64 KB leaves ample headroom.
# RequestBodyGuardMiddleware refuses a larger body unread (413) and any file (400); files are
# never written to disk on the way.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

# No inline scripts, no eval (htmx is configured for it in base.html), nothing from other hosts.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Every record goes out through the one handler, which takes every key out of it (links are the
# keys, and Django's loggers print paths): Django's own handlers for its loggers (`django`, and
# `django.server` under runserver, which printed every URL) are taken off. gunicorn's
# logs: `--logger-class cetele.shell.logs.GunicornLogger` (Makefile, README).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_keys": {"()": "cetele.shell.logs.RedactKeys"},
        "refusal_logged_once": {"()": "cetele.shell.logs.RefusalLoggedOnce"},
    },
    "formatters": {"one_line_for_4xx": {"()": "cetele.shell.logs.ClientErrorsOnOneLine"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "one_line_for_4xx",
            "filters": ["redact_keys"],
        },
    },
    "loggers": {
        # Django's levels (INFO), and no handler of Django's: their records go to the root's.
        "django": {"handlers": [], "level": "INFO"},
        # A request our refusal page answered is logged once, by us (cetele.shell.refusals).
        "django.request": {"handlers": [], "filters": ["refusal_logged_once"]},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}


# --- The operator's admin --------------------------------------------------------------------
# Off unless DJANGO_ADMIN_PATH names the path it answers on. Only then are Django's admin, auth,
# sessions and contenttypes installed, with their middleware: with it off nothing of the admin
# is reachable and the database needs no user, session or content-type table.

# First path segments the app itself uses: the admin may not hide behind one of them.
RESERVED_PATHS = {"m", "v", "ev", "masa", "yeni", "kurallar", "static", "i18n", "favicon.ico"}
RESERVED_PATHS |= {"sw.js", "manifest.webmanifest"}  # the installable app (views_app)
RESERVED_PATHS |= {"healthz"}  # load balancers' and orchestrators' probe (cetele.shell.health)


def admin_path(value: str) -> str:
    """DJANGO_ADMIN_PATH as a URL prefix: "yonetim" -> "yonetim/"; "" when unset (off)."""
    value = value.strip().strip("/")
    if not value:
        return ""
    if not re.fullmatch(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*", value):
        raise ImproperlyConfigured("DJANGO_ADMIN_PATH may hold only letters, digits, - _ and /.")
    if value.split("/")[0] in RESERVED_PATHS:
        raise ImproperlyConfigured(f"DJANGO_ADMIN_PATH may not start with {value.split('/')[0]}/.")
    return value + "/"


def admin_settings(path: str, installed_apps: list, middleware: list, templates: list) -> dict:
    """The settings that turn the admin on at `path` (tests turn it on with them too)."""
    middleware = list(middleware)
    middleware.insert(
        middleware.index("django.middleware.common.CommonMiddleware"),
        "django.contrib.sessions.middleware.SessionMiddleware",
    )
    middleware.insert(
        middleware.index("django.contrib.messages.middleware.MessageMiddleware"),
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    )
    engine = {**templates[0], "OPTIONS": {**templates[0]["OPTIONS"]}}
    engine["OPTIONS"]["context_processors"] = [
        *engine["OPTIONS"]["context_processors"],
        "django.contrib.auth.context_processors.auth",
    ]
    validators = ["UserAttributeSimilarity", "MinimumLength", "CommonPassword", "NumericPassword"]
    return {
        "ADMIN_PATH": path,
        "INSTALLED_APPS": [
            *installed_apps,
            "cetele.apps.OperatorAdminConfig",
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
        ],
        "MIDDLEWARE": middleware,
        "TEMPLATES": [engine, *templates[1:]],
        # The operator's session cookie goes to the admin's pages only, never with a match link,
        # and lasts a working day.
        "SESSION_COOKIE_PATH": "/" + path,
        "SESSION_COOKIE_AGE": 8 * 3600,
        "AUTH_PASSWORD_VALIDATORS": [
            {"NAME": f"django.contrib.auth.password_validation.{name}Validator"}
            for name in validators
        ],
    }


ADMIN_PATH = admin_path(os.environ.get("DJANGO_ADMIN_PATH", ""))
if ADMIN_PATH:
    globals().update(admin_settings(ADMIN_PATH, INSTALLED_APPS, MIDDLEWARE, TEMPLATES))
