#!/usr/bin/env python3
"""A fault-injecting HTTP proxy on 127.0.0.1 for the storage tests: forwards every request to
an upstream S3 server on loopback, except those its plan makes fail, and counts them all.

  fault_proxy.py UPSTREAM_PORT STATS_FILE PLAN_JSON [CERT KEY]

With CERT and KEY (PEM files) it speaks HTTPS (the TLS tests).

The plan (JSON), faults decided by the request's arrival number n (1-based):
  "schedule": {"n": fault, ...}      the fault named for request n (kinds below)
  "slowdown": [[first, last], ...]  n in a range: 503 SlowDown, not forwarded
  "rate": 0.05, "faults": [...], "seed": 1
                                    otherwise, with probability `rate` (seeded), one of
                                    "503" (503 ServiceUnavailable, not forwarded),
                                    "reset" (connection reset before forwarding),
                                    "reset-after" (forwarded, then the connection reset:
                                    the request took effect, its answer is lost)
  "slow": {"every": k, "seconds": s} otherwise, every k-th request is forwarded and its
                                    answer held back s seconds (a client timeout)
Prints its port on its first line; after each request, writes its counts to STATS_FILE as
JSON: {"requests", "methods": {GET: ...}, "operations": {LIST: ..., GET: ...}, "faults": {kind: ...},
"forwarded", "connections", "ranged"} ("operations" names a GET with list-type in its query LIST;
"ranged" counts the GETs with a Range header, absent while there is none)
(connections accepted). Serves until
standard input closes."""
import http.client
import http.server
import json
import os
import random
import socket
import ssl
import struct
import sys
import threading
import time

upstream_port = int(sys.argv[1])
stats_path = sys.argv[2]
plan = json.loads(sys.argv[3])
lock = threading.Lock()
rng = random.Random(plan.get("seed", 1))
stats = {"requests": 0, "methods": {}, "operations": {}, "faults": {}, "forwarded": 0, "connections": 0}

SLOWDOWN = b"<?xml version='1.0' encoding='UTF-8'?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
UNAVAILABLE = b"<?xml version='1.0' encoding='UTF-8'?><Error><Code>ServiceUnavailable</Code><Message>Service is unable to handle request.</Message></Error>"


def decide(n):
    scheduled = plan.get("schedule", {}).get(str(n))
    if scheduled:
        return scheduled
    for first, last in plan.get("slowdown", []):
        if first <= n <= last:
            return "slowdown"
    if plan.get("rate", 0) > 0 and rng.random() < plan["rate"]:
        return rng.choice(plan.get("faults", ["503"]))
    slow = plan.get("slow")
    if slow and n % slow["every"] == 0:
        return "slow"
    return None


def save():
    temporary = stats_path + ".tmp"
    with open(temporary, "w") as f:
        json.dump(stats, f)
    os.replace(temporary, stats_path)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Answers go out at once (TCP_NODELAY): without it a response written in two parts waits
    # for the client's delayed ACK, about 40 ms a request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        with lock:
            stats["connections"] += 1
            save()

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name.lower() == "content-length" for name, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            stats["requests"] += 1
            n = stats["requests"]
            stats["methods"][self.command] = stats["methods"].get(self.command, 0) + 1
            operation = "LIST" if self.command == "GET" and "list-type=" in self.path else self.command
            stats["operations"][operation] = stats["operations"].get(operation, 0) + 1
            if operation == "GET" and self.headers.get("Range"):
                stats["ranged"] = stats.get("ranged", 0) + 1
            fault = decide(n)
            if fault:
                stats["faults"][fault] = stats["faults"].get(fault, 0) + 1
            if fault not in ("slowdown", "503", "reset"):  # Forwarded.
                stats["forwarded"] += 1
            save()
        if fault == "slowdown":
            return self.answer(503, SLOWDOWN, [("Content-Type", "application/xml")])
        if fault == "503":
            return self.answer(503, UNAVAILABLE, [("Content-Type", "application/xml")])
        if fault == "reset":
            return self.reset()
        connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "expect")}
        connection.request(self.command, self.path, body=body if length or self.command in ("PUT", "POST") else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        dropped = ("transfer-encoding", "connection") + (() if self.command == "HEAD" else ("content-length",))
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in dropped]
        connection.close()
        if fault == "reset-after":
            return self.reset()
        if fault == "slow":
            time.sleep(plan["slow"]["seconds"])
        try:
            self.answer(response.status, data, kept)
        except OSError:
            self.close_connection = True

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


server = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) > 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[4], sys.argv[5])
    server.socket = context.wrap_socket(server.socket, server_side=True)
save()
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
