#include "cmd/run.hpp"

int main(int argc, char** argv) { return opm::cmd::run(argc, argv); }
