//! This node's index of the items' meanings, for search: one bit per dimension (its sign),
//! 64 bytes an item, so a million items take 64 MB and a scan of them a few milliseconds.
//! The bits only choose the candidates; they are ranked again on their stored meanings.
//! It follows the `item_meanings` table by its write sequence, so what other nodes (or this
//! one) wrote arrives within a refresh, and what committed after a later write (PostgreSQL)
//! at the next look back (`fill`).

use std::{collections::HashMap, sync::RwLock};

use super::{CATCH_UP_BATCH, read_from};
use crate::{
    domain::{ItemId, MEANING_DIM, Meaning},
    store::{Store, StoreError},
};

const WORDS: usize = MEANING_DIM / 64;

type Bits = [u64; WORDS];

#[derive(Default)]
pub struct Index {
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The last write sequence read.
    seq: i64,
    /// How many times what the index holds changed: a search's answer is kept only as long as
    /// this stays the same.
    changes: u64,
    slot: HashMap<ItemId, usize>,
    ids: Vec<ItemId>,
    bits: Vec<Bits>,
}

fn bits_of(meaning: &Meaning) -> Bits {
    let mut bits = [0u64; WORDS];
    for (word, values) in bits.iter_mut().zip(meaning.values().chunks_exact(64)) {
        // No branch for each value: the compiler turns the fold into a few vector compares.
        *word = values
            .iter()
            .enumerate()
            .fold(0, |word, (i, value)| word | (u64::from(*value > 0.0) << i));
    }
    bits
}

impl Index {
    /// Reads what was written since the last catch-up (and, to `look_back`, the last
    /// [`super::LOOKBACK`] before it again); the number of meanings read.
    pub async fn catch_up(&self, store: &Store, model: &str, look_back: bool) -> Result<usize, StoreError> {
        let mut from = read_from(self.read().seq, look_back);
        let mut read = 0;
        loop {
            let written = store.meanings_written_since(model, from, CATCH_UP_BATCH).await?;
            let Some(last) = written.last() else { break };
            from = last.seq;
            read += written.len();
            {
                let mut inner = self.inner.write().expect("the index is never left half-written");
                inner.seq = inner.seq.max(from);
                for row in &written {
                    inner.put(row.item, row.meaning.as_ref());
                }
            }
            if written.len() < CATCH_UP_BATCH as usize {
                break;
            }
            tokio::task::yield_now().await;
        }
        Ok(read)
    }

    /// Records meanings this node just wrote (those without one leave the index), which took
    /// the write sequence numbers `seqs`. When those follow on from the last one read, with
    /// none between, nobody else wrote there, and the next catch-up starts after them: in a
    /// flood of new reports, reading back each of this node's own meanings cost a create more
    /// than putting it here.
    pub fn put(&self, meanings: &[(i64, Option<Meaning>)], mut seqs: Vec<i64>) {
        let mut inner = self.inner.write().expect("the index is never left half-written");
        for (id, meaning) in meanings {
            if let Some(id) = ItemId::new(*id) {
                inner.put(id, meaning.as_ref());
            }
        }
        seqs.sort_unstable();
        if let (Some(&first), Some(&last)) = (seqs.first(), seqs.last())
            && first == inner.seq + 1
            && last - first + 1 == seqs.len() as i64
        {
            inner.seq = last;
        }
    }

    /// Up to `k` items whose meanings are closest to `query`'s by their bits, closest first.
    /// Items deleted since stay here: their readers find them gone.
    pub fn closest(&self, query: &Meaning, k: usize) -> Vec<ItemId> {
        let query = bits_of(query);
        let inner = self.read();
        let mut scored: Vec<(u32, usize)> = inner
            .bits
            .iter()
            .enumerate()
            .map(|(slot, bits)| (bits.iter().zip(&query).map(|(a, b)| (a ^ b).count_ones()).sum(), slot))
            .collect();
        if scored.len() > k {
            scored.select_nth_unstable(k);
            scored.truncate(k);
        }
        scored.sort_unstable();
        scored.into_iter().map(|(_, slot)| inner.ids[slot]).collect()
    }

    /// Grows whenever what the index holds changes.
    pub fn changes(&self) -> u64 {
        self.read().changes
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().expect("the index is never left half-written")
    }
}

