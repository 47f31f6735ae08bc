// CUDA rows moved 16 bytes at a time. Random row gathers and unique scatters (replace) of four
// element sizes, rows whose extent and stride are or are not multiples of 16 bytes, gathers
// whose column start is an index value, and gathers of a whole 1-D table (a map of one dim): the
// test predicts from the shapes alone which kernels get a vectors form (the extent and every row
// start a multiple of the lanes), then runs each against the reference evaluator bit for bit, with
// buffers 16-byte aligned (the vectors kernel runs) and moved one element off (the launch must fall
// back to a thread a point). Where nvcc is installed the vectors kernels compile to 16-byte loads
// and stores, and on a GPU machine (IDXMAP_CUDA_DEVICE=1) the aligned runs are repeated there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "codegen/emit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/codegen/random_mlir.h"

namespace idxmap::codegen {
namespace cuda_vectors_test {

using namespace testing;

struct RowCase {
  bool scatter = false;
  std::string type;          // element type
  int64_t lanes = 0;         // elements in 16 bytes
  int64_t rows = 0;          // the table's rows
  int64_t width = 0;         // its row length
  int64_t columns = 0;       // a row's columns moved (from column 0, or an index value's)
  int64_t count = 0;         // rows moved
  bool columnIndex = false;  // gather: the column start is an index value too
  bool flat = false;         // gather: one row, the whole table (a map of one dim)
  // Vectors are expected where the moved extent and every row's start are multiples of lanes.
  bool vectors() const {
    return columns % lanes == 0 && width % lanes == 0 && (!columnIndex || columns == width);
  }
};

std::string function(const RowCase& c, size_t n) {
  const std::string table = typeText({c.rows, c.width}, c.type),
                    moved = typeText({c.count, c.columns}, c.type),
                    indices = typeText({c.count, c.columnIndex ? 2 : 1}, "i32");
  const std::string name = "@f" + std::to_string(n);
  if (c.flat) {
    const std::string row = typeText({c.width}, c.type), start = typeText({1}, "i32");
    return "func.func " + name + "(%table: " + row + ", %rows: " + start + ") -> " + row +
           " {\n  %r = \"stablehlo.gather\"(%table, %rows) {dimension_numbers = "
           "#stablehlo.gather<offset_dims = [0], start_index_map = [0], index_vector_dim = 0>, "
           "slice_sizes = array<i64: " +
           std::to_string(c.width) + ">} : (" + row + ", " + start + ") -> " + row +
           "\n  func.return %r : " + row + "\n}\n";
  }
  if (!c.scatter)
    return "func.func " + name + "(%table: " + table + ", %rows: " + indices + ") -> " + moved +
           " {\n  %r = \"stablehlo.gather\"(%table, %rows) {dimension_numbers = "
           "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = " +
           (c.columnIndex ? "[0, 1]" : "[0]") +
           ", index_vector_dim = 1>, slice_sizes = array<i64: 1, " + std::to_string(c.columns) +
           ">} : (" + table + ", " + indices + ") -> " + moved + "\n  func.return %r : " + moved +
           "\n}\n";
  const std::string scalar = "tensor<" + c.type + ">";
  return "func.func " + name + "(%table: " + table + ", %rows: " + indices +
         ", %updates: " + moved + ") -> " + table +
         " {\n  %r = \"stablehlo.scatter\"(%table, %rows, %updates) ({\n  ^bb0(%a: " + scalar +
         ", %b: " + scalar + "):\n    \"stablehlo.return\"(%b) : (" + scalar +
         ") -> ()\n  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = "
         "[1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
         "index_vector_dim = 1>} : (" +
         table + ", " + indices + ", " + moved + ") -> " + table + "\n  func.return %r : " + table +
         "\n}\n";
}

std::vector<RowCase> rowCases() {
  std::mt19937 rng(5);
  const std::vector<std::pair<std::string, int64_t>> types = {
      {"f32", 4}, {"f16", 8}, {"f64", 2}, {"i8", 16}};
  std::vector<RowCase> out;
  for (int i = 0; i < 48; ++i) {
    RowCase c;
    c.scatter = i % 3 == 2;
    std::tie(c.type, c.lanes) = types[static_cast<size_t>(i) % types.size()];
    c.columnIndex = !c.scatter && i % 3 == 1;
    // Extents of whole lanes, or one element more or fewer; rows as long, or longer.
    const int64_t groups = uniform(rng, 1, 3);
    c.columns =
        groups * c.lanes + std::vector<int64_t>{0, 0, 1, -1}[static_cast<size_t>(i / 3) % 4];
    c.width = c.columns + std::vector<int64_t>{0, c.lanes, 1}[static_cast<size_t>(i / 12) % 3];
    c.rows = uniform(rng, 2, 6);
    c.count = c.scatter ? uniform(rng, 1, c.rows) : uniform(rng, 1, 9);
    out.push_back(c);
  }
  for (int i = 0; i < 8; ++i) {  // one row: vectors where its extent is whole lanes
    RowCase c;
    c.flat = true;
    std::tie(c.type, c.lanes) = types[static_cast<size_t>(i) % types.size()];
    c.columns = c.width = uniform(rng, 1, 3) * c.lanes + (i < 4 ? 0 : 1);
    c.rows = c.count = 1;
    out.push_back(c);
  }
  return out;
}

// Index values: a row each (unique for scatter: distinct rows), and a column start in range.
Tensor indexValues(const RowCase& c, std::mt19937& rng) {
  if (c.flat) return gather_scatter::zeros("i32", {1});  // the only start in range
  Tensor t = gather_scatter::zeros("i32", {c.count, c.columnIndex ? 2 : 1});
  std::vector<int64_t> rows(static_cast<size_t>(c.rows));
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<int64_t>(r);
  std::shuffle(rows.begin(), rows.end(), rng);
  for (int64_t k = 0; k < c.count; ++k) {
    const size_t at = static_cast<size_t>(k * (c.columnIndex ? 2 : 1));
    t.ints[at] = c.scatter ? rows[static_cast<size_t>(k)] : uniform(rng, 0, c.rows - 1);
    if (c.columnIndex) t.ints[at + 1] = uniform(rng, 0, c.width - c.columns);
  }
  return t;
}

// `SYMBOL_direct(buffers, elements)`: the kernel's launch entry called on the given pointers
// (the emulation's device memory is the host's), made from its packed entry's text.
std::string directEntry(const std::string& text, const std::string& symbol) {
  const std::string head = "extern \"C\" int " + symbol + "_packed(";
  const size_t begin = text.find(head);
  const size_t end = text.find("\n}\n", begin);
  std::string entry = text.substr(begin, end + 3 - begin);
  entry.replace(entry.find("_packed("), 8, "_direct(");
  entry.replace(entry.find("return " + symbol + "("), 8 + symbol.size(),
                "return " + symbol + "_launch(");
  entry.replace(entry.rfind(");"), 2, ", nullptr);");
  return entry;
}

// Runs `kernel` through SYMBOL_direct with every buffer one element past a 16-byte boundary.
std::vector<Tensor> runShifted(const LoadedLibrary& library, const Kernel& kernel,
                               const std::vector<const Tensor*>& reads) {
  std::vector<Buffer> storage;
  std::vector<void*> pointers;
  std::vector<int64_t> elements;
  size_t next = 0;
  for (const KernelBuffer& b : kernel.buffers) {
    const size_t width = bufferElementBytes(b.elementType),
                 bytes = width * static_cast<size_t>(b.elements());
    storage.emplace_back(bytes + 16);
    char* at = static_cast<char*>(storage.back().data()) + width;  // Buffer: max_align_t
    if (!b.written) std::memcpy(at, toBuffer(*reads.at(next++)).data(), bytes);
    pointers.push_back(at);
    elements.push_back(b.elements());
  }
  using Direct = int (*)(void* const*, const int64_t*);
  auto direct = reinterpret_cast<Direct>(library.symbol(kernel.symbol + "_direct"));
  EXPECT_EQ(direct(pointers.data(), elements.data()), 0) << kernel.symbol;
  std::vector<Tensor> out;
  for (size_t i = 0; i < kernel.buffers.size(); ++i) {
    const KernelBuffer& b = kernel.buffers[i];
    if (!b.written) continue;
    Buffer result(bufferElementBytes(b.elementType) * static_cast<size_t>(b.elements()));
    std::memcpy(result.data(), pointers[i], result.size());
    out.push_back(fromBuffer(result, b.elementType, b.shape));
  }
  return out;
}

TEST(CudaVectors, RowsMoveSixteenBytesAtATimeWhereProvenAndAlignedElseAPointAThread) {
  const std::vector<RowCase> cases = rowCases();
  std::string module;
  for (size_t n = 0; n < cases.size(); ++n) module += function(cases[n], n);
  mlir_ir::Module parsed = mlir_ir::parseMlirModule(module, "rows.mlir");
  EmittedModule emitted =
      emitMlirModule(parsed, parseAssumptions({"%rows: unique"}), {EmitTarget::Kind::kCuda, {}});
  for (const EmitProblem& problem : emitted.problems)
    ADD_FAILURE() << problem.location.toString() << ": " << problem.message;
  ASSERT_EQ(emitted.kernels.size(), cases.size());
  std::string source = emitted.source();
  for (const EmittedKernel& k : emitted.kernels)
    source += directEntry(k.printed.text, k.kernel.symbol);
  std::vector<std::shared_ptr<LoadedLibrary>> libraries = {
      compileAndLoad(source, testJitOptions())};
  if (std::getenv("IDXMAP_CUDA_DEVICE"))
    libraries.push_back(compileAndLoad(emitted.source(), cudaJitOptions()));
  std::mt19937 rng(6);
  int vectorized = 0;
  for (size_t n = 0; n < cases.size(); ++n) {
    const RowCase& c = cases[n];
    const Kernel& kernel = emitted.kernels[n].kernel;
    const std::string& text = emitted.kernels[n].printed.text;
    SCOPED_TRACE(kernel.symbol + ": " + c.type + ", " + std::to_string(c.columns) + " of " +
                 std::to_string(c.width) + " columns" + (c.columnIndex ? ", column index" : ""));
    ASSERT_EQ(kernel.strategy, Strategy::kIndependent);
    const bool vectors = text.find(kernel.symbol + "_vectors(") != std::string::npos;
    EXPECT_EQ(vectors, c.vectors()) << text;
    vectorized += vectors;
    const auto op = emitted.kernels[n].op;
    Tensor table = randomTensor(
               rng, c.type,
               c.flat ? std::vector<int64_t>{c.width} : std::vector<int64_t>{c.rows, c.width}),
           rows = indexValues(c, rng);
    Tensor moved = randomTensor(rng, c.type, {c.count, c.columns});
    std::vector<const Tensor*> reads = {&table, &rows};
    Tensor expected;
    if (c.scatter) {
      reads.push_back(&moved);
      expected = gather_scatter::referenceScatter(stablehlo_import::importScatter(*op), {table},
                                                  rows, {moved})
                     .at(0);
    } else {
      expected = gather_scatter::referenceGather(stablehlo_import::importGather(*op), table, rows);
    }
    for (size_t l = 0; l < libraries.size(); ++l)
      EXPECT_TRUE(sameBits(runKernel(*libraries[l], kernel, reads).at(0), expected))
          << (l ? "on the GPU" : "emulated, aligned") << "\n"
          << text;
    EXPECT_TRUE(sameBits(runShifted(*libraries[0], kernel, reads).at(0), expected))
        << "emulated, one element off 16 bytes\n"
        << text;
  }
  EXPECT_GE(vectorized, 8);
  if (!nvccInstalled()) return;
  // The vectors kernels load and store 16 bytes at a time, on both architectures.
  for (int arch : testing::nvccArchitectures()) {
    NvccResult ptx = nvccCompile(emitted.source(), arch, "vectors");
    expectCompiledWithoutSpillsOrLocalMemory(ptx, "row kernels, sm_" + std::to_string(arch));
    int entries = 0;
    for (const auto& [name, body] : ptx.entries) {
      if (name.find("_vectors") == std::string::npos) continue;
      ++entries;
      EXPECT_NE(body.find(".v4.u32"), std::string::npos) << name << "\n" << body;
      EXPECT_NE(body.find("st.global.v4"), std::string::npos) << name << "\n" << body;
    }
    EXPECT_EQ(entries, vectorized);
  }
}

}  // namespace cuda_vectors_test
}  // namespace idxmap::codegen
