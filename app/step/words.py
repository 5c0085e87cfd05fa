"""Every sentence of "Step through a block", as pure functions of ``core`` records.

Nothing here reads the page or the model: each function takes records
(``core.Session``, ``core.Block``, ``core.Proposal``, ``core.Counters``, a
``core.Config``) and returns plain text, so every claim a sentence makes can
be tested against the records it describes. Views escape and lay it out.
Numbers are fields of the records, formatted with ``core.display``; counts
of tokens are counted here, probabilities never computed.
"""

from core import TOKENS
from core.display import dec, exact_or_dec
from core.drafts import lookup_match, next_q

LABELS = {
    "draft": "Draft",
    "verify": "Verify",
    "commit": "Commit",
    "step": "Next step",
    "run_block": "Run block",
    "run_to_end": "Run to end",
    "reset": "Reset",
}
PHASES = ("draft", "verify", "commit")

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

START = "Nothing has happened yet: the output is empty and no block has been drafted."
RESET = "The trace was reset: the output is empty and the counters are zero."
BROKEN = ("Something went wrong inside the widget, so that click was ignored and the trace was left as it "
          "was. Reset or reload the page to continue.")


def count(n, noun, plural=None):
    """``count(1, "token") == "one token"``; ``count(3, "token") == "three tokens"``."""
    word = NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)
    return f"{word} {noun if n == 1 else (plural or noun + 's')}"


def number(n):
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def ordinal(i):
    """Ordinal for a 0-based position: ``ordinal(0) == "first"``."""
    return ORDINALS[i] if 0 <= i < len(ORDINALS) else f"#{i + 1}"


def tokens(seq):
    seq = tuple(seq)
    return " ".join(seq) if seq else "nothing"


def plural(n, one, many):
    return one if n == 1 else many


def threshold(config):
    """The lookahead threshold as the controls show it ("0.50")."""
    return dec(config.lookahead)


# ---- the controls ----------------------------------------------------------------

HELP = {
    "draft": "Aligned: the draft uses the target's own table, so every guess is accepted. "
             "Biased: the draft strongly favours A, so the target has to correct it. "
             "Lookup: copies what followed the last token's most recent earlier occurrence in the text. "
             "Heads: extra heads on the target guess 1, 2, 3… tokens ahead at once.",
    "schedule": "Fixed: every block drafts the width above. Heuristic (Hugging Face's assisted generation): "
                "the first block uses the width above, then +2 after a block whose every guess was accepted, "
                "otherwise −1, always from 1 to 8.",
    "width": "How many tokens the draft guesses per block before the target checks them.",
    "seed": "Fixes every random draw: the same seed always gives the same trace.",
    "lookahead": "Stop drafting early when the draft is unsure of its own guess (its q(x) is below the "
                 "threshold), instead of always guessing the full width.",
}

TOOLTIPS = {
    "draft": "Ask the small draft model to guess the next tokens. They are proposals, not output.",
    "verify": "One pass of the big target model scores every proposal, then tests them left to right until "
              "one is rejected; the proposals after a rejection are discarded untested.",
    "commit": "Append the accepted tokens, plus the correction or bonus token, to the output.",
    "step": "Do whichever of Draft, Verify or Commit comes next.",
    "run_block": "Finish the current block: Draft, Verify and Commit as needed.",
    "run_to_end": "Run blocks until the output holds 8 tokens.",
    "reset": "Empty the output and start this scenario again from its first draw.",
}


# ---- the caption: what happened ---------------------------------------------------

def scenario_changed(old, new):
    """After a control changed ``old`` (a ``core.Config``) into ``new``: why the trace started over."""
    changes = []
    if new.draft != old.draft:
        changes.append(f"switched to the {new.draft} draft")
    if new.width != old.width:
        changes.append(f"set the width to {new.width}")
    if new.seed != old.seed:
        changes.append(f"changed the seed to {new.seed}")
    if new.lookahead != old.lookahead:
        changes.append("turned dynamic lookahead off" if new.lookahead is None else
                       f"set dynamic lookahead to stop after a guess with q(x) below {threshold(new)}")
    if new.schedule != old.schedule:
        changes.append("switched to the heuristic schedule" if new.schedule == "heuristic" else
                       "switched to a fixed width")
    what = " and ".join(changes) if changes else "changed the scenario"
    return f"You {what}, so the trace started over: the output is empty and the counters are zero."


