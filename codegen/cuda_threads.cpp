#include "codegen/cuda_threads_internal.h"

#include "codegen/kernel_text_internal.h"

namespace idxmap::codegen {
namespace {

// A thread's point number stays int32_t below this many points: with at most 2^24 threads
// (cuda_file.cpp's idxmap_blocks), point + stride never passes 2^31.
constexpr int64_t kInt32Points = int64_t{1} << 30;

}  // namespace

namespace {

// The box of `map`'s dims, d0 counted in tiles of `rows` when rows > 1.
IndexingMap threadBox(const IndexingMap& map, int64_t rows) {
  IndexingMap box;
  box.dims = map.dims;
  box.knownEmpty = map.knownEmpty;
  if (rows > 1 && !box.dims.empty() && !box.dims[0].range.isEmpty()) {
    const Interval d0 = box.dims[0].range;
    box.dims[0].range = {0, (d0.hi - d0.lo) / rows};
  }
  return box;
}

CExpr plus(CExpr e, int64_t c) {
  if (c > 0) return binary(COp::kAdd, std::move(e), literal(c));
  if (c < 0) return binary(COp::kSub, std::move(e), literal(-c));
  return e;
}

}  // namespace

ThreadPoints::ThreadPoints(const IndexingMap& map, CWidth width, int64_t rows)
    : rowRange_(map.dims.empty() ? Interval{0, 0} : map.dims[0].range), width_(width), rows_(rows) {
  if (rows_ > 1 && map.dims.size() < 2)
    throw Error("internal: tiles of d0 need a map of two dims or more");
  const IndexingMap box = threadBox(map, rows_);
  for (const Variable& v : box.dims) ranges_.push_back(v.range);
  points_ = box.knownEmpty ? 0 : boxPoints(box);
  number_ = points_ <= kInt32Points ? CWidth::k32 : CWidth::k64;
}

std::vector<CExpr> ThreadPoints::decoded(const std::string& number) const {
  std::vector<CExpr> point;
  int64_t stride = points_;
  const CExpr p = variable(number, number_);
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const Interval range = ranges_[i];
    const int64_t extent = range.hi - range.lo + 1;
    stride /= extent;
    CExpr digit = p;
    if (extent == 1) {
      digit = literal(range.lo);
    } else {
      if (stride > 1) digit = binary(COp::kDiv, digit, literal(stride));
      if (i > 0) digit = binary(COp::kRem, digit, literal(extent));
      digit = plus(digit, range.lo);
    }
    if (number_ != width_ && digit->op != COp::kLiteral) digit = cast(width_, digit);
    // A tile's first row: d0's low bound plus the tile's number times its rows.
    if (i == 0 && rows_ > 1) {
      if (extent > 1) digit = binary(COp::kMul, digit, literal(rows_));
      digit = digit->op == COp::kLiteral ? literal(rowRange_.lo) : plus(digit, rowRange_.lo);
    }
    point.push_back(digit);
  }
  return point;
}

namespace {

LoopNode forLoop(const std::string& iterator, CWidth width, int64_t count, LoopNode body) {
  LoopNode loop;
  loop.kind = LoopNode::Kind::kFor;
  loop.iterator = iterator;
  loop.lower = literal(0);
  loop.condition = binary(COp::kLess, variable(iterator, width), literal(count));
  loop.body.push_back(std::move(body));
  return loop;
}

}  // namespace

LoopNest ThreadPoints::decodingNest() const {
  LoopNest nest;
  nest.dims = ranges_.size();
  nest.width = number_;
  LoopNode statement;
  statement.kind = LoopNode::Kind::kStatement;
  statement.point = decoded("d0");
  if (nest.dims == 0) {
    nest.root.body.push_back(statement);
    return nest;
  }
  if (rows_ == 1) {
    nest.root.body.push_back(forLoop("d0", number_, points_, statement));
    return nest;
  }
  // for each tile: for d1 in [0, rows) while first + d1 <= hi: the point (first + d1, ...).
  CExpr row = variable("d1", number_);
  if (number_ != width_) row = cast(width_, row);
  const CExpr first = statement.point[0];
  statement.point[0] = binary(COp::kAdd, first, row);
  LoopNode inTile;
  inTile.kind = LoopNode::Kind::kIf;
  inTile.condition = binary(COp::kLessEqual, row, binary(COp::kSub, literal(rowRange_.hi), first));
  inTile.body.push_back(statement);
  nest.root.body.push_back(
      forLoop("d0", number_, points_, forLoop("d1", number_, rows_, std::move(inTile))));
  return nest;
}

