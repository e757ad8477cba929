// SPDX-License-Identifier: MIT
// keel's binary form of a message (docs/msg-format.md): magic "KMSG", a version byte, the header,
// then the body; little-endian, a type tag before each value, varint lengths. Lossless for every
// type; a message reads back equal, and writes back to the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "keel/msg/error.h"
#include "keel/msg/message.h"
#include "keel/msg/value.h"

namespace keel::msg {

// The two modes of the MessagePack and CBOR forms (docs/msg-format.md). `standard`: plain
// MessagePack / CBOR; integers are written in their smallest encoding and read as int64 (uint64
// above INT64_MAX), and MessagePack has no typed arrays or tags. `exact`: keel's types are also
// written where those standards have no type for them (integer widths; in MessagePack typed
// arrays, tags and the extensions that would read as something else), in encodings every reader
// of the standard still reads, and read back: a message comes back equal.
enum class fidelity : std::uint8_t { standard, exact };

// Limits every reader applies (binary, MessagePack, CBOR, JSON, XML).
struct read_options {
  std::uint32_t max_depth = 128;                // deepest nesting of maps, arrays and tags
  std::size_t max_size = std::size_t{1} << 32;  // largest input accepted, in bytes
  fidelity mode = fidelity::standard;           // MessagePack and CBOR only
};

// How the MessagePack and CBOR writers write.
struct write_options {
  fidelity mode = fidelity::standard;
};

inline constexpr std::uint8_t kBinaryVersion = 1;

// Writes `m` into `out`, replacing its contents (its capacity is reused).
void write_binary(const message& m, std::string& out);
std::string to_binary(const message& m);

// Reads a whole binary message into `out`, replacing its contents and reusing its storage (entry
// names, heap strings, nested containers); on an error `out` is left empty.
error read_binary(bytes_view in, message& out, const read_options& options = {});
result<message> from_binary(bytes_view in, const read_options& options = {});
inline result<message> from_binary(std::string_view in, const read_options& options = {}) {
  return from_binary(bytes_view(reinterpret_cast<const std::uint8_t*>(in.data()), in.size()),
                     options);
}

}  // namespace keel::msg
