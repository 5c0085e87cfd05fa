"""Every sentence of "Step through a block", as pure functions of ``core`` records.

Nothing here reads the page or the model: each function takes records
(``core.Session``, ``core.Block``, ``core.Proposal``, ``core.Counters``, a
``core.Config``) and returns plain text, so every claim a sentence makes can
be tested against the records it describes. Views escape and lay it out.
Numbers are fields of the records, formatted with ``core.display``; counts
of tokens are counted here, probabilities never computed.

The words themselves are in the catalogues (``app/i18n``, keys ``step.*``):
each situation is one whole template with named fields, in the page's
language. The module's constants (``LABELS``, ``START``, ...) are read through
``__getattr__`` so they too follow the page's language.
"""

from core import TOKENS
from core.display import dec, exact_or_dec, versus
from core.drafts import lookup_match

from ..i18n import has, t
from ..parts import draft_name
from . import draft_words

ACTION_NAMES = ("draft", "verify", "commit", "step", "run_block", "run_to_end", "reset")
PHASES = ("draft", "verify", "commit")
STATUSES = ("proposed", "accepted", "rejected", "discarded", "correction", "bonus", "ordinary")
ORIGINS = ("accepted", "correction", "bonus", "ordinary")
SCHEDULES = ("fixed", "heuristic")


def label(action):
    """The button's name for ``action`` ("Draft", "起草")."""
    return t(f"step.label.{action}")


def count(n, noun, digits=False):
    """``count(1, "token") == "one token"``; ``count(3, "token") == "three tokens"`` (``step.count.*``).

    ``digits``: the number as digits ("3 tokens"), as beside other figures."""
    return t(f"step.count.{noun}.{_n(n)}", n=n if digits else number(n))


def number(n):
    return t(f"step.number.{n}") if 0 <= n <= 9 else str(n)


def ordinal(i):
    """Ordinal for a 0-based position: ``ordinal(0) == "first"``."""
    return t(f"step.ordinal.{i}") if 0 <= i < 8 else f"#{i + 1}"


def tokens(seq):
    seq = tuple(seq)
    return " ".join(seq) if seq else t("step.tokens.nothing")


def plural(n, one, many):
    """English's singular or plural; a language without plurals gives ``many`` its own form."""
    return one if n == 1 else many


def threshold(config):
    """The lookahead threshold as the controls show it ("0.50")."""
    return dec(config.lookahead)


def _n(n):
    """The catalogue's form key for a count: "one" or "other"."""
    return "one" if n == 1 else "other"


# ---- the controls ----------------------------------------------------------------

def help_text(control):
    return t(f"step.help.{control}")


def tooltip(action):
    return t(f"step.tooltip.{action}")


# ---- the caption: what happened ---------------------------------------------------

def scenario_changed(old, new):
    """After a control changed ``old`` (a ``core.Config``) into ``new``: why the trace started over."""
    changes = []
    if new.draft != old.draft:
        changes.append(t("step.change.draft", draft=draft_name(new.draft)))
    if new.width != old.width:
        changes.append(t("step.change.width", width=new.width))
    if new.seed != old.seed:
        changes.append(t("step.change.seed", seed=new.seed))
    if new.lookahead != old.lookahead:
        changes.append(t("step.change.lookahead_off") if new.lookahead is None else
                       t("step.change.lookahead", threshold=threshold(new)))
    if new.schedule != old.schedule:
        changes.append(t("step.change.heuristic" if new.schedule == "heuristic" else "step.change.fixed"))
    what = t("step.change.and").join(changes) if changes else t("step.change.scenario")
    return t("step.started_over", what=what)


def opened_link(config, steps):
    key = "step.opened_link.heuristic" if config.schedule == "heuristic" else "step.opened_link"
    text = t(key, draft=draft_name(config.draft), width=config.width, seed=config.seed)
    if steps:
        text += t("step.opened_link.replayed", steps=count(steps, "step"))
    return text


