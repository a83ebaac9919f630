"""int8 quantization in the harness: the cosim_q op vocabulary, the quantizer, calibration, accuracy."""
