// code_of(call): the errc of the encore::error that `call` throws; a test failure when it throws none.
//
//     CHECK(code_of([&] { g.make_edge(a, a); }) == errc::self_edge);
#pragma once

#include <doctest/doctest.h>

#include "encore/graph/error.hpp"

namespace encore::testing {

template <typename Call> errc code_of(Call&& call) {
    try {
        call();
    } catch (const error& e) {
        return e.code();
    }
    FAIL("no encore::error was thrown");
    return errc::invalid_argument;
}

} // namespace encore::testing
