#pragma once
// Field files read back as a reader does, for the tests of the writers (tests/io) and of the runs that
// write them (tests/app): a .vti's XML header and raw appended block, HDF5 datasets through the C API,
// and the XDMF file's steps and dataset references.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"

namespace pdex::testing {

using Attributes = std::map<std::string, std::string>;

// The attributes of each <tag ...> element in `xml`, in order.
inline std::vector<Attributes> elements(const std::string& xml, const std::string& tag) {
  std::vector<Attributes> found;
  const std::regex element("<" + tag + R"((\s[^>]*)?>)");
  const std::regex attribute(R"re(([\w:]+)="([^"]*)")re");
  for (std::sregex_iterator e(xml.begin(), xml.end(), element), end; e != end; ++e) {
    const std::string body = (*e)[1];
    Attributes attributes;
    for (std::sregex_iterator a(body.begin(), body.end(), attribute); a != end; ++a) attributes[(*a)[1]] = (*a)[2];
    found.push_back(attributes);
  }
  return found;
}

// A .vti file split where the raw data begins: the XML header, and the bytes after the '_' marker.
struct Vti {
  std::string header, appended;
};

inline Vti read_vti(const std::filesystem::path& file) {
  const std::string bytes = read_file_bytes(file);
  const auto marker = bytes.find("<AppendedData encoding=\"raw\">");
  const auto underscore = bytes.find('_', marker);
  if (marker == std::string::npos || underscore == std::string::npos) return {bytes, ""};
  return {bytes.substr(0, underscore), bytes.substr(underscore + 1)};
}

// The appended array at `offset`: its UInt64 byte count, then that many bytes.
inline std::string appended_array(const std::string& appended, std::size_t offset) {
  std::uint64_t bytes = 0;
  if (offset + sizeof bytes > appended.size()) return "";
  std::memcpy(&bytes, appended.data() + offset, sizeof bytes);
  return appended.substr(offset + sizeof bytes, bytes);
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

// An HDF5 id closed at the end of its scope.
class H5Id {
 public:
  H5Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~H5Id() {
    if (id_ >= 0) close_(id_);
  }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

inline H5Id open_h5(const std::filesystem::path& file) { return H5Id(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose); }

struct Dataset {
  std::vector<hsize_t> dims;
  bool f32 = false, f64 = false, contiguous = false, filtered = true;
  std::string bytes;  // as stored
};

inline Dataset read_dataset(hid_t file, const std::string& name) {
  const H5Id dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (dataset < 0) {
    ADD_FAILURE() << "no dataset " << name;
    return {};
  }
  const H5Id type(H5Dget_type(dataset), H5Tclose), space(H5Dget_space(dataset), H5Sclose);
  const H5Id properties(H5Dget_create_plist(dataset), H5Pclose);
  Dataset d;
  d.dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, d.dims.data(), nullptr);
  d.f32 = H5Tequal(type, H5T_IEEE_F32LE) > 0;
  d.f64 = H5Tequal(type, H5T_IEEE_F64LE) > 0;
  d.contiguous = H5Pget_layout(properties) == H5D_CONTIGUOUS;
  d.filtered = H5Pget_nfilters(properties) != 0;
  d.bytes.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)) * H5Tget_size(type));
  EXPECT_GE(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.bytes.data()), 0) << name;
  return d;
}

// The XDMF file as the writer lays it out: per step its time, and per field its dataset reference.
struct XdmfField {
  std::string name, dimensions, precision, reference;
};
struct XdmfStep {
  std::string time, topology;
  std::vector<XdmfField> fields;
};

inline std::vector<XdmfStep> read_xdmf(const std::filesystem::path& file) {
  const std::string xml = read_file_bytes(file);
  const std::regex grid(R"re(<Grid Name="step \d+" GridType="Uniform">([\s\S]*?)</Grid>)re");
  const std::regex time(R"re(<Time Value="([^"]*)"/>)re");
  const std::regex topology(R"re(<Topology TopologyType="3DCoRectMesh" Dimensions="([^"]*)"/>)re");
  const std::regex field(R"re(<Attribute Name="([^"]*)" AttributeType="Scalar" Center="Node">\s*)re"
                         R"re(<DataItem Dimensions="([^"]*)" NumberType="Float" Precision="(\d)" Format="HDF">([^<]*)</DataItem>)re");
  std::vector<XdmfStep> steps;
  for (std::sregex_iterator g(xml.begin(), xml.end(), grid), end; g != end; ++g) {
    const std::string body = (*g)[1];
    std::smatch m;
    XdmfStep step;
    if (std::regex_search(body, m, time)) step.time = m[1];
    if (std::regex_search(body, m, topology)) step.topology = m[1];
    for (std::sregex_iterator f(body.begin(), body.end(), field); f != end; ++f)
      step.fields.push_back({(*f)[1], (*f)[2], (*f)[3], (*f)[4]});
    steps.push_back(step);
  }
  return steps;
}

}  // namespace pdex::testing
