"""What the "Why it is exact" and "When it pays off" tabs cost to build and to show, on CPython.

For each tab, in a fresh process each time (median of ``--repeat``): the
time to construct it as the page does (``Tab(session_model=model)``), and
the time of its first render (``activate()`` where it exists, then Bokeh's
``get_root``). With ``--before COMMIT`` the same for that commit's code
(``git archive`` into a temporary folder), side by side. Prints figures;
never fails on time.

    .venv/bin/python bench/bench_tabs.py --before 8672584
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import sys, time
import panel as pn
import bokeh.models
from bokeh.document import Document
from app.step.model import StepModel as Model
if sys.argv[2] == "packages":
    from app.exact import ExactTab
    from app.payoff import PayoffTab
else:  # the code before app/exact/ and app/payoff/ (an editable install would find today's packages)
    from app.exact_tab import ExactTab
    from app.payoff_tab import PayoffTab
cls = ExactTab if sys.argv[1] == "exact" else PayoffTab
model = Model()
pn.pane.HTML("warm up").get_root(Document())  # Panel's first-pane costs, paid by the first tab anyway
t0 = time.perf_counter()
tab = cls(session_model=model)
t1 = time.perf_counter()
plotting = "bokeh.plotting" in sys.modules
if hasattr(tab, "activate"):
    tab.activate()
pn.panel(tab).get_root(Document())
t2 = time.perf_counter()
print(1000 * (t1 - t0), 1000 * (t2 - t1), int(plotting))
"""


def measure(code_root, tab, repeat):
    runs = []
    for _ in range(repeat):
        layout = "packages" if (code_root / "app" / "exact" / "__init__.py").is_file() else "modules"
        out = subprocess.run([sys.executable, "-c", PROBE, tab, layout], cwd=code_root, capture_output=True, text=True,
                             env={"PYTHONPATH": str(code_root), "PATH": "/usr/bin:/bin"}, check=True)
        construct, render, plotting = out.stdout.split()
        runs.append((float(construct), float(render), plotting == "1"))
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[0][2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a commit to compare with (its code via git archive)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    roots = {"now": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if args.before:
            archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            roots = {"before": Path(tmp), "now": ROOT}
        print(f"{'tab':8s} {'code':7s} {'construct ms':>13s} {'first render ms':>16s}  bokeh.plotting at construct")
        for tab in ("exact", "payoff"):
            for name, root in roots.items():
                construct, render, plotting = measure(root, tab, args.repeat)
                print(f"{tab:8s} {name:7s} {construct:13.1f} {render:16.1f}  {'yes' if plotting else 'no'}")


if __name__ == "__main__":
    main()
