from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from core.checks import refuse_public_key_on_a_public_server  # noqa: E402

# A server others reach does not start with the repository's public SECRET_KEY (not only `check --deploy`).
refuse_public_key_on_a_public_server()
