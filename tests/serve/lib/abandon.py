#!/usr/bin/python3
"""Clients that walk away from ListBundles streams: each of CLIENTS threads, ROUNDS times,
starts a stream, takes its first message and then cancels the call or closes its channel
(in turn), leaving the server with the rest of an answer larger than the client's flow
control window. Prints `abandoned=<n>` (streams that gave a first message and were left).

    abandon.py ADDRESS CLIENTS ROUNDS
"""
import sys
import threading

import grpc


def main():
    address, clients, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    abandoned = [0]
    lock = threading.Lock()

    def worker(index):
        for round_ in range(rounds):
            channel = grpc.insecure_channel(address)
            call = channel.unary_stream("/api.Registry/ListBundles",
                                        request_serializer=lambda b: b,
                                        response_deserializer=lambda b: b)
            stream = call(b"", timeout=30)
            next(stream)
            if (index + round_) % 2 == 0:
                stream.cancel()
            channel.close()
            with lock:
                abandoned[0] += 1

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("abandoned=%d" % abandoned[0])


if __name__ == "__main__":
    main()