def opened_link(config, steps):
    if config.schedule == "heuristic":
        text = (f"Opened the scenario from the link: the {config.draft} draft, the heuristic schedule starting "
                f"at width {config.width}, seed {config.seed}.")
    else:
        text = (f"Opened the scenario from the link: the {config.draft} draft, width {config.width}, "
                f"seed {config.seed}.")
    if steps:
        text += f" It replayed {count(steps, 'step')}."
    return text


def not_possible(action, error):
    return f"{LABELS[action]} is not possible right now. {error}"


def cannot_run(error):
    return f"That scenario cannot run: {error}."


def happened(action, before, after):
    """What ``action`` did to ``before`` (a ``core.Session``), giving ``after``: one or two sentences."""
    if action == "step":
        action = before.next_action
    if action == "reset":
        return RESET
    if action == "draft":
        return drafted(after.pending, after.config)
    if action == "verify":
        return verified(after.pending)
    if action == "commit":
        return committed(after.blocks[-1], after)
    if action == "run_block":
        block = after.blocks[-1]
        early = early_stop(block, after.config) + " " if block.stopped_early else ""
        return (f"Block {block.index + 1} ran through Draft, Verify and Commit in one go. " + early
                + verified(block, pending=False) + " " + committed(block, after, lead=False))
    if action == "run_to_end":
        c = after.counters
        ran = len(after.blocks) - len(before.blocks)
        return (f"Ran {count(ran, 'more block')} to the end. The output is {tokens(after.output)}: "
                f"{count(c.committed, 'token')} from {count(c.target_passes, 'target pass', 'target passes')}.")
    return f"{LABELS.get(action, action)} done."


def nothing_to_copy(prefix):
    """Why the lookup draft proposes nothing after the committed ``prefix``."""
    if not prefix:
        return ("The lookup draft has nothing to copy: the text is empty. This block is an ordinary target "
                "step: Verify draws one token straight from the target's p, in one target pass.")
    return (f"The lookup draft has nothing to copy: {prefix[-1]} does not occur earlier in the text, so "
            f"nothing is known to follow it. This block is an ordinary target step: Verify draws one token "
            f"straight from the target's p, in one target pass.")


def drafted(block, config):
    n = len(block.proposals)
    if not n:
        return nothing_to_copy(block.prefix)
    listed = tokens(p.token for p in block.proposals)
    if config.draft == "lookup":
        text = (f"The lookup draft copied {count(n, 'token')} from the text: {listed}. Each copy has q = 1 "
                f"(no draw was needed), and {'it is' if n == 1 else 'they are'} not in the output yet.")
    elif config.draft == "heads" and n == 1:
        text = (f"One head guessed one token: {listed}, the next token, from the committed text. It is not in "
                f"the output yet.")
    elif config.draft == "heads":
        text = (f"{count(n, 'head').capitalize()} each guessed one token: {listed}. Head i guessed i tokens "
                f"ahead from the committed text alone, without seeing the other heads' guesses; they are not "
                f"in the output yet.")
    else:
        text = (f"The draft model proposed {count(n, 'token')}: {listed}. "
                f"{'It is' if n == 1 else 'They are'} not in the output yet.")
    if block.stopped_early:
        text += " " + early_stop(block, config)
    elif config.draft == "lookup" and block.width is not None and n < block.width and n < config.max_tokens - len(block.prefix):
        text += f" (Only {number(n)}: the text offers nothing more to copy.)"
    elif block.width is not None and n < block.width:
        text += f" (Only {number(n)}: the output has room for no more.)"
    return text


