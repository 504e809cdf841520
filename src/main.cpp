#include "cmd/commands.hpp"

int main(int argc, char** argv) { return opm::cmd::run(argc, argv); }
