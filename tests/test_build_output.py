"""build.py's output, file by file, and the built app's Python in Pyodide under Node.

One build per session (``build_support/real_site.py``): ``--pyodide-url`` points at a
local Pyodide 0.29.3 with the real compiled packages, served on 127.0.0.1.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from build_support.real_site import RealSite, real_site
from build_support.servers import free_port
from pyodide_runner import ROOT, run_in_pyodide

sys.path.insert(0, str(ROOT))
from sitebuild.probe import example_location  # noqa: E402
from app import urlstate  # noqa: E402

EXAMPLE = "?draft=biased&width=3&seed=1"
PYODIDE_VERSION = "0.29.3"
# What Panel's metadata would pull in, and the page must never fetch.
NEVER_FETCHED = ("pandas", "panel-material-ui", "panel_material_ui", "bleach", "micropip", "tornado")


@pytest.fixture(scope="module")
def built() -> RealSite:
    return real_site()


def js_config(text: str) -> dict:
    match = re.search(r"^\s*const CONFIG = (\{.*?^\s*\});$", text, re.S | re.M)
    assert match, "no CONFIG object"
    return json.loads(match.group(1))


def wheel(built: RealSite, name: str) -> Path:
    entry = next(w for w in built.packages["wheels"] if w["name"].lower() == name)
    return built.out / entry["file"]


def test_build_info_lists_exactly_the_files_on_disk(built):
    listed = {f["path"] for f in built.info["files"]}
    on_disk = {p.relative_to(built.out).as_posix() for p in built.out.rglob("*") if p.is_file()}
    assert on_disk - listed == {"build-info.json"} and listed <= on_disk


def test_the_given_pyodide_url_is_the_one_the_page_loads(built):
    config = js_config(built.text("worker.js"))
    url = built.pyodide.url + "pyodide/pyodide.js"
    assert config["pyodideURL"] == url and config["pyodideIndexURL"] == url[:-len("pyodide.js")]
    assert built.packages["pyodide"] == {"version": PYODIDE_VERSION, "url": url}
    assert "jsdelivr" not in "".join(built.text(n) for n in ("worker.js", "loader.js", "index.html"))


def test_the_worker_holds_no_python_and_calls_the_protocol_module(built):
    worker = built.text("worker.js")
    config = js_config(worker)
    assert "code" not in config
    assert 'pyimport("app.worker_protocol")' in worker
    for call in ("start", "link", "apply_patch", "set_location", "missing_packages"):
        assert re.search(rf"\b{call}\b", worker), call
    assert "import " not in re.sub(r'pyimport\("app\.worker_protocol"\)', "", worker.split("const CONFIG")[1])
    # The packages to download at once, the same as packages.json lists.
    assert config["packages"]["from_pyodide"] == built.packages["from_pyodide"]
    assert config["packages"]["wheels"] == [{"name": w["name"], "version": w["version"]}
                                            for w in built.packages["wheels"]]
    # Their files come in one download, the bundle.
    assert config["packages"]["bundle"] == built.packages["bundle"]["file"] == "python.tar.gz"


def test_our_wheel_holds_our_code_and_the_worker_protocol(built):
    ours = [w for w in built.packages["wheels"] if w["name"] == "specstep"]
    assert len(ours) == 1
    path = built.out / ours[0]["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == ours[0]["sha256"]
    assert not ours[0]["file"].startswith(("/", "http")), "installed from a relative URL"
    names = zipfile.ZipFile(path).namelist()
    for package in ("core", "toy_tables", "app"):
        # Byte-compiled in place, without the sources (a first visit downloads no copy of them).
        modules = sorted(p.relative_to(ROOT).with_suffix(".pyc").as_posix() for p in (ROOT / package).rglob("*.py")
                         if "__pycache__" not in p.parts)
        assert modules and set(modules) <= set(names), f"{package} missing from the wheel"
        assert not [n for n in names if n.startswith(f"{package}/") and n.endswith(".py")]
    assert "app/worker_protocol.pyc" in names
    assert any(n.startswith("app/styles/") and n.endswith(".css") for n in names)
    assert built.info["specstep"]["wheel"] == ours[0]["file"]


def page_urls(built: RealSite) -> list[str]:
    """Every URL index.html loads: scripts, links, and the stylesheets of the pre-rendered document."""
    html = built.text("index.html")
    urls = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    docs = re.search(r'<script type="application/json" id="[^"]+">\s*(.*?)\s*</script>', html, re.S)
    assert docs, "no pre-rendered document in index.html"
    sheets = re.findall(r'"name":"ImportedStyleSheet","id":"[^"]+","attributes":\{"url":"([^"]+)"', docs.group(1))
    assert sheets, "the pre-rendered document has no stylesheets"
    return urls + sheets


def test_every_url_the_page_loads_is_here_and_the_scripts_name_only_pyodide(built):
    urls = page_urls(built)
    assert any(u.startswith("bokeh/bokeh-") for u in urls) and any(u.endswith("panel.min.js") for u in urls)
    for url in urls:
        assert not re.match(r"^[a-z]+:|^//", url), f"index.html loads {url} from elsewhere"
        assert (built.out / unquote(url.split("?")[0].split("#")[0])).is_file(), f"{url} is not in the build"
    pyodide_url = built.packages["pyodide"]["url"]
    allowed = {pyodide_url, pyodide_url.rsplit("/", 1)[0] + "/", re.match(r"https?://[^/]+", pyodide_url).group(0)}
    for name in ("worker.js", "loader.js", "serviceWorker.js", "embed.html"):
        absolute = set(re.findall(r"https?://[^\s\"'`<>)\\]+", built.text(name)))
        assert absolute <= allowed, f"{name} names {absolute - allowed}"


def test_bokeh_extensions_no_view_uses_are_left_out(built):
    scripts = re.findall(r'<script[^>]*src="(bokeh/[^"]+)"', built.text("index.html"))
    assert not [s for s in scripts if "bokeh-gl" in s]
    assert any("bokeh-tables" in s for s in scripts), "panel.min.js needs bokeh-tables at load"
    assert built.info["bokeh_extensions_left_out"] == ["bokeh-gl"]
    assert not (built.out / "bokeh" / "bokeh-gl-3.9.2.min.js").exists()


def test_the_page_installs_exactly_the_listed_packages_and_nothing_panel_would_pull_in(built):
    packages = built.packages
    lock = json.loads((ROOT / "sitebuild/npm/node_modules/pyodide/pyodide-lock.json").read_text())["packages"]
    names = [p["name"] for p in packages["from_pyodide"]] + [w["name"].lower() for w in packages["wheels"]]
    for bad in NEVER_FETCHED:
        assert bad not in names
    assert sorted(p["name"] for p in packages["from_pyodide"]) == ["markupsafe", "nh3", "numpy", "pyodide-http",
                                                                    "pyyaml"]
    for entry in packages["from_pyodide"]:
        assert lock[entry["name"]]["version"] == entry["version"]
        assert lock[entry["name"]]["file_name"] == entry["file_name"]
    assert "panel" in names and "bokeh" in names
    assert "micropip" not in built.text("worker.js")
    for wheel_entry in packages["wheels"]:
        assert (built.out / wheel_entry["file"]).stat().st_size == wheel_entry["bytes"]
    bundle = built.out / packages["bundle"]["file"]
    assert bundle.stat().st_size == packages["bundle"]["bytes"]
    assert hashlib.sha256(bundle.read_bytes()).hexdigest() == packages["bundle"]["sha256"]


def test_slim_wheels_leave_out_the_js_and_css_the_page_loads_separately(built):
    panel = zipfile.ZipFile(wheel(built, "panel")).namelist()
    bokeh = zipfile.ZipFile(wheel(built, "bokeh")).namelist()
    assert not [n for n in panel if n.startswith("panel/dist/")]
    assert not [n for n in bokeh if n.startswith("bokeh/server/static/")]
    for kept in ("panel/package.json", "panel/_templates/base.html", "panel/layout/flexbox.html",
                 "panel/theme/css/default.css"):
        assert kept in panel, kept
    assert any(n.startswith("bokeh/core/_templates/") for n in bokeh)
    # PyPI's panel 1.9.4 wheel is 30.3 MB, bokeh 3.9.2's 6.4 MB (DESIGN.md).
    assert wheel(built, "panel").stat().st_size < 3_000_000
    assert wheel(built, "bokeh").stat().st_size < 2_000_000


def test_slim_wheels_leave_out_modules_the_page_never_imports(built):
    panel = zipfile.ZipFile(wheel(built, "panel")).namelist()
    bokeh = zipfile.ZipFile(wheel(built, "bokeh")).namelist()
    packaging = zipfile.ZipFile(wheel(built, "packaging")).namelist()
    for gone in ("panel/io/server.pyc", "panel/command/__init__.pyc", "panel/auth.pyc"):
        assert gone not in panel, gone
    assert not [n for n in bokeh if n.startswith(("bokeh/server/views/", "bokeh/command/", "bokeh/sampledata/"))]
    # What the page does import stays, packages whose submodules went included.
    for kept in ("panel/io/pyodide.pyc", "panel/io/state.pyc", "panel/io/cache.pyc"):
        assert kept in panel, kept
    for kept in ("bokeh/server/__init__.pyc", "bokeh/application/application.pyc"):
        assert kept in bokeh, kept
    assert "packaging/version.pyc" in packaging and "packaging/specifiers.pyc" not in packaging


def test_a_module_the_slim_wheels_leave_out_stops_the_build_if_the_app_imports_it():
    from sitebuild.project import BuildError
    from sitebuild.wheels import check_left_out
    check_left_out(["panel", "panel.io.state", "bokeh.server", "packaging.version"])
    with pytest.raises(BuildError, match="panel.io.server, which the slim wheels leave out"):
        check_left_out(["panel.io.state", "panel.io.server"])


def test_the_site_hosts_pyodides_standard_library_without_what_the_page_never_imports(built):
    from sitebuild.npm_pyodide import pyodide_dir
    config = js_config(built.text("worker.js"))
    assert config["stdLibURL"] == "python_stdlib.zip"
    assert "stdLibURL: here(CONFIG.stdLibURL)" in built.text("worker.js")
    ours = zipfile.ZipFile(built.out / "python_stdlib.zip")
    names = set(ours.namelist())
    release = zipfile.ZipFile(pyodide_dir() / "python_stdlib.zip")
    assert names < set(release.namelist())
    for name in names:
        assert ours.read(name) == release.read(name), name
    moved = stdlib_in_bundle(built)
    for gone in ("xml/__init__.py", "pdb.py", "encodings/cp1250.py", "encodings/big5.py", "optparse.py", "_pyio.py"):
        assert gone not in names and gone not in moved, gone
    for kept in ("encodings/utf_8.py", "encodings/cp437.py", "zipfile/__init__.py", "asyncio/__init__.py",
                 "pyodide/__init__.py",
                 "tarfile.py"):  # Pyodide's package loader imports tarfile (the probe does not see it)
        assert kept in names, kept
    info = built.info["python_stdlib"]
    assert info["bytes"] == (built.out / "python_stdlib.zip").stat().st_size < 0.5 * info["from_bytes"]
    assert "python_stdlib.zip" in built.text("serviceWorker.js").split("const PRECACHE")[1].split(";")[0]


def stdlib_in_bundle(built: RealSite) -> dict[str, bytes]:
    """The bundle's files of the standard library, by their name in the zip (a .pyc as its .py)."""
    from sitebuild.bundle import read_bundle
    files = read_bundle(built.out / "python.tar.gz")
    prefix = "lib/python3.13/"
    return {(name[len(prefix):-1] if name.endswith(".pyc") else name[len(prefix):]): data
            for name, data in files.items() if name.startswith(prefix) and "/site-packages/" not in "/" + name}