def early_stop(block, config):
    last = block.proposals[-1]
    return (f"Dynamic lookahead stopped drafting after {count(len(block.proposals), 'guess', 'guesses')}: the "
            f"draft gave its own guess {last.token} only q = {dec(last.q_x)}, below the threshold "
            f"{threshold(config)}.")


def verified(block, pending=True):
    """What one target pass decided. While the block is ``pending`` (Verify done, Commit not yet),
    the sentence says the tokens join the output, and the counters count the block, at Commit."""
    n = len(block.proposals)
    accepted = block.count("accepted")
    rejected = [p for p in block.proposals if p.status == "rejected"]
    discarded = block.count("discarded")
    if not n and block.bonus is not None:
        text = (f"One target pass drew {block.bonus.token} from the target's own probabilities p: an ordinary "
                f"decoding step, because the draft had nothing to propose.")
    elif not rejected:
        if n == 1:
            text = "One target pass checked the proposal: it was accepted"
        elif n == 2:
            text = "One target pass checked both proposals: both were accepted"
        else:
            text = f"One target pass checked all {number(n)}: every one was accepted"
        if block.bonus is not None:
            text += (f", and the same pass gave a bonus token, {block.bonus.token}, drawn from the target's "
                     f"own probabilities. That is {count(len(block.committed), 'token')} from one target pass.")
        else:
            text += ". There is no bonus token: it would not fit in the output."
    else:
        r = rejected[0]
        text = "One target pass "
        if accepted:
            text += f"accepted {count(accepted, 'proposal')}, then "
        text += (f"rejected the {ordinal(r.index)} proposal ({r.token}); the correction "
                 f"{block.correction.token} was drawn from the residual in its place.")
        if discarded:
            text += (f" The {count(discarded, 'proposal')} after it {'was' if discarded == 1 else 'were'} "
                     f"discarded without a test: {'it was' if discarded == 1 else 'they were'} drafted "
                     f"after the rejected token.")
    if pending:
        text += (f" Commit adds {tokens(block.committed)} to the output; until then the output and the "
                 f"counters leave this block out.")
    return text


def committed(block, session, lead=True):
    text = (f"Block {block.index + 1} committed {tokens(block.committed)}. " if lead
            else f"It committed {tokens(block.committed)}. ")
    text += f"The output now holds {len(session.output)} of {session.config.max_tokens} tokens."
    return text


# ---- the caption: what comes next -------------------------------------------------

def next_words(session):
    """What the next click will do (starts with the button's name), or "" when the trace is finished."""
    s = session
    if s.phase == "draft":
        n = min(s.width, s.left)  # a count of tokens (the schedule's width), not a probability
        after = "" if not s.output else f" after {tokens(s.output)}"
        if s.config.draft == "lookup":
            if next_q("lookup", s.output) is None:
                return ("Draft finds nothing to copy (the last token has no earlier occurrence), so the next "
                        "block is an ordinary target step.")
            return (f"Draft copies up to {count(n, 'token')}{after} from the text: what followed the most "
                    f"recent earlier occurrence of the last token.")
        if s.config.draft == "heads":
            return (f"Draft asks {count(n, 'head')} to guess the next {count(n, 'token')}{after} at once: head i "
                    f"guesses i tokens ahead from the committed text alone.")
        return (f"Draft asks the draft model to guess the next {count(n, 'token')}{after}, one at a time; "
                f"each is drawn from the draft's probabilities q.")
    if s.phase == "verify":
        n = len(s.pending.proposals)
        if not n:
            return "Verify runs one target pass and draws one token from its probabilities p: an ordinary step."
        them = "it" if n == 1 else f"all {number(n)}"
        return (f"Verify scores {them} in one target pass, then tests the proposals left to right with the "
                f"target's probabilities p, until one is rejected.")
    if s.phase == "commit":
        return (f"Commit appends {tokens(s.pending.committed)} to the output; the next block is drafted "
                f"from there.")
    return ""


