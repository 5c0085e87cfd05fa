"""The "Step through a block" tab: the views of one ``Model``, laid out.

Reading order follows the story: scenario, caption (what happened, what is
next), the action buttons, the token strip, the inspector, then the counters
beside the block history. Boxes wrap from 1200 px down to 360 px.
"""

import panel as pn
import param

from .caption import Caption
from .controls import Actions, Scenario
from .counters import Counters
from .embed import EmbedCode
from .history import History
from .inspector import Inspector
from .model import Model
from .strip import TokenStrip


class StepView(pn.viewable.Viewer):
    """The main widget view; every part takes the same model."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        if params.get("model") is None:
            params["model"] = Model()
        super().__init__(**params)
        m = self.model
        self.scenario = Scenario(model=m)
        self.caption = Caption(model=m)
        self.actions = Actions(model=m)
        self.strip = TokenStrip(model=m)
        self.inspector = Inspector(model=m)
        self.counters = Counters(model=m)
        self.history = History(model=m)
        self.embed = EmbedCode(model=m)
        for view in (self.counters, self.history):
            view.__panel__().styles = {"flex": "1 1 340px", "min-width": "0"}
        self._layout = pn.Column(
            self.scenario,
            self.caption,
            self.actions,
            self.strip,
            self.inspector,
            pn.FlexBox(self.counters, self.history, gap="0 16px", flex_wrap="wrap", align_items="flex-start",
                       sizing_mode="stretch_width", margin=0),
            self.embed,
            sizing_mode="stretch_width", margin=(8, 0),
        )

    def __panel__(self):
        return self._layout
