/*
** sse2_on_wasm.h — the nine SSE2 intrinsics core/rowscan.c uses, on
** WebAssembly SIMD (wasm_simd128.h), so that the WebAssembly build scans
** rows 16 bytes at a time like the x86-64 build instead of taking the
** portable 8-byte path.  Only for the WebAssembly build of rowscan.c
** (Makefile: -msimd128 -D__SSE2__ -DJJ_SSE2_PROVIDED -include this file,
** so that rowscan.c does not include the x86 <emmintrin.h>, and core/
** never names js/); each maps to one
** instruction with the same lanes and result bits (movemask and bitmask
** both put byte i's top bit in bit i).
*/
#ifndef JJ_WASM_EMMINTRIN_H
#define JJ_WASM_EMMINTRIN_H

#include <wasm_simd128.h>

typedef v128_t __m128i;

#define _mm_loadu_si128(p) wasm_v128_load(p)
#define _mm_set1_epi8(c) wasm_i8x16_splat(c)
#define _mm_cmpeq_epi8(a, b) wasm_i8x16_eq(a, b)
#define _mm_or_si128(a, b) wasm_v128_or(a, b)
#define _mm_andnot_si128(a, b) wasm_v128_andnot(b, a) /* ~a & b */
#define _mm_sub_epi8(a, b) wasm_i8x16_sub(a, b)
#define _mm_min_epu8(a, b) wasm_u8x16_min(a, b)
#define _mm_max_epu8(a, b) wasm_u8x16_max(a, b)
#define _mm_movemask_epi8(a) wasm_i8x16_bitmask(a)

#endif
