# Loopback ports for the suites that start servers (tests/serve/, tests/registry/); sourced.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT: until something accepts TCP connections there.
wait_port() {
  local i
  for i in $(seq 400); do
    if (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; then
      return 0
    fi
    sleep 0.025
  done
  echo "nothing listens on port $1" >&2
  return 1
}
