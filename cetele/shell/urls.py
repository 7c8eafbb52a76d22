"""What the house answers beside the pages: the health probe and what makes the app
installable."""

from django.urls import path

from cetele.shell import health, installable

app_name = "shell"

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),  # load balancers ask it every few seconds
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("sw.js", installable.service_worker, name="service_worker"),
]
