//! The weight matrices and their products with a batch's rows.
//!
//! Where the CPU has AVX-512 VNNI, a matrix is quantised to eight bits when the model loads
//! (symmetric, a scale per column) and packed the way the kernel reads it; each product
//! quantises its input rows (a scale and a zero point per row) and runs on VNNI's `u8 · i8`
//! dot products: 64 multiply-adds an instruction against 16 for `f32`, and a quarter of the
//! bytes to stream. The vectors it gives are within a cosine of 0.998 of the reference (the
//! reference test checks both arithmetics). Elsewhere the `f32` weights run through
//! matrixmultiply's sgemm, as they always did.

/// How an encoder does its matrix products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// `f32` throughout, on any CPU.
    Float32,
    /// Eight-bit weights and inputs with 32-bit sums, on CPUs with AVX-512 VNNI.
    Int8,
}

impl Arithmetic {
    /// The fastest this CPU can do.
    pub fn best() -> Arithmetic {
        if Arithmetic::int8_supported() {
            Arithmetic::Int8
        } else {
            Arithmetic::Float32
        }
    }

    /// Whether this CPU runs the eight-bit kernel (AVX-512F and VNNI).
    pub fn int8_supported() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vnni")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }
}

/// A weight matrix, `k` rows (the inputs) by `n` columns (the outputs).
pub(crate) struct Matrix {
    k: usize,
    n: usize,
    values: Values,
}

enum Values {
    /// Row-major.
    F32(Vec<f32>),
    #[cfg(target_arch = "x86_64")]
    Int8(int8::Packed),
}

impl Matrix {
    /// `values` is `k x n`, row-major; `Int8` needs `k` a multiple of 16 and `n` of 64 (every
    /// matrix of the model is) and a CPU that has it.
    pub(crate) fn new(values: Vec<f32>, k: usize, n: usize, arithmetic: Arithmetic) -> Matrix {
        assert_eq!(values.len(), k * n);
        let values = match arithmetic {
            Arithmetic::Float32 => Values::F32(values),
            #[cfg(target_arch = "x86_64")]
            Arithmetic::Int8 => {
                assert!(Arithmetic::int8_supported(), "this CPU lacks AVX-512 VNNI");
                Values::Int8(int8::Packed::new(&values, k, n))
            }
            #[cfg(not(target_arch = "x86_64"))]
            Arithmetic::Int8 => panic!("eight-bit products need x86-64 with AVX-512 VNNI"),
        };
        Matrix { k, n, values }
    }

    /// `c = a · self` (or `c += a · self` when `accumulate`): `a` is `m x k` with row stride
    /// `lda`, `c` is `m x n` with row stride `ldc`.
    pub(crate) fn mul(&self, m: usize, a: &[f32], lda: usize, c: &mut [f32], ldc: usize, accumulate: bool) {
        if m == 0 {
            return;
        }
        let (k, n) = (self.k, self.n);
        assert!(lda >= k && ldc >= n);
        assert!(a.len() >= (m - 1) * lda + k);
        assert!(c.len() >= (m - 1) * ldc + n);
        match &self.values {
            Values::F32(b) => gemm(m, k, n, a, lda, b, c, ldc, accumulate),
            #[cfg(target_arch = "x86_64")]
            Values::Int8(packed) => packed.mul(m, a, lda, c, ldc, accumulate),
        }
    }
}

/// `c = a · b` (or `c += a · b` when `accumulate`) in `f32`, `b` being `k x n` and contiguous;
/// the caller has checked the bounds.
#[allow(clippy::too_many_arguments)]
fn gemm(m: usize, k: usize, n: usize, a: &[f32], lda: usize, b: &[f32], c: &mut [f32], ldc: usize, accumulate: bool) {
    if m <= SMALL_M {
        return gemm_rows(m, k, n, a, lda, b, c, ldc, accumulate);
    }
    let beta = if accumulate { 1.0 } else { 0.0 };
    // SAFETY: `Matrix::mul` checked that every element sgemm touches (a: m x k with row
    // stride lda, b: k x n, c: m x n with row stride ldc) is inside its slice; c is borrowed
    // mutably, so it aliases neither a nor b.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            lda as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            beta,
            c.as_mut_ptr(),
            ldc as isize,
            1,
        );
    }
}

