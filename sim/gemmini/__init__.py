"""The Gemmini unit's software side: derived parameters, ISA encodings and
disassembly, and the bit-exact functional model that runs inside Spike."""
