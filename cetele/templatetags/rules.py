"""{% rule_sections rules base as shown %}: a ruleset as the rules pages show it, built from the
engine's declaration of every parameter (cetele.rulesets.shown_rules)."""

from django import template

from cetele.rulesets import shown_rules

register = template.Library()


@register.simple_tag
def rule_sections(rules, base=None):
    return shown_rules(rules, base if isinstance(base, dict) else None)
