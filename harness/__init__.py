"""The harness: cases, program builder, runners, checks, results, reports, the ``cosim`` CLI.

May import ``compiler``, ``sim`` and ``configs``; nothing imports it but ``tests``.
"""
