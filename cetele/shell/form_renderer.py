"""Django's form renderer, with the input widgets written out in Python.

The hand form draws some sixty inputs (radio buttons for each player's opening and okeys, hidden
fields, numbers), and Django renders each through three or four nested templates: that was most
of the time of a match page with its form, of a save's answer and of a re-rendered form. Here the
input templates (`input.html`, the templates that only include it, and the radio and checkbox
options around it) are written as functions that give exactly what those templates give, with
the same escaping and the same localisation of values, and so are selects and empty error lists;
any other template (labels, error lists with errors, …) goes to Django's own.
tests/web/test_form_renderer.py renders every page with a form both ways, and odd values (quotes,
markup, safe strings, True/False/None attributes, lazy labels, option groups), and compares.

settings.FORM_RENDERER = "cetele.shell.form_renderer.FastWidgets".
"""

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeData
from django.utils.timezone import template_localtime


def _text(value) -> str:
    """{{ value }}: what the template engine writes for a variable (render_value_in_context)."""
    value = localize(template_localtime(value))
    if not issubclass(type(value), str):
        value = str(value)
    return conditional_escape(value)


def _string(value) -> str:
    """{{ value|stringformat:'s' }}: "%s" % value, escaped unless the value was safe."""
    if isinstance(value, tuple):
        value = str(value)
    text = "%s" % value  # noqa: UP031 -- exactly what the filter does
    return text if isinstance(value, SafeData) else escape(text)


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html"""
    return "".join(
        f" {_text(name)}" + ("" if value is True else f'="{_string(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def _input(widget: dict) -> str:
    """django/forms/widgets/input.html"""
    value = widget.get("value")
    shown = f' value="{_string(value)}"' if value != None else ""  # noqa: E711 -- as the template
    return (
        f'<input type="{_text(widget.get("type", ""))}" name="{_text(widget.get("name", ""))}"'
        f"{shown}{_attrs(widget.get('attrs') or {})}>"
    )


def _input_option(widget: dict) -> str:
    """django/forms/widgets/input_option.html (radio and checkbox options)"""
    if not widget.get("wrap_label"):
        return _input(widget)
    ident = (widget.get("attrs") or {}).get("id")
    start = f'<label for="{_text(ident)}">' if ident else "<label>"
    # input.html ends with a newline, which its include keeps inside the label.
    return f"{start}{_input(widget)}\n {_text(widget.get('label'))}</label>"


def _select(widget: dict) -> str | None:
    """django/forms/widgets/select.html with select_option.html (each include keeps the
    option template's closing newline); None when an option has a template of its own."""
    parts = [f'<select name="{_text(widget.get("name", ""))}"{_attrs(widget.get("attrs") or {})}>']
    for group_name, group_choices, _index in widget.get("optgroups", ()):
        if group_name:
            parts.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in group_choices:
            if option.get("template_name") != WIDGETS + "select_option.html":
                return None
            parts.append("\n  " + _select_option(option) + "\n")
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def _select_option(widget: dict) -> str:
    """django/forms/widgets/select_option.html"""
    return (
        f'<option value="{_string(widget.get("value"))}"{_attrs(widget.get("attrs") or {})}>'
        f"{_text(widget.get('label'))}</option>"
    )


WIDGETS = "django/forms/widgets/"
ERROR_LISTS = {"django/forms/errors/list/default.html", "django/forms/errors/list/ul.html"}
WRITTEN = {
    WIDGETS + "input.html": _input,
    **{
        f"{WIDGETS}{name}.html": _input
        for name in (
            "checkbox",
            "color",
            "date",
            "datetime",
            "email",
            "hidden",
            "number",
            "password",
            "search",
            "tel",
            "text",
            "time",
            "url",
        )
    },
    WIDGETS + "input_option.html": _input_option,
    WIDGETS + "radio_option.html": _input_option,
    WIDGETS + "checkbox_option.html": _input_option,
    WIDGETS + "select.html": _select,
    WIDGETS + "select_option.html": _select_option,
}


class FastWidgets(DjangoTemplates):
    """Django's renderer; the input widgets above are written by functions, not templates."""

    def render(self, template_name, context, request=None):
        if template_name in ERROR_LISTS and not context.get("errors"):
            return ""  # {% if errors %}…{% endif %}: an empty list renders nothing
        write = WRITTEN.get(template_name)
        written = write(context["widget"]) if write is not None else None
        if written is None:
            return super().render(template_name, context, request)
        return written
