"""Words and numbers readers see, read as a student would (issue 23, items 8, 11 and 12).

A comparison on screen must look true with the digits shown; a ratio is an
exact fraction from ``core``; no project word ("seed article") reaches the
reader; the Chinese reads as Chinese (full-width punctuation, no 多头).
"""

import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

import core
from core import display
from core.cli import main
from core.tree import TreeSession

from app import i18n
from app.step import bars
from app.guesses import words as guesses_words
from app.step import inspector
from app.step import words as step_words

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = {lang: json.loads((ROOT / "app" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in i18n.LANGUAGES}


# ---- a shown draw against its bound -------------------------------------------------------

def looks_true(u_text, relation, bound_text):
    """The reader's check: the shown u against the shown bound (each part of "2/3 ≈ 0.667")."""
    u = F(u_text)
    for part in bound_text.split(" ≈ "):
        bound = F(part)
        if not (u < bound if relation == "<" else u >= bound):
            return False
    return True


COMPARISON = re.compile(r"u = ([0-9.]+) (<|≥) ([0-9./]+(?: ≈ [0-9.]+)?), so")
STEP_COMPARISON = re.compile(r"u = ([0-9.]+) is (below|not below) ([0-9./]+(?: ≈ [0-9.]+)?), so")


def nodes_tested(session):
    for block in session.blocks:
        for node in block.nodes:
            if node.tested:
                yield node


def test_versus_gives_a_draw_at_the_bound_enough_digits():
    assert display.versus(F(1, 2), 1) == ("0.5000", "1")
    assert display.versus(F(99999, 100000), 1) == ("0.99999", "1")
    u, bound = display.versus(F(733327, 1000000), F(11, 15))  # 0.7333 > 0.733 would look false
    assert looks_true(u, "<", bound) and u.startswith("0.73332")
    assert display.versus(F(1, 3), F(1, 3)) == ("1/3", "1/3")  # u = bound: no decimal shows it not below


def test_the_guesses_tab_shows_a_draw_at_the_bound_visibly_below_it():
    # aligned, k = 3, width 2, seed 917901: candidate 1 has u within 0.00005 of its chance 1.
    near = 0
    for seed in (*range(917890, 917910), *range(40)):
        for draft, k, width in (("aligned", 3, 2), ("biased", 2, 3)):
            for node in nodes_tested(TreeSession.start(draft, k, width, seed).run_to_end()):
                sentence = guesses_words.test_words(node)
                u_text, relation, bound_text = COMPARISON.search(sentence).groups()
                assert relation == ("<" if node.status == "accepted" else "≥"), sentence
                assert looks_true(u_text, relation, bound_text), sentence
                near += abs(node.u - node.accept_probability) < F(1, 10000)
    assert near  # the sweep reaches draws that 4 places would round onto the bound


def step_seeds():
    # Found by sweeping: draws that 4 places round onto (or past) their chance.
    return [("aligned", 2, 1804), ("aligned", 2, 2281), ("biased", 2, 57), ("biased", 2, 71), ("biased", 3, 1228),
            ("biased", 3, 1746), *(("biased", 3, seed) for seed in range(60))]


def test_the_step_tab_decision_and_inspector_show_a_visibly_true_comparison():
    near = 0
    for draft, width, seed in step_seeds():
        session = core.Session.start(core.Config(draft, width, seed)).run_to_end()
        for block in session.blocks:
            for x in block.proposals:
                if x.status not in ("accepted", "rejected"):
                    continue
                sentence = step_words.decision(x)
                u_text, relation, bound_text = STEP_COMPARISON.search(sentence).groups()
                assert looks_true(u_text, "<" if relation == "below" else "≥", bound_text), sentence
                near += abs(x.u - x.accept_probability) < F(1, 10000)
    assert near >= 5


def test_the_inspector_shows_the_draw_with_the_digits_of_its_decision():
    session = core.Session.start(core.Config("aligned", 2, 1804)).draft().verify()
    model = type("M", (), {})()
    x = session.pending.proposals[0]
    u_text, _ = display.versus(x.u, x.accept_probability)
    assert u_text == "0.99997"
    item = type("It", (), {"proposal": x, "block": session.pending, "decomposition": core.position("aligned", ()),
                           "correction": None, "pending": True, "bonus": None})()
    out = inspector.proposal_html(item, "aligned")
    assert "0.99997" in out and "1.0000" not in out
    del model


@pytest.mark.parametrize("argv", [
    ("trace", "--draft", "aligned", "--width", "2", "--seed", "1804"),
    ("trace", "--draft", "biased", "--width", "2", "--seed", "71"),
    ("trace", "--draft", "aligned", "--width", "2", "--seed", "917901", "--candidates", "3"),
])
def test_the_text_trace_writes_each_tested_draw_visibly_on_its_side(capsys, argv):
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    checked = 0
    for line in out.splitlines():
        found = re.search(r"accept=([0-9/]+) u=([0-9.]+)\s+(accepted|rejected)", line)
        if found:
            bound, u, status = found.groups()
            assert (F(u) < F(bound)) == (status == "accepted"), line
            checked += 1
    assert checked


# ---- exact ratios -------------------------------------------------------------------------

def test_draft_tokens_per_pass_is_an_exact_fraction_from_core():
    counters = TreeSession.start("biased", 1, 3, 104694).run_to_end().counters
    assert counters.draft_tokens_per_pass == F(counters.draft_steps, counters.target_passes) == F(13, 5)
    assert "13/5" in guesses_words.per_pass(counters) or "2.6" in guesses_words.per_pass(counters)


def test_no_counters_line_of_the_guesses_tab_shows_a_float_made_fraction():
    for draft in ("aligned", "biased"):
        for k in (1, 2, 3):
            for width in (1, 2, 3):
                for seed in range(25):
                    line = guesses_words.per_pass(TreeSession.start(draft, k, width, seed).run_to_end().counters)
                    for den in re.findall(r"\d+/(\d+)", line):
                        assert int(den) < 1000, line


# ---- sentences that were not true ---------------------------------------------------------

def test_lookup_on_the_empty_text_does_not_speak_of_a_last_token():
    session = core.Session.start(core.Config("lookup", 3, 0))
    sentence = step_words.next_words(session)
    assert "last token" not in sentence and "empty" in sentence
    with i18n.use("zh"):
        assert "最后一个 token" not in step_words.next_words(session)


def discarded_heads_block():
    for seed in range(200):
        session = core.Session.start(core.Config("heads", 3, seed)).draft().verify()
        if session.pending.count("discarded"):
            return core.Session.start(core.Config("heads", 3, seed)).draft(), session
    raise AssertionError("no heads block with a discarded proposal")


def test_a_discarded_head_guess_is_not_said_to_be_drafted_after_the_rejected_token():
    before, after = discarded_heads_block()
    texts = [step_words.happened("verify", before, after), *step_words.strip_notes(after.pending),
             step_words.discarded_why(after.pending)]
    for text in texts:
        assert "drafted after" not in text and "drafted as if" not in text, text
    assert "committed text alone" in step_words.happened("verify", before, after)


def test_the_inspector_and_readme_say_which_letter_is_which():
    for lang in i18n.LANGUAGES:
        with i18n.use(lang):
            line = i18n.t("step.notation")
            assert "Leviathan" in line and "Chen" in line
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Chen et al. 2023" in readme and "swap" in readme
    assert "step.notation" in (ROOT / "app" / "step" / "inspector.py").read_text(encoding="utf-8")


def test_hatching_means_corrections_only_in_the_inspector():
    d = core.position("biased", ())
    for chart in (inspector.rows_chart(d.q, d.p, ""), inspector.residual_chart(d.residual, "")):
        assert "hatched" not in bars.chart_html(chart), chart.key
    stack = inspector.stack_chart(d)
    assert [bar.hatched for bar in stack.bars] == [float(x) for x in d.corrected]
    assert "bar-part hatched" in bars.chart_html(stack)
    assert [kind for kind, _ in stack.legend] == ["solid", "hatched"]
    assert stack.legend[1][1] == i18n.t("step.chart.legend.corrections")


# ---- project words and the Chinese --------------------------------------------------------

@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_word_of_the_project_reaches_the_reader(lang):
    for key, text in CATALOGUES[lang].items():
        for word in ("Seed example", "seed article", "seed's", "of the article", "种子文章", "文章中的例子"):
            assert word not in text, (key, text)
    assert "0.6, 0.3, 0.1" in CATALOGUES[lang]["exact.preset.three"] + CATALOGUES[lang]["exact.preset.three.what"]


CJK = r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]"


def test_the_chinese_sets_no_ascii_colon_or_comma_after_chinese():
    found = {key: text for key, text in CATALOGUES["zh"].items()
             if re.search(CJK + r"[:;] ?", text) or re.search(CJK + r", ", text)}
    assert found == {}


def test_a_field_ending_in_latin_letters_is_spaced_from_the_chinese_after_it():
    # {tokens} is "3 个 token", {starts} "9 种可能的前 2 个 token", {what} "温度 1/2": "token中" reads as one word.
    found = {key: text for key, text in CATALOGUES["zh"].items()
             if re.search(r"\{(tokens|starts|what)\}[\u4e00-\u9fff]", text)}
    assert found == {}


def test_the_chinese_names_medusa_heads_not_multi_head_attention():
    found = {key: text for key, text in CATALOGUES["zh"].items() if "多头" in text}
    assert found == {}
    assert CATALOGUES["zh"]["draft.heads"] == CATALOGUES["zh"]["step.draft_name.heads"] == "预测头"
    assert "Medusa 预测头" in CATALOGUES["zh"]["step.help.draft"]
    assert "多头" not in (ROOT / "web" / "loader.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("key, text", [
    ("step.help.draft", "查找：找到最后一个 token 在前文中上一次出现的位置，复制紧跟其后的内容。"),
    ("page.title", "推测解码：逐块演示"),
    ("payoff.intro", "块越宽，每次目标前向能保留的 token 越多，草稿步也越多；而且一旦较早出现拒绝，后面的候选全部作废。"),
    ("step.output.empty_pending", "暂时为空。点击“提交”后，第 {block} 块的 {count}（{tokens}）会加入输出。"),
])
def test_the_chinese_reads_as_a_native_writer_would(key, text):
    assert text in CATALOGUES["zh"][key]


