"""Which packages the page installs: compiled ones from the Pyodide release, pure-Python ones we ship.

Nothing is resolved from package metadata (Panel's would pull in pandas and
panel-material-ui): the page installs the distributions of the modules the app
was seen to import (``probe.py``), plus what Panel needs in Pyodide.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import re
import sys

from .probe import NOT_IN_PAGE
from .project import OUR_PACKAGES, BuildError, pyodide_version

# Needed in the page although the app never imports it: panel.io.pyodide
# imports pandas when pyodide_http is missing. From the Pyodide release.
ALWAYS_FROM_PYODIDE = ("pyodide-http",)


@dataclasses.dataclass(frozen=True)
class PyodidePackage:
    name: str
    version: str
    file_name: str


@dataclasses.dataclass(frozen=True)
class SelfHosted:
    dist: str  # distribution name as installed
    version: str


@dataclasses.dataclass(frozen=True)
class Plan:
    from_pyodide: tuple[PyodidePackage, ...]
    self_hosted: tuple[SelfHosted, ...]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def plan_packages(modules: dict[str, str], lock: dict) -> Plan:
    """Split the imported modules' distributions into Pyodide's compiled ones and pure-Python ones we ship.

    ``modules`` maps each imported top-level module to its file ("stdlib" for the standard library).
    """
    owners = importlib.metadata.packages_distributions()
    stdlib = set(sys.stdlib_module_names)
    dists, unknown = set(), []
    for module, origin in sorted(modules.items()):
        if module in stdlib or origin == "stdlib" or module in OUR_PACKAGES \
                or module.startswith("_") and module[1:] in stdlib:
            continue
        if module in NOT_IN_PAGE:
            raise BuildError(f"the app imports {module}, which the page cannot install: {NOT_IN_PAGE[module]}")
        names = owners.get(module)
        if names:
            dists.update(names)
        elif module.startswith("_") or module in {"cython_runtime", "sitecustomize", "usercustomize", "__mp_main__"}:
            continue  # extension-module helpers and interpreter internals
        else:
            unknown.append(module)
    if unknown:
        raise BuildError(f"cannot tell which package provides the imported module(s) {', '.join(sorted(unknown))}")
    dists.discard("specstep")
    packages = lock["packages"]
    from_pyodide, self_hosted = {}, []

    def add_from_pyodide(name):
        entry = packages[name]
        if name not in from_pyodide:
            from_pyodide[name] = PyodidePackage(name, entry["version"], entry["file_name"])
            for dep in entry.get("depends", []):
                add_from_pyodide(canonical(dep))

    for dist_name in sorted(dists, key=canonical):
        dist = importlib.metadata.distribution(dist_name)
        compiled = any(str(f).endswith((".so", ".pyd")) for f in dist.files or ())
        if compiled:
            key = canonical(dist_name)
            if key not in packages:
                raise BuildError(f"{dist_name} has compiled code and is not in the Pyodide {pyodide_version()} release")
            add_from_pyodide(key)
        else:
            self_hosted.append(SelfHosted(dist.metadata["Name"], dist.version))
    for name in ALWAYS_FROM_PYODIDE:
        add_from_pyodide(name)
    clash = {canonical(s.dist) for s in self_hosted} & set(from_pyodide)
    self_hosted = [s for s in self_hosted if canonical(s.dist) not in clash]
    return Plan(tuple(sorted(from_pyodide.values(), key=lambda p: p.name)),
                tuple(sorted(self_hosted, key=lambda s: canonical(s.dist))))
