// SPDX-License-Identifier: MIT
// struct/read/<twitter|citm> with simdjson 4.6.1 On-Demand: the hand-written extraction a user
// writes for speed (fields looked up by name in each object; the padded copy is made once, outside
// the timing). The body of two translation units, one per simdjson build it is compiled against:
// peer_struct_ondemand.cpp (namespace native, built for this CPU) and
// peer_struct_ondemand_haswell.cpp (namespace haswell), each defining KEEL_ONDEMAND_KERNEL and
// `simdjson` (the namespace of its build) first.
#pragma once

#include <simdjson.h>

#include "json/struct_model.h"

namespace keel::bench::model::KEEL_ONDEMAND_KERNEL {

struct ondemand_input {
  simdjson::padded_string text;
  simdjson::ondemand::parser parser;
};

std::shared_ptr<ondemand_input> prepare_ondemand(const std::string& text) {
  auto in = std::make_shared<ondemand_input>();
  in->text = simdjson::padded_string(text);
#ifdef KEEL_ONDEMAND_IMPLEMENTATION
  // The parser's stage 1 and string decoding are those of the kernel set it is first allocated
  // with (simdjson's active implementation then, by default the best for the CPU: icelake on
  // AVX-512), not of the -march the iteration is compiled for: the named one is made active
  // around that allocation, as the DOM peers do (peer_simdjson.cpp).
  const simdjson::implementation* kernel =
      simdjson::get_available_implementations()[KEEL_ONDEMAND_IMPLEMENTATION];
  if (kernel == nullptr || !kernel->supported_by_runtime_system()) return nullptr;
  auto& active = simdjson::get_active_implementation();
  const simdjson::implementation* before = active;
  active = kernel;
  const auto err = in->parser.allocate(in->text.size());
  active = before;
  if (err != simdjson::SUCCESS) return nullptr;
#endif
  return in;
}

namespace {

template <class O>
bool str(O& o, const char* k, std::string& out) {
  std::string_view s;
  if (o[k].get_string().get(s) != simdjson::SUCCESS) return false;
  out.assign(s.data(), s.size());
  return true;
}
template <class O>
bool u64(O& o, const char* k, std::uint64_t& out) {
  return o[k].get_uint64().get(out) == simdjson::SUCCESS;
}
template <class O>
bool boolean(O& o, const char* k, bool& out) {
  return o[k].get_bool().get(out) == simdjson::SUCCESS;
}

}  // namespace

bool read_ondemand(ondemand_input& in, tw_root& out) {
  simdjson::ondemand::document doc;
  if (in.parser.iterate(in.text).get(doc) != simdjson::SUCCESS) return false;
  simdjson::ondemand::array statuses;
  if (doc["statuses"].get_array().get(statuses) != simdjson::SUCCESS) return false;
  std::size_t n = 0;
  for (auto item : statuses) {
    simdjson::ondemand::object s;
    if (item.get_object().get(s) != simdjson::SUCCESS) return false;
    tw_status& t = element(out.statuses, n++);
    // Fields in document order: On-Demand finds each after the previous one without rescanning.
    if (!str(s, "created_at", t.created_at) || !u64(s, "id", t.id) || !str(s, "text", t.text) ||
        !str(s, "source", t.source))
      return false;
    simdjson::ondemand::value reply;
    if (s["in_reply_to_status_id"].get(reply) != simdjson::SUCCESS) return false;
    bool is_null = false;
    if (reply.is_null().get(is_null) != simdjson::SUCCESS) return false;
    if (is_null) {
      t.in_reply_to_status_id.reset();
    } else {
      std::uint64_t id = 0;
      if (reply.get_uint64().get(id) != simdjson::SUCCESS) return false;
      t.in_reply_to_status_id = id;
    }
    simdjson::ondemand::object u;
    if (s["user"].get_object().get(u) != simdjson::SUCCESS) return false;
    if (!u64(u, "id", t.user.id) || !str(u, "name", t.user.name) ||
        !str(u, "screen_name", t.user.screen_name) || !str(u, "location", t.user.location) ||
        !str(u, "description", t.user.description) ||
        !u64(u, "followers_count", t.user.followers_count) ||
        !u64(u, "friends_count", t.user.friends_count) ||
        !boolean(u, "verified", t.user.verified) || !str(u, "lang", t.user.lang))
      return false;
    if (!u64(s, "retweet_count", t.retweet_count) || !u64(s, "favorite_count", t.favorite_count) ||
        !boolean(s, "favorited", t.favorited) || !boolean(s, "retweeted", t.retweeted) ||
        !str(s, "lang", t.lang))
      return false;
  }
  out.statuses.resize(n);
  return true;
}

// ---- citm_catalog.json, whole ----
namespace {

namespace od = simdjson::ondemand;

bool get(od::value v, std::uint64_t& out) { return v.get_uint64().get(out) == simdjson::SUCCESS; }
bool get(od::value v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s) != simdjson::SUCCESS) return false;
  out.assign(s.data(), s.size());
  return true;
}
bool get(od::value v, std::optional<std::string>& out) {
  bool is_null = false;
  if (v.is_null().get(is_null) != simdjson::SUCCESS) return false;
  if (is_null) {
    out.reset();
    return true;
  }
  return get(v, out.emplace());
}
bool get(od::value v, std::vector<std::uint64_t>& out) {
  od::array a;
  if (v.get_array().get(a) != simdjson::SUCCESS) return false;
  std::size_t i = 0;
  for (auto x : a) {
    if (x.get_uint64().get(element(out, i++)) != simdjson::SUCCESS) return false;
  }
  out.resize(i);
  return true;
}
// Field k of an object, in document order.
template <class T>
bool field(od::object& o, const char* k, T& out) {
  od::value v;
  return o[k].get(v) == simdjson::SUCCESS && get(v, out);
}
template <class T, class F>
bool get_vector(od::value v, std::vector<T>& out, F read) {
  od::array a;
  if (v.get_array().get(a) != simdjson::SUCCESS) return false;
  std::size_t i = 0;
  for (auto x : a) {
    od::object o;
    if (x.get_object().get(o) != simdjson::SUCCESS || !read(o, element(out, i++))) return false;
  }
  out.resize(i);
  return true;
}
template <class T, class F>
bool get_map(od::value v, std::map<std::string, T>& out, F read) {
  od::object o;
  if (v.get_object().get(o) != simdjson::SUCCESS) return false;
  std::map<std::string, T> old;
  old.swap(out);
  for (auto m : o) {
    std::string_view key;
    od::value x;
    if (m.unescaped_key().get(key) != simdjson::SUCCESS || m.value().get(x) != simdjson::SUCCESS ||
        !read(x, map_entry(out, old, key)))
      return false;
  }
  return true;
}
template <class T, class F>
bool map_field(od::object& o, const char* k, std::map<std::string, T>& out, F read) {
  od::value v;
  return o[k].get(v) == simdjson::SUCCESS && get_map(v, out, read);
}
template <class T, class F>
bool vector_field(od::object& o, const char* k, std::vector<T>& out, F read) {
  od::value v;
  return o[k].get(v) == simdjson::SUCCESS && get_vector(v, out, read);
}
bool names(od::object& o, const char* k, ct_names& out) {
  return map_field(o, k, out, [](od::value x, std::string& s) { return get(x, s); });
}

