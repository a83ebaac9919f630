# PicoRV32 from the installed pythondata-cpu-picorv32 package, then its adapter.
{python:pythondata_cpu_picorv32}/picorv32.v
adapter.sv
