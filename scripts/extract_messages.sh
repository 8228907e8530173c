#!/usr/bin/env bash
# Refresh the French catalogues: one per app (its code and templates), one for the project (base templates).
# Needs GNU gettext (xgettext); compiling needs nothing but polib (scripts/compile_messages.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ADMIN="$PWD/.venv/bin/django-admin"
export PYTHONPATH="$PWD" DJANGO_SETTINGS_MODULE=config.settings
for app in accounts campaigns characters conflicts core frag states tragic; do
  mkdir -p "$app/locale"
  (cd "$app" && "$ADMIN" makemessages -l fr --no-location --no-obsolete -i 'rules/*' -i 'engine/*' >/dev/null)
done
"$ADMIN" makemessages -l fr --no-location --no-obsolete \
  -i '.venv/*' -i 'accounts/*' -i 'campaigns/*' -i 'characters/*' -i 'conflicts/*' -i 'core/*' \
  -i 'frag/*' -i 'states/*' -i 'tragic/*' -i 'tests/*' -i 'bench/*' -i 'staticfiles/*' >/dev/null
echo "catalogues refreshed; untranslated entries:"
for po in */locale/fr/LC_MESSAGES/django.po locale/fr/LC_MESSAGES/django.po; do
  printf '  %s: %s\n' "$po" "$(.venv/bin/python -c "import polib,sys; print(len(polib.pofile(sys.argv[1]).untranslated_entries()))" "$po")"
done
