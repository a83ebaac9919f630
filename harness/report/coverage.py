"""``coverage.md``: the operator coverage table of :mod:`harness.coverage`, one row per case and SoC."""

from __future__ import annotations

# The stage columns of a coverage row (harness.coverage.case_coverage fills them).
COLUMNS = ("recognized", "lowered", "compiled", "validated_iss", "validated_rtl")


def markdown(rows: list[dict]) -> str:
    lines = [
        "# Operator coverage",
        "",
        "| case | soc | recognized | lowered | compiled | validated on iss | validated on rtl | vectorized ops | instructions in forward (iss) | vector share | cycles in forward (rtl) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        mix, kmix = r.get("mix"), r.get("kernel_mix")
        # region share, without vset* in the count, and the kernel's own share (no call set-up)
        share = f"{mix['vector_fraction']:.0%}" if mix else ""
        if mix and mix["forward"] > mix["vset"]:
            share += f" ({mix['vector'] / (mix['forward'] - mix['vset']):.0%} w/o vset"
            share += f"; kernel {kmix['vector_fraction']:.0%})" if kmix else ")"
        cells = [
            r["case"],
            r["soc"],
            *(r[c] for c in COLUMNS),
            r.get("vectorized_ops", ""),
            str(r.get("iss_forward", "")),
            share,
            str(r.get("rtl_forward", "")),
        ]
        lines.append("| " + " | ".join(str(x).replace("|", "/") for x in cells) + " |")
    return "\n".join(lines) + "\n"
