"""Misbehaving "nodes" on loopback sockets, for the client's failover tests: each is a real TCP
server that accepts connections and then fails in one particular way, and counts connections."""

import json
import socket
import struct
import threading
import time

# Answers meaning "busy" (search/client.py is_busy), shortened from what the nodes gave a search past
# its `timeout` with allow_partial_search_results=false: 9.2.4 answered 429, 8.19.21 answered 504.
BUSY_ANSWERS = {
    "9.x timeout": (
        429,
        {
            "error": {
                "root_cause": [{"type": "search_timeout_exception", "reason": "Time exceeded", "timed_out": True}],
                "type": "search_phase_execution_exception",
                "reason": "all shards failed",
            },
            "status": 429,
        },
    ),
    "8.x timeout": (
        504,
        {"error": {"root_cause": [{"type": "search_timeout_exception", "reason": "Time exceeded"}], "type": "search_phase_execution_exception"}, "status": 504},
    ),
    "queue full": (429, {"error": {"root_cause": [{"type": "es_rejected_execution_exception"}], "type": "es_rejected_execution_exception"}, "status": 429}),
}
BUSY_BODY = json.dumps(BUSY_ANSWERS["9.x timeout"][1]).encode()
EMPTY_BODY = b'{"took":1,"timed_out":false,"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}'


class LoopbackServer:
    """Accepts connections on 127.0.0.1 and hands each to `behaviour` on its own thread.

    Behaviours: "hang" (never answers), "reset" (reads the request, waits `delay`, then resets the
    connection), "unavailable" (answers HTTP 503, like a node shutting down), "busy" (answers HTTP
    429 with the body Elasticsearch 9.2.4 gave a search past its `timeout`), "empty" (answers a
    search with no hits); these two close the connection after their answer.
    """

    def __init__(self, behaviour: str, *, delay: float = 0.0):
        self.behaviour, self.delay = behaviour, delay
        self.connections = 0
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.1)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                continue
            self.connections += 1
            self._held.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            getattr(self, f"_{self.behaviour}")(conn)
        except OSError:  # closed under it when the test ends
            pass

    def _hang(self, conn):
        pass

    def _reset(self, conn):
        conn.recv(65536)
        time.sleep(self.delay)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with RST
        conn.close()

    def _unavailable(self, conn):
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")

    def _busy(self, conn):
        self._answer(conn, b"429 Too Many Requests", BUSY_BODY)

    def _empty(self, conn):
        self._answer(conn, b"200 OK", EMPTY_BODY)

    @staticmethod
    def _answer(conn, status: bytes, body: bytes):
        conn.recv(65536)
        head = b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nX-Elastic-Product: Elasticsearch\r\nConnection: close\r\n" % status
        conn.sendall(head + b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        conn.close()

    def close(self):
        self._stop.set()
        self._thread.join()
        for conn in self._held:
            conn.close()
        self._listener.close()


class DelayingProxy:
    """A TCP proxy in front of a real node that holds each request whose first line holds every
    one of `match` for `delay` seconds before passing it on, as a node does with a write queued
    behind a rebuild's bulk load: the client may give up meanwhile, the node still applies it."""

    def __init__(self, upstream: str, *, delay: float, match: tuple[bytes, ...]):
        from urllib.parse import urlsplit

        parts = urlsplit(upstream)
        self.upstream, self.delay, self.match = (parts.hostname, parts.port), delay, match
        self.held = 0  # requests held so far
        self._stop = threading.Event()
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.1)
        port = self._listener.getsockname()[1]
        self.url = parts._replace(netloc=parts.netloc.replace(f"{parts.hostname}:{parts.port}", f"127.0.0.1:{port}")).geturl()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        upstream = socket.create_connection(self.upstream)
        threading.Thread(target=self._pump, args=(upstream, conn, False), daemon=True).start()
        self._pump(conn, upstream, True)

    def _pump(self, source, target, requests: bool):
        """Bytes from source to target; requests matching are held first. The response side ends
        both sockets (so a request the client gave up on still reaches the node whole)."""
        try:
            while data := source.recv(65536):
                first_line = data.split(b"\r\n", 1)[0]
                if requests and all(m in first_line for m in self.match):
                    self.held += 1
                    time.sleep(self.delay)
                target.sendall(data)
        except OSError:
            pass
        finally:
            if not requests:
                source.close()
                target.close()

    def close(self):
        self._stop.set()
        self._listener.close()
