"""Engine benchmark: prints figures, never fails on time.

    .venv/bin/python bench/bench_engine.py [--seconds S]

1. Full 8-token traces per second, biased draft, width 3, over many seeds:
   `core.simulate` on CPython; the same loop in Pyodide 0.29.3 under Node
   (timed inside Python with time.perf_counter, boot reported apart); and a
   straightforward numpy implementation of Algorithm 1 (Leviathan et al.
   2023; the loop in shared/seeds/003_*.txt) on the same tables as floats,
   with the ratio core / numpy. Issue 2's targets: at least 20,000 traces/s
   on CPython, and faster than the numpy loop.
2. Traces per second for every draft (core.ALL_DRAFTS: aligned, biased,
   lookup, heads), width 3, fixed and heuristic schedule, on CPython (best
   of 8 rounds, CPU time); then the CPU time of each draft's heuristic
   schedule long run (the lookup draft's chain was ~2.8 s before the
   integer-row state reduction, ~1.1 s after).
3. Time to enumerate the exact 8-token output distribution
   (`core.exact.output_distribution`) for widths 1-8, both table drafts.
   Target: under 2 s in all.
"""

import argparse
import importlib
import json
import platform
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import core  # noqa: E402
import toy_tables  # noqa: E402
from pyodide_runner import PyodideScriptError, PyodideUnavailable, run_in_pyodide  # noqa: E402

DRAFT, WIDTH, MAX_TOKENS = "biased", 3, 8
TOKENS = toy_tables.TOKENS
ROW = {"": 3, **{t: i for i, t in enumerate(TOKENS)}}  # table row index by last token ("" = empty prefix)


# --- core -----------------------------------------------------------------

def core_rate(seconds):
    """Traces per second of core.simulate over consecutive seeds, and the first-token counts."""
    first = Counter()
    n, start = 0, time.perf_counter()
    while True:
        for seed in range(n, n + 500):
            first[core.simulate(DRAFT, WIDTH, seed).output[0]] += 1
        n += 500
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed, n, first


PYODIDE_SCRIPT = """
import json, sys, time
import core
seconds = float(sys.argv[1])
n, start = 0, time.perf_counter()
while True:
    for seed in range(n, n + 500):
        core.simulate({draft!r}, {width!r}, seed)
    n += 500
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
        break
print(json.dumps({{"n": n, "seconds": elapsed, "version": sys.version.split()[0]}}))
"""


def pyodide_rate(seconds):
    """(traces/s, n, boot+load seconds, Python version) in Pyodide, or a reason it could not run."""
    script = PYODIDE_SCRIPT.format(draft=DRAFT, width=WIDTH)
    start = time.perf_counter()
    try:
        out = json.loads(run_in_pyodide(script, args=(str(seconds),)))
    except (PyodideUnavailable, PyodideScriptError) as exc:
        return str(exc).splitlines()[0]
    wall = time.perf_counter() - start
    return out["n"] / out["seconds"], out["n"], wall - out["seconds"], out["version"]


# --- numpy: Algorithm 1 as in the seed's loop ---------------------------------

def float_table(table):
    """Rows A, B, C, "" of a toy table as a float array (the numpy side works in floats)."""
    return np.array([[float(x) for x in table.row(key)] for key in (*TOKENS, "")])


def numpy_trace(p_table, q_table, width, seed, max_tokens=MAX_TOKENS):
    """One 8-token output by speculative sampling with numpy floats (the seed's spec_decode_step, looped)."""
    rng = np.random.default_rng(seed)

    def sample(probs):
        return rng.choice(len(probs), p=probs)

    out = []
    while len(out) < max_tokens:
        last = out[-1] if out else 3
        # DRAFT: up to `width` tokens, never past the output limit.
        draft_probs, draft_tokens = [], []
        for _ in range(min(width, max_tokens - len(out))):
            probs = q_table[draft_tokens[-1] if draft_tokens else last]
            draft_probs.append(probs)
            draft_tokens.append(sample(probs))
        # VERIFY: target rows conditioned on prefix + draft_tokens[:i].
        target_probs = p_table[[last, *draft_tokens]]
        accepted = []
        for i, token in enumerate(draft_tokens):
            if rng.random() < min(1.0, target_probs[i][token] / draft_probs[i][token]):
                accepted.append(token)
            else:
                residual = np.maximum(target_probs[i] - draft_probs[i], 0)
                accepted.append(sample(residual / residual.sum()))
                break
        else:
            if len(out) + len(accepted) < max_tokens:
                accepted.append(sample(target_probs[len(draft_tokens)]))  # bonus
        out.extend(accepted)
    return out


def numpy_rate(seconds):
    p_table = float_table(toy_tables.target)
    q_table = float_table(toy_tables.drafts[DRAFT])
    first = Counter()
    n, start = 0, time.perf_counter()
    while True:
        for seed in range(n, n + 100):
            first[TOKENS[numpy_trace(p_table, q_table, WIDTH, seed)[0]]] += 1
        n += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed, n, first


