"""The app's URLconf with the operator's admin on, built like cetele/urls.py builds it when
DJANGO_ADMIN_PATH is set. tests/web/shell/test_admin.py switches to it under its admin settings
(reloading cetele.urls instead would register its path converter a second time)."""

from django.conf import settings

from cetele.urls import operator_urls
from cetele.urls import urlpatterns as app_urlpatterns

urlpatterns = [*app_urlpatterns, *operator_urls(settings.ADMIN_PATH)]