def test_no_chinese_sentence_says_commit_will_append():
    """"提交会追加…" is the English word order ("Commit appends…"): say what clicking it does."""
    found = {key: text for key, text in CATALOGUES["zh"].items() if "提交会追加" in text}
    assert found == {}


def test_no_chinese_is_set_in_italics():
    css = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "app" / "styles").glob("*.css"))
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    upright = set()
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if re.search(r"font-style:\s*normal", body):
            upright |= {s.strip() for s in selectors.split(",")}
    slanted = {s.strip() for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css)
               if re.search(r"font-style:\s*italic", body) for s in selectors.split(",")}
    assert slanted, "the scan finds the italic rules"
    for selector in slanted | {"em", "i"}:
        assert f":lang(zh) {selector}" in upright, selector


@pytest.mark.parametrize("font", ["PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC",
                                  "Source Han Sans SC"])
def test_the_language_switch_and_every_pane_name_cjk_fonts(font):
    # What the browser computes is tests/ui/test_i18n_ui.py's; here, that the names are in the sheets.
    from app import theme
    stack = re.search(r"--bokeh-base-font:([^;]+);", theme.PAGE_CSS).group(1)
    assert f'"{font}"' in stack and stack.strip().endswith("sans-serif")
    assert stack.replace(" ", "").startswith("Helvetica,Arial,")  # Bokeh's Latin faces: English text does not move
    body = re.search(r"body\{[^}]*font-family:([^;]+);", theme.PAGE_CSS).group(1)
    assert f'"{font}"' in body  # the loader's lines, outside every pane


