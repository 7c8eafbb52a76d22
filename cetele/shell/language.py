"""The page's language, as the scoring engine's word lists name it."""

from django.utils.translation import get_language


def engine_lang() -> str:
    """ "en" or "tr": which of `scoring.labels`' languages (and a preset's names) to show."""
    return "en" if (get_language() or "tr").startswith("en") else "tr"


def preset_name(preset) -> str:
    """A built-in preset's name in the page's language."""
    return preset.name_en if engine_lang() == "en" else preset.name_tr


def preset_description(preset) -> str:
    return preset.description_en if engine_lang() == "en" else preset.description_tr
