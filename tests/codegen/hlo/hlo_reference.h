// An op-by-op HLO evaluator written for the tests from XLA's operation semantics, with no
// indexing map anywhere: each instruction's value is computed from its operands' values by
// walking indices the way the operation semantics describe them (broadcast's dimensions,
// transpose's permutation, pad's edges and interior, a reduce's row-major accumulation, ...).
// Element arithmetic: hlo_reference_elements.h.
#pragma once

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/eval/reference_evaluator.h"
#include "ops/eval/scatter_with_region.h"
#include "ops/eval/tensor.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/models/gather_scatter.h"
#include "ops/hlo/module.h"
#include "tests/codegen/hlo/hlo_reference_convolution.h"
#include "tests/codegen/hlo/hlo_reference_dot.h"
#include "tests/codegen/hlo/hlo_reference_elements.h"
#include "tests/codegen/hlo/hlo_reference_reduce.h"

namespace idxmap::codegen::testing {

using gather_scatter::Tensor;

// A shape's dims from major to minor under an XLA layout (minor-to-major; empty: row-major).
inline std::vector<int64_t> physicalShape(const std::vector<int64_t>& shape,
                                          const std::vector<int64_t>& layout) {
  if (layout.empty()) return shape;
  std::vector<int64_t> out;
  for (auto d = layout.rbegin(); d != layout.rend(); ++d)
    out.push_back(shape[static_cast<size_t>(*d)]);
  return out;
}

// `toPhysical`: a logical tensor's elements in the layout's memory order (as a tensor of the
// physical shape); else the inverse, back to `logicalShape`.
inline Tensor inLayout(const Tensor& t, const std::vector<int64_t>& layout, bool toPhysical,
                       const std::vector<int64_t>& logicalShape = {}) {
  if (layout.empty()) return t;
  const std::vector<int64_t>& logical = toPhysical ? t.shape : logicalShape;
  std::vector<int64_t> physical = physicalShape(logical, layout);
  Tensor out = gather_scatter::zeros(t.element_type, toPhysical ? physical : logical);
  if (gather_scatter::isEmptyShape(logical)) return out;
  std::vector<int64_t> index(logical.size(), 0);
  do {
    std::vector<int64_t> at;
    for (auto d = layout.rbegin(); d != layout.rend(); ++d)
      at.push_back(index[static_cast<size_t>(*d)]);
    int64_t l = linearPosition(logical, index), p = linearPosition(physical, at);
    gather_scatter::copyElement(t, toPhysical ? l : p, out, toPhysical ? p : l);
  } while (nextIndex(logical, index));
  return out;
}

class HloReference {
 public:
  // The results of `instruction` (a fusion, or a single op) on its operands' values.
  static std::vector<Tensor> run(const hlo::Instruction& instruction,
                                 const std::vector<Tensor>& operands) {
    HloReference reference;
    if (instruction.opcode == "fusion")
      return reference.computation(*instruction.calledComputations.at(0), operands);
    return reference.results(instruction, operands);
  }

 private:
  // Each instruction's values: one, or a variadic op's several (get-tuple-element picks one);
  // a tuple root's values are its operands', flattened.
  std::vector<Tensor> computation(const hlo::Computation& c, const std::vector<Tensor>& params) {
    std::map<const hlo::Instruction*, std::vector<Tensor>> values;
    for (const auto& instruction : c.instructions) {
      const std::string& opcode = instruction->opcode;
      if (opcode == "parameter") {
        values[instruction.get()] = {params.at(static_cast<size_t>(instruction->parameterNumber))};
      } else if (opcode == "get-tuple-element") {
        values[instruction.get()] = {
            values.at(instruction->operands.at(0))
                .at(static_cast<size_t>(readIntOr(*instruction, "index", 0)))};
      } else if (opcode != "tuple") {
        std::vector<Tensor> operands;
        for (const hlo::Instruction* o : instruction->operands)
          operands.push_back(values.at(o).at(0));
        values[instruction.get()] = results(*instruction, operands);
      }
    }
    if (c.root->opcode != "tuple") return values.at(c.root);
    std::vector<Tensor> out;
    for (const hlo::Instruction* o : c.root->operands)
      for (const Tensor& t : values.at(o)) out.push_back(t);
    return out;
  }

