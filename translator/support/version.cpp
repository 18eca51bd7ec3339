#include "support/version.hpp"

namespace carbide {

const char* version() { return CARBIDE_VERSION; }
const char* compatible_version() { return CARBIDE_COMPATIBLE_VERSION; }

}  // namespace carbide
