# Boost.Context carried to a machine whose Boost has none (the GPU device image: Boost's headers,
# no libboost_context): the library Debian's libboost-context package installs, beside this file's
# folder, found by BoostConfig.cmake's own find_package(boost_context <its version> EXACT CONFIG)
# through CMAKE_PREFIX_PATH (scripts/carry-boost-context.sh, docs/gpu-runs.md).
#
# What the runtime uses of the library, jump_fcontext, make_fcontext and ontop_fcontext, has had
# one C interface since Boost 1.65, so the machine's own Boost.Context headers work with it;
# where that Boost has no Context headers, the carried ones stand in.
if(TARGET Boost::context)
  return()
endif()
get_filename_component(_carried_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
file(GLOB _carried_library "${_carried_root}/lib/libboost_context.so.*")
if(NOT _carried_library)
  set(boost_context_FOUND FALSE)
  set(boost_context_NOT_FOUND_MESSAGE "no libboost_context.so.* in ${_carried_root}/lib")
  return()
endif()
list(GET _carried_library 0 _carried_library)
get_filename_component(_carried_soname "${_carried_library}" NAME)
add_library(Boost::context SHARED IMPORTED)
set_target_properties(Boost::context PROPERTIES
  IMPORTED_LOCATION "${_carried_library}"
  IMPORTED_SONAME "${_carried_soname}"
  INTERFACE_COMPILE_DEFINITIONS "BOOST_CONTEXT_DYN_LINK;BOOST_CONTEXT_NO_LIB")
set(_carried_headers_needed TRUE)
if(TARGET Boost::headers)
  set_property(TARGET Boost::context APPEND PROPERTY INTERFACE_LINK_LIBRARIES Boost::headers)
  get_target_property(_boost_includes Boost::headers INTERFACE_INCLUDE_DIRECTORIES)
  foreach(_dir IN LISTS _boost_includes)
    if(EXISTS "${_dir}/boost/context/fiber.hpp")
      set(_carried_headers_needed FALSE)
    endif()
  endforeach()
endif()
if(_carried_headers_needed)
  set_property(TARGET Boost::context APPEND PROPERTY
    INTERFACE_INCLUDE_DIRECTORIES "${_carried_root}/include")
endif()
set(boost_context_FOUND TRUE)
