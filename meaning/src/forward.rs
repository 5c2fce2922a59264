//! The encoder's weights and its forward pass: `backends/numpy.py` (`NumpyBackend`) in Rust.
//!
//! A micro-batch of sentences runs as one flat batch: the tokens of all its sentences are the
//! rows of each matrix, so every weight matrix is streamed once per batch. Per token: the
//! embedding row (dequantised), projected to three 256-wide branches and layer-normalised
//! together; each branch is a two-layer residual CNN over n-gram windows (orders 2, 3 and 5,
//! with 0, 1 and 2 tokens of left context), a window slot outside the token's sentence reading
//! zeros. Everything up to the first convolution's products depends on the piece alone, not on
//! its neighbours: it is computed once per piece and kept (`PieceRows`), and a token's first
//! layer is the sum of its window's products. The embedding and the three branches (1280 wide) are layer-normalised, summed per
//! sentence and projected (the sum commutes with the projection, so it runs on one row per
//! sentence), scaled by 1/sqrt(tokens), then a residual feed-forward network, tanh, and the
//! vector is L2-normalised.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::DIM;
use crate::ModelError;
use crate::matrix::{Arithmetic, Matrix};
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
/// A piece's row: its three branches' inputs (projected, layer-normalised), then each branch's
/// first convolution of them at every slot of its window (2 + 3 + 5 slots of 256).
const PIECE_ROW: usize = 3 * BRANCH + 10 * BRANCH;
/// How many pieces' rows are kept (13 KB each, 27 MB when full). Reports reuse few pieces: of
/// the 10,280 tokens of both matching sets' 579 texts, four in five are a piece met before.
const KEPT_PIECES: usize = 2048;

/// One CNN branch: two window convolutions.
struct Branch {
    order: usize,
    left: usize,
    /// Where the branch's slot products start in a piece's row.
    products: usize,
    /// The first convolution as 256 x (order * 256): the input's 256 columns to each slot's
    /// 256 outputs side by side (the model's array is the window's order * 256 rows to 256).
    w1: Matrix,
    b1: Vec<f32>,
    /// The second convolution over the concatenated window, order * 256 x 256.
    w2: Matrix,
    b2: Vec<f32>,
}

impl Branch {
    /// The tokens in `t`'s window, slot by slot: `None` for a slot outside `t`'s sentence,
    /// which starts at `start` and is `len` tokens long.
    #[inline(always)]
    fn window(&self, t: usize, start: usize, len: usize) -> impl Iterator<Item = Option<usize>> + '_ {
        (0..self.order).map(move |slot| {
            (t + slot)
                .checked_sub(self.left)
                .filter(|&p| p >= start && p < start + len)
        })
    }
}

/// Everything `weights.npz` holds, read and checked: 65 MB of quantised embeddings (`u8`, as
/// the reference keeps them; as `f32` they would be 262 MB) and 13.5 MB of `f32` matrices;
/// and the rows of the pieces met lately.
pub(crate) struct Weights {
    /// Row `id` is piece `id`'s embedding, quantised (the chunks interleaved back).
    table: Vec<u8>,
    scale: [f32; CHUNKS],
    lo: [f32; CHUNKS],
    /// The three branch projections side by side (512 x 768), their biases and layer norm.
    proj_w: Matrix,
    proj_b: Vec<f32>,
    ln_branches_g: Vec<f32>,
    ln_branches_b: Vec<f32>,
    branches: [Branch; 3],
    ln_g: Vec<f32>,
    ln_b: Vec<f32>,
    cnn_w: Matrix,
    cnn_b: Vec<f32>,
    d0: Matrix,
    d1: Matrix,
    p1: Matrix,
    d2: Matrix,
    p3: Matrix,
    d3: Matrix,
    /// The layer norms' and the final normalisation's epsilon, as `f32` (numpy applies the
    /// model's `float64` 1e-12 to `float32` arrays as `float32`).
    eps: f32,
    kept: PieceRows,
    scratch: Scratches,
    /// How the products run; with `Int8`, whose CPUs all have AVX-512F, the rest of the pass
    /// runs compiled for it.
    arithmetic: Arithmetic,
}

