// SPDX-License-Identifier: MIT
// keel bench msg peers: msgpack-cxx (pack of the equivalent map; unpack to its object),
// protobuf (generated code for msg_bench.proto), cereal (binary archive of an equivalent struct
// with std::variant values) and nlohmann::json's MessagePack and CBOR, each fed from data.h.
#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/variant.hpp>
#include <cereal/types/vector.hpp>
#include <msgpack.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

#include "msg/data.h"
#include "msg_bench.pb.h"

namespace keel::bench::msg_data {

namespace {

// ---- msgpack-cxx
void pack_items(msgpack::packer<msgpack::sbuffer>& pk, const std::vector<item>& items) {
  pk.pack_map(static_cast<std::uint32_t>(items.size()));
  for (const item& it : items) {
    pk.pack(it.name);
    switch (it.k) {
      case kind::i64:
        pk.pack(it.i);
        break;
      case kind::f64:
        pk.pack(it.d);
        break;
      case kind::str:
        pk.pack(it.s);
        break;
      case kind::boolean:
        pk.pack(it.b);
        break;
      case kind::map:
        pack_items(pk, it.map);
        break;
      case kind::f64_array:
        pk.pack(it.array);
        break;
    }
  }
}

class msgpack_peer : public peer {
 public:
  explicit msgpack_peer(const dataset& d) : d_(d) { serialize(); }
  std::size_t serialize() override {
    buf_.clear();
    msgpack::packer<msgpack::sbuffer> pk(&buf_);
    const bool header = !d_.header[0].empty();
    if (header) {
      pk.pack_array(2);
      pk.pack_map(6);
      static const char* names[] = {"source_id",     "source_sub_id", "target_id",
                                    "target_sub_id", "type",          "version"};
      for (int i = 0; i < 6; ++i) {
        pk.pack(std::string_view(names[i]));
        pk.pack(d_.header[i]);
      }
    }
    pack_items(pk, d_.items);
    return buf_.size();
  }
  std::size_t deserialize() override {
    oh_ = msgpack::unpack(buf_.data(), buf_.size());
    const msgpack::object* o = &oh_.get();
    if (o->type == msgpack::type::ARRAY) o = &o->via.array.ptr[1];
    return o->via.map.size;
  }

 private:
  const dataset d_;  // a copy: the description outlives the suite setup
  msgpack::sbuffer buf_;
  msgpack::object_handle oh_;
};

// ---- protobuf
void fill(google::protobuf::RepeatedPtrField<keelbench::Entry>* out,
          const std::vector<item>& items) {
  for (const item& it : items) {
    keelbench::Entry* e = out->Add();
    e->set_name(it.name);
    switch (it.k) {
      case kind::i64:
        e->set_i(it.i);
        break;
      case kind::f64:
        e->set_d(it.d);
        break;
      case kind::str:
        e->set_s(it.s);
        break;
      case kind::boolean:
        e->set_b(it.b);
        break;
      case kind::map:
        fill(e->mutable_m()->mutable_entries(), it.map);
        break;
      case kind::f64_array:
        for (double x : it.array) e->mutable_a()->add_values(x);
        break;
    }
  }
}

class protobuf_peer : public peer {
 public:
  explicit protobuf_peer(const dataset& d) {
    msg_.set_source_id(d.header[0]);
    msg_.set_source_sub_id(d.header[1]);
    msg_.set_target_id(d.header[2]);
    msg_.set_target_sub_id(d.header[3]);
    msg_.set_type(d.header[4]);
    msg_.set_version(d.header[5]);
    fill(msg_.mutable_entries(), d.items);
    serialize();
  }
  std::size_t serialize() override {
    msg_.SerializeToString(&buf_);
    return buf_.size();
  }
  std::size_t deserialize() override {
    in_.ParseFromString(buf_);
    return static_cast<std::size_t>(in_.entries_size());
  }

