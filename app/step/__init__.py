"""The "Step through a block" tab: ``model`` (state), ``words`` (sentences), ``views`` and ``inspector``."""
