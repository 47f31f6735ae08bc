#include "codegen/cpp/kernel_text.h"

#include "codegen/kernel/loop_nest.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

std::string proofLabel(const ProofResult& proof) {
  std::string label = "proven (" + proof.method + ")";
  for (size_t i = 0; i < proof.assumptions.size(); ++i)
    label += (i ? ", " : " assuming ") + proof.assumptions[i];
  return label;
}

}  // namespace

std::string pad(int n) { return std::string(static_cast<size_t>(n), ' '); }

int64_t boxPoints(const IndexingMap& map) {
  int64_t points = 1;
  for (const Variable& v : map.dims) {
    int64_t size = v.range.isEmpty() ? 0 : v.range.hi - v.range.lo + 1;
    if (size != 0 && points > INT64_MAX / size) return INT64_MAX;
    points *= size;
  }
  return points;
}

KernelText::KernelText(const Kernel& kernel)
    : kernel_(kernel),
      width_(kernel.int32 ? CWidth::k32 : CWidth::k64),
      lowering_(kernel.map, width_),
      guardLowering_(kernel.map, width_, "v", CWidth::k64),
      validator_(kernel.map, declared()) {}

std::vector<DeclaredVariable> KernelText::declared() const {
  std::vector<DeclaredVariable> out = IndexLowering(kernel_.map, width_).declared();
  for (size_t k = 0; k < kernel_.map.runtimeVars.size(); ++k)
    out.push_back({"v" + std::to_string(k), CWidth::k64});
  return out;
}

void KernelText::require(const ProofResult& result, const std::string& what) {
  if (result.isProven()) return;
  std::string detail = result.counterexample ? result.counterexample->explanation : result.reason;
  throw ValidationError(kernel_.op + " at " + kernel_.location + ": " + what +
                            (result.isRefuted() ? " is refuted: " : " is not proven: ") + detail,
                        result);
}

std::string KernelText::storage(const KernelBuffer& b) const {
  std::optional<std::string> type = storageType(b.elementType);
  if (!type)
    throw Error(kernel_.op + " at " + kernel_.location + ": element type " + b.elementType +
                " of " + b.name + " has no kernel storage type");
  return *type;
}

std::vector<EntryBuffer> KernelText::entryBuffers() const {
  std::vector<EntryBuffer> out;
  for (const KernelBuffer& b : kernel_.buffers)
    out.push_back({b.name, storage(b), b.written, b.elements()});
  return out;
}

std::string KernelText::offset(const std::string& role, const Access& access, Where where) {
  const auto key = std::make_tuple(access.buffer, access.offset.node(), where);
  if (auto found = offsets_.find(key); found != offsets_.end()) return found->second;
  std::string text = printCExpr(lowering_.lower(access.offset));
  require(validator_.checkExpression(role + " " + buffer(access.buffer).name, text, access.offset,
                                     where, buffer(access.buffer).elements()),
          "offset into " + buffer(access.buffer).name);
  offsets_.emplace(key, text);
  return text;
}

std::string KernelText::loadedValue(size_t k) {
  std::string value =
      "static_cast<int64_t>(" + buffer(kernel_.loads[k].buffer).name + "[" +
      offset("load of rt" + std::to_string(k) + " from", kernel_.loads[k], Where::kBox) + "])";
  if (k < kernel_.wrapNegative.size() && kernel_.wrapNegative[k] != 0)
    value = "idxmap_wrap_negative(" + value + ", " + std::to_string(kernel_.wrapNegative[k]) + ")";
  return value;
}

std::string KernelText::runStartTest(int64_t lo, int64_t hi, int indent) {
  const std::string W = typeName(width_);
  std::string out = pad(indent) + "auto idxmap_run_starts_at = [&](" + W + " d0) {\n" +
                    pad(indent + 2) + "return d0 <= " + std::to_string(lo) + " || d0 > " +
                    std::to_string(hi);
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    // The load's offset is validated (over the box) as printed; here it is read at d0 and
    // d0 - 1, both inside d0's range.
    std::string at =
        offset("load of rt" + std::to_string(k) + " from", kernel_.loads[k], Where::kBox);
    const std::string& name = buffer(kernel_.loads[k].buffer).name;
    out += " ||\n" + pad(indent + 9) + "[&](" + W + " d0) { return " + name + "[" + at +
           "]; }(d0) != [&](" + W + " d0) { return " + name + "[" + at + "]; }(d0 - 1)";
  }
  return out + ";\n" + pad(indent) + "};\n";
}

