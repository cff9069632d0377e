"""Misbehaving "nodes" on loopback sockets, for the client's failover tests: each is a real TCP
server that accepts connections and then fails in one particular way, and counts connections."""

import socket
import struct
import threading
import time


class LoopbackServer:
    """Accepts connections on 127.0.0.1 and hands each to `behaviour` on its own thread.

    Behaviours: "hang" (never answers), "reset" (reads the request, waits `delay`, then resets the
    connection), "unavailable" (answers HTTP 503, like a node shutting down).
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

    def close(self):
        self._stop.set()
        self._thread.join()
        for conn in self._held:
            conn.close()
        self._listener.close()