  std::vector<Tensor> results(const hlo::Instruction& ins, const std::vector<Tensor>& in) {
    if (ins.opcode == "scatter") {  // the spec's formulas, the update computation as written
      const auto inputs = static_cast<std::ptrdiff_t>(in.size() / 2);
      return gather_scatter::referenceScatterWithRegion(
          ops::hloScatterOp(ins), {in.begin(), in.begin() + inputs}, in.at(in.size() / 2),
          {in.begin() + inputs + 1, in.end()},
          [&](const std::vector<Tensor>& current, const std::vector<Tensor>& value) {
            std::vector<Tensor> arguments = current;
            arguments.insert(arguments.end(), value.begin(), value.end());
            return computation(*ins.calledComputations.at(0), arguments);
          });
    }
    if (!ins.shape.isTuple) return {op(ins, in)};
    if (ins.opcode == "fusion") return computation(*ins.calledComputations.at(0), in);
    if (ins.opcode == "reduce" || ins.opcode == "reduce-window")
      return referenceVariadicReduce(ins, in, [&](const std::vector<Tensor>& arguments) {
        return computation(*ins.calledComputations.at(0), arguments);
      });
    throw std::runtime_error("reference: no tuple-shaped " + ins.opcode);
  }

  // `acc` becomes reducer `c` of (acc, source's element at `position`). A reducer made of
  // parameters, scalar constants and elementwise ops (every one the generators and XLA's
  // modules use) is evaluated on scalars directly: a reduce calls it once per element read,
  // and building tensors and a map for each call made the reference the slowest part of the
  // kernel tests. Any other reducer is evaluated by `computation`, as written.
  void reduceInto(const hlo::Computation& c, Tensor& acc, const Tensor& source, int64_t position) {
    auto [plan, inserted] = reducers_.try_emplace(&c);
    if (inserted) plan->second = planReducer(c);
    const std::optional<ReducerPlan>& steps = plan->second;
    if (!steps) {
      acc = computation(c, {acc, gather_scatter::scalarAt(source, position)}).at(0);
      return;
    }
    std::vector<Scalar> values(steps->size());
    for (size_t k = 0; k < steps->size(); ++k) {
      const ReducerStep& step = (*steps)[k];
      if (step.parameter >= 0) {
        values[k] = step.parameter == 0 ? at(acc, 0) : at(source, position);
      } else if (step.constant) {
        values[k] = *step.constant;
      } else {
        std::vector<Scalar> operands;
        for (size_t o : step.operands) operands.push_back(values[o]);
        values[k] = elementwise(step.instruction->opcode, step.direction, step.operandTypes,
                                step.type, operands);
      }
    }
    put(acc, 0, values.back());
  }

  struct ReducerStep {
    const hlo::Instruction* instruction = nullptr;
    int parameter = -1;  // parameter(0) is the accumulator, parameter(1) the element
    std::optional<Scalar> constant;
    std::vector<size_t> operands;  // positions of earlier steps
    std::vector<std::string> operandTypes;
    std::string type, direction;
  };
  using ReducerPlan = std::vector<ReducerStep>;

