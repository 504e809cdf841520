#include "util/interrupt.hpp"

#include <doctest/doctest.h>

#include <signal.h>

using namespace opm::util;

namespace {

bool handler_is(int sig, void (*handler)(int)) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return now.sa_handler == handler;
}

// Sets a signal's action for the life of the object, then puts the old one back.
class SignalAction {
public:
  SignalAction(int sig, void (*handler)(int)) : m_sig(sig) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, &m_old);
  }
  ~SignalAction() { ::sigaction(m_sig, &m_old, nullptr); }
  SignalAction(const SignalAction&) = delete;
  SignalAction& operator=(const SignalAction&) = delete;

private:
  int m_sig;
  struct sigaction m_old {};
};

} // namespace

TEST_SUITE("interrupt") {
  TEST_CASE("a SIGINT the parent ignored stays ignored inside an interrupt scope") {
    SignalAction ignored(SIGINT, SIG_IGN);
    {
      InterruptScope scope;
      CHECK(handler_is(SIGINT, SIG_IGN));
      ::raise(SIGINT);
      CHECK_FALSE(interrupted());
    }
    CHECK(handler_is(SIGINT, SIG_IGN));
  }

  TEST_CASE("SIGTERM is caught inside an interrupt scope and restored after it") {
    SignalAction fallback(SIGTERM, SIG_DFL);
    {
      InterruptScope scope;
      CHECK_FALSE(handler_is(SIGTERM, SIG_DFL));
      CHECK_FALSE(handler_is(SIGTERM, SIG_IGN));
    }
    CHECK(handler_is(SIGTERM, SIG_DFL));
  }
}
