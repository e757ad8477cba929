// SPDX-License-Identifier: MIT
// struct/read/twitter with simdjson 4.6.1 On-Demand: the hand-written extraction a user writes
// for speed (fields looked up by name in each object; the padded copy is made once, outside the
// timing). Built like peer_simdjson4.cpp (namespace renamed beside Debian's simdjson).
#include <simdjson.h>

#include "json/struct_model.h"

namespace keel::bench::model {

struct ondemand_input {
  simdjson::padded_string text;
  simdjson::ondemand::parser parser;
};

std::shared_ptr<ondemand_input> prepare_ondemand(const std::string& text) {
  auto in = std::make_shared<ondemand_input>();
  in->text = simdjson::padded_string(text);
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
  out.statuses.clear();
  for (auto item : statuses) {
    simdjson::ondemand::object s;
    if (item.get_object().get(s) != simdjson::SUCCESS) return false;
    tw_status& t = out.statuses.emplace_back();
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
  return true;
}

}  // namespace keel::bench::model
