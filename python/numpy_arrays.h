// NumPy arrays in and out of the API's Array (Program.run): the dtypes, the values copied.
#pragma once

#include <idxmap/idxmap.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace idxmap::python {

// A NumPy array (or anything numpy.asarray takes) as an Array: its dtype's element type
// (bool -> i1, intN -> iN, uintN -> uiN, floatN -> fN). ApiError for another dtype, and for a
// uint64 value past 2^63 - 1.
Array toArray(const pybind11::handle& value);
// The NumPy array of an Array: its element type's dtype (bf16, which NumPy lacks, as float32:
// every bf16 value is one).
pybind11::array toNumpy(const Array& array);
// "reference", "maps", "kernel", "cuda"; ApiError for another name.
Engine engineNamed(const std::string& name);

}  // namespace idxmap::python
