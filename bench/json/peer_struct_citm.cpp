// SPDX-License-Identifier: MIT
// struct/<read|write>/citm with RapidJSON (a Document, values copied out; a Writer over a
// StringBuffer) and nlohmann::json (from_json / to_json through its DOM), as users write them.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <nlohmann/json.hpp>

#include "json/struct_model.h"

namespace keel::bench::model {

// ---- RapidJSON ----
namespace {

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
  out.clear();
  for (const auto& x : v->GetArray()) {
    if (!get(&x, out.emplace_back())) return false;
  }
  return true;
}
template <class T, class F>
bool get_vector(const rj_value* v, std::vector<T>& out, F read) {
  if (!v || !v->IsArray()) return false;
  out.clear();
  out.reserve(v->Size());
  for (const auto& x : v->GetArray()) {
    if (!x.IsObject() || !read(x, out.emplace_back())) return false;
  }
  return true;
}
template <class T, class F>
bool get_map(const rj_value* v, std::map<std::string, T>& out, F read) {
  if (!v || !v->IsObject()) return false;
  out.clear();
  for (const auto& m : v->GetObject()) {
    if (!read(m.value, out[std::string(m.name.GetString(), m.name.GetStringLength())]))
      return false;
  }
  return true;
}
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
  d.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag>(text.data(),
                                                                                      text.size());
  if (d.HasParseError() || !d.IsObject()) return false;
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

// ---- nlohmann::json ----
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
