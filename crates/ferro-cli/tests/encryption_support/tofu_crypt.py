#!/usr/bin/env python3
"""An encryptor and decryptor of OpenTofu's encrypted state and plan documents, written from
OpenTofu's published description (website docs "State and Plan Encryption" and the format of
its encrypted files), independent of ferro's code: it checks that ferro writes what OpenTofu
would read and reads what OpenTofu would write.

The document: a JSON object with "meta" (per key provider, the base64 of a JSON document;
pbkdf2's is {"salt": base64, "iterations", "hash_function", "key_length"}),
"encrypted_data" (base64 of a 12-byte nonce, the AES-GCM ciphertext and its 16-byte tag)
and "encryption_version": "v0"; a state's also carries "serial" and "lineage" in clear.

  tofu_crypt.py decrypt PASSPHRASE [KEY_PROVIDER_ADDR] < encrypted > plain
  tofu_crypt.py encrypt PASSPHRASE ITERATIONS HASH [KEY_PROVIDER_ADDR] < plain > encrypted

Needs the `cryptography` package (the moto virtual environment of tools/moto-test-server.sh
has it).
"""
import base64
import json
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

HASHES = {"sha256": hashes.SHA256, "sha512": hashes.SHA512}


def derive(passphrase, salt, iterations, hash_name, length):
    kdf = PBKDF2HMAC(algorithm=HASHES[hash_name](), length=length, salt=salt,
                     iterations=iterations)
    return kdf.derive(passphrase.encode())


def decrypt(passphrase, addr):
    doc = json.load(sys.stdin)
    assert doc["encryption_version"] == "v0", doc.get("encryption_version")
    meta = json.loads(base64.b64decode(doc["meta"][addr]))
    key = derive(passphrase, base64.b64decode(meta["salt"]), meta["iterations"],
                 meta["hash_function"], meta["key_length"])
    blob = base64.b64decode(doc["encrypted_data"])
    nonce, sealed = blob[:12], blob[12:]
    plain = AESGCM(key).decrypt(nonce, sealed, None)
    if "lineage" in doc:
        state = json.loads(plain)
        assert state["lineage"] == doc["lineage"], "lineage in clear differs"
        assert state["serial"] == doc["serial"], "serial in clear differs"
    sys.stdout.buffer.write(plain)


def encrypt(passphrase, iterations, hash_name, addr):
    plain = sys.stdin.buffer.read()
    salt = os.urandom(32)
    key = derive(passphrase, salt, iterations, hash_name, 32)
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, plain, None)
    meta = {"salt": base64.b64encode(salt).decode(), "iterations": iterations,
            "hash_function": hash_name, "key_length": 32}
    doc = {}
    try:
        state = json.loads(plain)
        if isinstance(state, dict) and "lineage" in state:
            doc["serial"] = state.get("serial")
            doc["lineage"] = state["lineage"]
    except ValueError:
        pass
    doc["meta"] = {addr: base64.b64encode(json.dumps(meta, separators=(",", ":")).encode()).decode()}
    doc["encrypted_data"] = base64.b64encode(nonce + sealed).decode()
    doc["encryption_version"] = "v0"
    sys.stdout.write(json.dumps(doc, separators=(",", ":")))


def main():
    args = sys.argv[1:]
    if args and args[0] == "decrypt":
        decrypt(args[1], args[2] if len(args) > 2 else "key_provider.pbkdf2.main")
    elif args and args[0] == "encrypt":
        encrypt(args[1], int(args[2]), args[3],
                args[4] if len(args) > 4 else "key_provider.pbkdf2.main")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