 private:
  keelbench::Msg msg_, in_;
  std::string buf_;
};

}  // namespace

// ---- cereal (outside the anonymous namespace: cereal finds serialize() by ADL)
struct c_entry;
using c_value = std::variant<std::int64_t, double, std::string, bool, std::vector<c_entry>,
                             std::vector<double>>;
struct c_entry {
  std::string name;
  c_value v;
  template <class A>
  void serialize(A& ar) {
    ar(name, v);
  }
};
struct c_message {
  std::string header[6];
  std::vector<c_entry> entries;
  template <class A>
  void serialize(A& ar) {
    ar(header[0], header[1], header[2], header[3], header[4], header[5], entries);
  }
};

namespace {

std::vector<c_entry> to_cereal(const std::vector<item>& items) {
  std::vector<c_entry> out;
  for (const item& it : items) {
    c_entry e{it.name, {}};
    switch (it.k) {
      case kind::i64:
        e.v = it.i;
        break;
      case kind::f64:
        e.v = it.d;
        break;
      case kind::str:
        e.v = it.s;
        break;
      case kind::boolean:
        e.v = it.b;
        break;
      case kind::map:
        e.v = to_cereal(it.map);
        break;
      case kind::f64_array:
        e.v = it.array;
        break;
    }
    out.push_back(std::move(e));
  }
  return out;
}

class cereal_peer : public peer {
 public:
  explicit cereal_peer(const dataset& d) {
    for (int i = 0; i < 6; ++i) msg_.header[i] = d.header[i];
    msg_.entries = to_cereal(d.items);
    serialize();
  }
  std::size_t serialize() override {
    out_.str(std::string());
    {
      cereal::BinaryOutputArchive ar(out_);
      ar(msg_);
    }
    buf_ = out_.str();
    return buf_.size();
  }
  std::size_t deserialize() override {
    std::istringstream is(buf_);
    cereal::BinaryInputArchive ar(is);
    ar(in_);
    return in_.entries.size();
  }

 private:
  c_message msg_, in_;
  std::ostringstream out_;
  std::string buf_;
};

// ---- nlohmann::json
nlohmann::json to_json(const std::vector<item>& items) {
  nlohmann::json o = nlohmann::json::object();
  for (const item& it : items) {
    switch (it.k) {
      case kind::i64:
        o[it.name] = it.i;
        break;
      case kind::f64:
        o[it.name] = it.d;
        break;
      case kind::str:
        o[it.name] = it.s;
        break;
      case kind::boolean:
        o[it.name] = it.b;
        break;
      case kind::map:
        o[it.name] = to_json(it.map);
        break;
      case kind::f64_array:
        o[it.name] = it.array;
        break;
    }
  }
  return o;
}

class nlohmann_peer : public peer {
 public:
  nlohmann_peer(const dataset& d, bool cbor) : cbor_(cbor) {
    if (!d.header[0].empty()) {
      nlohmann::json h = nlohmann::json::object();
      static const char* names[] = {"source_id",     "source_sub_id", "target_id",
                                    "target_sub_id", "type",          "version"};
      for (int i = 0; i < 6; ++i) h[names[i]] = d.header[i];
      doc_ = nlohmann::json::array({h, to_json(d.items)});
    } else {
      doc_ = to_json(d.items);
    }
    serialize();
  }
  std::size_t serialize() override {
    buf_.clear();
    if (cbor_)
      nlohmann::json::to_cbor(doc_, buf_);
    else
      nlohmann::json::to_msgpack(doc_, buf_);
    return buf_.size();
  }
  std::size_t deserialize() override {
    in_ = cbor_ ? nlohmann::json::from_cbor(buf_) : nlohmann::json::from_msgpack(buf_);
    return in_.is_array() ? in_[1].size() : in_.size();
  }

 private:
  bool cbor_;
  nlohmann::json doc_, in_;
  std::vector<std::uint8_t> buf_;
};

}  // namespace

std::unique_ptr<peer> make_msgpack_cxx(const dataset& d) {
  return std::make_unique<msgpack_peer>(d);
}
std::unique_ptr<peer> make_protobuf(const dataset& d) { return std::make_unique<protobuf_peer>(d); }
std::unique_ptr<peer> make_cereal(const dataset& d) { return std::make_unique<cereal_peer>(d); }
std::unique_ptr<peer> make_nlohmann(const dataset& d, bool cbor) {
  return std::make_unique<nlohmann_peer>(d, cbor);
}

}  // namespace keel::bench::msg_data
