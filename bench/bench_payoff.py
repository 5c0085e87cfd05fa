"""Payoff benchmark: prints figures, never fails on time.

    .venv/bin/python bench/bench_payoff.py [--repeat 3]

The CPU time of ``python -m core payoff --schedule heuristic`` requests (issue 24 item 8),
each in a fresh process (nothing cached), the median of ``--repeat`` runs, for the lookup
draft (its heuristic chain has 216 states; at temperature 1/4 its answers have 2,092-digit
denominators) and the biased draft, at a short cost and at a 37-digit one: the cost's digits
cost nothing, the chain is everything. Then the stationary distribution alone on the lookup
draft's heuristic chains: state reduction over the rationals (``core.payoff.stationary``
until issue 24 item 8, kept in tests/test_markov.py) beside p-adic lifting (``core.markov``).

On the reference machine the lookup request at T = 1/4 took about 7 s of CPU before the state
reduction broke ties by denominator size, 3.8 s after, and 0.6 s with the lifting.
"""

import argparse
import statistics
import subprocess
import sys
import time
from math import lcm
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
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


def requests(repeat):
    print(f"{'request (median of ' + str(repeat) + ', fresh process each)':<70} {'CPU s':>7} {'peak MB':>8}")
    for draft in ("lookup", "biased"):
        for temperature in ("1", "1/2", "1/3", "1/4"):
            for cost in ("1/9", LONG):
                argv = ["payoff", "--draft", draft, "--schedule", "heuristic", "--temperature", temperature,
                        "--cost", cost]
                runs = []
                for _ in range(repeat):
                    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True,
                                          text=True)
                    status, cpu, peak = done.stdout.split()
                    runs.append((float(cpu), int(peak), status))
                cpu = statistics.median(r[0] for r in runs)
                peak = max(r[1] for r in runs)
                label = " ".join(argv[1:]).replace(LONG, "1/9…9 (37 nines)")
                failed = any(r[2] != "0" for r in runs)
                print(f"{label:<70} {cpu:>7.2f} {peak / 1024:>8.1f}" + ("  FAILED" if failed else ""))


def solvers():
    from core import markov
    from test_markov import long_run_chain, state_reduction

    print()
    print(f"{'lookup draft, heuristic schedule: stationary alone':<52} {'reduction s':>11} {'lifting s':>10}  same")
    for temperature in (1, Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)):
        chain, nodes = long_run_chain("lookup", 1, "heuristic", temperature)
        start = time.process_time()
        old = state_reduction(chain, nodes)
        middle = time.process_time()
        new = markov.stationary(chain, nodes)
        end = time.process_time()
        digits = len(str(lcm(*(x.denominator for x in new.values()))))
        label = f"T = {temperature} ({len(nodes)} states, a {digits:,}-digit denominator)"
        print(f"{label:<52} {middle - start:>11.2f} {end - middle:>10.2f}  {'yes' if old == new else 'NO'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    requests(args.repeat)
    solvers()


if __name__ == "__main__":
    main()
