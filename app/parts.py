"""Small pieces every view shares: a labelled control and the figures' look."""

import panel as pn

from . import theme

# The draft choice as every view labels it.
DRAFT_OPTIONS = {"Aligned": "aligned", "Biased": "biased"}


def field(title, help_text, *widgets, basis="220px"):
    """A control with its name in bold and one line of help above it; shrinks and wraps in a FlexBox."""
    head = f'<div style="font-weight:600;font-size:0.92rem">{theme.esc(title)}</div>'
    if help_text:
        head += f'<div class="muted small" style="line-height:1.35">{theme.esc(help_text)}</div>'
    label = pn.pane.HTML(head, stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(0, 5))
    return pn.Column(label, *widgets, margin=0, styles={"flex": f"1 1 {basis}", "min-width": "0"})


def style_figure(fig):
    """Quiet axes, readable labels, no toolbar: the look of every Bokeh chart on the page."""
    fig.toolbar_location = None
    fig.background_fill_color = "#ffffff"
    fig.border_fill_color = "#ffffff"
    fig.outline_line_color = None
    fig.title.text_font_size = "14px"
    fig.title.text_color = theme.INK
    fig.title.text_font_style = "bold"
    for axis in (fig.xaxis, fig.yaxis):
        axis.axis_label_text_font_size = "12px"
        axis.axis_label_text_font_style = "normal"
        axis.axis_label_text_color = theme.MUTED
        axis.major_label_text_color = theme.INK
        axis.major_label_text_font_size = "12px"
        axis.axis_line_color = "#9aa5b1"
        axis.major_tick_line_color = "#9aa5b1"
        axis.minor_tick_line_color = None
    fig.xgrid.grid_line_color = "#eef1f4"
    fig.ygrid.grid_line_color = "#eef1f4"
    fig.min_border_left = 8
    fig.min_border_right = 16
    return fig
