// Times each sample's Carbide kernel against its hand-written twin and against the ceiling of
// its kind (a device-to-device copy of the same bytes), all in one run: medians of CUDA-event
// timings after warm-up. Prints a table and writes it to the file named by argv[1].
#include "bitonic.carbide.hpp"
#include "convolution.carbide.hpp"
#include "histogram.carbide.hpp"
#include "layernorm.carbide.hpp"
#include "reduction.carbide.hpp"
#include "saxpy.carbide.hpp"
#include "scan.carbide.hpp"
#include "sgemm.carbide.hpp"
#include "softmax.carbide.hpp"
#include "stencil.carbide.hpp"

// stencil.cpp's and convolution.cpp's kernel arguments, which the generated headers only declare.
namespace stencil {
struct Weights {
  float tap[9];
};
}  // namespace stencil
namespace convolution {
struct Kernel {
  float c_Kernel[17];
};
}  // namespace convolution
#include "transpose.carbide.hpp"
#include "bench_support.hpp"
#include "tile_rows.hpp"
#include "twins.hpp"
#include "vecadd.carbide.hpp"
#include "walsh.carbide.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace bench;

namespace {

GemmRow measure_sgemm(const carbide::Context& ctx, const carbide::Stream& stream, cublasHandle_t cublas,
                      std::uint32_t size, std::mt19937& generator) {
  const std::size_t elements = std::size_t(size) * size;
  auto a = carbide::DeviceBuffer<float>::from_host(stream, random_floats(elements, generator));
  auto b = carbide::DeviceBuffer<float>::from_host(stream, random_floats(elements, generator));
  auto c = carbide::DeviceBuffer2D<float>::zeroed(stream, size, size);
  auto c_cublas = carbide::DeviceBuffer<float>::zeroed(stream, elements);
  auto module = sgemm::load(ctx);
  auto prepared = module.prepare_sgemm(carbide::LaunchConfig2D({size / 128, size / 128, 1}, {16, 16, 1}));
  float* c_raw = reinterpret_cast<float*>(c.device_ptr());
  const float one = 1.f, zero = 0.f;
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first.
  auto run_cublas = [&] {
    cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, int(size), int(size), int(size), &one, raw(b),
                int(size), raw(a), int(size), &zero, raw(c_cublas), int(size));
  };
  GemmRow row{"sgemm " + std::to_string(size) + "³", 2.0 * size * size * size, 0, 0, 0, 0};
  module.sgemm(stream, prepared, a, b, size, c);
  run_cublas();
  const auto carbide_result = c.to_host_vec(stream);
  const std::vector<double> ms = median_ms_each(
      {[&] { module.sgemm(stream, prepared, a, b, size, c); },
       [&] { reference::launch_sgemm(raw(a), raw(b), c_raw, size, size, size); }, run_cublas},
      3, 11, 2);
  row.carbide_ms = ms[0], row.twin_ms = ms[1], row.cublas_ms = ms[2];
  row.carbide_vs_cublas = relative_difference(carbide_result, c_cublas.to_host_vec(stream));
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  check(cudaFree(nullptr), "CUDA runtime start");  // the runtime joins the primary context
  std::mt19937 generator(std::random_device{}());
  std::vector<Row> rows;

