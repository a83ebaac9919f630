"""Errors the user can act on: printed by ``cosim`` without a traceback (exit code 2)."""


class CosimError(Exception):
    """Something in the user's input or environment is wrong; the message says what to do."""