def chinese_charts():
    from app.exact.chart import DistributionChart
    from app.payoff.candidates import CandidatesView
    from app.payoff.chart import WidthChart
    from app.payoff.model import PayoffModel
    yield from (DistributionChart().fig, WidthChart("t", "加速比").fig, CandidatesView(model=PayoffModel()).fig)


def test_no_chinese_axis_label_is_set_on_its_side():
    with i18n.use("zh"):
        for fig in chinese_charts():
            assert all(not axis.axis_label for axis in fig.left), fig
            assert any(re.search(CJK, title.text) for title in fig.above if title.text), fig
    from app.exact.chart import DistributionChart
    assert DistributionChart().fig.left[0].axis_label  # English reads well rotated
    d = core.position("biased", ())
    with i18n.use("zh"):  # the inspector's HTML charts name the axis upright above it, in every language
        word = i18n.t("step.chart.probability")
        shown = bars.chart_html(inspector.stack_chart(d))
    assert re.search(CJK, word) and f'<span class="bars-y-name" aria-hidden="true">{word}</span>' in shown


def test_the_chinese_key_of_the_candidates_chart_uses_full_width_brackets():
    from app.payoff.candidates import key_html
    with i18n.use("zh"):
        keys = key_html()
    assert "1 个候选（圆形）" in keys and " (" not in keys
    assert "1 candidate (circle)" in key_html()


