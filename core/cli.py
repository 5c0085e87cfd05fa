"""``python -m core``: traces, one-position checks, exact distributions, payoff.

Bad arguments print one line on stderr and exit with status 2; the
engine's own errors (ConfigError, ValueError) are reported the same way.
Every number is read by ``core.numbers`` (bounded, exact) once argparse has
split the arguments, so no argument can hang the program or end in a traceback.
"""

import argparse
import os
import sys

from . import batch, display, exact, payoff, rulecard, tree, tree_exact, typical
from .config import DRAFTS, MAX_OUTPUT, MAX_SEED, MAX_TOKENS, MAX_WIDTH, ConfigError
from .numbers import parse_fraction, parse_int
from .rule import decompose, parse_distribution
from .drafts import ALL_DRAFTS, KINDS as DRAFT_KINDS
from .schedule import SCHEDULES
from .session import simulate
from .tables import AUTHORED
from .tables_text import MAX_TEXT, notes, parse_rows
from .transform import MAX_TOP_K, TRANSFORM_AT, Transform, parse_temperature, parse_top_k
from .variants import ALL_VARIANTS


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def whole(low, high):
    return lambda text, name: parse_int(text, name=name, low=low, high=high)


def fraction(low, high):
    return lambda text, name: parse_fraction(text, name=name, low=low, high=high)


def distribution(text, name):
    try:
        return parse_distribution(text)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


# How each number argument is read, by its argparse dest; argparse itself keeps the text.
NUMBERS = {
    "width": whole(1, MAX_WIDTH),
    "seed": whole(0, MAX_SEED),
    "max_tokens": whole(1, MAX_OUTPUT),
    "length": whole(1, MAX_TOKENS),
    "lookahead": fraction(0, 1),
    "cost": fraction(0, payoff.MAX_COST),
    "temperature": lambda text, name: parse_temperature(text, name),
    "top_k": lambda text, name: parse_top_k(text, name),
    "candidates": whole(1, tree.MAX_CANDIDATES),
    "p": distribution,
    "q": distribution,
    "batch": whole(1, batch.MAX_BATCH),
    "saturation": whole(1, batch.MAX_SATURATION),
}


def read_numbers(args):
    for dest, read in NUMBERS.items():
        text = getattr(args, dest, None)
        if text is not None:
            setattr(args, dest, read(text, "--" + dest.replace("_", "-")))
    args.tables = read_tables(args)
    return args


def table_text(given, option):
    """The text of ``--target`` / ``--q``: the file it names (one row a line), else the rows themselves."""
    if os.path.isfile(given):
        try:
            with open(given, encoding="utf-8") as f:
                text = f.read(MAX_TEXT + 1)  # never more than a table can be: a long file is refused, not read
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"{option} {given}: cannot read the file ({e.__class__.__name__})") from None
        return "\n".join(line.split("#")[0].strip() for line in text.strip().splitlines())
    return given


def read_tables(args):
    """The scenario's tables from ``--target`` and ``--q`` (``core.tables_text``); the authored ones without them."""
    target, q = getattr(args, "target_table", None), getattr(args, "q_table", None)
    if target is None and q is None:
        return AUTHORED
    target_rows = None if target is None else parse_rows(table_text(target, "--target"), "target")
    q_rows = None if q is None else parse_rows(table_text(q, "--q"), "q")
    return AUTHORED.replace(target_rows, q_rows)


def table_notes(args):
    """What is allowed but worth saying about the draft's table on this scenario's target (stderr)."""
    kind = DRAFT_KINDS.get(getattr(args, "draft", None))
    if kind is None or not kind.has_table or args.tables is AUTHORED:
        return ()
    return tuple(n.message.replace("the q table", f"the {kind.name} draft's table", 1) if kind.source != "q"
                 else n.message for n in notes(args.tables, kind.table_in(args.tables)))


