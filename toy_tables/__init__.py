"""The toy A/B/C tables: the target and two drafts, exact and validated."""

from .data import ALIGNED, BIASED, TARGET, TOKENS
from .table import Table, TableError, load_table, row_label

target = load_table("target", TARGET)
drafts = {"aligned": load_table("aligned", ALIGNED), "biased": load_table("biased", BIASED)}

__all__ = ["TOKENS", "Table", "TableError", "drafts", "load_table", "row_label", "target"]
