#include "ops/hlo/attributes.h"

#include <cctype>
#include <limits>

namespace idxmap::hlo {
namespace {

// The location `offset` bytes into a value that starts at `start` (values may span lines).
SourceLocation advance(SourceLocation location, std::string_view text, size_t offset) {
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++location.line;
      location.column = 1;
    } else {
      ++location.column;
    }
  }
  return location;
}

// A cursor over one attribute value; every error names the attribute and the position.
class ValueReader {
 public:
  ValueReader(const Attribute& attribute, std::string_view name)
      : attribute_(attribute), name_(name), text_(attribute.value) {}

  [[noreturn]] void fail(const std::string& message) const {
    failInAttribute(attribute_, name_, pos_, message);
  }
  void skipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool atEnd() {
    skipSpaces();
    return pos_ == text_.size();
  }
  bool peek(char c) {
    skipSpaces();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool accept(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  void expectEnd() {
    if (!atEnd()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
  }
  int64_t integer() {
    skipSpaces();
    size_t start = pos_;
    bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ == text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      pos_ = start;
      fail("expected an integer");
    }
    // Accumulate negatively so that INT64_MIN is representable.
    int64_t value = 0;
    for (; pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])); ++pos_) {
      int digit = text_[pos_] - '0';
      if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) {
        pos_ = start;
        fail("integer does not fit in 64 bits");
      }
      value = value * 10 - digit;
    }
    if (!negative) {
      if (value == std::numeric_limits<int64_t>::min()) {
        pos_ = start;
        fail("integer does not fit in 64 bits");
      }
      value = -value;
    }
    return value;
  }
  // A run of letters and digits, and of '_' when `underscores` (a field name or a label).
  std::string_view word(bool underscores = true) {
    skipSpaces();
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   (underscores && text_[pos_] == '_')))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // Integers separated by `separator` ("3x3", "1_4_1").
  std::vector<int64_t> separated(char separator) {
    std::vector<int64_t> values{integer()};
    while (pos_ < text_.size() && text_[pos_] == separator) {
      ++pos_;
      values.push_back(integer());
    }
    return values;
  }
  size_t position() const { return pos_; }
  void setPosition(size_t pos) { pos_ = pos; }

 private:
  const Attribute& attribute_;
  std::string_view name_;
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

void failInAttribute(const Attribute& attribute, std::string_view name, size_t offset,
                     const std::string& message) {
  throw ParseError(advance(attribute.location, attribute.value, offset),
                   std::string(name) + "=" + attribute.value + ": " + message, "");
}

void failAtOpcode(const Instruction& instruction, const std::string& message) {
  throw ParseError(instruction.opcodeLocation, instruction.opcode + ": " + message, "");
}

const Attribute& requireAttribute(const Instruction& instruction, std::string_view name) {
  auto it = instruction.attributes.find(std::string(name));
  if (it == instruction.attributes.end())
    failAtOpcode(instruction, "missing attribute " + std::string(name) + "=");
  return it->second;
}

int64_t readInt(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  int64_t value = reader.integer();
  reader.expectEnd();
  return value;
}

std::vector<int64_t> readIntList(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  std::vector<int64_t> values;
  if (!reader.accept('{')) {
    values.push_back(reader.integer());
  } else if (!reader.accept('}')) {
    do values.push_back(reader.integer());
    while (reader.accept(','));
    reader.expect('}');
  }
  reader.expectEnd();
  return values;
}

int64_t readIntOr(const Instruction& instruction, std::string_view name, int64_t fallback) {
  auto it = instruction.attributes.find(std::string(name));
  return it == instruction.attributes.end() ? fallback : readInt(it->second, name);
}

std::vector<int64_t> readIntListOr(const Instruction& instruction, std::string_view name) {
  auto it = instruction.attributes.find(std::string(name));
  return it == instruction.attributes.end() ? std::vector<int64_t>{}
                                            : readIntList(it->second, name);
}