def limit_words(session):
    """The limit message when the output is full, else ""."""
    if session.phase != "done":
        return ""
    return (f"The output holds {len(session.output)} tokens, the limit of this toy: it has no end-of-sequence "
            f"token, so it simply stops. Press Reset or change the seed to start again.")


def phase_block(session):
    """The 1-based number of the block the phases refer to (the pending or next one)."""
    return len(session.blocks) + (1 if session.phase != "done" else 0)


# ---- the token strip ---------------------------------------------------------------

STATUS_LABEL = {
    "proposed": "proposed",
    "accepted": "✓ accepted",
    "rejected": "✗ rejected",
    "discarded": "discarded",
    "correction": "correction",
    "bonus": "★ bonus",
    "ordinary": "● from p",
}

SCHEDULE_OPTIONS = {"Fixed width": "fixed", "Heuristic": "heuristic"}

LEGEND = (
    ("proposed", "proposed: drafted, not in the output yet"),
    ("", "accepted, correction or bonus: goes into the output"),
    ("rejected", "rejected: replaced by a correction"),
    ("discarded", "discarded: came after a rejection"),
)

ORIGIN_MARK = {"accepted": "✓", "correction": "↺", "bonus": "★", "ordinary": "●"}
ORIGIN_TIP = {
    "accepted": "an accepted draft token",
    "correction": "a correction drawn from the residual",
    "bonus": "a bonus token drawn from the target",
    "ordinary": "an ordinary step: the draft had nothing to propose, so the target drew this token",
}


def extra_kind(block):
    """What the token after the proposals is: "correction", "bonus", "ordinary" (a block with no proposal), or None."""
    if block.correction is not None:
        return "correction"
    if block.bonus is None:
        return None
    return "bonus" if block.proposals else "ordinary"


def extra_label(name, block):
    """The picker's label for a block's bonus, or its ordinary step's token."""
    if not block.proposals:
        return f"{name} · ordinary step: {block.bonus.token} from p"
    return f"{name} · bonus: {block.bonus.token}"


def origins(block):
    """Where each committed token of ``block`` came from, in order: accepted proposals, then the extra token."""
    out = ["accepted"] * block.count("accepted")
    kind = extra_kind(block)
    if kind is not None:
        out.append(kind)
    return out


def output_count(session):
    return f"{len(session.output)} of {session.config.max_tokens} tokens committed"


def block_state(block, pending):
    if pending and not block.verified:
        return "drafted, not checked yet: these tokens are only proposals"
    if pending:
        return "checked by one target pass, waiting for Commit"
    return "committed"


def strip_notes(block):
    """The notes under the current block's chips."""
    notes = []
    discarded = block.count("discarded")
    if discarded:
        notes.append(f"The {count(discarded, 'discarded proposal')} came after the rejected one: "
                     f"{'it was' if discarded == 1 else 'they were'} drafted as if the rejected token "
                     f"were in the output, so {'it' if discarded == 1 else 'they'} cannot be kept, "
                     f"however plausible {'it looks' if discarded == 1 else 'they look'}.")
    if not block.proposals:
        notes.append("No proposals: the lookup draft found nothing to copy, so this block is an ordinary step, "
                     "one token from the target's p for one target pass.")
        return notes
    if block.verified and block.bonus is None and block.correction is None:
        notes.append("No bonus token: the output limit leaves no room for one.")
    if not block.verified:
        notes.append("Click a chip to see the draft's probabilities q at its position.")
    else:
        notes.append("Click a chip to see the test that decided it.")
    return notes


# ---- the block history ---------------------------------------------------------------