def not_possible(action, error):
    return t("step.not_possible", action=label(action), error=error)


def cannot_run(error):
    return t("step.cannot_run", error=error)


def happened(action, before, after):
    """What ``action`` did to ``before`` (a ``core.Session``), giving ``after``: one or two sentences."""
    if action == "step":
        action = before.next_action
    if action == "reset":
        return t("step.reset")
    if action == "draft":
        return drafted(after.pending, after.config)
    if action == "verify":
        return verified(after.pending, draft=after.config.draft)
    if action == "commit":
        return committed(after.blocks[-1], after)
    if action == "run_block":
        block = after.blocks[-1]
        early = early_stop(block, after.config) + t("step.space") if block.stopped_early else ""
        return (t("step.ran_block", block=block.index + 1) + early
                + verified(block, pending=False, draft=after.config.draft) + t("step.space")
                + committed(block, after, lead=False))
    if action == "run_to_end":
        c = after.counters
        ran = len(after.blocks) - len(before.blocks)
        return t("step.ran_to_end", blocks=count(ran, "more_block"), output=tokens(after.output),
                 tokens=count(c.committed, "token"), passes=count(c.target_passes, "target_pass"))
    return t("step.done", action=label(action) if action in ACTION_NAMES else action)


def nothing_to_copy(prefix):
    """Why the lookup draft proposes nothing after the committed ``prefix``."""
    if not prefix:
        return t("step.nothing_to_copy.empty")
    return t("step.nothing_to_copy", token=prefix[-1])


def drafted(block, config):
    n = len(block.proposals)
    if not n:
        return nothing_to_copy(block.prefix)
    kind = draft_words.of(config.draft)
    text = kind.drafted(n, tokens(p.token for p in block.proposals), count)
    if block.stopped_early:
        text += t("step.space") + early_stop(block, config)
    elif block.width is not None and n < block.width:
        text += kind.short_of_width(block, config, n, number)
    return text


def early_stop(block, config):
    last = block.proposals[-1]
    return t("step.early_stop", guesses=count(len(block.proposals), "guess"), token=last.token,
             q=dec(last.q_x), threshold=threshold(config))


def verified(block, pending=True, draft=None, masked=False):
    """What one target pass decided. While the block is ``pending`` (Verify done, Commit not yet),
    the sentence says the tokens join the output, and the counters count the block, at Commit.
    A head does not see the earlier proposals, so its discarded guess is not "drafted after" the rejected one.
    ``masked``: Predict first asks which tokens the correction can be, so the sentence does not name it."""
    n = len(block.proposals)
    accepted = block.count("accepted")
    rejected = [p for p in block.proposals if p.status == "rejected"]
    discarded = block.count("discarded")
    form = "one" if n == 1 else "two" if n == 2 else "other"
    if not n and block.bonus is not None:
        text = t("step.verified.ordinary", token=block.bonus.token)
    elif not rejected:
        if block.bonus is not None:
            text = t(f"step.verified.all_bonus.{form}", n=number(n), bonus=block.bonus.token,
                     tokens=count(len(block.committed), "token"))
        else:
            text = t(f"step.verified.all_no_bonus.{form}", n=number(n))
    else:
        r = rejected[0]
        if masked:
            text = (t("step.verified.some_rejected.masked", accepted=count(accepted, "proposal"),
                      ordinal=ordinal(r.index), token=r.token) if accepted
                    else t("step.verified.first_rejected.masked", ordinal=ordinal(r.index), token=r.token))
        elif accepted:
            text = t("step.verified.some_rejected", accepted=count(accepted, "proposal"), ordinal=ordinal(r.index),
                     token=r.token, correction=block.correction.token)
        else:
            text = t("step.verified.first_rejected", ordinal=ordinal(r.index), token=r.token,
                     correction=block.correction.token)
        if discarded:
            text += t(draft_words.of(draft).discarded_key(discarded), discarded=count(discarded, "proposal"))
    if pending and not (masked and rejected):  # masked: Commit's tokens include the correction
        text += t("step.verified.pending", tokens=tokens(block.committed))
    return text