def build_parser():
    parser = Parser(prog="python -m core", description="Exact speculative sampling on toy A/B/C tables.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def tables(p):
        p.add_argument("--target", dest="target_table", default=None, metavar="FILE|ROWS",
                       help="the target's table: four rows (empty prefix, after A, after B, after C) separated by ; "
                            "(in a file: one a line), three entries each for A, B, C separated by commas, decimals or "
                            "fractions: .5,.3,.2;.2,.6,.2;.55,.15,.3;.25,.25,.5. An empty or omitted row keeps the "
                            "authored one. Every draft runs on it (aligned is this target, heads its powers)")
        p.add_argument("--q", dest="q_table", default=None, metavar="FILE|ROWS",
                       help="the custom draft's table (--draft custom), written like --target; "
                            "omitted rows keep the biased draft's")

    def scenario(p, width=True):
        p.add_argument("--draft", choices=ALL_DRAFTS, required=True,
                       help="; ".join(f"{k.name} ({k.summary})" for k in DRAFT_KINDS.values()))
        tables(p)
        if width:
            p.add_argument("--width", required=True, help=f"draft length per block, 1 to {MAX_WIDTH}"
                                                          " (with --schedule heuristic: the first block's)")
            p.add_argument("--schedule", choices=SCHEDULES, default="fixed",
                           help="fixed: every block drafts --width; heuristic (Hugging Face assisted "
                                f"generation): +2 after a fully accepted block, else -1, from 1 to {MAX_WIDTH}")
        p.add_argument("--variant", choices=tuple(ALL_VARIANTS) + ("against-p",), default="exact",
                       help="the rule; against-p (with --candidates: every candidate tested against p itself "
                            "instead of the updated residual) is the tempting wrong tree rule")
        p.add_argument("--lookahead", default=None,
                       help="dynamic lookahead, from 0 to 1 (e.g. 0.3 or 1/3): "
                            "stop drafting after a proposal with q(x) below this")
        p.add_argument("--temperature", default=None,
                       help="T = 1, 1/2, 1/3 or 1/4 (0.5 and 0.25 work too): rows become p**(1/T), renormalised")
        p.add_argument("--top-k", default=None,
                       help=f"keep the K most likely tokens, 1 to {MAX_TOP_K}, renormalised; "
                            "ties go to the earlier token (A before B before C)")
        p.add_argument("--transform-at", choices=TRANSFORM_AT, default=None,
                       help="where temperature and top-k apply: both (exact for the transformed target), "
                            "target (still exact, only the speed changes) or draft (verification uses the raw "
                            "target: the output no longer follows the transformed target); default both")

    def candidates(p):
        p.add_argument("--candidates", default=None,
                       help=f"K, 1 to {tree.MAX_CANDIDATES}: a tree with K candidates per position, each drawn "
                            "independently from q, verified one after another against the current residual "
                            f"(SpecInfer); with K > 1 the width is at most {tree.MAX_TREE_WIDTH}. Draft tables only")

    t = sub.add_parser("trace", help="run one scenario and print its trace")
    scenario(t)
    candidates(t)
    t.add_argument("--seed", required=True, help=f"0 to 2**64 - 1 = {MAX_SEED}")
    t.add_argument("--max-tokens", default=str(MAX_TOKENS), help=f"output length, 1 to {MAX_OUTPUT}")
    form = t.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true")
    form.add_argument("--markdown", action="store_true")
    form.add_argument("--timeline", action="store_true", help="every moment (Next step by Next step) and the "
                      "ordinary-decoding lane; with --cost c, the time of each lane too")
    t.add_argument("--cost", default=None, help=f"with --timeline: c, one draft step's cost, 0 to {payoff.MAX_COST}")

    c = sub.add_parser("check", help="decompose one position: accepted mass, rejection, residual, final")
    c.add_argument("--p", required=True, help="target row, e.g. 0.6,0.3,0.1 or 1/3,1/3,1/3; it must sum to exactly 1")
    c.add_argument("--q", required=True, help="draft row, e.g. 0.2,0.5,0.3")

    e = sub.add_parser("exact", help="exact distribution of the first K tokens against the target's")
    scenario(e)
    candidates(e)
    e.add_argument("--length", required=True, help=f"K, 1 to {MAX_TOKENS}")

    p = sub.add_parser("payoff", help="tokens per target pass and time per token for widths 1 to 8")
    scenario(p, width=False)
    p.add_argument("--schedule", choices=SCHEDULES, default="fixed",
                   help="heuristic adds the heuristic schedule's long-run row (exact; slow for lookup)")
    p.add_argument("--cost", required=True,
                   help=f"c: one draft step's cost relative to one target pass, from 0 to {payoff.MAX_COST} "
                        "(0 is a free draft, 1 a draft as slow as the target; e.g. 0.1 or 1/20)")

    r = sub.add_parser("card", help="one rule beside the exact one: distance from the target and how much it keeps")
    r.add_argument("--variant", choices=tuple(ALL_VARIANTS), required=True)
    r.add_argument("--draft", choices=DRAFTS, default="biased")
    r.add_argument("--width", default="3", help=f"draft length per block, 1 to {MAX_WIDTH}")
    r.add_argument("--length", default="3", help=f"K, the first K tokens compared, 1 to {MAX_TOKENS}")
    tables(r)

    b = sub.add_parser("batch", help="speculation in a batch: a pass over b*(w+1) positions costs max(1, b*(w+1)/s)")
    b.add_argument("--draft", choices=batch.BATCH_DRAFTS, required=True)
    b.add_argument("--cost", required=True, help=f"c, one draft step's cost in target passes, 0 to {payoff.MAX_COST}")
    b.add_argument("--batch", required=True, help=f"b, requests per batch, 1 to {batch.MAX_BATCH}")
    b.add_argument("--saturation", required=True,
                   help=f"s, positions per pass at which the target becomes compute-bound, 1 to {batch.MAX_SATURATION}")
    tables(b)
    return parser


def transform(args):
    temperature = 1 if args.temperature is None else args.temperature
    return Transform(temperature, args.top_k, args.transform_at or "both")


def refuse_ignored(args):
    """An option the command would accept and then not use is refused, in one line:
    the output must never look as if it answered something it did not (issue 24)."""
    command = args.command
    if command in ("trace", "exact", "payoff") and args.transform_at is not None \
            and args.temperature is None and args.top_k is None:
        raise ValueError("--transform-at says where --temperature and --top-k apply: give one of them too")
    if command == "payoff":
        if args.variant != "exact":
            raise ValueError(f"payoff's figures are for the exact rule: --variant {args.variant} applies to "
                             "trace and exact only")
        if args.schedule == "heuristic" and args.lookahead is not None:
            raise ValueError("--schedule heuristic does not combine with --lookahead in payoff (its heuristic "
                             "row drafts without lookahead): give one of them")
    return args


def tree_args(args):
    """The tree rule, or None for the one-candidate engine; refuses what trees do not combine with."""
    if args.candidates is None:
        if args.variant == "against-p":
            raise ValueError("--variant against-p is a tree rule: give --candidates K too")
        return None
    if args.variant not in tree.RULES:
        raise ValueError(f"--candidates works with --variant {' or '.join(tree.RULES)}, not {args.variant}")
    extras = [name for name, on in (("--lookahead", args.lookahead is not None), ("--schedule", args.schedule != "fixed"),
                                    ("--temperature", args.temperature is not None), ("--top-k", args.top_k is not None),
                                    ("--transform-at", args.transform_at is not None)) if on]
    if extras:
        raise ValueError(f"--candidates does not combine with {', '.join(extras)}")
    tree.check(args.draft, args.candidates, args.width, args.variant)
    return args.variant


def run_timeline(args, rule=None, shape=None):
    """``trace --timeline``: the moments of the scenario's trace (a tree's with ``rule``), then both lanes."""
    from .config import Config
    from .ordinary import lanes
    from .session import Session
    from .timeline import Timeline
    if rule is not None:
        start = tree.TreeSession.start(args.draft, args.candidates, args.width, args.seed, args.max_tokens, rule,
                                       args.tables)
    else:
        start = Session.start(Config(args.draft, args.width, args.seed, args.max_tokens, args.variant, args.lookahead,
                                     args.schedule, shape.temperature, shape.top_k, shape.at, args.tables))
    timeline = Timeline.of(start)
    return timeline.to_text() + "\n" + lanes(timeline, args.cost).to_text()


def run_tree_trace(args, rule):
    if args.timeline:
        return run_timeline(args, rule)
    trace = tree.simulate_tree(args.draft, args.width, args.seed, args.candidates, args.max_tokens, rule, args.tables)
    if args.json:
        return trace.to_json()
    if args.markdown:
        raise ValueError("--markdown is not written for trees yet: use --json or the text form")
    return trace.to_text()


def run_tree_exact(args, rule):
    c = tree_exact.compare(args.draft, args.width, args.length, args.candidates, rule, tables=args.tables)
    lines = [f"first {c.k} tokens, {c.draft} draft, width {c.width}, {c.candidates} candidates per position, "
             f"{tree.RULE_TITLES[rule]}", "",
             f"{'tokens':<{c.k + 2}} {'target':>24} {'this rule':>24}"]
    for seq in sorted(set(c.target) | set(c.result)):
        lines.append(f"{''.join(seq):<{c.k + 2}} {str(c.target.get(seq, 0)):>24} {str(c.result.get(seq, 0)):>24}")
    lines.append("")
    lines.append(f"total-variation distance: {c.distance}" + ("" if not c.distance else f" ≈ {float(c.distance):.6f}"))
    lines.append("equal: yes" if not c.distance else f"equal: no (first differs at k = {c.first_departure})")
    return "\n".join(lines)


def run_trace(args):
    if args.cost is not None and not args.timeline:
        raise ValueError("--cost goes with --timeline (the lanes' time axis)")
    rule = tree_args(args)
    # One candidate under the exact rule is Algorithm 1: today's trace in every form (the tree
    # engine gives the same JSON byte for byte, tests/test_tree.py).
    if rule is not None and (args.candidates, rule) != (1, "exact"):
        return run_tree_trace(args, rule)
    t = transform(args)
    if args.timeline:
        return run_timeline(args, shape=t)
    trace = simulate(args.draft, args.width, args.seed, args.max_tokens, args.variant, args.lookahead, args.schedule,
                     t.temperature, t.top_k, t.at, args.tables)
    if args.json:
        return trace.to_json()
    return trace.to_markdown() if args.markdown else trace.to_text()


def run_check(args):
    d = decompose(args.p, args.q)
    lines = [
        f"p                      [{display.row(d.p)}]",
        f"q                      [{display.row(d.q)}]",
        f"accepted min(p, q)     [{', '.join(map(str, d.accepted))}]",
        f"rejection 1 - sum      {d.rejection}",
        f"residual               [{', '.join(map(str, d.residual))}]" + ("  (nothing is ever rejected)" if not d.rejection else ""),
        f"final = accepted + rejection * residual = [{', '.join(map(str, d.final))}]",
        f"equals p exactly: {d.final == d.p}",
        "",
    ]
    return "\n".join(lines + display.seed_lines(d))


def run_exact(args):
    rule = tree_args(args)
    if rule is not None:
        return run_tree_exact(args, rule)
    t = transform(args)
    c = exact.compare(args.draft, args.width, args.length, args.variant, lookahead=args.lookahead,
                      schedule=args.schedule, transform=t, tables=args.tables)
    title = f"first {c.k} tokens, {c.draft} draft, width {c.width}, variant {c.variant}"
    if args.lookahead is not None:
        title += f", lookahead {args.lookahead}"
    if c.schedule != "fixed":
        title += f", {c.schedule} schedule"
    if not t.identity:
        title += (f", temperature {t.temperature}" + ("" if t.top_k is None else f", top-k {t.top_k}")
                  + f" applied to {t.at}; the target column is the transformed target")
    lines = [title, "",
             f"{'tokens':<{c.k + 2}} {'target':>24} {'this rule':>24}"]
    for seq in sorted(set(c.target) | set(c.result)):
        lines.append(f"{''.join(seq):<{c.k + 2}} {str(c.target.get(seq, 0)):>24} {str(c.result.get(seq, 0)):>24}")
    lines.append("")
    lines.append(f"total-variation distance: {c.distance}" + ("" if not c.distance else f" ≈ {float(c.distance):.6f}"))
    lines.append("equal: yes" if not c.distance else f"equal: no (first differs at k = {c.first_departure})")
    if c.distance and not t.identity and not t.on_target:
        lines.append("the draft was transformed but verification used the raw target, so the output follows the "
                     "raw target, not the transformed one asked for")
    if c.variant == "greedy":
        lines.append(f"equals greedy target decoding: {'yes' if c.greedy_equal else 'no'}")
    return "\n".join(lines)


def run_payoff(args):
    t = transform(args)
    table = payoff.payoff_table(args.draft, args.cost, args.lookahead, transform=t, tables=args.tables)
    a = table.rows[0].alpha
    ahead = "" if args.lookahead is None else f", lookahead {args.lookahead}"
    lines = [f"{args.draft} draft{ahead}, draft step cost c = {args.cost}; algorithmic expectations, not measured latency",
             f"alpha (average sum of min(p, q)) = {a} ≈ {float(a):.4f}" if a is not None else
             "alpha: none (the closed form needs one untransformed draft table)", "",
             "width  tokens/pass exact  closed form   time/token exact  closed form"]
    for r in table.rows:
        closed = "-" if r.closed_tokens_per_pass is None else f"{float(r.closed_tokens_per_pass):.4f}"
        closed_t = "-" if r.closed_time_per_token is None else f"{float(r.closed_time_per_token):.4f}"
        mark = "  <- best" if r.width == table.best_width else ""
        lines.append(f"{r.width:>5}  {float(r.tokens_per_pass):>17.4f}  {closed:>11}   {float(r.time_per_token):>16.4f}  "
                     f"{closed_t:>11}{mark}")
    if args.schedule == "heuristic":
        h = payoff.heuristic_payoff(args.draft, args.cost, transform=t, tables=args.tables)
        lines += ["", f"heuristic schedule (+2 after a full acceptance, else -1): tokens/pass "
                      f"{float(h.tokens_per_pass):.4f}, time/token {float(h.time_per_token):.4f}, "
                      f"average width {float(h.mean_width):.4f}"]
    return "\n".join(lines)


def _exactly(x, digits=4):
    return f"{x}" if x.denominator == 1 else f"{x} ≈ {float(x):.{digits}f}"


def run_card(args):
    c = rulecard.rule_card(args.variant, args.draft, args.width, args.length, args.tables)
    v = ALL_VARIANTS[c.variant]
    lines = [f"{v.title}: variant {c.variant}, {c.draft} draft, width {c.width}, first {c.k} tokens", v.summary, "",
             f"total-variation distance from the target: {_exactly(c.distance, 6)}"
             + ("" if c.first_departure is None else f" (first differs at k = {c.first_departure})"),
             f"kept proposals / proposals, long run: {_exactly(c.kept_share)}; exact rule: {_exactly(c.exact_kept_share)}",
             f"tokens per target pass, long run: {_exactly(c.tokens_per_pass)}; "
             f"exact rule: {_exactly(c.exact_tokens_per_pass)}",
             "one proposal kept, by last token: " + ", ".join(
                 f"{last or 'empty prefix'} {c.kept_after[last]} (exact {c.exact_kept_after[last]})" for last in c.kept_after)]
    if c.variant == "typical":
        lines.append(f"parameters: epsilon {typical.PAPER.epsilon}, delta {typical.PAPER.delta} "
                     "(vLLM's defaults); on three tokens epsilon always binds")
    if c.sources:
        lines.append("shipped or proposed in: " + ", ".join(f"{repo}#{number}" for repo, number in c.sources))
    return "\n".join(lines)


def run_batch(args):
    t = batch.batch_table(args.draft, args.cost, args.batch, args.saturation, tables=args.tables)
    first = t.rows[0]
    lines = [f"{args.draft} draft, c = {first.cost}, batch b = {args.batch}, compute-bound at s = {args.saturation} "
             "positions per pass; algorithmic expectations, not measured latency",
             f"ordinary decoding: {_exactly(first.ordinary_throughput)} tokens per pass's time "
             f"(at most {first.ordinary_capacity})", "",
             "width  pass cost  speedup/request  tokens/pass-time  ceiling (any b)"]
    for r in t.rows:
        mark = "  <- best" if r.width == t.best_width else ""
        lines.append(f"{r.width:>5}  {float(r.target_pass_time):>9.4f}  {float(r.speedup):>15.4f}  "
                     f"{float(r.throughput):>16.4f}  {float(r.capacity):>15.4f}{mark}")
    if not t.pays_off:
        lines += ["", "no width beats ordinary decoding in this batch"]
    return "\n".join(lines)


def main(argv=None):
    try:
        args = refuse_ignored(read_numbers(build_parser().parse_args(argv)))
        out = {"trace": run_trace, "check": run_check, "exact": run_exact, "payoff": run_payoff,
               "card": run_card, "batch": run_batch}[args.command](args)
    except (UsageError, ConfigError, ValueError) as e:
        print(f"python -m core: error: {e}", file=sys.stderr)
        return 2
    for note in table_notes(args):
        print(f"python -m core: note: {note}", file=sys.stderr)
    print(out)
    return 0
