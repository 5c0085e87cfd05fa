"""A finished trace and its three written forms: JSON, text and Markdown.

The JSON names are relied on by tools and course notes: fields may be
added, none renamed. Probabilities and draws are exact fraction strings.
"""

from dataclasses import dataclass

from . import display
from .engine import Written


def _tested_u(x):
    """A proposal's test draw, with digits enough to show on which side of ``accept`` it fell
    (never "accept=1 u=1.0000")."""
    return "-" if x.u is None else display.versus(x.u, x.accept_probability)[0]


@dataclass(frozen=True)
class Draw:
    """One draw of the PRNG, and what the trace used it for.

    ``use`` is "propose" (a draft token from q), "test" (accept or reject a
    proposal), "correction" (from the residual), "bonus" (from p) or
    "ordinary" (from p, in a block with no proposal: an ordinary step);
    ``index`` is the proposal's position in its block (None otherwise).
    """

    u: object
    block: int
    use: str
    index: object
    token: str
    status: str = ""


@dataclass(frozen=True)
class Trace(Written):
    config: object
    output: tuple
    blocks: tuple
    counters: object

    def draws(self):
        """Every draw the trace consumed, in the order ``core.block`` documents."""
        out = []
        for b in self.blocks:
            out += [Draw(x.u_draft, b.index, "propose", x.index, x.token) for x in b.proposals if x.draft_k is not None]
            out += [Draw(x.u, b.index, "test", x.index, x.token, x.status) for x in b.proposals if x.k is not None]
            for use, extra in (("correction", b.correction), ("ordinary" if b.ordinary_step else "bonus", b.bonus)):
                if extra is not None and extra.k is not None:
                    out.append(Draw(extra.u, b.index, use, None, extra.token))
        return tuple(out)

    def _text_head(self):
        c = self.config
        return (f"draft={c.draft} width={c.width} seed={c.seed} max_tokens={c.max_tokens} variant={c.variant}"
                + ("" if c.lookahead is None else f" lookahead={c.lookahead}")
                + ("" if c.schedule == "fixed" else f" schedule={c.schedule}")
                + ("" if c.transform.identity else f" temperature={c.temperature} top_k={c.top_k} "
                                                   f"transform_at={c.transform_at}")
                + "".join(f" {k}={v}" for k, v in c._tables_dict().items()))

    def _text_note(self, b):
        return "" if self.config.schedule == "fixed" else f"  width {b.width}"

    def _text_blocks(self, lines):
        for b in self._each_block(lines):
            for x in b.proposals:
                if x.status == "discarded":
                    lines.append(f"  {x.token}  q={display.dec(x.q_x)}  discarded (after a rejection)")
                else:
                    lines.append(
                        f"  {x.token}  q={display.dec(x.q_x)} p={display.dec(x.p_x)} "
                        f"accept={display.frac(x.accept_probability)} u={_tested_u(x)}"
                        f"  {x.status}"
                    )
            if b.correction:
                r = b.correction
                lines.append(f"  correction {r.token} from {r.source} [{display.row(r.residual)}]"
                             + ("" if r.u is None else f" u={display.draw(r.u)}"))
            if b.ordinary_step:
                lines.append(f"  nothing to propose: ordinary step, {b.bonus.token} from p [{display.row(b.bonus.p)}]"
                             + ("" if b.bonus.u is None else f" u={display.draw(b.bonus.u)}"))
            elif b.bonus:
                lines.append(f"  bonus {b.bonus.token} from p [{display.row(b.bonus.p)}]"
                             + ("" if b.bonus.u is None else f" u={display.draw(b.bonus.u)}"))

    @staticmethod
    def _text_counts(n):
        return (
            f"target passes {n.target_passes} (ordinary decoding: {n.ordinary_passes}), "
            f"accepted {n.accepted}, rejected {n.rejected}, discarded {n.discarded}, bonus {n.bonus}"
            + (f", ordinary steps {n.ordinary_steps}" if n.ordinary_steps else "")
        )

    def to_markdown(self):
        c = self.config
        lines = [
            f"**Speculative sampling trace**: {c.draft} draft, width {c.width}, seed {c.seed}, "
            f"variant {c.variant}, limit {c.max_tokens} tokens.",
            "",
            "| block | prefix | proposals | replacement / bonus | committed |",
            "| --- | --- | --- | --- | --- |",
        ]
        for b in self.blocks:
            props = ", ".join(f"{x.token} ({x.status})" for x in b.proposals) or "none"
            extra = "—"
            if b.correction:
                extra = f"correction {b.correction.token}"
            elif b.ordinary_step:
                extra = f"ordinary step {b.bonus.token}"
            elif b.bonus:
                extra = f"bonus {b.bonus.token}"
            lines.append(f"| {b.index + 1} | {' '.join(b.prefix) or '(empty)'} | {props} | {extra} | "
                         f"{' '.join(b.committed)} |")
        n = self.counters
        lines += [
            "",
            f"Output: **{' '.join(self.output)}** after {n.target_passes} target passes "
            f"(ordinary decoding: {n.ordinary_passes}). Algorithmic counts, not measured latency.",
        ]
        return "\n".join(lines)