impl Inner {
    fn put(&mut self, id: ItemId, meaning: Option<&Meaning>) {
        match (self.slot.get(&id).copied(), meaning) {
            (Some(slot), Some(meaning)) => {
                let bits = bits_of(meaning);
                if self.bits[slot] == bits {
                    return;
                }
                self.bits[slot] = bits;
            }
            (None, Some(meaning)) => {
                self.slot.insert(id, self.ids.len());
                self.ids.push(id);
                self.bits.push(bits_of(meaning));
            }
            (Some(slot), None) => {
                // The last one takes its place.
                self.slot.remove(&id);
                self.ids.swap_remove(slot);
                self.bits.swap_remove(slot);
                if let Some(moved) = self.ids.get(slot) {
                    self.slot.insert(*moved, slot);
                }
            }
            (None, None) => return,
        }
        self.changes += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meaning(signs: &[f32]) -> Meaning {
        let mut values = vec![0.01; MEANING_DIM];
        values[..signs.len()].copy_from_slice(signs);
        let norm = values.iter().map(|v| v * v).sum::<f32>().sqrt();
        Meaning::new(&values.iter().map(|v| v / norm).collect::<Vec<_>>())
    }

    #[test]
    fn the_closest_by_their_bits_first_and_removed_ones_gone() {
        let index = Index::default();
        let query = meaning(&[1.0, 1.0, 1.0, 1.0]);
        index.put(
            &[
                (1, Some(meaning(&[-1.0, -1.0, -1.0, -1.0]))),
                (2, Some(meaning(&[1.0, 1.0, 1.0, -1.0]))),
                (3, Some(meaning(&[1.0, 1.0, 1.0, 1.0]))),
                (4, Some(meaning(&[1.0, -1.0, -1.0, 1.0]))),
            ],
            Vec::new(),
        );
        let ids = |found: Vec<ItemId>| found.iter().map(|id| id.get()).collect::<Vec<_>>();
        assert_eq!(ids(index.closest(&query, 3)), [3, 2, 4]);
        let changes = index.changes();
        // The same again (a catch-up reads back what it read): nothing changed.
        index.put(&[(1, Some(meaning(&[-1.0, -1.0, -1.0, -1.0]))), (5, None)], Vec::new());
        assert_eq!(index.changes(), changes);
        index.put(&[(3, None), (2, Some(meaning(&[-1.0, -1.0, 1.0, -1.0])))], Vec::new());
        assert_eq!(ids(index.closest(&query, 10)), [4, 2, 1]);
        assert_eq!(index.changes(), changes + 2);
    }

    /// A bit for each positive value, in order: the sign of value `i` is bit `i % 64` of
    /// word `i / 64`.
    #[test]
    fn bits_are_the_signs_in_order() {
        let mut values = vec![-0.01; MEANING_DIM];
        for i in [0, 5, 63, 64, 130, MEANING_DIM - 1] {
            values[i] = 0.02;
        }
        let bits = bits_of(&Meaning::new(&values));
        let mut expected = [0u64; WORDS];
        for i in [0, 5, 63, 64, 130, MEANING_DIM - 1] {
            expected[i / 64] |= 1 << (i % 64);
        }
        assert_eq!(bits, expected);
    }

    /// What this node wrote right after what the index read is not read again; what follows
    /// a gap (another node's write between) is, from where the index last read.
    #[test]
    fn own_writes_after_the_last_read_move_the_catch_up_on() {
        let index = Index::default();
        let some = |id| (id, Some(meaning(&[1.0])));
        index.put(&[some(1), some(2)], vec![2, 1]);
        assert_eq!(index.read().seq, 2);
        // Seq 3 was another node's (or is still uncommitted): 4 and 5 wait for the catch-up.
        index.put(&[some(3), some(4)], vec![4, 5]);
        assert_eq!(index.read().seq, 2);
        // A meaning already there (another node's) took no seq: the rest still follow on.
        index.put(&[some(5), some(6)], vec![3]);
        assert_eq!(index.read().seq, 3);
        // Not one run: a gap inside.
        index.put(&[some(7), some(8)], vec![4, 6]);
        assert_eq!(index.read().seq, 3);
        assert_eq!(index.read().ids.len(), 8);
    }
}
