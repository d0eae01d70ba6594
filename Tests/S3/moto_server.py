#!/usr/bin/env python3
"""moto's S3 server (PyPI moto[server], pinned in scripts/install-deps.sh) on 127.0.0.1 on a
free port, for the storage tests (Tests/TestSupport/S3TestServers.swift): prints the port on
its first line, then serves until its standard input closes (the test ended or died)."""
import sys

from moto.moto_server.threaded_moto_server import ThreadedMotoServer

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