/// The rows of the pieces met lately, shared by every thread that encodes; when full, the
/// piece kept longest makes room. A row is the same whoever computes it, so two threads
/// computing one piece at once only waste work.
struct PieceRows(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    rows: HashMap<u32, Arc<[f32]>>,
    /// The kept pieces, oldest first.
    order: VecDeque<u32>,
}

impl PieceRows {
    fn kept(&self) -> MutexGuard<'_, Kept> {
        // A thread that panicked holding the lock left whole rows or none: they stay right.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Each id's row, if kept.
    fn get(&self, ids: &[u32]) -> Vec<Option<Arc<[f32]>>> {
        let kept = self.kept();
        ids.iter().map(|id| kept.rows.get(id).cloned()).collect()
    }

    fn keep(&self, rows: &[(u32, Arc<[f32]>)]) {
        let mut kept = self.kept();
        for (id, row) in rows {
            if kept.rows.insert(*id, Arc::clone(row)).is_none() {
                kept.order.push_back(*id);
            }
            if kept.order.len() > KEPT_PIECES
                && let Some(oldest) = kept.order.pop_front()
            {
                kept.rows.remove(&oldest);
            }
        }
    }
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

/// The buffers a micro-batch works in (about 11 KB a token, 10 KB a sentence), kept between
/// batches: the allocator hands out a large zeroed buffer as pages given back and faulted in
/// again, which cost a create more than the arithmetic they held.
#[derive(Default)]
struct Scratch {
    feats: Vec<f32>,
    windows: Vec<f32>,
    h: Vec<f32>,
    sums: Vec<f32>,
    mean: Vec<f32>,
    y0: Vec<f32>,
    y1: Vec<f32>,
    y2: Vec<f32>,
    z: Vec<f32>,
}

/// The idle `Scratch`es: as many as the machine has cores at most (4.3 MB each when a full
/// micro-batch used it), for the threads that encode at once.
struct Scratches {
    idle: Mutex<Vec<Scratch>>,
    most: usize,
}

impl Scratches {
    fn new() -> Scratches {
        Scratches {
            idle: Mutex::default(),
            most: std::thread::available_parallelism().map_or(2, usize::from),
        }
    }

    fn take(&self) -> Scratch {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default()
    }

    /// Keeps `scratch` unless it grew for a long sentence (a batch of its own, rare).
    fn give(&self, scratch: Scratch) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if scratch.feats.capacity() <= crate::TOKEN_BUDGET * FEATURES && idle.len() < self.most {
            idle.push(scratch);
        }
    }
}

/// `buffer` as `len` values (what it held before is overwritten by the caller), grown to no
/// more than that.
fn sized(buffer: &mut Vec<f32>, len: usize) -> &mut [f32] {
    buffer.reserve_exact(len.saturating_sub(buffer.len()));
    buffer.resize(len, 0.0);
    buffer
}

