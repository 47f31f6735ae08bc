// Random integer programs over one argument (issue 31's oracle programs): a chain of the ops the
// value analysis follows, each result a tensor<3xT>, between the argument %a and the returned
// value: arithmetic with constants and with earlier values, JAX's negative-index fix-up
// (compare, add, select), min / max / clamp, divide / remainder / shifts by constants,
// converts through narrower types (wrapping), reverse, slices put back together, and calls
// into a private function. Small values, so that every argument value can be enumerated.
#pragma once

#include <random>
#include <string>
#include <vector>

namespace idxmap::value_testing {

struct RandomProgram {
  std::string text;      // a module with @main(%a: tensor<3xi32>) -> tensor<3xi32>
  std::string returned;  // the returned value's name, "%v7"
};

inline RandomProgram randomProgram(std::mt19937& rng, int length) {
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
    switch (pick(12)) {
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
