"""Payoff benchmark: prints figures, never fails on time.

    .venv/bin/python bench/bench_payoff.py

The CPU time of ``python -m core payoff --schedule heuristic`` requests (issue 24 item 8),
each in a fresh process (nothing cached), for the lookup draft (its heuristic chain has
216 states; at temperature 1/4 its answers have about 2,000-digit denominators) and the
biased draft, at a short cost and at a 37-digit one: the cost's digits cost nothing, the
chain is everything. Before the state reduction broke ties by denominator size, the
lookup draft at T = 1/4 took about 7 s of CPU on the reference machine.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG = "1/" + "9" * 37
PROBE = """
import resource, sys, time
from core.cli import main
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
usage = resource.getrusage(resource.RUSAGE_SELF)
print(status, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def main():
    print(f"{'request':<70} {'CPU s':>7} {'peak MB':>8}")
    for draft in ("lookup", "biased"):
        for temperature in ("1", "1/2", "1/3", "1/4"):
            for cost in ("1/9", LONG):
                argv = ["payoff", "--draft", draft, "--schedule", "heuristic", "--temperature", temperature,
                        "--cost", cost]
                done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True)
                status, cpu, peak = done.stdout.split()
                label = " ".join(argv[1:]).replace(LONG, "1/9…9 (37 nines)")
                print(f"{label:<70} {float(cpu):>7.2f} {int(peak) / 1024:>8.1f}" + ("" if status == "0" else "  FAILED"))


if __name__ == "__main__":
    main()
