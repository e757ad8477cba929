// SPDX-License-Identifier: MIT
// struct/read/avx2/<model>: the On-Demand extraction (struct_ondemand_reader.h) compiled for
// simdjson's haswell kernel (-march=haswell, against its own simdjson build in namespace
// keel_simdjson4_haswell) and run on its haswell kernel set (stage 1 and strings), beside keel's
// forced AVX2 path.
#define KEEL_ONDEMAND_KERNEL haswell
#define KEEL_ONDEMAND_IMPLEMENTATION "haswell"
#include "json/struct_ondemand_reader.h"
