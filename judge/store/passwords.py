"""Passwords kept as salted scrypt hashes, never as the text a player typed.

Contract::

    from judge.store.passwords import hash_password, check_password
    stored = hash_password("secret")          # "scrypt$16384$8$1$<salt>$<hash>"
    check_password("secret", stored)          # True, in constant time

The standard library's ``hashlib.scrypt`` (RFC 7914) with the interactive-login cost of the
scrypt paper (N=2**14, r=8, p=1: 16 MiB and a few tens of milliseconds), a 16-byte random
salt per password, parameters stored with the hash so a later cost can verify old hashes.
Players sign every mail with their password, so a check that succeeded is remembered for the
life of the process (keyed by an HMAC under a key that never leaves memory); a wrong
password always costs a full scrypt, which the rate limit bounds.

``JUDGE_SCRYPT_LOG2_N`` (an integer from 10 to 20, read at each hash) sets N for new hashes:
the test suite sets 10, since it signs on thousands of players and a fifth of its CPU went
to scrypt; nothing else should. A hash keeps its own N, so every stored one still checks.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import threading

SCHEME = "scrypt"
N, R, P = 2**14, 8, 1
COST_ENV = "JUDGE_SCRYPT_LOG2_N"
SALT_BYTES, KEY_BYTES = 16, 32
MAX_MEMORY = 64 * 1024 * 1024
_CACHE_SIZE = 4096

_cache_key = secrets.token_bytes(32)
_verified: dict[bytes, None] = {}
_lock = threading.Lock()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _derive(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=MAX_MEMORY, dklen=length)


def cost() -> int:
    """N for a new hash: :data:`N`, unless ``JUDGE_SCRYPT_LOG2_N`` names another (10 to 20)."""
    chosen = os.environ.get(COST_ENV, "")
    if chosen.isdigit() and 10 <= int(chosen) <= 20:
        return 1 << int(chosen)
    return N


def hash_password(password: str) -> str:
    """A new salted hash of ``password`` in the stored form."""
    salt = secrets.token_bytes(SALT_BYTES)
    n = cost()
    digest = _derive(password, salt, n, R, P, KEY_BYTES)
    return f"{SCHEME}${n}${R}${P}${_b64(salt)}${_b64(digest)}"


def is_hashed(stored: str) -> bool:
    """Whether ``stored`` is in the stored hash form (and not, say, a plain password)."""
    fields = stored.split("$")
    return len(fields) == 6 and fields[0] == SCHEME and all(f.isdigit() for f in fields[1:4])


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (False for a bad stored form)."""
    if not is_hashed(stored):
        return False
    token = hmac.new(_cache_key, f"{stored}\0{password}".encode("utf-8", "surrogatepass"), "sha256").digest()
    with _lock:
        if token in _verified:
            return True
    _, n, r, p, salt, digest = stored.split("$")
    try:
        expected = base64.b64decode(digest, validate=True)
        actual = _derive(password, base64.b64decode(salt, validate=True), int(n), int(r), int(p), len(expected))
    except (ValueError, MemoryError):
        return False
    if not hmac.compare_digest(actual, expected):
        return False
    with _lock:
        if len(_verified) >= _CACHE_SIZE:
            _verified.pop(next(iter(_verified)))
        _verified[token] = None
    return True
