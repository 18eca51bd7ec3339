#pragma once
namespace scale_config {
constexpr unsigned kBlock = 128;
}
