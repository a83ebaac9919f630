"""Target-independent rewrites: elementwise fusion, math expansions, bufferization and its clean-ups."""