def committed(block, session, lead=True):
    fields = dict(block=block.index + 1, tokens=tokens(block.committed), n=len(session.output),
                  max=session.config.max_tokens)
    return t("step.committed.lead" if lead else "step.committed", **fields)


# ---- the caption: what comes next -------------------------------------------------

def next_words(session, masked=False):
    """What the next click will do (starts with the button's name), or "" when the trace is finished.
    ``masked``: the correction waits for Predict first's question, so Commit's tokens are not named."""
    s = session
    if masked and s.phase == "commit":
        return t("step.next.commit.masked")
    if s.phase == "draft":
        n = min(s.width, s.left)  # a count of tokens (the schedule's width), not a probability
        return draft_words.of(s.config.draft).next_draft(s, n, count, tokens)
    if s.phase == "verify":
        n = len(s.pending.proposals)
        if not n:
            return t("step.next.verify.ordinary")
        return t(f"step.next.verify.{_n(n)}", n=number(n))
    if s.phase == "commit":
        return t("step.next.commit", tokens=tokens(s.pending.committed))
    return ""


def limit_words(session):
    """The limit message when the output is full, else ""."""
    if session.phase != "done":
        return ""
    return t("step.limit", n=len(session.output))


def phase_block(session):
    """The 1-based number of the block the phases refer to (the pending or next one)."""
    return len(session.blocks) + (1 if session.phase != "done" else 0)


# ---- the token strip ---------------------------------------------------------------

def status_label(status):
    """A chip's second line ("✓ accepted")."""
    return t(f"step.status.{status}")


def legend():
    """(chip class, text) pairs of the strip's legend."""
    return (("proposed", t("step.legend.proposed")), ("", t("step.legend.kept")),
            ("rejected", t("step.legend.rejected")), ("discarded", t("step.legend.discarded")))


ORIGIN_MARK = {"accepted": "✓", "correction": "↺", "bonus": "★", "ordinary": "●"}


def schedule_options():
    """The schedule choice (label -> value) in the page's language."""
    return {t(f"step.schedule.{value}"): value for value in SCHEDULES}


def origin_tip(origin):
    return t(f"step.origin.{origin}")


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
        return t("step.picker.ordinary", name=name, token=block.bonus.token)
    return t("step.picker.bonus", name=name, token=block.bonus.token)


def origins(block):
    """Where each committed token of ``block`` came from, in order: accepted proposals, then the extra token."""
    out = ["accepted"] * block.count("accepted")
    kind = extra_kind(block)
    if kind is not None:
        out.append(kind)
    return out


def output_count(session):
    return t("step.output_count", n=len(session.output), max=session.config.max_tokens)


def block_state(block, pending):
    if pending and not block.verified:
        return t("step.block_state.drafted")
    if pending:
        return t("step.block_state.verified")
    return t("step.block_state.committed")


def strip_notes(block):
    """The notes under the current block's chips."""
    notes = []
    discarded = block.count("discarded")
    if discarded:
        notes.append(t(f"step.note.discarded.{_n(discarded)}", discarded=count(discarded, "discarded_proposal")))
    if not block.proposals:
        notes.append(t("step.note.ordinary"))
        return notes
    if block.verified and block.bonus is None and block.correction is None:
        notes.append(t("step.note.no_bonus"))
    notes.append(t("step.note.click_test" if block.verified else "step.note.click_q"))
    return notes


# ---- the block history ---------------------------------------------------------------