def test_each_module_of_the_standard_library_is_in_the_zip_or_the_bundle_and_never_both(built):
    from sitebuild import stdlib
    from sitebuild.npm_pyodide import pyodide_dir
    zipped = set(zipfile.ZipFile(built.out / "python_stdlib.zip").namelist())
    moved = stdlib_in_bundle(built)
    release = zipfile.ZipFile(pyodide_dir() / "python_stdlib.zip")
    files = [n for n in release.namelist() if not n.endswith("/") and not stdlib.left_out(n)]
    assert {n for n in files if (n in zipped) == (n in moved)} == set()
    assert set(moved) <= set(files)
    # The app's modules, compiled: the page imports them without compiling (email, http,
    # urllib... which Python does not import at start-up).
    compiled = {n for n, data in moved.items() if data[:4] != release.read(n)[:4]}
    for name in ("email/utils.py", "http/client.py", "urllib/parse.py", "uuid.py", "html/__init__.py"):
        assert name in compiled, name
    assert len(compiled) >= 60
    for name in compiled:
        assert int.from_bytes(moved[name][4:8], "little") == 0b01, name  # PEP 552: unchecked hash
    # What Python imports before the bundle is unpacked stays in the zip.
    for name in ("asyncio/base_events.py", "json/decoder.py", "tarfile.py", "gzip.py", "pyodide/_package_loader.py",
                 "zipfile/__init__.py", "pathlib/_local.py", "shutil.py"):
        assert name in zipped and name not in moved, name
    info = built.info["python_stdlib"]
    assert info["entries_moved_compiled"] == len(compiled)
    assert info["entries_moved_compiled"] + info["entries_moved_source"] == len(moved)


