#include <catch2/catch.hpp>

#include "model/core/geometry.hpp"

using namespace meshsync;

TEST_CASE("dimension-order routing picks the first dimension by the R bit") {
  CHECK(next_port({1, 1}, {3, 4}, Route::XY) == Port::PlusX);
  CHECK(next_port({1, 1}, {3, 4}, Route::YX) == Port::PlusY);
  CHECK(next_port({3, 1}, {3, 4}, Route::XY) == Port::PlusY);
  CHECK(next_port({3, 4}, {3, 4}, Route::YX) == Port::Local);
  CHECK(next_port({5, 5}, {0, 0}, Route::XY) == Port::MinusX);
  CHECK(next_port({5, 5}, {0, 0}, Route::YX) == Port::MinusY);
}
