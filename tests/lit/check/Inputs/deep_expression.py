"""Writes a kernel whose shared index is a very long or very deep integer expression."""
import sys

shape, size = sys.argv[1], int(sys.argv[2])
if shape == "sum":  # lid + lid + ... : one long thread-dependent index
    index = "(" + " + ".join(["lid.get()"] * size) + ") % 256"
else:  # a Horner chain of the kernel's scalar, `size` levels deep, plus the local index
    index = "x"
    for i in range(size):
        index = f"({index} * 3 + {i})"
    index = f"(lid.get() + {index}) % 256"
print(f"""#include <carbide/carbide.hpp>
namespace kernels {{
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void deep(carbide::disjoint_span<float> out, int x) {{
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  tile[{index}] = 1.f;
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}}
}}""")