def history_line(block, schedule="fixed"):
    """One line: what the block drafted and what it committed (and its width under the heuristic schedule)."""
    name = (t("step.history.block_width", block=block.index + 1, width=block.width) if schedule == "heuristic"
            else t("step.history.block", block=block.index + 1))
    if not block.proposals:
        return t("step.history.ordinary", name=name, token=block.bonus.token, tokens=tokens(block.committed))
    parts = [t("step.history.drafted", name=name, tokens=tokens(p.token for p in block.proposals))]
    outcome = [t("step.history.accepted", n=block.count("accepted"))]
    rejected = [p for p in block.proposals if p.status == "rejected"]
    if rejected:
        outcome.append(t("step.history.rejected", token=rejected[0].token, correction=block.correction.token))
    if block.count("discarded"):
        outcome.append(t("step.history.discarded", n=block.count("discarded")))
    if block.bonus is not None:
        outcome.append(t("step.history.bonus", token=block.bonus.token))
    parts.append(t("step.list_sep").join(outcome))
    parts.append(t("step.history.committed", tokens=tokens(block.committed)))
    return " · ".join(parts)


# ---- the counters ----------------------------------------------------------------------

COUNTER_FIELDS = ("draft_steps", "accepted", "rejected", "discarded", "corrections", "bonus", "committed")


def counter_details(early_stops=False):
    """(field of core.Counters, label, what it counts) for the detailed counters."""
    names = COUNTER_FIELDS + (("early_stops",) if early_stops else ())
    return tuple(counter(name) for name in names)


def counter(name):
    """(field of core.Counters, label, what it counts) for one counter."""
    return name, t(f"step.counter.{name}"), t(f"step.counter.{name}.what")


def widths_used(session):
    """The widths the heuristic schedule gave the finished blocks, and the next block's; "" for a fixed width."""
    s = session
    if s.config.schedule != "heuristic":
        return ""
    if not s.blocks:
        return t("step.widths.first", width=s.width)
    used = " → ".join(str(b.width) for b in s.blocks)
    if s.phase == "done":
        return t("step.widths.done", used=used)
    return t("step.widths.next", used=used, width=s.width)


def compare(counters):
    """Target passes against ordinary decoding, for the committed blocks; "" before any commit."""
    c = counters
    if not c.committed:
        return ""
    return t("step.compare", ordinary=c.ordinary_passes, tokens=count(c.committed, "token", digits=True),
             used=c.target_passes, steps=count(c.draft_steps, "cheap_draft_step", digits=True))


def lanes_summary(lane):
    """The two lanes (an ``app.step.lanes.LaneState``) in words: the drawing's text alternative."""
    if not lane.speculative:
        text = t("step.lanes.empty")
    else:
        text = t("step.lanes.summary", tokens=count(lane.tokens, "token", digits=True),
                 passes=count(lane.passes, "target_pass", digits=True),
                 ordinary_tokens=count(lane.ordinary_tokens, "token", digits=True),
                 ordinary_passes=count(lane.ordinary_passes, "target_pass", digits=True))
    if lane.pending:
        text += " " + t("step.lanes.pending", block=lane.passes + 1)
    return text


def pending_counts(block):
    """The current block's work before Commit, said beside the finished blocks' counters (same numbers as the caption)."""
    n = len(block.proposals)
    if not block.verified:
        return t("step.pending.drafted", block=block.index + 1, proposals=count(n, "proposal"))
    return t("step.pending.verified", block=block.index + 1, tokens=count(len(block.committed), "token"))


def empty_output(session, masked=False):
    """What the empty Output card says: after Verify, which tokens Commit will append (``masked``: how many,
    while Predict first asks which tokens the correction can be)."""
    block = session.pending
    if block is not None and block.verified and masked:
        return t("step.output.empty_pending.masked", block=block.index + 1, count=count(len(block.committed), "token"))
    if block is not None and block.verified:
        return t("step.output.empty_pending", block=block.index + 1, count=count(len(block.committed), "token"),
                 tokens=tokens(block.committed))
    return t("step.output.empty")


# ---- the inspector ----------------------------------------------------------------------

