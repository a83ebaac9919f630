"""``gemmini_params.h`` for a Gemmini config, generated from :mod:`sim.gemmini.params`.

Gemmini's own build writes this header from its Scala config; its test programs
and ``gemmini.h`` read DIM, the memory sizes, the data types and the scaling
macros from it. We generate the same names for our int8/int32 unit from the SoC
config, so no number is restated here. The text is ours; only the public names
and their values follow Gemmini (v0.7.x, default int8 config: float mvin scale,
no accumulator mvin scale, float accumulator scale, no normalization units).

``cosim cc`` writes the result into the runtime's cache entry as
``include/gemmini_params.h`` (see :mod:`harness.toolchain`).
"""

from __future__ import annotations

from configs import SocConfig, load_soc
from sim.gemmini import isa
from sim.gemmini.params import ACC_BYTES, ADDR_LEN, ELEM_BYTES, GemminiParams, gemmini_params

# RoCC custom-0..3 major opcodes; Gemmini's XCUSTOM_ACC is the index of its own.
_CUSTOM_OPCODES = (0x0B, 0x2B, 0x5B, 0x7B)

# C types of our unit (configs: input_type int8, acc_type int32); the limits are
# the types' own ranges, so they are computed, not written down.
_ELEM_BITS = ELEM_BYTES * 8
_ACC_BITS = ACC_BYTES * 8


def _int_limits(bits: int) -> tuple[int, int]:
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _check_types(soc: SocConfig) -> None:
    g = soc.accelerator
    if (g.input_type, g.acc_type) != (f"int{_ELEM_BITS}", f"int{_ACC_BITS}"):
        raise ValueError(
            f"{soc.name}: gemmini_params.h is generated for int{_ELEM_BITS} inputs and an int{_ACC_BITS} accumulator; "
            f"the config says input_type={g.input_type!r}, acc_type={g.acc_type!r}"
        )


def header_values(p: GemminiParams) -> dict[str, int]:
    """The numeric macros of the header, by name (what the test compares)."""
    elem_min, elem_max = _int_limits(_ELEM_BITS)
    return {
        "XCUSTOM_ACC": _CUSTOM_OPCODES.index(isa.OPCODE),
        "DIM": p.dim,
        "ADDR_LEN": ADDR_LEN,
        "BANK_NUM": p.sp_banks,
        "BANK_ROWS": p.sp_bank_rows,
        "ACC_ROWS": p.acc_rows,
        "MAX_BYTES": p.dma_max_bytes,
        "MAX_BLOCK_LEN": p.max_block_len,
        "MAX_BLOCK_LEN_ACC": p.max_block_len_acc,
        "elem_t_max": elem_max,
        "elem_t_min": elem_min,
        "ACC_SCALE_EXP_BITS": 8,  # acc_scale_t is IEEE binary32
        "ACC_SCALE_SIG_BITS": 24,
    }


_PRELUDE = """\
#ifndef GEMMINI_PARAMS_H
#define GEMMINI_PARAMS_H

#include <limits.h>
#include <stdint.h>
"""

