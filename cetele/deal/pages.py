"""A joined phone's gösterge section (cetele/deal/_indicator_form.html), as its page, its rows'
answer and its own gösterge view draw it: built here, once, for the views of both."""

from django.utils.translation import gettext as _

from cetele.deal.forms import chips
from cetele.deal.indicator import Indicator, open_indicator
from cetele.models import Match


def set_by(indicator: Indicator | None, players: list) -> str:
    """Who showed the gösterge, as the joined phones say it ("Ayşe gösterdi")."""
    if indicator is None:
        return ""
    if indicator.seat is None or indicator.seat >= len(players):
        return _("çeteleyi tutan gösterdi")
    return _("%(name)s gösterdi") % {"name": players[indicator.seat].name}


def indicator_context(match: Match, players: list, position: int | None, form=None) -> dict:
    """A joined phone's gösterge section (cetele/deal/_indicator_form.html): the one kept for
    the open hand, or the posted one with its errors."""
    indicator = open_indicator(match, position)
    riziko = match.ruleset().riziko is not None
    if form is not None and form.is_bound and not form.is_valid():
        values = (form["colour"].value(), form["indicator"].value())
        fake = "riziko" in form.fields and form["riziko"].value()
        errors = form.error_lines()
    else:
        values = (indicator.colour, indicator.number) if indicator else (None, None)
        fake, errors = bool(indicator and indicator.fake), []
    return {
        "position": position,
        "indicator": indicator,
        "indicator_by": set_by(indicator, players),
        "indicator_chips": chips(*values, fake, riziko=riziko, id_prefix="gosterge"),
        "indicator_errors": errors,
        "token": match.join_token,
    }
