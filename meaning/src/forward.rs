//! The encoder's weights and its forward pass: `backends/numpy.py` (`NumpyBackend`) in Rust.
//!
//! A micro-batch of sentences runs as one flat batch: the tokens of all its sentences are the
//! rows of each matrix, so every weight matrix is streamed once per batch. Per token: the
//! embedding row (dequantised), projected to three 256-wide branches and layer-normalised
//! together; each branch is a two-layer residual CNN over n-gram windows (orders 2, 3 and 5,
//! with 0, 1 and 2 tokens of left context), a window slot outside the token's sentence reading
//! zeros. The embedding and the three branches (1280 wide) are layer-normalised, summed per
//! sentence and projected (the sum commutes with the projection, so it runs on one row per
//! sentence), scaled by 1/sqrt(tokens), then a residual feed-forward network, tanh, and the
//! vector is L2-normalised.

use crate::DIM;
use crate::ModelError;
use crate::npz::Npz;

/// The embedding table comes as 17 chunks: piece id `i` is row `i / 17` of chunk `i % 17`,
/// each chunk 6-bit quantised with its own scale and offset.
const CHUNKS: usize = 17;
const CHUNK_ROWS: usize = 7530;
/// The width of each CNN branch.
const BRANCH: usize = 256;
/// The embedding and the three branches side by side.
const FEATURES: usize = DIM + 3 * BRANCH;
/// The feed-forward network's hidden width.
const HIDDEN: usize = 320;
/// (n-gram order, left context) of the three branches, and the names of their arrays.
const ORDERS: [(usize, usize, &str); 3] = [(2, 0, "2"), (3, 1, "3"), (5, 2, "5")];

/// One CNN branch: two window convolutions (as matrices over the concatenated window).
struct Branch {
    order: usize,
    left: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// Everything `weights.npz` holds, read and checked: 65 MB of quantised embeddings (`u8`, as
/// the reference keeps them; as `f32` they would be 262 MB) and 13.5 MB of `f32` matrices.
pub(crate) struct Weights {
    /// Row `id` is piece `id`'s embedding, quantised (the chunks interleaved back).
    table: Vec<u8>,
    scale: [f32; CHUNKS],
    lo: [f32; CHUNKS],
    /// The three branch projections side by side (512 x 768), their biases and layer norm.
    proj_w: Vec<f32>,
    proj_b: Vec<f32>,
    ln_branches_g: Vec<f32>,
    ln_branches_b: Vec<f32>,
    branches: [Branch; 3],
    ln_g: Vec<f32>,
    ln_b: Vec<f32>,
    cnn_w: Vec<f32>,
    cnn_b: Vec<f32>,
    d0: Vec<f32>,
    d1: Vec<f32>,
    p1: Vec<f32>,
    d2: Vec<f32>,
    p3: Vec<f32>,
    d3: Vec<f32>,
    /// The layer norms' and the final normalisation's epsilon, as `f32` (numpy applies the
    /// model's `float64` 1e-12 to `float32` arrays as `float32`).
    eps: f32,
}

/// The three branch arrays `{name}2`, `{name}3`, `{name}5`, each `rows x 256`, side by side.
fn side_by_side(npz: &mut Npz, name: &str, rows: usize) -> Result<Vec<f32>, ModelError> {
    let matrix = [rows, BRANCH];
    let shape = if rows == 1 { &matrix[1..] } else { &matrix[..] };
    let parts = ORDERS
        .iter()
        .map(|(_, _, n)| npz.f32s(&format!("{name}{n}"), shape))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(rows * 3 * BRANCH);
    for r in 0..rows {
        for part in &parts {
            out.extend_from_slice(&part[r * BRANCH..(r + 1) * BRANCH]);
        }
    }
    Ok(out)
}

impl Weights {
    pub(crate) fn load(npz: &mut Npz) -> Result<Weights, ModelError> {
        let mut table = vec![0u8; CHUNKS * CHUNK_ROWS * DIM];
        for chunk in 0..CHUNKS {
            let q = npz.u8s(&format!("q{}", chunk + 1), &[CHUNK_ROWS, DIM])?;
            for (row, values) in q.chunks_exact(DIM).enumerate() {
                let id = row * CHUNKS + chunk;
                table[id * DIM..(id + 1) * DIM].copy_from_slice(values);
            }
        }
        let scale = npz.f32s("scale", &[CHUNKS])?.try_into().expect("checked shape");
        let lo = npz.f32s("lo", &[CHUNKS])?.try_into().expect("checked shape");
        let branches = ORDERS.map(|(order, left, n)| -> Result<Branch, ModelError> {
            Ok(Branch {
                order,
                left,
                w1: npz.f32s(&format!("w1_{n}"), &[order * BRANCH, BRANCH])?,
                b1: npz.f32s(&format!("b1_{n}"), &[BRANCH])?,
                w2: npz.f32s(&format!("w2_{n}"), &[order * BRANCH, BRANCH])?,
                b2: npz.f32s(&format!("b2_{n}"), &[BRANCH])?,
            })
        });
        let [order2, order3, order5] = branches;
        Ok(Weights {
            table,
            scale,
            lo,
            proj_w: side_by_side(npz, "proj", DIM)?,
            proj_b: side_by_side(npz, "proj_b", 1)?,
            ln_branches_g: side_by_side(npz, "ln_g", 1)?,
            ln_branches_b: side_by_side(npz, "ln_b", 1)?,
            branches: [order2?, order3?, order5?],
            ln_g: npz.f32s("ln_g", &[FEATURES])?,
            ln_b: npz.f32s("ln_b", &[FEATURES])?,
            cnn_w: npz.f32s("cnn_W", &[FEATURES, DIM])?,
            cnn_b: npz.f32s("cnn_b", &[DIM])?,
            d0: npz.f32s("d0", &[DIM, HIDDEN])?,
            d1: npz.f32s("d1", &[HIDDEN, HIDDEN])?,
            p1: npz.f32s("p1", &[DIM, HIDDEN])?,
            d2: npz.f32s("d2", &[HIDDEN, DIM])?,
            p3: npz.f32s("p3", &[HIDDEN, DIM])?,
            d3: npz.f32s("d3", &[DIM, DIM])?,
            eps: npz.f64_scalar("eps")? as f32,
        })
    }

