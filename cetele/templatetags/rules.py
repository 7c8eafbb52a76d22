"""{% rule_sections rules base as shown %}: a ruleset as the rules pages show it, built from the
engine's declaration of every parameter (cetele.house_rules.rulesets.shown_rules)."""

from django import template

from cetele.house_rules.rulesets import shown_rules

register = template.Library()


@register.simple_tag
def rule_sections(rules, base=None):
    return shown_rules(rules, base if isinstance(base, dict) else None)
