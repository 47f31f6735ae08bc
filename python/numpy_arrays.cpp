#include "python/numpy_arrays.h"

namespace py = pybind11;

namespace idxmap::python {

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
  const bool integer = type.front() == 'i' || type.rfind("ui", 0) == 0;  // i1 too
  py::array values = integer ? py::array(py::array_t<int64_t>(array.shape, array.ints.data()))
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

}  // namespace idxmap::python
