"""Support for the vector-unit tests: encoders, a reference model of the RVV
semantics the unit implements, and the standalone Verilator harness driver."""
