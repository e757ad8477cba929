// SPDX-License-Identifier: MIT
// struct/read/<model>: the On-Demand extraction (struct_ondemand_reader.h) against the simdjson
// build for this CPU (namespace keel_simdjson4; its icelake kernel on AVX-512).
#define KEEL_ONDEMAND_KERNEL native
#include "json/struct_ondemand_reader.h"
