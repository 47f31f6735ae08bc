// The Python module idxmap._idxmap (python/idxmap/__init__.py re-exports it): the public API
// (include/idxmap/idxmap.h) with maps as objects. Expressions built from Python live in the
// process's table (no ExprContext): a Python object may outlive any scope.
//
// Every call into the library runs with the GIL released (the library is thread-safe: README,
// "Threads"): Python objects are converted to C++ values before, and results back after, so
// proofs and compiles on several Python threads run at once.
#include <idxmap/idxmap.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <sstream>

namespace py = pybind11;
using Unlocked = py::call_guard<py::gil_scoped_release>;

namespace idxmap {
namespace {

IndexingMap toMap(const py::object& value) {
  if (py::isinstance<IndexingMap>(value)) return value.cast<IndexingMap>();
  return parseMap(value.cast<std::string>());
}

py::dict opMapsDict(const OpMaps& op) {
  py::list maps;
  for (const OpMap& map : op.maps) {
    py::dict entry;
    entry["from"] = map.from;
    entry["to"] = map.to;
    entry["map"] = map.map ? py::cast(*map.map) : py::none();
    entry["isl"] = map.isl;
    entry["unknown"] = map.unknown;
    maps.append(entry);
  }
  py::dict out;
  out["op"] = op.op;
  out["name"] = op.name;
  out["location"] = op.location;
  out["maps"] = maps;
  return out;
}

py::dict propertiesDict(const OpProperties& op) {
  py::dict out;
  out["op"] = op.op;
  out["location"] = op.location;
  out["unique"] = op.unique ? py::cast(*op.unique) : py::none();
  out["sorted"] = op.sorted;
  out["in_bounds"] = op.inBounds;
  out["int32_safe"] = op.int32Safe;
  out["indices"] = op.indices;
  return out;
}

std::string proofText(const ProofResult& result) {
  std::string text = verdictName(result.verdict);
  if (!result.method.empty()) text += " (" + result.method + ")";
  if (result.counterexample) text += ": " + result.counterexample->explanation;
  if (!result.reason.empty()) text += ": " + result.reason;
  return text;
}

Program readProgramFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ApiError("error: cannot read " + path, "cannot read " + path, path);
  std::stringstream text;
  text << in.rdbuf();
  return readProgram(text.str(), path);
}

KernelLanguage language(const std::string& name) {
  if (name == "cpp") return KernelLanguage::kCpp;
  if (name == "cuda") return KernelLanguage::kCuda;
  throw ApiError("error: unknown kernel language '" + name + "' (cpp or cuda)",
                 "unknown kernel language '" + name + "' (cpp or cuda)");
}

}  // namespace
}  // namespace idxmap

