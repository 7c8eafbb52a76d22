"""Log formatting: one line for a client's mistake, the whole traceback for our own."""

import logging


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