def test_the_payoff_tab_gives_each_curve_mark_one_meaning():
    from app.payoff.candidates import LINES
    from app.payoff.chart import CURVES
    above = {name: (c["dash"], c["marker"]) for name, c in CURVES.items()}
    assert LINES[1][1:] == above["exact"]  # one candidate per position is the exact curve, drawn alike
    for k in (2, 3):
        dash, marker = LINES[k][1:]
        taken = {d for d, _ in above.values()} | {"dashdot", "dotdash"}  # dash-dot is the 1× line of ordinary decoding
        assert dash not in taken and marker not in {m for _, m in above.values()}, k


def test_diagonal_hatching_means_the_corrections_everywhere():
    from app.exact.chart import DistributionChart
    patterns = {r.glyph.hatch_pattern for r in DistributionChart().fig.renderers} - {None}
    assert patterns and not {p for p in patterns if "diagonal" in str(p)}
    assert "hatched" not in CATALOGUES["en"]["exact.keys.rows"] and "斜线" not in CATALOGUES["zh"]["exact.keys.rows"]


# ---- slider titles: BokehJS writes "title: value" with an ASCII colon --------------------------

def _slider_names():
    import panel as pn
    from app.guesses.model import GuessesModel
    from app.guesses.views import Controls
    from app.step.model import StepModel
    from app.step.views import Scenario
    scenario, controls = Scenario(model=StepModel()), Controls(model=GuessesModel())
    sliders = (scenario.width, scenario.threshold, controls.candidates, controls.width)
    assert all(isinstance(s, (pn.widgets.IntSlider, pn.widgets.DiscreteSlider)) for s in sliders)
    return [s.name for s in sliders]


def test_no_chinese_slider_title_gets_bokehs_ascii_colon():
    """In Chinese the field label above names the slider; its own title would read "每块的 token 数: 3"."""
    with i18n.use("zh"):
        names = _slider_names()
    assert names == ["", "", "", ""]
    assert all(_slider_names())  # English keeps "Tokens per block: 3"


# ---- a draw is below 1: never "1.0000" ------------------------------------------------------------

# Draws that 4 places round to 1.0000 (found by sweeping): the first test of aligned, width 2, seed
# 1804 (u = 0.99997) and a correction of biased, width 3, seed 2281.
ROUNDS_TO_ONE = (("aligned", 2, 1804), ("biased", 3, 2281))


def test_a_draw_is_shown_below_one_with_enough_digits():
    assert display.draw(F(1, 2)) == "0.5000"
    assert display.draw(F(4294853735, 2**32)) == "0.99997"
    assert display.draw(F(2**32 - 1, 2**32)).startswith("0.99999999")


def test_no_tab_or_trace_shows_a_draw_of_one():
    from app.exact.model import ExactModel
    from app.exact.views import TraceComparison
    from app.step.model import StepModel
    for draft, width, seed in ROUNDS_TO_ONE:
        session = core.Session.start(core.Config(draft, width, seed)).run_to_end()
        assert any(display.dec(d.u, 4) == "1.0000" for d in session.trace().draws())  # the case is there
        assert "u=1.0000" not in session.trace().to_text()  # the CLI's trace
        exact = ExactModel(session_model=StepModel(draft=draft, width=width, seed=seed), runs=1_000)
        exact._set(trace=session)  # what activate() computes: the first tab's trace, run to the end
        table = TraceComparison(model=exact)._html(exact.trace)
        assert "1.0000" not in table, (draft, width, seed)
        for block in session.blocks:
            for x in block.proposals:
                if x.u_draft is not None:
                    assert "1.0000" not in inspector._u(x.u_draft)
    assert "u=1.0000" not in TreeSession.start("biased", 3, 2, 1370).run_to_end().trace().to_text()
