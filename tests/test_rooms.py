"""Each package holds what its name says, and imports run one way (ARCHITECTURE.md; issue 25 item 5).

Read from the source (every ``import``, at the top of a module or inside a function), so
a test fails the day a module reaches into a room it should not: ``toy_tables`` <- ``core``
<- ``app``; no tab package imports another tab package (``app/main.py`` wires them); the
page around the tabs (``app/page``) and the embed form (``app/embed``) import no tab; the
shared helpers (``app/parts.py``) are the one home of an HTML pane and of a part built
when first needed.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
# A tab is a package with a model and views (app/step, app/exact, ...): found, not listed.
TABS = sorted(p.name for p in APP.iterdir() if (p / "model.py").is_file() and (p / "views.py").is_file())
SHARED = ("parts", "theme", "i18n", "urlstate", "fast_update", "fast_defaults", "fast_import", "worker_protocol")


def module_name(path):
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports(path):
    """Every module ``path`` imports, relative imports resolved (``from . import x`` gives ``pkg.x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            if node.module:
                base = [*base, *node.module.split(".")]
            found.add(".".join(base))
            found.update(".".join([*base, alias.name]) for alias in node.names)  # `from pkg import module`
    return found


def sources(folder):
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def reaches(path, package):
    return sorted(name for name in imports(path) if name == package or name.startswith(package + "."))


def test_the_tab_packages_are_found():
    assert set(TABS) >= {"step", "exact", "payoff", "guesses"}


@pytest.mark.parametrize("folder, allowed", [("toy_tables", {"toy_tables"}), ("core", {"core", "toy_tables"})])
def test_the_lower_floors_import_only_the_standard_library_and_the_floors_below(folder, allowed):
    for path in sources(folder):
        for name in imports(path):
            top = name.split(".")[0]
            assert top in allowed or top in sys.stdlib_module_names, f"{path.relative_to(ROOT)} imports {name}"


@pytest.mark.parametrize("tab", TABS)
def test_no_tab_package_imports_another_tab_package(tab):
    for path in sources(f"app/{tab}"):
        for other in TABS:
            if other != tab:
                assert not reaches(path, f"app.{other}"), f"{path.relative_to(ROOT)} imports app.{other}"


@pytest.mark.parametrize("room", ["page", "embed", *SHARED])
def test_the_page_the_embed_form_and_the_shared_helpers_import_no_tab(room):
    paths = sources(f"app/{room}") if (APP / room).is_dir() else [APP / f"{room}.py"]
    assert paths
    for path in paths:
        for tab in TABS:
            assert not reaches(path, f"app.{tab}"), f"{path.relative_to(ROOT)} imports app.{tab}"


def test_the_shared_helpers_do_not_import_the_page_or_the_embed_form():
    for room in SHARED:
        paths = sources(f"app/{room}") if (APP / room).is_dir() else [APP / f"{room}.py"]
        for path in paths:
            assert not reaches(path, "app.page") and not reaches(path, "app.embed"), path.relative_to(ROOT)


def definitions(pattern):
    """(module, name) of every top-level function or class in app/ whose name ``pattern`` accepts."""
    found = []
    for path in sources("app"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and pattern(node.name):
                found.append((module_name(path), node.name))
    return found


def test_one_html_pane_helper_and_one_lazy_mechanism_both_in_parts():
    assert definitions(lambda name: name == "html") == [("app.parts", "html")]
    assert definitions(lambda name: "lazy" in name.lower() or name == "built_when_shown") == [
        ("app.main", "lazy_tab"), ("app.parts", "Lazy"), ("app.parts", "built_when_shown")]
    lazy_panes = [module_name(p) for p in sources("app") if "lazy=True" in p.read_text(encoding="utf-8")]
    assert lazy_panes == ["app.parts"]


def test_one_draft_name_for_every_tab_in_parts():
    """A draft's name in a sentence is said the same way by every tab."""
    assert definitions(lambda name: name == "draft_name") == [("app.parts", "draft_name")]


def test_the_page_chrome_and_the_guide_live_where_their_names_say():
    assert (APP / "page" / "page.js").is_file() and (APP / "page" / "layout.js").is_file()
    assert (APP / "step" / "guide.py").is_file() and (APP / "step" / "presets.py").is_file()
    assert not {p.name for p in (APP / "embed").iterdir()} & {"page.js", "layout.js", "jump.js", "guide.py",
                                                               "page.py", "links.py"}
    assert not (APP / "exact" / "common.py").exists()
