"""The static site build behind ``python3 build.py``: one module per idea.

cli (options and main), bootstrap (.venv and the npm Pyodide on a fresh
machine), npm_pyodide (where that npm package lives), probe (what the app
imports in the page), packages (which come from Pyodide, which we ship),
wheels (slim, byte-compiled wheels), page (panel convert's page, rewritten),
site (writing and checking the output folder), serve (a local HTTP server).
"""
