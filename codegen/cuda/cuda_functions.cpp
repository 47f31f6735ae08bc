#include "codegen/cuda/cuda_functions.h"

#include <algorithm>

#include "codegen/cpp/kernel_text.h"

namespace idxmap::codegen {

std::string printGlobalFunction(const ir::GlobalFunction& function,
                                const ir::StatementStyle& style) {
  const std::set<std::string> used = ir::buffersUsed(function.body);
  std::string parameters;
  for (const ir::Parameter& p : function.parameters) {
    parameters += parameters.empty() ? "" : ", ";
    const std::string name = parameterName(p.name, used.count(p.name) > 0);
    if (!p.buffer)
      parameters += p.type + " " + p.name;
    else if (!p.accessor.empty())
      parameters += p.accessor + " " + name;
    else
      parameters += p.type + "* __restrict__ " + name;
  }
  return "static __global__ void __launch_bounds__(" + std::to_string(kCudaThreadsPerBlock) + ") " +
         function.name + "(" + parameters + ") {\n" + ir::printStatements(function.body, 2, style) +
         "}\n";
}

namespace {

std::string cudaLaunchSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry) {
  std::string signature = entrySignature(symbol + "_launch", entry);
  signature.pop_back();
  return signature + ",\n    cudaStream_t stream)";
}

// `used`: the buffers the body passes or copies; `queues`: whether it puts work on the stream.
std::string cudaLaunchInSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry,
                                  const std::set<std::string>& used, bool queues) {
  std::string signature = entrySignature(symbol + "_launch_in", entry, &used);
  signature.pop_back();
  return signature + ",\n    void* idxmap_workspace, cudaStream_t " +
         (queues ? "stream" : "/*stream*/") + ")";
}

std::string cudaWorkspaceLaunch(const std::string& symbol, const std::vector<EntryBuffer>& entry,
                                bool checked) {
  std::string call;
  for (const EntryBuffer& b : entry) call += b.name + ", " + b.name + "_elements, ";
  std::string out =
      cudaLaunchSignature(symbol, entry) +
      " {\n  void* idxmap_workspace = nullptr;\n  const size_t idxmap_bytes = " + symbol +
      "_workspace_bytes();\n  if (idxmap_bytes > 0 && cudaMallocAsync(&idxmap_workspace, "
      "idxmap_bytes, stream) != cudaSuccess)\n    return 3;\n  int idxmap_status = " +
      symbol + "_launch_in(" + call + "idxmap_workspace, stream);\n";
  if (checked)
    out +=
        "  int idxmap_bad = 0;\n  if (idxmap_status == 0) {\n    cudaMemcpyAsync(&idxmap_bad, "
        "idxmap_workspace, sizeof(int), cudaMemcpyDeviceToHost, stream);\n"
        "    cudaStreamSynchronize(stream);\n    if (cudaGetLastError() != cudaSuccess) "
        "idxmap_status = 3;\n    else if (idxmap_bad) idxmap_status = 2;\n  }\n";
  return out +
         "  if (idxmap_workspace) cudaFreeAsync(idxmap_workspace, stream);  // after the kernels\n"
         "  return idxmap_status;\n}\n";
}