def history_line(block, schedule="fixed"):
    """One line: what the block drafted and what it committed (and its width under the heuristic schedule)."""
    if not block.proposals:
        if schedule == "heuristic":
            return (f"Block {block.index + 1} (width {block.width}): nothing to copy · ordinary step, "
                    f"{block.bonus.token} from p · committed {tokens(block.committed)}")
        return (f"Block {block.index + 1}: nothing to copy · ordinary step, {block.bonus.token} from p · "
                f"committed {tokens(block.committed)}")
    if schedule == "heuristic":
        parts = [f"Block {block.index + 1} (width {block.width}): drafted {tokens(p.token for p in block.proposals)}"]
    else:
        parts = [f"Block {block.index + 1}: drafted {tokens(p.token for p in block.proposals)}"]
    outcome = [f"{block.count('accepted')} accepted"]
    rejected = [p for p in block.proposals if p.status == "rejected"]
    if rejected:
        outcome.append(f"{rejected[0].token} rejected → {block.correction.token}")
    if block.count("discarded"):
        outcome.append(f"{block.count('discarded')} discarded")
    if block.bonus is not None:
        outcome.append(f"bonus {block.bonus.token}")
    parts.append(", ".join(outcome))
    parts.append(f"committed {tokens(block.committed)}")
    return " · ".join(parts)


# ---- the counters ----------------------------------------------------------------------

# (field of core.Counters, label, what it counts)
COUNTER_DETAILS = (
    ("draft_steps", "draft steps", "tokens the draft model generated"),
    ("accepted", "accepted", "proposals the target kept"),
    ("rejected", "rejected", "proposals the target replaced"),
    ("discarded", "discarded", "proposals thrown away after a rejection"),
    ("corrections", "corrections", "tokens drawn from the residual"),
    ("bonus", "bonus tokens", "extra target tokens after a full acceptance"),
    ("committed", "committed", "tokens in the output"),
)
EARLY_STOPS = ("early_stops", "early stops", "blocks whose drafting dynamic lookahead cut short")
ORDINARY_STEPS = ("ordinary_steps", "ordinary steps", "blocks with nothing to copy: one token from p, one target pass")


def widths_used(session):
    """The widths the heuristic schedule gave the finished blocks, and the next block's; "" for a fixed width."""
    s = session
    if s.config.schedule != "heuristic":
        return ""
    if not s.blocks:
        return (f"Widths: the first block drafts up to {s.width}; after each block the heuristic adds 2 when "
                f"every guess was accepted, otherwise takes 1 away.")
    used = " → ".join(str(b.width) for b in s.blocks)
    if s.phase == "done":
        return f"Widths the heuristic schedule gave the blocks: {used}."
    return f"Widths the heuristic schedule gave the blocks: {used}; the next block may draft {s.width}."


def compare(counters):
    """Target passes against ordinary decoding, for the committed blocks; "" before any commit."""
    c = counters
    if not c.committed:
        return ""
    return (f"Ordinary decoding needs one target pass per token: {c.ordinary_passes} for these {c.committed} "
            f"{plural(c.committed, 'token', 'tokens')}. This run used {c.target_passes}, plus {c.draft_steps} "
            f"cheap draft {plural(c.draft_steps, 'step', 'steps')}.")


PENDING_NOT_COUNTED = "The current block is counted once it is committed."


def pending_counts(block):
    """The current block's work before Commit, said beside the finished blocks' counters (same numbers as the caption)."""
    n = len(block.proposals)
    if not block.verified:
        return f"Pending, block {block.index + 1}: {count(n, 'proposal')}, not checked yet."
    return f"Pending, block {block.index + 1}: one target pass that gives {count(len(block.committed), 'token')}."


def empty_output(session):
    """What the empty Output card says: after Verify, which tokens Commit will append."""
    block = session.pending
    if block is not None and block.verified:
        return (f"Empty for now: Commit appends block {block.index + 1}'s "
                f"{count(len(block.committed), 'token')}, {tokens(block.committed)}.")
    return "Empty: nothing is committed until a block is verified and committed."


# ---- the inspector ----------------------------------------------------------------------

def row_name(prefix):
    return "the start of the text" if not prefix else f"after {prefix[-1]}"


def short_row(prefix):
    return "at the start" if not prefix else f"after {prefix[-1]}"


