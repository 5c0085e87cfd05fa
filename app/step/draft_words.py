"""The sentences of "Step through a block" that differ from one kind of draft to another.

One entry per kind (``core.drafts.KINDS``), keyed by its name, as the kind itself
is one entry in ``core``: ``step/words.py``, the inspector and the counters ask
``of(draft)`` and never test a draft's name. A kind without an entry here gets
``TableWords``, the sentences of a small model's table, so a new table draft
needs only its catalogue keys (``draft.<name>``, ``step.draft_name.<name>``); a
kind that proposes differently adds one small subclass and one line in ``WORDS``.
"""

from core.drafts import next_q

from ..i18n import t


def _n(n):
    return "one" if n == 1 else "other"


class TableWords:
    """A small model's table: proposal i is drawn from its row after the text so far."""

    counts_ordinary_steps = False  # a table always proposes, so no block is an ordinary step

    def drafted(self, n, listed, count):
        """The lead of Draft's sentence: the ``n`` proposals ``listed``."""
        return t(f"step.drafted.{_n(n)}", tokens=count(n, "token"), proposals=listed)

    def short_of_width(self, block, config, n, number):
        """Why Draft proposed fewer than the width: only the limit leaves no more room."""
        return t("step.drafted.no_room", n=number(n))

    def discarded_key(self, discarded):
        """The catalogue key of the sentence about the proposals discarded after a rejection."""
        return f"step.verified.discarded.{_n(discarded)}"

    def next_draft(self, session, n, count, tokens):
        """What the next Draft will do, ``n`` tokens wide."""
        if session.output:
            return t("step.next.draft_after", tokens=count(n, "token"), output=tokens(session.output))
        return t("step.next.draft", tokens=count(n, "token"))

    def q_row(self, row):
        """The inspector's label for the draft row (label, what it is)."""
        return row("q")

    def where(self, proposal, row_name, count):
        """Which rows a position uses, in one sentence."""
        return t("step.inspector.rows_for", row=row_name(proposal.prefix))

    def lead(self, proposal, count):
        """The inspector's sentence on this draft's q before the rule's own, or None."""
        return None


class LookupWords(TableWords):
    """The lookup draft copies from the text (one-hot q) and may have nothing to copy."""

    counts_ordinary_steps = True

    def drafted(self, n, listed, count):
        return t(f"step.drafted.lookup.{_n(n)}", tokens=count(n, "token"), proposals=listed)

    def short_of_width(self, block, config, n, number):
        if n < config.max_tokens - len(block.prefix):  # the text ran out of copies before the limit
            return t("step.drafted.no_more_copy", n=number(n))
        return super().short_of_width(block, config, n, number)

    def next_draft(self, session, n, count, tokens):
        s = session
        if next_q(s.config.draft, s.output, tables=s.config.tables) is None:
            if not s.output:
                return t("step.next.lookup_nothing.empty")
            return t("step.next.lookup_nothing", token=s.output[-1])
        if s.output:
            return t("step.next.lookup_after", tokens=count(n, "token"), output=tokens(s.output))
        return t("step.next.lookup", tokens=count(n, "token"))

    def q_row(self, row):
        return t("step.row.q.lookup"), t("step.row.q.lookup.what")

    def where(self, proposal, row_name, count):
        return t("step.where.lookup", row=row_name(proposal.prefix))

    def lead(self, proposal, count):
        return t("step.explain.lookup", token=proposal.token)


class HeadsWords(TableWords):
    """Medusa-style heads: head i guesses i tokens ahead from the committed text alone."""

    def drafted(self, n, listed, count):
        if n == 1:
            return t("step.drafted.heads.one", proposals=listed)
        text = t("step.drafted.heads.other", heads=count(n, "head"), proposals=listed)
        return text[0].upper() + text[1:]  # the count starts the sentence

    def discarded_key(self, discarded):
        return f"step.verified.discarded.heads.{_n(discarded)}"

    def next_draft(self, session, n, count, tokens):
        s = session
        if s.output:
            return t("step.next.heads_after", heads=count(n, "head"), tokens=count(n, "token"),
                     output=tokens(s.output))
        return t("step.next.heads", heads=count(n, "head"), tokens=count(n, "token"))

    def q_row(self, row):
        return t("step.row.q.heads"), t("step.row.q.heads.what")

    def where(self, proposal, row_name, count):
        x = proposal
        return t("step.where.heads", head=x.index + 1, tokens=count(x.index + 1, "token"), row=row_name(x.prefix))

    def lead(self, proposal, count):
        x = proposal
        return t("step.explain.heads", head=x.index + 1, steps=count(x.index + 1, "step"))


TABLE = TableWords()
WORDS = {"lookup": LookupWords(), "heads": HeadsWords()}


def of(draft):
    """The sentences of kind ``draft`` (its name; None or unknown: a table's)."""
    return WORDS.get(draft, TABLE)