def test_third_party_wheels_are_byte_compiled_by_pyodide_without_sources(built):
    import importlib.util

    magics = set()
    for entry in built.packages["wheels"]:
        if entry["name"] == "specstep":
            continue
        with zipfile.ZipFile(built.out / entry["file"]) as whl:
            names = whl.namelist()
            assert not [n for n in names if n.endswith(".py")], entry["name"]
            pycs = [n for n in names if n.endswith(".pyc")]
            assert pycs, entry["name"]
            for name in pycs:
                header = whl.read(name)[:16]
                magics.add(header[:4])
                assert int.from_bytes(header[4:8], "little") == 0b01, name  # PEP 552: unchecked hash
    assert len(magics) == 1 and magics != {importlib.util.MAGIC_NUMBER}


def test_wheel_records_match_their_contents(built):
    for entry in built.packages["wheels"]:
        with zipfile.ZipFile(built.out / entry["file"]) as whl:
            record_name = next(n for n in whl.namelist() if n.endswith(".dist-info/RECORD"))
            rows = [line.split(",") for line in whl.read(record_name).decode().splitlines() if line]
            assert {row[0] for row in rows} == set(whl.namelist())
            for path, digest, size in rows:
                if path == record_name:
                    continue
                data = whl.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={expected}" and int(size) == len(data), path


