#pragma once
// Reached through the target's include directories, with a value from its compile definitions:
// the translation must see the flags the host compile sees.
namespace scale_config {
constexpr unsigned kBlock = CONSUMER_BLOCK;
}
