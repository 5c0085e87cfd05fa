"""The static site build behind ``python3 build.py``: one module per idea.

- ``cli``: the options, and ``main`` (build, then maybe serve);
- ``bootstrap``: ``.venv`` and the npm Pyodide on a fresh machine;
- ``project``: where things are, the pinned versions, ``BuildError``;
- ``npm_pyodide``: the npm package pyodide@0.29.3 in ``sitebuild/npm/``, shared with the tests;
- ``probe``: what the app imports in the page (run as the worker runs it, with
  ``app/worker_protocol.py``);
- ``packages``: which come from Pyodide's release, which we ship as wheels;
- ``pycompile``: Pyodide's own Python under Node: byte-compiling, and what it imports at start-up;
- ``wheels``: slim wheels, byte-compiled with Pyodide's own Python;
- ``lazy_panel``: in the slim Panel, the parts the page never shows are imported at first use;
- ``stdlib``: the site's standard library: a slim zip, and the modules that move to the bundle;
- ``bundle``: the one .tar.gz of Python the page downloads (the wheels' files, the moved stdlib);
- ``page``: ``panel convert``'s page, made to load from this site;
- ``site``: the output folder (worker, loader, service worker, lists, build-info.json);
- ``serve``: ``--serve`` on 127.0.0.1.
"""
