// Experiment, not part of the build; host code only (no GPU needed): checks ct::bf16 and ct::f16's
// host conversions (carbide/tile/types.hpp) against the CUDA headers' own host conversions,
// __float2bfloat16_rn / __float2half_rn and back, over every float bit pattern and every 16-bit
// pattern. float -> 16 bits must match bit for bit (NaNs included: both give the canonical 0x7fff);
// 16 bits -> float must match bit for bit, except that a NaN need only stay a NaN.
//   nvcc -O3 -std=c++17 -I runtime/include bench/experiments/tile_types_check.cu -o tile_types_check && ./tile_types_check
#include <carbide/tile/types.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace ct = carbide::tile;

namespace {

std::uint16_t bits(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
std::uint16_t bits(__half v) { return __half_as_ushort(v); }
bool same_float(float x, float y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  std::uint32_t a, b;
  std::memcpy(&a, &x, 4), std::memcpy(&b, &y, 4);
  return a == b;
}

}  // namespace

int main() {
  unsigned long long bf16_bad = 0, f16_bad = 0;
  for (std::uint64_t u = 0; u <= 0xffffffffull; ++u) {
    float f;
    const std::uint32_t w = std::uint32_t(u);
    std::memcpy(&f, &w, 4);
    const std::uint16_t mine_b = ct::bf16(f).bits(), ref_b = bits(__float2bfloat16_rn(f));
    if (mine_b != ref_b) {
      if (bf16_bad++ < 5) std::printf("bf16(%08x): %04x, CUDA %04x\n", w, mine_b, ref_b);
    }
    const std::uint16_t mine_h = ct::f16(f).bits(), ref_h = bits(__float2half_rn(f));
    if (mine_h != ref_h) {
      if (f16_bad++ < 5) std::printf("f16(%08x): %04x, CUDA %04x\n", w, mine_h, ref_h);
    }
  }
  unsigned back_bad = 0;
  for (std::uint32_t b = 0; b <= 0xffffu; ++b) {
    const std::uint16_t h = std::uint16_t(b);
    if (!same_float(float(ct::bf16::from_bits(h)), __bfloat162float(__ushort_as_bfloat16(h)))) ++back_bad;
    if (!same_float(float(ct::f16::from_bits(h)), __half2float(__ushort_as_half(h)))) ++back_bad;
  }
  std::printf("float -> bf16 over 2^32 floats: %llu mismatches\n", bf16_bad);
  std::printf("float -> f16  over 2^32 floats: %llu mismatches\n", f16_bad);
  std::printf("bf16/f16 -> float over 2 x 2^16 patterns: %u mismatches\n", back_bad);
  const bool ok = bf16_bad == 0 && f16_bad == 0 && back_bad == 0;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
