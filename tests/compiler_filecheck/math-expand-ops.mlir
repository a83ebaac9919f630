// RUN: python -m compiler.replay math-expand-ops --target t1-small --no-locations %s | filecheck %s
// torch.tanh(x) of 4x8 after elementwise-fusion: MLIR's math-expand-ops writes tanh with exp
// (tanh(|x|) = (1 - e^-2|x|) / (1 + e^-2|x|), the sign restored); math-expansion then expands the exp.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   math.tanh
// CHECK:       ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK:       arith.cmpf olt, %[[X]], %{{.+}} : f32
// CHECK:       %[[E:.+]] = math.exp %{{.+}} : f32
// CHECK:       %[[NUM:.+]] = arith.subf %{{.+}}, %[[E]] : f32
// CHECK:       %[[DEN:.+]] = arith.addf %[[E]], %{{.+}} : f32
// CHECK:       arith.divf %[[NUM]], %[[DEN]] : f32
// CHECK-NOT:   math.tanh

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = math.tanh %in : f32
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
