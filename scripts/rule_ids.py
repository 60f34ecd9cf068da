"""Extract every rule id of a Magic Comprehensive Rules text (one Markdown file per rule
section, as research/rules-texts/mtg holds it) into one sorted list, the compact index
tests/test_rule_ids.py checks cited ids against (src/obverse/data/rules/).

    python3 scripts/rule_ids.py RULES_DIR > src/obverse/data/rules/mtg-2025-09.txt

Files whose number and title disagree with the table of contents are stale copies under an
old section number (the mirror keeps both) and are skipped.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HEADER = """\
# MTG Comprehensive Rules, effective September 19, 2025: every rule id (one a line).
# Extracted once from the rules text (research/rules-texts/mtg, a mirror of the official
# text; stale duplicate files under old section numbers skipped by the table of contents)
# by scripts/rule_ids.py; tests/test_rule_ids.py checks every id a ruling cites against it.
"""


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _key(rule: str) -> tuple[int, int, str]:
    head, _, tail = rule.partition(".")
    m = re.match(r"(\d*)([a-z]?)", tail)
    assert m is not None
    return int(head), int(m.group(1) or 0), m.group(2)


def rule_ids(root: Path) -> list[str]:
    """Every rule id (``310``, ``310.4``, ``310.4b``) of the current sections under
    ``root``."""
    toc = (root / "TABLE_OF_CONTENTS.md").read_text(encoding="utf-8")
    titles = {m[1]: m[2].strip() for m in re.finditer(r"^\s*(\d{3})\. (.+)$", toc, re.M)}
    ids: set[str] = set(titles)  # the sections themselves (305 Lands)
    for path in sorted((root / "rules").glob("*/*.md")):
        num, _, rest = path.stem.partition("-")
        if num in titles and _slug(titles[num]) != rest:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^(\d{3}\.\d+[a-z]?)\.?\s", line) or re.match(r"^(\d{3})\.\s", line)
            if m:
                ids.add(m[1])
    return sorted(ids, key=_key)


if __name__ == "__main__":
    sys.stdout.write(HEADER + "\n".join(rule_ids(Path(sys.argv[1]))) + "\n")
