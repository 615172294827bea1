#!/usr/bin/env python3
"""A solver that misbehaves on purpose, for the harness's isolation tests.

Usage: misbehave.py crash|hang|junk|flood|silent-exit|deaf|no-read|slow-start|mute
It answers hello correctly, then misbehaves on the first load
(deaf, no-read and mute misbehave right after hello: deaf closes its input
and lives on, no-read never reads again, so a large request fills the pipe,
mute closes its output and lives on).
"""
import json
import os
import sys
import time

mode = sys.argv[1]
if mode == "slow-start":
    time.sleep(2.5)
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "hello":
        print(json.dumps({"ok": True, "name": "misbehave", "version": "1", "protocol": 1, "semantics": "lexicographic",
                          "incremental": False, "edits": True}), flush=True)
        if mode == "deaf":
            sys.stdin.close()
            os.close(0)
            time.sleep(3600)
        if mode == "no-read":
            time.sleep(3600)
        if mode == "mute":
            # Every copy of the output pipe: the launcher may leave a duplicate
            # of it open beside fd 1.
            sys.stdout.close()
            os.close(1)
            os.closerange(3, 1024)
            time.sleep(3600)
        continue
    if mode == "crash":
        sys.stderr.write("segmentation fault (simulated)\n")
        sys.exit(139)
    if mode == "hang":
        time.sleep(3600)
    if mode == "junk":
        print("this is not json {", flush=True)
        continue
    if mode == "flood":
        chunk = "x" * (1 << 20)
        while True:
            sys.stdout.write(chunk)
    if mode in ("silent-exit", "slow-start"):
        sys.exit(0)
