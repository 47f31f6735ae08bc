// Loops, branches, calls and composites in their pretty and generic forms.
func.func @pretty_while() {
  // Sum of 0..9 = 45, with the counter carried along.
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %w:2 = stablehlo.while(%iterArg = %zero, %sum = %zero) : tensor<i64>, tensor<i64>
   cond {
    %c = stablehlo.compare  LT, %iterArg, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %iterArg, %one : tensor<i64>
    %s = stablehlo.add %sum, %iterArg : tensor<i64>
    stablehlo.return %n, %s : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %w#0, dense<10> : tensor<i64>
  check.expect_eq_const %w#1, dense<45> : tensor<i64>
  func.return
}

// -----

func.func @generic_while_and_if() {
  // Doubling 1 until it passes 100: 128.
  %one = stablehlo.constant dense<1> : tensor<i32>
  %limit = stablehlo.constant dense<100> : tensor<i32>
  %r = "stablehlo.while"(%one) ({
    ^bb0(%x: tensor<i32>):
      %c = stablehlo.compare LE, %x, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<i32>):
      %d = stablehlo.add %x, %x : tensor<i32>
      stablehlo.return %d : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %r, dense<128> : tensor<i32>
  %big = stablehlo.compare GT, %r, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %picked = "stablehlo.if"(%big) ({
    stablehlo.return %r : tensor<i32>
  }, {
    stablehlo.return %limit : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %picked, dense<128> : tensor<i32>
  func.return
}

// -----

func.func private @plus_two(%x: tensor<2xi64>) -> tensor<2xi64> {
  %two = stablehlo.constant dense<2> : tensor<2xi64>
  %y = stablehlo.add %x, %two : tensor<2xi64>
  func.return %y : tensor<2xi64>
}

func.func @case_call_composite() {
  %x = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %c = stablehlo.composite "my.plus_two" %x {
    composite_attributes = {n = 2 : i64},
    decomposition = @plus_two
  } : (tensor<2xi64>) -> tensor<2xi64>
  check.expect_eq_const %c, dense<[3, 1]> : tensor<2xi64>
  %d = call @plus_two(%c) : (tensor<2xi64>) -> tensor<2xi64>
  check.expect_eq_const %d, dense<[5, 3]> : tensor<2xi64>
  // An index past the last branch takes the last.
  %index = stablehlo.constant dense<7> : tensor<i32>
  %e = "stablehlo.case"(%index) ({
    stablehlo.return %x : tensor<2xi64>
  }, {
    stablehlo.return %d : tensor<2xi64>
  }) : (tensor<i32>) -> tensor<2xi64>
  check.expect_eq_const %e, dense<[5, 3]> : tensor<2xi64>
  func.return
}
