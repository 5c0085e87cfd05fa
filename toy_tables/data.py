"""The authored A/B/C tables, as exact decimal strings.

Rows are keyed by the last committed token; ``""`` is the empty prefix. The
target rows are the ones in the widget's description (seed ``000_*.txt``):
authored conditional probabilities, not measured model outputs.

The aligned draft *is* the target, so every proposal is accepted. The biased
draft's empty-prefix row ``[0.80, 0.15, 0.05]`` comes from the same seed; its
rows after A, B and C are authored for this project (each favours A with at
least 0.70, so the draft keeps over-proposing A and the verifier has to
correct it). They are teaching numbers, not measurements of any model.
"""

TOKENS = ("A", "B", "C")

TARGET = {
    "": ("0.50", "0.30", "0.20"),
    "A": ("0.20", "0.60", "0.20"),
    "B": ("0.55", "0.15", "0.30"),
    "C": ("0.25", "0.25", "0.50"),
}

ALIGNED = dict(TARGET)

BIASED = {
    "": ("0.80", "0.15", "0.05"),
    "A": ("0.70", "0.25", "0.05"),
    "B": ("0.75", "0.15", "0.10"),
    "C": ("0.85", "0.05", "0.10"),
}
