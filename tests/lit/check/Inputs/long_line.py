"""Writes a kernel one of whose lines starts with 30,000 blanks."""
print("#include <carbide/carbide.hpp>\nnamespace kernels {\nCARBIDE_KERNEL\n"
      "CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))\n"
      "void k(carbide::span<const float> in, carbide::disjoint_span<float> out) {\n"
      + " " * 30000 + "auto idx = carbide::thread::index_1d();\n"
      "  if (float* o = out.get_mut(idx)) *o = in[idx.get()];\n}\n}")
