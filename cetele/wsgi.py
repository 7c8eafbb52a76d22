"""WSGI entry point (gunicorn cetele.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cetele.settings")
django_application = get_wsgi_application()  # sets Django up: the app's modules can load now

from cetele.live.fastpoll import PollFastPath  # noqa: E402
from cetele.your_data.forgetting import ForgetInEveryProcess  # noqa: E402

# The live poll's "nothing changed" without Django's request cycle; everything else is Django's.
# Each process watches for deletions made by the others (cetele.your_data.forgetting).
application = ForgetInEveryProcess(PollFastPath(django_application))
