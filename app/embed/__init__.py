"""The code a teacher pastes into course notes: the embed form (``builder.py``), the iframe and host script
it writes (``snippet.py``, ``host.js``) and each tab's measured height in a frame (``heights.json``).
The page's own behaviour (keys, names, theme, height reports) is ``app/page``'s."""
