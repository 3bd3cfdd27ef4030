"""Settings for the card table, read once from the environment.

Defaults are embedded so that `make run` works on a fresh machine with no other
service: SQLite and the in-memory channel layer. `DEBUG` is off unless set;
`make run` sets `DEBUG=1`. `DATABASE_URL` switches to
PostgreSQL (or any database dj-database-url knows), `REDIS_URL` to channels_redis.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable ("1", "true", "yes", "on" mean yes)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# Off unless asked: a deploy that forgets the variable must not run in debug mode
# with the development key. `make run` and the tests (tests/settings.py) set DEBUG=1.
DEBUG = _env_bool("DEBUG", False)

_DEV_SECRET = "dev-insecure-secret-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off (DEBUG=1 for development: `make run` sets it)."
    )

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "cardtable.tables",
    "cardtable.dashboard",
    "cardtable.ratings",
    "cardtable.accounts",
    "cardtable.reviews",
]

# The pages (lobby, table) live in their own app when it exists.
try:
    import cardtable.web  # noqa: F401

    INSTALLED_APPS.append("cardtable.web")
except ImportError:
    pass

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "cardtable.csp.content_security_policy",  # only the site's own scripts, styles and websocket
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "cardtable.urls"
ASGI_APPLICATION = "cardtable.asgi.application"
WSGI_APPLICATION = "cardtable.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# Seconds a database connection is kept open between uses (0: close each time): the
# websockets' sync thread's and the move path's pool threads' (dbthreads.py). An HTTP
# request runs on a thread of its own and closes its connection as it ends.
# SQLite too: opening a connection there costs about 2 ms (file, WAL, the pragmas),
# and every database call of the consumer and the bot driver would pay it.
CONN_MAX_AGE = int(os.environ.get("CONN_MAX_AGE", "60"))
if DATABASE_URL:
    import dj_database_url

    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE)}
    if os.environ.get("TEST_DATABASE_NAME"):  # lets parallel test runs share one server
        DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "CONN_MAX_AGE": CONN_MAX_AGE,
            # SQLite serialises writers; wait rather than fail when two moves race.
            # WAL lets readers go on while one writes; IMMEDIATE takes the write lock when
            # a transaction begins, so two readers never deadlock upgrading to writers
            # (SQLite answers that with "database is locked" at once, whatever the timeout).
            # Past the timeout a socket's request gets `unavailable` (tables/live/dberrors.py).
            "OPTIONS": {
                "timeout": float(os.environ.get("SQLITE_TIMEOUT", "20")),
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
            },
        }
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
# "pubsub" (Redis PUBLISH/SUBSCRIBE, the default: a group send is one PUBLISH) or "core"
# (a list per process): docs/performance.md, "The move path", says why pub/sub. Each process's
# hub holds one channel (tables/live/layerlink.py); both pass tests/ops/test_redis_outage.py.
REDIS_LAYER = os.environ.get("REDIS_LAYER", "pubsub")
if REDIS_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured(f"REDIS_LAYER must be core or pubsub, not {REDIS_LAYER!r}")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": {
                "core": "cardtable.tables.live.layers_redis.RedisChannelLayer",
                "pubsub": "cardtable.tables.live.layers_redis.RedisPubSubChannelLayer",
            }[REDIS_LAYER],
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, the same as
                # channels_redis' blocking pop: an idle websocket would die with a
                # TimeoutError. Give reads more room than the pop's 5 s.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                "prefix": os.environ.get("CHANNEL_PREFIX", "cardtable"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "cardtable.tables.live.layers.InMemoryChannelLayer"}}

# The rate limits' counters (tables/ratelimit.py): in Redis when there is one, so every
# process shares them and a restart keeps them; else in this process's memory. A
# short timeout: while Redis is away each process counts in its own memory instead.
if REDIS_URL:
    _LIMITS_CACHE = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ.get("CHANNEL_PREFIX", "cardtable") + ":limits",
        "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
    }
else:
    _LIMITS_CACHE = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": _LIMITS_CACHE,
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
if DEBUG and not STATIC_ROOT.exists():
    # In development WhiteNoise serves from the finders; no collectstatic needed.
    STATIC_ROOT = None
WHITENOISE_USE_FINDERS = DEBUG
STATICFILES_DIRS = [BASE_DIR / "static"]

LOGIN_URL = "/admin/login/"
# Django's database sessions, read with a compiled query (every websocket reads one).
SESSION_ENGINE = "cardtable.tables.players.sessions"
CSRF_FAILURE_VIEW = "cardtable.tables.api.csrf_failure"

# The table's timing: seconds a bot waits before it moves, and seconds a seated
# human may be away before a bot plays for them.
BOT_PAUSE = float(os.environ.get("BOT_PAUSE", "0.7"))
DISCONNECT_GRACE = float(os.environ.get("DISCONNECT_GRACE", "30"))
# How long the search bots may think: a wall-clock cap per move for `normal` and
# `hard`, and a factor on their playout budgets (games/bots/levels.py), so a slower
# or busier machine can trade strength for speed.
BOT_THINK_SECONDS = {
    "normal": float(os.environ.get("BOT_NORMAL_SECONDS", "0.25")),
    "hard": float(os.environ.get("BOT_HARD_SECONDS", "1.0")),
}
BOT_PLAYOUT_SCALE = float(os.environ.get("BOT_PLAYOUT_SCALE", "1.0"))
if min(*BOT_THINK_SECONDS.values(), BOT_PLAYOUT_SCALE) <= 0:
    raise ImproperlyConfigured("BOT_NORMAL_SECONDS, BOT_HARD_SECONDS and BOT_PLAYOUT_SCALE must be above 0")
# The reviews of finished games (docs/review.md): whether this process runs them,
# the search playouts per decision, the seconds one may take, and its niceness.
REVIEW_JOBS = _env_bool("REVIEW_JOBS", True)
REVIEW_PLAYOUTS = int(os.environ.get("REVIEW_PLAYOUTS", "400"))
REVIEW_TIMEOUT = float(os.environ.get("REVIEW_TIMEOUT", "1800"))
REVIEW_NICENESS = int(os.environ.get("REVIEW_NICENESS", "19"))
if REVIEW_PLAYOUTS < 1 or REVIEW_TIMEOUT <= 0:
    raise ImproperlyConfigured("REVIEW_PLAYOUTS must be at least 1 and REVIEW_TIMEOUT above 0")
# Every background job's child (design statistics, reviews, RECYCLE checks; cardtable/jobs.py)
# limits itself to this much address space (MiB) and CPU time (seconds, never more than its
# job's own timeout), and the playability check of an uploaded RECYCLE game to this wall clock.
JOB_MEMORY_MB = int(os.environ.get("JOB_MEMORY_MB", "1024"))
JOB_CPU_SECONDS = float(os.environ.get("JOB_CPU_SECONDS", "1800"))
RECYCLE_CHECK_TIMEOUT = float(os.environ.get("RECYCLE_CHECK_TIMEOUT", "180"))
RECYCLE_CHECK_NICENESS = int(os.environ.get("RECYCLE_CHECK_NICENESS", "10"))
if JOB_MEMORY_MB < 64 or JOB_CPU_SECONDS < 1 or RECYCLE_CHECK_TIMEOUT <= 0:
    raise ImproperlyConfigured(
        "JOB_MEMORY_MB must be at least 64, JOB_CPU_SECONDS at least 1, RECYCLE_CHECK_TIMEOUT above 0"
    )
# The level of the bot that plays for an absent human.
STAND_IN_LEVEL = os.environ.get("STAND_IN_LEVEL", "normal")
# Tables that end: seconds with nobody connected before an open table (or a
# finished one) ends as abandoned, and how often each process looks.
ABANDON_AFTER = float(os.environ.get("ABANDON_AFTER", str(30 * 60)))
ABANDON_FINISHED_AFTER = float(os.environ.get("ABANDON_FINISHED_AFTER", str(24 * 3600)))
ABANDON_SWEEP = float(os.environ.get("ABANDON_SWEEP", "60"))
# On SIGTERM: seconds the requests and bot moves in flight may take to finish before the sockets close.
SHUTDOWN_GRACE = float(os.environ.get("SHUTDOWN_GRACE", "5"))
# Presence: an open websocket refreshes its row every HEARTBEAT seconds; a row
# older than TTL belongs to a process that died.
CONNECTION_HEARTBEAT = float(os.environ.get("CONNECTION_HEARTBEAT", "15"))
CONNECTION_TTL = float(os.environ.get("CONNECTION_TTL", "45"))
# Per-connection rate limit (messages a second, and the burst allowed).
WS_RATE, WS_BURST = 20.0, 60.0
# Websockets one player may hold at one table, and in all, in one server process
# (docs/security.md S2): more are refused with `rate_limited`.
WS_PER_TABLE = int(os.environ.get("WS_PER_TABLE", "5"))
WS_PER_PLAYER = int(os.environ.get("WS_PER_PLAYER", "20"))
# Admission of new websockets (cardtable/tables/live/admission.py): how many handshakes
# of one process do their work at once, the longest wait for a turn the gate holds a
# new one for (by the time turns have been taking), and the longest it holds one in
# fact; any other is refused at once with a retry time.
CONNECT_CONCURRENCY = int(os.environ.get("CONNECT_CONCURRENCY", "8"))
CONNECT_WAIT = float(os.environ.get("CONNECT_WAIT", "10"))
CONNECT_HOLD = float(os.environ.get("CONNECT_HOLD", "20"))
# Rate limits per player and per client address (docs/security.md, "Limits"):
# (actions, seconds): at most that many in any such span (a sliding window),
# counted in CACHES["limits"], shared by every process on one Redis. Beyond them:
# `rate_limited`, HTTP 429. RATE_LIMITS=0 turns them off, for load tests on loopback only.
RATE_LIMITS_ON = _env_bool("RATE_LIMITS", True)
RATE_LIMITS = {
    # New guest players: a household or a café's evening behind one address, not a flood.
    "guest": {"address": (60, 600)},
    "rename": {"player": (10, 600)},
    "table": {"player": (5, 150), "address": (20, 200)},  # tables created
    "connect": {"address": (60, 60)},  # new websockets
    "chat": {"player": (5, 10), "address": (10, 10)},
    "sync": {"player": (10, 10), "address": (50, 10)},
    "hint": {"player": (5, 30), "address": (20, 30)},  # each runs the normal bot's search
    "leave": {"player": (10, 600)},
    "takeover": {"player": (10, 600)},
    # Accounts: every attempt counts; a login that succeeds takes its count back.
    "register": {"address": (10, 600)},
    "login": {"address": (20, 600), "name": (10, 600)},  # "name": per account name tried
    "password": {"player": (10, 600)},  # the password asked again (change it, delete the account)
    # RECYCLE games a staff member adds (each queues a check of up to a minute of a job's CPU);
    # one refused for its text spends none.
    "upload": {"staff": (20, 3600)},
}
# The bots' searches (bot moves, stand-ins, timeouts, hints) run in this many worker
# processes per server process (tables/searches.py), never on the event loop's thread.
SEARCH_WORKERS = int(os.environ.get("SEARCH_WORKERS", "2"))
if SEARCH_WORKERS < 1:
    raise ImproperlyConfigured("SEARCH_WORKERS must be at least 1")
# Tables one player may host while they wait or play.
OPEN_TABLES_PER_PLAYER = int(os.environ.get("OPEN_TABLES_PER_PLAYER", "5"))
# A waiting table nobody has been at for this many seconds is deleted.
WAITING_TABLE_TTL = float(os.environ.get("WAITING_TABLE_TTL", "600"))

if not DEBUG:
    SESSION_COOKIE_SECURE = _env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = _env_bool("SECURE_COOKIES", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Off unless asked: the proxy in front usually redirects, and HSTS cannot be undone.
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", False)
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