  {
    const std::size_t n = std::size_t(1) << 26;
    auto a = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto b = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto c = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto module = kernels::load(ctx);
    auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));
    const double bytes = 3.0 * n * sizeof(float);
    rows.push_back(measure("vecadd 2^26", bytes, [&] { module.vecadd(stream, prepared, a, b, c); },
                           [&] { reference::launch_vecadd(raw(a), raw(b), raw(c), n); },
                           [&] { return c.to_host_vec(stream); }));
  }
  {
    const std::size_t n = std::size_t(1) << 26;
    auto x = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto y = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto module = saxpy::load(ctx);
    const std::size_t threads = n / 4;  // saxpy.cpp: kChunk
    auto prepared = module.prepare_saxpy(carbide::LaunchConfig1D(carbide::div_ceil(threads, 256), 256));
    const double bytes = 3.0 * n * sizeof(float);
    rows.push_back(measure("saxpy 2^26 (4 per thread)", bytes, [&] { module.saxpy(stream, prepared, 2.f, x, y, out); },
                           [&] { reference::launch_saxpy(2.f, raw(x), raw(y), raw(out), n); },
                           [&] { return out.to_host_vec(stream); }));
  }
  {
    const std::size_t n = std::size_t(1) << 28;
    const unsigned blocks = 132 * 4;
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto total = carbide::DeviceBuffer<float>::zeroed(stream, 1);
    auto module = reduction::load(ctx);
    auto prepared = module.prepare_sum(carbide::LaunchConfig1D(blocks, 512));
    const double bytes = double(n) * sizeof(float);
    // The reduction reads once and writes nothing: its ceiling is the copy's rate, whose own
    // time for `bytes` moved is the copy ceiling's.
    rows.push_back(measure("reduction 2^28", bytes, [&] { module.sum(stream, prepared, in, total); },
                           [&] { reference::launch_sum(raw(in), n, raw(total), blocks); }));
  }

  {
    const std::size_t words = std::size_t(1) << 26;
    const unsigned blocks = 132 * 8;
    std::vector<std::uint32_t> data(words);
    for (std::uint32_t& word : data) word = std::uint32_t(generator());
    auto in = carbide::DeviceBuffer<std::uint32_t>::from_host(stream, data);
    auto bins = carbide::DeviceBuffer<unsigned>::zeroed(stream, 256);
    auto module = histogram::load(ctx);
    auto prepared = module.prepare_histogram(carbide::LaunchConfig1D(blocks, 256));
    // Read once, like the reduction: its ceiling is the copy's rate.
    rows.push_back(measure("histogram 2^28 bytes", double(words) * 4,
                           [&] { module.histogram(stream, prepared, in, bins); },
                           [&] { reference::launch_histogram(raw(in), words, raw(bins), blocks); }));
  }
  {
    const std::uint32_t side = 8192;
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(std::size_t(side) * side, generator));
    auto out = carbide::DeviceBuffer2D<float>::zeroed(stream, side, side);
    auto module = transpose::load(ctx);
    auto prepared = module.prepare_transpose(
        carbide::LaunchConfig2D({side / 32, side / 32, 1}, {32, 4, 1}));  // transpose.cpp: 32 × 4
    rows.push_back(measure("transpose 8192²", 2.0 * side * side * sizeof(float),
                           [&] { module.transpose(stream, prepared, in, side, side, out); },
                           [&] { reference::launch_transpose(raw(in), side, side, reinterpret_cast<float*>(out.device_ptr())); },
                           [&] { return out.to_host_vec(stream); }));
    auto row_order = module.prepare_transpose_row_order(
        carbide::LaunchConfig2D({side / 32, side / 32, 1}, {32, 4, 1}));
    rows.push_back(measure("transpose 8192², textbook block order", 2.0 * side * side * sizeof(float),
                           [&] { module.transpose_row_order(stream, row_order, in, side, side, out); },
                           [&] { reference::launch_transpose_row_order(raw(in), side, side, reinterpret_cast<float*>(out.device_ptr())); },
                           [&] { return out.to_host_vec(stream); }));
  }
  {
    const std::size_t n = std::size_t(1) << 26;
    const std::vector<float> taps = random_floats(9, generator);  // stencil.cpp: kTaps
    stencil::Weights weights;
    std::copy(taps.begin(), taps.end(), weights.tap);
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto module = stencil::load(ctx);
    auto prepared = module.prepare_stencil(carbide::LaunchConfig1D(n / 2048, 256));  // stencil.cpp: 2048 a block
    rows.push_back(measure("stencil 2^26, radius 4", 2.0 * n * sizeof(float),
                           [&] { module.stencil(stream, prepared, in, weights, out); },
                           [&] { reference::launch_stencil(raw(in), n, taps.data(), raw(out)); },
                           [&] { return out.to_host_vec(stream); }));
  }
  {
    const unsigned count = 16384;
    const std::size_t n = std::size_t(count) * 4096;  // softmax.cpp: kCols
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto out = carbide::DeviceBuffer2D<float>::zeroed(stream, 2 * std::size_t(count), 2048);  // softmax.cpp: half-rows
    auto module = softmax::load(ctx);
    auto prepared = module.prepare_softmax(carbide::LaunchConfig2D({1, count, 1}, {512, 1, 1}));
    rows.push_back(measure("softmax 16384 × 4096", 2.0 * n * sizeof(float),
                           [&] { module.softmax(stream, prepared, in, out); },
                           [&] { reference::launch_softmax(raw(in), reinterpret_cast<float*>(out.device_ptr()), count); },
                           [&] { return out.to_host_vec(stream); }));
  }
  {
    // llm.c's layer norm, a warp per row: GPT-2 small's 768 channels, B · T = 32 · 1024.
    const unsigned count = 32 * 1024, cols = 768;  // layernorm.cpp: rows, cols
    const std::size_t n = std::size_t(count) * cols;
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto weight = carbide::DeviceBuffer<float>::from_host(stream, random_floats(cols, generator));
    auto bias = carbide::DeviceBuffer<float>::from_host(stream, random_floats(cols, generator));
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto mean = carbide::DeviceBuffer<float>::zeroed(stream, count);
    auto rstd = carbide::DeviceBuffer<float>::zeroed(stream, count);
    auto module = layernorm::load(ctx);
    auto prepared = module.prepare_layernorm_forward(carbide::LaunchConfig1D(count / 16, 512));  // 16 warps a block
    rows.push_back(measure("layernorm 32768 × 768 (warp rows)", 2.0 * n * sizeof(float),
                           [&] { module.layernorm_forward(stream, prepared, out, mean, rstd, in, weight, bias, count, cols); },
                           [&] {
                             reference::launch_layernorm(raw(out), raw(mean), raw(rstd), raw(in), raw(weight), raw(bias),
                                                         int(count), int(cols));
                           },
                           [&] { return out.to_host_vec(stream); }));
  }
  {
    // Reduce-then-scan, as samples/scan: the input is read twice and the output written once.
    const std::size_t n = std::size_t(1) << 26, per_block = 2048;  // scan.cpp: kPerBlock
    auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto module = scan::load(ctx);
    const std::size_t blocks1 = n / per_block, blocks2 = carbide::div_ceil(blocks1, per_block);
    auto totals1 = carbide::DeviceBuffer<float>::zeroed(stream, blocks1);
    auto offsets1 = carbide::DeviceBuffer<float>::zeroed(stream, blocks1);
    auto totals2 = carbide::DeviceBuffer<float>::zeroed(stream, blocks2);
    auto offsets2 = carbide::DeviceBuffer<float>::zeroed(stream, blocks2);
    auto scratch = carbide::DeviceBuffer<float>::zeroed(stream, 4 * blocks1);
    auto level1 = module.prepare_block_totals(carbide::LaunchConfig1D(blocks1, 256));
    auto level2 = module.prepare_block_totals(carbide::LaunchConfig1D(blocks2, 256));
    auto top = module.prepare_scan_blocks(carbide::LaunchConfig1D(1, 256));
    auto middle = module.prepare_scan_blocks(carbide::LaunchConfig1D(blocks2, 256));
    auto bottom = module.prepare_scan_blocks(carbide::LaunchConfig1D(blocks1, 256));
    rows.push_back(measure("inclusive scan 2^26", 3.0 * n * sizeof(float),
                           [&] {
                             module.block_totals(stream, level1, in, totals1);
                             module.block_totals(stream, level2, totals1, totals2);
                             module.scan_blocks(stream, top, totals2, totals2, offsets2);
                             module.scan_blocks(stream, middle, totals1, offsets2, offsets1);
                             module.scan_blocks(stream, bottom, in, offsets1, out);
                           },
                           [&] { reference::launch_scan(raw(in), n, raw(out), raw(scratch)); },
                           [&] { return out.to_host_vec(stream); }));
  }

  {
    // A bitonic sort of 2^24 floats in place, one launch per merge step, as samples/bitonic:
    // 300 steps, each reading and writing every element once. Both sort the same buffer, fresh
    // random keys each time (a sorted input would still move the same bytes).
    const std::size_t n = std::size_t(1) << 24;
    const std::vector<float> keys = random_floats(n, generator);
    auto data = carbide::DeviceBuffer<float>::from_host(stream, keys);
    auto module = bitonic::load(ctx);
    const auto prepared = module.prepare_merge_step(carbide::LaunchConfig1D(n / 2 / 256, 256));
    std::size_t steps = 0;
    for (std::size_t size = 2; size <= n; size *= 2)
      for (std::size_t stride = size / 2; stride > 0; stride /= 2) ++steps;
    auto refill = [&] { data.copy_from_host(stream, keys); };
    rows.push_back(measure("bitonic sort 2^24", 2.0 * steps * n * sizeof(float),
                           [&] {
                             for (std::size_t size = 2; size <= n; size *= 2)
                               for (std::size_t stride = size / 2; stride > 0; stride /= 2)
                                 module.merge_step(stream, prepared, data, unsigned(size), unsigned(stride));
                           },
                           [&] { reference::launch_bitonic_sort(raw(data), n); },
                           [&] {
                             auto sorted = data.to_host_vec(stream);
                             refill();
                             return sorted;
                           }));
  }

  {
    // The fast Walsh-Hadamard transform of 2^23 floats in place, as samples/walsh: six radix-4
    // stages over the whole array, then the pieces of 2^11 in shared memory; each launch reads
    // and writes every element once. Applied twice the transform multiplies by n, so the timed
    // runs soon work on infinities (at the same speed); the two results are compared on the
    // input itself, restored before each.
    const std::size_t n = std::size_t(1) << 23, piece = 1u << 11;
    const std::vector<float> values = random_floats(n, generator);
    auto data = carbide::DeviceBuffer<float>::from_host(stream, values);
    auto module = walsh::load(ctx);
    const auto stage = module.prepare_radix4_stage(carbide::LaunchConfig1D(n / 4 / 256, 256));
    const auto pieces = module.prepare_transform_pieces(carbide::LaunchConfig1D(n / piece, piece / 4));
    std::size_t launches = 1;
    for (std::size_t size = n; size > piece; size /= 4) ++launches;
    auto carbide_walsh = [&] {
      for (std::size_t size = n; size > piece; size /= 4)
        module.radix4_stage(stream, stage, data, unsigned(size / 4));
      module.transform_pieces(stream, pieces, data);
    };
    auto twin_walsh = [&] { reference::launch_walsh(raw(data), n); };
    Row row = measure("walsh transform 2^23", 2.0 * launches * n * sizeof(float), carbide_walsh, twin_walsh);
    data.copy_from_host(stream, values);
    carbide_walsh();
    const std::vector<float> from_carbide = data.to_host_vec(stream);
    data.copy_from_host(stream, values);
    twin_walsh();
    row.agreement = relative_difference(from_carbide, data.to_host_vec(stream));
    rows.push_back(row);
  }

  {
    // A separable 17-tap convolution of 3072 × 3072 floats, as samples/convolution: the rows pass
    // into a buffer, then the columns pass from it; each pass reads and writes the image once.
    const int width = 3072, height = 3072;
    const std::size_t n = std::size_t(width) * height;
    auto image = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n, generator));
    auto rows_out = carbide::DeviceBuffer2D<float>::zeroed(stream, height, width);
    auto out = carbide::DeviceBuffer2D<float>::zeroed(stream, height, width);
    convolution::Kernel taps{};
    const std::vector<float> weights = random_floats(17, generator);
    std::copy(weights.begin(), weights.end(), taps.c_Kernel);
    reference::set_convolution_taps(weights.data());
    auto module = convolution::load(ctx);
    using namespace convolution;
    const auto rows_pass = module.prepare_convolutionRowsKernel(carbide::LaunchConfig2D(
        {unsigned(width / 128), unsigned(height / 4), 1}, {16, 4, 1}));
    const auto columns_pass = module.prepare_convolutionColumnsKernel(carbide::LaunchConfig2D(
        {unsigned(width / 16), unsigned(height / 64), 1}, {16, 8, 1}));
    float* out_raw = reinterpret_cast<float*>(out.device_ptr());
    float* rows_raw = reinterpret_cast<float*>(rows_out.device_ptr());
    rows.push_back(measure("separable convolution 3072², 17 taps", 4.0 * n * sizeof(float),
                           [&] {
                             module.convolutionRowsKernel(stream, rows_pass, rows_out, image, width, height, width, taps);
                             module.convolutionColumnsKernel(stream, columns_pass, out, rows_out.flat(), width, height,
                                                             width, taps);
                           },
                           [&] { reference::launch_convolution(out_raw, rows_raw, raw(image), width, height); },
                           [&] { return out.to_host_vec(stream); }));
  }

  cublasHandle_t cublas = nullptr;
  if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  cublasSetStream(cublas, nullptr);
  std::vector<GemmRow> gemms;
  for (std::uint32_t size : {4096u, 8192u}) gemms.push_back(measure_sgemm(ctx, stream, cublas, size, generator));
  std::vector<FusedRow> fused;
  add_tile_rows(ctx, stream, cublas, generator, rows, gemms, fused);
  cublasDestroy(cublas);

  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::ostringstream table;
  table << "device: " << properties.name << "\n\n"
        << "| kernel | carbide ms | twin ms | carbide/twin speed | carbide GB/s | copy GB/s | of copy "
           "| host µs/launch carbide | twin | carbide vs twin (rel. L2) |\n"
        << "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  char line[256];
  for (const Row& row : rows) {
    const double carbide_gbs = row.bytes / row.carbide_ms / 1e6;
    const double copy_gbs = row.bytes / row.copy_ms / 1e6;
    char agreement[32] = "—";
    if (row.agreement >= 0) std::snprintf(agreement, sizeof agreement, "%.1e", row.agreement);
    std::snprintf(line, sizeof line, "| %s | %.4f | %.4f | %.3f | %.0f | %.0f | %.3f | %.1f | %.1f | %s |\n",
                  row.name.c_str(), row.carbide_ms, row.twin_ms, row.twin_ms / row.carbide_ms,
                  carbide_gbs, copy_gbs, carbide_gbs / copy_gbs, row.carbide_host_us,
                  row.twin_host_us, agreement);
    table << line;
  }
  table << "\n| kernel | carbide ms | twin ms | cuBLAS ms | carbide/twin speed | carbide TFLOP/s | "
           "cuBLAS TFLOP/s | of cuBLAS | result vs cuBLAS (rel. L2) |\n"
        << "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const GemmRow& row : gemms) {
    std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.3f | %.1e |\n",
                  row.name.c_str(), row.carbide_ms, row.twin_ms, row.cublas_ms, row.twin_ms / row.carbide_ms,
                  row.flops / row.carbide_ms / 1e9, row.flops / row.cublas_ms / 1e9,
                  row.cublas_ms / row.carbide_ms, row.carbide_vs_cublas);
    table << line;
  }
  table << "\n| fused kernel | fused ms | as simpler tile kernels ms | fused/simpler speed | fused TFLOP/s | "
           "fused vs simpler (rel. L2) |\n"
        << "| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const FusedRow& row : fused) {
    std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f | %.1f | %.1e |\n", row.name.c_str(), row.fused_ms,
                  row.unfused_ms, row.unfused_ms / row.fused_ms, row.flops / row.fused_ms / 1e9, row.difference);
    table << line;
  }
  std::fputs(table.str().c_str(), stdout);
  if (argc > 1) std::ofstream(argv[1]) << table.str();
}
