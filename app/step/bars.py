"""The inspector's bar charts as HTML: one text for all three, so a click changes one pane's text.

Three Bokeh plots were 78 of the step tab's 239 models (a third of what the worker builds and
sends before the page answers), and showing or hiding one cost BokehJS a layout of the whole
page. Here a chart is a few ``div``s whose heights are the bars' probabilities: CSS draws them
(``app/styles/bars.css``) in the tokens' own colours, the dark palette's included, and a chart
that is not shown is simply not in the text, so what the pane holds is a function of the moment
alone (the build's recorded moments must equal Python's, whatever the path to them).

Each bar's label is ``core.display``'s text of the record's Fraction; its height is that
Fraction as a float, for drawing only. A screen reader reads a chart as one image whose name
lists every bar (``q(A) = 0.50; p(A) = 0.50; ...``); a pointer gets the same as the bar's title.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import theme

# The y axis runs from 0 to TOP, so a bar of 1 keeps room for its label above it.
TOP = 1.08
TICKS = ("0", "0.25", "0.5", "0.75", "1")


@dataclass(frozen=True)
class Bar:
    """One bar: a token's ``solid`` part (fill, or the light tint for a draft's row) and, above it, a
    hatched ``hatched`` part (the corrections); ``under`` names it within its token (q, p)."""

    token: str
    solid: float
    label: str
    name: str
    under: str = ""
    light: bool = False
    hatched: float = 0.0


@dataclass(frozen=True)
class Chart:
    """A chart: its title, its bars in order (grouped by token), the axes' names, an optional legend."""

    key: str
    title: str
    bars: tuple[Bar, ...]
    x_name: str
    y_name: str
    legend: tuple[tuple[str, str], ...] = ()  # (kind: "solid" | "hatched", text)


def _pct(value: float) -> str:
    return f"{100 * value / TOP:.3f}".rstrip("0").rstrip(".") + "%"


_TICKS_HTML = "".join(f'<span class="tick" style="bottom:{_pct(float(v))}">{v}</span>' for v in TICKS)  # every chart's


def _bar(bar: Bar) -> str:
    light = " light" if bar.light else ""
    parts = [f'<span class="bar-label">{theme.esc(bar.label)}</span>']
    if bar.hatched > 0:
        parts.append(f'<span class="bar-part hatched" style="height:{_pct(bar.hatched)}"></span>')
    parts.append(f'<span class="bar-part solid{light}" style="height:{_pct(bar.solid)}"></span>')
    under = f'<span class="bar-under">{theme.esc(bar.under)}</span>' if bar.under else ""
    return (f'<span class="bar-slot tok-{bar.token}" title="{theme.esc(bar.name)}">'
            f'<span class="bar-stack">{"".join(parts)}</span>{under}</span>')


def _group(token: str, bars: list[Bar]) -> str:
    sub = " sub" if any(b.under for b in bars) else ""
    return (f'<span class="bars-group{sub}"><span class="bars-plot">{"".join(_bar(b) for b in bars)}</span>'
            f'<span class="bars-token">{theme.esc(token)}</span></span>')


def _legend(items) -> str:
    if not items:
        return ""
    entries = "".join(f'<span class="legend-item"><span class="swatch tok-A {kind}"></span>{theme.esc(text)}</span>'
                      for kind, text in items)
    return f'<p class="bars-legend">{entries}</p>'


def chart_html(chart: Chart) -> str:
    """One chart: its title, then the bars over a y axis of TICKS, the axis names and the legend."""
    groups: dict[str, list[Bar]] = {}
    for bar in chart.bars:
        groups.setdefault(bar.token, []).append(bar)
    name = "; ".join(bar.name for bar in chart.bars)
    return (f'<section class="bars-chart" data-chart="{chart.key}">'
            f'<p class="chart-title">{theme.esc(chart.title)}</p>'
            f'<div class="bars" role="img" aria-label="{theme.esc(chart.title)}: {theme.esc(name)}">'
            f'<span class="bars-y-name" aria-hidden="true">{theme.esc(chart.y_name)}</span>'
            f'<span class="bars-frame" aria-hidden="true"><span class="bars-ticks">{_TICKS_HTML}</span>'
            f'<span class="bars-groups">{"".join(_group(token, bars) for token, bars in groups.items())}</span></span>'
            f'<span class="bars-x-name" aria-hidden="true">{theme.esc(chart.x_name)}</span>'
            f'{_legend(chart.legend)}</div></section>')


def charts_html(charts) -> str:
    """The charts shown, one after the other (none: an empty text)."""
    return "".join(chart_html(c) for c in charts)
