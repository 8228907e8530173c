"""Pure rules: no Django, no app imports (see ../shared/design.md, rule 1)."""
