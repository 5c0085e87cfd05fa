"""Every sentence of "Several guesses at once", as pure functions of ``core.tree`` records.

One whole sentence per situation (so a translation can move each into a
catalogue as it stands); nothing here reads the page or the model, and no
probability is computed: numbers are fields of ``core`` records, formatted
with ``core.display``. Also the sentences of the "Several candidates per
position" section of "When it pays off" (``app/payoff/candidates.py``).
"""

from core.display import dec, exact_or_dec

TITLE = "Several guesses at once"

INTRO = ("Instead of one guess per position, the draft can offer several candidates, each drawn on its own "
         "from q, and keep guessing after each of them: a tree. One target pass scores every node. The verifier "
         "then walks down from the root and tests the candidates at a position one after another. The trick that "
         "keeps the output exact: after a rejection, the next candidate is tested against what is still missing, "
         "the residual r = norm(max(r − q, 0)), not against p again.")

LABELS = {
    "draft": "Draft",
    "verify": "Verify",
    "commit": "Commit",
    "step": "Next step",
    "run_block": "Run block",
    "reset": "Reset",
}
PHASES = ("draft", "verify", "commit")

TOOLTIPS = {
    "draft": "Draw the whole tree from the draft: at every position, the candidates after each node.",
    "verify": "One target pass scores every node; then the candidates are tested from the root down.",
    "commit": "Append the accepted branch, plus the correction or the bonus token, to the output.",
    "step": "Do whichever of Draft, Verify or Commit comes next.",
    "run_block": "Finish the current tree: Draft, Verify and Commit as needed.",
    "reset": "Empty the output and start this scenario again from its first draw.",
}

HELP = {
    "draft": "Aligned: the draft equals the target, so the first candidate is always accepted. "
             "Biased: the draft strongly favours A.",
    "candidates": "How many candidates the draft offers after each node (k).",
    "width": "How many positions deep the tree goes.",
    "seed": "Fixes every random draw: the same seed always gives the same tree.",
}

# Status -> (mark, name, what it means). The mark and the shape say it without colour.
STATUS = {
    "text": ("●", "text so far", "the committed text the tree grows from"),
    "proposed": ("?", "proposed", "drafted, not yet tested"),
    "accepted": ("✓", "accepted", "passed its test: the walk continues from it"),
    "rejected": ("✗", "rejected", "failed its test: the residual is updated"),
    "discarded": ("–", "discarded", "never tested: its branch was not taken"),
    "correction": ("↺", "correction", "drawn from the last residual after every candidate failed"),
    "bonus": ("★", "bonus", "drawn from p after a leaf was accepted"),
}

START = "Nothing has happened yet: the output is empty and no tree has been drafted."
RESET = "The trace was reset: the output is empty and the counters are zero."
BROKEN = ("Something went wrong inside the widget, so that click was ignored and the trace was left as it "
          "was. Reset or reload the page to continue.")
NO_NODE = "Draft a tree, then pick a node to see its test."
SAME_AS_ONE = ("With one candidate per position the tree is a single chain, and this is exactly the first tab's "
               "Algorithm 1, draw for draw.")


def count(n, noun, plural=None):
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def tokens(seq):
    seq = tuple(seq)
    return " ".join(seq) if seq else "nothing"


def scenario(draft, candidates, width, seed):
    return (f"The {draft} draft, {count(candidates, 'candidate')} per position, width {width}, seed {seed}: "
            f"a tree of {count(_size(candidates, width), 'node')}.")


def _size(k, width):
    return sum(k ** d for d in range(1, width + 1))


def scenario_changed(draft, candidates, width, seed):
    return "The scenario changed, so the trace started over. " + scenario(draft, candidates, width, seed)


def not_possible(action, error):
    return f"{LABELS[action]} is not possible right now. {error}"


def cannot_run(error):
    return f"That scenario cannot run: {error}."


def drafted(block):
    return (f"The draft drew a tree of {count(len(block.nodes), 'node')}: {count(block.candidates, 'candidate')} "
            f"after each node, {count(block.depth, 'level')} deep. Nothing is output yet.")


def verified(block):
    accepted, rejected, discarded = (block.count(s) for s in ("accepted", "rejected", "discarded"))
    path = tokens(block.nodes[i].token for i in block.path)
    if block.correction is not None:
        end = (f"Every candidate at position {len(block.path) + 1} was rejected, so the correction "
               f"{block.correction.token} was drawn from the last residual.")
    elif block.bonus is not None:
        end = f"A leaf was accepted, so the bonus token {block.bonus.token} was drawn from p."
    else:
        end = "A leaf was accepted and the output is full, so there is no bonus token."
    return (f"One target pass scored the tree. Accepted branch: {path} ({count(accepted, 'node')} accepted, "
            f"{count(rejected, 'rejected', 'rejected')}, {count(discarded, 'discarded', 'discarded')}). {end}")


