"""Frontend: a PyTorch program (torch.export, torch-mlir's FX importer) or an MLIR file
to linalg-on-tensors, with the torch-level decompositions that keep eager PyTorch's
semantics (:mod:`compiler.frontend.torch_decompositions`)."""

from compiler.frontend.imported import Imported, TensorSpec
from compiler.frontend.importer import import_mlir_file, import_torch

__all__ = ["Imported", "TensorSpec", "import_mlir_file", "import_torch"]
