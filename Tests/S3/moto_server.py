#!/usr/bin/env python3
"""moto's S3 server (PyPI moto[server], pinned in scripts/install-deps.sh) on 127.0.0.1 on a
free port, for the storage tests (Tests/TestSupport/S3TestServers.swift): prints the port on
its first line, then serves until its standard input closes (the test ended or died)."""
import socketserver
import sys

# Answers go out at once (TCP_NODELAY): werkzeug writes a response in parts, and without it each
# request waits for the client's delayed ACK, about 40 ms.
socketserver.StreamRequestHandler.disable_nagle_algorithm = True

from moto.moto_server.threaded_moto_server import ThreadedMotoServer

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