/// Up to this many rows, `gemm` runs `gemm_rows` instead of sgemm. sgemm packs all of `b` into
/// its own layout on every call, which for one or two rows costs more than the product: the
/// feed-forward tail of a single sentence (7 MB of weights, one row each) took 1.3 ms through
/// sgemm and 0.3 ms through `gemm_rows`. From 4 rows on, sgemm is as fast or faster.
const SMALL_M: usize = 2;

/// `gemm` for a few rows: each row of `b` is read once, from where it is, and added into the
/// rows of `c` scaled by the matching column of `a` (the compiler vectorises the inner loop).
#[allow(clippy::too_many_arguments)]
fn gemm_rows(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    c: &mut [f32],
    ldc: usize,
    accumulate: bool,
) {
    if !accumulate {
        for i in 0..m {
            c[i * ldc..i * ldc + n].fill(0.0);
        }
    }
    for (kk, b_row) in b.chunks_exact(n).take(k).enumerate() {
        for i in 0..m {
            let scale = a[i * lda + kk];
            for (c, &b) in c[i * ldc..i * ldc + n].iter_mut().zip(b_row) {
                *c += scale * b;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod int8 {
    use std::arch::x86_64::*;
    use std::cell::RefCell;

    /// The input rows of a product, quantised: kept per thread between products.
    #[derive(Default)]
    struct Rows {
        /// `m x k`, row-major: `round(x / scale) + zero`.
        bytes: Vec<u8>,
        scale: Vec<f32>,
        zero: Vec<i32>,
    }

    thread_local! {
        static ROWS: RefCell<Rows> = RefCell::default();
    }

    /// Columns a kernel call computes: four vectors of 16 sums.
    const BLOCK: usize = 64;
    /// Rows a kernel call computes: 6 x 4 sums in registers, with 4 of the matrix and one of
    /// the input, fill 29 of the 32.
    const ROWS_AT_ONCE: usize = 6;

    /// A matrix quantised and packed: for each block of 64 columns, for each group of four
    /// rows ("quad"), the 64 columns' four bytes side by side (what `vpdpbusd` multiplies with
    /// four bytes of an input row).
    pub(super) struct Packed {
        k: usize,
        n: usize,
        bytes: Vec<i8>,
        /// What one unit of each column's bytes is worth.
        scale: Vec<f32>,
        /// Each column's bytes summed: an input's zero point times it is taken back out.
        sums: Vec<i32>,
    }

    impl Packed {
        pub(super) fn new(values: &[f32], k: usize, n: usize) -> Packed {
            assert!(
                k.is_multiple_of(16) && n.is_multiple_of(BLOCK),
                "a {k} x {n} matrix does not fit the kernel"
            );
            let scale: Vec<f32> = (0..n)
                .map(|j| {
                    let most = (0..k).map(|i| values[i * n + j].abs()).fold(0f32, f32::max);
                    if most > 0.0 { most / 127.0 } else { 1.0 }
                })
                .collect();
            let quantised = |i: usize, j: usize| (values[i * n + j] / scale[j]).round().clamp(-127.0, 127.0) as i8;
            let mut bytes = Vec::with_capacity(k * n);
            for block in 0..n / BLOCK {
                for quad in 0..k / 4 {
                    for j in block * BLOCK..(block + 1) * BLOCK {
                        bytes.extend((0..4).map(|r| quantised(quad * 4 + r, j)));
                    }
                }
            }
            let sums = (0..n)
                .map(|j| (0..k).map(|i| i32::from(quantised(i, j))).sum())
                .collect();
            Packed {
                k,
                n,
                bytes,
                scale,
                sums,
            }
        }

        pub(super) fn mul(&self, m: usize, a: &[f32], lda: usize, c: &mut [f32], ldc: usize, accumulate: bool) {
            ROWS.with_borrow_mut(|rows| {
                // SAFETY: a `Packed` is only made where the CPU has AVX-512F and VNNI
                // (`Matrix::new`), and `Matrix::mul` checked the bounds of `a` and `c`.
                unsafe {
                    quantise(m, self.k, a, lda, rows);
                    for row in (0..m).step_by(ROWS_AT_ONCE) {
                        let at = &mut c[row * ldc..];
                        match (m - row).min(ROWS_AT_ONCE) {
                            1 => self.rows::<1>(rows, row, at, ldc, accumulate),
                            2 => self.rows::<2>(rows, row, at, ldc, accumulate),
                            3 => self.rows::<3>(rows, row, at, ldc, accumulate),
                            4 => self.rows::<4>(rows, row, at, ldc, accumulate),
                            5 => self.rows::<5>(rows, row, at, ldc, accumulate),
                            _ => self.rows::<ROWS_AT_ONCE>(rows, row, at, ldc, accumulate),
                        }
                    }
                }
            });
        }

        /// Rows `first..first + R` of the product into `c` (whose row 0 is row `first`), every
        /// block of columns.
        #[target_feature(enable = "avx512f,avx512vnni")]
        unsafe fn rows<const R: usize>(&self, rows: &Rows, first: usize, c: &mut [f32], ldc: usize, accumulate: bool) {
            let quads = self.k / 4;
            assert!(rows.bytes.len() >= (first + R) * self.k && c.len() >= (R - 1) * ldc + self.n);
            let input = rows.bytes[first * self.k..].as_ptr();
            for block in 0..self.n / BLOCK {
                let packed = self.bytes[block * quads * 4 * BLOCK..].as_ptr();
                let mut sums = [[_mm512_setzero_si512(); 4]; R];
                for quad in 0..quads {
                    // SAFETY: `quad < k / 4` keeps the four loads inside this block's
                    // `k * 64` bytes and each input read inside its row of `k` (asserted).
                    unsafe {
                        let w = [0, 1, 2, 3].map(|v| _mm512_loadu_si512(packed.add((quad * 4 + v) * 64).cast()));
                        for (r, sums) in sums.iter_mut().enumerate() {
                            let x = _mm512_set1_epi32(input.add(r * self.k + quad * 4).cast::<i32>().read_unaligned());
                            for (sum, w) in sums.iter_mut().zip(w) {
                                *sum = _mm512_dpbusd_epi32(*sum, x, w);
                            }
                        }
                    }
                }
                let columns = block * BLOCK;
                for (r, sums) in sums.iter().enumerate() {
                    let zero = _mm512_set1_epi32(rows.zero[first + r]);
                    let scale = _mm512_set1_ps(rows.scale[first + r]);
                    let out = &mut c[r * ldc + columns..r * ldc + columns + BLOCK];
                    for (v, &sum) in sums.iter().enumerate() {
                        let at = columns + v * 16;
                        // SAFETY: `at + 16 <= n`, the length of `sums` and `scale`; `out`
                        // holds 64 values.
                        unsafe {
                            let column_sums = _mm512_loadu_si512(self.sums[at..at + 16].as_ptr().cast());
                            let dot = _mm512_sub_epi32(sum, _mm512_mullo_epi32(zero, column_sums));
                            let worth = _mm512_mul_ps(scale, _mm512_loadu_ps(self.scale[at..at + 16].as_ptr()));
                            let mut value = _mm512_mul_ps(_mm512_cvtepi32_ps(dot), worth);
                            let out = out[v * 16..v * 16 + 16].as_mut_ptr();
                            if accumulate {
                                value = _mm512_add_ps(value, _mm512_loadu_ps(out));
                            }
                            _mm512_storeu_ps(out, value);
                        }
                    }
                }
            }
        }
    }

    /// Quantises rows `0..m` of `a` (`k` wide, row stride `lda`) into `rows`: each row's range,
    /// widened to hold 0, in 255 steps.
    #[target_feature(enable = "avx512f")]
    unsafe fn quantise(m: usize, k: usize, a: &[f32], lda: usize, rows: &mut Rows) {
        rows.bytes.resize(m * k, 0);
        rows.scale.resize(m, 0.0);
        rows.zero.resize(m, 0);
        for i in 0..m {
            let row = &a[i * lda..i * lda + k];
            let (mut low, mut high) = (_mm512_setzero_ps(), _mm512_setzero_ps());
            for chunk in row.chunks_exact(16) {
                // SAFETY: a chunk is 16 values.
                let x = unsafe { _mm512_loadu_ps(chunk.as_ptr()) };
                low = _mm512_min_ps(low, x);
                high = _mm512_max_ps(high, x);
            }
            let (low, high) = (_mm512_reduce_min_ps(low), _mm512_reduce_max_ps(high));
            let scale = if high > low { (high - low) / 255.0 } else { 1.0 };
            let zero = (-low / scale).round().clamp(0.0, 255.0);
            rows.scale[i] = scale;
            rows.zero[i] = zero as i32;
            let (inverse, zero) = (_mm512_set1_ps(1.0 / scale), _mm512_set1_ps(zero));
            let (none, most) = (_mm512_setzero_si512(), _mm512_set1_epi32(255));
            let out = &mut rows.bytes[i * k..(i + 1) * k];
            for (chunk, out) in row.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                // SAFETY: a chunk is 16 values, and 16 bytes are stored.
                unsafe {
                    let x = _mm512_fmadd_ps(_mm512_loadu_ps(chunk.as_ptr()), inverse, zero);
                    let q = _mm512_min_epi32(_mm512_max_epi32(_mm512_cvtps_epi32(x), none), most);
                    _mm_storeu_si128(out.as_mut_ptr().cast(), _mm512_cvtusepi32_epi8(q));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic spread of values in (-1, 1) (xorshift).
    fn values(count: usize, seed: u64) -> Vec<f32> {
        let mut x = seed;
        (0..count)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 20_001) as f32 / 10_000.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn eight_bit_products_are_the_f32_products_within_their_steps() {
        if !Arithmetic::int8_supported() {
            eprintln!("this CPU has no AVX-512 VNNI: only f32 is used here");
            return;
        }
        // Every row count the kernel's remainders take, rows with and without negatives, an
        // input stride wider than k, accumulation.
        let (k, n) = (320, 128);
        let weights = values(k * n, 7);
        let float = Matrix::new(weights.clone(), k, n, Arithmetic::Float32);
        let int8 = Matrix::new(weights, k, n, Arithmetic::Int8);
        for m in [1, 2, 5, 6, 7, 13] {
            let lda = k + 3;
            let mut a = values(m * lda, m as u64 + 1);
            for x in &mut a[..lda] {
                *x = x.abs();
            }
            for accumulate in [false, true] {
                let start = values(m * n, 99);
                let (mut want, mut got) = (start.clone(), start);
                float.mul(m, &a, lda, &mut want, n, accumulate);
                int8.mul(m, &a, lda, &mut got, n, accumulate);
                // Each value within half a step of 1/127 (weights) and 2/255 (inputs): the
                // sums of 320 products are off by about a hundredth of their size; a value
                // misplaced by the kernel would be off by as much as the sums themselves.
                let norm = |v: &mut dyn Iterator<Item = f32>| v.map(|x| f64::from(x * x)).sum::<f64>().sqrt();
                let off = norm(&mut want.iter().zip(&got).map(|(w, g)| w - g));
                let size = norm(&mut want.iter().copied());
                assert!(
                    off / size < 0.02,
                    "{m} rows, accumulate {accumulate}: off by {off} in {size}"
                );
            }
        }
    }
}
