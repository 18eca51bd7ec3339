#pragma once

namespace stencil {

struct Weights {
  float tap[9];
};

}  // namespace stencil