std::vector<SliceDim> readSlice(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  std::vector<SliceDim> dims;
  reader.expect('{');
  if (!reader.accept('}')) {
    do {
      reader.expect('[');
      SliceDim dim;
      dim.start = reader.integer();
      reader.expect(':');
      dim.limit = reader.integer();
      if (reader.accept(':')) {
        size_t at = reader.position();
        dim.stride = reader.integer();
        if (dim.stride <= 0) {
          reader.setPosition(at);
          reader.fail("stride must be positive");
        }
      }
      reader.expect(']');
      dims.push_back(dim);
    } while (reader.accept(','));
    reader.expect('}');
  }
  reader.expectEnd();
  return dims;
}

std::vector<PadDim> readPadding(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  std::vector<PadDim> dims;
  if (reader.atEnd()) return dims;  // a rank-0 pad
  do {
    size_t at = reader.position();
    std::vector<int64_t> parts = reader.separated('_');
    if (parts.size() < 2 || parts.size() > 3) {
      reader.setPosition(at);
      reader.fail("expected low_high or low_high_interior");
    }
    PadDim dim{parts[0], parts[1], parts.size() == 3 ? parts[2] : 0};
    if (dim.interior < 0) {
      reader.setPosition(at);
      reader.fail("interior padding must not be negative");
    }
    dims.push_back(dim);
  } while (reader.accept('x'));
  reader.expectEnd();
  return dims;
}

std::vector<WindowDim> readWindow(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  std::vector<WindowDim> dims;
  bool sawSize = false;
  reader.expect('{');
  // Every field is a list over the window's dims; the first one fixes the rank.
  auto fieldValues = [&](size_t at, std::vector<int64_t> values, size_t perDim) {
    if (dims.empty() && !sawSize) dims.resize(values.size() / perDim);
    if (values.size() != dims.size() * perDim) {
      reader.setPosition(at);
      reader.fail("expected " + std::to_string(dims.size()) + " dimensions");
    }
    return values;
  };
  while (!reader.accept('}')) {
    if (reader.atEnd()) reader.fail("expected '}'");
    size_t at = reader.position();
    std::string field(reader.word());
    if (field.empty()) reader.fail("expected a window field");
    reader.expect('=');
    reader.skipSpaces();
    size_t valueAt = reader.position();
    if (field == "pad") {
      std::vector<int64_t> flat;
      do {
        size_t partAt = reader.position();
        std::vector<int64_t> parts = reader.separated('_');
        if (parts.size() != 2) {
          reader.setPosition(partAt);
          reader.fail("expected low_high padding");
        }
        flat.insert(flat.end(), parts.begin(), parts.end());
      } while (reader.accept('x'));
      flat = fieldValues(valueAt, flat, 2);
      for (size_t i = 0; i < dims.size(); ++i) {
        dims[i].padLow = flat[2 * i];
        dims[i].padHigh = flat[2 * i + 1];
      }
      continue;
    }
    std::vector<int64_t> values = reader.separated('x');
    if (field == "size" && dims.empty()) {
      dims.resize(values.size());
      sawSize = true;
    }
    values = fieldValues(valueAt, values, 1);
    bool positive = field != "rhs_reversal";
    for (size_t i = 0; i < values.size(); ++i) {
      if (positive ? values[i] < 1 : (values[i] != 0 && values[i] != 1)) {
        reader.setPosition(valueAt);
        reader.fail(field + (positive ? " must be positive" : " must be 0 or 1"));
      }
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      if (field == "size") {
        dims[i].size = values[i];
      } else if (field == "stride") {
        dims[i].stride = values[i];
      } else if (field == "lhs_dilate") {
        dims[i].lhsDilate = values[i];
      } else if (field == "rhs_dilate") {
        dims[i].rhsDilate = values[i];
      } else if (field == "rhs_reversal") {
        dims[i].reversal = values[i] == 1;
      } else {
        reader.setPosition(at);
        reader.fail("unknown window field '" + field + "'");
      }
    }
  }
  reader.expectEnd();
  return dims;
}

std::vector<WindowDim> readWindowOr(const Instruction& instruction, size_t rank) {
  const Attribute* window = instruction.attribute("window");
  if (!window) return std::vector<WindowDim>(rank);
  std::vector<WindowDim> dims = readWindow(*window, "window");
  if (dims.size() != rank)
    failInAttribute(
        *window, "window", 0,
        "has " + std::to_string(dims.size()) + " dimensions, expected " + std::to_string(rank));
  return dims;
}

