"""Slowing down password guessing at the operator's admin login (cetele.shell.admin_site):
wrong passwords counted per client address and fixed window, in the cache or the database
(settings.CETELE_MISS_COUNTS). Links are never counted (cetele.sharing.links: a link is 256
bits, and a café shares one address)."""

import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from cetele.models import MissCount

# Wrong admin passwords allowed per client address and window (a password, unlike a link, can
# be guessed). Links are never counted.
BAD_LINK_LIMIT = 20
BAD_LINK_WINDOW = 600  # seconds
ADMIN = "admin"  # the counter's name (its rows: "admin:<address>")


def client_ip(request: HttpRequest) -> str:
    """The client's address: the peer, or behind a trusted proxy the address that proxy saw
    (cetele.shell.middleware.TrustedProxyMiddleware), never one the client could have written
    itself."""
    return getattr(request, "client_address", None) or request.META.get("REMOTE_ADDR") or "unknown"


def counted_address(request: HttpRequest) -> str:
    """Whom the limiter counts: an IPv4 address, or an IPv6 client's /64 (one phone or home is
    given a whole /64 and may pick any address in it for each request)."""
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))  # any zone (%eth0) dropped
    return str(ip)


def current_window() -> tuple[int, int]:
    """The current fixed window's number, and the seconds left in it."""
    now = time.time()
    window = int(now // BAD_LINK_WINDOW)
    return window, max(1, int((window + 1) * BAD_LINK_WINDOW - now))


def counter_name(request: HttpRequest, counter: str) -> str:
    return f"{counter}:{counted_address(request)}"


def cache_key(name: str, window: int) -> str:
    return f"cetele:misses:{name}:{window}"


def in_database() -> bool:
    return settings.CETELE_MISS_COUNTS == "database"


def record_bad_link(request: HttpRequest, counter: str) -> int | None:
    """Count one miss (a wrong password) from this address. Returns the seconds to wait when
    this very miss is past the limit (answer it 429), else None: the count and the answer are
    one step, so that however many guessers run at once, exactly BAD_LINK_LIMIT misses are
    answered."""
    window, left = current_window()
    name = counter_name(request, counter)
    if in_database():
        count = count_in_database(name, window)
    else:
        # Redis (INCR), memcached and this process's memory (a lock) count atomically.
        key = cache_key(name, window)
        cache.add(key, 0, timeout=BAD_LINK_WINDOW)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.add(key, 1, timeout=BAD_LINK_WINDOW)
            count = 1
    return left if count > BAD_LINK_LIMIT else None


def count_in_database(name: str, window: int) -> int:
    """One more miss on this counter, in one transaction: an UPDATE adds one (or starts the new
    window at one), then the row is read back. The UPDATE holds the row until the commit
    (SQLite's IMMEDIATE transactions hold the whole database), so no two requests get the
    same count. The first miss of an address makes its row; a request that lost the race to
    make it adds one to the winner's."""
    rows = MissCount.objects.filter(counter=name)
    one_more = {
        "count": Case(When(window=window, then=F("count") + 1), default=Value(1)),
        "window": window,
    }
    with transaction.atomic():
        if not rows.update(**one_more):
            try:
                with transaction.atomic():
                    MissCount.objects.create(counter=name, window=window, count=1)
                return 1
            except IntegrityError:
                rows.update(**one_more)
        return rows.values_list("count", flat=True).get()


def misses_counted(request: HttpRequest, counter: str) -> int:
    """How many misses this request's address has on `counter` in the current window."""
    window, _left = current_window()
    name = counter_name(request, counter)
    if in_database():
        rows = MissCount.objects.filter(counter=name, window=window)
        return rows.values_list("count", flat=True).first() or 0
    return cache.get(cache_key(name, window), 0)


def bad_link_retry_after(request: HttpRequest, counter: str) -> int | None:
    """Seconds this address must wait before trying `counter` again, or None."""
    if misses_counted(request, counter) >= BAD_LINK_LIMIT:
        return current_window()[1]
    return None


def too_many_bad_links(retry_after: int) -> HttpResponse:
    """Our refusal page with 429 and Retry-After, unlogged (the admin's login)."""
    title = _("Çok fazla yanlış şifre")
    message = _(
        "Bu ağdan kısa sürede çok sayıda yanlış şifre girildi. Birkaç dakika sonra yeniden deneyin."
    )
    page = render_to_string("cetele/shell/refused.html", {"title": title, "message": message})
    response = HttpResponse(page, status=429)
    response["Retry-After"] = str(retry_after)
    return response