std::string KernelText::guardText() {
  std::string text;
  const IndexingMap& map = kernel_.map;
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    std::string v = "v" + std::to_string(k);
    text += std::string(k ? " && " : "") + v +
            " >= " + printCExpr(literal(map.runtimeVars[k].range.lo)) + " && " + v +
            " <= " + printCExpr(literal(map.runtimeVars[k].range.hi));
  }
  for (const Constraint& c : map.constraints) {
    if (usesOnlyDims(c.expr)) continue;  // the points enumerated satisfy it
    std::string e = printCExpr(guardLowering_.lower(c.expr));
    text += " && " + e + " >= " + printCExpr(literal(c.range.lo)) + " && " + e +
            " <= " + printCExpr(literal(c.range.hi));
  }
  require(validator_.checkGuard(text), "the skip test");
  return text;
}

KernelText::OpenStatement KernelText::openStatement(const std::vector<CExpr>& point, int indent,
                                                    const std::string& badIndex) {
  const std::string W = typeName(width_);
  OpenStatement out;
  int at = indent + 2;
  out.text = pad(indent) + "{\n";
  for (size_t i = 0; i < point.size(); ++i) {
    std::string name = "d" + std::to_string(i);
    if (point[i]->op != COp::kVariable || point[i]->name != name)
      out.text += pad(at) + "const " + W + " " + name + " = " + printCExpr(point[i]) + ";\n";
  }
  for (size_t k = 0; k < kernel_.loads.size(); ++k)
    out.text += pad(at) + "const int64_t v" + std::to_string(k) + " = " + loadedValue(k) + ";\n";
  if (kernel_.guard || kernel_.check) {
    out.text += pad(at) + "if (" + guardText() + ") {\n";
    out.closing = pad(at) + "}\n";
    if (kernel_.check)
      out.closing = pad(at) + "} else {\n" + pad(at + 2) + badIndex + "\n" + out.closing;
    at += 2;
  }
  const IndexingMap& map = kernel_.map;
  // Why an unclamped loaded value is in its range where rt<k> takes it.
  const std::string inRange = kernel_.guard || kernel_.check
                                  ? "the skip test checks the range first"
                                  : "the proof above that every loaded value lies there";
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    std::string v = "v" + std::to_string(k);
    std::string value = kernel_.clamp
                            ? "idxmap_clamp<int64_t>(" + v + ", " +
                                  printCExpr(literal(map.runtimeVars[k].range.lo)) + ", " +
                                  printCExpr(literal(map.runtimeVars[k].range.hi)) + ")"
                            : v;
    const std::string rt = "rt" + std::to_string(k), text = "static_cast<" + W + ">(" + value + ")";
    require(validator_.checkRuntimeValue(k, text, kernel_.clamp, inRange), rt + "'s value");
    out.text += pad(at) + "const " + W + " " + rt + " = " + text + ";\n";
  }
  out.indent = at;
  return out;
}

std::string KernelText::header(const std::vector<std::string>& extra) const {
  std::string out = "// idxmap kernel: " + kernel_.op + " at " + kernel_.location + "\n";
  for (const auto& [name, map] : kernel_.maps) out += "// " + name + ": " + oneLine(map) + "\n";
  for (const ReliedFact& fact : kernel_.facts)
    out += "// " + proofLabel(fact.proof) + ": " + fact.statement + "\n";
  for (const LoweringFact& fact : lowering_.facts())
    out += "// proven (" + fact.method + "): " + fact.statement + "\n";
  for (const LoweringFact& fact : guardLowering_.facts())
    out += "// proven (" + fact.method + "): " + fact.statement + "\n";
  for (const std::string& note : kernel_.notes) out += "// " + note + "\n";
  for (const std::string& line : extra) out += "// " + line + "\n";
  for (const std::string& certificate : validator_.certificates())
    out += certificateComment(certificate);
  return out;
}

}  // namespace idxmap::codegen
