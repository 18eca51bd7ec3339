# BoostConfig.cmake asks for boost_context at exactly its own version (1.83.0 on the device image,
# 1.74.0 on Debian 12); the carried library serves any of them (see boost_context-config.cmake).
if(PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION "${PACKAGE_FIND_VERSION}")
else()
  set(PACKAGE_VERSION "1.74.0")
endif()
set(PACKAGE_VERSION_COMPATIBLE TRUE)
set(PACKAGE_VERSION_EXACT TRUE)
