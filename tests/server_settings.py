"""bench.settings for the real servers the wrong-password tests start
(tests/web/sharing/test_guess_limits.py, test_guess_limit_across_servers.py): what they test is
the count, not the hash. A wrong password runs the password hasher (for a name with no user too,
so that the time tells nothing), and the real one costs 0.24 s of CPU: 20 to 40 of them a test,
a minute of make test's CPU in all. MD5 here, as in tests/settings.py."""

from bench.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