impl Weights {
    pub(crate) fn load(npz: &mut Npz, arithmetic: Arithmetic) -> Result<Weights, ModelError> {
        let matrix = |values: Vec<f32>, k: usize, n: usize| Matrix::new(values, k, n, arithmetic);
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
        let mut products = 3 * BRANCH;
        let branches = ORDERS.map(|(order, left, n)| -> Result<Branch, ModelError> {
            let w1 = npz.f32s(&format!("w1_{n}"), &[order * BRANCH, BRANCH])?;
            let starts = products;
            products += order * BRANCH;
            Ok(Branch {
                order,
                left,
                products: starts,
                w1: matrix(slots_side_by_side(&w1, order), BRANCH, order * BRANCH),
                b1: npz.f32s(&format!("b1_{n}"), &[BRANCH])?,
                w2: matrix(
                    npz.f32s(&format!("w2_{n}"), &[order * BRANCH, BRANCH])?,
                    order * BRANCH,
                    BRANCH,
                ),
                b2: npz.f32s(&format!("b2_{n}"), &[BRANCH])?,
            })
        });
        let [order2, order3, order5] = branches;
        Ok(Weights {
            table,
            scale,
            lo,
            proj_w: matrix(side_by_side(npz, "proj", DIM)?, DIM, 3 * BRANCH),
            proj_b: side_by_side(npz, "proj_b", 1)?,
            ln_branches_g: side_by_side(npz, "ln_g", 1)?,
            ln_branches_b: side_by_side(npz, "ln_b", 1)?,
            branches: [order2?, order3?, order5?],
            ln_g: npz.f32s("ln_g", &[FEATURES])?,
            ln_b: npz.f32s("ln_b", &[FEATURES])?,
            cnn_w: matrix(npz.f32s("cnn_W", &[FEATURES, DIM])?, FEATURES, DIM),
            cnn_b: npz.f32s("cnn_b", &[DIM])?,
            d0: matrix(npz.f32s("d0", &[DIM, HIDDEN])?, DIM, HIDDEN),
            d1: matrix(npz.f32s("d1", &[HIDDEN, HIDDEN])?, HIDDEN, HIDDEN),
            p1: matrix(npz.f32s("p1", &[DIM, HIDDEN])?, DIM, HIDDEN),
            d2: matrix(npz.f32s("d2", &[HIDDEN, DIM])?, HIDDEN, DIM),
            p3: matrix(npz.f32s("p3", &[HIDDEN, DIM])?, HIDDEN, DIM),
            d3: matrix(npz.f32s("d3", &[DIM, DIM])?, DIM, DIM),
            eps: npz.f64_scalar("eps")? as f32,
            kept: PieceRows(Mutex::default()),
            scratch: Scratches::new(),
            arithmetic,
        })
    }

    /// How the matrix products run.
    pub(crate) fn arithmetic(&self) -> Arithmetic {
        self.arithmetic
    }

    /// How many piece ids the embedding table has rows for.
    pub(crate) fn vocab_rows(&self) -> usize {
        self.table.len() / DIM
    }

    /// Piece `id`'s embedding, dequantised, into `out` (512 wide).
    #[inline(always)]
    fn embedding(&self, id: u32, out: &mut [f32]) {
        let id = id as usize;
        let (scale, lo) = (self.scale[id % CHUNKS], self.lo[id % CHUNKS]);
        for (f, &q) in out.iter_mut().zip(&self.table[id * DIM..(id + 1) * DIM]) {
            *f = f32::from(q) * scale + lo;
        }
    }

    /// The row of each token's piece: kept, or computed once for every piece not kept.
    #[inline(always)]
    fn piece_rows(&self, ids: &[u32]) -> Vec<Arc<[f32]>> {
        let mut rows = self.kept.get(ids);
        let mut missing: Vec<u32> = ids
            .iter()
            .zip(&rows)
            .filter(|(_, r)| r.is_none())
            .map(|(&id, _)| id)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if !missing.is_empty() {
            let computed: Vec<(u32, Arc<[f32]>)> = missing
                .iter()
                .copied()
                .zip(self.compute_piece_rows(&missing).chunks_exact(PIECE_ROW).map(Arc::from))
                .collect();
            for (row, id) in rows.iter_mut().zip(ids) {
                if row.is_none() {
                    let at = missing.binary_search(id).expect("every missing id was computed");
                    *row = Some(Arc::clone(&computed[at].1));
                }
            }
            self.kept.keep(&computed);
        }
        rows.into_iter()
            .map(|r| r.expect("every row kept or computed"))
            .collect()
    }

