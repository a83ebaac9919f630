// RUN: python -m compiler.replay math-expansion --target t1-small --no-locations %s | filecheck %s
// torch.exp(x) of 4x8 after math-expand-ops: math.exp becomes f32 arith (Cody-Waite range reduction
// by ln 2, a degree-7 polynomial, 2^k built as two normal factors from exponent bits; NaN in, NaN out).

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   math.exp
// CHECK:       ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK:       %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:       arith.constant 1.44269502 : f32
// CHECK:       %[[K:.+]] = arith.fptosi %{{.+}} : f32 to i32
// CHECK:       arith.shrsi %[[K]], %{{.+}} : i32
// CHECK:       arith.shli %{{.+}}, %{{.+}} : i32
// CHECK:       arith.bitcast %{{.+}} : i32 to f32
// CHECK:       arith.bitcast %{{.+}} : i32 to f32
// CHECK:       %[[R:.+]] = arith.select %[[NAN]], %[[X]], %{{.+}} : f32
// CHECK-NEXT:  linalg.yield %[[R]] : f32
// CHECK-NOT:   math.exp

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = math.exp %in : f32
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
