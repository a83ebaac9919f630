"""The RVV backend: the rewrites, tiling and register blocking of vector targets (:mod:`compiler.rvv.schedule`)."""
