"""What web/loader.js knows, written by the build: its words from app/i18n, its URL table from app/urlstate.

The loader runs before Python, so it cannot call ``t`` or ``Prop.parse``; instead the build
hands it, in its CONFIG, the catalogue's ``loader.*`` sentences in both languages (with what
the build already knows filled in: the download's host, the "keeps trying" sentence) and
``urlstate.PROPS`` as data. loader.js holds no sentence and no parsing rule of its own: a
word, a setting or a valid value changes here, in the catalogue or in PROPS, never in JS.
"""

from __future__ import annotations

import re

# The loader's problems (the worker's failure stages and the time limits' names) and their catalogue keys.
PROBLEMS = ("runtime", "timeout", "slow-start", "slow-packages", "slow-app", "packages", "app", "browser", "sandbox")
STEPS = ("start", "packages", "app")  # the steps after the download, in order
# Scenario settings whose values have names in the reader's language (catalogue key per value).
NAMED = {"draft": lambda value: f"step.draft_name.{value}", "schedule": lambda value: f"loader.schedule_name.{value}"}
SUBJECT = "seed"  # the placeholder names a link's scenario by its seed, the rest after "with"
FIELD = re.compile(r"\{(\w+)\}")


def _fill(template: str, **known) -> str:
    """The template with the fields the build knows filled in; the loader fills the others (same {name} form)."""
    if "{{" in template or "}}" in template:
        raise ValueError(f"a loader template cannot escape braces: {template!r}")
    return FIELD.sub(lambda m: str(known[m.group(1)]) if m.group(1) in known else m.group(0), template)


def words(lang: str, host: str | None) -> dict:
    """The loader's words in ``lang``: whole sentences, with {fields} the loader fills at run time."""
    from app import i18n, urlstate

    cat = i18n.CATALOGUES[lang]
    word = lambda key, **known: _fill(cat[key], **known)  # noqa: E731
    still = cat["loader.still_trying"]
    problems = {}
    for kind in PROBLEMS:
        name = kind.replace("-", "_")
        what = (word(f"loader.problem.{name}.what.host", host=host) if host else word(f"loader.problem.{name}.what.site")) \
            if kind == "runtime" else word(f"loader.problem.{name}.what")
        problems[kind] = {"what": what, "todo": word(f"loader.problem.{name}.todo", still=still)}
    scenario = {}
    for prop in urlstate.PROPS:
        key = f"loader.scenario.{prop.name}"
        if key not in cat:  # a setting the loader has no phrase for yet: its name and value
            scenario[prop.name] = {"text": word("loader.scenario.other", name=prop.name)}
            continue
        entry = {"text": word(key)}
        if prop.name in NAMED:
            key_of = NAMED[prop.name]
            names = {value: cat[key_of(value)] for value in prop.choices if key_of(value) in cat}
            entry.update(names=names, other=word(f"loader.scenario.{prop.name}_other"))
        scenario[prop.name] = entry
    return {
        "steps": [word("loader.step.download.host", host=host) if host else word("loader.step.download.site"),
                  *(word(f"loader.step.{name}") for name in STEPS)],
        "step": word("loader.step"),
        "preview": word("loader.preview"),
        "previewLive": word("loader.preview_live"),
        "liveWait": word("loader.live_wait"),
        "reload": word("loader.reload"),
        "whatToDo": word("loader.what_to_do"),
        "details": word("loader.details"),
        "problemText": word("loader.problem_text"),
        "restPlaceholder": word("loader.rest.placeholder"),
        "restPreview": word("loader.rest.preview"),
        "restPreviewLive": word("loader.rest.preview_live"),
        "appearsLater": word("loader.appears_later"),
        "loading": word("loader.loading"),
        "appearsSoon": word("loader.appears_soon"),
        "scenario": scenario,
        "subject": SUBJECT,
        "phrase": {"subject": word("loader.scenario.subject"), "sep": word("loader.scenario.sep"),
                   "join": word("loader.scenario.join"), "with": word("loader.scenario.with")},
        "thisLanguage": word("loader.this_language"),
        "update": word("loader.update"),
        "updateReload": word("loader.update_reload"),
        "updateReloadLabel": word("loader.update_reload_label"),
        "later": word("loader.later"),
        "problems": problems,
        "workerStopped": word("loader.worker_stopped"),
        "poster": {"text": word("loader.poster.text"), "note": word("loader.poster.note"),
                   "start": word("loader.poster.start")},
    }


def all_words(host: str | None) -> dict:
    from app import i18n

    return {lang: words(lang, host) for lang in i18n.LANGUAGES}


def _spellings(prop) -> dict:
    """Every way of writing a choice that the loader accepts (lower case), each checked by ``prop.parse``.

    Finite on purpose: the loader may be stricter than Python (a link it cannot read gets the
    calm placeholder), never looser.
    """
    candidates = {}
    for choice in prop.choices:
        forms = {choice}
        if prop.kind == "threshold" and "." in choice:
            short = choice.rstrip("0")  # "0.50" -> "0.5"
            forms |= {short + "0" * n for n in range(4)}
            forms |= {form[1:] for form in forms if form.startswith("0.")}  # ".5"
        for form in forms:
            candidates[form] = choice
    spellings = {}
    for form, choice in sorted(candidates.items()):
        try:
            if prop.format(prop.parse(form)) == choice:
                spellings[form] = choice
        except ValueError:
            pass
    return spellings


def url_table() -> dict:
    """app/urlstate.py's PROPS as data, so the loader reads a link's values as the app does (or not at all)."""
    from app import i18n, urlstate

    props = []
    for p in urlstate.PROPS:
        row = {"name": p.name, "kind": p.kind, "default": p.format(p.default),
               "scenario": p.name in urlstate.SCENARIO_KEYS}
        if p.kind == "int":
            row.update(low=p.low, high=p.high)
        else:
            row["spellings"] = _spellings(p)
        props.append(row)
    return {"props": props, "maxChars": urlstate.MAX_CHARS, "languages": list(i18n.LANGUAGES),
            "defaultLanguage": i18n.DEFAULT}
