// stablehlo.scatter's constraints C1-C25 as a table: label, attribute, predicate.
#include "ops/stablehlo/constraint_rules.h"

namespace idxmap::gather_scatter {
namespace {

using ScatterCheck = ConstraintRule<ScatterOp>;
using Message = std::optional<std::string>;

std::string str(int64_t v) { return std::to_string(v); }
const ScatterDimensionNumbers& dn(const ScatterOp& op) { return op.dimension_numbers; }

// inputs[0], or an empty type when there is none (C5 reports that).
TensorType firstInput(const ScatterOp& op) {
  return op.inputs.empty() ? TensorType{} : op.inputs[0];
}
TensorType firstUpdate(const ScatterOp& op) {
  return op.updates.empty() ? TensorType{} : op.updates[0];
}

bool indexVectorDimValid(const ScatterOp& op) {
  return dn(op).index_vector_dim >= 0 && dn(op).index_vector_dim <= op.scatter_indices.rank();
}

// same(shape(types...)), compatibly: dynamic dims may take the sizes the others have.
Message sameShapes(const std::vector<TensorType>& types, const char* name) {
  for (size_t i = 1; i < types.size(); ++i)
    if (std::optional<std::string> why = shapeIncompatibility(types[i], types[0]))
      return std::string("shape(") + name + "[" + str(static_cast<int64_t>(i)) +
             "]) = " + shapeText(types[i].shape) + " is incompatible with shape(" + name +
             "[0]) = " + shapeText(types[0].shape) + ": " + *why;
  return std::nullopt;
}

// C4: updates[0] is the scatter dims of scatter_indices combined with window sizes no larger
// than the matching (not inserted, not batching) dims of inputs[0]. With dynamic dims: a
// scatter dim must be compatible with its scatter_indices dim, and a static window size must
// not exceed the input dim's size or bound.
Message updateShape(const ScatterOp& op) {
  const TensorType input = firstInput(op);
  const TensorType update = firstUpdate(op);
  const ScatterDimensionNumbers& d = dn(op);
  // Which input dims are window dims needs C2 and C9-C13; which update dims, C7 and C8.
  if (op.inputs.empty() || op.updates.empty() || !indexVectorDimValid(op) ||
      !allInRange(d.update_window_dims, update.rank()) || firstDuplicate(d.update_window_dims) ||
      uniquenessMessage(d.inserted_window_dims, "", d.input_batching_dims, "") ||
      !allInRange(d.inserted_window_dims, input.rank()) ||
      !allInRange(d.input_batching_dims, input.rank()) ||
      d.update_window_dims.size() + d.inserted_window_dims.size() + d.input_batching_dims.size() !=
          static_cast<size_t>(input.rank()))
    return std::nullopt;             // C5, C22, C7, C8, C9, C11, C13, C2
  std::vector<int64_t> scatterAxes;  // of scatter_indices
  for (int64_t axis = 0; axis < op.scatter_indices.rank(); ++axis)
    if (axis != dn(op).index_vector_dim) scatterAxes.push_back(axis);
  std::vector<int64_t> windowAxes;  // of inputs[0]
  for (int64_t axis = 0; axis < input.rank(); ++axis)
    if (!listContains(dn(op).inserted_window_dims, axis) &&
        !listContains(dn(op).input_batching_dims, axis))
      windowAxes.push_back(axis);
  auto windowCount = static_cast<int64_t>(dn(op).update_window_dims.size());
  if (update.rank() != static_cast<int64_t>(scatterAxes.size()) + windowCount)
    return "rank(updates[0]) = " + str(update.rank()) + " but scatter_indices give " +
           str(static_cast<int64_t>(scatterAxes.size())) + " scatter dims and update_window_dims " +
           str(windowCount) + " window dims";
  std::vector<int64_t> scatterDims = scatterUpdateScatterDims(dn(op), update.rank());
  for (size_t i = 0; i < scatterDims.size(); ++i)
    if (!compatibleDims(update, scatterDims[i], op.scatter_indices, scatterAxes[i]))
      return "dim(updates[0], " + str(scatterDims[i]) + ") = " + dimText(update, scatterDims[i]) +
             " but the matching dim(scatter_indices, " + str(scatterAxes[i]) +
             ") = " + dimText(op.scatter_indices, scatterAxes[i]);
  for (size_t j = 0; j < dn(op).update_window_dims.size() && j < windowAxes.size(); ++j) {
    int64_t axis = dn(op).update_window_dims[j];
    std::optional<int64_t> upper = dimUpperBound(input, windowAxes[j]);
    if (update.shape[axis] != kDynamic && upper && update.shape[axis] > *upper)
      return "dim(updates[0], " + str(axis) + ") = " + str(update.shape[axis]) +
             " exceeds the matching dim(inputs[0], " + str(windowAxes[j]) +
             ") = " + dimText(input, windowAxes[j]);
  }
  return std::nullopt;
}

// The update computation's element types E0..EN-1 (its first N arguments), when known.
std::vector<ComputationType> computationTypes(const ScatterOp& op) {
  size_t n = op.computation_argument_types.size() / 2;
  return {op.computation_argument_types.begin(), op.computation_argument_types.begin() + n};
}

struct TypeInfo {
  char category;  // 'b' boolean, 'i' integer, 'f' float, 'c' complex, '?' unknown
  int bits;
};

// The decimal width at `from` that runs to the end of `type` ("i32" from 1), 0 when there is
// none or it is absurdly long (a malformed type must not throw).
int widthAt(const std::string& type, size_t from) {
  size_t end = from;
  while (end < type.size() && isdigit(static_cast<unsigned char>(type[end]))) ++end;
  if (end == from || end - from > 4) return 0;
  return std::stoi(type.substr(from, end - from));
}

TypeInfo typeInfo(const std::string& type) {
  if (type == "i1") return {'b', 1};
  if (type.rfind("ui", 0) == 0 || type.rfind("si", 0) == 0) return {'i', widthAt(type, 2)};
  if (type.rfind("i", 0) == 0) return {'i', widthAt(type, 1)};
  if (type == "bf16") return {'f', 16};
  if (type.rfind("f", 0) == 0) return {'f', widthAt(type, 1)};  // f8E4M3FN: the leading 8
  const std::string complex = "complex<";
  if (type.rfind(complex, 0) == 0 && type.size() > complex.size() && type.back() == '>')
    return {'c', 2 * typeInfo(type.substr(complex.size(), type.size() - complex.size() - 1)).bits};
  return {'?', 0};
}

// The spec's is_promotable: same kind of type and no narrowing. Quantized types promote
// their storage types and must agree on the expressed type.
bool isPromotable(const std::string& from, const std::string& to) {
  if (from == to) return true;
  std::optional<QuantizedType> qFrom = quantizedType(from), qTo = quantizedType(to);
  if (qFrom || qTo)
    return qFrom && qTo && qFrom->expressed == qTo->expressed &&
           isPromotable(qFrom->storage, qTo->storage);
  TypeInfo a = typeInfo(from), b = typeInfo(to);
  return a.category != '?' && a.category == b.category && a.bits <= b.bits;
}

// Every type of the signature must be a 0-d tensor `tensor<E>`.
Message scalarTensorMessage(const std::vector<ComputationType>& types, const char* what) {
  for (size_t i = 0; i < types.size(); ++i)
    if (!types[i].isScalarTensor())
      return std::string("update_computation ") + what + " " + str(static_cast<int64_t>(i)) +
             " has type " + types[i].toString() + ", not a 0-d tensor tensor<E>";
  return std::nullopt;
}

Message computationSignature(const ScatterOp& op) {
  if (op.computation_argument_types.empty() && op.computation_result_types.empty())
    return std::nullopt;  // not known
  size_t n = op.inputs.size();
  const auto& args = op.computation_argument_types;
  if (Message message = scalarTensorMessage(args, "argument")) return message;
  if (Message message = scalarTensorMessage(op.computation_result_types, "result")) return message;
  if (args.size() != 2 * n)
    return "update_computation has " + str(static_cast<int64_t>(args.size())) +
           " arguments, expected 2 * " + str(static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i)
    if (args[i] != args[n + i])
      return "update_computation arguments " + str(static_cast<int64_t>(i)) + " and " +
             str(static_cast<int64_t>(n + i)) + " have types " + args[i].toString() + " and " +
             args[n + i].toString();
  if (op.computation_result_types.size() != n)
    return "update_computation returns " +
           str(static_cast<int64_t>(op.computation_result_types.size())) + " values, expected " +
           str(static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i) {
    if (op.computation_result_types[i] != args[i])
      return "update_computation result " + str(static_cast<int64_t>(i)) + " has type " +
             op.computation_result_types[i].toString() + ", its arguments " + args[i].toString();
    if (!isPromotable(op.inputs[i].element_type, args[i].element_type))
      return "element type " + op.inputs[i].element_type + " of inputs[" +
             str(static_cast<int64_t>(i)) + "] is not promotable to " + args[i].element_type;
  }
  return std::nullopt;
}

const std::vector<ScatterCheck>& scatterChecks() {
  static const std::vector<ScatterCheck> table = {
      {"C1", "inputs", [](const ScatterOp& op) { return sameShapes(op.inputs, "inputs"); }},
      {"C2", "update_window_dims",
       [](const ScatterOp& op) -> Message {
         auto sum = static_cast<int64_t>(dn(op).update_window_dims.size() +
                                         dn(op).inserted_window_dims.size() +
                                         dn(op).input_batching_dims.size());
         if (op.inputs.empty() || sum == op.inputs[0].rank()) return std::nullopt;
         return "rank(inputs[0]) = " + str(op.inputs[0].rank()) +
                " but size(update_window_dims) + size(inserted_window_dims) + "
                "size(input_batching_dims) = " +
                str(sum);
       }},
      {"C3", "updates", [](const ScatterOp& op) { return sameShapes(op.updates, "updates"); }},
      {"C4", "updates", updateShape},
      {"C5", "inputs",
       [](const ScatterOp& op) -> Message {
         if (!op.inputs.empty() && op.inputs.size() == op.updates.size()) return std::nullopt;
         return "size(inputs) = " + str(static_cast<int64_t>(op.inputs.size())) +
                " and size(updates) = " + str(static_cast<int64_t>(op.updates.size())) +
                " must be equal and positive";
       }},
      {"C6", "updates",
       [](const ScatterOp& op) -> Message {
         for (size_t i = 0; i < op.inputs.size() && i < op.updates.size(); ++i)
           if (op.inputs[i].element_type != op.updates[i].element_type)
             return "element_type(updates[" + str(static_cast<int64_t>(i)) +
                    "]) = " + op.updates[i].element_type + " but element_type(inputs[" +
                    str(static_cast<int64_t>(i)) + "]) = " + op.inputs[i].element_type;
         return std::nullopt;
       }},
      {"C7", "update_window_dims",
       [](const ScatterOp& op) -> Message {
         if (std::optional<int64_t> twice = firstDuplicate(dn(op).update_window_dims))
           return "dimension " + str(*twice) + " appears twice in update_window_dims";
         return sortedMessage(dn(op).update_window_dims, "update_window_dims");
       }},
      {"C8", "update_window_dims",
       [](const ScatterOp& op) {
         return rangeMessage(dn(op).update_window_dims, "update_window_dims",
                             firstUpdate(op).rank(), "rank(updates[0])");
       }},
      {"C9", "inserted_window_dims",
       [](const ScatterOp& op) {
         return uniquenessMessage(dn(op).inserted_window_dims, "inserted_window_dims",
                                  dn(op).input_batching_dims, "input_batching_dims");
       }},
      {"C10", "inserted_window_dims",
       [](const ScatterOp& op) {
         return sortedMessage(dn(op).inserted_window_dims, "inserted_window_dims");
       }},
      {"C11", "inserted_window_dims",
       [](const ScatterOp& op) {
         return rangeMessage(dn(op).inserted_window_dims, "inserted_window_dims",
                             firstInput(op).rank(), "rank(inputs[0])");
       }},
      {"C12", "input_batching_dims",
       [](const ScatterOp& op) {
         return sortedMessage(dn(op).input_batching_dims, "input_batching_dims");
       }},
      {"C13", "input_batching_dims",
       [](const ScatterOp& op) {
         return rangeMessage(dn(op).input_batching_dims, "input_batching_dims",
                             firstInput(op).rank(), "rank(inputs[0])");
       }},
      {"C14", "scatter_indices_batching_dims",
       [](const ScatterOp& op) -> Message {
         if (std::optional<int64_t> twice = firstDuplicate(dn(op).scatter_indices_batching_dims))
           return "dimension " + str(*twice) + " appears twice in scatter_indices_batching_dims";
         return std::nullopt;
       }},
      {"C15", "scatter_indices_batching_dims",
       [](const ScatterOp& op) {
         return rangeMessage(dn(op).scatter_indices_batching_dims, "scatter_indices_batching_dims",
                             op.scatter_indices.rank(), "rank(scatter_indices)");
       }},
      {"C16", "index_vector_dim",
       [](const ScatterOp& op) -> Message {
         if (!listContains(dn(op).scatter_indices_batching_dims, dn(op).index_vector_dim))
           return std::nullopt;
         return "index_vector_dim " + str(dn(op).index_vector_dim) +
                " is also in scatter_indices_batching_dims";
       }},
      {"C17", "scatter_indices_batching_dims",
       [](const ScatterOp& op) -> Message {
         size_t a = dn(op).input_batching_dims.size();
         size_t b = dn(op).scatter_indices_batching_dims.size();
         if (a == b) return std::nullopt;
         return "size(input_batching_dims) = " + str(static_cast<int64_t>(a)) +
                " but size(scatter_indices_batching_dims) = " + str(static_cast<int64_t>(b));
       }},
      {"C18", "input_batching_dims",
       [](const ScatterOp& op) -> Message {
         const TensorType input = firstInput(op);
         const auto& a = dn(op).input_batching_dims;
         const auto& b = dn(op).scatter_indices_batching_dims;
         for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
           if (a[i] < 0 || a[i] >= input.rank() || b[i] < 0 || b[i] >= op.scatter_indices.rank())
             continue;  // C13 / C15
           if (!compatibleDims(input, a[i], op.scatter_indices, b[i]))
             return "dim(inputs[0], " + str(a[i]) + ") = " + dimText(input, a[i]) +
                    " but dim(scatter_indices, " + str(b[i]) +
                    ") = " + dimText(op.scatter_indices, b[i]);
         }
         return std::nullopt;
       }},
      {"C19", "scatter_dims_to_operand_dims",
       [](const ScatterOp& op) -> Message {
         if (!indexVectorDimValid(op)) return std::nullopt;  // C22
         TensorType vector = indexVectorDimType(op.scatter_indices, dn(op).index_vector_dim);
         auto size = static_cast<int64_t>(dn(op).scatter_dims_to_operand_dims.size());
         if (admitsSize(vector, 0, size)) return std::nullopt;
         return "size(scatter_dims_to_operand_dims) = " + str(size) + " but the index vector has " +
                dimText(vector, 0) + " entries";
       }},
      {"C20", "scatter_dims_to_operand_dims",
       [](const ScatterOp& op) {
         return uniquenessMessage(dn(op).scatter_dims_to_operand_dims,
                                  "scatter_dims_to_operand_dims", dn(op).input_batching_dims,
                                  "input_batching_dims");
       }},
      {"C21", "scatter_dims_to_operand_dims",
       [](const ScatterOp& op) {
         return rangeMessage(dn(op).scatter_dims_to_operand_dims, "scatter_dims_to_operand_dims",
                             firstInput(op).rank(), "rank(inputs[0])");
       }},
      {"C22", "index_vector_dim",
       [](const ScatterOp& op) -> Message {
         if (indexVectorDimValid(op)) return std::nullopt;
         return "index_vector_dim " + str(dn(op).index_vector_dim) + " is outside [0, " +
                str(op.scatter_indices.rank()) + "] (rank(scatter_indices) is " +
                str(op.scatter_indices.rank()) + ")";
       }},
      {"C23", "update_computation", computationSignature},
      {"C24", "results",
       [](const ScatterOp& op) -> Message {
         if (op.results.empty()) return std::nullopt;
         if (op.results.size() != op.inputs.size())
           return "there are " + str(static_cast<int64_t>(op.results.size())) + " results for " +
                  str(static_cast<int64_t>(op.inputs.size())) + " inputs";
         for (size_t i = 0; i < op.results.size(); ++i)
           if (std::optional<std::string> why = shapeIncompatibility(op.results[i], op.inputs[i]))
             return "shape(results[" + str(static_cast<int64_t>(i)) +
                    "]) = " + shapeText(op.results[i].shape) +
                    " is incompatible with shape(inputs[" + str(static_cast<int64_t>(i)) +
                    "]) = " + shapeText(op.inputs[i].shape) + ": " + *why;
         return std::nullopt;
       }},
      {"C25", "results",
       [](const ScatterOp& op) -> Message {
         std::vector<ComputationType> types = computationTypes(op);
         for (size_t i = 0; i < op.results.size() && i < types.size(); ++i)
           if (types[i].isScalarTensor() && op.results[i].element_type != types[i].element_type)
             return "element_type(results[" + str(static_cast<int64_t>(i)) +
                    "]) = " + op.results[i].element_type + " but the update computation's E" +
                    str(static_cast<int64_t>(i)) + " = " + types[i].element_type;
         return std::nullopt;
       }},
  };
  return table;
}

// I1 and I3: tensors or per-tensor quantized tensors.
Message perTensorTypes(const std::vector<TensorType>& types, const char* name) {
  for (size_t i = 0; i < types.size(); ++i)
    if (Message message = perTensorMessage(
            types[i], std::string(name) + "[" + str(static_cast<int64_t>(i)) + "]"))
      return message;
  return std::nullopt;
}

const std::vector<ScatterCheck>& inputChecks() {
  static const std::vector<ScatterCheck> table = {
      {"I1", "inputs", [](const ScatterOp& op) { return perTensorTypes(op.inputs, "inputs"); }},
      {"I2", "scatter_indices",
       [](const ScatterOp& op) -> Message {
         if (isIntegerType(op.scatter_indices.element_type)) return std::nullopt;
         return "scatter_indices have element type " + op.scatter_indices.element_type +
                ", not an integer type";
       }},
      {"I3", "updates", [](const ScatterOp& op) { return perTensorTypes(op.updates, "updates"); }},
  };
  return table;
}

}  // namespace

std::vector<Violation> validateScatter(const ScatterOp& op) {
  std::vector<Violation> violations = runRules("stablehlo.scatter", inputChecks(), op);
  std::vector<Violation> constraints = runRules("stablehlo.scatter", scatterChecks(), op);
  violations.insert(violations.end(), constraints.begin(), constraints.end());
  return violations;
}

}  // namespace idxmap::gather_scatter
