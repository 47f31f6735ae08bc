#include "codegen/cpp/ir_printer.h"

#include "codegen/cpp/cpp_kernel.h"

#include <cctype>
#include <sstream>

namespace idxmap::codegen::ir {
namespace {

std::string pad(int n) { return std::string(static_cast<size_t>(n), ' '); }

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether C text, from byte `from` on, names `name` (as a whole identifier).
bool names(const std::string& text, size_t from, const std::string& name) {
  for (size_t at = text.find(name, from); at != std::string::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !identifierChar(text[at - 1])) &&
        (end == text.size() || !identifierChar(text[end])))
      return true;
  }
  return false;
}

struct Printer {
  const StatementStyle& style;
  std::string out;

  std::string threadedIf(int64_t points = 0) const {
    return "if (" + std::to_string(points ? points : style.points) + " >= IDXMAP_PARALLEL_GRAIN)";
  }

  // A let that nothing after it in its block names is printed [[maybe_unused]] (a point's dim
  // its statement does not read, a runtime value no offset needs): the search is over the text
  // C++ reads, so the mark neither hides a read nor misses an unread let.
  void print(const std::vector<Node>& nodes, int indent) {
    std::vector<std::string> pieces;
    std::string before = std::move(out);
    for (const Node& node : nodes) {
      out.clear();
      print(node, indent);
      pieces.push_back(std::move(out));
    }
    out = std::move(before);
    std::string all;
    std::vector<size_t> ends;  // where each piece ends in `all`
    for (const std::string& piece : pieces) ends.push_back((all += piece).size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].kind == Node::Kind::kLet && !names(all, ends[i], nodes[i].name))
        pieces[i].insert(static_cast<size_t>(indent), "[[maybe_unused]] ");
      out += pieces[i];
    }
  }

  void print(const Node& node, int indent) {
    const std::string at = pad(indent);
    switch (node.kind) {
      case Node::Kind::kBlock:
        if (!node.scoped) return print(node.body, indent);
        out += at + "{\n";
        print(node.body, indent + 2);
        out += at + "}\n";
        return;
      case Node::Kind::kComment: {
        std::istringstream lines(node.name);
        for (std::string line; std::getline(lines, line);) out += at + "// " + line + "\n";
        return;
      }
      case Node::Kind::kFor:
        return printFor(node, indent);
      case Node::Kind::kIf: {
        out += at + "if (" + printCExpr(node.condition) + ") {\n";
        print(node.body, indent + 2);
        // An else whose only statement is an if prints as `else if`.
        const Node* next = &node;
        while (next->orElse.size() == 1 && next->orElse[0].kind == Node::Kind::kIf) {
          next = &next->orElse[0];
          out += at + "} else if (" + printCExpr(next->condition) + ") {\n";
          print(next->body, indent + 2);
        }
        if (!next->orElse.empty()) {
          out += at + "} else {\n";
          print(next->orElse, indent + 2);
        }
        out += at + "}\n";
        return;
      }
      case Node::Kind::kLet:
        out += at + "const " + node.type + " " + node.name + " = " + printValue(node.value) + ";\n";
        return;
      case Node::Kind::kVar:
        out += at + node.type + " " + node.name +
               (node.value ? " = " + printValue(node.value) : std::string("{}")) + ";\n";
        return;
      case Node::Kind::kAssign:
        out += at + node.name + " = " + printValue(node.value) + ";\n";
        return;
      case Node::Kind::kStore: {
        const std::string element = node.name + "[" + printCExpr(node.offset) + "]";
        out += at +
               (node.atomic.empty()
                    ? element + " = " + printValue(node.value)
                    : node.atomic + "(&" + element + ", " + printValue(node.value) + ")") +
               ";\n";
        return;
      }
      case Node::Kind::kVectorCopy:
        out += at + "idxmap_copy16(&" + node.name + "[" + printCExpr(node.offset) + "], &" +
               printValue(node.value) + ");\n";
        return;
      case Node::Kind::kThreads:
        out += "#pragma omp parallel " + threadedIf() + "\n" + at + "{\n";
        print(node.body, indent + 2);
        out += at + "}\n";
        return;
      case Node::Kind::kThreadShare: {
        const std::string& first = node.name;
        const std::string& last = node.from;
        out += at + "int64_t " + first + ", " + last + ";\n" + at + "idxmap_thread_range(" +
               std::to_string(node.count) + ", &" + first + ", &" + last + ");\n";
        if (node.lo != 0)
          out += at + first + " += " + std::to_string(node.lo) + ";\n" + at + last +
                 " += " + std::to_string(node.lo) + ";\n";
        return;
      }
      case Node::Kind::kRunStarts:
        return printRunStarts(node, indent);
      case Node::Kind::kToRunStart:
        out += at + "while (!idxmap_run_starts_at(" + node.name + ")) ++" + node.name + ";\n";
        return;
      case Node::Kind::kPrefetch:
        out += at + "const char* idxmap_row = " + printValue(node.value) + ";\n" + at +
               "for (int idxmap_line = 0; idxmap_line < " + std::to_string(node.count) +
               "; idxmap_line += 64) __builtin_prefetch(idxmap_row + idxmap_line);\n";
        return;
      case Node::Kind::kCopy: {
        const std::string bytes = node.packed ? ".bytes" : "", into = node.name + bytes,
                          from = node.from + bytes;
        out += at + "if (" + into + " != " + from + ") idxmap_copy(" + into + ", " + from +
               ", sizeof(" + node.type + ") * " + std::to_string(node.count) + ");\n";
        return;
      }
      case Node::Kind::kBadIndexFlag:
        out += at + "int idxmap_bad_index = 0;  // set by any thread that meets one\n";
        return;
      case Node::Kind::kBadIndex:
        out += at + style.badIndex + "\n";
        return;
      case Node::Kind::kReturnIfBad:
        out += at + "if (idxmap_bad_index) return 2;\n";
        return;
      case Node::Kind::kTileRuns:
        return printTileRuns(node, indent);
      case Node::Kind::kSortedRun:
        return printSortedRun(node, indent);
      case Node::Kind::kConstants:
        out += at + "static const " + node.type + " " + node.name + "[] = {";
        for (size_t i = 0; i < node.loads.size(); ++i)
          out += (i ? ", " : "") + printValue(node.loads[i]);
        out += "};\n";
        return;
      case Node::Kind::kBuffer:
        out += at + "std::vector<" + node.type + "> " + node.name + "(" +
               std::to_string(node.count) + ");\n";
        return;
      case Node::Kind::kLaunch: {
        std::string arguments;
        for (const Value& argument : node.loads)
          arguments += (arguments.empty() ? "" : ", ") + argument->name;
        out += at + "IDXMAP_LAUNCH(" + node.name + ", idxmap_blocks(" + std::to_string(node.count) +
               "), " + std::to_string(kCudaThreadsPerBlock) + ", stream, " + arguments + ");\n";
        return;
      }
      case Node::Kind::kRegion:
      case Node::Kind::kIfAligned:
      case Node::Kind::kSortPairs:
        throw Error("internal: a CUDA launcher's statement in a kernel's body");
    }
  }

  void printFor(const Node& node, int indent) {
    const LoopMapping& mapping = node.mapping;
    if (mapping.kind == LoopMapping::Kind::kThreads)
      out += "#pragma omp parallel for" + std::string(mapping.simd ? " simd" : "") +
             (mapping.collapse > 1 ? " collapse(" + std::to_string(mapping.collapse) + ")" : "") +
             " schedule(static) " + threadedIf(mapping.points) + "\n";
    else if (mapping.kind == LoopMapping::Kind::kSimd)
      out += "#pragma omp simd\n";
    const std::string& i = node.name;
    const std::string W = node.type.empty() ? typeName(style.width) : node.type;
    if (mapping.kind == LoopMapping::Kind::kGrid) {
      // From the thread's number, by the grid's threads (C's arithmetic in W).
      const std::string c = "static_cast<" + W + ">(";
      const bool zero = node.lower->op == COp::kLiteral && node.lower->value == 0;
      out += pad(indent) + "for (" + W + " " + i + " = " +
             (zero ? "" : printCExpr(node.lower) + " + ") + c + "blockIdx.x) * " + c +
             "blockDim.x) + " + c + "threadIdx.x);\n" + pad(indent + 5) +
             printCExpr(node.condition) + "; " + i + " += " + c + "gridDim.x) * " + c +
             "blockDim.x)) {\n";
    } else {
      out += pad(indent) + "for (" + W + " " + i + " = " + printCExpr(node.lower) + "; " +
             printCExpr(node.condition) + "; " +
             (node.step == 1 ? "++" + i : i + " += " + std::to_string(node.step)) + ") {\n";
    }
    print(node.body, indent + 2);
    out += pad(indent) + "}\n";
  }

  void printTileRuns(const Node& node, int indent) {
    const std::string at = pad(indent), W = typeName(style.width);
    const std::string hi = std::to_string(node.hi), rows = std::to_string(node.count);
    const std::string eachRow = at + "IDXMAP_UNROLL\n" + at + "for (" + W +
                                " idxmap_row = 0; idxmap_row < " + rows + "; ++idxmap_row)\n";
    out += at + "const " + W + " idxmap_first = d0;\n" + at + "const " + W +
           " idxmap_rows = " + hi + " - idxmap_first < " + rows + " ? " + hi +
           " - idxmap_first + 1 : " + rows + ";\n";
    if (node.body.empty()) throw Error("internal: a tile of runs with no statement");
    const std::vector<Node> sources(node.body.begin(), node.body.end() - 1);
    if (!sources.empty()) {
      for (const Node& source : sources)
        out += at + source.type + " " + source.name + "[" + rows + "];\n";
      out += eachRow + at + "  if (idxmap_row < idxmap_rows) {\n" + at + "    const " + W +
             " d0 = idxmap_first + idxmap_row;\n";
      for (const Node& source : sources)
        out += at + "    " + source.name + "[idxmap_row] = " + printValue(source.value) + ";\n";
      out += at + "  }\n";
    }
    out += at + W + " idxmap_skip = 0;  // rows of a run the tile before applies\n" + at +
           "while (idxmap_skip < idxmap_rows && !idxmap_run_starts_at(idxmap_first + "
           "idxmap_skip)) ++idxmap_skip;\n";
    out += eachRow + at + "  if (idxmap_row >= idxmap_skip && idxmap_row < idxmap_rows)\n";
    print(node.body.back(), indent + 4);
    // The last run goes on past the tile, row by row (`row <= hi - first`: no overflow).
    out += at + "if (idxmap_skip < idxmap_rows)\n" + at + "  for (" + W +
           " idxmap_row = idxmap_rows; idxmap_row <= " + hi +
           " - idxmap_first && !idxmap_run_starts_at(idxmap_first + idxmap_row); ++idxmap_row)\n";
    print(node.orElse, indent + 4);
  }

  void printSortedRun(const Node& node, int indent) {
    const std::string at = pad(indent), K = node.type, L = node.from;
    const std::string skipped = "static_cast<" + K + ">(" + std::to_string(node.hi) + "ull)";
    out += at + "const " + K + " idxmap_key = idxmap_keys[idxmap_point];\n" + at +
           "if (idxmap_key == " + skipped +
           " || (idxmap_point > 0 && idxmap_keys[idxmap_point - 1] == idxmap_key)) continue;\n";
    out += at + "for (" + L + " idxmap_at = idxmap_point; idxmap_at < " +
           std::to_string(node.count) +
           " && idxmap_keys[idxmap_at] == idxmap_key; ++idxmap_at) {\n" + at + "  const " + L +
           " idxmap_point = idxmap_points[idxmap_at];\n";
    print(node.body, indent + 2);
    out += at + "}\n";
  }

  // A lambda: whether index vector d0 differs from d0 - 1's (each load read at both).
  void printRunStarts(const Node& node, int indent) {
    const std::string W = typeName(style.width);
    out += pad(indent) + "auto idxmap_run_starts_at = [&](" + W + " d0) {\n" + pad(indent + 2) +
           "return d0 <= " + std::to_string(node.lo) + " || d0 > " + std::to_string(node.hi);
    for (const Value& load : node.loads) {
      const std::string read = "[&](" + W + " d0) { return " + printValue(load) + "; }";
      out += " ||\n" + pad(indent + 9) + read + "(d0) != " + read + "(d0 - 1)";
    }
    out += ";\n" + pad(indent) + "};\n";
  }
};

}  // namespace