    /// The rows of `ids` (m x PIECE_ROW): the embeddings projected to the three branches with
    /// their bias and layer norm, then each branch's input times its first convolution's slots.
    #[inline(always)]
    fn compute_piece_rows(&self, ids: &[u32]) -> Vec<f32> {
        let m = ids.len();
        let mut embeddings = vec![0f32; m * DIM];
        for (row, &id) in embeddings.chunks_exact_mut(DIM).zip(ids) {
            self.embedding(id, row);
        }
        let mut rows = vec![0f32; m * PIECE_ROW];
        let width = 3 * BRANCH;
        self.proj_w.mul(m, &embeddings, DIM, &mut rows, PIECE_ROW, false);
        for row in rows.chunks_exact_mut(PIECE_ROW) {
            let x = &mut row[..width];
            add(x, &self.proj_b);
            layer_norm(x, &self.ln_branches_g, &self.ln_branches_b, self.eps);
        }
        // The products read the inputs from the same rows they are written to: a copy of the
        // inputs keeps the two borrows apart.
        let inputs: Vec<f32> = rows
            .chunks_exact(PIECE_ROW)
            .flat_map(|r| &r[..width])
            .copied()
            .collect();
        for (i, branch) in self.branches.iter().enumerate() {
            branch.w1.mul(
                m,
                &inputs[i * BRANCH..],
                width,
                &mut rows[branch.products..],
                PIECE_ROW,
                false,
            );
        }
        rows
    }

    /// Encodes one micro-batch, `sentences` being each sentence's token ids (BOS/EOS included,
    /// at least one token, every id below `vocab_rows`), appending a vector each to `out`.
    pub(crate) fn encode_batch(&self, sentences: &[Vec<u32>], out: &mut Vec<[f32; DIM]>) {
        #[cfg(target_arch = "x86_64")]
        if self.arithmetic == Arithmetic::Int8 {
            // SAFETY: the eight-bit arithmetic loads only on a CPU with AVX-512F (and VNNI).
            return unsafe { self.encode_batch_avx512(sentences, out) };
        }
        self.encode_batch_in(sentences, out);
    }

