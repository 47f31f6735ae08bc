#include "bench/generators.h"

#include <algorithm>
#include <random>

namespace idxmap::bench {
namespace {

// A family's own stream: maps do not change when another family or rank is added.
class Random {
 public:
  Random(uint64_t family, int param) : engine_(family * 1000003u + param) {}
  // `% n` rather than std::uniform_int_distribution, whose output differs between
  // standard libraries; the corpus should be the same everywhere.
  size_t below(size_t n) { return engine_() % n; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

// Small extents with several prime factors, as tensor dims tend to have. Rank 8 stays far
// below int64 (16^8 < 2^33).
const std::vector<int64_t> kExtents = {2, 3, 4, 5, 6, 8, 10, 12, 16};

std::vector<int64_t> randomShape(Random& random, int rank) {
  std::vector<int64_t> shape;
  for (int i = 0; i < rank; ++i) shape.push_back(random.pick(kExtents));
  return shape;
}

int64_t product(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t n : shape) p *= n;
  return p;
}

// dims with ranges [0, n-1] for `shape`.
void addDims(IndexingMap& map, const std::vector<int64_t>& shape) {
  for (int64_t n : shape) map.dims.push_back({{0, n - 1}, ""});
}

Expr linearize(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides = stridesOf(shape);
  Expr sum = Expr::constant(0);
  for (size_t i = 0; i < shape.size(); ++i) sum = sum + Expr::dim(i) * strides[i];
  return sum;
}

// XLA's delinearization: no mod on the outermost index, none needed on stride 1.
std::vector<Expr> delinearize(Expr linear, const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides = stridesOf(shape);
  std::vector<Expr> out;
  for (size_t i = 0; i < shape.size(); ++i) {
    Expr digit = linear.floorDiv(strides[i]);
    out.push_back(i == 0 ? digit : digit.mod(shape[i]));
  }
  return out;
}

std::vector<int64_t> primeFactors(int64_t n) {
  std::vector<int64_t> factors;
  for (int64_t p = 2; n > 1; ++p)
    for (; n % p == 0; n /= p) factors.push_back(p);
  return factors;
}

// Splits `factors` into `parts` non-empty runs at random cut points; their products.
std::vector<int64_t> regroup(Random& random, const std::vector<int64_t>& factors, int parts) {
  std::vector<size_t> cuts;
  for (size_t i = 1; i < factors.size(); ++i) cuts.push_back(i);
  random.shuffle(cuts);
  cuts.resize(parts - 1);
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(factors.size());
  std::vector<int64_t> shape;
  size_t begin = 0;
  for (size_t end : cuts) {
    int64_t p = 1;
    for (size_t i = begin; i < end; ++i) p *= factors[i];
    shape.push_back(p);
    begin = end;
  }
  return shape;
}

}  // namespace

std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

IndexingMap delinearizeLinearize(int rank) {
  Random random(1, rank);
  std::vector<int64_t> shape = randomShape(random, rank);
  IndexingMap map;
  addDims(map, shape);
  map.results = delinearize(linearize(shape), shape);
  return map;
}

IndexingMap linearizeDelinearize(int levels) {
  Random random(2, levels);
  std::vector<int64_t> shape = randomShape(random, levels);
  std::vector<int64_t> strides = stridesOf(shape);
  IndexingMap map;
  addDims(map, {product(shape)});
  std::vector<Expr> digits = delinearize(Expr::dim(0), shape);
  Expr sum = Expr::constant(0);
  for (size_t i = 0; i < digits.size(); ++i) sum = sum + digits[i] * strides[i];
  map.results = {sum};
  return map;
}

IndexingMap reshape(int rank, bool aligned) {
  Random random(aligned ? 3 : 4, rank);
  std::vector<int64_t> input = randomShape(random, rank);
  std::vector<int64_t> factors;
  for (int64_t n : input)
    for (int64_t p : primeFactors(n)) factors.push_back(p);
  if (!aligned) random.shuffle(factors);
  std::vector<int64_t> output = regroup(random, factors, rank);
  IndexingMap map;
  addDims(map, output);
  map.results = delinearize(linearize(output), input);
  return map;
}

IndexingMap tiling(int rank) {
  Random random(5, rank);
  const std::vector<int64_t> tiles = {2, 4, 8, 16, 32};
  IndexingMap map;
  for (int i = 0; i < rank; ++i) {
    int64_t tile = random.pick(tiles);
    int64_t extent = tile * random.pick(kExtents) - random.below(2);  // sometimes ragged
    map.dims.push_back({{0, extent - 1}, ""});
    Expr d = Expr::dim(i);
    map.results.push_back(d.floorDiv(tile) * tile + d.mod(tile));
  }
  return map;
}

IndexingMap gpuTiling(int rank) {
  Random random(6, rank);
  constexpr int64_t kThreads = 128;
  std::vector<int64_t> shape = randomShape(random, rank);
  int64_t elements = product(shape);
  int64_t unroll = random.below(2) ? 4 : 1;
  int64_t perBlock = kThreads * unroll;
  int64_t blocks = (elements + perBlock - 1) / perBlock;
  IndexingMap map;
  map.dims = {{{0, kThreads - 1}, "th"}, {{0, blocks - 1}, "bl"}};
  Expr linear = Expr::dim(1) * kThreads + Expr::dim(0);
  if (unroll > 1) {
    map.rangeVars.push_back({{0, unroll - 1}, ""});
    linear = linear * unroll + Expr::rangeVar(0);
  }
  if (blocks * perBlock != elements) map.constraints.push_back({linear, {0, elements - 1}});
  map.results = delinearize(linear, shape);
  return map;
}

}  // namespace idxmap::bench
