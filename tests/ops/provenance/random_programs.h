// Random integer programs over one argument (issue 31's oracle programs): a chain of the ops the
// value analysis follows, each result a tensor<3xT>, between the argument %a and the returned
// value: arithmetic with constants and with earlier values, JAX's negative-index fix-up
// (compare, add, select), min / max / clamp, divide / remainder / shifts by constants,
// converts through narrower types (wrapping), reverse, slices put back together, windows of
// dynamic_slice at constant and run-time starts, and calls into a private function. With
// `choices`, also ops that pick among values (chlo.top_k's indices, and argmax / argmin / max
// reduces over a 3x3 tensor built from the value), the last step always one of them. Small
// values, so that every argument value can be enumerated.
#pragma once

#include <random>
#include <string>
#include <vector>

namespace idxmap::value_testing {

struct RandomProgram {
  std::string text;      // a module with @main(%a: tensor<3xi32>) -> tensor<3xi32>
  std::string returned;  // the returned value's name, "%v7"
};

inline RandomProgram randomProgram(std::mt19937& rng, int length, bool choices = false) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto constant = [&](int lo, int hi) { return lo + pick(hi - lo + 1); };
  const std::string t = "tensor<3xi32>";
  std::vector<std::string> values = {"%a"};
  std::string body, helpers;
  int next = 0;
  auto fresh = [&] { return "%v" + std::to_string(next++); };
  auto any = [&] { return values[static_cast<size_t>(pick(static_cast<int>(values.size())))]; };
  auto splat = [&](int value, const std::string& type = "tensor<3xi32>") {
    std::string name = fresh();
    body +=
        "  " + name + " = stablehlo.constant dense<" + std::to_string(value) + "> : " + type + "\n";
    return name;
  };
  bool called = false;
  for (int step = 0; step < length; ++step) {
    std::string x = values.back(), r;
    switch (choices && step == length - 1 ? 13 + pick(2) : pick(choices ? 15 : 13)) {
      case 0: {  // add or subtract a constant or an earlier value
        std::string y = pick(2) ? splat(constant(-6, 6)) : any();
        r = fresh();
        body += "  " + r + " = stablehlo." + (pick(2) ? "add " : "subtract ") + x + ", " + y +
                " : " + t + "\n";
        break;
      }
      case 1: {  // multiply by a constant
        std::string c = splat(constant(-3, 3));
        r = fresh();
        body += "  " + r + " = stablehlo.multiply " + x + ", " + c + " : " + t + "\n";
        break;
      }
      case 2: {  // negate or abs
        r = fresh();
        body += "  " + r + " = stablehlo." + (pick(2) ? "negate " : "abs ") + x + " : " + t + "\n";
        break;
      }
      case 3: {  // min / max with a constant or an earlier value
        std::string y = pick(2) ? splat(constant(-5, 5)) : any();
        r = fresh();
        body += "  " + r + " = stablehlo." + (pick(2) ? "minimum " : "maximum ") + x + ", " + y +
                " : " + t + "\n";
        break;
      }
      case 4: {  // clamp between scalar constants (lo > hi sometimes)
        std::string lo = splat(constant(-4, 2), "tensor<i32>");
        std::string hi = splat(constant(-2, 5), "tensor<i32>");
        r = fresh();
        body += "  " + r + " = stablehlo.clamp " + lo + ", " + x + ", " + hi + " : (tensor<i32>, " +
                t + ", tensor<i32>) -> " + t + "\n";
        break;
      }
      case 5: {  // JAX's negative-index fix-up: select(x < 0, x + n, x)
        std::string zero = splat(0), n = splat(constant(2, 9));
        std::string negative = fresh(), wrapped = fresh();
        r = fresh();
        const char* directions[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
        body += "  " + negative + " = stablehlo.compare " + directions[pick(6)] + ", " + x + ", " +
                zero + ", SIGNED : (" + t + ", " + t + ") -> tensor<3xi1>\n";
        body += "  " + wrapped + " = stablehlo.add " + x + ", " + n + " : " + t + "\n";
        body += "  " + r + " = \"stablehlo.select\"(" + negative + ", " + wrapped + ", " + any() +
                ") : (tensor<3xi1>, " + t + ", " + t + ") -> " + t + "\n";
        break;
      }
      case 6: {  // divide or remainder by a nonzero constant (never -1)
        int c = constant(2, 4) * (pick(2) ? 1 : -1);
        std::string d = splat(c);
        r = fresh();
        body += "  " + r + " = stablehlo." + (pick(2) ? "divide " : "remainder ") + x + ", " + d +
                " : " + t + "\n";
        break;
      }
      case 7: {  // shifts by a constant
        std::string k = splat(constant(0, 2));
        const char* shifts[] = {"shift_left", "shift_right_arithmetic", "shift_right_logical"};
        r = fresh();
        body +=
            "  " + r + " = stablehlo." + shifts[pick(3)] + " " + x + ", " + k + " : " + t + "\n";
        break;
      }
      case 8: {  // through a narrower type and back: wraps
        const char* narrow[] = {"i8", "ui8", "i16", "ui16"};
        std::string type = std::string("tensor<3x") + narrow[pick(4)] + ">";
        std::string mid = fresh(), big = splat(constant(100, 200));
        std::string scaled = fresh();
        body += "  " + scaled + " = stablehlo.multiply " + x + ", " + big + " : " + t + "\n";
        body += "  " + mid + " = stablehlo.convert " + scaled + " : (" + t + ") -> " + type + "\n";
        r = fresh();
        body += "  " + r + " = stablehlo.convert " + mid + " : (" + type + ") -> " + t + "\n";
        break;
      }
      case 9: {  // reverse
        r = fresh();
        body += "  " + r + " = \"stablehlo.reverse\"(" + x + ") {dimensions = array<i64: 0>} : (" +
                t + ") -> " + t + "\n";
        break;
      }
      case 10: {  // the last element moved to the front: slices concatenated
        std::string head = fresh(), tail = fresh();
        body += "  " + head + " = stablehlo.slice " + x + " [2:3] : (" + t + ") -> tensor<1xi32>\n";
        body += "  " + tail + " = stablehlo.slice " + x + " [0:2] : (" + t + ") -> tensor<2xi32>\n";
        r = fresh();
        body += "  " + r + " = stablehlo.concatenate " + head + ", " + tail +
                ", dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> " + t + "\n";
        break;
      }
      case 11: {  // dynamic_slice: 3 of 6 values, at a constant or a run-time start (clamped)
        std::string wide = fresh(), start = fresh();
        const std::string six = "tensor<6xi32>";
        if (pick(2)) {  // a table of constants, at an element of an earlier value
          std::string table;
          for (int i = 0; i < 6; ++i) table += (i ? ", " : "") + std::to_string(constant(-9, 9));
          body += "  " + wide + " = stablehlo.constant dense<[" + table + "]> : " + six + "\n";
          std::string element = fresh();
          const int at = pick(3);
          body += "  " + element + " = stablehlo.slice " + any() + " [" + std::to_string(at) + ":" +
                  std::to_string(at + 1) + "] : (" + t + ") -> tensor<1xi32>\n";
          body += "  " + start + " = stablehlo.reshape " + element +
                  " : (tensor<1xi32>) -> tensor<i32>\n";
        } else {  // the value and another, at a constant
          body += "  " + wide + " = stablehlo.concatenate " + x + ", " + any() + ", dim = 0 : (" +
                  t + ", " + t + ") -> " + six + "\n";
          body += "  " + start + " = stablehlo.constant dense<" + std::to_string(constant(-2, 5)) +
                  "> : tensor<i32>\n";
        }
        r = fresh();
        body += "  " + r + " = stablehlo.dynamic_slice " + wide + ", " + start +
                ", sizes = [3] : (" + six + ", tensor<i32>) -> " + t + "\n";
        break;
      }
      case 13: {  // chlo.top_k's indices: all 3 (a permutation), or 2 and an element of x
        const bool all = pick(2);
        const std::string k = all ? "3" : "2", out = "tensor<" + k + "xi32>";
        std::string values = fresh(), indices = fresh();
        body += "  " + values + ", " + indices + " = chlo.top_k(" + x + ", k = " + k + ") : " + t +
                " -> (" + out + ", " + out + ")\n";
        if (all) {
          r = indices;
          break;
        }
        std::string first = fresh();
        body += "  " + first + " = stablehlo.slice " + any() + " [0:1] : (" + t +
                ") -> tensor<1xi32>\n";
        r = fresh();
        body += "  " + r + " = stablehlo.concatenate " + indices + ", " + first +
                ", dim = 0 : (tensor<2xi32>, tensor<1xi32>) -> " + t + "\n";
        break;
      }
      case 14: {  // argmax, argmin (ties to the lower index) or max over rows x, -x, 0
        const std::string square = "tensor<3x3xi32>", scalar = "tensor<i32>";
        std::string rows = fresh(), signs = fresh(), keys = fresh(), iota = fresh();
        body += "  " + rows + " = stablehlo.broadcast_in_dim " + x + ", dims = [1] : (" + t +
                ") -> " + square + "\n";
        body += "  " + signs +
                " = stablehlo.constant dense<[[1, 1, 1], [-1, -1, -1], [0, 0, 0]]> : " + square +
                "\n";
        body +=
            "  " + keys + " = stablehlo.multiply " + rows + ", " + signs + " : " + square + "\n";
        body += "  " + iota + " = stablehlo.iota dim = 1 : " + square + "\n";
        std::string init = splat(constant(-3, 3), scalar);
        std::string reduced = fresh();
        const int form = pick(3);
        if (form == 2) {  // a max of the keys themselves
          body += "  " + reduced + " = stablehlo.reduce(" + keys + " init: " + init +
                  ") applies stablehlo.maximum across dimensions = [1] : (" + square + ", " +
                  scalar + ") -> " + t + "\n";
          r = reduced;
          break;
        }
        std::string zero = splat(0, scalar);
        std::string p = fresh(), q = fresh(), pi = fresh(), qi = fresh();
        std::string better = fresh(), equal = fresh(), lower = fresh(), tie = fresh(),
                    take = fresh(), key = fresh(), index = fresh();
        const std::string cmp = " : (" + scalar + ", " + scalar + ") -> tensor<i1>\n";
        body += "  " + reduced + ":2 = stablehlo.reduce(" + keys + " init: " + zero + "), (" +
                iota + " init: " + init + ") across dimensions = [1] : (" + square + ", " + square +
                ", " + scalar + ", " + scalar + ") -> (" + t + ", " + t + ")\n" + "   reducer(" +
                p + ": " + scalar + ", " + q + ": " + scalar + ") (" + pi + ": " + scalar + ", " +
                qi + ": " + scalar + ") {\n";
        body += "    " + better + " = stablehlo.compare " + (form == 0 ? "GT" : "LT") + ", " + p +
                ", " + q + ", SIGNED" + cmp;
        body += "    " + equal + " = stablehlo.compare EQ, " + p + ", " + q + ", SIGNED" + cmp;
        body += "    " + lower + " = stablehlo.compare LT, " + pi + ", " + qi + ", SIGNED" + cmp;
        body += "    " + tie + " = stablehlo.and " + equal + ", " + lower + " : tensor<i1>\n";
        body += "    " + take + " = stablehlo.or " + better + ", " + tie + " : tensor<i1>\n";
        body += "    " + key + " = stablehlo.select " + better + ", " + p + ", " + q +
                " : tensor<i1>, " + scalar + "\n";
        body += "    " + index + " = stablehlo.select " + take + ", " + pi + ", " + qi +
                " : tensor<i1>, " + scalar + "\n";
        body += "    stablehlo.return " + key + ", " + index + " : " + scalar + ", " + scalar +
                "\n  }\n";
        r = reduced + "#1";
        break;
      }
      default: {  // a call into a private function: x * 2 + 1
        if (!called) {
          helpers += "func.func private @twice_plus_one(%x: " + t + ") -> " + t + " {\n" +
                     "  %two = stablehlo.constant dense<2> : " + t + "\n" +
                     "  %one = stablehlo.constant dense<1> : " + t + "\n" +
                     "  %d = stablehlo.multiply %x, %two : " + t + "\n" +
                     "  %s = stablehlo.add %d, %one : " + t + "\n" + "  func.return %s : " + t +
                     "\n}\n";
          called = true;
        }
        r = fresh();
        body += "  " + r + " = func.call @twice_plus_one(" + x + ") : (" + t + ") -> " + t + "\n";
        break;
      }
    }
    values.push_back(r);
  }
  RandomProgram program;
  program.returned = values.back();
  program.text = helpers + "func.func @main(%a: " + t + ") -> " + t + " {\n" + body +
                 "  func.return " + program.returned + " : " + t + "\n}\n";
  return program;
}

}  // namespace idxmap::value_testing
