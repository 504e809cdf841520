// toml++'s compiled part (the parser behind registries_conf.cpp), built into opm rather than
// loaded from libtomlplusplus.so: every start skips one more shared library. Compiled alone,
// not in a unity batch, so that the implementation is not left out by an earlier include.
#define TOML_IMPLEMENTATION
#include "registry/toml.hpp"
