// The Python module idxmap._idxmap (python/idxmap/__init__.py re-exports it): the public API
// (include/idxmap/idxmap.h) with maps as objects.
//
// Memory: a Python Map holds its map as text, never expression nodes. Every call builds its
// nodes in an ExprContext of its own (`scoped`) and turns what it returns into text, numbers
// or verdicts before the context frees them: nothing a Python object holds can dangle, and
// nothing accumulates in the process's table however many distinct maps a session sees
// (tests/test_memory.py). Parsing a map's text again costs microseconds against the calls.
//
// Every call into the library runs with the GIL released (the library is thread-safe: README,
// "Threads"): Python objects are converted to C++ values before, and results back after, so
// proofs and compiles on several Python threads run at once.
#include <idxmap/idxmap.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "python/numpy_arrays.h"

namespace py = pybind11;
using Unlocked = py::call_guard<py::gil_scoped_release>;

namespace idxmap {
namespace {

// A map as Python holds it: its text in idxmap's notation, which parses back to the same map.
struct StoredMap {
  std::string text;
};

// Runs `body` with its expression nodes built in a context of its own, freed when it returns:
// `body` returns text, numbers or verdicts, never nodes.
template <typename Body>
auto scoped(Body&& body) {
  ExprContext context;
  ExprContext::Use use(context);
  return std::forward<Body>(body)();
}

StoredMap stored(const IndexingMap& map) { return {printMap(map)}; }

// The text of a Map or of a string (read under the GIL, parsed later in a scope).
std::string textOf(const py::object& value) {
  if (py::isinstance<StoredMap>(value)) return value.cast<const StoredMap&>().text;
  return value.cast<std::string>();
}

// What `body` gives for the parsed maps, in a scope, with the GIL released.
template <typename Body>
auto withMaps(const std::vector<std::string>& texts, Body&& body) {
  py::gil_scoped_release unlocked;
  return scoped([&] {
    std::vector<IndexingMap> maps;
    for (const std::string& text : texts) maps.push_back(parseMap(text));
    return body(maps);
  });
}

// One op's maps, as text (op_maps' entries).
struct StoredOpMaps {
  OpMaps op;  // its maps' `map` left empty
  std::vector<std::optional<StoredMap>> maps;
};

py::dict opMapsDict(const StoredOpMaps& stored) {
  py::list maps;
  for (size_t k = 0; k < stored.op.maps.size(); ++k) {
    const OpMap& map = stored.op.maps[k];
    py::dict entry;
    entry["from"] = map.from;
    entry["to"] = map.to;
    entry["map"] = stored.maps[k] ? py::cast(*stored.maps[k]) : py::none();
    entry["isl"] = map.isl;
    entry["unknown"] = map.unknown;
    maps.append(entry);
  }
  py::dict out;
  out["op"] = stored.op.op;
  out["name"] = stored.op.name;
  out["location"] = stored.op.location;
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
      .def_property_readonly("witness",
                             [](const ProofResult& r) -> py::object {
                               // Argument values that break a condition on the arguments,
                               // replayed by the interpreter: what they show.
                               if (!r.witness || !r.witness->replayed) return py::none();
                               return py::str(r.witness->explanation);
                             })
      .def_property_readonly("proven", &ProofResult::isProven)
      .def_property_readonly("refuted", &ProofResult::isRefuted)
      .def("__bool__", &ProofResult::isProven)
      .def("__str__", &proofText)
      .def("__repr__", [](const ProofResult& r) { return "<ProofResult " + proofText(r) + ">"; });

  py::class_<StoredMap>(m, "Map", "An indexing map: variables with ranges, results, constraints")
      .def(py::init([](const std::string& text) {
             return withMaps({text}, [](const auto& maps) { return stored(maps[0]); });
           }),
           py::arg("text"),
           "Parses one map in any form: XLA / idxmap, MLIR affine_map with a domain, isl.")
      .def("__str__", [](const StoredMap& map) { return map.text; })
      .def("__repr__",
           [](const StoredMap& map) {
             return "Map(" + py::repr(py::str(map.text)).cast<std::string>() + ")";
           })
      .def("to_isl",
           [](const StoredMap& map) {
             return withMaps({map.text},
                             [](const auto& maps) { return printMap(maps[0], Notation::kIsl); });
           })
      .def("to_xla",
           [](const StoredMap& map) {
             return withMaps({map.text},
                             [](const auto& maps) { return printMap(maps[0], Notation::kXla); });
           })
      .def(
          "simplify",
          [](const StoredMap& map) {
            return withMaps({map.text},
                            [](const auto& maps) { return stored(simplifyMap(maps[0])); });
          },
          "The same relation with simplified expressions.")
      .def(
          "compose",
          [](const StoredMap& self, const py::object& then) {
            return withMaps({self.text, textOf(then)},
                            [](const auto& maps) { return stored(composeMaps(maps[0], maps[1])); });
          },
          py::arg("then"), "This map, then `then` (its dims are this map's results).")
      .def(
          "prove_equal",
          [](const StoredMap& self, const py::object& other, unsigned timeoutMs) {
            return withMaps({self.text, textOf(other)}, [&](const auto& maps) {
              return proveMapsEqual(maps[0], maps[1], timeoutMs);
            });
          },
          py::arg("other"), py::arg("timeout_ms") = 10000)
      .def_property_readonly(
          "dim_count",
          [](const StoredMap& map) {
            return withMaps({map.text}, [](const auto& maps) { return maps[0].dims.size(); });
          })
      .def_property_readonly("result_count", [](const StoredMap& map) {
        return withMaps({map.text}, [](const auto& maps) { return maps[0].results.size(); });
      });

  m.def(
      "parse",
      [](const std::string& text) {
        return withMaps({text}, [](const auto& maps) { return stored(maps[0]); });
      },
      py::arg("text"));
  m.def(
      "parse_all",
      [](const std::string& text) {
        py::gil_scoped_release unlocked;
        return scoped([&] {
          std::vector<StoredMap> all;
          for (const IndexingMap& map : parseEveryMap(text)) all.push_back(stored(map));
          return all;
        });
      },
      py::arg("text"));
  m.def(
      "simplify",
      [](const py::object& map) {
        return withMaps({textOf(map)},
                        [](const auto& maps) { return stored(simplifyMap(maps[0])); });
      },
      py::arg("map"), "Simplifies a Map or a map's text; str() of the result prints it.");
  m.def(
      "compose",
      [](const py::object& first, const py::object& second) {
        return withMaps({textOf(first), textOf(second)},
                        [](const auto& maps) { return stored(composeMaps(maps[0], maps[1])); });
      },
      py::arg("first"), py::arg("second"));
  m.def(
      "prove_equal",
      [](const py::object& a, const py::object& b, unsigned timeoutMs) {
        return withMaps({textOf(a), textOf(b)}, [&](const auto& maps) {
          return proveMapsEqual(maps[0], maps[1], timeoutMs);
        });
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
             std::vector<StoredOpMaps> all;
             {
               py::gil_scoped_release unlocked;
               all = scoped([&] {
                 std::vector<StoredOpMaps> out;
                 for (OpMaps& op : opMaps(program)) {
                   StoredOpMaps entry;
                   for (OpMap& map : op.maps) {
                     entry.maps.push_back(map.map ? std::optional(stored(*map.map)) : std::nullopt);
                     map.map.reset();
                   }
                   entry.op = std::move(op);
                   out.push_back(std::move(entry));
                 }
                 return out;
               });
             }
             py::list ops;
             for (const StoredOpMaps& op : all) ops.append(opMapsDict(op));
             return ops;
           })
      .def(
          "properties",
          [](const Program& program, const std::vector<std::string>& assumptions) {
            std::vector<OpProperties> all;
            {
              py::gil_scoped_release unlocked;
              all = scoped([&] { return proveIndexProperties(program, assumptions); });
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
            return scoped([&] { return emitKernels(program, language(name), assumptions); });
          },
          py::arg("language") = "cpp", py::arg("assumptions") = std::vector<std::string>{},
          Unlocked())
      .def(
          "run",
          [](const Program& program, const py::args& arrays, const std::string& engine,
             const std::string& function) -> py::object {
            std::vector<Array> arguments;
            for (const py::handle& array : arrays) arguments.push_back(python::toArray(array));
            const Engine how = python::engineNamed(engine);
            std::vector<Array> results;
            {
              py::gil_scoped_release unlocked;
              results = scoped([&] { return runProgram(program, arguments, how, function); });
            }
            if (results.size() == 1) return python::toNumpy(results[0]);
            py::tuple out(results.size());
            for (size_t i = 0; i < results.size(); ++i) out[i] = python::toNumpy(results[i]);
            return out;
          },
          py::kw_only(), py::arg("engine") = "reference", py::arg("function") = "main",
          "Runs a function of an MLIR program on NumPy arrays (copied in and out): one result as "
          "an array, several as a tuple. engine: reference | maps | kernel | cuda.");

  m.def("read_program", &readProgramFile, py::arg("path"), Unlocked());
  m.def(
      "prove_programs_equal",
      [](const Program& first, const Program& second, const std::string& function,
         const std::string& other, unsigned timeoutMs) {
        return scoped(
            [&] { return proveProgramsEqual(first, second, function, other, timeoutMs); });
      },
      py::arg("first"), py::arg("second"), py::arg("function") = "main", py::arg("other") = "",
      py::arg("timeout_ms") = 20000, Unlocked());
}
