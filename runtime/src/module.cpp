#include "driver.hpp"

#include "cpu/backend.hpp"
#include "driver_api.hpp"

#include <string>
#include <vector>

namespace carbide::detail {

struct LoadedModuleState {
  CUmodule module = nullptr;
  std::vector<CUfunction> functions;
  std::vector<cpu::ModuleEntry> cpu_entries;  // a CPU context's, instead of the functions
  std::vector<KernelFootprint> footprints;
  std::vector<ConstantTableSite> constant_tables;
  // Each table's address in this context: the module's global on a GPU (0 where nvcc left out a
  // table that no kernel reads), the CPU form's table on the CPU.
  std::vector<DevicePtr> constant_addresses;
  ~LoadedModuleState() {
    if (module != nullptr) driver().cuModuleUnload(module);
  }
};

namespace {

int function_attribute(CUfunction function, CUfunction_attribute which) {
  int value = 0;
  check(driver().cuFuncGetAttribute(&value, which, function), "cuFuncGetAttribute");
  return value;
}

}  // namespace

// A stub from before the CPU forms: loadable on a GPU only.
LoadedModule::LoadedModule(const Context& context, const void* image,
                           std::initializer_list<const char*> entry_names)
    : LoadedModule(context, image, entry_names, {}) {}

LoadedModule::LoadedModule(const Context& context, const void* image, std::initializer_list<const char*> entry_names,
                           std::initializer_list<cpu::ModuleEntry> cpu_entries,
                           std::initializer_list<ConstantTableSite> constant_tables)
    : context_(context), state_(std::make_shared<LoadedModuleState>()) {
  state_->constant_tables.assign(constant_tables);
  if (context_.is_cpu()) {
    for (const ConstantTableSite& table : constant_tables)
      state_->constant_addresses.push_back(reinterpret_cast<DevicePtr>(table.cpu_copy));
    if (cpu_entries.size() != entry_names.size())
      throw Error(std::string("loading a module on the CPU: its stubs give ") + std::to_string(cpu_entries.size()) +
                  " CPU forms for its " + std::to_string(entry_names.size()) +
                  " kernels; translate it again with this version of carbide to run it on the CPU");
    for (const cpu::ModuleEntry& entry : cpu_entries) {
      state_->cpu_entries.push_back(entry);
      KernelFootprint footprint;
      if (entry.simt != nullptr) footprint.static_shared_bytes = entry.simt->static_shared_bytes;
      state_->footprints.push_back(footprint);
    }
    return;
  }
  // `carbide translate --cpu-only` embeds an empty image: no PTX and no fatbin to give the driver.
  if (*static_cast<const unsigned char*>(image) == 0)
    throw Error("this module has no GPU code: it was translated with carbide translate --cpu-only, "
                "so it runs on CPU contexts alone (Context::create_cpu, or CARBIDE_DEVICE=cpu); "
                "translate it without --cpu-only to run it on a GPU");
  make_current(context_);
  check(driver().cuModuleLoadData(&state_->module, image), "cuModuleLoadData");
  for (const char* name : entry_names) {
    CUfunction function = nullptr;
    check(driver().cuModuleGetFunction(&function, state_->module, name), "cuModuleGetFunction");
    state_->functions.push_back(function);
    KernelFootprint footprint;
    footprint.static_shared_bytes =
        function_attribute(function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    footprint.max_threads_per_block =
        function_attribute(function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    state_->footprints.push_back(footprint);
  }
  for (const ConstantTableSite& table : constant_tables) {
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
    const CUresult found = driver().cuModuleGetGlobal(&address, &bytes, state_->module, table.symbol);
    if (found == CUDA_ERROR_NOT_FOUND) address = 0;  // no kernel reads it: setting it changes nothing
    else check(found, "cuModuleGetGlobal");
    if (address != 0 && bytes != table.elements * table.element_bytes)
      throw Error(std::string("loading a module: its constant table ") + table.name + " takes " +
                  std::to_string(bytes) + " bytes in the image, where the stubs expect " +
                  std::to_string(table.elements * table.element_bytes) + "; translate it again");
    state_->constant_addresses.push_back(DevicePtr(address));
  }
}

const KernelFootprint& LoadedModule::footprint(std::size_t kernel) const {
  return state_->footprints.at(kernel);
}

void LoadedModule::reserve_dynamic_shared(std::size_t kernel, std::uint64_t bytes) const {
  if (context_.is_cpu()) return;  // a CPU launch allocates what it asks for
  if (bytes <= context_.limits().max_shared_per_block - footprint(kernel).static_shared_bytes)
    return;
  make_current(context_);
  check(driver().cuFuncSetAttribute(state_->functions.at(kernel),
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes)),
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
}

void LoadedModule::launch(std::size_t kernel, const Stream& stream, const LaunchConfig& config,
                          void** args) const {
  if (context_.is_cpu()) return cpu::launch(stream, state_->cpu_entries.at(kernel), config, args);
  make_current(context_);
  check(driver().cuLaunchKernel(state_->functions.at(kernel), unsigned(config.grid[0]),
                       unsigned(config.grid[1]), unsigned(config.grid[2]),
                       unsigned(config.block[0]), unsigned(config.block[1]),
                       unsigned(config.block[2]), unsigned(config.dynamic_shared_bytes),
                       native(stream), args, nullptr),
        "cuLaunchKernel");
}

void LoadedModule::set_constant(std::size_t table, const Stream& stream, const void* values,
                                std::size_t count) const {
  const ConstantTableSite& site = state_->constant_tables.at(table);
  const std::string setting = std::string("setting the constant table ") + site.name;
  if (count != site.elements)
    throw Error(setting + ": " + std::to_string(count) + " values given for its " + std::to_string(site.elements) +
                " elements");
  cpu::require_same_kind(setting.c_str(), stream.context(), context_);
  if (stream.context().ordinal() != context_.ordinal())
    throw Error(setting + ": the stream belongs to device " + std::to_string(stream.context().ordinal()) +
                " and the module to device " + std::to_string(context_.ordinal()) +
                "; set it on a stream of the module's device");
  if (const DevicePtr address = state_->constant_addresses.at(table); address != 0)
    copy_to_device_async(stream, address, values, count * site.element_bytes);
}

void check_prepared_for(const char* kernel, const void* prepared_identity,
                        const LoadedModule& module) {
  if (prepared_identity != module.identity())
    throw Error(std::string("launch of ") + kernel +
                " rejected: its Prepared value was made by another module instance; call "
                "prepare on the module that launches");
}

}  // namespace carbide::detail
