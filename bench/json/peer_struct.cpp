// SPDX-License-Identifier: MIT
// struct/<read|write>/twitter with RapidJSON (a Document, fields copied out; a Writer over a
// StringBuffer) and nlohmann::json (from_json / to_json through its DOM), as users write them.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <nlohmann/json.hpp>

#include "json/struct_model.h"

namespace keel::bench::model {

// ---- RapidJSON ----
namespace {

bool rj_string(const rapidjson::Value& o, const char* k, std::string& out) {
  auto it = o.FindMember(k);
  if (it == o.MemberEnd() || !it->value.IsString()) return false;
  out.assign(it->value.GetString(), it->value.GetStringLength());
  return true;
}
bool rj_u64(const rapidjson::Value& o, const char* k, std::uint64_t& out) {
  auto it = o.FindMember(k);
  if (it == o.MemberEnd() || !it->value.IsUint64()) return false;
  out = it->value.GetUint64();
  return true;
}
bool rj_bool(const rapidjson::Value& o, const char* k, bool& out) {
  auto it = o.FindMember(k);
  if (it == o.MemberEnd() || !it->value.IsBool()) return false;
  out = it->value.GetBool();
  return true;
}

}  // namespace

bool read_rapidjson(const std::string& text, tw_root& out) {
  rapidjson::Document d;
  d.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag>(text.data(),
                                                                                      text.size());
  if (d.HasParseError() || !d.IsObject()) return false;
  auto st = d.FindMember("statuses");
  if (st == d.MemberEnd() || !st->value.IsArray()) return false;
  out.statuses.clear();
  out.statuses.reserve(st->value.Size());
  for (const auto& s : st->value.GetArray()) {
    tw_status& t = out.statuses.emplace_back();
    auto u = s.FindMember("user");
    if (u == s.MemberEnd() || !u->value.IsObject()) return false;
    const auto& uv = u->value;
    if (!rj_u64(s, "id", t.id) || !rj_string(s, "created_at", t.created_at) ||
        !rj_string(s, "text", t.text) || !rj_string(s, "source", t.source) ||
        !rj_u64(uv, "id", t.user.id) || !rj_string(uv, "name", t.user.name) ||
        !rj_string(uv, "screen_name", t.user.screen_name) ||
        !rj_string(uv, "location", t.user.location) ||
        !rj_string(uv, "description", t.user.description) ||
        !rj_u64(uv, "followers_count", t.user.followers_count) ||
        !rj_u64(uv, "friends_count", t.user.friends_count) ||
        !rj_bool(uv, "verified", t.user.verified) || !rj_string(uv, "lang", t.user.lang) ||
        !rj_u64(s, "retweet_count", t.retweet_count) ||
        !rj_u64(s, "favorite_count", t.favorite_count) || !rj_bool(s, "favorited", t.favorited) ||
        !rj_bool(s, "retweeted", t.retweeted) || !rj_string(s, "lang", t.lang))
      return false;
    auto r = s.FindMember("in_reply_to_status_id");
    if (r != s.MemberEnd() && r->value.IsUint64()) {
      t.in_reply_to_status_id = r->value.GetUint64();
    } else {
      t.in_reply_to_status_id.reset();
    }
  }
  return true;
}

std::size_t write_rapidjson(const tw_root& r, std::string& out) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  auto str = [&w](const char* k, const std::string& v) {
    w.Key(k);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  };
  w.StartObject();
  w.Key("statuses");
  w.StartArray();
  for (const tw_status& t : r.statuses) {
    w.StartObject();
    w.Key("id");
    w.Uint64(t.id);
    str("created_at", t.created_at);
    str("text", t.text);
    str("source", t.source);
    w.Key("user");
    w.StartObject();
    w.Key("id");
    w.Uint64(t.user.id);
    str("name", t.user.name);
    str("screen_name", t.user.screen_name);
    str("location", t.user.location);
    str("description", t.user.description);
    w.Key("followers_count");
    w.Uint64(t.user.followers_count);
    w.Key("friends_count");
    w.Uint64(t.user.friends_count);
    w.Key("verified");
    w.Bool(t.user.verified);
    str("lang", t.user.lang);
    w.EndObject();
    w.Key("retweet_count");
    w.Uint64(t.retweet_count);
    w.Key("favorite_count");
    w.Uint64(t.favorite_count);
    w.Key("favorited");
    w.Bool(t.favorited);
    w.Key("retweeted");
    w.Bool(t.retweeted);
    str("lang", t.lang);
    if (t.in_reply_to_status_id) {
      w.Key("in_reply_to_status_id");
      w.Uint64(*t.in_reply_to_status_id);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out.assign(sb.GetString(), sb.GetSize());
  return out.size();
}

// ---- nlohmann::json ----

void from_json(const nlohmann::json& j, tw_user& u) {
  j.at("id").get_to(u.id);
  j.at("name").get_to(u.name);
  j.at("screen_name").get_to(u.screen_name);
  j.at("location").get_to(u.location);
  j.at("description").get_to(u.description);
  j.at("followers_count").get_to(u.followers_count);
  j.at("friends_count").get_to(u.friends_count);
  j.at("verified").get_to(u.verified);
  j.at("lang").get_to(u.lang);
}
void to_json(nlohmann::json& j, const tw_user& u) {
  j = nlohmann::json{{"id", u.id},
                     {"name", u.name},
                     {"screen_name", u.screen_name},
                     {"location", u.location},
                     {"description", u.description},
                     {"followers_count", u.followers_count},
                     {"friends_count", u.friends_count},
                     {"verified", u.verified},
                     {"lang", u.lang}};
}
void from_json(const nlohmann::json& j, tw_status& t) {
  j.at("id").get_to(t.id);
  j.at("created_at").get_to(t.created_at);
  j.at("text").get_to(t.text);
  j.at("source").get_to(t.source);
  j.at("user").get_to(t.user);
  j.at("retweet_count").get_to(t.retweet_count);
  j.at("favorite_count").get_to(t.favorite_count);
  j.at("favorited").get_to(t.favorited);
  j.at("retweeted").get_to(t.retweeted);
  j.at("lang").get_to(t.lang);
  const auto& r = j.at("in_reply_to_status_id");
  if (r.is_null()) {
    t.in_reply_to_status_id.reset();
  } else {
    t.in_reply_to_status_id = r.get<std::uint64_t>();
  }
}
void to_json(nlohmann::json& j, const tw_status& t) {
  j = nlohmann::json{{"id", t.id},
                     {"created_at", t.created_at},
                     {"text", t.text},
                     {"source", t.source},
                     {"user", t.user},
                     {"retweet_count", t.retweet_count},
                     {"favorite_count", t.favorite_count},
                     {"favorited", t.favorited},
                     {"retweeted", t.retweeted},
                     {"lang", t.lang}};
  if (t.in_reply_to_status_id) j["in_reply_to_status_id"] = *t.in_reply_to_status_id;
}

bool read_nlohmann(const std::string& text, tw_root& out) {
  try {
    const auto j = nlohmann::json::parse(text);
    j.at("statuses").get_to(out.statuses);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::size_t write_nlohmann(const tw_root& r, std::string& out) {
  const nlohmann::json j{{"statuses", r.statuses}};
  out = j.dump();
  return out.size();
}

}  // namespace keel::bench::model
