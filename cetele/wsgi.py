"""WSGI entry point (gunicorn cetele.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cetele.settings")

application = get_wsgi_application()