PYBIND11_MODULE(_idxmap, m) {
  using namespace idxmap;
  m.doc() = "idxmap's native module; use `import idxmap`.";

  // ApiError -> idxmap.Error(diagnostic, message, file, line, column).
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const ApiError& error) {
      py::object type = py::module_::import("idxmap").attr("Error");
      py::object instance =
          type(error.what(), error.message(), error.file(), error.line(), error.column());
      PyErr_SetObject(type.ptr(), instance.ptr());
    }
  });

  py::class_<ProofResult>(m, "ProofResult",
                          "proven (with a method), refuted (with a replayed counterexample) "
                          "or unknown (with a reason)")
      .def_property_readonly("verdict", [](const ProofResult& r) { return verdictName(r.verdict); })
      .def_readonly("method", &ProofResult::method)
      .def_readonly("reason", &ProofResult::reason)
      .def_readonly("condition", &ProofResult::condition)
      .def_readonly("condition_on", &ProofResult::conditionOn)
      .def_readonly("assumptions", &ProofResult::assumptions)
      .def_property_readonly("counterexample",
                             [](const ProofResult& r) -> py::object {
                               if (!r.counterexample) return py::none();
                               return py::str(r.counterexample->explanation);
                             })
      .def_property_readonly("proven", &ProofResult::isProven)
      .def_property_readonly("refuted", &ProofResult::isRefuted)
      .def("__bool__", &ProofResult::isProven)
      .def("__str__", &proofText)
      .def("__repr__", [](const ProofResult& r) { return "<ProofResult " + proofText(r) + ">"; });

  py::class_<IndexingMap>(m, "Map", "An indexing map: variables with ranges, results, constraints")
      .def(py::init([](const std::string& text) { return parseMap(text); }), py::arg("text"),
           Unlocked(),
           "Parses one map in any form: XLA / idxmap, MLIR affine_map with a domain, isl.")
      .def("__str__", [](const IndexingMap& map) { return printMap(map); })
      .def("__repr__",
           [](const IndexingMap& map) {
             return "Map(" + py::repr(py::str(printMap(map))).cast<std::string>() + ")";
           })
      .def("to_isl", [](const IndexingMap& map) { return printMap(map, Notation::kIsl); })
      .def("to_xla", [](const IndexingMap& map) { return printMap(map, Notation::kXla); })
      .def("simplify", &simplifyMap, Unlocked(), "The same relation with simplified expressions.")
      .def(
          "compose",
          [](const IndexingMap& self, const py::object& then) {
            const IndexingMap second = toMap(then);
            py::gil_scoped_release unlocked;
            return composeMaps(self, second);
          },
          py::arg("then"), "This map, then `then` (its dims are this map's results).")
      .def(
          "prove_equal",
          [](const IndexingMap& self, const py::object& other, unsigned timeoutMs) {
            const IndexingMap second = toMap(other);
            py::gil_scoped_release unlocked;
            return proveMapsEqual(self, second, timeoutMs);
          },
          py::arg("other"), py::arg("timeout_ms") = 10000)
      .def_property_readonly("dim_count", [](const IndexingMap& map) { return map.dims.size(); })
      .def_property_readonly("result_count",
                             [](const IndexingMap& map) { return map.results.size(); });

  m.def(
      "parse", [](const std::string& text) { return parseMap(text); }, py::arg("text"), Unlocked());
  m.def(
      "parse_all", [](const std::string& text) { return parseEveryMap(text); }, py::arg("text"),
      Unlocked());
  m.def(
      "simplify",
      [](const py::object& map) {
        const IndexingMap parsed = toMap(map);
        py::gil_scoped_release unlocked;
        return simplifyMap(parsed);
      },
      py::arg("map"), "Simplifies a Map or a map's text; str() of the result prints it.");
  m.def(
      "compose",
      [](const py::object& first, const py::object& second) {
        const IndexingMap a = toMap(first), b = toMap(second);
        py::gil_scoped_release unlocked;
        return composeMaps(a, b);
      },
      py::arg("first"), py::arg("second"));
  m.def(
      "prove_equal",
      [](const py::object& a, const py::object& b, unsigned timeoutMs) {
        const IndexingMap first = toMap(a), second = toMap(b);
        py::gil_scoped_release unlocked;
        return proveMapsEqual(first, second, timeoutMs);
      },
      py::arg("a"), py::arg("b"), py::arg("timeout_ms") = 10000);

  py::class_<Program>(m, "Program", "An HLO or MLIR module")
      .def(py::init([](const std::string& text, const std::string& file) {
             return readProgram(text, file);
           }),
           py::arg("text"), py::arg("file") = "<input>", Unlocked())
      .def_property_readonly("is_hlo", &Program::isHlo)
      .def_property_readonly("file", &Program::file)
      .def("op_maps",
           [](const Program& program) {
             std::vector<OpMaps> all;
             {
               py::gil_scoped_release unlocked;
               all = opMaps(program);
             }
             py::list ops;
             for (const OpMaps& op : all) ops.append(opMapsDict(op));
             return ops;
           })
      .def(
          "properties",
          [](const Program& program, const std::vector<std::string>& assumptions) {
            std::vector<OpProperties> all;
            {
              py::gil_scoped_release unlocked;
              all = proveIndexProperties(program, assumptions);
            }
            py::list ops;
            for (const OpProperties& op : all) ops.append(propertiesDict(op));
            return ops;
          },
          py::arg("assumptions") = std::vector<std::string>{})
      .def(
          "emit",
          [](const Program& program, const std::string& name,
             const std::vector<std::string>& assumptions) {
            return emitKernels(program, language(name), assumptions);
          },
          py::arg("language") = "cpp", py::arg("assumptions") = std::vector<std::string>{},
          Unlocked());

  m.def("read_program", &readProgramFile, py::arg("path"), Unlocked());
  m.def("prove_programs_equal", &proveProgramsEqual, py::arg("first"), py::arg("second"),
        py::arg("function") = "main", py::arg("other") = "", py::arg("timeout_ms") = 20000,
        Unlocked());
}
