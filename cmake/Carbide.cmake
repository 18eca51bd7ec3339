# carbide_add_kernels(<target> SOURCES <file>... [CUDA_ARCHS 80 90 ...] [OUTPUT_DIR <dir>]
#                     [FILE_PREFIX_MAP OLD=NEW ...] [DEBUG] [NVCC_FLAGS <flag>...])
#
# Translates each source before <target> builds, with the target's include directories, compile
# definitions and C++ standard (re-running only when the source or a header it read changes,
# through the translator's depfile), compiles the generated host stubs into the
# target, force-includes the generated API header into the source so `kernels::load` resolves
# (in the build and in clangd), and links the Carbide runtime.
#
# Without the translator (CARBIDE_BUILD_TRANSLATOR=OFF, e.g. on a GPU machine without LLVM), the
# files are taken from CARBIDE_PREGENERATED_DIR/<stem>/, as `carbide translate` wrote them.
function(carbide_add_kernels target)
  cmake_parse_arguments(ARG "DEBUG" "OUTPUT_DIR" "SOURCES;CUDA_ARCHS;FILE_PREFIX_MAP;NVCC_FLAGS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "carbide_add_kernels(${target}): SOURCES is required")
  endif()
  # Without CUDA_ARCHS, the translator's default: cubins for sm_80, 86, 89 and 90 and PTX for
  # the newest, which loads on every GPU from sm_80.
  set(translate_flags)
  foreach(arch IN LISTS ARG_CUDA_ARCHS)
    list(APPEND translate_flags --cuda-arch sm_${arch})
  endforeach()
  if(NOT ARG_FILE_PREFIX_MAP)
    set(ARG_FILE_PREFIX_MAP "${CMAKE_SOURCE_DIR}=.")
  endif()
  foreach(entry IN LISTS ARG_FILE_PREFIX_MAP)
    list(APPEND translate_flags --file-prefix-map "${entry}")
  endforeach()
  # Debug builds get steppable device code (-G); RelWithDebInfo builds, and DEBUG in any other,
  # line information (-lineinfo), so Nsight Compute and cuda-gdb show the user's own lines.
  set(line_info "$<OR:$<CONFIG:RelWithDebInfo>,$<BOOL:${ARG_DEBUG}>>")
  list(APPEND translate_flags
    "$<IF:$<CONFIG:Debug>,--device-debug,$<${line_info}:--debug>>")
  foreach(flag IN LISTS ARG_NVCC_FLAGS)
    list(APPEND translate_flags "--nvcc-flag=${flag}")
  endforeach()
  # The translation sees the flags the host compile of the target sees.
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(clang_flags
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
    "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>"
    "$<$<BOOL:${standard}>:-std=c++${standard}>")

  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source_path "${source}" ABSOLUTE)
    get_filename_component(stem "${source}" NAME_WE)
    if(TARGET Carbide::carbide)
      if(ARG_OUTPUT_DIR)
        set(out "${ARG_OUTPUT_DIR}")
      else()
        set(out "${CMAKE_CURRENT_BINARY_DIR}/carbide/${stem}")
      endif()
      set(outputs "${out}/${stem}.carbide.cu" "${out}/${stem}.ptx" "${out}/${stem}.carbide.hpp"
                  "${out}/${stem}.carbide.cpp")
      # Several architectures (the default is four) also give a fatbin, which the depfile names.
      list(LENGTH ARG_CUDA_ARCHS arch_count)
      if(NOT arch_count EQUAL 1)
        list(APPEND outputs "${out}/${stem}.fatbin")
      endif()
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND Carbide::carbide translate "${source_path}" -o "${out}" ${translate_flags} -- ${clang_flags}
        DEPENDS "${source_path}" Carbide::carbide
        DEPFILE "${out}/${stem}.carbide.d"
        COMMENT "Carbide: translating ${source}"
        COMMAND_EXPAND_LISTS
        VERBATIM)
    elseif(CARBIDE_PREGENERATED_DIR)
      set(out "${CARBIDE_PREGENERATED_DIR}/${stem}")
      if(NOT EXISTS "${out}/${stem}.carbide.cpp")
        message(FATAL_ERROR "carbide_add_kernels(${target}): no translator, and no "
                            "${out}/${stem}.carbide.cpp; run `carbide translate ${source} -o ${out}` "
                            "on a machine with the translator")
      endif()
    else()
      message(FATAL_ERROR "carbide_add_kernels(${target}): the translator is not built "
                          "(CARBIDE_BUILD_TRANSLATOR=OFF); set CARBIDE_PREGENERATED_DIR")
    endif()
    target_sources(${target} PRIVATE "${out}/${stem}.carbide.cpp")
    set_property(SOURCE "${source_path}" APPEND PROPERTY COMPILE_OPTIONS
                 -include "${out}/${stem}.carbide.hpp")
    set_property(SOURCE "${source_path}" APPEND PROPERTY OBJECT_DEPENDS
                 "${out}/${stem}.carbide.hpp")
    target_include_directories(${target} PRIVATE "${out}")
  endforeach()
  target_link_libraries(${target} PRIVATE Carbide::runtime)
endfunction()
