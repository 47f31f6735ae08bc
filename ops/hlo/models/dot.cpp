// dot(lhs, rhs): result dims are [batch..., lhs free..., rhs free...]; every contracting
// dimension pair is one range variable shared by both operands (spec 004: like a reduce).
// scaled-dot(lhs, rhs, lhs_scale, rhs_scale) adds block scales: a scale of the operand's
// rank whose dim i covers operand.dim_i / scale.dim_i elements, so it is read at the
// operand's index divided by the block size.
#include <algorithm>

#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

// The dims of an operand that are neither batch nor contracting, in order.
std::vector<int64_t> freeDims(int64_t rank, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      free.push_back(d);
  return free;
}

class DotModel : public OpModelBase {
 public:
  explicit DotModel(bool scaled) : scaled_(scaled) {}

  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, scaled_ ? 4 : 2);
    if (scaled_) {
      checkScale(instruction, 0);
      checkScale(instruction, 1);
      if (arrayOperand(instruction, 2).rank() == 0 && arrayOperand(instruction, 3).rank() == 0)
        hlo::failAtOpcode(instruction, "at least one of the scales must not be a scalar");
    }
    const Shape& lhs = arrayOperand(instruction, 0);
    const Shape& rhs = arrayOperand(instruction, 1);
    expectBoundedOperands(instruction, "dot");
    hlo::DotDimensions dims = dimensions(instruction);
    Shape shape = arrayShape(instruction.shape.element_type, {});  // dot may widen the type
    // A bounded dim of either operand stays dynamic in the result (XLA).
    auto append = [&](const Shape& from, int64_t d) {
      shape.appendDim(from.extent(d), hlo::isDynamicDim(from, d));
    };
    for (int64_t d : dims.lhsBatch) append(lhs, d);
    for (int64_t d : freeDims(lhs.rank(), dims.lhsBatch, dims.lhsContracting)) append(lhs, d);
    for (int64_t d : freeDims(rhs.rank(), dims.rhsBatch, dims.rhsContracting)) append(rhs, d);
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "dot");
    const Shape& lhs = instruction.operands[0]->shape;
    const Shape& rhs = instruction.operands[1]->shape;
    hlo::DotDimensions dims = dimensions(instruction);
    IndexingMap domain = domainOf(instruction.shape);
    std::vector<Expr> contracted;
    for (int64_t d : dims.lhsContracting)
      contracted.push_back(addRangeVar(domain, {0, lhs.extent(d) - 1}));
    unsigned nextDim = static_cast<unsigned>(dims.lhsBatch.size());
    auto operandMap = [&](const Shape& shape, const std::vector<int64_t>& batch,
                          const std::vector<int64_t>& contracting) {
      IndexingMap map = domain;
      map.results.assign(shape.shape.size(), Expr());
      for (size_t i = 0; i < batch.size(); ++i)
        map.results[batch[i]] = Expr::dim(static_cast<unsigned>(i));
      for (size_t i = 0; i < contracting.size(); ++i) map.results[contracting[i]] = contracted[i];
      for (int64_t d : freeDims(shape.rank(), batch, contracting))
        map.results[d] = Expr::dim(nextDim++);
      return map;
    };
    IndexingMap lhsMap = operandMap(lhs, dims.lhsBatch, dims.lhsContracting);
    IndexingMap rhsMap = operandMap(rhs, dims.rhsBatch, dims.rhsContracting);
    if (!scaled_) return {{lhsMap}, {rhsMap}};
    return {
        {lhsMap}, {rhsMap}, {scaleMap(instruction, 0, lhsMap)}, {scaleMap(instruction, 1, rhsMap)}};
  }

 private:
  bool scaled_;

  // Operand `index`'s scale (operand index + 2): same rank, each dim dividing the operand's.
  // XLA skips a scale that cannot change anything: a bf16 scale of one element (of any rank) for
  // a bf16 operand.
  static bool isNoOpScale(const Instruction& instruction, size_t index) {
    const Shape& operand = instruction.operands[index]->shape;
    const Shape& scale = instruction.operands[index + 2]->shape;
    const std::vector<int64_t> extents = scale.extents();
    return operand.element_type == "bf16" && scale.element_type == "bf16" &&
           std::all_of(extents.begin(), extents.end(), [](int64_t e) { return e == 1; });
  }

  static void checkScale(const Instruction& instruction, size_t index) {
    const Shape& operand = arrayOperand(instruction, index);
    const Shape& scale = arrayOperand(instruction, index + 2);
    if (isNoOpScale(instruction, index)) return;
    bool ok = scale.rank() == operand.rank();
    for (size_t i = 0; ok && i < scale.shape.size(); ++i)
      ok = scale.extent(i) > 0 && operand.extent(i) % scale.extent(i) == 0;
    if (!ok)
      hlo::failAtOpcode(instruction, "scale " + scale.toString() + " does not divide operand " +
                                         operand.toString() + " into equal blocks");
  }

  static IndexingMap scaleMap(const Instruction& instruction, size_t index, IndexingMap map) {
    const Shape& operand = instruction.operands[index]->shape;
    const Shape& scale = instruction.operands[index + 2]->shape;
    if (isNoOpScale(instruction, index)) {  // its one element, at every index
      map.results.assign(scale.shape.size(), Expr::constant(0));
      return map;
    }
    for (size_t i = 0; i < map.results.size(); ++i)
      map.results[i] = map.results[i].floorDiv(operand.extent(i) / scale.extent(i));
    return map;
  }

  static hlo::DotDimensions dimensions(const Instruction& instruction) {
    hlo::DotDimensions dims = hlo::readDotDimensions(instruction);
    const Shape& lhs = instruction.operands[0]->shape;
    const Shape& rhs = instruction.operands[1]->shape;
    // Each side's batch and contracting dims together must be distinct dims of that side.
    auto check = [&](const char* batchName, const std::vector<int64_t>& batch,
                     const char* contractingName, const std::vector<int64_t>& contracting,
                     const Shape& shape) {
      std::vector<int64_t> all = batch;
      all.insert(all.end(), contracting.begin(), contracting.end());
      const char* name = contracting.empty() ? batchName : contractingName;
      const hlo::Attribute* attribute = instruction.attribute(name);
      if (!attribute) attribute = instruction.attribute(batchName);
      if (attribute) expectDistinctDims(*attribute, name, all, shape.rank());
    };
    check("lhs_batch_dims", dims.lhsBatch, "lhs_contracting_dims", dims.lhsContracting, lhs);
    check("rhs_batch_dims", dims.rhsBatch, "rhs_contracting_dims", dims.rhsContracting, rhs);
    auto pairUp = [&](const char* name, const std::vector<int64_t>& l,
                      const std::vector<int64_t>& r) {
      if (l.size() != r.size())
        hlo::failAtOpcode(instruction, std::string("lhs and rhs ") + name + " differ in count (" +
                                           std::to_string(l.size()) + " vs " +
                                           std::to_string(r.size()) + ")");
      for (size_t i = 0; i < l.size(); ++i)
        if (lhs.extent(l[i]) != rhs.extent(r[i]))
          hlo::failAtOpcode(instruction, std::string(name) + " pair " + std::to_string(i) +
                                             " has sizes " + std::to_string(lhs.extent(l[i])) +
                                             " and " + std::to_string(rhs.extent(r[i])));
    };
    pairUp("batch dims", dims.lhsBatch, dims.rhsBatch);
    pairUp("contracting dims", dims.lhsContracting, dims.rhsContracting);
    if (instruction.opcode == "scaled-dot" && dims.lhsContracting.size() != 1)
      hlo::failAtOpcode(instruction, "a scaled dot contracts exactly one dimension pair, not " +
                                         std::to_string(dims.lhsContracting.size()));
    return dims;
  }
};

}  // namespace

const OpModel& dotModel() {
  static const DotModel model(/*scaled=*/false);
  return model;
}

const OpModel& scaledDotModel() {
  static const DotModel model(/*scaled=*/true);
  return model;
}

}  // namespace idxmap::ops