def row_name(prefix):
    return t("step.row_name.start") if not prefix else t("step.row_name.after", token=prefix[-1])


def short_row(prefix):
    return t("step.short_row.start") if not prefix else t("step.short_row.after", token=prefix[-1])


def position_label(block, item, proposal=None, bonus=None):
    """The picker's name for one position."""
    if bonus is not None:
        return t("step.position_label.bonus", block=block.index + 1, token=bonus.token)
    return t("step.position_label", block=block.index + 1, position=proposal.index + 1, token=proposal.token,
             status=status_word(proposal.status))


def status_word(status):
    """A proposal's status as a plain word ("accepted", "接受")."""
    return t(f"step.status_word.{status}")


def status_text(status):
    """The inspector's verdict badge for a proposal."""
    key = f"step.status_text.{status}"
    return t(key) if has(key) else status_word(status)


def row(name):
    """A row of the inspector's table: (label, description); ``name`` is q, p, kept or residual."""
    return t(f"step.row.{name}"), t(f"step.row.{name}.what")


def decision(proposal):
    """Why the target kept or replaced ``proposal`` (accepted or rejected): the draw against the chance."""
    x = proposal
    u, chance = versus(x.u, x.accept_probability)  # digits enough that "u is below chance" looks as true as it is
    fields = dict(u=u, chance=chance, token=x.token)
    return t("step.decision.accepted" if x.status == "accepted" else "step.decision.rejected", **fields)


def keep_chance(proposal):
    """What the acceptance probability beside it means for this proposal."""
    return t("step.keep_chance", token=proposal.token)


def discarded_why(block):
    rejected = next((p for p in block.proposals if p.status == "rejected"), None)
    if rejected is None:
        return t("step.discarded_why.earlier")
    return t("step.discarded_why", ordinal=ordinal(rejected.index), token=rejected.token)


def position_rejects():
    """The position's chance of a rejection, told apart from this proposal's own (1 − its acceptance probability)."""
    return t("step.position_rejects"), t("step.position_rejects.what")


def explain_proposal(proposal, decomposition):
    """The paragraph under a proposal's numbers."""
    x, d = proposal, decomposition
    if x.status == "proposed":
        return t("step.explain.proposed", token=x.token, q=dec(x.q_x))
    if x.status == "discarded":
        return t("step.explain.discarded")
    if d is not None and d.rejection == 0:
        return t("step.explain.equal")
    if x.status == "accepted":
        kept = d.accepted[tuple(TOKENS).index(x.token)]
        return t("step.explain.accepted", token=x.token, kept=dec(kept))
    return t("step.explain.rejected", token=x.token)


def q_row_label(draft):
    """The inspector's label for the draft row: lookup's q is one-hot, a head's q is its own guess."""
    return draft_words.of(draft).q_row(row)


def where_rows(draft, proposal):
    """Which rows this position uses, in one sentence."""
    return draft_words.of(draft).where(proposal, row_name, count)


def copied_from(proposal):
    """Where the lookup draft copied ``proposal`` from: the text and the earlier occurrence it followed."""
    x = proposal
    match = lookup_match(x.prefix)
    if match is None:
        return t("step.copied", token=x.token)
    return t("step.copied.from", token=x.token, last=x.prefix[-1], position=match + 1, next=x.prefix[match + 1])


def draft_lead(draft, proposal):
    """The sentence on this draft's q before the rule's own (lookup's one-hot q, a head's guess), or None."""
    return draft_words.of(draft).lead(proposal, count)


def lookup_explain(proposal):
    """The one sentence that explains lookup's one-hot q."""
    return draft_words.of("lookup").lead(proposal, count)


def heads_explain(proposal):
    """The one sentence that explains a head's q beside the p it is tested against."""
    return draft_words.of("heads").lead(proposal, count)


def ordinary_why(block):
    prefix = block.prefix
    if not prefix:
        return t("step.ordinary_why.start")
    return t("step.ordinary_why", token=prefix[-1])


