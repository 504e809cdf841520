#!/usr/bin/python3
"""Keeps CLIENTS concurrent ListBundles streams going against ADDRESS until the server goes
away or SECONDS pass, then prints `completed=<n> cut=<n>`: streams that ended OK with every
message, and streams that ended early after their first message (an in-flight call the
server dropped). Calls the server refused before answering (UNAVAILABLE, or CANCELLED for
a call not yet dispatched when the stop began) end that client quietly.

    load.py ADDRESS CLIENTS SECONDS [READY_FILE]

READY_FILE, when given, is made once a stream has completed: a test waits for it, not for a
time that a loaded machine may not keep.
"""
import sys
import threading
import time

import grpc


def main():
    address, clients, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    ready_file = sys.argv[4] if len(sys.argv) > 4 else None
    counts = {"completed": 0, "cut": 0}
    sizes = set()
    lock = threading.Lock()
    deadline = time.time() + seconds

    def worker():
        channel = grpc.insecure_channel(address)
        call = channel.unary_stream("/api.Registry/ListBundles",
                                    request_serializer=lambda b: b,
                                    response_deserializer=lambda b: b)
        while time.time() < deadline:
            received = 0
            try:
                for _ in call(b"", timeout=30):
                    received += 1
            except grpc.RpcError:
                if received:
                    with lock:
                        counts["cut"] += 1
                return
            with lock:
                counts["completed"] += 1
                sizes.add(received)
                if ready_file and counts["completed"] == 1:
                    open(ready_file, "w").close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("completed=%d cut=%d sizes=%s" % (counts["completed"], counts["cut"],
                                           ",".join(map(str, sorted(sizes)))))


if __name__ == "__main__":
    main()