  // The steps of a scalar reducer, its root last; nullopt when it is not one.
  std::optional<ReducerPlan> planReducer(const hlo::Computation& c) {
    static const std::set<std::string> kNotElementwise = {"tuple",         "get-tuple-element",
                                                          "fusion",        "call",
                                                          "reduce",        "reduce-window",
                                                          "gather",        "bitcast",
                                                          "broadcast",     "transpose",
                                                          "reshape",       "copy",
                                                          "reverse",       "slice",
                                                          "concatenate",   "pad",
                                                          "dynamic-slice", "dynamic-update-slice",
                                                          "iota",          "map",
                                                          "sort"};
    ReducerPlan plan;
    std::map<const hlo::Instruction*, size_t> position;
    for (const auto& instruction : c.instructions) {
      if (!instruction->shape.shape.empty() || kNotElementwise.count(instruction->opcode))
        return std::nullopt;
      ReducerStep step;
      step.instruction = instruction.get();
      step.type = tensorType(instruction->shape.element_type);
      if (const hlo::Attribute* d = instruction->attribute("direction")) step.direction = d->value;
      if (instruction->opcode == "parameter") {
        step.parameter = static_cast<int>(instruction->parameterNumber);
      } else if (instruction->opcode == "constant") {
        step.constant = at(op(*instruction, {}), 0);
      } else {
        for (const hlo::Instruction* o : instruction->operands) {
          step.operands.push_back(position.at(o));
          step.operandTypes.push_back(plan[position.at(o)].type);
        }
      }
      position[instruction.get()] = plan.size();
      plan.push_back(std::move(step));
    }
    if (plan.empty() || c.root != plan.back().instruction) return std::nullopt;
    return plan;
  }

  std::map<const hlo::Computation*, std::optional<ReducerPlan>> reducers_;

  static Scalar at(const Tensor& t, int64_t p) {
    const size_t k = static_cast<size_t>(p);
    if (t.isComplex()) return Scalar{t.floats.at(k), 0, t.imags.at(k)};
    return t.isFloat() ? Scalar{t.floats.at(k), 0} : Scalar{0, t.ints.at(k)};
  }
  static void put(Tensor& t, int64_t p, Scalar s) {
    const size_t k = static_cast<size_t>(p);
    if (t.isComplex()) t.imags.at(k) = s.im;
    if (t.isFloat() || t.isComplex())
      t.floats.at(k) = s.f;
    else
      t.ints.at(k) = s.i;
  }
  // Calls fn(index) for every index of `shape`, row-major.
  static void forEach(const std::vector<int64_t>& shape,
                      const std::function<void(const std::vector<int64_t>&)>& fn) {
    for (int64_t s : shape)
      if (s == 0) return;
    std::vector<int64_t> index(shape.size(), 0);
    do fn(index);
    while (nextIndex(shape, index));
  }

