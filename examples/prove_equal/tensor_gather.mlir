// tensor.gather (spec 001): @coordinates reads the element at each triple of coordinates
// (the implicit gather_dims([0, 1, 2])); @slices keeps whole slices along dim 1 and gathers
// along dims 0 and 2 (spec 001's gather_along_dimensions(0, 2), rank-reducing).
func.func @coordinates(%input: tensor<4x4x4xf32>, %indices: tensor<1x2x3xi64>) -> tensor<1x2xf32> {
  %out = tensor.gather %input[%indices] gather_dims([0, 1, 2]) :
      (tensor<4x4x4xf32>, tensor<1x2x3xi64>) -> tensor<1x2xf32>
  func.return %out : tensor<1x2xf32>
}

func.func @slices(%input: tensor<2x3x4xf32>, %indices: tensor<2x3x2xi64>) -> tensor<2x3x3xf32> {
  %out = tensor.gather %input[%indices] gather_dims([0, 2]) :
      (tensor<2x3x4xf32>, tensor<2x3x2xi64>) -> tensor<2x3x3xf32>
  func.return %out : tensor<2x3x3xf32>
}

// tensor.scatter: whole rows of %source inserted into %dest at the rows %indices name
// (`unique`, as tensor.scatter requires).
func.func @rows(%source: tensor<3x1x5xf32>, %dest: tensor<4x5xf32>, %indices: tensor<3x1xi64>)
    -> tensor<4x5xf32> {
  %out = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique :
      (tensor<3x1x5xf32>, tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<4x5xf32>
  func.return %out : tensor<4x5xf32>
}
