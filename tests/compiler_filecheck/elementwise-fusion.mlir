// RUN: python -m compiler.replay elementwise-fusion --target t1-small --no-locations %s | filecheck %s
// torch.relu(x + 1.0) of 4x8 as imported (locations dropped): the add, relu's compare and its select
// (three linalg.generic on tensors) are fused into one generic whose body does all three.

// CHECK-LABEL: func.func @forward
// CHECK:       linalg.generic
// CHECK:         %[[A:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:    %[[N:.+]] = arith.cmpf olt, %[[A]], %{{.+}} : f32
// CHECK-NEXT:    %[[R:.+]] = arith.select %[[N]], %{{.+}}, %[[A]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %cst_0 : f32
      linalg.yield %5 : f32
    } -> tensor<4x8xf32>
    %2 = tensor.empty() : tensor<4x8xi1>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%2 : tensor<4x8xi1>) {
    ^bb0(%in: f32, %out: i1):
      %5 = arith.cmpf olt, %in, %cst_1 : f32
      linalg.yield %5 : i1
    } -> tensor<4x8xi1>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst, %1 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: i1, %in_2: f32, %in_3: f32, %out: f32):
      %5 = arith.select %in, %in_2, %in_3 : f32
      linalg.yield %5 : f32
    } -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
}