def position_label(block, item, proposal=None, bonus=None):
    """The picker's name for one position."""
    if bonus is not None:
        return f"Block {block.index + 1} · bonus {bonus.token}"
    return f"Block {block.index + 1} · position {proposal.index + 1} · {proposal.token} ({proposal.status})"


STATUS_TEXT = {"proposed": "proposed, not tested yet", "discarded": "discarded, never tested"}

# Row labels of the inspector's table: (label, description).
ROW_Q = ("draft q", "the draft's probabilities")
ROW_P = ("target p", "the target's probabilities")
ROW_KEPT = ("min(p, q)", "chance the draft proposes the token here and the target keeps it")
ROW_RESIDUAL = ("residual", "norm(max(p − q, 0)): used after a rejection")


def decision(proposal):
    """Why the target kept or replaced ``proposal`` (accepted or rejected): the draw against the chance."""
    x = proposal
    chance = exact_or_dec(x.accept_probability)
    u = dec(x.u, 4)
    if x.status == "accepted":
        return f"u = {u} is below {chance}, so {x.token} is kept."
    return f"u = {u} is not below {chance}, so {x.token} is replaced."


def keep_chance(proposal):
    """What the acceptance probability beside it means for this proposal."""
    return f"once {proposal.token} is proposed here, it is kept this often and rejected otherwise"


def discarded_why(block):
    rejected = next((p for p in block.proposals if p.status == "rejected"), None)
    why = (f"the {ordinal(rejected.index)} proposal ({rejected.token}) was rejected, and this one was drafted "
           f"after it" if rejected else "an earlier proposal was rejected")
    return f"not tested: {why}, so its prefix is not the output any more."


# The position's chance of a rejection, told apart from this proposal's own (1 − its acceptance probability).
POSITION_REJECTS = ("rejection chance of this position",
                    "1 − Σ min(p, q): how often this position rejects whatever the draft proposes, counted "
                    "before anything is drafted")


def explain_proposal(proposal, decomposition):
    """The paragraph under a proposal's numbers."""
    x, d = proposal, decomposition
    if x.status == "proposed":
        return (f"The draft picked {x.token} with probability q({x.token}) = {dec(x.q_x)}. It is only a guess: "
                f"nothing enters the output until the target has tested it.")
    if x.status == "discarded":
        return ("A discarded proposal is never tested, however good it looks: the target's p for it was "
                "computed for a prefix that the output no longer has.")
    if d is not None and d.rejection == 0:
        return ("Here p equals q, so p(x)/q(x) = 1 and the proposal is always accepted. There is nothing to "
                "correct: the residual is empty.")
    if x.status == "accepted":
        kept = d.accepted[tuple(TOKENS).index(x.token)]
        return (f"Drafting {x.token} and then keeping it happens with probability q(x) × min(1, p(x)/q(x)) = "
                f"min(p, q) = {dec(kept)}. Rejections, redrawn from the residual, add exactly the missing "
                f"mass, so every token ends up with probability p.")
    return (f"{x.token} was over-proposed by the draft (q > p), so it is kept only part of the time. The "
            f"replacement never comes from plain p: the residual holds only the mass that accepted guesses did "
            f"not already supply, which is what keeps the output exactly distributed as p.")


def q_row_label(draft):
    """The inspector's label for the draft row: lookup's q is one-hot, a head's q is its own guess."""
    if draft == "lookup":
        return ("draft q", "one-hot: the lookup draft copies one token, so q = 1 on it and 0 elsewhere")
    if draft == "heads":
        return ("head's q", "this head's guess, made from the committed text alone")
    return ROW_Q


def where_rows(draft, proposal):
    """Which rows this position uses, in one sentence."""
    x = proposal
    if draft == "lookup":
        return (f"The target's row is the one {row_name(x.prefix)}; the lookup draft's q is not a table row "
                f"but a copy from the text.")
    if draft == "heads":
        return (f"Head {x.index + 1} guessed {count(x.index + 1, 'token')} ahead of the committed text; the "
                f"target tests its guess with its own row {row_name(x.prefix)}.")
    return f"The toy tables look only at the last token, so this position uses their rows for {row_name(x.prefix)}."