std::string printValue(const Value& value) {
  switch (value->kind) {
    case ValueNode::Kind::kIndex:
      return printCExpr(value->index);
    case ValueNode::Kind::kVariable:
    case ValueNode::Kind::kLiteral:
    case ValueNode::Kind::kElement: {
      std::string text = value->name;  // `$k` stands for operand k
      for (size_t k = value->operands.size(); k-- > 0;) {
        const std::string mark = "$" + std::to_string(k), operand = printValue(value->operands[k]);
        for (size_t at; (at = text.find(mark)) != std::string::npos;)
          text.replace(at, mark.size(), operand);
      }
      return text;
    }
    case ValueNode::Kind::kLoad:
      return value->name + "[" + printCExpr(value->index) + "]";
    case ValueNode::Kind::kAddress:
      return "reinterpret_cast<const char*>(&" + value->name + "[" + printCExpr(value->index) +
             "])";
    case ValueNode::Kind::kCast:
      return "static_cast<" + value->name + ">(" + printValue(value->operands.at(0)) + ")";
    case ValueNode::Kind::kCall: {
      std::string out = value->name + "(";
      for (size_t i = 0; i < value->operands.size(); ++i)
        out += (i ? ", " : "") + printValue(value->operands[i]);
      return out + ")";
    }
  }
  return {};
}

std::string printStatements(const std::vector<Node>& nodes, int indent,
                            const StatementStyle& style) {
  Printer printer{style, {}};
  printer.print(nodes, indent);
  return std::move(printer.out);
}

std::string printCppFunction(const Function& function) {
  StatementStyle style{
      function.width, function.points,
      "std::atomic_ref<int>(idxmap_bad_index).store(1, std::memory_order_relaxed);"};
  const std::set<std::string> used = buffersUsed(function.body);
  return function.header + entrySignature(function.symbol, function.buffers, &used) + " {\n" +
         sizeChecks(function.buffers) + printStatements(function.body, 2, style) +
         "  return 0;\n}\n" + packedEntry(function.symbol, function.buffers);
}

}  // namespace idxmap::codegen::ir
