"""Character pages: thin views that parse, check permission, call a service and render; one module per page
family (``sheet``, ``actions``, ``creation``, ``narrator``).

Each page has one template; htmx requests get the named partial (``page.html#sheet``).
"""
