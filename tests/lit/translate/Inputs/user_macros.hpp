// Macros a kernel uses through SCALED, one of them only inside another's body.
#pragma once
#define UNUSED_MACRO 7
#define BASE_SCALE 3.0f
#define SCALED(x) ((x) * BASE_SCALE)