def bonus_why(block):
    n = len(block.proposals)
    return t(f"step.bonus_why.{_n(n)}", proposals=count(n, "proposal"))


def guide():
    """(phase name, what it does) for the inspector's guide."""
    return tuple((label(phase), t(f"step.guide.{phase}")) for phase in PHASES)


_CONSTANTS = {
    "LABELS": lambda: {action: label(action) for action in ACTION_NAMES},
    "SHORTCUT_LABELS": lambda: {action: label(action) for action in ACTION_NAMES + ("back",)},  # the keys' line
    "NUMBERS": lambda: tuple(number(n) for n in range(10)),
    "ORDINALS": lambda: tuple(ordinal(i) for i in range(8)),
    "START": lambda: t("step.start"),
    "RESET": lambda: t("step.reset"),
    "BROKEN": lambda: t("step.broken"),
    "HELP": lambda: {c: help_text(c) for c in ("draft", "schedule", "width", "seed", "lookahead")},
    "TOOLTIPS": lambda: {action: tooltip(action) for action in ACTION_NAMES},
    "STATUS_LABEL": lambda: {s: status_label(s) for s in STATUSES},
    "LEGEND": legend,
    "ORIGIN_TIP": lambda: {o: origin_tip(o) for o in ORIGINS},
    "COUNTER_DETAILS": counter_details,
    "EARLY_STOPS": lambda: counter_details(early_stops=True)[-1],
    "PENDING_NOT_COUNTED": lambda: t("step.pending_not_counted"),
    "STATUS_TEXT": lambda: {s: t(f"step.status_text.{s}") for s in ("proposed", "discarded")},
    "ROW_Q": lambda: row("q"),
    "ROW_P": lambda: row("p"),
    "ROW_KEPT": lambda: row("kept"),
    "ROW_RESIDUAL": lambda: row("residual"),
    "POSITION_REJECTS": position_rejects,
    "BONUS_EXPLAIN": lambda: t("step.bonus_explain"),
    "GUIDE": guide,
    "RULE": lambda: t("step.rule"),
    "NOTHING_YET": lambda: t("step.nothing_yet"),
    "ALL_DONE": lambda: t("step.all_done"),
    "SCHEDULE_OPTIONS": schedule_options,
    "ORDINARY_STEPS": lambda: counter("ordinary_steps"),
    "ORDINARY_EXPLAIN": lambda: t("step.ordinary_explain"),
    "NOTHING_TO_COPY_PREVIEW": lambda: t("step.nothing_to_copy_preview"),
}


def __getattr__(name):
    """The module's word constants, in the page's language (``words.START``, ``words.LABELS``, ...)."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



# ---- Step back and the timeline (issue 26) ------------------------------------------

def moment_now(n, last):
    """"Moment 4 of 9": where the timeline is."""
    return t("step.timeline.now", n=n, last=last)


def mark_name(mark):
    """A moment's short name ("block 2 checked"): its button's accessible name; ``mark_words`` is its description."""
    if mark.block is None:
        return t("step.timeline.short.start")
    return t(f"step.timeline.short.{mark.reached}", block=mark.block + 1)


def mark_words(mark):
    """What moment ``mark`` (a ``core.timeline.Mark``) shows, for its button's name and tooltip."""
    if mark.block is None:
        return t("step.timeline.start")
    block = mark.block + 1
    if mark.reached == "drafted":
        return t("step.timeline.drafted", block=block, proposals=count(len(mark.statuses), "proposal", digits=True))
    if mark.reached == "verified":
        n = {s: mark.statuses.count(s) for s in ("accepted", "rejected", "discarded")}
        return t("step.timeline.verified", block=block, **n)
    return t(f"step.timeline.committed.{mark.ending or 'full'}", block=block,
             tokens=count(mark.tokens, "token", digits=True))
