// A library for tests/util/import_redirect_test.cpp. It imports getpid, which it only calls
// (through its procedure linkage table), and getuid, whose address it hands out (from its
// global offset table).
#include <unistd.h>

using UidFunction = uid_t (*)();

extern "C" pid_t opm_probe_pid() { return ::getpid(); }

extern "C" UidFunction opm_probe_uid_function() { return &::getuid; }
