// SPDX-License-Identifier: MIT
// The struct model of keel bench json's struct/<read|write>/twitter cases: twitter.json's
// statuses with the fields a user typically extracts (other keys are ignored when reading).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <keel/fields.h>

namespace keel::bench::model {

struct tw_user {
  std::uint64_t id = 0;
  std::string name, screen_name, location, description;
  std::uint64_t followers_count = 0, friends_count = 0;
  bool verified = false;
  std::string lang;
};
KEEL_FIELDS(tw_user, id, name, screen_name, location, description, followers_count, friends_count,
            verified, lang)

struct tw_status {
  std::uint64_t id = 0;
  std::string created_at, text, source;
  tw_user user;
  std::uint64_t retweet_count = 0, favorite_count = 0;
  bool favorited = false, retweeted = false;
  std::string lang;
  std::optional<std::uint64_t> in_reply_to_status_id;
};
KEEL_FIELDS(tw_status, id, created_at, text, source, user, retweet_count, favorite_count, favorited,
            retweeted, lang, in_reply_to_status_id)

struct tw_root {
  std::vector<tw_status> statuses;
};
KEEL_FIELDS(tw_root, statuses)

// A checksum of what was read, so that every reader is seen to read the same.
inline std::uint64_t checksum(const tw_root& r) {
  std::uint64_t s = 0;
  for (const tw_status& t : r.statuses) {
    s += t.id % 1000 + t.text.size() + t.user.followers_count + t.user.description.size() +
         t.retweet_count + (t.in_reply_to_status_id ? 1 : 0) + (t.user.verified ? 7 : 0);
  }
  return s;
}

// Peers (peer_struct.cpp: RapidJSON and nlohmann::json; peer_struct_ondemand.cpp: simdjson
// On-Demand). Each read returns false on failure; each write returns the text's size.
bool read_rapidjson(const std::string& text, tw_root& out);
std::size_t write_rapidjson(const tw_root& r, std::string& out);
bool read_nlohmann(const std::string& text, tw_root& out);
std::size_t write_nlohmann(const tw_root& r, std::string& out);
// simdjson needs its padding: `padded` is a copy made once with prepare_ondemand.
struct ondemand_input;
std::shared_ptr<ondemand_input> prepare_ondemand(const std::string& text);
bool read_ondemand(ondemand_input& in, tw_root& out);

}  // namespace keel::bench::model
