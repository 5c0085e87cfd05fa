"""specstep's Panel + Bokeh UI: a ``param`` model wrapping ``core.Session`` and views that take it.

Entry module: ``app/main.py`` (``panel serve app/main.py``; ``panel convert`` for the static page).
"""
