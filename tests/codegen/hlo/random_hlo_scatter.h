// Random HLO scatters for the kernel tests: the dimension numbers of a random StableHLO op
// (tests/ops/stablehlo/random_ops.h: batching dims, inserted and window dims, the index vector
// anywhere or implicit) written as HLO, one to three inputs of f32, f16, s32, s4 or u2 (sub-byte
// buffers held one to a byte or packed as E(n), inputs and results alike, updates on their own),
// index values in range, out of range and repeated (run-time parameters), and an update
// computation that is one of the prelude's for every input (add, multiply, minimum, maximum,
// replace) or a random one of elementwise ops over every input's current value and update
// (compare and select, arithmetic, bitwise ops, converts between the inputs' types).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tests/ops/stablehlo/random_ops.h"

namespace idxmap::codegen::testing {

class RandomHloScatter {
 public:
  explicit RandomHloScatter(uint32_t seed) : rng_(seed) {}

  // Computations and entry lines of scatter `id`: parameters numbered from `parameter` (moved
  // past those it declares); its result's name is "scatter<id>".
  struct Scatter {
    std::string computation, entry;
  };
  Scatter next(int id, int& parameter) {
    using gather_scatter::testing::uniform;
    const gather_scatter::testing::RandomOp op = gather_scatter::testing::randomOp(rng_);
    const size_t n = static_cast<size_t>(pick<int>({1, 1, 2, 2, 3}));
    std::vector<std::string> types;
    for (size_t i = 0; i < n; ++i)
      types.push_back(pick<std::string>({"f32", "f16", "s32", "s4", "u2"}));
    const std::string name = "update" + std::to_string(id);
    Scatter out;
    out.computation = computation(name, types);
    auto shape = [&](const std::string& type, const std::vector<int64_t>& dims, bool packed) {
      std::string text = type + "[" + join(dims) + "]";
      if (packed && (type == "s4" || type == "u2")) {
        std::string layout;
        for (size_t d = dims.size(); d-- > 0;)
          layout += (layout.empty() ? "" : ",") + std::to_string(d);
        text += "{" + layout + ":E(" + std::string(1, type[1]) + ")}";
      }
      return text;
    };
    std::vector<std::string> inputs, updates, results;
    const std::string prefix = "  s" + std::to_string(id) + "_";
    for (size_t i = 0; i < n; ++i) {
      const bool packed = uniform(rng_, 0, 1) == 1;
      const std::string p = prefix.substr(2) + "in" + std::to_string(i);
      out.entry += "  " + p + " = " + shape(types[i], op.operandShape, packed) + " parameter(" +
                   std::to_string(parameter++) + ")\n";
      inputs.push_back(p);
      results.push_back(shape(types[i], op.operandShape, packed));
    }
    const std::string indices = prefix.substr(2) + "indices";
    out.entry += "  " + indices + " = s32[" + join(op.indicesShape) + "] parameter(" +
                 std::to_string(parameter++) + ")\n";
    for (size_t i = 0; i < n; ++i) {
      const std::string p = prefix.substr(2) + "up" + std::to_string(i);
      out.entry += "  " + p + " = " + shape(types[i], op.resultShape, uniform(rng_, 0, 1) == 1) +
                   " parameter(" + std::to_string(parameter++) + ")\n";
      updates.push_back(p);
    }
    std::string operands, resultShape = n == 1 ? results[0] : "(";
    for (const std::string& i : inputs) operands += i + ", ";
    operands += indices;
    for (const std::string& u : updates) operands += ", " + u;
    if (n > 1) {
      for (size_t i = 0; i < n; ++i) resultShape += (i ? ", " : "") + results[i];
      resultShape += ")";
    }
    const gather_scatter::GatherDimensionNumbers& d = op.dims;
    out.entry +=
        "  scatter" + std::to_string(id) + " = " + resultShape + " scatter(" + operands +
        "), update_window_dims={" + join(d.offset_dims) + "}, inserted_window_dims={" +
        join(d.collapsed_slice_dims) + "}, input_batching_dims={" + join(d.operand_batching_dims) +
        "}, scatter_indices_batching_dims={" + join(d.start_indices_batching_dims) +
        "}, scatter_dims_to_operand_dims={" + join(d.start_index_map) +
        "}, index_vector_dim=" + std::to_string(d.index_vector_dim) + ", to_apply=" + name + "\n";
    return out;
  }

