"""Logging: no key in any line, one line for a client's mistake, the whole traceback for our own.

Links are the only keys (/m/<edit token>/, /v/<view token>/, /k/<join token>/, ?from=<key>…),
and Django's own loggers print the path of a request they complain about ("Not Found:
/m/<token>/el/9/", "Forbidden (CSRF token missing.): /m/<token>/…"), gunicorn's access log
every URL. RedactKeys rewrites every record a handler of ours is given, whichever logger wrote
it (settings.LOGGING attaches it to the console handler, which every logger's records reach;
GunicornLogger attaches it to gunicorn's own handlers).
"""

import logging
import re

from gunicorn.glogging import Logger

# A run of 22 or more URL-safe base64 characters (a link accepts 22 to 64; a longer run may
# hold one), unless it reads as a name in code, as a traceback has them: snake_case, UPPER_CASE
# or CamelCase ("CsrfWithNoReferrerMiddleware", "HTTP_X_FORWARDED_PROTO"). One of our keys (43
# random characters) reads so with a probability under one in a billion.
KEY_RUN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{22,}(?![A-Za-z0-9_-])")
CODE_NAME = re.compile(
    r"_*[a-z]+(?:_+[a-z0-9]+)*_*|_*[A-Z]+(?:_+[A-Z0-9]+)*_*|_*(?:[A-Z][a-z0-9]+)+_*"
)
REDACTED = "…"


def redact(text: str) -> str:
    """`text` with every run that may be a key replaced by "…"."""
    return KEY_RUN.sub(lambda run: run[0] if CODE_NAME.fullmatch(run[0]) else REDACTED, text)


class RedactKeys(logging.Filter):
    """Rewrite a record's message, traceback and stack without any key (never drops one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            # Written out now, as the formatter would, so that the text it prints is this one.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


# Set on a request whose refusal our own page answered and our own line logged
# (cetele.shell.refusals): Django's "Bad Request: /path" about it would be a second line.
REFUSAL_LOGGED = "cetele_refusal_logged"


class RefusalLoggedOnce(logging.Filter):
    """On the django.request logger (settings.LOGGING): drop its line about a response whose
    request our refusal page has logged already (Django logs every 4xx and 5xx it returns,
    with the request in the record: its documented `request` extra)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), REFUSAL_LOGGED, False)


class ClientErrorsOnOneLine(logging.Formatter):
    """Drop the traceback from records about a bad request (a 4xx, or Django's security
    warnings such as a foreign Host header): anyone can send those in bulk, and 45 KB of
    traceback per request would fill the disk. A 500 keeps its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        client_error = record.name.startswith("django.security") or (
            getattr(record, "status_code", 500) < 500
        )
        if client_error and (record.exc_info or record.exc_text or record.stack_info):
            record = logging.makeLogRecord(record.__dict__)
            record.exc_info = record.exc_text = record.stack_info = None
        return super().format(record)


class GunicornLogger(Logger):
    """gunicorn's logger (its `logger_class` setting: `--logger-class
    cetele.shell.logs.GunicornLogger`) with RedactKeys on each of its handlers: the access log's
    request lines and the error log's "Error handling request /m/<token>/…" carry no key either."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if not any(isinstance(f, RedactKeys) for f in handler.filters):
                    handler.addFilter(RedactKeys())
