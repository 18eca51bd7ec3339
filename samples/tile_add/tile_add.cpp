// tile_add.cpp — c = a + b over vectors of 2^26 + 1000 elements, in f32 and in bf16, on the Tile
// path: the kernel says what one tile block does with its 4096-element tile of c; the translator
// chooses the threads, the 16-byte vector loads and the masked edge block.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "../common/sample_check.hpp"

namespace ct = carbide::tile;

namespace tile_add {

template <class T>
CARBIDE_TILE_KERNEL
void add(ct::out<T, ct::shape<4096>> c, ct::in<T, 1> a, ct::in<T, 1> b) {
  c.store(ct::load_like(a, c) + ct::load_like(b, c));
}

}  // namespace tile_add

template <class T>
int run(const tile_add::Module& module, const carbide::Stream& stream, std::size_t n, const char* what) {
  const std::vector<float> a_values = sample::random_floats(n), b_values = sample::random_floats(n);
  std::vector<T> a_host(n), b_host(n);
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    a_host[i] = T(a_values[i]), b_host[i] = T(b_values[i]);
    expected[i] = double(float(a_host[i])) + double(float(b_host[i]));
  }
  const auto a = carbide::Tensor<T>::from_host(stream, a_host, {n});
  const auto b = carbide::Tensor<T>::from_host(stream, b_host, {n});
  auto c = carbide::Tensor<T>::zeroed(stream, {n});
  auto tiles = std::move(c).partition(ct::shape<4096>{});
  module.add<T>(stream, tiles, a, b);
  c = std::move(tiles).unpartition();
  // bf16 rounds the sum once: at most half an ulp, 2^-9 relative.
  return sample::verdict(what, sample::relative_error(c.to_host_vec(stream), expected),
                         sizeof(T) == 2 ? 4e-3 : 1e-7);
}

int main(int argc, char** argv) try {
  auto context = carbide::Context::create_default();  // GPU 0, else the CPU
  const std::size_t n = sample::small_run(argc, argv, context) ? 100000 : (std::size_t(1) << 26) + 1000;
  auto stream = context.default_stream();
  const auto module = tile_add::load(context);
  const int f32 = run<float>(module, stream, n, "tile add, f32");
  const int bf16 = run<ct::bf16>(module, stream, n, "tile add, bf16");
  return f32 | bf16;
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
