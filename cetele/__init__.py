"""Çetele: the Django project and its one app (the shell around `scoring`)."""
