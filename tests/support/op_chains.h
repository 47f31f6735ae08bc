// Random chains of data-movement ops (reshape, transpose, reverse, slice, broadcast) and the
// output -> input indexing map of the whole chain, composed op by op and not simplified: the
// maps a compiler's indexing analysis produces for a fused chain. Reshapes go between random
// factorizations of the same element count, so their digits need not nest (a 6x4 read as
// 4x6); reversed dims put `size - 1 - d` inside the digits. For the simplifier's differential
// tests and for bench/'s comparison with isl. Deterministic in the seed (`% n`, not a
// distribution, so every standard library builds the same chains).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::testing {

struct OpChain {
  IndexingMap map;        // output index of the last op -> input index of the first
  std::string ops;        // "reshape 6x4->4x6; reverse {1}; ..."
  std::vector<int64_t> inputShape, outputShape;
};

namespace op_chains_detail {

inline std::vector<int64_t> strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> out(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) out[i - 1] = out[i] * shape[i];
  return out;
}

inline std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? "x" : "") + std::to_string(shape[i]);
  return out.empty() ? "scalar" : out;
}

// The map of one op: dims = its output, results = its input.
inline IndexingMap opMap(const std::vector<int64_t>& output, std::vector<Expr> results) {
  IndexingMap map;
  for (int64_t n : output) map.dims.push_back({{0, n - 1}, ""});
  map.results = std::move(results);
  return map;
}

}  // namespace op_chains_detail

class OpChainGenerator {
 public:
  explicit OpChainGenerator(uint64_t seed) : engine_(seed) {}

  // A chain of `length` ops from a random input of rank 1-4 with at most `maxElements`.
  OpChain chain(int length, int64_t maxElements = 4096) {
    using namespace op_chains_detail;
    static const std::vector<int64_t> kExtents = {1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 16};
    std::vector<int64_t> shape;
    int64_t elements = 1;
    for (size_t rank = 1 + below(4); shape.size() < rank;) {
      int64_t n = kExtents[below(kExtents.size())];
      if (elements * n > maxElements) break;
      shape.push_back(n);
      elements *= n;
    }
    if (shape.empty()) shape.push_back(2);
    OpChain out{identity(shape), "", shape, shape};
    for (int k = 0; k < length; ++k) {
      std::vector<int64_t> next;
      IndexingMap step = randomOp(out.outputShape, maxElements, next, out.ops);
      out.map = compose(step, out.map);
      out.outputShape = next;
    }
    return out;
  }

 private:
  size_t below(size_t n) { return static_cast<size_t>(engine_() % n); }

  static IndexingMap identity(const std::vector<int64_t>& shape) {
    std::vector<Expr> results;
    for (size_t i = 0; i < shape.size(); ++i) results.push_back(Expr::dim(i));
    return op_chains_detail::opMap(shape, results);
  }

  // A random factorization of `elements` into 1-4 dims.
  std::vector<int64_t> factorization(int64_t elements) {
    std::vector<int64_t> primes;
    for (int64_t p = 2, rest = elements; rest > 1;) {
      if (rest % p == 0) {
        primes.push_back(p);
        rest /= p;
      } else {
        ++p;
      }
    }
    for (size_t i = primes.size(); i > 1; --i) std::swap(primes[i - 1], primes[below(i)]);
    std::vector<int64_t> shape(1 + below(4), 1);
    for (int64_t p : primes) shape[below(shape.size())] *= p;
    return shape;
  }

  IndexingMap randomOp(const std::vector<int64_t>& in, int64_t maxElements,
                       std::vector<int64_t>& out, std::string& ops) {
    using namespace op_chains_detail;
    const size_t rank = in.size();
    if (!ops.empty()) ops += "; ";
    std::vector<Expr> results;
    switch (below(5)) {
      case 0: {  // reshape through the linear index
        int64_t elements = 1;
        for (int64_t n : in) elements *= n;
        out = factorization(elements);
        std::vector<int64_t> outStrides = strides(out), inStrides = strides(in);
        Expr linear = Expr::constant(0);
        for (size_t i = 0; i < out.size(); ++i) linear = linear + Expr::dim(i) * outStrides[i];
        for (size_t j = 0; j < rank; ++j) {
          Expr digit = linear.floorDiv(inStrides[j]);
          results.push_back(j == 0 ? digit : digit.mod(in[j]));
        }
        ops += "reshape " + shapeText(in) + "->" + shapeText(out);
        return opMap(out, results);
      }
      case 1: {  // transpose
        std::vector<size_t> perm(rank);
        for (size_t i = 0; i < rank; ++i) perm[i] = i;
        for (size_t i = rank; i > 1; --i) std::swap(perm[i - 1], perm[below(i)]);
        results.assign(rank, Expr::constant(0));
        for (size_t i = 0; i < rank; ++i) {
          out.push_back(in[perm[i]]);
          results[perm[i]] = Expr::dim(i);
        }
        ops += "transpose";
        for (size_t p : perm) ops += " " + std::to_string(p);
        return opMap(out, results);
      }
      case 2: {  // reverse some dims
        out = in;
        ops += "reverse {";
        for (size_t i = 0; i < rank; ++i) {
          bool reversed = below(2) == 0;
          results.push_back(reversed ? Expr::constant(in[i] - 1) - Expr::dim(i) : Expr::dim(i));
          if (reversed) ops += " " + std::to_string(i);
        }
        ops += " }";
        return opMap(out, results);
      }
      case 3: {  // strided slice
        ops += "slice";
        for (size_t i = 0; i < rank; ++i) {
          int64_t start = static_cast<int64_t>(below(static_cast<size_t>(in[i])));
          int64_t stride = 1 + static_cast<int64_t>(below(3));
          int64_t size = (in[i] - start + stride - 1) / stride;
          out.push_back(size);
          results.push_back(Expr::dim(i) * stride + start);
          ops += " [" + std::to_string(start) + ":" + std::to_string(in[i]) + ":" +
                 std::to_string(stride) + "]";
        }
        return opMap(out, results);
      }
      default: {  // broadcast: a new dim somewhere, when the size allows
        int64_t elements = 1;
        for (int64_t n : in) elements *= n;
        int64_t n = 2 + static_cast<int64_t>(below(3));
        if (rank >= 5 || elements * n > maxElements) {
          out = in;
          for (size_t i = 0; i < rank; ++i) results.push_back(Expr::dim(i));
          ops += "copy";
          return opMap(out, results);
        }
        size_t at = below(rank + 1);
        for (size_t i = 0; i <= rank; ++i) {
          if (i == at) out.push_back(n);
          if (i < rank) out.push_back(in[i]);
        }
        for (size_t i = 0; i < rank; ++i) results.push_back(Expr::dim(i < at ? i : i + 1));
        ops += "broadcast " + std::to_string(n) + " at " + std::to_string(at);
        return opMap(out, results);
      }
    }
  }

  std::mt19937_64 engine_;
};

}  // namespace idxmap::testing
