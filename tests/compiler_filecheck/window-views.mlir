// RUN: python -m compiler.replay window-views --target t1-small --no-locations %s | filecheck %s
// Conv2d(2, 3, 3, bias=False) on 1x2x6x6 (conv2d_flat: 18 im2col rows of 24): the row copies
// go, the matmul reads a [ic, kh, kw, oh*w] view of the padded input with strides
// [42, 6, 1, 1], the filters as [3, 2, 3, 3], and writes its [3, 4, 6] output as [3, 24].

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   memref.global
// CHECK:       %[[PAD:.+]] = memref.alloca() {{.*}} : memref<1x2x7x6xf32>
// CHECK-NOT:   ins(%{{.+}} : memref<24xf32
// CHECK:       %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1, 2]] : memref<3x4x6xf32> into memref<3x24xf32>
// CHECK:       %[[VIEW:.+]] = memref.reinterpret_cast %[[PAD]] to offset: [0], sizes: [2, 3, 3, 24], strides: [42, 6, 1, 1]
// CHECK:       %[[W:.+]] = memref.expand_shape %arg0 {{\[\[}}0], [1, 2, 3]] output_shape [3, 2, 3, 3]
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[W]], %[[VIEW]] : {{.*}} outs(%[[OUT]] :
// CHECK-NOT:   memref.get_global

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  memref.global "private" @__cosim_tmp0 : memref<432xf32> = uninitialized {alignment = 64 : i64}
  func.func @forward(%arg0: memref<3x18xf32> {llvm.noalias}, %arg1: memref<1x2x6x6xf32> {llvm.noalias}, %arg2: memref<1x3x4x4xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<1x2x7x6xf32>
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%alloca : memref<1x2x7x6xf32>) {
    ^bb0(%out: f32):
      linalg.yield %cst : f32
    }
    %subview = memref.subview %alloca[0, 0, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x7x6xf32> to memref<1x2x6x6xf32, strided<[84, 42, 6, 1]>>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : memref<1x2x6x6xf32>) outs(%subview : memref<1x2x6x6xf32, strided<[84, 42, 6, 1]>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %collapse_shape = memref.collapse_shape %alloca [[0, 1], [2, 3]] : memref<1x2x7x6xf32> into memref<2x42xf32>
    %subview_0 = memref.subview %collapse_shape[0, 0] [1, 42] [1, 1] : memref<2x42xf32> to memref<1x42xf32, strided<[42, 1]>>
    %collapse_shape_1 = memref.collapse_shape %subview_0 [[0, 1]] : memref<1x42xf32, strided<[42, 1]>> into memref<42xf32, strided<[1]>>
    %subview_2 = memref.subview %collapse_shape_1[0] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1]>>
    %subview_3 = memref.subview %collapse_shape_1[1] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 1>>
    %subview_4 = memref.subview %collapse_shape_1[2] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 2>>
    %subview_5 = memref.subview %collapse_shape_1[6] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 6>>
    %subview_6 = memref.subview %collapse_shape_1[7] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 7>>
    %subview_7 = memref.subview %collapse_shape_1[8] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 8>>
    %subview_8 = memref.subview %collapse_shape_1[12] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 12>>
    %subview_9 = memref.subview %collapse_shape_1[13] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 13>>
    %subview_10 = memref.subview %collapse_shape_1[14] [24] [1] : memref<42xf32, strided<[1]>> to memref<24xf32, strided<[1], offset: 14>>
    %subview_11 = memref.subview %collapse_shape[1, 0] [1, 42] [1, 1] : memref<2x42xf32> to memref<1x42xf32, strided<[42, 1], offset: 42>>
    %collapse_shape_12 = memref.collapse_shape %subview_11 [[0, 1]] : memref<1x42xf32, strided<[42, 1], offset: 42>> into memref<42xf32, strided<[1], offset: 42>>
    %subview_13 = memref.subview %collapse_shape_12[0] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 42>>
    %subview_14 = memref.subview %collapse_shape_12[1] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 43>>
    %subview_15 = memref.subview %collapse_shape_12[2] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 44>>
    %subview_16 = memref.subview %collapse_shape_12[6] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 48>>
    %subview_17 = memref.subview %collapse_shape_12[7] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 49>>
    %subview_18 = memref.subview %collapse_shape_12[8] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 50>>
    %subview_19 = memref.subview %collapse_shape_12[12] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 54>>
    %subview_20 = memref.subview %collapse_shape_12[13] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 55>>
    %subview_21 = memref.subview %collapse_shape_12[14] [24] [1] : memref<42xf32, strided<[1], offset: 42>> to memref<24xf32, strided<[1], offset: 56>>
    %0 = memref.get_global @__cosim_tmp0 : memref<432xf32>
    %subview_22 = memref.subview %0[0] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1]>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_2 : memref<24xf32, strided<[1]>>) outs(%subview_22 : memref<24xf32, strided<[1]>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_23 = memref.subview %0[24] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 24>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_3 : memref<24xf32, strided<[1], offset: 1>>) outs(%subview_23 : memref<24xf32, strided<[1], offset: 24>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_24 = memref.subview %0[48] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 48>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_4 : memref<24xf32, strided<[1], offset: 2>>) outs(%subview_24 : memref<24xf32, strided<[1], offset: 48>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_25 = memref.subview %0[72] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 72>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_5 : memref<24xf32, strided<[1], offset: 6>>) outs(%subview_25 : memref<24xf32, strided<[1], offset: 72>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_26 = memref.subview %0[96] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 96>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_6 : memref<24xf32, strided<[1], offset: 7>>) outs(%subview_26 : memref<24xf32, strided<[1], offset: 96>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_27 = memref.subview %0[120] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 120>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_7 : memref<24xf32, strided<[1], offset: 8>>) outs(%subview_27 : memref<24xf32, strided<[1], offset: 120>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_28 = memref.subview %0[144] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 144>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_8 : memref<24xf32, strided<[1], offset: 12>>) outs(%subview_28 : memref<24xf32, strided<[1], offset: 144>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_29 = memref.subview %0[168] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 168>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_9 : memref<24xf32, strided<[1], offset: 13>>) outs(%subview_29 : memref<24xf32, strided<[1], offset: 168>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_30 = memref.subview %0[192] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 192>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_10 : memref<24xf32, strided<[1], offset: 14>>) outs(%subview_30 : memref<24xf32, strided<[1], offset: 192>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_31 = memref.subview %0[216] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 216>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_13 : memref<24xf32, strided<[1], offset: 42>>) outs(%subview_31 : memref<24xf32, strided<[1], offset: 216>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_32 = memref.subview %0[240] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 240>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_14 : memref<24xf32, strided<[1], offset: 43>>) outs(%subview_32 : memref<24xf32, strided<[1], offset: 240>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_33 = memref.subview %0[264] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 264>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_15 : memref<24xf32, strided<[1], offset: 44>>) outs(%subview_33 : memref<24xf32, strided<[1], offset: 264>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_34 = memref.subview %0[288] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 288>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_16 : memref<24xf32, strided<[1], offset: 48>>) outs(%subview_34 : memref<24xf32, strided<[1], offset: 288>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_35 = memref.subview %0[312] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 312>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_17 : memref<24xf32, strided<[1], offset: 49>>) outs(%subview_35 : memref<24xf32, strided<[1], offset: 312>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_36 = memref.subview %0[336] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 336>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_18 : memref<24xf32, strided<[1], offset: 50>>) outs(%subview_36 : memref<24xf32, strided<[1], offset: 336>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_37 = memref.subview %0[360] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 360>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_19 : memref<24xf32, strided<[1], offset: 54>>) outs(%subview_37 : memref<24xf32, strided<[1], offset: 360>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_38 = memref.subview %0[384] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 384>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_20 : memref<24xf32, strided<[1], offset: 55>>) outs(%subview_38 : memref<24xf32, strided<[1], offset: 384>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %subview_39 = memref.subview %0[408] [24] [1] : memref<432xf32> to memref<24xf32, strided<[1], offset: 408>>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%subview_21 : memref<24xf32, strided<[1], offset: 56>>) outs(%subview_39 : memref<24xf32, strided<[1], offset: 408>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloca_40 = memref.alloca() {alignment = 64 : i64} : memref<3x24xf32>
    %expand_shape = memref.expand_shape %alloca_40 [[0], [1, 2]] output_shape [3, 4, 6] : memref<3x24xf32> into memref<3x4x6xf32>
    linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%expand_shape : memref<3x4x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %expand_shape_41 = memref.expand_shape %0 [[0, 1, 2]] output_shape [18, 4, 6] : memref<432xf32> into memref<18x4x6xf32>
    linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %expand_shape_41 : memref<3x18xf32>, memref<18x4x6xf32>) outs(%expand_shape : memref<3x4x6xf32>) {
    ^bb0(%in: f32, %in_44: f32, %out: f32):
      %1 = arith.mulf %in, %in_44 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %subview_42 = memref.subview %expand_shape[0, 0, 0] [3, 4, 4] [1, 1, 1] : memref<3x4x6xf32> to memref<3x4x4xf32, strided<[24, 6, 1]>>
    %expand_shape_43 = memref.expand_shape %subview_42 [[0, 1], [2], [3]] output_shape [1, 3, 4, 4] : memref<3x4x4xf32, strided<[24, 6, 1]>> into memref<1x3x4x4xf32, strided<[72, 24, 6, 1]>>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_43 : memref<1x3x4x4xf32, strided<[72, 24, 6, 1]>>) outs(%arg2 : memref<1x3x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    return
  }
}
