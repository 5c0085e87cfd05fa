"""The page paints its status line before BokehJS has loaded (issue 27 item 3).

sitebuild/page.py's ``defer_head_scripts`` gives Panel's and BokehJS's <head> scripts
``defer`` (they run in their order once the page is parsed, before DOMContentLoaded, when
Bokeh's embed script draws the pre-rendered document), and makes the one inline call in
<head> wait for DOMContentLoaded; a converted page of another shape stops the build.
"""

from __future__ import annotations

import re

import pytest

from sitebuild.page import defer_head_scripts
from sitebuild.project import BuildError

HEAD = """<html><head><meta charset="utf-8">
<script type="esms-options">{"shimMode": true}</script>
<script type="text/javascript" src="panel/dist/es-module-shims.min.js"></script>
<script type="text/javascript" src="bokeh/bokeh-3.9.2.min.js"></script>
<script type="text/javascript" src="bokeh/bokeh-widgets-3.9.2.min.js"></script>
<script type="text/javascript" src="panel/dist/panel.min.js"></script>
<script type="text/javascript">
  Bokeh.set_log_level("info");
</script></head>
<body><div id="specstep-status">Step 1</div>
<script type="text/javascript" src="loader.js"></script>
<script>document.addEventListener("DOMContentLoaded", () => Bokeh.embed.embed_items(1, 2));</script>
</body></html>"""


def test_the_head_scripts_are_deferred_in_their_order_and_the_body_ones_are_not():
    out = defer_head_scripts(HEAD)
    head, body = out.split("</head>")
    sources = re.findall(r'<script type="text/javascript" src="([^"]+)"( defer)?></script>', head)
    assert [src for src, _ in sources] == ["panel/dist/es-module-shims.min.js", "bokeh/bokeh-3.9.2.min.js",
                                           "bokeh/bokeh-widgets-3.9.2.min.js", "panel/dist/panel.min.js"]
    assert all(defer for _, defer in sources)
    assert '<script type="text/javascript" src="loader.js"></script>' in body  # the loader still starts at once
    assert body == HEAD.split("</head>")[1]


def test_no_code_in_head_calls_bokeh_before_it_is_loaded():
    head = defer_head_scripts(HEAD).split("</head>")[0]
    inline = re.findall(r'<script type="text/javascript">(.*?)</script>', head, re.S)
    assert inline == ['\n  document.addEventListener("DOMContentLoaded", () => Bokeh.set_log_level("info"), '
                      '{once: true});\n']


@pytest.mark.parametrize("html", [
    HEAD.replace('Bokeh.set_log_level("info");', ""),  # Panel changed what it writes in <head>
    HEAD.replace("bokeh/bokeh-", "bokeh/other-"),
    HEAD.replace("</head>", ""),
])
def test_a_page_of_another_shape_stops_the_build(html):
    with pytest.raises(BuildError, match="defer_head_scripts"):
        defer_head_scripts(html)