def copied_from(proposal):
    """Where the lookup draft copied ``proposal`` from: the text and the earlier occurrence it followed."""
    x = proposal
    match = lookup_match(x.prefix)
    if match is None:
        return f"copied {x.token} (no draw: q is one-hot)"
    return (f"copied {x.token}: the most recent earlier {x.prefix[-1]} (token {match + 1} of the text) was "
            f"followed by {x.prefix[match + 1]} (no draw: q is one-hot)")


def lookup_explain(proposal):
    """The one sentence that explains lookup's one-hot q."""
    x = proposal
    return (f"Because the copy's q is one-hot (q({x.token}) = 1), min(1, p(x)/q(x)) is exactly p({x.token}), so "
            f"the copy is accepted with probability exactly p({x.token}); after a rejection the residual is p "
            f"without {x.token}, renormalised.")


def heads_explain(proposal):
    """The one sentence that explains a head's q beside the p it is tested against."""
    x = proposal
    return (f"Head {x.index + 1} predicts {count(x.index + 1, 'step')} ahead without seeing the earlier "
            f"proposals, so its q is the target's own {x.index + 1}-step-ahead row from the committed text, "
            f"while p is the target's next-token row after the actual prefix: they agree only for head 1.")


def ordinary_why(block):
    prefix = block.prefix
    if not prefix:
        return "the lookup draft had nothing to copy at the start of the text"
    return f"the lookup draft had nothing to copy: {prefix[-1]} does not occur earlier in the text"


ORDINARY_EXPLAIN = ("An ordinary step is plain decoding: one target pass, one token drawn from p. It counts as an "
                    "ordinary step, not as a bonus, and it is what every step of ordinary decoding costs.")

NOTHING_TO_COPY_PREVIEW = ("The lookup draft has nothing to copy here, so the next block is an ordinary step: the "
                           "chart shows the target's p it will draw from.")


def bonus_why(block):
    n = len(block.proposals)
    kept = "the one proposal was" if n == 1 else f"all {count(n, 'proposal')} were"
    return f"{kept} accepted, and the target pass already computed p after the last of them"


BONUS_EXPLAIN = ("The bonus costs no extra target pass: it is the target's own next-token distribution after the "
                 "fully accepted draft. That is how one pass can commit width + 1 tokens.")

GUIDE = (
    ("Draft", "The small draft model guesses the next tokens one at a time, each drawn from its "
              "probabilities q. The guesses are proposals, not output."),
    ("Verify", "One pass of the large target model gives its probabilities p at every proposed "
               "position. Each proposal is kept with probability min(1, p/q), left to right; the first "
               "rejected one is replaced by a draw from the residual, and the rest are discarded."),
    ("Commit", "The kept tokens, plus the replacement (or a bonus token when every guess was kept), "
               "join the output. The next block starts from there."),
)

RULE = ("(Leviathan et al. 2023, Algorithm 1). At one position the draft gives probabilities q and the target "
        "gives p. A token x drawn from q is accepted when a uniform draw u is below min(1, p(x)/q(x)). After a "
        "rejection, the replacement is drawn from the residual: the part of p that q under-supplies, "
        "max(p − q, 0), scaled to sum to 1. Every later proposal in the block is discarded. Kept guesses and "
        "corrections together give each token exactly its target probability p.")

NOTHING_YET = ("Nothing drafted yet. The charts show the next position's rows: what the draft (q) and the target "
               "(p) say there, and how kept guesses plus corrections add up to exactly p. After Draft, click a "
               "chip (or pick a position above) to see how its token was chosen and, after Verify, every number "
               "of the test that decided it.")
ALL_DONE = ("The output is complete. Pick a position above, or a block in the history, to see the test that "
            "decided it.")
