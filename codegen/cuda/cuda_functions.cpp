#include "codegen/cuda/cuda_functions.h"

#include "codegen/cpp/kernel_text.h"

namespace idxmap::codegen {

std::string printGlobalFunction(const ir::GlobalFunction& function,
                                const ir::StatementStyle& style) {
  const std::set<std::string> used = ir::buffersUsed(function.body);
  std::string parameters;
  for (const ir::Parameter& p : function.parameters) {
    parameters += parameters.empty() ? "" : ", ";
    if (!p.buffer)
      parameters += p.type + " " + p.name;
    else
      parameters +=
          p.type + "* __restrict__ " + (used.count(p.name) ? p.name : "/*" + p.name + "*/");
  }
  return "static __global__ void __launch_bounds__(" + std::to_string(kCudaThreadsPerBlock) + ") " +
         function.name + "(" + parameters + ") {\n" + ir::printStatements(function.body, 2, style) +
         "}\n";
}

std::string cudaLaunch(const std::string& kernel, int64_t points, const std::string& arguments) {
  return ir::printStatements({ir::launch(kernel, points, arguments)}, 2, {});
}

std::string cudaLaunchSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry) {
  std::string signature = entrySignature(symbol + "_launch", entry);
  signature.pop_back();
  return signature + ",\n    cudaStream_t stream)";
}

std::string cudaLaunchInSignature(const std::string& symbol,
                                  const std::vector<EntryBuffer>& entry) {
  std::string signature = entrySignature(symbol + "_launch_in", entry);
  signature.pop_back();
  return signature + ",\n    void* idxmap_workspace, cudaStream_t stream)";
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
