// Random HLO loop fusions for the kernel tests (f32, f16, bf16, s32 and the sub-byte s4 and u4):
// a chain of ops over one or two parameters, each
// op drawn from those HLO kernels compute (elementwise, compare/select, convert, broadcast,
// iota, constant, transpose, reverse, slice, reshape, concatenate, pad, dynamic-slice,
// dynamic-update-slice, reduce), with shapes kept consistent so every module is valid. Start
// indices come in as s32 parameters (run-time values, clamped when out of range).
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace idxmap::codegen::testing {

class RandomHlo {
 public:
  explicit RandomHlo(uint32_t seed) : rng_(seed) {}

  std::string module(int id) {
    nodes_.clear();
    params_.clear();
    body_.clear();
    const std::string type = pick<std::string>({"f32", "f16", "s32", "bf16", "s4", "u4"});
    std::vector<int64_t> shape = randomShape();
    Node x = parameter(type, shape);
    if (coin()) parameter(type, shape);
    int steps = between(2, 7);
    Node last = x;
    for (int s = 0; s < steps; ++s) {
      std::vector<Node> values;  // pred values only feed selects
      for (const Node& n : nodes_)
        if (n.type != "pred" && !n.shape.empty()) values.push_back(n);
      last = step(values[index(values.size())]);
    }
    std::string root = last.name;
    std::string rootShape = text(last);
    if (coin() && nodes_.size() > 2) {
      const Node& other = nodes_[index(nodes_.size() - 1)];
      root = "tuple(" + last.name + ", " + other.name + ")";
      rootShape = "(" + text(last) + ", " + text(other) + ")";
      body_ += "  ROOT r = " + rootShape + " " + root + "\n";
    } else {
      body_.replace(body_.rfind("  " + last.name + " = "), 2, "  ROOT ");
    }
    std::string args;
    std::string entry;
    for (size_t p = 0; p < params_.size(); ++p) {
      args += std::string(p ? ", " : "") + "a" + std::to_string(p);
      entry += "  a" + std::to_string(p) + " = " + text(params_[p]) + " parameter(" +
               std::to_string(p) + ")\n";
    }
    return "HloModule m" + std::to_string(id) +
           "\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] "
           "add(a, b)\n}\n\nmax_s32 {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  "
           "ROOT m = s32[] maximum(a, b)\n}\n\nfused {\n" +
           body_ + "}\n\nENTRY e {\n" + entry + "  ROOT f = " + rootShape + " fusion(" + args +
           "), kind=kLoop, calls=fused\n}\n";
  }

 private:
  struct Node {
    std::string name, type;
    std::vector<int64_t> shape;
  };

  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin() { return between(0, 1) == 1; }
  size_t index(size_t n) { return static_cast<size_t>(between(0, static_cast<int>(n) - 1)); }
  template <class T>
  T pick(std::vector<T> options) {
    return options[index(options.size())];
  }
  std::vector<int64_t> randomShape() {
    std::vector<int64_t> shape(static_cast<size_t>(between(1, 3)));
    for (int64_t& s : shape) s = between(1, 4);
    return shape;
  }
  static std::string dims(const std::vector<int64_t>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
    return out;
  }
  static std::string text(const Node& n) { return n.type + "[" + dims(n.shape) + "]"; }

  Node add(const std::string& type, std::vector<int64_t> shape, const std::string& op) {
    Node n{"n" + std::to_string(nodes_.size()), type, std::move(shape)};
    body_ += "  " + n.name + " = " + text(n) + " " + op + "\n";
    nodes_.push_back(n);
    return n;
  }
  Node parameter(const std::string& type, const std::vector<int64_t>& shape) {
    params_.push_back(add(type, shape, "parameter(" + std::to_string(params_.size()) + ")"));
    return params_.back();
  }
  Node scalarConstant(const std::string& type) {
    std::string value = type == "u4"     ? std::to_string(between(0, 5))
                        : !isFloat(type) ? std::to_string(between(-3, 3))
                                         : pick<std::string>({"0.5", "-2", "0", "inf", "1.25"});
    return add(type, {}, "constant(" + value + ")");
  }
  bool isFloat(const std::string& type) const {
    return type == "f32" || type == "f16" || type == "bf16";
  }

  Node step(Node x) {  // a copy: adding nodes moves the others
    const size_t rank = x.shape.size();
    switch (between(0, 15)) {
      case 0:
        return add(x.type, x.shape,
                   pick<std::string>(
                       isFloat(x.type)  ? std::vector<std::string>{"negate", "abs", "exponential",
                                                                   "tanh", "floor"}
                       : x.type == "u4" ? std::vector<std::string>{"negate", "not"}
                                        : std::vector<std::string>{"negate", "abs", "not"}) +
                       "(" + x.name + ")");
      case 1: {
        Node c = scalarConstant(x.type);
        Node b = add(x.type, x.shape, "broadcast(" + c.name + "), dimensions={}");
        std::string op =
            pick<std::string>({"add", "multiply", "maximum", "subtract", "divide", "minimum"});
        return add(x.type, x.shape, op + "(" + x.name + ", " + b.name + ")");
      }
      case 2: {
        Node y = add(x.type, x.shape, "negate(" + x.name + ")");
        Node p = add("pred", x.shape,
                     "compare(" + x.name + ", " + y.name +
                         "), direction=" + pick<std::string>({"LT", "GE", "EQ", "NE"}));
        return add(x.type, x.shape, "select(" + p.name + ", " + x.name + ", " + y.name + ")");
      }
      case 3:
        return add(pick<std::string>({"f32", "s32", "f16", "bf16", "s4", "u4"}), x.shape,
                   "convert(" + x.name + ")");
      case 4: {
        std::vector<int64_t> perm(rank), shape(rank);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng_);
        for (size_t i = 0; i < rank; ++i) shape[i] = x.shape[static_cast<size_t>(perm[i])];
        return add(x.type, shape, "transpose(" + x.name + "), dimensions={" + dims(perm) + "}");
      }
      case 5:
        return add(x.type, x.shape,
                   "reverse(" + x.name + "), dimensions={" + std::to_string(index(rank)) + "}");
      case 6: {
        std::string slice;
        std::vector<int64_t> shape;
        for (size_t i = 0; i < rank; ++i) {
          int64_t start = between(0, static_cast<int>(x.shape[i]) - 1), stride = between(1, 2);
          int64_t limit = between(static_cast<int>(start) + 1, static_cast<int>(x.shape[i]));
          shape.push_back((limit - start + stride - 1) / stride);
          slice += std::string(i ? ", " : "") + "[" + std::to_string(start) + ":" +
                   std::to_string(limit) + ":" + std::to_string(stride) + "]";
        }
        return add(x.type, shape, "slice(" + x.name + "), slice={" + slice + "}");
      }
      case 7: {
        int64_t n = 1;
        for (int64_t s : x.shape) n *= s;
        std::vector<int64_t> shape{n};
        if (n % 2 == 0 && coin()) shape = {2, n / 2};
        return add(x.type, shape, "reshape(" + x.name + ")");
      }
      case 8: {
        std::vector<int64_t> shape = x.shape, map;
        size_t at = index(rank + 1);
        shape.insert(shape.begin() + static_cast<long>(at), between(1, 3));
        for (size_t i = 0; i <= rank; ++i)
          if (i != at) map.push_back(static_cast<int64_t>(i));
        if (shape.size() > 4) return x;
        return add(x.type, shape, "broadcast(" + x.name + "), dimensions={" + dims(map) + "}");
      }
      case 9: {
        size_t d = index(rank);
        std::vector<int64_t> shape = x.shape;
        shape[d] *= 2;
        Node y = add(x.type, x.shape, "negate(" + x.name + ")");
        return add(
            x.type, shape,
            "concatenate(" + x.name + ", " + y.name + "), dimensions={" + std::to_string(d) + "}");
      }
      case 10: {
        Node c = scalarConstant(x.type);
        std::string padding;
        std::vector<int64_t> shape;
        for (size_t i = 0; i < rank; ++i) {
          int64_t low = between(-1, 2), high = between(-1, 2), interior = between(0, 1);
          int64_t size = x.shape[i] + (x.shape[i] - 1) * interior + low + high;
          if (size < 1) low = high = 0, size = x.shape[i] + (x.shape[i] - 1) * interior;
          shape.push_back(size);
          padding += std::string(i ? "x" : "") + std::to_string(low) + "_" + std::to_string(high) +
                     "_" + std::to_string(interior);
        }
        return add(x.type, shape, "pad(" + x.name + ", " + c.name + "), padding=" + padding);
      }
      case 11: {
        std::vector<int64_t> sizes;
        std::string starts;
        for (size_t i = 0; i < rank; ++i) {
          sizes.push_back(between(1, static_cast<int>(x.shape[i])));
          starts += ", " + parameter("s32", {}).name;
        }
        return add(
            x.type, sizes,
            "dynamic-slice(" + x.name + starts + "), dynamic_slice_sizes={" + dims(sizes) + "}");
      }
      case 12: {
        std::vector<int64_t> sizes;
        for (size_t i = 0; i < rank; ++i) sizes.push_back(between(1, static_cast<int>(x.shape[i])));
        Node c = scalarConstant(x.type);
        Node u = add(x.type, sizes, "broadcast(" + c.name + "), dimensions={}");
        std::string starts;
        for (size_t i = 0; i < rank; ++i) starts += ", " + parameter("s32", {}).name;
        return add(x.type, x.shape,
                   "dynamic-update-slice(" + x.name + ", " + u.name + starts + ")");
      }
      case 13: {  // rows of x picked by run-time indices (clamped when out of range)
        int64_t n = between(1, 4);
        Node rows = parameter("s32", {n, 1});
        std::vector<int64_t> sizes = x.shape, shape{n}, offsets;
        sizes[0] = 1;
        for (size_t i = 1; i < rank; ++i) {
          shape.push_back(x.shape[i]);
          offsets.push_back(static_cast<int64_t>(i));
        }
        return add(x.type, shape,
                   "gather(" + x.name + ", " + rows.name + "), offset_dims={" + dims(offsets) +
                       "}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
                       "slice_sizes={" +
                       dims(sizes) + "}");
      }
      case 14: {  // windows with strides, padding and both dilations
        if (x.type != "f32" && x.type != "s32") return x;
        std::string window = "size=", stride = "stride=", pad = "pad=", lhs = "lhs_dilate=",
                    rhs = "rhs_dilate=";
        std::vector<int64_t> shape;
        for (size_t i = 0; i < rank; ++i) {
          int64_t size = between(1, 3), step = between(1, 2), low = between(0, 1),
                  high = between(0, 1), base = between(1, 2), dilation = between(1, 2);
          int64_t padded = (x.shape[i] - 1) * base + 1 + low + high,
                  span = (size - 1) * dilation + 1;
          if (padded < span) size = 1, span = 1;
          shape.push_back((padded - span) / step + 1);
          std::string sep = i ? "x" : "";
          window += sep + std::to_string(size);
          stride += sep + std::to_string(step);
          pad += sep + std::to_string(low) + "_" + std::to_string(high);
          lhs += sep + std::to_string(base);
          rhs += sep + std::to_string(dilation);
        }
        Node init = add(x.type, {}, x.type == "f32" ? "constant(0.5)" : "constant(-100)");
        return add(x.type, shape,
                   "reduce-window(" + x.name + ", " + init.name + "), window={" + window + " " +
                       stride + " " + pad + " " + lhs + " " + rhs +
                       "}, to_apply=" + (x.type == "f32" ? "add" : "max_s32"));
      }
      default: {
        if (x.type != "f32" && x.type != "s32") return x;
        size_t d = index(rank);
        std::vector<int64_t> shape = x.shape;
        shape.erase(shape.begin() + static_cast<long>(d));
        Node init = add(x.type, {}, x.type == "f32" ? "constant(0)" : "constant(-100)");
        return add(x.type, shape,
                   "reduce(" + x.name + ", " + init.name + "), dimensions={" + std::to_string(d) +
                       "}, to_apply=" + (x.type == "f32" ? "add" : "max_s32"));
      }
    }
  }

  std::mt19937 rng_;
  std::vector<Node> nodes_, params_;
  std::string body_;
};

}  // namespace idxmap::codegen::testing
