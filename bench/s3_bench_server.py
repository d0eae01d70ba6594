#!/usr/bin/env python3
"""moto's S3 server on 127.0.0.1 (as Tests/S3/moto_server.py) with a bucket seeded in-process for
bench/s3-noop.sh: COUNT copies of FILE at PREFIXdNNNN/pNNNNNNN.jpg (folders of 1,000) in BUCKET,
put through moto's backend, not over HTTP (100,000 in about 30 s instead of an hour of PUTs).
Prints the port once seeded; serves until standard input closes.

  s3_bench_server.py BUCKET PREFIX COUNT FILE
"""
import socketserver
import sys

# Answers go out at once (TCP_NODELAY), not after the client's delayed ACK (about 40 ms).
socketserver.StreamRequestHandler.disable_nagle_algorithm = True

from moto.core import DEFAULT_ACCOUNT_ID
from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.s3.models import s3_backends

bucket, prefix, count, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
backend = s3_backends[DEFAULT_ACCOUNT_ID]["global"]
backend.create_bucket(bucket, "us-east-1")
with open(path, "rb") as f:
    data = f.read()
for index in range(count):
    backend.put_object(bucket, f"{prefix}d{index // 1000:04d}/p{index:07d}.jpg", data)
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
