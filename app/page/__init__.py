"""The page around the tabs: keys, names for screen readers, theme, one layout per patch, and what a link
says about the page (which tabs, which first, locked, present).

``script.py`` installs ``page.js`` and ``layout.js`` into the document; ``words.py`` holds the names and
keys they use; ``links.py`` reads and writes the page's own link keys. The embed form and its snippet are
``app/embed``'s; no tab's code lives here.
"""
