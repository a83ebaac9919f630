"""Down-level LLVM IR text from MLIR's LLVM 24 to what LLVM 22 (zig cc) parses.

Every rewrite keeps the program's meaning:

- ``f0x<bits>`` hex floats (the new spelling, bits in the type's own format)
  become the classic ``0x<16 hex digits>`` (the value as a double), or
  ``0xH``/``0xR`` for half/bfloat.
- decimal float constants of type ``float`` are spelled in hex: LLVM 22 accepts a
  decimal float only if the double it denotes is exactly a float, and LLVM 24
  prints the shortest decimal that round-trips (``1.41421354``), which is not.
- flags LLVM 22 may not know are dropped; they only allow optimizations:
  ``getelementptr ... nuw``/``nusw``, ``nneg`` on casts, ``samesign`` on icmp.
- ``captures(none)`` becomes ``nocapture``; other ``captures(...)`` are dropped.
- ``inf``, ``+inf``, ``-inf``, ``nan``, ``+qnan``, ``-qnan`` become double-format
  hex (LLVM 22 does not parse the new spelling: ``log``'s NaN for x < 0 failed).

Strings, comments and identifiers are never touched.
"""

from __future__ import annotations

import re
import struct

_HEX_FLOAT = re.compile(r"\bf0x([0-9A-Fa-f]+)\b")
# A decimal float token: digits with a point and/or an exponent, not part of a name.
_DEC_FLOAT = re.compile(r"(?<![\w.%@$#!\-+])([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?![\w.])")
_SPECIAL = re.compile(r"(?<![\w%@$])([-+]?(?:inf|qnan|nan))(?![\w(])")  # NaN payloads: not seen, left as they are
_FLOAT_TYPES = re.compile(r"\b(half|bfloat|float|double)\b")


def _double_hex(value: float) -> str:
    return "0x" + struct.pack(">d", value).hex().upper()


def _float_bits_to_double(bits: int) -> float:
    return struct.unpack(">f", struct.pack(">I", bits))[0]


def _hex_float(m: re.Match, ty: str | None) -> str:
    digits = m.group(1)
    if len(digits) == 8 and ty in (None, "float"):
        return _double_hex(_float_bits_to_double(int(digits, 16)))
    if len(digits) == 16:
        return "0x" + digits.upper()
    if len(digits) == 4 and ty == "bfloat":
        return "0xR" + digits.upper()
    if len(digits) == 4:
        return "0xH" + digits.upper()
    return m.group(0)


def _special(tok: str) -> str:
    """``inf``, ``+inf``, ``-qnan``... (LLVM 24) as double-format hex (LLVM 22)."""
    sign = tok.startswith("-")
    frac = 0 if tok.lstrip("+-") == "inf" else 1 << 51  # the preferred quiet NaN
    return "0x%016X" % ((sign << 63) | (0x7FF << 52) | frac)


def _to_float_hex(text: str) -> str:
    value = float(text)
    # Round to the nearest binary32 the way the LLVM 24 printer meant it.
    f32 = struct.unpack(">f", struct.pack(">f", value))[0]
    return _double_hex(f32)


def _split_code(line: str) -> tuple[str, str]:
    """(code, trailing comment), ignoring ';' inside strings."""
    in_str = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_str = not in_str
        elif ch == ";" and not in_str:
            return line[:i], line[i:]
    return line, ""


def _rewrite_floats(code: str) -> str:
    """Rewrite float literals outside strings, each by its nearest preceding type."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', code)
    out = []
    ty: str | None = None
    for k, part in enumerate(parts):
        if k % 2 == 1:  # a string literal
            out.append(part)
            continue
        pieces = []
        pos = 0
        token_re = re.compile(f"{_FLOAT_TYPES.pattern}|{_HEX_FLOAT.pattern}|{_DEC_FLOAT.pattern}|{_SPECIAL.pattern}")
        for m in token_re.finditer(part):
            pieces.append(part[pos : m.start()])
            tok = m.group(0)
            if m.group(1):  # a type keyword
                ty = m.group(1)
                pieces.append(tok)
            elif m.group(2):  # f0x...
                pieces.append(_hex_float(re.match(_HEX_FLOAT.pattern, tok), ty))
            elif m.group(3):  # decimal
                is_float_literal = any(c in tok for c in ".eE")
                if is_float_literal and ty == "float":
                    pieces.append(_to_float_hex(tok))
                else:
                    pieces.append(tok)
            else:  # inf / nan / qnan
                pieces.append(_special(tok) if ty in ("float", "double") else tok)
            pos = m.end()
        pieces.append(part[pos:])
        out.append("".join(pieces))
    return "".join(out)


_FLAG_RULES: list[tuple[re.Pattern, str]] = [
    (re.compile(r"\bgetelementptr((?:\s+(?:inbounds|nuw|nusw))+)"), "GEP"),
    (re.compile(r"\b(zext|uitofp)\s+nneg\b"), r"\1"),
    (re.compile(r"\bicmp\s+samesign\b"), "icmp"),
    (re.compile(r"\bcaptures\(none\)"), "nocapture"),
    (re.compile(r"\s*\bcaptures\([^)]*\)"), ""),
]


def _gep(m: re.Match) -> str:
    flags = m.group(1).split()
    return "getelementptr" + (" inbounds" if "inbounds" in flags else "")


def downlevel(ir_text: str) -> str:
    """LLVM 24 IR text -> LLVM 22 compatible IR text (see the module docstring)."""
    lines = []
    for line in ir_text.splitlines():
        code, comment = _split_code(line)
        if code.lstrip().startswith(("source_filename", "target ")) or code.lstrip().startswith("!"):
            lines.append(line)
            continue
        for pattern, repl in _FLAG_RULES:
            code = pattern.sub(_gep if repl == "GEP" else repl, code)
        code = _rewrite_floats(code)
        lines.append(code + comment)
    return "\n".join(lines) + ("\n" if ir_text.endswith("\n") else "")
