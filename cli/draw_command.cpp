#include "cli/draw_command.h"

#include <sstream>

#include "cli/input.h"
#include "cli/output.h"
#include "draw/op_picture.h"
#include "draw/svg.h"
#include "ops/hlo/models/model.h"

namespace idxmap::cli {
namespace {

using draw::Index;

// "0,1;2,3" as points; Error naming the malformed one.
std::vector<Index> parsePoints(const std::string& text) {
  std::vector<Index> points;
  std::stringstream all(text);
  std::string one;
  while (std::getline(all, one, ';')) {
    Index point;
    std::stringstream coordinates(one);
    std::string c;
    while (std::getline(coordinates, c, ',')) {
      size_t used = 0;
      try {
        point.push_back(std::stoll(c, &used));
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || c.find_first_not_of(" \t", used) != std::string::npos)
        throw Error("--points: `" + one + "` is not a list of integers");
    }
    points.push_back(point);
  }
  return points;
}

nlohmann::ordered_json pictureJson(const draw::Picture& picture) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const draw::DrawnPoint& p : picture.points)
    points.push_back({{"point", p.point},
                      {"targets", p.targets},
                      {"runtime_unknown", p.runtimeUnknown},
                      {"clamped", p.clamped},
                      {"skipped", p.skipped},
                      {"undefined", p.undefined},
                      {"truncated", p.truncated}});
  return {{"source", {{"name", picture.source.name}, {"shape", picture.source.shape}}},
          {"target", {{"name", picture.target.name}, {"shape", picture.target.shape}}},
          {"points", points},
          {"collisions", picture.collisions}};
}

// HLO rather than maps: a .hlo name, or text that starts with `HloModule`.
bool isHlo(const Source& source) {
  if (source.name.size() > 4 && source.name.compare(source.name.size() - 4, 4, ".hlo") == 0)
    return true;
  size_t start = source.text.find_first_not_of(" \t\r\n");
  return start != std::string::npos && source.text.compare(start, 9, "HloModule") == 0;
}

draw::Picture mapPicture(const DrawOptions& options, const Source& input,
                         const std::vector<Index>& points) {
  std::vector<ParsedMap> maps = parseMaps(input.text, input.name);
  const size_t which = options.map.value_or(1);
  if (which < 1 || which > maps.size())
    throw Error("--map " + std::to_string(which) + ": the input has " +
                std::to_string(maps.size()) + " map" + (maps.size() == 1 ? "" : "s"));
  const IndexingMap& map = maps[which - 1].map;
  Index source;
  for (const Variable& d : map.dims) source.push_back(d.range.isEmpty() ? 0 : d.range.hi + 1);
  return draw::drawMap(map, {"in", source}, {"out", draw::resultShape(map)},
                       points.empty() ? draw::choosePoints(map, options.pointCount) : points);
}

// An option set for another kind of input than `kind` is a mistake worth saying, not ignoring.
void rejectOptionsOf(const DrawOptions& options, const std::string& kind) {
  auto reject = [&](bool set, const std::string& option, const std::string& appliesTo) {
    if (set) throw Error(option + " applies to " + appliesTo + ", and the input is " + kind);
  };
  reject(kind != "MLIR" && options.op.has_value(), "--op", "MLIR");
  reject(kind != "a .map file" && options.map.has_value(), "--map", "a .map file");
  reject(kind != "HLO" && options.instruction.has_value(), "--instruction", "HLO");
  reject(kind != "HLO" && options.operand.has_value(), "--operand", "HLO");
}

// A diagnostic located in the input, shown with its line and a caret.
[[noreturn]] void rethrowWithLine(const LocatedError& error, const Source& source) {
  throw LocatedError(error.location(), error.message(), sourceLine(source, error.location().line));
}

}  // namespace

CLI::App* addDrawCommand(CLI::App& app, DrawOptions& options) {
  CLI::App* command = app.add_subcommand(
      "draw", "Draw a map as SVG: which elements a few points reach (gather, scatter, any map)");
  command->add_option("input", options.input, "A .map file or StableHLO MLIR; - or none: stdin")
      ->type_name("FILE|-");
  command->add_option("-o,--output", options.output, "The SVG file to write (default: stdout)")
      ->type_name("FILE");
  command
      ->add_option("--op", options.op,
                   "MLIR: the N-th gather or scatter (stablehlo, tensor, tcp forms; default 1)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command->add_option("--map", options.map, "A .map file: the N-th map (default 1)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--instruction", options.instruction,
                   "HLO: the instruction whose result -> operand map is drawn (default: the "
                   "ENTRY computation's ROOT)")
      ->type_name("NAME");
  command->add_option("--operand", options.operand, "HLO: which operand (default 0)")
      ->type_name("K");
  command
      ->add_option("--points", options.points,
                   "The points to draw, coordinates by commas, points by semicolons: '0,1;2,3' "
                   "(default: the corners, the middle and a few between)")
      ->type_name("POINTS");
  command->add_option("--count", options.pointCount, "How many points to choose (default 6)")
      ->type_name("N")
      ->check(CLI::Range(1, 10));
  command->add_flag(
      "--json", options.json,
      "Print the drawn pairs on stdout: {source, target, points: [{point, targets, "
      "runtime_unknown, clamped, skipped, undefined, truncated}], collisions}; the SVG goes "
      "to -o");
  command->footer(R"(Each tensor is a grid of cells (the last two dims; higher ranks as 2-D slices
side by side); dims longer than 10 show their ends and the indices the points use. Point i and
the elements it reaches share a colour; range variables fan out to every element; start
indices the file fixes (constants, iotas) are followed, clamped starts, skipped updates and
out-of-range indices of forms that leave them undefined (tensor.gather, tcp.gather) said in
the legend, and unknown ones drawn as the lighter region they could reach. An element two
points reach has a red border and the colours of both.

Examples:
  idxmap draw examples/gather.mlir -o gather.svg
  idxmap draw examples/softmax.hlo --instruction f --operand 0 -o fusion.svg
  idxmap draw examples/reshape_roundtrip.map --points '0,0,0;9,9,9' -o map.svg)");
  return command;
}

ExitCode runDraw(const DrawOptions& options, std::ostream& out, std::ostream& diagnostics) {
  std::vector<Index> points = parsePoints(options.points);
  Source source = readSource(options.input);
  draw::Picture picture;
  try {
    if (isMlir(source)) {
      rejectOptionsOf(options, "MLIR");
      mlir_ir::Module module = mlir_ir::parseMlirModule(source.text, source.name);
      picture = draw::drawMlirOp(module, options.op.value_or(1), points, options.pointCount);
    } else if (isHlo(source)) {
      rejectOptionsOf(options, "HLO");
      hlo::Module module = readHloModule(source.text, source.name);
      picture = draw::drawHloInstruction(
          findInstruction(module, options.instruction.value_or(""), source.name),
          options.operand.value_or(0), points, options.pointCount);
    } else {
      rejectOptionsOf(options, "a .map file");
      picture = mapPicture(options, source, points);
    }
  } catch (const ParseError&) {
    throw;  // already shows its line
  } catch (const LocatedError& error) {
    rethrowWithLine(error, source);
  }
  if (!writeOutput(options.output, options.json, draw::renderSvg(picture), out, diagnostics))
    return kInvalidInput;
  if (options.json) writeJson(out, pictureJson(picture));
  return kSuccess;
}

}  // namespace idxmap::cli
