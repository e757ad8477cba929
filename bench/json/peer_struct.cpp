// SPDX-License-Identifier: MIT
// struct/<read|write>/<twitter|citm> with RapidJSON (a Document, fields copied out; a Writer over a
// StringBuffer) and nlohmann::json (from_json / to_json through its DOM), as users write them.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <nlohmann/json.hpp>

#include "json/struct_model.h"

namespace keel::bench::model {

// ---- RapidJSON ----
namespace {

// A full-precision, UTF-8-validating parse, as every RapidJSON reader here does.
bool parse(rapidjson::Document& d, const std::string& text) {
  d.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag>(text.data(),
                                                                                      text.size());
  return !d.HasParseError() && d.IsObject();
}

using rj_value = rapidjson::Value;

const rj_value* member(const rj_value& o, const char* k) {
  auto it = o.FindMember(k);
  return it == o.MemberEnd() ? nullptr : &it->value;
}
bool get(const rj_value* v, std::uint64_t& out) {
  if (!v || !v->IsUint64()) return false;
  out = v->GetUint64();
  return true;
}
bool get(const rj_value* v, bool& out) {
  if (!v || !v->IsBool()) return false;
  out = v->GetBool();
  return true;
}
bool get(const rj_value* v, std::string& out) {
  if (!v || !v->IsString()) return false;
  out.assign(v->GetString(), v->GetStringLength());
  return true;
}
bool get(const rj_value* v, std::optional<std::string>& out) {
  if (v && v->IsNull()) {
    out.reset();
    return true;
  }
  return get(v, out.emplace());
}
bool get(const rj_value* v, std::vector<std::uint64_t>& out) {
  if (!v || !v->IsArray()) return false;
  std::size_t i = 0;
  for (const auto& x : v->GetArray()) {
    if (!get(&x, element(out, i++))) return false;
  }
  out.resize(i);
  return true;
}
template <class T, class F>
bool get_vector(const rj_value* v, std::vector<T>& out, F read) {
  if (!v || !v->IsArray()) return false;
  std::size_t i = 0;
  for (const auto& x : v->GetArray()) {
    if (!x.IsObject() || !read(x, element(out, i++))) return false;
  }
  out.resize(i);
  return true;
}
template <class T, class F>
bool get_map(const rj_value* v, std::map<std::string, T>& out, F read) {
  if (!v || !v->IsObject()) return false;
  std::map<std::string, T> old;
  old.swap(out);
  for (const auto& m : v->GetObject()) {
    if (!read(m.value,
              map_entry(out, old, std::string_view(m.name.GetString(), m.name.GetStringLength()))))
      return false;
  }
  return true;
}
}  // namespace

bool read_rapidjson(const std::string& text, tw_root& out) {
  rapidjson::Document d;
  if (!parse(d, text)) return false;
  const rj_value* st = member(d, "statuses");
  if (!st || !st->IsArray()) return false;
  std::size_t n = 0;
  for (const auto& s : st->GetArray()) {
    tw_status& t = element(out.statuses, n++);
    const rj_value* u = member(s, "user");
    if (!u || !u->IsObject()) return false;
    if (!get(member(s, "id"), t.id) || !get(member(s, "created_at"), t.created_at) ||
        !get(member(s, "text"), t.text) || !get(member(s, "source"), t.source) ||
        !get(member(*u, "id"), t.user.id) || !get(member(*u, "name"), t.user.name) ||
        !get(member(*u, "screen_name"), t.user.screen_name) ||
        !get(member(*u, "location"), t.user.location) ||
        !get(member(*u, "description"), t.user.description) ||
        !get(member(*u, "followers_count"), t.user.followers_count) ||
        !get(member(*u, "friends_count"), t.user.friends_count) ||
        !get(member(*u, "verified"), t.user.verified) || !get(member(*u, "lang"), t.user.lang) ||
        !get(member(s, "retweet_count"), t.retweet_count) ||
        !get(member(s, "favorite_count"), t.favorite_count) ||
        !get(member(s, "favorited"), t.favorited) || !get(member(s, "retweeted"), t.retweeted) ||
        !get(member(s, "lang"), t.lang))
      return false;
    const rj_value* r = member(s, "in_reply_to_status_id");
    if (r && r->IsUint64()) {
      t.in_reply_to_status_id = r->GetUint64();
    } else {
      t.in_reply_to_status_id.reset();
    }
  }
  out.statuses.resize(n);
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

// ---- citm_catalog.json, whole: RapidJSON ----
namespace {

bool get_names(const rj_value* v, ct_names& out) {
  return get_map(v, out, [](const rj_value& x, std::string& s) { return get(&x, s); });
}

bool read_event(const rj_value& o, ct_event& e) {
  if (!o.IsObject()) return false;
  return get(member(o, "description"), e.description) && get(member(o, "id"), e.id) &&
         get(member(o, "logo"), e.logo) && get(member(o, "name"), e.name) &&
         get(member(o, "subTopicIds"), e.subTopicIds) &&
         get(member(o, "subjectCode"), e.subjectCode) && get(member(o, "subtitle"), e.subtitle) &&
         get(member(o, "topicIds"), e.topicIds);
}
bool read_performance(const rj_value& o, ct_performance& p) {
  return get(member(o, "eventId"), p.eventId) && get(member(o, "id"), p.id) &&
         get(member(o, "logo"), p.logo) && get(member(o, "name"), p.name) &&
         get_vector(member(o, "prices"), p.prices,
                    [](const rj_value& x, ct_price& c) {
                      return get(member(x, "amount"), c.amount) &&
                             get(member(x, "audienceSubCategoryId"), c.audienceSubCategoryId) &&
                             get(member(x, "seatCategoryId"), c.seatCategoryId);
                    }) &&
         get_vector(member(o, "seatCategories"), p.seatCategories,
                    [](const rj_value& x, ct_seat_category& c) {
                      return get_vector(member(x, "areas"), c.areas,
                                        [](const rj_value& y, ct_area& a) {
                                          return get(member(y, "areaId"), a.areaId) &&
                                                 get(member(y, "blockIds"), a.blockIds);
                                        }) &&
                             get(member(x, "seatCategoryId"), c.seatCategoryId);
                    }) &&
         get(member(o, "seatMapImage"), p.seatMapImage) && get(member(o, "start"), p.start) &&
         get(member(o, "venueCode"), p.venueCode);
}

using rj_writer = rapidjson::Writer<rapidjson::StringBuffer>;
void put(rj_writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
void put(rj_writer& w, std::uint64_t v) { w.Uint64(v); }
void put(rj_writer& w, const std::vector<std::uint64_t>& v) {
  w.StartArray();
  for (const std::uint64_t x : v) w.Uint64(x);
  w.EndArray();
}
template <class T>
void field(rj_writer& w, const char* k, const T& v) {
  w.Key(k);
  put(w, v);
}
void field(rj_writer& w, const char* k, const std::optional<std::string>& v) {
  if (v) field(w, k, *v);
}
template <class T, class F>
void put_map(rj_writer& w, const char* k, const std::map<std::string, T>& m, F put_value) {
  w.Key(k);
  w.StartObject();
  for (const auto& [key, v] : m) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    put_value(v);
  }
  w.EndObject();
}

}  // namespace

bool read_rapidjson(const std::string& text, ct_root& out) {
  rapidjson::Document d;
  if (!parse(d, text)) return false;
  return get_names(member(d, "areaNames"), out.areaNames) &&
         get_names(member(d, "audienceSubCategoryNames"), out.audienceSubCategoryNames) &&
         get_names(member(d, "blockNames"), out.blockNames) &&
         get_map(member(d, "events"), out.events, read_event) &&
         get_vector(member(d, "performances"), out.performances, read_performance) &&
         get_names(member(d, "seatCategoryNames"), out.seatCategoryNames) &&
         get_names(member(d, "subTopicNames"), out.subTopicNames) &&
         get_names(member(d, "subjectNames"), out.subjectNames) &&
         get_names(member(d, "topicNames"), out.topicNames) &&
         get_map(member(d, "topicSubTopics"), out.topicSubTopics,
                 [](const rj_value& x, std::vector<std::uint64_t>& v) { return get(&x, v); }) &&
         get_names(member(d, "venueNames"), out.venueNames);
}

std::size_t write_rapidjson(const ct_root& r, std::string& out) {
  rapidjson::StringBuffer sb;
  rj_writer w(sb);
  auto names = [&w](const char* k, const ct_names& m) {
    put_map(w, k, m, [&w](const std::string& s) { put(w, s); });
  };
  w.StartObject();
  names("areaNames", r.areaNames);
  names("audienceSubCategoryNames", r.audienceSubCategoryNames);
  names("blockNames", r.blockNames);
  put_map(w, "events", r.events, [&w](const ct_event& e) {
    w.StartObject();
    field(w, "description", e.description);
    field(w, "id", e.id);
    field(w, "logo", e.logo);
    field(w, "name", e.name);
    field(w, "subTopicIds", e.subTopicIds);
    field(w, "subjectCode", e.subjectCode);
    field(w, "subtitle", e.subtitle);
    field(w, "topicIds", e.topicIds);
    w.EndObject();
  });
  w.Key("performances");
  w.StartArray();
  for (const ct_performance& p : r.performances) {
    w.StartObject();
    field(w, "eventId", p.eventId);
    field(w, "id", p.id);
    field(w, "logo", p.logo);
    field(w, "name", p.name);
    w.Key("prices");
    w.StartArray();
    for (const ct_price& c : p.prices) {
      w.StartObject();
      field(w, "amount", c.amount);
      field(w, "audienceSubCategoryId", c.audienceSubCategoryId);
      field(w, "seatCategoryId", c.seatCategoryId);
      w.EndObject();
    }
    w.EndArray();
    w.Key("seatCategories");
    w.StartArray();
    for (const ct_seat_category& c : p.seatCategories) {
      w.StartObject();
      w.Key("areas");
      w.StartArray();
      for (const ct_area& a : c.areas) {
        w.StartObject();
        field(w, "areaId", a.areaId);
        field(w, "blockIds", a.blockIds);
        w.EndObject();
      }
      w.EndArray();
      field(w, "seatCategoryId", c.seatCategoryId);
      w.EndObject();
    }
    w.EndArray();
    field(w, "seatMapImage", p.seatMapImage);
    field(w, "start", p.start);
    field(w, "venueCode", p.venueCode);
    w.EndObject();
  }
  w.EndArray();
  names("seatCategoryNames", r.seatCategoryNames);
  names("subTopicNames", r.subTopicNames);
  names("subjectNames", r.subjectNames);
  names("topicNames", r.topicNames);
  put_map(w, "topicSubTopics", r.topicSubTopics,
          [&w](const std::vector<std::uint64_t>& v) { put(w, v); });
  names("venueNames", r.venueNames);
  w.EndObject();
  out.assign(sb.GetString(), sb.GetSize());
  return out.size();
}

// ---- citm_catalog.json, whole: nlohmann::json ----
namespace {

void get_opt(const nlohmann::json& j, const char* k, std::optional<std::string>& out) {
  const auto& v = j.at(k);
  if (v.is_null()) {
    out.reset();
  } else {
    out = v.get<std::string>();
  }
}
void set_opt(nlohmann::json& j, const char* k, const std::optional<std::string>& v) {
  if (v) j[k] = *v;
}

}  // namespace

void from_json(const nlohmann::json& j, ct_event& e) {
  get_opt(j, "description", e.description);
  j.at("id").get_to(e.id);
  get_opt(j, "logo", e.logo);
  j.at("name").get_to(e.name);
  j.at("subTopicIds").get_to(e.subTopicIds);
  get_opt(j, "subjectCode", e.subjectCode);
  get_opt(j, "subtitle", e.subtitle);
  j.at("topicIds").get_to(e.topicIds);
}
void to_json(nlohmann::json& j, const ct_event& e) {
  j = nlohmann::json{
      {"id", e.id}, {"name", e.name}, {"subTopicIds", e.subTopicIds}, {"topicIds", e.topicIds}};
  set_opt(j, "description", e.description);
  set_opt(j, "logo", e.logo);
  set_opt(j, "subjectCode", e.subjectCode);
  set_opt(j, "subtitle", e.subtitle);
}
void from_json(const nlohmann::json& j, ct_price& c) {
  j.at("amount").get_to(c.amount);
  j.at("audienceSubCategoryId").get_to(c.audienceSubCategoryId);
  j.at("seatCategoryId").get_to(c.seatCategoryId);
}
void to_json(nlohmann::json& j, const ct_price& c) {
  j = nlohmann::json{{"amount", c.amount},
                     {"audienceSubCategoryId", c.audienceSubCategoryId},
                     {"seatCategoryId", c.seatCategoryId}};
}
void from_json(const nlohmann::json& j, ct_area& a) {
  j.at("areaId").get_to(a.areaId);
  j.at("blockIds").get_to(a.blockIds);
}
void to_json(nlohmann::json& j, const ct_area& a) {
  j = nlohmann::json{{"areaId", a.areaId}, {"blockIds", a.blockIds}};
}
void from_json(const nlohmann::json& j, ct_seat_category& c) {
  j.at("areas").get_to(c.areas);
  j.at("seatCategoryId").get_to(c.seatCategoryId);
}
void to_json(nlohmann::json& j, const ct_seat_category& c) {
  j = nlohmann::json{{"areas", c.areas}, {"seatCategoryId", c.seatCategoryId}};
}
void from_json(const nlohmann::json& j, ct_performance& p) {
  j.at("eventId").get_to(p.eventId);
  j.at("id").get_to(p.id);
  get_opt(j, "logo", p.logo);
  get_opt(j, "name", p.name);
  j.at("prices").get_to(p.prices);
  j.at("seatCategories").get_to(p.seatCategories);
  get_opt(j, "seatMapImage", p.seatMapImage);
  j.at("start").get_to(p.start);
  j.at("venueCode").get_to(p.venueCode);
}
void to_json(nlohmann::json& j, const ct_performance& p) {
  j = nlohmann::json{{"eventId", p.eventId}, {"id", p.id},
                     {"prices", p.prices},   {"seatCategories", p.seatCategories},
                     {"start", p.start},     {"venueCode", p.venueCode}};
  set_opt(j, "logo", p.logo);
  set_opt(j, "name", p.name);
  set_opt(j, "seatMapImage", p.seatMapImage);
}

bool read_nlohmann(const std::string& text, ct_root& out) {
  try {
    const auto j = nlohmann::json::parse(text);
    j.at("areaNames").get_to(out.areaNames);
    j.at("audienceSubCategoryNames").get_to(out.audienceSubCategoryNames);
    j.at("blockNames").get_to(out.blockNames);
    j.at("events").get_to(out.events);
    j.at("performances").get_to(out.performances);
    j.at("seatCategoryNames").get_to(out.seatCategoryNames);
    j.at("subTopicNames").get_to(out.subTopicNames);
    j.at("subjectNames").get_to(out.subjectNames);
    j.at("topicNames").get_to(out.topicNames);
    j.at("topicSubTopics").get_to(out.topicSubTopics);
    j.at("venueNames").get_to(out.venueNames);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::size_t write_nlohmann(const ct_root& r, std::string& out) {
  const nlohmann::json j{
      {"areaNames", r.areaNames},         {"audienceSubCategoryNames", r.audienceSubCategoryNames},
      {"blockNames", r.blockNames},       {"events", r.events},
      {"performances", r.performances},   {"seatCategoryNames", r.seatCategoryNames},
      {"subTopicNames", r.subTopicNames}, {"subjectNames", r.subjectNames},
      {"topicNames", r.topicNames},       {"topicSubTopics", r.topicSubTopics},
      {"venueNames", r.venueNames}};
  out = j.dump();
  return out.size();
}

}  // namespace keel::bench::model
