"""Every sentence of "Several guesses at once", as pure functions of ``core.tree`` records.

One whole sentence per situation, in the catalogues (``app/i18n``, keys
``guesses.*``) in the page's language; nothing here reads the page or the
model, and no probability is computed: numbers are fields of ``core`` records,
formatted with ``core.display``. (The "Several candidates per position"
section of "When it pays off" has its own, ``app/payoff/candidates_words.py``.)
The module's constants (``LABELS``, ``STATUS``, ...) are read through
``__getattr__`` so they follow the page's language.
"""

from core.display import draw, exact_or_dec, versus

from ..i18n import t
from ..parts import draft_name

ACTIONS = ("draft", "verify", "commit", "step", "run_block", "reset")
PHASES = ("draft", "verify", "commit")
STATUSES = ("text", "proposed", "accepted", "rejected", "discarded", "correction", "bonus")
STATUS_MARKS = {"text": "●", "proposed": "?", "accepted": "✓", "rejected": "✗", "discarded": "–",
                "correction": "↺", "bonus": "★"}
COUNTER_FIELDS = ("target_passes", "draft_steps", "committed", "accepted", "rejected", "discarded")


def _n(n):
    return "one" if n == 1 else "other"


def count(n, noun):
    """``count(1, "candidate") == "1 candidate"``, ``count(3, "node") == "3 nodes"`` (in the page's language)."""
    return t(f"guesses.count.{noun}.{_n(n)}", n=n)


def tokens(seq):
    seq = tuple(seq)
    return " ".join(seq) if seq else t("step.tokens.nothing")


def scenario(draft, candidates, width, seed):
    return t("guesses.scenario", draft=draft_name(draft), candidates=count(candidates, "candidate"), width=width,
             seed=seed, nodes=count(_size(candidates, width), "node"))


def _size(k, width):
    return sum(k ** d for d in range(1, width + 1))


def scenario_changed(draft, candidates, width, seed):
    return t("guesses.scenario_changed", scenario=scenario(draft, candidates, width, seed))


def not_possible(action, error):
    return t("step.not_possible", action=t(f"step.label.{action}"), error=error)


def cannot_run(error):
    return t("step.cannot_run", error=error)


def drafted(block):
    return t("guesses.drafted", nodes=count(len(block.nodes), "node"), candidates=count(block.candidates, "candidate"),
             levels=count(block.depth, "level"))


def verified(block):
    accepted, rejected, discarded = (block.count(s) for s in ("accepted", "rejected", "discarded"))
    path = tokens(block.nodes[i].token for i in block.path)
    if block.correction is not None:
        end = t("guesses.verified.correction", position=len(block.path) + 1, token=block.correction.token)
    elif block.bonus is not None:
        end = t("guesses.verified.bonus", token=block.bonus.token)
    else:
        end = t("guesses.verified.full")
    return t("guesses.verified", path=path, accepted=count(accepted, "node"), rejected=count(rejected, "rejected"),
             discarded=count(discarded, "discarded"), end=end)


def committed(block, output_len, limit):
    text = t("guesses.committed", tokens=tokens(block.committed), holds=count(output_len, "token"))
    if output_len >= limit:
        text += t("guesses.committed.limit", limit=limit)
    return text


def next_words(phase):
    return t(f"guesses.next.{phase}")


def block_state(block, pending):
    if not block.verified:
        return t("guesses.state.drafted", tree=block.index + 1)
    return t("guesses.state.verified" if pending else "guesses.state.committed", tree=block.index + 1)


def status_name(status):
    return t(f"guesses.status.{status}")


def node_label(node):
    """The picker's line for one node."""
    return t("guesses.node_label", id=node.id + 1, token=node.token, depth=node.depth, slot=node.slot + 1,
             status=status_name(node.status))


def position_words(node, siblings):
    return t("guesses.position", depth=node.depth, prefix=tokens(node.prefix), candidates=count(len(siblings), "candidate"))


def test_words(node):
    """One candidate's test, in a sentence."""
    fields = dict(slot=node.slot + 1, token=node.token)
    if node.status == "proposed":
        return t("guesses.test.waits", **fields)
    if not node.tested:
        return t("guesses.test.untested", **fields)
    u, chance = versus(node.u, node.accept_probability)  # digits enough that "u < chance" looks as true as it is
    return t("guesses.test.accepted" if node.status == "accepted" else "guesses.test.rejected", **fields,
             r=exact_or_dec(node.r_x), q=exact_or_dec(node.q_x), chance=chance, u=u)


def correction_words(correction):
    return t("guesses.correction", token=correction.token, u=draw(correction.u))


def residual_note(rule):
    return t("guesses.residual.exact" if rule == "exact" else "guesses.residual.wrong")


def counter_names():
    """(field of the counters, label, what it counts)."""
    return tuple((name, t(f"guesses.counter.{name}"), t(f"guesses.counter.{name}.what")) for name in COUNTER_FIELDS)


def per_pass(counters):
    if not counters.target_passes:
        return t("guesses.per_pass.none")
    return t("guesses.per_pass", tokens=exact_or_dec(counters.tokens_per_pass),
             draft=exact_or_dec(counters.draft_tokens_per_pass))


_CONSTANTS = {
    "TITLE": lambda: t("tab.guesses"),
    "INTRO": lambda: t("guesses.intro"),
    "LABELS": lambda: {action: t(f"step.label.{action}") for action in ACTIONS},
    "TOOLTIPS": lambda: {action: t(f"guesses.tooltip.{action}") for action in ACTIONS},
    "HELP": lambda: {name: t(f"guesses.help.{name}") for name in ("draft", "candidates", "width", "seed")},
    "STATUS": lambda: {s: (STATUS_MARKS[s], status_name(s), t(f"guesses.status.{s}.what")) for s in STATUSES},
    "START": lambda: t("guesses.start"),
    "RESET": lambda: t("step.reset"),
    "BROKEN": lambda: t("step.broken"),
    "NO_NODE": lambda: t("guesses.no_node"),
    "SAME_AS_ONE": lambda: t("guesses.same_as_one"),
    "COUNTER_NAMES": counter_names,
}


def __getattr__(name):
    """The module's word constants, in the page's language (``words.LABELS``, ``words.STATUS``, ...)."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
