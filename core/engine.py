"""The shape every engine shares: a frozen session stepped draft → verify → commit,
and a finished trace written as JSON and as text.

``core.session`` (one proposal per position) and ``core.tree`` (several
candidates per position) differ only in how a block is drafted and verified
and in what a block's lines say. Stepping through the phases, the JSON frame
and the text frame are written once, here, so the two engines cannot drift
apart (with one candidate the tree's trace is the chain's, byte for byte).
"""

import json

from .records import Counters


class PhaseError(RuntimeError):
    """An action pressed at the wrong moment (for example Verify before Draft)."""


class Stepping:
    """Stepping for a frozen session with ``config``, ``phase``, ``output`` and
    ``blocks``, and one method per phase (``draft``, ``verify``, ``commit``)."""

    DONE = "the output has reached its limit"  # why there is nothing left to do

    @property
    def left(self):
        """Tokens the output can still take."""
        return self.config.max_tokens - len(self.output)

    @property
    def counters(self):
        """Counts over the committed blocks (a pending block is not counted yet)."""
        return Counters.of(self.blocks)

    def step(self):
        """Perform the next phase."""
        if self.phase == "done":
            raise PhaseError(f"Nothing to do: {self.DONE}.")
        return getattr(self, self.phase)()

    def run_block(self):
        """Finish the current block, from whatever phase it is in."""
        session = self.step()
        while session.phase in ("verify", "commit"):
            session = session.step()
        return session

    def run_to_end(self):
        session = self
        while session.phase != "done":
            session = session.run_block()
        return session


class Written:
    """The JSON and text of a finished trace with ``config``, ``output``, ``blocks``
    and ``counters``. An engine says what is its own: ``_json_head`` (fields after
    the config's), ``_text_head``, ``_text_note`` (after a block's heading),
    ``_text_blocks`` (what each block did, looping over ``_each_block``) and
    ``_text_counts``."""

    def _json_head(self):
        return {}

    def to_dict(self):
        out = self.config.to_dict()
        out.update(self._json_head())  # a field the config already has keeps its place
        out["output"] = list(self.output)
        out["blocks"] = [b.to_dict() for b in self.blocks]
        out["counters"] = self.counters.to_dict()
        return out

    def to_json(self, indent=None):
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    def to_text(self):
        lines = [self._text_head()]
        self._text_blocks(lines)
        lines.append(f"output: {' '.join(self.output)}")
        lines.append(self._text_counts(self.counters))
        return "\n".join(lines)

    def _each_block(self, lines):
        """The blocks in turn, each between its heading line and its committed line:
        the loop body appends what the block did."""
        for b in self.blocks:
            lines.append(f"block {b.index + 1}  prefix [{' '.join(b.prefix)}]" + self._text_note(b))
            yield b
            lines.append(f"  committed {' '.join(b.committed)}")
