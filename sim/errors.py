"""Errors of the simulation layer that the user can act on."""


class SimError(Exception):
    """A simulator could not be built or started; the message says why and what to do."""
