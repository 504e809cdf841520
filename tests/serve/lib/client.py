#!/usr/bin/python3
"""gRPC client for the serve suites: calls one rpc and prints every response message as
one line of JSON (proto field names), or `error <CODE>: <message>` when the call fails.

    client.py ADDRESS SERVICE/METHOD [REQUEST_JSON | hex:REQUEST_BYTES]
    e.g. client.py 127.0.0.1:50051 api.Registry/GetBundle '{"pkgName": "etcd", ...}'

Message types come from the project's own .proto files (compiled with protoc into a
descriptor set at start), so the client checks the wire format the server really speaks.
Special methods: `reflection/list` lists the services the server's reflection reports;
`reflection/file SYMBOL` prints the file name and services of the file defining SYMBOL.
With CALL_METADATA="key: value" in the environment, the call sends that request header.
google.protobuf.Struct answers are printed with their keys sorted (a map has no order).
"""
import json
import os
import subprocess
import sys
import tempfile

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

PROTO_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src", "serve")


def load_pool():
    with tempfile.NamedTemporaryFile(suffix=".pb") as out:
        subprocess.run([os.environ.get("PROTOC", "protoc"), "--proto_path", PROTO_DIR,
                        "--include_imports", "--descriptor_set_out", out.name, "registry.proto", "health.proto"],
                       check=True)
        files = descriptor_pb2.FileDescriptorSet.FromString(open(out.name, "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for f in files.file:
        pool.Add(f)
    return pool


def message_class(desc):
    return message_factory.MessageFactory(desc.file.pool).GetPrototype(desc)


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def fields(buf):
    """(number, bytes) of every length-delimited field of a message."""
    i, out = 0, []
    while i < len(buf):
        key, shift = 0, 0
        while True:
            b = buf[i]; i += 1
            key |= (b & 0x7F) << shift; shift += 7
            if not b & 0x80:
                break
        num, wire = key >> 3, key & 7
        if wire != 2:
            raise ValueError("unexpected wire type")
        n, shift = 0, 0
        while True:
            b = buf[i]; i += 1
            n |= (b & 0x7F) << shift; shift += 7
            if not b & 0x80:
                break
        out.append((num, buf[i:i + n])); i += n
    return out


def fields_any(buf):
    """(number, value) of every varint or length-delimited field of a message."""
    i, out = 0, []
    while i < len(buf):
        key, i = read_varint(buf, i)
        num, wire = key >> 3, key & 7
        value, i = read_varint(buf, i)
        if wire == 2:
            value, i = buf[i:i + value], i + value
        elif wire != 0:
            raise ValueError("unexpected wire type")
        out.append((num, value))
    return out


def read_varint(buf, i):
    value, shift = 0, 0
    while True:
        b = buf[i]; i += 1
        value |= (b & 0x7F) << shift; shift += 7
        if not b & 0x80:
            return value, i


def reflection(channel, version, kind, arg):
    method = channel.stream_stream("/grpc.reflection.%s.ServerReflection/ServerReflectionInfo" % version,
                                   request_serializer=lambda b: b, response_deserializer=lambda b: b)
    if kind == "list":
        request = varint((7 << 3) | 2) + varint(1) + b"*"
    elif kind == "filename":
        data = arg.encode()
        request = varint((3 << 3) | 2) + varint(len(data)) + data
    else:
        data = arg.encode()
        request = varint((4 << 3) | 2) + varint(len(data)) + data
    for response in method(iter([request]), timeout=10):
        for num, body in fields(response):
            if num == 6:  # list_services_response
                for _, service in fields(body):
                    print(dict(fields(service))[1].decode())
            elif num == 4:  # file_descriptor_response
                for _, raw in fields(body):
                    fd = descriptor_pb2.FileDescriptorProto.FromString(raw)
                    print(fd.name, fd.package, " ".join(s.name for s in fd.service))
            elif num == 7:  # error_response
                error = dict(fields_any(body))
                print("reflection error %d: %s" % (error.get(1, 0), error.get(2, b"").decode()))


def main():
    address = sys.argv[1]
    with grpc.insecure_channel(address, options=[("grpc.max_receive_message_length", -1)]) as channel:
        return call_target(channel, sys.argv[2])


def call_target(channel, target):
    if target.startswith("reflection"):
        # reflection/KIND asks v1alpha, reflection-v1/KIND v1.
        prefix, kind = target.split("/")
        version = "v1" if prefix == "reflection-v1" else "v1alpha"
        reflection(channel, version, kind, sys.argv[3] if len(sys.argv) > 3 else "")
        return 0
    service_name, method_name = target.split("/")
    pool = load_pool()
    try:
        method = pool.FindServiceByName(service_name).FindMethodByName(method_name)
        request_type, response_type = method.input_type, method.output_type
        streaming = method.server_streaming
    except KeyError:
        # Not in our protos: an unknown service or method, called with an empty request.
        request_type = response_type = pool.FindMessageTypeByName("api.PackageName")
        streaming = False
    text = sys.argv[3] if len(sys.argv) > 3 else "{}"
    if text.startswith("hex:"):
        # Request bytes as given, to see how the server answers ones that do not decode.
        request, serialize = bytes.fromhex(text[4:]), (lambda b: b)
    else:
        request, serialize = message_class(request_type)(), (lambda m: m.SerializeToString())
        json_format.Parse(text, request)
    response_class = message_class(response_type)
    path = "/%s/%s" % (service_name, method_name)
    parse = response_class.FromString
    metadata = None
    if os.environ.get("CALL_METADATA"):
        key, value = os.environ["CALL_METADATA"].split(":", 1)
        metadata = [(key.strip(), value.strip())]
    try:
        if streaming:
            call = channel.unary_stream(path, request_serializer=serialize, response_deserializer=parse)
            responses = list(call(request, timeout=30, metadata=metadata))
        else:
            call = channel.unary_unary(path, request_serializer=serialize, response_deserializer=parse)
            responses = [call(request, timeout=30, metadata=metadata)]
    except grpc.RpcError as e:
        print("error %s: %s" % (e.code().name, e.details()))
        return 0
    is_struct = response_type.full_name == "google.protobuf.Struct"
    for r in responses:
        print(json.dumps(json_format.MessageToDict(r), sort_keys=is_struct, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