    /// How many piece ids the embedding table has rows for.
    pub(crate) fn vocab_rows(&self) -> usize {
        self.table.len() / DIM
    }

    /// Encodes one micro-batch, `sentences` being each sentence's token ids (BOS/EOS included,
    /// at least one token, every id below `vocab_rows`), appending a vector each to `out`.
    pub(crate) fn encode_batch(&self, sentences: &[Vec<u32>], out: &mut Vec<[f32; DIM]>) {
        let n: usize = sentences.iter().map(Vec::len).sum();
        // (first token, tokens) of each sentence in the flat batch.
        let spans: Vec<(usize, usize)> = sentences
            .iter()
            .scan(0, |start, s| {
                let span = (*start, s.len());
                *start += s.len();
                Some(span)
            })
            .collect();

        // feats: [embedding | branch 2 | branch 3 | branch 5] for every token.
        let mut feats = vec![0f32; n * FEATURES];
        for (row, &id) in feats.chunks_exact_mut(FEATURES).zip(sentences.iter().flatten()) {
            let id = id as usize;
            let (scale, lo) = (self.scale[id % CHUNKS], self.lo[id % CHUNKS]);
            for (f, &q) in row[..DIM].iter_mut().zip(&self.table[id * DIM..(id + 1) * DIM]) {
                *f = f32::from(q) * scale + lo;
            }
        }

        let width = 3 * BRANCH;
        let mut x = vec![0f32; n * width];
        gemm(n, DIM, width, &feats, FEATURES, &self.proj_w, &mut x, width, false);
        for row in x.chunks_exact_mut(width) {
            add(row, &self.proj_b);
            layer_norm(row, &self.ln_branches_g, &self.ln_branches_b, self.eps);
        }

        let mut windows = vec![0f32; n * 5 * BRANCH];
        let mut h = vec![0f32; n * BRANCH];
        for (i, branch) in self.branches.iter().enumerate() {
            let k = branch.order * BRANCH;
            let column = i * BRANCH;
            gather_windows(&x, width, column, branch, &spans, &mut windows);
            gemm(n, k, BRANCH, &windows, k, &branch.w1, &mut h, BRANCH, false);
            for (t, row) in h.chunks_exact_mut(BRANCH).enumerate() {
                add(row, &branch.b1);
                relu(row);
                add(row, &x[t * width + column..t * width + column + BRANCH]);
            }
            gather_windows(&h, BRANCH, 0, branch, &spans, &mut windows);
            let out_column = DIM + i * BRANCH;
            gemm(
                n,
                k,
                BRANCH,
                &windows,
                k,
                &branch.w2,
                &mut feats[out_column..],
                FEATURES,
                false,
            );
            for (t, row) in feats.chunks_exact_mut(FEATURES).enumerate() {
                let row = &mut row[out_column..out_column + BRANCH];
                add(row, &branch.b2);
                relu(row);
                add(row, &h[t * BRANCH..(t + 1) * BRANCH]);
            }
        }
        drop((x, h, windows));

        for row in feats.chunks_exact_mut(FEATURES) {
            layer_norm(row, &self.ln_g, &self.ln_b, self.eps);
        }
        let s = sentences.len();
        let mut sums = vec![0f32; s * FEATURES];
        for (sum, &(start, len)) in sums.chunks_exact_mut(FEATURES).zip(&spans) {
            for row in feats[start * FEATURES..(start + len) * FEATURES].chunks_exact(FEATURES) {
                add(sum, row);
            }
        }
        drop(feats);

        let mut mean = vec![0f32; s * DIM];
        gemm(s, FEATURES, DIM, &sums, FEATURES, &self.cnn_w, &mut mean, DIM, false);
        for (row, &(_, len)) in mean.chunks_exact_mut(DIM).zip(&spans) {
            let len = len as f32;
            let r = 1.0 / len.sqrt();
            for (m, &b) in row.iter_mut().zip(&self.cnn_b) {
                *m = (*m + len * b) * r;
            }
        }

        let mut y0 = vec![0f32; s * HIDDEN];
        gemm(s, DIM, HIDDEN, &mean, DIM, &self.d0, &mut y0, HIDDEN, false);
        relu(&mut y0);
        let mut y1 = vec![0f32; s * HIDDEN];
        gemm(s, DIM, HIDDEN, &mean, DIM, &self.p1, &mut y1, HIDDEN, false);
        gemm(s, HIDDEN, HIDDEN, &y0, HIDDEN, &self.d1, &mut y1, HIDDEN, true);
        relu(&mut y1);
        let mut y2 = vec![0f32; s * DIM];
        gemm(s, HIDDEN, DIM, &y1, HIDDEN, &self.d2, &mut y2, DIM, false);
        relu(&mut y2);
        let mut z = vec![0f32; s * DIM];
        gemm(s, HIDDEN, DIM, &y1, HIDDEN, &self.p3, &mut z, DIM, false);
        gemm(s, DIM, DIM, &y2, DIM, &self.d3, &mut z, DIM, true);

        for row in z.chunks_exact(DIM) {
            let mut v = [0f32; DIM];
            for (v, &z) in v.iter_mut().zip(row) {
                *v = z.tanh();
            }
            let norm2 = v.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>() as f32;
            let r = 1.0 / norm2.max(self.eps).sqrt();
            for v in &mut v {
                *v *= r;
            }
            out.push(v);
        }
    }
}

/// Fills `windows` (tokens x order*256) with each token's n-gram window over the 256 columns
/// of `src` (row stride `ld`) from `column`: the rows from `left` tokens before it on, zeros
/// for slots outside its sentence.
fn gather_windows(
    src: &[f32],
    ld: usize,
    column: usize,
    branch: &Branch,
    spans: &[(usize, usize)],
    windows: &mut [f32],
) {
    let k = branch.order * BRANCH;
    for &(start, len) in spans {
        for t in start..start + len {
            let window = &mut windows[t * k..(t + 1) * k];
            for (slot, dst) in window.chunks_exact_mut(BRANCH).enumerate() {
                // The slot's token, t - left + slot, if inside the sentence.
                match (t + slot)
                    .checked_sub(branch.left)
                    .filter(|&p| p >= start && p < start + len)
                {
                    Some(p) => dst.copy_from_slice(&src[p * ld + column..p * ld + column + BRANCH]),
                    None => dst.fill(0.0),
                }
            }
        }
    }
}

fn add(row: &mut [f32], other: &[f32]) {
    for (r, &o) in row.iter_mut().zip(other) {
        *r += o;
    }
}

fn relu(row: &mut [f32]) {
    for r in row {
        *r = r.max(0.0);
    }
}

/// Layer normalisation of one row, in place (mean and variance summed in `f64`).
fn layer_norm(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = row.len() as f64;
    let mean = (row.iter().map(|&v| f64::from(v)).sum::<f64>() / n) as f32;
    for v in row.iter_mut() {
        *v -= mean;
    }
    let var = (row.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>() / n) as f32;
    let r = 1.0 / (var + eps).sqrt();
    for ((v, &g), &b) in row.iter_mut().zip(gamma).zip(beta) {
        *v = *v * r * g + b;
    }
}

/// `c = a · b` (or `c += a · b` when `accumulate`): `a` is m x k with row stride `lda`, `b` is
/// k x n and contiguous, `c` is m x n with row stride `ldc`.
#[allow(clippy::too_many_arguments)]
fn gemm(m: usize, k: usize, n: usize, a: &[f32], lda: usize, b: &[f32], c: &mut [f32], ldc: usize, accumulate: bool) {
    if m == 0 {
        return;
    }
    assert!(lda >= k && ldc >= n);
    assert!(a.len() >= (m - 1) * lda + k);
    assert!(b.len() >= k * n);
    assert!(c.len() >= (m - 1) * ldc + n);
    if m <= SMALL_M {
        return gemm_rows(m, k, n, a, lda, b, c, ldc, accumulate);
    }
    let beta = if accumulate { 1.0 } else { 0.0 };
    // SAFETY: the asserts above keep every element sgemm touches (a: m x k with row stride
    // lda, b: k x n, c: m x n with row stride ldc) inside its slice; c is borrowed mutably, so
    // it aliases neither a nor b.
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