def committed(block, output_len, limit):
    text = f"Committed {tokens(block.committed)}: the output now holds {count(output_len, 'token')}."
    if output_len >= limit:
        text += f" That is the limit of {limit}: the trace is finished."
    return text


def next_words(phase):
    return {
        "draft": "Next: Draft grows a tree of candidates.",
        "verify": "Next: Verify scores the tree in one target pass and tests it from the root.",
        "commit": "Next: Commit appends the accepted branch and the last token.",
        "done": "The output is full: Reset to start again.",
    }[phase]


def block_state(block, pending):
    if not block.verified:
        return f"tree {block.index + 1}: drafted, waiting for Verify"
    return f"tree {block.index + 1}: verified, waiting for Commit" if pending else f"tree {block.index + 1}: committed"


def node_label(node):
    """The picker's line for one node."""
    return (f"Node {node.id + 1}: {node.token} at position {node.depth}, candidate {node.slot + 1}, "
            f"{STATUS[node.status][1]}")


def position_words(node, siblings):
    return (f"Position {node.depth} of this tree, after {tokens(node.prefix)}: {count(len(siblings), 'candidate')} "
            f"were drawn here, each from the same q.")


def test_words(node):
    """One candidate's test, in a sentence."""
    n = f"Candidate {node.slot + 1} ({node.token})"
    if node.status == "proposed":
        return f"{n} waits for Verify."
    if not node.tested:
        return f"{n} was never tested: an earlier candidate here was accepted or the walk never reached here."
    verdict = "accepted" if node.status == "accepted" else "rejected"
    sign = "<" if node.status == "accepted" else "≥"
    return (f"{n} was tested against r(x) = {exact_or_dec(node.r_x)} with q(x) = {exact_or_dec(node.q_x)}: "
            f"accept with probability min(1, r(x)/q(x)) = {exact_or_dec(node.accept_probability)}; "
            f"u = {dec(node.u, 4)} {sign} {exact_or_dec(node.accept_probability)}, so it was {verdict}.")


def correction_words(correction):
    return (f"All candidates here were rejected: the correction {correction.token} was drawn from the last "
            f"residual with u = {dec(correction.u, 4)}.")


def residual_note(rule):
    if rule == "exact":
        return ("After each rejection the residual becomes norm(max(r − q, 0)): the next candidate is judged "
                "against what is still missing.")
    return ("This is the tempting wrong rule: every candidate is judged against p itself, so a second candidate "
            "gets a second chance at mass the first already had, and the output is no longer the target's.")


COUNTER_NAMES = (
    ("target_passes", "target passes", "one per tree: one pass scores every node"),
    ("draft_steps", "draft tokens spent", "every node of every tree, discarded ones included"),
    ("committed", "committed", "tokens in the output"),
    ("accepted", "accepted", "nodes that passed their test"),
    ("rejected", "rejected", "nodes that failed their test"),
    ("discarded", "discarded", "nodes never tested"),
)


def per_pass(counters):
    if not counters.target_passes:
        return "No tree has been committed yet."
    return (f"Tokens per target pass: {exact_or_dec(counters.tokens_per_pass)}, for "
            f"{exact_or_dec(counters.draft_steps / counters.target_passes)} draft tokens per pass.")


# ---- "When it pays off": several candidates per position ------------------------------

PAYOFF_TITLE = "Several candidates per position"
PAYOFF_INTRO = ("A tree with k candidates after every node keeps more tokens per target pass, but the draft "
                "has to produce every node: k + k² + … + k^width draft tokens per block, each costing c.")


def payoff_no_table(draft, tree_drafts):
    return (f"Several candidates per position are drawn from a draft table, and the {draft} draft has none: "
            f"pick {' or '.join(tree_drafts)} above to see this section's curves.")


def payoff_best(draft, cost, best):
    return (f"For the {draft} draft at c = {dec(cost)}, the best is {count(best.candidates, 'candidate')} per "
            f"position at width {best.width}: {dec(best.tokens_per_pass, 2)} tokens per target pass, "
            f"{best.draft_tokens} draft tokens per block, speedup {dec(best.speedup, 2)}×.")


def payoff_row(row):
    return (f"{count(row.candidates, 'candidate')}, width {row.width}: {dec(row.tokens_per_pass, 2)} tokens per pass, "
            f"{row.draft_tokens} draft tokens, speedup {dec(row.speedup, 2)}×")
