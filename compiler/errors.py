"""Errors of the compiler layer that the user can act on."""


class CompileError(Exception):
    """A model cannot be compiled: names the op and its source location where known."""
