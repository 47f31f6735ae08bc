#include "codegen/cpp/kernel_text.h"

#include "codegen/kernel/loop_nest.h"
#include "codegen/prelude/element_code.h"
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
    if (b.packedBits)
      out.push_back({b.name, "uint8_t", b.written, b.elements(), accessor(b), b.packedBits});
    else
      out.push_back({b.name, storage(b), b.written, b.elements()});
  return out;
}

std::string KernelText::accessor(const KernelBuffer& b) const {
  if (!b.packedBits) return "";
  const std::optional<ElementCode> type = elementCode(hloTypeName(b.elementType));
  if (!type || !type->narrow() || type->bits != b.packedBits)
    throw Error(kernel_.op + " at " + kernel_.location + ": " + b.name + " is packed at " +
                std::to_string(b.packedBits) + " bits, not its elements' width");
  return packedBufferType(*type, b.written);
}

std::vector<ir::Node> KernelText::coupledStores(const std::vector<ir::Value>& sources) {
  std::vector<ir::Value> arguments;
  for (const Transfer& transfer : kernel_.transfers)
    arguments.push_back(ir::loadValue(buffer(transfer.to.buffer).name,
                                      offsetExpr("store to", transfer.to, Where::kGuarded)));
  for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
    const Access& from = kernel_.transfers[t].from;
    arguments.push_back(sources.empty()
                            ? ir::loadValue(buffer(from.buffer).name,
                                            offsetExpr("load from", from, Where::kGuarded))
                            : sources.at(t));
  }
  std::vector<ir::Node> lets, stores;
  for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const KernelBuffer& target = buffer(transfer.to.buffer);
    const std::string held = "idxmap_new" + std::to_string(t);
    lets.push_back(ir::let(storage(target), held, ir::callValue(transfer.combine, arguments)));
    stores.push_back(ir::store(target.name, offsetExpr("store to", transfer.to, Where::kGuarded),
                               ir::variableValue(held)));
  }
  lets.insert(lets.end(), stores.begin(), stores.end());
  return lets;
}

ir::Node KernelText::initialCopy(size_t into, size_t from) const {
  const KernelBuffer& target = buffer(into);
  if (!target.packedBits)
    return ir::copy(target.name, buffer(from).name, storage(target), target.elements());
  return ir::copy(target.name, buffer(from).name, "uint8_t",
                  packedBytes(target.elements(), target.packedBits), true);
}

CExpr KernelText::offsetExpr(const std::string& role, const Access& access, Where where) {
  const auto key = std::make_tuple(access.buffer, access.offset.node(), where);
  if (auto found = offsets_.find(key); found != offsets_.end()) return found->second;
  CExpr lowered = lowering_.lower(access.offset);
  proveOffset(role, lowered, access, where);
  offsets_.emplace(key, lowered);
  return lowered;
}

void KernelText::proveOffset(const std::string& role, const CExpr& offset, const Access& access,
                             Where where) {
  const std::string text = printCExpr(offset);
  if (!provenOffsets_.emplace(text, access.offset.node(), access.buffer, where).second) return;
  const KernelBuffer& into = buffer(access.buffer);
  require(validator_.checkExpression(role + " " + into.name, text, access.offset, where,
                                     into.elements()),
          "offset into " + into.name);
}

void KernelText::requireShape(bool holds, const std::string& what) {
  if (!holds)
    require(ProofResult::unknown("the kernel's IR has a node validation does not know there"),
            what);
}

ir::Value KernelText::indexLoad(size_t k) {
  const Access& load = kernel_.loads[k];
  return ir::loadValue(buffer(load.buffer).name,
                       offsetExpr("load of rt" + std::to_string(k) + " from", load, Where::kBox));
}

ir::Value KernelText::loadedValue(size_t k) {
  ir::Value value = ir::castValue("int64_t", indexLoad(k));
  if (k < kernel_.wrapNegative.size() && kernel_.wrapNegative[k] != 0)
    value = ir::callValue("idxmap_wrap_negative",
                          {value, ir::indexValue(literal(kernel_.wrapNegative[k]))});
  return value;
}

ir::Node KernelText::runStarts(int64_t lo, int64_t hi) {
  // Each load's offset is validated (over the box) as printed; the test reads it at d0 and
  // d0 - 1, both inside d0's range.
  std::vector<ir::Value> loads;
  for (size_t k = 0; k < kernel_.loads.size(); ++k) loads.push_back(indexLoad(k));
  return ir::runStarts(lo, hi, std::move(loads));
}

CExpr KernelText::skipTest() {
  CExpr test;
  auto within = [&](const CExpr& e, int64_t lo, int64_t hi) {
    for (CExpr bound :
         {binary(COp::kGreaterEqual, e, literal(lo)), binary(COp::kLessEqual, e, literal(hi))})
      test = test ? binary(COp::kAnd, test, bound) : bound;
  };
  const IndexingMap& map = kernel_.map;
  for (size_t k = 0; k < map.runtimeVars.size(); ++k)
    within(variable("v" + std::to_string(k), CWidth::k64), map.runtimeVars[k].range.lo,
           map.runtimeVars[k].range.hi);
  for (const Constraint& c : map.constraints)
    if (!usesOnlyDims(c.expr))  // the points enumerated satisfy the others
      within(guardLowering_.lower(c.expr), c.range.lo, c.range.hi);
  return test;
}

ir::Node KernelText::statementAt(const std::vector<CExpr>& point,
                                 const std::function<std::vector<ir::Node>()>& inner) {
  const std::string W = typeName(width_);
  std::vector<ir::Node> body;
  for (size_t i = 0; i < point.size(); ++i) {
    std::string name = "d" + std::to_string(i);
    if (point[i]->op != COp::kVariable || point[i]->name != name)
      body.push_back(ir::let(W, name, ir::indexValue(point[i])));
  }
  for (size_t k = 0; k < kernel_.loads.size(); ++k)
    body.push_back(ir::let("int64_t", "v" + std::to_string(k), loadedValue(k)));
  const CExpr test = kernel_.guard || kernel_.check ? skipTest() : nullptr;
  const IndexingMap& map = kernel_.map;
  std::vector<ir::Node> values;
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    ir::Value v = ir::variableValue("v" + std::to_string(k));
    if (kernel_.clamp)
      v = ir::callValue("idxmap_clamp<int64_t>",
                        {v, ir::indexValue(literal(map.runtimeVars[k].range.lo)),
                         ir::indexValue(literal(map.runtimeVars[k].range.hi))});
    values.push_back(ir::let(W, "rt" + std::to_string(k), ir::castValue(W, v)));
  }
  for (ir::Node& node : inner()) values.push_back(std::move(node));
  if (test) {
    body.push_back(ir::ifThen(
        test, std::move(values),
        kernel_.check ? std::vector<ir::Node>{ir::badIndex()} : std::vector<ir::Node>{}));
  } else {
    body.insert(body.end(), std::make_move_iterator(values.begin()),
                std::make_move_iterator(values.end()));
  }
  return ir::block(std::move(body), true);
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
