#!/usr/bin/python3
"""A real gRPC server on loopback for the probe's failure cases:

    health_server.py PORT not-serving    grpc.health.v1.Health/Check answers NOT_SERVING
    health_server.py PORT no-health      no service at all (every call is UNIMPLEMENTED)

Prints "ready" once it listens, then serves until killed.
"""
import sys
import time
from concurrent import futures

import grpc

NOT_SERVING = b"\x08\x02"  # HealthCheckResponse{status: NOT_SERVING}


def main():
    port, mode = sys.argv[1], sys.argv[2]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    if mode == "not-serving":
        check = grpc.unary_unary_rpc_method_handler(lambda request, context: NOT_SERVING)
        server.add_generic_rpc_handlers(
            [grpc.method_handlers_generic_handler("grpc.health.v1.Health", {"Check": check})])
    server.add_insecure_port("127.0.0.1:" + port)
    server.start()
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