    /// `encode_batch_in` compiled for AVX-512F: the loops over a row's values (sums, ReLU,
    /// layer norms, `tanh`) run 16 lanes wide where the portable build has SSE's 4. The same
    /// operations in the same order (Rust fuses no multiply-adds), so the same vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn encode_batch_avx512(&self, sentences: &[Vec<u32>], out: &mut Vec<[f32; DIM]>) {
        self.encode_batch_in(sentences, out);
    }

    /// Inlined into each caller, so that it is compiled with the caller's CPU features.
    #[inline(always)]
    fn encode_batch_in(&self, sentences: &[Vec<u32>], out: &mut Vec<[f32; DIM]>) {
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

        let ids: Vec<u32> = sentences.iter().flatten().copied().collect();
        let pieces = self.piece_rows(&ids);

        // feats: [embedding | branch 2 | branch 3 | branch 5] for every token.
        let mut scratch = self.scratch.take();
        let Scratch {
            feats,
            windows,
            h,
            sums,
            mean,
            y0,
            y1,
            y2,
            z,
        } = &mut scratch;
        let (feats, windows, h) = (
            sized(feats, n * FEATURES),
            sized(windows, n * 5 * BRANCH),
            sized(h, n * BRANCH),
        );
        for (row, &id) in feats.chunks_exact_mut(FEATURES).zip(&ids) {
            self.embedding(id, &mut row[..DIM]);
        }

        for (i, branch) in self.branches.iter().enumerate() {
            let k = branch.order * BRANCH;
            let column = i * BRANCH;
            // The first convolution: the sum of the window's slot products, then its bias,
            // ReLU, and the token's own input added back.
            for &(start, len) in &spans {
                for t in start..start + len {
                    let row = &mut h[t * BRANCH..(t + 1) * BRANCH];
                    row.copy_from_slice(&branch.b1);
                    for (slot, p) in branch.window(t, start, len).enumerate() {
                        if let Some(p) = p {
                            let at = branch.products + slot * BRANCH;
                            add(row, &pieces[p][at..at + BRANCH]);
                        }
                    }
                    relu(row);
                    add(row, &pieces[t][column..column + BRANCH]);
                }
            }
            gather_windows(h, branch, &spans, windows);
            let out_column = DIM + i * BRANCH;
            branch.w2.mul(n, windows, k, &mut feats[out_column..], FEATURES, false);
            for (t, row) in feats.chunks_exact_mut(FEATURES).enumerate() {
                let row = &mut row[out_column..out_column + BRANCH];
                add(row, &branch.b2);
                relu(row);
                add(row, &h[t * BRANCH..(t + 1) * BRANCH]);
            }
        }
        drop(pieces);

        for row in feats.chunks_exact_mut(FEATURES) {
            layer_norm(row, &self.ln_g, &self.ln_b, self.eps);
        }
        let s = sentences.len();
        let sums = sized(sums, s * FEATURES);
        sums.fill(0.0);
        for (sum, &(start, len)) in sums.chunks_exact_mut(FEATURES).zip(&spans) {
            for row in feats[start * FEATURES..(start + len) * FEATURES].chunks_exact(FEATURES) {
                add(sum, row);
            }
        }

        let mean = sized(mean, s * DIM);
        self.cnn_w.mul(s, sums, FEATURES, mean, DIM, false);
        for (row, &(_, len)) in mean.chunks_exact_mut(DIM).zip(&spans) {
            let len = len as f32;
            let r = 1.0 / len.sqrt();
            for (m, &b) in row.iter_mut().zip(&self.cnn_b) {
                *m = (*m + len * b) * r;
            }
        }

        let y0 = sized(y0, s * HIDDEN);
        self.d0.mul(s, mean, DIM, y0, HIDDEN, false);
        relu(y0);
        let y1 = sized(y1, s * HIDDEN);
        self.p1.mul(s, mean, DIM, y1, HIDDEN, false);
        self.d1.mul(s, y0, HIDDEN, y1, HIDDEN, true);
        relu(y1);
        let y2 = sized(y2, s * DIM);
        self.d2.mul(s, y1, HIDDEN, y2, DIM, false);
        relu(y2);
        let z = sized(z, s * DIM);
        self.p3.mul(s, y1, HIDDEN, z, DIM, false);
        self.d3.mul(s, y2, DIM, z, DIM, true);

        for row in z.chunks_exact(DIM) {
            let mut v = [0f32; DIM];
            v.copy_from_slice(row);
            tanh_in_place(&mut v);
            let norm2 = sum_f64(&v, |v| v * v) as f32;
            let r = 1.0 / norm2.max(self.eps).sqrt();
            for v in &mut v {
                *v *= r;
            }
            out.push(v);
        }
        self.scratch.give(scratch);
    }
}

/// Fills `windows` (tokens x order*256) with each token's n-gram window over `h` (tokens x 256):
/// the rows from `left` tokens before it on, zeros for slots outside its sentence.
#[inline(always)]
fn gather_windows(h: &[f32], branch: &Branch, spans: &[(usize, usize)], windows: &mut [f32]) {
    let k = branch.order * BRANCH;
    for &(start, len) in spans {
        for t in start..start + len {
            let window = &mut windows[t * k..(t + 1) * k];
            for (dst, p) in window.chunks_exact_mut(BRANCH).zip(branch.window(t, start, len)) {
                match p {
                    Some(p) => dst.copy_from_slice(&h[p * BRANCH..(p + 1) * BRANCH]),
                    None => dst.fill(0.0),
                }
            }
        }
    }
}

/// The model's first convolution, `order * 256` rows (slot by slot) by 256, as 256 rows by
/// `order * 256` (each slot's 256 outputs side by side), so that one product of a piece's
/// input gives its contribution at every slot.
fn slots_side_by_side(w1: &[f32], order: usize) -> Vec<f32> {
    let mut out = vec![0f32; w1.len()];
    for slot in 0..order {
        for j in 0..BRANCH {
            let from = (slot * BRANCH + j) * BRANCH;
            let to = j * order * BRANCH + slot * BRANCH;
            out[to..to + BRANCH].copy_from_slice(&w1[from..from + BRANCH]);
        }
    }
    out
}