 private:
  // The computation: parameters current0..n-1 then update0..n-1, its root each input's new value.
  std::string computation(const std::string& name, const std::vector<std::string>& types) {
    const size_t n = types.size();
    body_.clear();
    values_ = 0;
    leaves_.clear();
    for (size_t k = 0; k < 2 * n; ++k) {
      const std::string& type = types[k % n];
      const std::string v = "p" + std::to_string(k);
      body_ += "  " + v + " = " + type + "[] parameter(" + std::to_string(k) + ")\n";
      leaves_.push_back({v, type});
    }
    // Half the time one of the prelude's computations for every input, as XLA writes them.
    const int common = static_cast<int>(gather_scatter::testing::uniform(rng_, 0, 9));
    std::vector<std::string> roots;
    for (size_t i = 0; i < n; ++i) {
      const std::string current = "p" + std::to_string(i), update = "p" + std::to_string(n + i);
      if (common < 5) {
        static const char* kOps[] = {"add", "multiply", "minimum", "maximum"};
        roots.push_back(common == 4 ? update
                                    : define(types[i], std::string(kOps[common]) + "(" + update +
                                                           ", " + current + ")"));
      } else {
        roots.push_back(expression(types[i], 2));
      }
    }
    std::string root;
    if (n == 1) {
      root = roots[0];  // a parameter's line is the ROOT where the new value is one
      body_.replace(body_.rfind("  " + root + " = "), 2, "  ROOT ");
    } else {
      std::string tuple = "(", operands;
      for (size_t i = 0; i < n; ++i) {
        tuple += (i ? ", " : "") + types[i] + "[]";
        operands += (i ? ", " : "") + roots[i];
      }
      body_ += "  ROOT t = " + tuple + ") tuple(" + operands + ")\n";
    }
    return name + " {\n" + body_ + "}\n";
  }

  // A value of `type`, `depth` operations deep at most, over the parameters.
  std::string expression(const std::string& type, int depth) {
    const bool isFloat = type[0] == 'f';
    if (depth == 0 || gather_scatter::testing::uniform(rng_, 0, 3) == 0) return leaf(type);
    switch (gather_scatter::testing::uniform(rng_, 0, 5)) {
      case 0: {  // select on a comparison of two values of one type (any of the inputs')
        const Leaf& a = leaves_[index(leaves_.size())];
        const std::string x = expression(a.type, depth - 1), y = expression(a.type, depth - 1);
        const std::string compare = define(
            "pred", "compare(" + x + ", " + y +
                        "), direction=" + pick<std::string>({"GT", "GE", "LT", "LE", "EQ", "NE"}));
        return define(type, "select(" + compare + ", " + expression(type, depth - 1) + ", " +
                                expression(type, depth - 1) + ")");
      }
      case 1:  // on signed and float values
        if (type[0] == 'u') return expression(type, depth - 1);
        return define(
            type, pick<std::string>({"negate", "abs"}) + "(" + expression(type, depth - 1) + ")");
      case 2: {  // a convert from another input's type
        const Leaf& from = leaves_[index(leaves_.size())];
        return define(type, "convert(" + expression(from.type, depth - 1) + ")");
      }
      default: {
        std::vector<std::string> ops = {"add", "subtract", "multiply", "maximum", "minimum"};
        if (!isFloat) ops.insert(ops.end(), {"and", "or", "xor"});
        return define(type, pick(ops) + "(" + expression(type, depth - 1) + ", " +
                                expression(type, depth - 1) + ")");
      }
    }
  }

  std::string leaf(const std::string& type) {
    std::vector<std::string> same;
    for (const Leaf& l : leaves_)
      if (l.type == type) same.push_back(l.name);
    return same[index(same.size())];
  }

  std::string define(const std::string& type, const std::string& operation) {
    const std::string v = "v" + std::to_string(values_++);
    body_ += "  " + v + " = " + type + "[] " + operation + "\n";
    return v;
  }

  template <class T>
  T pick(const std::vector<T>& options) {
    return options[index(options.size())];
  }
  size_t index(size_t n) {
    return static_cast<size_t>(
        gather_scatter::testing::uniform(rng_, 0, static_cast<int64_t>(n) - 1));
  }
  static std::string join(const std::vector<int64_t>& values) {
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out;
  }

  struct Leaf {
    std::string name, type;
  };
  std::mt19937 rng_;
  std::string body_;
  int values_ = 0;
  std::vector<Leaf> leaves_;
};

}  // namespace idxmap::codegen::testing
