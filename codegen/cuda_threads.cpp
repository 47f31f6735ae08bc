#include "codegen/cuda_threads_internal.h"

#include "codegen/kernel_text_internal.h"

namespace idxmap::codegen {
namespace {

// A thread's point number stays int32_t below this many points: with at most 2^24 threads
// (cuda_file.cpp's idxmap_blocks), point + stride never passes 2^31.
constexpr int64_t kInt32Points = int64_t{1} << 30;

}  // namespace

ThreadPoints::ThreadPoints(const IndexingMap& map, CWidth width)
    : map_(map),
      width_(width),
      points_(map.knownEmpty ? 0 : boxPoints(map)),
      number_(points_ <= kInt32Points ? CWidth::k32 : CWidth::k64) {}

std::vector<CExpr> ThreadPoints::decoded(const std::string& number) const {
  std::vector<CExpr> point;
  int64_t stride = points_;
  const CExpr p = variable(number, number_);
  for (size_t i = 0; i < map_.dims.size(); ++i) {
    const Interval range = map_.dims[i].range;
    const int64_t extent = range.hi - range.lo + 1;
    stride /= extent;
    if (extent == 1) {
      point.push_back(literal(range.lo));
      continue;
    }
    CExpr digit = p;
    if (stride > 1) digit = binary(COp::kDiv, digit, literal(stride));
    if (i > 0) digit = binary(COp::kRem, digit, literal(extent));
    if (range.lo > 0) digit = binary(COp::kAdd, digit, literal(range.lo));
    if (range.lo < 0) digit = binary(COp::kSub, digit, literal(-range.lo));
    if (number_ != width_) digit = cast(width_, digit);
    point.push_back(digit);
  }
  return point;
}

LoopNest ThreadPoints::decodingNest() const {
  LoopNest nest;
  nest.dims = map_.dims.size();
  nest.width = number_;
  LoopNode statement;
  statement.kind = LoopNode::Kind::kStatement;
  statement.point = decoded("d0");
  if (nest.dims == 0) {
    nest.root.body.push_back(statement);
    return nest;
  }
  LoopNode loop;
  loop.kind = LoopNode::Kind::kFor;
  loop.iterator = "d0";
  loop.lower = literal(0);
  loop.condition = binary(COp::kLess, variable("d0", number_), literal(points_));
  loop.body.push_back(statement);
  nest.root.body.push_back(loop);
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
