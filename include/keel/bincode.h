// SPDX-License-Identifier: MIT
// keel::bincode — byte-for-byte compatible with Rust's bincode 1.3.3 and 2.0.1.
//
//   #include <keel/bincode.h>
//   namespace kb = keel::bincode;
//   struct trade { std::uint64_t id; std::string symbol; std::optional<double> px; };
//   kb::buffer out;
//   kb::encode(t, out, kb::standard());  // the bytes of Rust's encode_to_vec(t, standard())
//   auto back = kb::decode<trade>(out, kb::standard());  // kb::result<trade>: ok() / error()
//
// Format: docs/bincode.md. Headers: config.h (presets), error.h (errors as values), codec.h
// (type mapping), reflect.h (KEEL_BINCODE_FIELDS / KEEL_BINCODE_ENUM), encode.h, decode.h,
// buffer.h (non-zero-filling byte vector). Parallel batches are not in this umbrella (it does not
// pull in the thread pool): include keel/bincode/batch.h and link keel::bincode_batch.
#pragma once

#include "keel/bincode/buffer.h"
#include "keel/bincode/codec.h"
#include "keel/bincode/config.h"
#include "keel/bincode/decode.h"
#include "keel/bincode/encode.h"
#include "keel/bincode/error.h"
#include "keel/bincode/reflect.h"
