"""Reading the blocks of a classic result mail as mapping tools do (mapper-compat.md),
shared by the end-to-end tests that read our mails back."""

from __future__ import annotations


def read_ownership(lines: list[str], i: int, into: dict[str, list[str]]) -> int:
    """Read the block that starts at ``lines[i] == "Ownership of supply centers:"`` into
    ``into`` (power -> centre names, continuation lines joined) and return the index of the
    blank line that ends it. Asserts exactly one blank line after the header (item 7)."""
    assert lines[i] == "Ownership of supply centers:"
    assert lines[i + 1] == "" and lines[i + 2], "exactly one blank line after the ownership header"
    i += 2
    current = ""
    while lines[i]:
        head, sep, rest = lines[i].partition(":")
        if sep and not lines[i].startswith(" "):
            current, text = head, rest
        else:
            text = lines[i]
        into.setdefault(current, []).extend(c.strip() for c in text.strip().rstrip(".").split(",") if c.strip())
        i += 1
    return i