# Types, conversions and the reference arithmetic. The scaling and shift macros
# must agree bit for bit with the model (sim/gemmini/model.py): products round
# to nearest even in the FPU (fcsr.frm is 0 from crt0), then to the nearest
# integer with ties to even, then saturate.
_BODY = """\
typedef uint32_t ind_t;
typedef int{elem_bits}_t elem_t;
static const elem_t elem_t_max = {elem_max};
static const elem_t elem_t_min = {elem_min};
typedef int{acc_bits}_t acc_t;
typedef int64_t full_t;

/* mvin into the scratchpad multiplies by an fp32 scale; mvin into the
 * accumulator has no scale of its own (HAS_MVIN_ACC_SCALE is not defined). */
#define HAS_MVIN_SCALE
typedef float scale_t;
typedef uint32_t scale_t_bits;

typedef int32_t scale_acc_t;
typedef uint32_t scale_acc_t_bits;

typedef float acc_scale_t;
typedef uint32_t acc_scale_t_bits;

#define row_align(blocks) __attribute__((aligned(blocks * DIM * sizeof(elem_t))))
#define row_align_acc(blocks) __attribute__((aligned(blocks * DIM * sizeof(acc_t))))

#define MVIN_SCALE_IDENTITY 1.0
#define ACC_SCALE_IDENTITY 1.0

/* Scales travel in instruction fields as their IEEE bits, never as converted
 * integers. gemmini.h uses these; it skips its own copies when this is set. */
#define GEMMINI_PARAMS_BIT_CONVERSIONS 1
static inline scale_t_bits scale_t_to_scale_t_bits(scale_t x) {{
  scale_t_bits b;
  __builtin_memcpy(&b, &x, sizeof b);
  return b;
}}
static inline scale_t scale_t_bits_to_scale_t(scale_t_bits b) {{
  scale_t x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
}}
static inline acc_scale_t_bits acc_scale_t_to_acc_scale_t_bits(acc_scale_t x) {{
  acc_scale_t_bits b;
  __builtin_memcpy(&b, &x, sizeof b);
  return b;
}}
static inline acc_scale_t acc_scale_t_bits_to_acc_scale_t(acc_scale_t_bits b) {{
  acc_scale_t x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
}}

/* Right shift by `shift` bits rounding to nearest, ties to even (the vector
 * spec's vxrm "rne"); a shift <= 0 shifts left instead. The result has x's
 * promoted type. */
#define ROUNDING_RIGHT_SHIFT(x, shift) \\
  ({{ \\
    __typeof__((x) + 0) rrs_v_ = (x); \\
    int rrs_s_ = (shift); \\
    __typeof__(rrs_v_) rrs_one_ = 1; \\
    rrs_s_ <= 0 ? (__typeof__(rrs_v_))(rrs_v_ << -rrs_s_) \\
                : (__typeof__(rrs_v_))((rrs_v_ >> rrs_s_) + \\
                                       (((rrs_v_ >> (rrs_s_ - 1)) & 1) & \\
                                        (((rrs_v_ & ((rrs_one_ << (rrs_s_ - 1)) - 1)) != 0) | \\
                                         ((rrs_v_ >> rrs_s_) & 1)))); \\
  }})
#define ROUNDING_RIGHT_SHIFT_BITS(x, shift) ROUNDING_RIGHT_SHIFT(x, shift)

/* Round a float or double to the nearest integer, ties to even, in its own type.
 * Values beyond 2^52 are integers already and pass through. */
static inline double gemmini_rne_double_(double v) {{
  if (!(v < 4503599627370496.0 && v > -4503599627370496.0)) return v;
  long long i = (long long)v; /* truncates toward zero */
  double rem = v - (double)i;
  double mag = rem < 0 ? -rem : rem;
  if (mag > 0.5 || (mag == 0.5 && (i & 1))) i += v < 0 ? -1 : 1;
  return (double)i;
}}
static inline float gemmini_rne_float_(float v) {{
  if (!(v < 8388608.0f && v > -8388608.0f)) return v;
  int i = (int)v;
  float rem = v - (float)i;
  float mag = rem < 0 ? -rem : rem;
  if (mag > 0.5f || (mag == 0.5f && (i & 1))) i += v < 0 ? -1 : 1;
  return (float)i;
}}
#define ROUND_NEAR_EVEN(x) \\
  _Generic((x), float: gemmini_rne_float_, default: gemmini_rne_double_)(x)

/* x * scale rounded to nearest even and saturated to elem_t's range: what mvout
 * with an accumulator scale and mvin with a scale do. NaN gives 0. */
static inline int gemmini_sat_elem_f_(float y) {{
  if (y != y) return 0;
  if (y >= (float)elem_t_max) return elem_t_max;
  if (y <= (float)elem_t_min) return elem_t_min;
  return (int)gemmini_rne_float_(y);
}}
static inline int gemmini_sat_elem_d_(double y) {{
  if (y != y) return 0;
  if (y >= (double)elem_t_max) return elem_t_max;
  if (y <= (double)elem_t_min) return elem_t_min;
  return (int)gemmini_rne_double_(y);
}}
#define GEMMINI_SCALE_SAT_(x, scale) \\
  _Generic((x) * (scale), float: gemmini_sat_elem_f_, default: gemmini_sat_elem_d_)((x) * (scale))
#define ACC_SCALE(x, scale) ((acc_t)GEMMINI_SCALE_SAT_(x, scale))
#define MVIN_SCALE(x, scale) ((elem_t)GEMMINI_SCALE_SAT_(x, scale))
#define MVIN_SCALE_ACC(x, scale) (x)

#define ACC_SCALE_T_IS_FLOAT
#define ACC_SCALE_EXP_BITS {acc_scale_exp_bits}
#define ACC_SCALE_SIG_BITS {acc_scale_sig_bits}

#define ACC_READ_SMALL_WIDTH
#define ACC_READ_FULL_WIDTH

#define HAS_FIRST_LAYER_OPTIMIZATIONS
"""


def render_gemmini_params_h(soc: SocConfig | str) -> str:
    """Text of ``gemmini_params.h`` for ``soc``'s Gemmini unit; ValueError if it has none."""
    soc = load_soc(soc)
    p = gemmini_params(soc)
    _check_types(soc)
    v = header_values(p)
    lines = [
        "/* gemmini_params.h for the Gemmini unit of SoC config "
        f"{soc.name!r} ({soc.path.name}, config hash {soc.config_hash}).",
        " * Generated by harness/gemmini_header.py from sim/gemmini/params.py; do not edit:",
        " * change the config instead. Names follow Gemmini v0.7's generated header. */",
        _PRELUDE,
        f"#define XCUSTOM_ACC {v['XCUSTOM_ACC']}",
        f"#define DIM {v['DIM']}",
        f"#define ADDR_LEN {v['ADDR_LEN']}",
        f"#define BANK_NUM {v['BANK_NUM']}",
        f"#define BANK_ROWS {v['BANK_ROWS']}",
        f"#define ACC_ROWS {v['ACC_ROWS']}",
        f"#define MAX_BYTES {v['MAX_BYTES']}",
        # Written as numbers (Gemmini writes the quotient): the model clamps to at least one block.
        f"#define MAX_BLOCK_LEN {v['MAX_BLOCK_LEN']}",
        f"#define MAX_BLOCK_LEN_ACC {v['MAX_BLOCK_LEN_ACC']}",
        "",
        _BODY.format(
            elem_bits=_ELEM_BITS,
            acc_bits=_ACC_BITS,
            elem_max=v["elem_t_max"],
            elem_min=v["elem_t_min"],
            acc_scale_exp_bits=v["ACC_SCALE_EXP_BITS"],
            acc_scale_sig_bits=v["ACC_SCALE_SIG_BITS"],
        ),
    ]
    # Ours, not Gemmini's: whether loop_conv_ws (funct 15..21) is in hardware.
    if p.loop_conv:
        lines.append("#define HAS_LOOP_CONV\n")
    lines.append("#endif /* GEMMINI_PARAMS_H */\n")
    return "\n".join(lines)