def test_the_page_is_a_progressive_web_app_whose_service_worker_fetches_the_page_once(built):
    html = built.text("index.html")
    assert '<link rel="manifest" href="site.webmanifest">' in html
    manifest = built.json("site.webmanifest")
    assert manifest["start_url"] == "./index.html" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (built.out / icon["src"]).is_file()
    worker = built.text("serviceWorker.js")
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", worker, re.S).group(1))
    assert "index.html" in precache and "worker.js" in precache
    assert "./" not in precache, "the page once, under one name"
    for path in precache:
        assert (built.out / unquote(path)).is_file(), path
    assert built.info["build_id"] in worker


def test_the_loader_knows_the_timeout_and_the_pre_rendered_scenario(built):
    config = js_config(built.text("loader.js"))
    assert config["loadTimeoutMs"] == 30000
    # The defaults, written the way a link writes them (so a new URL setting needs no edit here).
    assert config["prerendered"] == {prop.name: prop.format(urlstate.DEFAULTS[prop.name]) for prop in urlstate.PROPS}
    assert config["prerendered"]["draft"] == "aligned" and config["prerendered"]["seed"] == "0"
    assert 'class="pn-loading' not in built.text("index.html"), "Panel's spinner would cover the preview"


def test_embed_page_shows_the_snippet_for_the_example_scenario(built):
    import html as html_lib

    from app.embed.snippet import snippet as app_snippet

    page = built.text("embed.html")
    assert f'<iframe id="example" src="index.html{EXAMPLE}"' in page
    shown = html_lib.unescape(re.search(r'<pre id="snippet"><code>(.*?)</code></pre>', page, re.S).group(1))
    assert shown == app_snippet("index.html" + EXAMPLE)


