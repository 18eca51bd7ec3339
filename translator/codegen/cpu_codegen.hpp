// The CPU form of a program's kernels (DESIGN §11, runtime/include/carbide/cpu.hpp): the device
// code copied a second time, for the host compiler, into the host stubs. It is the same source as
// the .cu's, with what a CPU run needs to check it at run time:
// - every access to memory the thread does not own outright (through a pointer, a reference or
//   a view's operator[]) wrapped in carbide::cpu::touch, with its kind and the user's line;
// - each call of the vocabulary preceded by carbide::cpu::at, so that accesses a view makes
//   itself, barriers and collectives are reported at the user's line;
// - carbide::cpu::tick at every loop back-edge, where a launch past its time limit stops;
// - memcpy, memmove and memset replaced by carbide::cpu's recording forms.
// Then one entry per kernel that unpacks the launch's arguments and calls the copy, described
// for the runtime by a cpu::KernelEntry (SIMT) or a cpu::TileKernelEntry (tile).
#pragma once

#include "codegen/device_codegen.hpp"
#include "model/module_model.hpp"
#include "tile/tile_programs.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Lex/Preprocessor.h>

#include <string>

namespace carbide::codegen {

// The copy and the entries, to be placed at namespace scope in the host stubs after `preceding`
// (the stubs' text so far, for the #line back to them) and before the module loader, which names
// each kernel's entry by cpu_entry_reference.
std::string generate_cpu_kernels(const model::Program& program, clang::ASTContext& context,
                                 clang::Preprocessor& preprocessor, const ProvenFacts& proven,
                                 const tile::TilePrograms& tiles, const std::string& preceding);

// `&carbide_cpu::entry_<symbol>`: the address of a kernel's cpu::KernelEntry or
// cpu::TileKernelEntry, as the module loader lists it.
std::string cpu_entry_reference(const model::Kernel& kernel);
// `carbide_cpu::conv::taps`: the CPU form's copy of a constant table, which a CPU module sets.
std::string cpu_table_reference(const model::ConstantTable& table);

}  // namespace carbide::codegen