#[inline(always)]
fn add(row: &mut [f32], other: &[f32]) {
    for (r, &o) in row.iter_mut().zip(other) {
        *r += o;
    }
}

#[inline(always)]
fn relu(row: &mut [f32]) {
    for r in row {
        *r = r.max(0.0);
    }
}

/// Layer normalisation of one row, in place (mean and variance summed in `f64`).
#[inline(always)]
fn layer_norm(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = row.len() as f64;
    let mean = (sum_f64(row, |v| v) / n) as f32;
    for v in row.iter_mut() {
        *v -= mean;
    }
    let var = (sum_f64(row, |v| v * v) / n) as f32;
    let r = 1.0 / (var + eps).sqrt();
    for ((v, &g), &b) in row.iter_mut().zip(gamma).zip(beta) {
        *v = *v * r * g + b;
    }
}

/// The sum of `f` of each value of `row`, in `f64`, kept as eight sums side by side: one
/// running sum is a chain of additions the compiler may not reorder, so it adds one value at a
/// time; eight it adds as one vector (layer norms were a seventh of a short text's encoding).
#[inline(always)]
fn sum_f64(row: &[f32], f: impl Fn(f64) -> f64) -> f64 {
    let mut lanes = [0f64; 8];
    let chunks = row.chunks_exact(8);
    let rest: f64 = chunks.remainder().iter().map(|&v| f(f64::from(v))).sum();
    for chunk in chunks {
        for (lane, &v) in lanes.iter_mut().zip(chunk) {
            *lane += f(f64::from(v));
        }
    }
    lanes.iter().sum::<f64>() + rest
}

/// `tanh` of each value, in place, as a rational function (Eigen's `ptanh_float`), within
/// 4e-7 of `tanh` everywhere: the compiler vectorises it, where `f32::tanh` is a call of the C
/// library for each value (a tenth of a short text's encoding).
#[inline(always)]
fn tanh_in_place(values: &mut [f32]) {
    const CLAMP: f32 = 7.905_311;
    const ALPHA: [f32; 7] = [
        4.893_524_6e-3,
        6.372_619_5e-4,
        1.485_722_35e-5,
        5.122_297_3e-8,
        -8.604_672e-11,
        2.000_188e-13,
        -2.760_768_4e-16,
    ];
    const BETA: [f32; 4] = [4.893_525e-3, 2.268_434_7e-3, 1.185_347_1e-4, 1.198_258_4e-6];
    for v in values {
        let x = v.clamp(-CLAMP, CLAMP);
        let x2 = x * x;
        let p = ALPHA.iter().rev().fold(0.0, |p, &a| p * x2 + a) * x;
        let q = BETA.iter().rev().fold(0.0, |q, &b| q * x2 + b);
        *v = p / q;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tanh_in_place_is_within_4e_7_of_tanh() {
        let mut values: Vec<f32> = (-120_000..=120_000).map(|i| i as f32 * 1e-4).collect();
        values.extend([f32::MAX, f32::MIN, 1e-30, -1e-30, 0.0]);
        let mut approximated = values.clone();
        tanh_in_place(&mut approximated);
        for (&x, &t) in values.iter().zip(&approximated) {
            let error = (f64::from(t) - f64::from(x).tanh()).abs();
            assert!(error <= 4e-7, "tanh({x}) = {t}, off by {error}");
        }
    }

    #[test]
    fn sum_f64_adds_every_value_whatever_the_length() {
        for len in [0, 1, 7, 8, 9, 768, 1001] {
            let row: Vec<f32> = (0..len).map(|i| i as f32 * 0.5).collect();
            let expected: f64 = row.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
            assert_eq!(sum_f64(&row, |v| v * v), expected, "{len} values");
        }
    }
}