bool read_event(od::value v, ct_event& e) {
  od::object o;
  return v.get_object().get(o) == simdjson::SUCCESS && field(o, "description", e.description) &&
         field(o, "id", e.id) && field(o, "logo", e.logo) && field(o, "name", e.name) &&
         field(o, "subTopicIds", e.subTopicIds) && field(o, "subjectCode", e.subjectCode) &&
         field(o, "subtitle", e.subtitle) && field(o, "topicIds", e.topicIds);
}
bool read_area(od::object& o, ct_area& a) {
  return field(o, "areaId", a.areaId) && field(o, "blockIds", a.blockIds);
}
bool read_seat_category(od::object& o, ct_seat_category& c) {
  return vector_field(o, "areas", c.areas, read_area) &&
         field(o, "seatCategoryId", c.seatCategoryId);
}
bool read_price(od::object& o, ct_price& c) {
  return field(o, "amount", c.amount) &&
         field(o, "audienceSubCategoryId", c.audienceSubCategoryId) &&
         field(o, "seatCategoryId", c.seatCategoryId);
}
bool read_performance(od::object& o, ct_performance& p) {
  return field(o, "eventId", p.eventId) && field(o, "id", p.id) && field(o, "logo", p.logo) &&
         field(o, "name", p.name) && vector_field(o, "prices", p.prices, read_price) &&
         vector_field(o, "seatCategories", p.seatCategories, read_seat_category) &&
         field(o, "seatMapImage", p.seatMapImage) && field(o, "start", p.start) &&
         field(o, "venueCode", p.venueCode);
}

}  // namespace

bool read_ondemand(ondemand_input& in, ct_root& out) {
  od::document doc;
  if (in.parser.iterate(in.text).get(doc) != simdjson::SUCCESS) return false;
  od::object o;
  if (doc.get_object().get(o) != simdjson::SUCCESS) return false;
  return names(o, "areaNames", out.areaNames) &&
         names(o, "audienceSubCategoryNames", out.audienceSubCategoryNames) &&
         names(o, "blockNames", out.blockNames) && map_field(o, "events", out.events, read_event) &&
         vector_field(o, "performances", out.performances, read_performance) &&
         names(o, "seatCategoryNames", out.seatCategoryNames) &&
         names(o, "subTopicNames", out.subTopicNames) &&
         names(o, "subjectNames", out.subjectNames) && names(o, "topicNames", out.topicNames) &&
         map_field(o, "topicSubTopics", out.topicSubTopics,
                   [](od::value x, std::vector<std::uint64_t>& v) { return get(x, v); }) &&
         names(o, "venueNames", out.venueNames);
}

}  // namespace keel::bench::model::KEEL_ONDEMAND_KERNEL
