"""Models of the built-in cases that are bigger than a few lines, built from torch.nn the way model libraries write
them (:mod:`harness.cases` registers them)."""
