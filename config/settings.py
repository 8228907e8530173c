"""Tablée settings, read from the environment with safe defaults (see README)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.utils.translation import gettext_lazy as _

# Django's generic classes (QuerySet[Model], ModelAdmin[Model], forms) accept their type parameter at run time,
# as django-stubs declares them for mypy.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# The default key is only for a local table; production sets SECRET_KEY (README), and
# `check --deploy` refuses this one when DEBUG is off (core/checks.py).
LOCAL_SECRET_KEY = "tablee-local-only-" + "x" * 40
SECRET_KEY = os.environ.get("SECRET_KEY", LOCAL_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Where the admin site lives: a path of one's own keeps it off the well-known /admin/ that bots probe.
ADMIN_URL = (os.environ.get("ADMIN_URL", "").strip("/") or "admin") + "/"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "channels",
    "axes",
    "core",
    "accounts",
    "campaigns",
    "characters",
    "states",
    "conflicts",
    "tragic",
    "frag",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A NUL byte in a path, query or form field is refused with 400 before any view (core/middleware.py).
    "core.middleware.RefuseNulMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # One read of the regions' versions per request, however many regions the page shows (core/regions.py).
    "core.middleware.RegionVersionPassMiddleware",
    # The answer's X-Live-Position: the stream position it shows at least (campaigns/answer_position.py).
    "campaigns.answer_position.LivePositionMiddleware",
    # Last, as django-axes asks: it turns a locked-out login (site or admin) into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # ``{% url %}`` with its answers kept per process (core/templatetags/kept_url.py says why and when).
            "builtins": ["core.templatetags.kept_url"],
        },
    },
]

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Rendered log entries, sheets and panels, per process: their keys hold everything that decides their
    # bytes (campaigns/entry_region.py, core/fragment_cache.py), so nothing needs to be shared between
    # processes to stay correct.
    "fragments": {
        # Django's memory cache without its key checks and without pickling strings (core/fragment_store.py).
        "BACKEND": "core.fragment_store.FragmentStore",
        "LOCATION": "fragments",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 4},
    },
}
# The one switch of every kept fragment (sheets, panels, log entries, boards, rows, odds, the story): off, the
# same bytes are rendered every time.
FRAGMENT_CACHE = env_bool("FRAGMENT_CACHE", True)

# Widgets are plain data once built: their HTML is kept per process (core/form_rendering.py).
FORM_RENDERER = "core.form_rendering.CachedWidgetRenderer"

WSGI_APPLICATION = "config.wsgi.application"
# How many idle request threads the ASGI server keeps for the next requests (core/request_threads.py).
REQUEST_THREADS_KEPT = int(os.environ.get("REQUEST_THREADS_KEPT", "16"))
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and a busy timeout let a live table's simultaneous clicks queue instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Kept open between requests: each request thread is kept (core/request_threads.py), and so is the live
    # sockets' database thread, so a connection is opened once per thread rather than once per request.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "600"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
elif env_bool("DB_POOL", True):
    # Under ASGI every sync_to_async call may run on another thread, and Channels closes the
    # connection after each database call of a consumer: persistent connections (CONN_MAX_AGE>0)
    # pile up one per thread until PostgreSQL refuses more, and CONN_MAX_AGE=0 opens a new one for
    # every socket render (~4 ms). psycopg's pool hands back a warm connection instead; "closing"
    # returns it to the pool. Django refuses CONN_MAX_AGE with a pool, so it stays 0 here.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # 30 per process: a Sequence with twenty people drawing at once takes twenty threads' connections
    # (tests/conflicts/test_concurrency.py); ten left the others waiting out the pool's timeout.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "30")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }

# How often an open live socket hears from the server even when nothing happens (seconds): proxies
# close idle connections (nginx after 60 s by default) and a phone cannot tell a dead socket from a
# quiet one. The page treats a silence longer than two intervals as a drop and reconnects.
LIVE_PING_SECONDS = float(os.environ.get("LIVE_PING_SECONDS", "25"))
# What a page may send on its socket (campaigns/live_socket.MessageGate): a page says little ({"resume": 41},
# the panels it opens), so these leave it ample room; a message past them closes the socket (1009, 1007, 1003),
# and so does a client sending more than LIVE_MESSAGE_BURST at once, refilled LIVE_MESSAGES_PER_SECOND (1008).
# How long a socket's handshake waits for the database before answering 1013 "try again later" (an outage).
LIVE_HANDSHAKE_DB_SECONDS = float(os.environ.get("LIVE_HANDSHAKE_DB_SECONDS", "1"))
LIVE_MESSAGE_MAX_BYTES = int(os.environ.get("LIVE_MESSAGE_MAX_BYTES", "4096"))
LIVE_MESSAGE_MAX_DEPTH = int(os.environ.get("LIVE_MESSAGE_MAX_DEPTH", "4"))
LIVE_MESSAGE_BURST = int(os.environ.get("LIVE_MESSAGE_BURST", "20"))
LIVE_MESSAGES_PER_SECOND = float(os.environ.get("LIVE_MESSAGES_PER_SECOND", "2"))
# A page that missed more of its events than this is sent its regions as they stand now, in one message
# (campaigns/live_catch_up.py), instead of every missed event one by one; fewer are replayed event by event.
LIVE_CATCH_UP_REPLAY_MAX = int(os.environ.get("LIVE_CATCH_UP_REPLAY_MAX", "10"))
# With Redis (several processes): the request that commits an event renders the copies of the pages open in every
# process, not only its own, and the others take theirs (campaigns/live_shared.py).
LIVE_SHARED_PASS = env_bool("LIVE_SHARED_PASS", True)

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # channels-redis waits for messages with BZPOPMIN for up to `brpop_timeout` (5 s) seconds;
    # redis-py 8 reads every reply with a 5 s socket timeout by default, so an idle socket's
    # blocking receive timed out ("Timeout reading from …") and Channels closed the WebSocket
    # ~6 s after its last message. The read timeout must exceed the server-side block; a real
    # dead connection is still found by TCP keepalive and the pool's health checks. The connections
    # send under a timeout that keeps a cancellation (core/redis_connection.py says why).
    from core.redis_connection import connection_class_for

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 2,
                        "socket_keepalive": True,
                        "health_check_interval": 30,
                        "connection_class": connection_class_for(REDIS_URL),
                    }
                ],
                "prefix": os.environ.get("REDIS_PREFIX", "tablee"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # Refuses any login, site or admin, while the account or the client is locked out (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Brute-force throttling: after LOGIN_FAILURE_LIMIT wrong passwords for one account, or from one
# client address, logging in is refused for LOGIN_LOCKOUT_MINUTES; a good password resets the count.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False
# The client's address (core/client_ip.py): REMOTE_ADDR, unless BEHIND_PROXY says TRUSTED_PROXY_COUNT proxies
# stand in front, each appending to X-Forwarded-For; then the entry that many from the right, when it is an address.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))
AXES_CLIENT_IP_CALLABLE = "core.client_ip.client_ip"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:list"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English pages spell the British way: their dates too (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG and "PYTEST_VERSION" not in os.environ)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

BENCH_VIEWS = env_bool("BENCH_VIEWS", False)

# Invitation links expire after this many hours.
INVITATION_TTL_HOURS = int(os.environ.get("INVITATION_TTL_HOURS", "72"))

# The largest campaign archive an upload or import_campaign reads (campaigns.archive, docs/archive.md).
ARCHIVE_MAX_BYTES = int(os.environ.get("ARCHIVE_MAX_BYTES", str(20 * 1024 * 1024)))

# Seconds between two bot turns replayed on a Frag table, so people can follow them.
FRAG_LIVE_PACE = float(os.environ.get("FRAG_LIVE_PACE", "0.6"))
