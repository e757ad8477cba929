// SPDX-License-Identifier: MIT
// The struct models of keel bench json's struct/<read|write>/<model> cases: twitter.json's
// statuses with the fields a user typically extracts (other keys are ignored when reading), and
// citm_catalog.json whole.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// keel, On-Demand and RapidJSON read over what the struct already holds: element i of a vector
// is read in place (its strings keep their storage), new ones are added, the rest dropped by the
// caller's resize; a map's entries are set aside and each key read takes its entry back.
template <class T>
T& element(std::vector<T>& v, std::size_t i) {
  return i < v.size() ? v[i] : v.emplace_back();
}
template <class T>
T& map_entry(std::map<std::string, T>& out, std::map<std::string, T>& old, std::string_view key) {
  std::string k(key);
  if (auto node = old.extract(k)) {
    auto r = out.insert(std::move(node));
    return r.position->second;
  }
  return out[std::move(k)];
}

// A checksum of what was read, so that every reader is seen to read the same.
inline std::uint64_t checksum(const tw_root& r) {
  std::uint64_t s = 0;
  for (const tw_status& t : r.statuses) {
    s += t.id % 1000 + t.text.size() + t.user.followers_count + t.user.description.size() +
         t.retweet_count + (t.in_reply_to_status_id ? 1 : 0) + (t.user.verified ? 7 : 0);
  }
  return s;
}

// citm_catalog.json whole: name tables (maps of id to name), events by id, performances with
// their prices and seat categories. Null members are empty optionals (left out when written).
struct ct_event {
  std::optional<std::string> description;
  std::uint64_t id = 0;
  std::optional<std::string> logo;
  std::string name;
  std::vector<std::uint64_t> subTopicIds;
  std::optional<std::string> subjectCode, subtitle;
  std::vector<std::uint64_t> topicIds;
};
KEEL_FIELDS(ct_event, description, id, logo, name, subTopicIds, subjectCode, subtitle, topicIds)

struct ct_price {
  std::uint64_t amount = 0, audienceSubCategoryId = 0, seatCategoryId = 0;
};
KEEL_FIELDS(ct_price, amount, audienceSubCategoryId, seatCategoryId)

struct ct_area {
  std::uint64_t areaId = 0;
  std::vector<std::uint64_t> blockIds;
};
KEEL_FIELDS(ct_area, areaId, blockIds)

struct ct_seat_category {
  std::vector<ct_area> areas;
  std::uint64_t seatCategoryId = 0;
};
KEEL_FIELDS(ct_seat_category, areas, seatCategoryId)

struct ct_performance {
  std::uint64_t eventId = 0, id = 0;
  std::optional<std::string> logo, name;
  std::vector<ct_price> prices;
  std::vector<ct_seat_category> seatCategories;
  std::optional<std::string> seatMapImage;
  std::uint64_t start = 0;
  std::string venueCode;
};
KEEL_FIELDS(ct_performance, eventId, id, logo, name, prices, seatCategories, seatMapImage, start,
            venueCode)

using ct_names = std::map<std::string, std::string>;
struct ct_root {
  ct_names areaNames, audienceSubCategoryNames, blockNames;
  std::map<std::string, ct_event> events;
  std::vector<ct_performance> performances;
  ct_names seatCategoryNames, subTopicNames, subjectNames, topicNames;
  std::map<std::string, std::vector<std::uint64_t>> topicSubTopics;
  ct_names venueNames;
};
KEEL_FIELDS(ct_root, areaNames, audienceSubCategoryNames, blockNames, events, performances,
            seatCategoryNames, subTopicNames, subjectNames, topicNames, topicSubTopics, venueNames)

inline std::uint64_t checksum(const ct_root& r) {
  std::uint64_t s = r.areaNames.size() + r.seatCategoryNames.size() * 3 + r.topicNames.size() * 7;
  for (const auto& [id, e] : r.events) {
    s += id.size() + e.id % 1000 + e.name.size() + e.subTopicIds.size() + e.topicIds.size() +
         (e.logo ? e.logo->size() : 0);
  }
  for (const ct_performance& p : r.performances) {
    s += p.eventId % 1000 + p.start % 977 + p.venueCode.size() + (p.logo ? 1 : 0);
    for (const ct_price& x : p.prices) s += x.amount % 1000;
    for (const ct_seat_category& c : p.seatCategories) {
      for (const ct_area& a : c.areas) s += a.areaId % 100 + a.blockIds.size();
    }
  }
  for (const auto& [id, v] : r.topicSubTopics) s += v.size() * 11;
  return s;
}

// Peers (peer_struct.cpp: RapidJSON and nlohmann::json; struct_ondemand_reader.h: simdjson
// On-Demand), one overload per model. Each read returns false on failure; each write returns the
// text's size and writes what keel writes (empty optionals left out).
bool read_rapidjson(const std::string& text, tw_root& out);
std::size_t write_rapidjson(const tw_root& r, std::string& out);
bool read_nlohmann(const std::string& text, tw_root& out);
std::size_t write_nlohmann(const tw_root& r, std::string& out);
bool read_rapidjson(const std::string& text, ct_root& out);
std::size_t write_rapidjson(const ct_root& r, std::string& out);
bool read_nlohmann(const std::string& text, ct_root& out);
std::size_t write_nlohmann(const ct_root& r, std::string& out);
// simdjson needs its padding: `padded` is a copy made once with prepare_ondemand. Two builds:
// native (for this CPU: simdjson's icelake kernel on AVX-512) and haswell (its AVX2 kernel).
namespace native {
struct ondemand_input;
std::shared_ptr<ondemand_input> prepare_ondemand(const std::string& text);
bool read_ondemand(ondemand_input& in, tw_root& out);
bool read_ondemand(ondemand_input& in, ct_root& out);
}  // namespace native
namespace haswell {
struct ondemand_input;
std::shared_ptr<ondemand_input> prepare_ondemand(const std::string& text);
bool read_ondemand(ondemand_input& in, tw_root& out);
bool read_ondemand(ondemand_input& in, ct_root& out);
}  // namespace haswell

}  // namespace keel::bench::model
