"""``app.parts.wrap``: a row that wraps, made of a Bokeh Row (issue 27: Python up sooner).

Panel's FlexBox, which the first tab used seven times, is a ReactiveHTML (two models each and a
Jinja template compiled per instance). ``wrap`` must lay out as it did: the screenshots of the
first tab at 375 and 1200 px, light, dark, Chinese, locked and presenting, were pixel-identical
before and after the change; here, what makes them so.
"""

import panel as pn
from bokeh.document import Document
from bokeh.models import Row
from panel.io.state import set_curdoc

from app import main
from app.parts import Wrap, wrap


def test_a_child_without_its_own_flex_gets_a_flexbox_items_defaults():
    loose = pn.pane.HTML("a", sizing_mode="stretch_width")
    fixed = pn.widgets.Button(label="b", width=90)
    own = pn.pane.HTML("c", styles={"flex": "1 1 220px", "min-width": "0"})
    wrap(loose, fixed, own, align_items="center")
    # A Row would give the stretching pane flex 1 0 0px (it would never wrap) and each child an
    # align-self of its own, over the row's align-items.
    assert loose.styles == {"flex": "0 1 auto", "align-self": "center"}
    assert fixed.styles == {"flex": "0 1 auto", "align-self": "center"}
    assert own.styles == {"flex": "1 1 220px", "min-width": "0", "align-self": "center"}


def test_the_row_wraps_with_the_gap_and_alignment_asked_for():
    row = wrap(pn.pane.HTML("a"), gap="12px 24px", justify_content="flex-end", margin=0)
    assert row.styles == {"flex-wrap": "wrap", "align-items": "flex-start", "justify-content": "flex-end",
                          "gap": "12px 24px"}
    assert row.sizing_mode == "stretch_width"
    model = row.get_root(Document())
    assert type(model) is Row and model.styles["flex-wrap"] == "wrap"


def test_a_viewer_is_laid_out_by_its_own_layout():
    class Part(pn.viewable.Viewer):
        def __init__(self):
            super().__init__()
            self.layout = pn.Column(pn.pane.HTML("x"), styles={"flex": "1 1 340px"})

        def __panel__(self):
            return self.layout

    part = Part()
    row = wrap(part)
    assert row.objects == [part.layout]
    assert part.layout.styles == {"flex": "1 1 340px", "align-self": "flex-start"}


def test_its_min_width_is_its_widest_child_not_the_sum_of_them():
    # Panel gives a Row the sum of its children's min widths: three 200 px controls would keep the
    # row 600 px wide on a 375 px phone, where they wrap onto three lines.
    def three():
        return [pn.pane.HTML("x", min_width=200, sizing_mode="stretch_width", margin=0) for _ in range(3)]

    assert wrap(*three(), margin=0).get_root(Document()).min_width == 200
    assert pn.Row(*three(), margin=0).get_root(Document()).min_width == 600


def test_the_first_render_holds_no_reactive_html():
    page = main.build_page()
    doc = Document()
    with set_curdoc(doc):
        page.server_doc(doc)
    kinds = {type(model).__name__ for model in doc.models}
    assert "ReactiveHTML" not in kinds and "Row" in kinds
    assert any(isinstance(obj, Wrap) for obj in page.select(pn.Row))
