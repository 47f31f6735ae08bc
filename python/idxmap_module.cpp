// The Python module idxmap._idxmap (python/idxmap/__init__.py re-exports it): the public API
// (include/idxmap/idxmap.h) with maps as objects. Expressions built from Python live in the
// process's table (no ExprContext): a Python object may outlive any scope.
//
// Every call into the library runs with the GIL released (the library is thread-safe: README,
// "Threads"): Python objects are converted to C++ values before, and results back after, so
// proofs and compiles on several Python threads run at once.
#include <idxmap/idxmap.h>
#include <pybind11/numpy.h>
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

// A NumPy array (or anything numpy.asarray takes) as the API's Array: its dtype's element type
// (bool -> i1, intN -> iN, uintN -> uiN, floatN -> fN), the values copied row-major.
Array toArray(const py::handle& value) {
  py::array array = py::module_::import("numpy").attr("asarray")(value);
  const py::dtype dtype = array.dtype();
  const std::string bits = std::to_string(dtype.itemsize() * 8);
  Array out;
  for (py::ssize_t d = 0; d < array.ndim(); ++d) out.shape.push_back(array.shape(d));
  auto ints = [&] {
    auto values = py::array_t<int64_t, py::array::c_style | py::array::forcecast>(array);
    out.ints.assign(values.data(), values.data() + values.size());
  };
  switch (dtype.kind()) {
    case 'b':
      out.elementType = "i1";
      ints();
      return out;
    case 'i':
      out.elementType = "i" + bits;
      ints();
      return out;
    case 'u': {
      out.elementType = "ui" + bits;
      if (bits == "64") {  // past INT64_MAX an int64 would wrap: refused instead
        auto values = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>(array);
        for (py::ssize_t i = 0; i < values.size(); ++i) {
          if (values.data()[i] > static_cast<uint64_t>(INT64_MAX))
            throw ApiError("error: a uint64 value past 2^63 - 1 is not supported",
                           "a uint64 value past 2^63 - 1 is not supported");
          out.ints.push_back(static_cast<int64_t>(values.data()[i]));
        }
        return out;
      }
      ints();
      return out;
    }
    case 'f': {
      out.elementType = "f" + bits;
      auto values = py::array_t<double, py::array::c_style | py::array::forcecast>(array);
      out.floats.assign(values.data(), values.data() + values.size());
      return out;
    }
    default:
      break;
  }
  const std::string name = py::str(py::object(dtype)).cast<std::string>();
  throw ApiError("error: arrays of dtype " + name + " are not supported",
                 "arrays of dtype " + name + " are not supported");
}

// The NumPy array of an Array: its element type's dtype (bf16, which NumPy lacks, as float32:
// every bf16 value is one).
py::array toNumpy(const Array& array) {
  const std::string& type = array.elementType;
  std::string dtype = type == "i1"               ? "bool"
                      : type.rfind("ui", 0) == 0 ? "uint" + type.substr(2)
                      : type.front() == 'i'      ? "int" + type.substr(1)
                      : type == "bf16"           ? "float32"
                                                 : "float" + type.substr(1);
  py::object numpy = py::module_::import("numpy");
  py::array values = array.floats.empty() && !array.ints.empty()
                         ? py::array(py::array_t<int64_t>(array.shape, array.ints.data()))
                         : py::array(py::array_t<double>(array.shape, array.floats.data()));
  return values.attr("astype")(numpy.attr("dtype")(dtype));
}

Engine engineNamed(const std::string& name) {
  if (name == "reference") return Engine::kReference;
  if (name == "maps") return Engine::kMaps;
  if (name == "kernel") return Engine::kKernel;
  if (name == "cuda") return Engine::kCuda;
  throw ApiError("error: unknown engine '" + name + "' (reference, maps, kernel or cuda)",
                 "unknown engine '" + name + "' (reference, maps, kernel or cuda)");
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
          Unlocked())
      .def(
          "run",
          [](const Program& program, const py::args& arrays, const std::string& engine,
             const std::string& function) -> py::object {
            std::vector<Array> arguments;
            for (const py::handle& array : arrays) arguments.push_back(toArray(array));
            const Engine how = engineNamed(engine);
            std::vector<Array> results;
            {
              py::gil_scoped_release unlocked;
              results = runProgram(program, arguments, how, function);
            }
            if (results.size() == 1) return toNumpy(results[0]);
            py::tuple out(results.size());
            for (size_t i = 0; i < results.size(); ++i) out[i] = toNumpy(results[i]);
            return out;
          },
          py::kw_only(), py::arg("engine") = "reference", py::arg("function") = "main",
          "Runs a function of an MLIR program on NumPy arrays (copied in and out): one result as "
          "an array, several as a tuple. engine: reference | maps | kernel | cuda.");

  m.def("read_program", &readProgramFile, py::arg("path"), Unlocked());
  m.def("prove_programs_equal", &proveProgramsEqual, py::arg("first"), py::arg("second"),
        py::arg("function") = "main", py::arg("other") = "", py::arg("timeout_ms") = 20000,
        Unlocked());
}