  Tensor op(const hlo::Instruction& ins, const std::vector<Tensor>& in) {
    using namespace hlo;
    const std::string type = tensorType(ins.shape.element_type);
    const std::vector<int64_t>& shape = ins.shape.shape;
    Tensor out = gather_scatter::zeros(type, shape);
    const std::string& op = ins.opcode;
    auto set = [&](const std::vector<int64_t>& index, Scalar s) {
      put(out, linearPosition(shape, index), s);
    };
    auto get = [&](size_t k, const std::vector<int64_t>& index) {
      return at(in[k], linearPosition(in[k].shape, index));
    };
    auto ints = [&](const char* name) { return readIntList(requireAttribute(ins, name), name); };
    if (op == "fusion") return computation(*ins.calledComputations.at(0), in).at(0);
    if (op == "constant" && out.isComplex()) {
      std::vector<Scalar> values = complexLiteral(ins.literal, type);
      for (size_t p = 0; p < values.size(); ++p) put(out, static_cast<int64_t>(p), values[p]);
      return out;
    }
    if (op == "constant") {
      std::vector<std::string> tokens;
      std::string token;
      for (char c : ins.literal + " ") {
        if (c == '{' || c == '}' || c == ',' || c == ' ') {
          if (!token.empty()) tokens.push_back(token);
          token.clear();
        } else {
          token += c;
        }
      }
      for (size_t p = 0; p < tokens.size(); ++p) {
        const std::string& s = tokens[p];
        Scalar v =
            out.isFloat()
                ? Scalar{gather_scatter::roundToElementType(type, std::strtod(s.c_str(), nullptr)),
                         0}
                : Scalar{0, s == "true"    ? 1
                            : s == "false" ? 0
                                           : std::stoll(s)};
        put(out, static_cast<int64_t>(p), v);
      }
      return out;
    }
    if (op == "iota") {
      size_t d = static_cast<size_t>(readIntOr(ins, "iota_dimension", 0));
      forEach(shape, [&](const std::vector<int64_t>& i) {
        set(i, out.isFloat() || out.isComplex()
                   ? Scalar{gather_scatter::roundToElementType(type, static_cast<double>(i[d])), 0}
                   : Scalar{0, wrapTo(type, i[d])});
      });
      return out;
    }
    if (op == "dot") return referenceDot(ins, in[0], in[1]);
    if (op == "convolution") return referenceConvolution(ins, in[0], in[1]);
    if (op == "gather")  // the spec's formulas on XLA's attributes read into StableHLO's op
      return gather_scatter::referenceGather(ops::hloGatherOp(ins), in[0], in[1]);
    if (op == "bitcast") {  // the same bytes: equal positions in memory order
      auto layoutOf = [](const hlo::Shape& s) {
        std::vector<int64_t> l;
        if (s.layout)
          for (size_t k = 0; k < s.layout->size(); ++k)
            if ((*s.layout)[k] != static_cast<int64_t>(s.layout->size() - 1 - k)) l = *s.layout;
        return l;
      };
      Tensor memory = inLayout(in[0], layoutOf(ins.operands[0]->shape), true);
      memory.shape = physicalShape(shape, layoutOf(ins.shape));
      out = inLayout(memory, layoutOf(ins.shape), false, shape);
      return out;
    }
    if (op == "reduce-precision") {
      const int exponent = static_cast<int>(readIntOr(ins, "exponent_bits", 0)),
                mantissa = static_cast<int>(readIntOr(ins, "mantissa_bits", 0));
      forEach(shape, [&](const std::vector<int64_t>& i) {
        set(i, Scalar{referenceReducePrecision(get(0, i).f, type, exponent, mantissa), 0});
      });
      return out;
    }
    // Attributes read once, not once an element.
    std::optional<std::vector<int64_t>> dimensionsRead;
    auto dimensions = [&]() -> const std::vector<int64_t>& {
      if (!dimensionsRead) dimensionsRead = ints("dimensions");
      return *dimensionsRead;
    };
    std::vector<SliceDim> slice;
    std::vector<PadDim> pad;
    std::vector<WindowDim> window;
    if (op == "slice") slice = readSlice(requireAttribute(ins, "slice"), "slice");
    if (op == "pad") pad = readPadding(requireAttribute(ins, "padding"), "padding");
    if (op == "reduce-window") window = readWindow(requireAttribute(ins, "window"), "window");
    forEach(shape, [&](const std::vector<int64_t>& i) {
      if (op == "broadcast") {
        const std::vector<int64_t>& dims = dimensions();
        std::vector<int64_t> j;
        for (int64_t d : dims) j.push_back(i[static_cast<size_t>(d)]);
        set(i, get(0, j));
      } else if (op == "transpose") {
        const std::vector<int64_t>& dims = dimensions();
        std::vector<int64_t> j(i.size());
        for (size_t k = 0; k < dims.size(); ++k) j[static_cast<size_t>(dims[k])] = i[k];
        set(i, get(0, j));
      } else if (op == "reshape" || op == "copy") {
        put(out, linearPosition(shape, i), at(in[0], linearPosition(shape, i)));
      } else if (op == "reverse") {
        std::vector<int64_t> j = i;
        for (int64_t d : dimensions())
          j[static_cast<size_t>(d)] = shape[static_cast<size_t>(d)] - 1 - i[static_cast<size_t>(d)];
        set(i, get(0, j));
      } else if (op == "slice") {
        std::vector<int64_t> j;
        for (size_t k = 0; k < i.size(); ++k) j.push_back(slice[k].start + i[k] * slice[k].stride);
        set(i, get(0, j));
      } else if (op == "concatenate") {
        size_t d = static_cast<size_t>(dimensions().at(0));
        std::vector<int64_t> j = i;
        size_t k = 0;
        while (j[d] >= in[k].shape[d]) j[d] -= in[k++].shape[d];
        set(i, get(k, j));
      } else if (op == "pad") {
        std::vector<int64_t> j;
        bool inside = true;
        for (size_t k = 0; k < i.size(); ++k) {
          int64_t offset = i[k] - pad[k].low, step = pad[k].interior + 1;
          if (offset < 0 || offset % step != 0 || offset / step >= in[0].shape[k]) inside = false;
          j.push_back(offset / step);
        }
        set(i, inside ? get(0, j) : get(1, {}));
      } else if (op == "dynamic-slice" || op == "dynamic-update-slice") {
        const Tensor& base = op == "dynamic-slice" ? in[0] : in[1];
        size_t first = op == "dynamic-slice" ? 1 : 2;
        std::vector<int64_t> start;
        for (size_t k = 0; k < i.size(); ++k) {
          int64_t hi =
              op == "dynamic-slice" ? in[0].shape[k] - shape[k] : shape[k] - in[1].shape[k];
          start.push_back(std::clamp<int64_t>(in[first + k].ints.at(0), 0, hi));
        }
        std::vector<int64_t> j = i;
        bool inUpdate = true;
        for (size_t k = 0; k < i.size(); ++k) {
          j[k] = op == "dynamic-slice" ? i[k] + start[k] : i[k] - start[k];
          if (j[k] < 0 || j[k] >= base.shape[k]) inUpdate = false;
        }
        set(i, op == "dynamic-slice" ? get(0, j) : inUpdate ? get(1, j) : get(0, i));
      } else if (op == "reduce-window") {  // XLA skips positions in padding and dilation holes
        std::vector<int64_t> sizes;
        for (const WindowDim& w : window) sizes.push_back(w.size);
        Tensor acc = gather_scatter::scalarAt(in[1], 0);
        forEach(sizes, [&](const std::vector<int64_t>& w) {
          std::vector<int64_t> j;
          for (size_t k = 0; k < w.size(); ++k) {
            int64_t base = i[k] * window[k].stride + w[k] * window[k].rhsDilate - window[k].padLow;
            if (base % window[k].lhsDilate != 0) return;
            base /= window[k].lhsDilate;
            if (base < 0 || base >= in[0].shape[k]) return;
            j.push_back(base);
          }
          reduceInto(*ins.calledComputations.at(0), acc, in[0], linearPosition(in[0].shape, j));
        });
        set(i, at(acc, 0));
      } else if (op == "reduce") {
        const std::vector<int64_t>& dims = dimensions();
        std::vector<int64_t> kept, reducedShape;
        for (size_t k = 0; k < in[0].shape.size(); ++k)
          (std::count(dims.begin(), dims.end(), static_cast<int64_t>(k)) ? reducedShape : kept)
              .push_back(static_cast<int64_t>(k));
        for (size_t k = 0; k < reducedShape.size(); ++k)
          reducedShape[k] = in[0].shape[static_cast<size_t>(reducedShape[k])];
        Tensor acc = gather_scatter::scalarAt(in[1], 0);
        forEach(reducedShape, [&](const std::vector<int64_t>& r) {
          std::vector<int64_t> j(in[0].shape.size());
          size_t a = 0, b = 0;
          for (size_t k = 0; k < j.size(); ++k)
            j[k] = std::count(dims.begin(), dims.end(), static_cast<int64_t>(k)) ? r[b++] : i[a++];
          reduceInto(*ins.calledComputations.at(0), acc, in[0], linearPosition(in[0].shape, j));
        });
        set(i, at(acc, 0));
      } else {
        std::vector<Scalar> values;
        std::vector<std::string> types;
        for (size_t k = 0; k < in.size(); ++k) {
          values.push_back(in[k].shape.empty() ? at(in[k], 0) : get(k, i));
          types.push_back(in[k].element_type);
        }
        std::string direction;
        if (const Attribute* d = ins.attribute("direction")) direction = d->value;
        set(i, elementwise(op, direction, types, type, values));
      }
    });
    return out;
  }
};

}  // namespace idxmap::codegen::testing