std::string ThreadPoints::loop() const {
  const std::string L = typeName(number_), c = "static_cast<" + L + ">(";
  return "  for (" + L + " idxmap_point = " + c + "blockIdx.x) * " + c + "blockDim.x) + " + c +
         "threadIdx.x);\n       idxmap_point < " + std::to_string(points_) +
         "; idxmap_point += " + c + "gridDim.x) * " + c + "blockDim.x)) {\n";
}

std::string ThreadPoints::declaredDims(int indent) const {
  std::string out;
  std::vector<CExpr> point = decoded("idxmap_point");
  for (size_t i = 0; i < point.size(); ++i)
    out += pad(indent) + "const " + typeName(width_) + " d" + std::to_string(i) + " = " +
           printCExpr(point[i]) + ";\n";
  return out;
}

std::string cudaKernelFunction(const std::string& name, const std::vector<CudaBuffer>& buffers,
                               const std::string& extraParameters, const std::string& body) {
  std::string parameters;
  for (const CudaBuffer& b : buffers) {
    const bool used = body.find(b.name + "[") != std::string::npos;
    parameters += (parameters.empty() ? "" : ", ") + b.type + "* __restrict__ " +
                  (used ? b.name : "/*" + b.name + "*/");
  }
  return "static __global__ void __launch_bounds__(" + std::to_string(kCudaThreadsPerBlock) + ") " +
         name + "(" + parameters + extraParameters + ") {\n" + body;
}

std::string cudaLaunch(const std::string& kernel, int64_t points, const std::string& arguments) {
  return "  IDXMAP_LAUNCH(" + kernel + ", idxmap_blocks(" + std::to_string(points) + "), " +
         std::to_string(kCudaThreadsPerBlock) + ", stream, " + arguments + ");\n";
}

std::string cudaLaunchSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry) {
  std::string signature = entrySignature(symbol + "_launch", entry);
  signature.pop_back();
  return signature + ",\n    cudaStream_t stream)";
}

std::string cudaHostEntries(const std::string& symbol, const std::vector<EntryBuffer>& entry) {
  const std::string n = std::to_string(entry.size());
  std::string host, bytes, written, call;
  for (size_t i = 0; i < entry.size(); ++i) {
    const EntryBuffer& b = entry[i];
    const std::string sep = i ? ", " : "";
    host += sep + "const_cast<void*>(static_cast<const void*>(" + b.name + "))";
    bytes += sep + "sizeof(" + b.storage + ") * " + std::to_string(b.elements);
    written += sep + (b.written ? "true" : "false");
    call += sep + "static_cast<" + (b.written ? "" : "const ") + b.storage + "*>(device[" +
            std::to_string(i) + "]), " + b.name + "_elements";
  }
  std::string out = entrySignature(symbol, entry) + " {\n" + sizeChecks(entry);
  out += "  void* const host[] = {" + host + "};\n  const size_t bytes[] = {" + bytes +
         "};\n  const bool written[] = {" + written + "};\n  void* device[" + n + "] = {};\n";
  out += "  int status = idxmap_to_device(host, bytes, " + n + ", device);\n";
  out += "  if (status == 0) status = " + symbol + "_launch(" + call + ", nullptr);\n";
  out += "  return idxmap_from_device(host, bytes, written, " + n + ", device, status);\n}\n";
  return out + packedEntry(symbol, entry);
}

}  // namespace idxmap::codegen
