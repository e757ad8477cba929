// SPDX-License-Identifier: MIT
// The state one parse shares between parser.cpp (buffers, options, errors) and the per-ISA
// kernels (parse_kernels.h). No SIMD types here: every translation unit includes it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "keel/json/parser.h"

namespace keel::json::detail {

// What stage 2 makes: the document (strings copied into its string area), nothing
// (parser::validate), or the document with its strings left in the input, unescaped there
// (parser::parse_in_place); or, for struct mapping's direct read (direct_kernels.h), the nodes
// of one value at a position, stopping after it with the next position in next_position.
enum class stage2_mode : std::uint8_t { build, validate, in_place, one_value };

struct parse_state {
  const std::uint8_t* buf = nullptr;  // input, after a skipped BOM / stripped comments
  std::size_t len = 0;
  const parse_options* opt = nullptr;
  parser* owner = nullptr;
  document* doc = nullptr;
  stage2_mode mode = stage2_mode::build;
  const std::uint32_t* next_position = nullptr;  // one_value: the position after the value
  std::uint8_t* in_place_text = nullptr;  // in_place: the caller's text (after a skipped BOM)

  std::uint32_t* idx = nullptr;  // structural indices (capacity len + kIndexSlack)
  std::size_t n_idx = 0;
  error_code s1_error = error_code::ok;  // stage 1 stopped here (indices at or after it dropped)
  std::size_t s1_offset = 0;
  // When non-null (struct mapping's direct read), stage1<I> sets bit (b & 63) of word b >> 6 for
  // each 64-byte block b of the text that holds a backslash: the escapes of skipped strings are
  // then looked for in those blocks only (direct_kernels.h).
  std::uint64_t* backslash_blocks = nullptr;
  // Stage 1 already ran (st.idx / st.n_idx hold the positions, with kIndexSlack entries of room
  // after them): parse_document runs stage 2 alone. The positions may be a part of those of a
  // larger buffer (NDJSON batches): st.buf / st.len are then that buffer.
  bool positions_given = false;

  error_code code = error_code::ok;  // the result
  std::size_t offset = 0;
  std::size_t consumed = 0;