def draft_rates(rounds=8, n=1_000):
    """{(draft, schedule): traces/s} of core.simulate, width 3, seeds 0..n-1: the best of ``rounds``
    rounds in CPU time (process_time), so other work on a shared machine counts as little as it can."""
    rates = {}
    for draft in core.ALL_DRAFTS:
        for schedule in ("fixed", "heuristic"):
            best = float("inf")
            for _ in range(rounds):
                start = time.process_time()
                for seed in range(n):
                    core.simulate(draft, WIDTH, seed, schedule=schedule)
                best = min(best, time.process_time() - start)
            rates[draft, schedule] = n / best
    return rates


def chain_times():
    """{draft: CPU seconds} for the heuristic schedule's exact long run (core.payoff.heuristic_payoff),
    from a cold cache: the chain over (draft state, width) and its stationary weights."""
    from core import payoff

    times = {}
    for draft in core.ALL_DRAFTS:
        payoff.chain.cache_clear()
        payoff.long_run.cache_clear()
        start = time.process_time()
        payoff.heuristic_payoff(draft, "0.1")
        times[draft] = time.process_time() - start
    return times


# --- exact enumeration --------------------------------------------------------

def exact_times():
    """{(draft, width): seconds} for the 8-token exact distribution, or a reason it could not run."""
    try:
        exact = importlib.import_module("core.exact")
        enumerate_ = exact.output_distribution
    except (ImportError, AttributeError) as exc:
        return f"core.exact.output_distribution not available ({exc})"
    times = {}
    for draft in core.DRAFTS:
        for width in range(1, core.MAX_WIDTH + 1):
            start = time.perf_counter()
            dist = enumerate_(draft, width, MAX_TOKENS)
            times[draft, width] = (time.perf_counter() - start, len(dist), sum(dist.values()) == 1)
    return times


# --- report -------------------------------------------------------------------

def shares(first, n):
    return " ".join(f"{t}={first[t] / n:.3f}" for t in TOKENS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each throughput figure")
    args = parser.parse_args()

    print(f"CPython {platform.python_version()}, numpy {np.__version__}; "
          f"draft={DRAFT} width={WIDTH} max_tokens={MAX_TOKENS}, consecutive seeds from 0")
    print()
    print(f"{'engine':<24}{'traces/s':>12}{'traces':>10}  first-token shares (target A=0.500 B=0.300 C=0.200)")

    c_rate, c_n, c_first = core_rate(args.seconds)
    print(f"{'core, CPython':<24}{c_rate:>12,.0f}{c_n:>10,}  {shares(c_first, c_n)}")

    py = pyodide_rate(args.seconds)
    if isinstance(py, str):
        print(f"{'core, Pyodide/Node':<24}{'n/a':>12}{'':>10}  {py}")
    else:
        p_rate, p_n, boot, version = py
        print(f"{'core, Pyodide/Node':<24}{p_rate:>12,.0f}{p_n:>10,}  "
              f"Python {version}; boot + load {boot:.2f} s; {p_rate / c_rate:.2f}x CPython")

    n_rate, n_n, n_first = numpy_rate(args.seconds)
    print(f"{'numpy Algorithm 1':<24}{n_rate:>12,.0f}{n_n:>10,}  {shares(n_first, n_n)}")
    print()
    print(f"core / numpy (CPython): {c_rate / n_rate:.1f}x   (issue 2 target: > 1x; core >= 20,000 traces/s)")

    print()
    print(f"traces/s per draft, core.simulate on CPython, width {WIDTH}, {MAX_TOKENS} tokens "
          f"(best of 8 rounds of 1,000 seeds, CPU time)")
    print(f"{'draft':<10}{'fixed':>10}{'heuristic':>12}")
    rates = draft_rates()
    for draft in core.ALL_DRAFTS:
        print(f"{draft:<10}{rates[draft, 'fixed']:>10,.0f}{rates[draft, 'heuristic']:>12,.0f}")

    print()
    print("heuristic schedule's exact long run (core.payoff.heuristic_payoff, cold cache), CPU seconds")
    for draft, seconds in chain_times().items():
        print(f"{draft:<10}{seconds:>8.2f}")

    print()
    times = exact_times()
    if isinstance(times, str):
        print(f"exact 8-token distributions: {times}")
        return
    sizes = sorted({size for _, size, _ in times.values()})
    print(f"exact 8-token distributions, seconds (core.exact.output_distribution; support size {sizes})")
    print(f"{'draft':<10}" + "".join(f"{'w=' + str(w):>8}" for w in range(1, core.MAX_WIDTH + 1)) + f"{'total':>9}")
    for draft in core.DRAFTS:
        row = [times[draft, w][0] for w in range(1, core.MAX_WIDTH + 1)]
        print(f"{draft:<10}" + "".join(f"{t:>8.3f}" for t in row) + f"{sum(row):>9.3f}")
    total = sum(t for t, _, _ in times.values())
    sums_ok = all(ok for _, _, ok in times.values())
    print(f"all {len(times)}: {total:.3f} s (target < 2 s); every distribution sums to 1: {sums_ok}")


if __name__ == "__main__":
    main()