def test_build_info_names_the_versions_and_every_file(built):
    import bokeh
    import panel

    info = built.info
    assert info["panel"] == panel.__version__ and info["bokeh"] == bokeh.__version__
    assert info["pyodide"]["version"] == PYODIDE_VERSION
    for entry in info["files"]:
        assert (built.out / entry["path"]).stat().st_size == entry["bytes"], entry["path"]
    assert info["total_bytes"] == sum(f["bytes"] for f in info["files"])


def test_the_build_runs_the_app_as_the_worker_does_and_clicks_through_it(built):
    probe = built.info["probe"]
    assert probe["actions"] > 20
    assert {"panel", "bokeh", "param", "core", "app"} <= set(probe["modules"])
    assert not set(probe["modules"]) & {"pandas", "tornado", "panel_material_ui"}


def test_serve_prints_the_url_and_serves_the_folder_on_127_0_0_1(built):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; "
                                "from sitebuild.serve import serve; serve(Path(sys.argv[1]), int(sys.argv[2]))",
                                str(built.out), str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        line = process.stdout.readline()
        url = f"http://127.0.0.1:{port}/index.html"
        assert line.startswith("Serving") and url in line, line + process.stderr.read()
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200 and response.headers["Cache-Control"] == "no-cache"
            assert b'src="loader.js"' in response.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


# ---- Pyodide 0.29.3 under Node --------------------------------------------------------

CASES = [("aligned", 3, 0), ("biased", 3, 1), ("biased", 4, 7), ("aligned", 1, 42)]


@pytest.mark.pyodide
def test_our_wheel_installs_into_pyodide_and_core_gives_cpython_traces(built):
    import core

    script = (f"import json, sys\nimport core\nprint(json.dumps({{'file': core.__file__}}))\n"
              f"for case in {CASES!r}:\n    print(json.dumps(core.simulate(*case).to_json()))\n")
    out = run_in_pyodide(script, mounts=(), wheels=[wheel(built, "specstep")]).splitlines()
    assert json.loads(out[0])["file"].startswith("/lib/python3.13/site-packages/core/")
    assert out[1:] == [json.dumps(core.simulate(*case).to_json()) for case in CASES]


@pytest.mark.pyodide
def test_the_worker_protocol_starts_the_built_app_in_real_pyodide_and_a_click_is_one_patch(built):
    wheels = [built.out / w["file"] for w in built.packages["wheels"]]
    names = [p["name"] for p in built.packages["from_pyodide"]]
    script = (ROOT / "tests" / "pyodide" / "worker_protocol_check.py").read_text()
    started = time.monotonic()
    out = run_in_pyodide(script, mounts=(), wheels=wheels, index_url=built.pyodide_folder, load=names,
                         args=(json.dumps(example_location()), "Draft"), timeout=300)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, out[-2000:]
    report = json.loads(lines[-1])
    assert "error" not in report, report.get("error")
    assert report["python"].startswith("3.13") and report["numpy_works"] == 6
    assert report["versions"]["panel"] == built.info["panel"] and report["versions"]["numpy"] == "2.2.5"
    assert len(report["root_ids"]) == built.text("index.html").count("data-root-id=")
    # Read from the dist-info folders' names: the version importlib.metadata reads from the METADATA.
    assert report["missing"] == f"numpy 0.0 (found {report['versions']['numpy']}), no-such-dist 1.0 (found None)"
    assert report["imported"] == [], "start-up imported what the page never uses (sitebuild/lazy_bokeh.py)"
    assert report["button_found"]
    assert report["patches_before_idle"] == 1, "the click's changes go to the page as one patch"
    changed = "".join(report["patches"])
    assert "proposed" in changed, "the token strip did not show the proposal"
    assert "0.8" in changed, "the URL's scenario (biased: q(A) = 0.80) was set before the app was built"
    assert time.monotonic() - started < 300
