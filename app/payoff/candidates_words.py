"""Every sentence of "Several candidates per position" (``candidates.py``), as pure functions of
``core.tree_payoff`` records.

Whole sentences in the catalogues (``app/i18n``, keys ``guesses.payoff.*``: the section
reads the trees of "Several guesses at once"), in the page's language; numbers are
fields of the records, formatted with ``core.display``. ``PAYOFF_TITLE`` and ``PAYOFF_INTRO`` are
read through ``__getattr__`` so they follow the page's language.
"""

from core.display import dec

from ..i18n import names_in_language, t
from ..parts import draft_name


def count(n, noun):
    """``count(1, "candidate") == "1 candidate"``, ``count(3, "candidate") == "3 candidates"`` (``guesses.count.*``)."""
    return t(f"guesses.count.{noun}.{'one' if n == 1 else 'other'}", n=n)


def payoff_no_table(draft, tree_drafts):
    drafts = t("url.or", rest=t("url.sep").join(tree_drafts[:-1]), last=tree_drafts[-1]) if len(tree_drafts) > 1 \
        else tree_drafts[0]
    return t("guesses.payoff.no_table", draft=draft_name(draft), drafts=drafts)


def payoff_best(draft, cost, best):
    return t("guesses.payoff.best", draft=draft_name(draft), c=dec(cost), candidates=count(best.candidates, "candidate"),
             width=best.width, per_pass=dec(best.tokens_per_pass, 2), draft_tokens=best.draft_tokens,
             speedup=dec(best.speedup, 2))


def payoff_row(row):
    return t("guesses.payoff.row", candidates=count(row.candidates, "candidate"), width=row.width,
             per_pass=dec(row.tokens_per_pass, 2), draft_tokens=row.draft_tokens, speedup=dec(row.speedup, 2))


_CONSTANTS = {
    "PAYOFF_TITLE": lambda: t("guesses.payoff.title"),
    "PAYOFF_INTRO": lambda: t("guesses.payoff.intro"),
}

__getattr__ = names_in_language(__name__, _CONSTANTS)  # the names above, in the page's language