std::string cudaHostEntries(const std::string& symbol, const std::vector<EntryBuffer>& entry) {
  const std::string n = std::to_string(entry.size());
  std::string host, bytes, written, call;
  for (size_t i = 0; i < entry.size(); ++i) {
    const EntryBuffer& b = entry[i];
    const std::string sep = i ? ", " : "";
    host += sep + "const_cast<void*>(static_cast<const void*>(" + b.name +
            (b.accessor.empty() ? "" : ".bytes") + "))";
    bytes += sep + (b.packedBits ? std::to_string(packedBytes(b.elements, b.packedBits))
                                 : "sizeof(" + b.storage + ") * " + std::to_string(b.elements));
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

// A launcher's statements (ir::LaunchFunction), `indent` spaces deep.
void printHost(const std::vector<ir::Node>& nodes, int indent, std::string& out) {
  using Kind = ir::Node::Kind;
  const std::string at(static_cast<size_t>(indent), ' ');
  auto region = [](const std::string& type, const ir::Value& offset) {
    return "reinterpret_cast<" + type + "*>(idxmap_space + " + offset->name + ")";
  };
  for (const ir::Node& node : nodes) {
    switch (node.kind) {
      case Kind::kComment:
      case Kind::kLaunch:
        out += ir::printStatements({node}, indent, {});
        break;
      case Kind::kRegion:
        if (node.loads.size() == 1) {
          out += at + node.type + "* const " + node.name + " = " +
                 region(node.type, node.loads[0]) + ";\n";
        } else if (node.loads.size() == 2) {
          out += at + node.type + "* const " + node.name + "[2] = {" +
                 region(node.type, node.loads[0]) + ", " + region(node.type, node.loads[1]) +
                 "};\n";
        } else {
          throw Error("internal: a workspace region of one or two pointers");
        }
        break;
      case Kind::kCopy: {
        const std::string bytes = node.packed ? ".bytes" : "", into = node.name + bytes,
                          from = node.from + bytes;
        out += at + "if (" + into + " != " + from + " && cudaMemcpyAsync(" + into + ", " + from +
               ", sizeof(" + node.type + ") * " + std::to_string(node.count) +
               ", cudaMemcpyDeviceToDevice, stream) != cudaSuccess)\n" + at + "  return 3;\n";
        break;
      }
      case Kind::kBadIndexFlag:
        out += at + "int* const idxmap_bad_index = reinterpret_cast<int*>(idxmap_space);\n" + at +
               "if (cudaMemsetAsync(idxmap_bad_index, 0, sizeof(int), stream) != cudaSuccess) "
               "return 3;\n";
        break;
      case Kind::kIfAligned: {
        std::string test;
        for (const ir::Value& b : node.loads)
          test += (test.empty() ? "" : " | ") + std::string("reinterpret_cast<uintptr_t>(") +
                  b->name + ")";
        if (node.body.size() != 1 || node.orElse.size() != 1)
          throw Error("internal: an alignment test picks one statement or the other");
        out += at + "if ((" + test + ") % " + std::to_string(node.count) + " == 0)\n";
        printHost(node.body, indent + 2, out);
        out += at + "else\n";
        printHost(node.orElse, indent + 2, out);
        break;
      }
      case Kind::kSortPairs: {
        const std::string scratch = std::to_string(node.lo);
        out += at + "if (idxmap_sort_pairs(idxmap_keys[0], idxmap_keys[1], idxmap_points[0], " +
               "idxmap_points[1], " + std::to_string(node.count) + ", " + std::to_string(node.hi) +
               ", idxmap_space + " + scratch + ", " + node.name + "() - " + scratch +
               ", stream) != cudaSuccess)\n" + at + "  return 3;\n";
        break;
      }
      default:
        throw Error("internal: a kernel's statement in a CUDA launcher");
    }
  }
}

}  // namespace

std::string printLaunchFunction(const ir::LaunchFunction& function) {
  const std::string& symbol = function.symbol;
  const std::vector<EntryBuffer>& entry = function.buffers;
  // Regions and comments aside, every statement of a launcher queues work on the stream.
  const bool queues =
      std::any_of(function.body.begin(), function.body.end(), [](const ir::Node& n) {
        return n.kind != ir::Node::Kind::kRegion && n.kind != ir::Node::Kind::kComment;
      });
  std::string out = "extern \"C\" size_t " + symbol + "_workspace_bytes(void) {\n  return " +
                    function.workspaceBytes + ";\n}\n" +
                    cudaLaunchInSignature(symbol, entry, ir::buffersUsed(function.body), queues) +
                    " {\n" + sizeChecks(entry) +
                    "  char* const idxmap_space = static_cast<char*>(idxmap_workspace);\n"
                    "  (void)idxmap_space;\n";
  printHost(function.body, 2, out);
  return out + "  return cudaGetLastError() == cudaSuccess ? 0 : 3;\n}\n" +
         packedLaunchInEntry(symbol, entry) + cudaWorkspaceLaunch(symbol, entry, function.checked) +
         cudaHostEntries(symbol, entry);
}

}  // namespace idxmap::codegen
