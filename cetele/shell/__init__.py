"""The app shell: middleware, refused requests and our error pages, logging without keys, the
health check, the installable app (manifest, service worker), languages, names, the operator's
admin site."""
