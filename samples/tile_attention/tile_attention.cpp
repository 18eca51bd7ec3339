// tile_attention.cpp — forward attention on the Tile path, O = softmax(Q·Kᵀ·scale)·V per head,
// bf16 in and out with f32 statistics, head dimensions 64 and 128, causal and not. One tile block
// owns BM query rows of one head: it walks the key tiles (up to the diagonal when causal), with an
// online softmax: the running maximum m and sum l of each row carried through the loop, the
// accumulator rescaled by exp(m_old - m_new) before P·V adds the tile's share. Sequence lengths
// need not be multiples of the tiles: keys past the end are masked, queries past it not stored.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "../common/sample_check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace ct = carbide::tile;

namespace tile_attention {

// q, k, v and o are [heads, sequence, D] (a batch of heads flattened into the first axis).
template <int BM, int BN, int D, bool Causal>
CARBIDE_TILE_KERNEL
void attention(ct::out<ct::bf16, ct::shape<1, BM, D>> o, ct::in<ct::bf16, 3> q, ct::in<ct::bf16, 3> k,
               ct::in<ct::bf16, 3> v, float scale) {
  auto [h, bm, d0] = o.coord();
  const int n = k.extent(1);
  auto pq = q.partition(ct::shape<1, BM, D>{});
  auto pk = k.partition(ct::shape<1, BN, D>{});
  auto pv = v.partition(ct::shape<1, BN, D>{});
  auto qt = ct::reshape<ct::shape<BM, D>>(pq.load(h, bm, d0));
  auto m = ct::full<float, ct::shape<BM>>(-INFINITY);
  auto l = ct::zeros<float, ct::shape<BM>>();
  auto acc = ct::zeros<float, ct::shape<BM, D>>();
  // Causal: no key tile past this block's last row.
  const int tiles = Causal ? std::min(pk.tiles(1), ((bm + 1) * BM + BN - 1) / BN) : pk.tiles(1);
  for (int j : ct::irange(tiles)) {
    auto kt = ct::reshape<ct::shape<BN, D>>(pk.load(h, j, 0));
    auto s = ct::mma(qt, ct::transpose(kt), ct::zeros<float, ct::shape<BM, BN>>()) * scale;
    auto key = ct::iota<int, ct::shape<BM, BN>, 1>() + j * BN;
    s = ct::select(key < n, s, -INFINITY);
    if constexpr (Causal) s = ct::select(key <= ct::iota<int, ct::shape<BM, BN>, 0>() + bm * BM, s, -INFINITY);
    auto m_new = ct::max(m, ct::reduce_max<1>(s));
    auto p = ct::exp(s - ct::bcast<1>(m_new, s));
    auto alpha = ct::exp(m - m_new);
    l = l * alpha + ct::reduce_sum<1>(p);
    acc = ct::mma(ct::cast<ct::bf16>(p), ct::reshape<ct::shape<BN, D>>(pv.load(h, j, 0)), acc * ct::bcast<1>(alpha, acc));
    m = m_new;
  }
  o.store(ct::reshape<ct::shape<1, BM, D>>(ct::cast<ct::bf16>(acc / ct::bcast<1>(l, acc))));
}

}  // namespace tile_attention

std::vector<ct::bf16> random_bf16(std::size_t n) {
  std::vector<ct::bf16> values;
  for (float v : sample::random_floats(n)) values.push_back(ct::bf16(v));
  return values;
}

// Launches attention<64, 64, D, Causal> over [heads, n, D] and compares every `step`-th query row
// of every head with a float64 softmax of the same bf16 inputs.
template <int D, bool Causal>
int run(const tile_attention::Module& module, const carbide::Stream& stream, std::size_t heads, std::size_t n) {
  const std::size_t count = heads * n * D;
  const std::vector<ct::bf16> q_host = random_bf16(count), k_host = random_bf16(count), v_host = random_bf16(count);
  const auto q = carbide::Tensor<ct::bf16>::from_host(stream, q_host, {heads, n, D});
  const auto k = carbide::Tensor<ct::bf16>::from_host(stream, k_host, {heads, n, D});
  const auto v = carbide::Tensor<ct::bf16>::from_host(stream, v_host, {heads, n, D});
  auto o = carbide::Tensor<ct::bf16>::zeroed(stream, {heads, n, D});
  const float scale = 1.f / std::sqrt(float(D));
  auto tiles = std::move(o).partition(ct::shape<1, 64, D>{});
  module.attention<64, 64, D, Causal>(stream, tiles, q, k, v, scale);
  o = std::move(tiles).unpartition();
  const std::vector<ct::bf16> result = o.to_host_vec(stream);
  const std::size_t step = n > 512 ? 37 : 1;
  std::vector<double> expected, weights(n);
  std::vector<float> got;
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; i += step) {
      const std::size_t keys = Causal ? i + 1 : n, row = (h * n + i) * D;
      double largest = -INFINITY, sum = 0;
      for (std::size_t j = 0; j < keys; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d) dot += double(float(q_host[row + d])) * float(k_host[(h * n + j) * D + d]);
        weights[j] = dot * scale;
        largest = std::max(largest, weights[j]);
      }
      for (std::size_t j = 0; j < keys; ++j) sum += weights[j] = std::exp(weights[j] - largest);
      for (int d = 0; d < D; ++d) {
        double value = 0;
        for (std::size_t j = 0; j < keys; ++j) value += weights[j] * float(v_host[(h * n + j) * D + d]);
        expected.push_back(value / sum);
        got.push_back(float(result[row + d]));
      }
    }
  const std::string what = std::string("tile attention (bf16, f32 statistics), ") + (Causal ? "causal, " : "") +
                           std::to_string(heads) + " heads x " + std::to_string(n) + " x " + std::to_string(D);
  // P is rounded to bf16 before P·V and O to bf16 when stored: about 2^-9 relative each.
  return sample::verdict(what.c_str(), sample::relative_error(got, expected), 1e-2);
}

int main(int argc, char** argv) try {
  auto context = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, context);
  auto stream = context.default_stream();
  const auto module = tile_attention::load(context);
  const std::size_t heads = small ? 2 : 16, n = small ? 200 : 4096, odd = small ? 77 : 1000;
  return run<64, false>(module, stream, heads, n) | run<64, true>(module, stream, heads, n) |
         run<128, false>(module, stream, heads, odd) | run<128, true>(module, stream, heads, odd) |
         run<64, true>(module, stream, 1, odd) | run<128, false>(module, stream, 1, n);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