  // Buffers owned by the parser / document, grown (never shrunk) on demand; nullptr when out of
  // memory.
  node* nodes(std::size_t n) noexcept;               // room for n nodes
  char* strings(std::size_t n) noexcept;             // room for n bytes
  std::uint64_t* stack(std::size_t n) noexcept;      // room for n words
  char* scratch(std::size_t n) noexcept;             // room for n bytes
  std::uint32_t* positions(std::size_t n) noexcept;  // the parser's position buffer: n entries
  void finish(std::size_t node_count, std::size_t string_bytes) noexcept;
  void overlay_positions(node* area, std::size_t cap) noexcept;  // see nodes()
};

inline constexpr std::size_t kIndexSlack = 72;  // flatten() writes up to 64 past the count
// Stage 2 writes this many sentinel positions after the last one (sentinels() in parse_kernels.h),
// and nothing else past the positions: with positions_given, the entries after a record's share
// of a larger position list are overwritten only there.
inline constexpr std::size_t kSentinels = 4;
// Inputs from this size on keep their structural positions in the node area's tail during stage
// 2 (parse_state::nodes): one buffer less at the peak, for a pass over the positions and a copy.
inline constexpr std::size_t kOverlayMinBytes = std::size_t{64} << 20;
inline constexpr std::size_t kOverlayMargin = 4096;  // bytes between the last node and the next
inline constexpr std::size_t kStringSlack = 80;      // string copies write whole 64-byte chunks
// parser::validate: stage 2 writes its nodes round a ring of this many (nothing reads them).
inline constexpr std::size_t kValidateRing = 256;

using kernel_fn = void (*)(parse_state&);
// Stage 2 alone over one NDJSON record of a batch (parse_record in parse_kernels.h): st.buf /
// st.len the batch, st.idx the record's first position and st.n_idx the batch's positions from
// there on (with the '\n' of every line among them: lines_fn, and the sentinels of sentinels() in
// parse_kernels.h after the last), `nodes` and `strings` st.doc's areas with room for every
// position of the batch and one more node and for st.len + kStringSlack bytes, `safe` the
// positions from st.idx on at least kPad bytes before the batch's end. The caller makes room and
// finds the sentinels once a batch. The result is left in st: on success st.next_position is the
// position after the record's value, its line's '\n' (or the end of the positions).
using record_fn = void (*)(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe);
// What lines_fn counts: the input's '\n' bytes, and the lines after one of them that start with
// a whitespace byte (' ', '\t', '\r' or '\n': only such a line can be blank). The first line,
// which follows no '\n', is not looked at.
struct line_counts {
  std::size_t ends = 0;
  std::size_t blank_starts = 0;
};
// The four bytes JSON calls whitespace (RFC 8259): a line that starts with one may be blank.
inline constexpr bool json_whitespace(unsigned char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
// Stage 1 alone (as kernel_set::positions) with each '\n' a position too, that also counts the
// lines into `counts` (nullptr: not counted). The counts hold only when stage 1 succeeds.
using lines_fn = void (*)(parse_state& st, line_counts* counts);
// Both stages (parse_document in parse_kernels.h), per kernel set.
void parse_scalar(parse_state& st);
// Stage 1 alone (find_positions): st.buf / st.len / st.opt and a position buffer st.idx of
// st.len + kIndexSlack entries in; st.idx / st.n_idx and st.s1_error / st.s1_offset out.
void positions_scalar(parse_state& st);
void record_scalar(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe);
void positions_lines_scalar(parse_state& st, line_counts* counts);
#if defined(__x86_64__)
void parse_avx2(parse_state& st);
void parse_avx512(parse_state& st);
void positions_avx2(parse_state& st);
void positions_avx512(parse_state& st);
void record_avx2(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe);
void record_avx512(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe);
void positions_lines_avx2(parse_state& st, line_counts* counts);
void positions_lines_avx512(parse_state& st, line_counts* counts);
#elif defined(__aarch64__)
void parse_neon(parse_state& st);
void positions_neon(parse_state& st);
void positions_lines_neon(parse_state& st, line_counts* counts);
void record_neon(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe);
#endif
// Struct mapping's direct read (direct_kernels.h): one value, or a run of unknown members, at a
// position.
struct direct_view;  // keel/json/mapping.h
struct key_filter;   // keel/json/mapping.h
using value_at_fn = const std::uint32_t* (*)(parse_state&, const direct_view&,
                                             const std::uint32_t*);
using skip_members_fn = const std::uint32_t* (*)(parse_state&, const direct_view&,
                                                 const std::uint32_t*, const key_filter&);
// A string's contents (n bytes at src, readable kPad bytes past them) unescaped into dst without
// stage 2: the length, or kDeclined (direct_kernels.h: unescape_simple, unescape_each).
using unescape_fn = std::size_t (*)(const std::uint8_t* src, std::size_t n, std::uint8_t* dst);
// What an unescape_fn returns for a string it leaves to stage 2.
inline constexpr std::size_t kDeclined = ~std::size_t{0};
const std::uint32_t* value_at_scalar(parse_state& st, const direct_view& v,
                                     const std::uint32_t* ip);
const std::uint32_t* skip_members_scalar(parse_state& st, const direct_view& v,
                                         const std::uint32_t* ip, const key_filter& f);
#if defined(__x86_64__)
const std::uint32_t* value_at_avx2(parse_state& st, const direct_view& v, const std::uint32_t* ip);
const std::uint32_t* skip_members_avx2(parse_state& st, const direct_view& v,
                                       const std::uint32_t* ip, const key_filter& f);
const std::uint32_t* value_at_avx512(parse_state& st, const direct_view& v,
                                     const std::uint32_t* ip);
const std::uint32_t* skip_members_avx512(parse_state& st, const direct_view& v,
                                         const std::uint32_t* ip, const key_filter& f);
std::size_t unescape_simple_avx512(const std::uint8_t* src, std::size_t n, std::uint8_t* dst);
std::size_t unescape_each_avx2(const std::uint8_t* src, std::size_t n, std::uint8_t* dst);
#elif defined(__aarch64__)
const std::uint32_t* value_at_neon(parse_state& st, const direct_view& v, const std::uint32_t* ip);
const std::uint32_t* skip_members_neon(parse_state& st, const direct_view& v,
                                       const std::uint32_t* ip, const key_filter& f);
#endif

// The functions of a kernel set (parser.cpp): the one switch over kernel sets.
struct kernel_set {
  kernel_fn parse;               // both stages
  kernel_fn positions;           // stage 1 alone
  lines_fn positions_lines;      // stage 1 with the line ends as positions (NDJSON)
  value_at_fn value_at;          // struct mapping: one value
  skip_members_fn skip_members;  // struct mapping: a run of unknown members
  record_fn record;              // NDJSON: stage 2 of one record of a batch; nullptr: use parse
  unescape_fn unescape;          // struct mapping: a string without stage 2; nullptr: none
};
kernel_set kernel_set_for(isa which) noexcept;

}  // namespace keel::json::detail