DotDimensions readDotDimensions(const Instruction& instruction) {
  return {readIntListOr(instruction, "lhs_batch_dims"),
          readIntListOr(instruction, "lhs_contracting_dims"),
          readIntListOr(instruction, "rhs_batch_dims"),
          readIntListOr(instruction, "rhs_contracting_dims")};
}

ConvolutionDimensions readDimLabels(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  ConvolutionDimensions dims;
  // One labelled operand: each letter gives its role's slot the letter's position.
  auto labels = [&](std::string_view roles, std::vector<int64_t*> slots,
                    std::vector<int64_t>& spatial) {
    reader.skipSpaces();
    size_t at = reader.position();
    std::string_view word = reader.word(/*underscores=*/false);
    if (word.empty()) reader.fail("expected dimension labels");
    std::vector<std::pair<int64_t, int64_t>> spatialAt;  // (number, position)
    for (size_t i = 0; i < word.size(); ++i) {
      char c = word[i];
      reader.setPosition(at + i);
      if (std::isdigit(static_cast<unsigned char>(c))) {
        spatialAt.emplace_back(c - '0', static_cast<int64_t>(i));
        continue;
      }
      size_t role = roles.find(c);
      if (role == std::string_view::npos)
        reader.fail(std::string("unexpected label '") + c + "'; expected one of " +
                    std::string(roles) + " or a digit");
      if (*slots[role] != -1) reader.fail(std::string("label '") + c + "' repeated");
      *slots[role] = static_cast<int64_t>(i);
    }
    spatial.assign(spatialAt.size(), -1);
    for (auto [number, position] : spatialAt) {
      if (number >= static_cast<int64_t>(spatial.size()) || spatial[number] != -1)
        reader.fail("spatial labels must be the digits 0.." + std::to_string(spatialAt.size() - 1) +
                    ", each once");
      spatial[number] = position;
    }
    for (size_t role = 0; role < roles.size(); ++role)
      if (*slots[role] == -1) reader.fail(std::string("missing label '") + roles[role] + "'");
    reader.setPosition(at + word.size());
  };
  labels("bf", {&dims.inputBatch, &dims.inputFeature}, dims.inputSpatial);
  if (!reader.accept('_')) reader.fail("expected '_' after the input labels");
  labels("io", {&dims.kernelInputFeature, &dims.kernelOutputFeature}, dims.kernelSpatial);
  reader.expect('-');
  reader.expect('>');
  labels("bf", {&dims.outputBatch, &dims.outputFeature}, dims.outputSpatial);
  reader.expectEnd();
  if (dims.kernelSpatial.size() != dims.inputSpatial.size() ||
      dims.outputSpatial.size() != dims.inputSpatial.size())
    reader.fail("input, kernel and output must have the same number of spatial dimensions");
  return dims;
}

std::string readComparisonDirection(const Attribute& attribute, std::string_view name) {
  ValueReader reader(attribute, name);
  std::string direction(reader.word());
  reader.expectEnd();
  for (std::string_view known : {"EQ", "NE", "LT", "LE", "GT", "GE"})
    if (direction == known) return direction;
  failInAttribute(attribute, name, 0, "expected one of EQ, NE, LT, LE, GT, GE");
}

std::vector<std::string_view> literalElements(std::string_view literal) {
  constexpr std::string_view kSeparators = "{}, \n\t\r";
  std::vector<std::string_view> elements;
  size_t at = literal.find_first_not_of(kSeparators);
  while (at != std::string_view::npos) {
    // A complex element is one: `(1.5, -2)`.
    size_t end =
        literal[at] == '(' ? literal.find(')', at) : literal.find_first_of(kSeparators, at);
    if (literal[at] == '(' && end != std::string_view::npos) ++end;
    elements.push_back(literal.substr(at, end == std::string_view::npos ? end : end - at));
    at = end == std::string_view::npos ? end : literal.find_first_not_of(kSeparators, end);
  }
  return elements;
}

}  // namespace idxmap::hlo
