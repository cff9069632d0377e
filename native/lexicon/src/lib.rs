//! `lexicon`: an index's vocabulary held in memory as an `fst::Map`, for completions and typo
//! tolerance without a round trip to Elasticsearch.
//!
//! Each word maps to a `u64` packing three per-field document frequencies (title, text, comment),
//! 21 bits each. An fst shares prefixes and suffixes, so half a million words fit in a few MB,
//! and every search below is a walk of that automaton, pruned as early as possible.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use fst::automaton::{Automaton, Str};
use fst::{IntoStreamer, Map, MapBuilder, Streamer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Bits per field in a packed value: 3 × 21 = 63 bits fit a `u64`, and two million documents is
/// more than a blog will hold, so saturating there loses nothing that ranks differently.
const BITS: u32 = 21;
const MAX_COUNT: u64 = (1 << BITS) - 1;

type Counts = (u64, u64, u64);

fn pack(c: [u64; 3]) -> u64 {
    c.iter().rev().fold(0, |acc, &n| (acc << BITS) | n.min(MAX_COUNT))
}

fn unpack(v: u64) -> Counts {
    (v & MAX_COUNT, (v >> BITS) & MAX_COUNT, (v >> (2 * BITS)) & MAX_COUNT)
}

/// Rankings order by one field's count (0, 1, 2) or by the sum of the three (`SUM`).
const SUM: usize = 3;

fn order_count(v: u64, order: usize) -> u64 {
    let c = unpack(v);
    match order {
        0 => c.0,
        1 => c.1,
        2 => c.2,
        _ => c.0 + c.1 + c.2,
    }
}

/// Words waiting for the fst, which needs them sorted and unique: their bytes in one buffer and
/// (start, length, packed counts) per word. Half a million `String`s would double the build's
/// peak memory and leave the allocator half a million freed blocks to hold on to.
#[derive(Default)]
struct Staging {
    text: Vec<u8>,
    items: Vec<(u32, u32, u64)>,
}

impl Staging {
    fn push(&mut self, word: &[u8], counts: [u64; 3]) -> Result<(), &'static str> {
        let start = u32::try_from(self.text.len()).map_err(|_| "more than 4 GiB of words")?;
        let len = u32::try_from(word.len()).map_err(|_| "a word of more than 4 GiB")?;
        self.text.extend_from_slice(word);
        self.items.push((start, len, pack(counts)));
        Ok(())
    }

    fn word(&self, item: &(u32, u32, u64)) -> &[u8] {
        &self.text[item.0 as usize..(item.0 + item.1) as usize]
    }

    /// Sorts, sums repeated words per field (saturating, as `pack` does) and writes the fst.
    fn into_fst(mut self) -> Result<Vec<u8>, fst::Error> {
        let mut items = std::mem::take(&mut self.items);
        items.sort_unstable_by(|a, b| self.word(a).cmp(self.word(b)));
        let mut builder = MapBuilder::memory();
        let mut iter = items.iter().peekable();
        while let Some(item) = iter.next() {
            let word = self.word(item);
            let mut value = item.2;
            while let Some(more) = iter.next_if(|next| self.word(next) == word) {
                let (a, b) = (unpack(value), unpack(more.2));
                value = pack([a.0 + b.0, a.1 + b.1, a.2 + b.2]);
            }
            builder.insert(word, value)?;
        }
        builder.into_inner()
    }
}

/// A head index holds at most this share of the vocabulary. When a query's head cannot fill its
/// list, the query covers few words (about `HEAD_SHARE` × limit) and the full walk is short too.
const HEAD_SHARE: usize = 32;

/// For each ordering, the most frequent words (at most 1/`HEAD_SHARE` of them): all whose count
/// exceeds some floor. A top-k query first asks its head: if the head alone fills the list,
/// every word left out counts less than every word kept, so the list is final and the walk
/// skipped most of the vocabulary (a one-letter prefix covers a tenth of it, ~20 ms to walk).
///
/// One pass keeps the `size` largest counts in a min-heap per ordering. A word counting more than
/// the final minimum was pushed when seen (the minimum only grows) and never popped (only the
/// minimum is), so those above it are exactly all words above it.
fn build_heads(map: &Map<Vec<u8>>) -> Result<Vec<Map<Vec<u8>>>, fst::Error> {
    let size = map.len() / HEAD_SHARE;
    let mut heaps: Vec<BinaryHeap<Reverse<Candidate>>> = (0..=SUM).map(|_| BinaryHeap::with_capacity(size + 1)).collect();
    let mut stream = map.stream();
    while let Some((key, v)) = stream.next() {
        for (order, heap) in heaps.iter_mut().enumerate() {
            let count = order_count(v, order);
            if heap.len() == size {
                match heap.peek() {
                    Some(Reverse(least)) if count > least.count => heap.pop(),
                    _ => continue,
                };
            }
            heap.push(Reverse(Candidate {
                count,
                key: key.to_vec(),
                value: v,
            }));
        }
    }
    heaps
        .into_iter()
        .map(|heap| {
            let floor = heap.peek().map_or(0, |Reverse(least)| least.count);
            let mut kept: Vec<_> = heap.into_iter().map(|Reverse(c)| c).filter(|c| c.count > floor).collect();
            kept.sort_unstable_by(|a, b| a.key.cmp(&b.key));
            let mut builder = MapBuilder::memory();
            for c in kept {
                builder.insert(c.key, c.value)?;
            }
            Map::new(builder.into_inner()?)
        })
        .collect()
}

/// A word for a head index, ordered by its count alone: a head keeps all words of a count or
/// none, so ties need no order, and comparing words would slow the heap down.
struct Candidate {
    count: u64,
    key: Vec<u8>,
    value: u64,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.count == other.count
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.count.cmp(&other.count)
    }
}

/// Keeps the `limit` best-ranked (smallest `rank`) entries of a stream without sorting it all.
///
/// fst streams arrive in ascending key order, so a newcomer whose rank ties the worst kept entry
/// has the greater word and ranks after it: only a strictly better rank gets in, and the heap never
/// has to compare words for that decision.
struct TopK<R: Ord> {
    limit: usize,
    heap: BinaryHeap<(R, String, u64)>,
}

impl<R: Ord> TopK<R> {
    fn new(limit: usize) -> Self {
        TopK {
            limit,
            heap: BinaryHeap::with_capacity(limit.min(4096) + 1),
        }
    }

    fn is_full(&self) -> bool {
        self.heap.len() >= self.limit
    }

    fn offer(&mut self, rank: R, key: &[u8], value: u64) {
        if self.limit == 0 {
            return;
        }
        if self.is_full() {
            match self.heap.peek() {
                Some((worst, _, _)) if rank < *worst => {
                    self.heap.pop();
                }
                _ => return,
            }
        }
        self.heap.push((rank, String::from_utf8_lossy(key).into_owned(), value));
    }

    fn into_sorted(self) -> Vec<(R, String, u64)> {
        self.heap.into_sorted_vec()
    }
}

/// A dynamic-programming automaton for the optimal-string-alignment (restricted Damerau-)
/// Levenshtein distance between `query` and the key being walked, counted in characters.
///
/// The state is the DP row for the key's characters so far. Whole-word mode matches when the
/// row's last cell (distance to the whole query) is within `max`; prefix mode matches a key once
/// any of its prefixes came within `max` of the query, and reports the smallest such distance.
/// Built by hand because `levenshtein_automata`'s prefix DFA misses some distance-2 matches.
struct Osa {
    query: Vec<char>,
    max: u8,
    prefix: bool,
}

#[derive(Clone)]
enum State {
    /// No continuation can match.
    Dead,
    /// Prefix mode: a prefix matched at this distance and nothing longer can do better, so every
    /// continuation matches at it and the walk carries no row any more.
    Settled(u8),
    Live(Live),
}

#[derive(Clone)]
struct Live {
    /// The current row followed by the one before it: a transposition reads two rows back.
    rows: Vec<u8>,
    /// The key's last whole character, the other half of a transposition.
    last: Option<char>,
    /// fst feeds bytes: a multi-byte character waits here until it is whole.
    pending: [u8; 4],
    pending_len: u8,
    /// Prefix mode: the smallest last cell seen so far (distance of the best prefix).
    best: u8,
}

/// Length of a UTF-8 sequence from its first byte (0: not a first byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 0,
    }
}

impl Osa {
    fn new(query: &str, max: u8, prefix: bool) -> Self {
        Osa {
            query: query.chars().collect(),
            max,
            prefix,
        }
    }

    /// Cells are capped at max + 1: beyond that only "too far" matters, and a byte suffices.
    fn cap(&self) -> u8 {
        self.max + 1
    }

    /// The distance a (matching) state stands for.
    fn distance(&self, state: &State) -> u8 {
        match state {
            State::Dead => self.cap(),
            State::Settled(d) => *d,
            State::Live(l) if self.prefix => l.best,
            State::Live(l) => l.rows[self.query.len()],
        }
    }

    /// Walks a whole key, to learn the distance of a key the stream yielded (cheaper than asking
    /// the stream to clone every state it visits).
    fn run(&self, key: &[u8]) -> State {
        key.iter().fold(self.start(), |s, &b| self.accept(&s, b))
    }

    /// Settles, kills or keeps a freshly computed row.
    fn judge(&self, rows: Vec<u8>, last: Option<char>, best: u8) -> State {
        let width = self.query.len() + 1;
        let low = *rows[..width].iter().min().unwrap();
        if self.prefix && best <= self.max && low >= best {
            // A row's minimum never decreases as the key grows, so no longer prefix beats `best`.
            return State::Settled(best);
        }
        if low > self.max && !(self.prefix && best <= self.max) {
            // Sound with transpositions too: a cell two rows back at d puts d + 1 on the
            // diagonal of the row between, so that row's minimum would already be <= max.
            return State::Dead;
        }
        State::Live(Live {
            rows,
            last,
            pending: [0; 4],
            pending_len: 0,
            best,
        })
    }

    fn step(&self, live: &Live, ch: char) -> State {
        let q = &self.query;
        let width = q.len() + 1;
        let (row, before) = live.rows.split_at(width);
        let mut next = vec![0u8; 2 * width];
        next[0] = (row[0] + 1).min(self.cap());
        for j in 1..width {
            let cost = (q[j - 1] != ch) as u8;
            let mut v = (row[j].min(next[j - 1]) + 1).min(row[j - 1] + cost);
            if j > 1 && ch == q[j - 2] && live.last == Some(q[j - 1]) {
                v = v.min(before[j - 2] + 1);
            }
            next[j] = v.min(self.cap());
        }
        next[width..].copy_from_slice(row);
        let best = live.best.min(next[width - 1]);
        self.judge(next, Some(ch), best)
    }
}

impl Automaton for Osa {
    type State = State;

    fn start(&self) -> State {
        let width = self.query.len() + 1;
        let rows: Vec<u8> = (0..2 * width).map(|j| (j % width).min(self.cap() as usize) as u8).collect();
        // The empty prefix is already query.len() edits away.
        let best = rows[width - 1];
        self.judge(rows, None, best)
    }

    fn is_match(&self, state: &State) -> bool {
        match state {
            State::Dead => false,
            State::Settled(_) => true,
            State::Live(l) => l.pending_len == 0 && self.distance(state) <= self.max,
        }
    }

    fn can_match(&self, state: &State) -> bool {
        !matches!(state, State::Dead)
    }

    fn will_always_match(&self, state: &State) -> bool {
        matches!(state, State::Settled(_))
    }

    fn accept(&self, state: &State, byte: u8) -> State {
        let live = match state {
            State::Live(l) => l,
            other => return other.clone(),
        };
        if live.pending_len == 0 && byte < 0x80 {
            return self.step(live, byte as char);
        }
        let mut pending = live.pending;
        let len = live.pending_len as usize + 1;
        pending[len - 1] = byte;
        let need = utf8_len(pending[0]);
        if need < 2 || len > need {
            return State::Dead; // not UTF-8: no key of ours
        }
        if len < need {
            return State::Live(Live {
                pending,
                pending_len: len as u8,
                ..live.clone()
            });
        }
        match std::str::from_utf8(&pending[..len]).ok().and_then(|s| s.chars().next()) {
            Some(ch) => self.step(live, ch),
            None => State::Dead,
        }
    }
}

/// Search results rank by distance, then the ordering's count descending (then word).
type Rank = (u8, Reverse<u64>);

/// Offers every key `aut` accepts (and `keep` lets through) to `top`, ranked by its distance to
/// `osa`'s query. The distance is recomputed for the few keys that match rather than asking the
/// stream for states: that would clone every state on the way.
fn rank_matches<A: Automaton>(map: &Map<Vec<u8>>, aut: A, osa: &Osa, order: usize, top: &mut TopK<Rank>, keep: impl Fn(&[u8], u8) -> bool) {
    let mut stream = map.search(aut).into_stream();
    while let Some((key, v)) = stream.next() {
        let d = osa.distance(&osa.run(key));
        if keep(key, d) {
            top.offer((d, Reverse(order_count(v, order))), key, v);
        }
    }
}

fn with_distance(ranked: Vec<(Rank, String, u64)>) -> Vec<(String, u8, Counts)> {
    ranked.into_iter().map(|((d, _), w, v)| (w, d, unpack(v))).collect()
}

/// fst's own `Display` says only "FST error"; the inner error says what is wrong.
fn describe(e: fst::Error) -> String {
    match e {
        fst::Error::Fst(e) => e.to_string(),
        e => e.to_string(),
    }
}

/// The ordering a `field` argument asks for.
fn check_field(field: Option<i64>) -> PyResult<usize> {
    match field {
        None => Ok(SUM),
        Some(f @ 0..=2) => Ok(f as usize),
        Some(f) => Err(PyValueError::new_err(format!("field must be 0, 1, 2 or None, not {f}"))),
    }
}

fn check_edits(max_edits: u32) -> PyResult<u8> {
    if max_edits > 2 {
        return Err(PyValueError::new_err(format!("max_edits must be 0, 1 or 2, not {max_edits}")));
    }
    Ok(max_edits as u8)
}

/// An immutable in-memory vocabulary: word -> (title, text, comment) document frequencies.
#[pyclass(frozen, module = "lexicon")]
struct Lexicon {
    map: Map<Vec<u8>>,
    /// One head index per ordering (see `build_heads`), each a small fst of its own.
    heads: Vec<Map<Vec<u8>>>,
}

#[pymethods]
impl Lexicon {
    /// Builds the fst bytes from an iterable of (word, (title, text, comment)) in any order;
    /// repeated words have their counts summed per field, empty words are skipped.
    #[staticmethod]
    fn build<'py>(py: Python<'py>, entries: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let mut staging = Staging::default();
        for item in entries.try_iter()? {
            let (word, (a, b, c)): (Bound<'py, PyString>, Counts) = item?.extract()?;
            // A temporary copy: `to_str` would cache a UTF-8 copy inside every non-ASCII str.
            let word = word.encode_utf8()?;
            if !word.as_bytes().is_empty() {
                staging.push(word.as_bytes(), [a, b, c]).map_err(PyValueError::new_err)?;
            }
        }
        let bytes = py
            .detach(move || staging.into_fst())
            .map_err(|e| PyValueError::new_err(describe(e)))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Copies `data` (so the caller's buffer can go) and checks it: the fst's checksum covers every
    /// byte, so a truncated or foreign blob is refused here rather than misread later.
    #[new]
    fn new(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let data = data.to_vec();
        py.detach(move || {
            let map = Map::new(data).map_err(describe)?;
            map.as_fst().verify().map_err(describe)?;
            let heads = build_heads(&map).map_err(describe)?;
            Ok(Lexicon { map, heads })
        })
        .map_err(|e: String| PyValueError::new_err(format!("not a valid lexicon: {e}")))
    }

    fn __len__(&self) -> usize {
        self.map.len()
    }

    /// Bytes held: the fst and its head indexes.
    #[getter]
    fn nbytes(&self) -> usize {
        std::iter::once(&self.map).chain(&self.heads).map(|m| m.as_fst().size()).sum()
    }

    fn get(&self, word: &str) -> Option<Counts> {
        self.map.get(word).map(unpack)
    }

    fn __contains__(&self, word: &str) -> bool {
        self.map.contains_key(word)
    }

    /// The `limit` most frequent words that extend `prefix`, by counts[field] (or their sum)
    /// descending, then word.
    #[pyo3(signature = (prefix, limit, field=None))]
    fn completions(&self, py: Python<'_>, prefix: &str, limit: usize, field: Option<i64>) -> PyResult<Vec<(String, Counts)>> {
        let order = check_field(field)?;
        let scan = |map: &Map<Vec<u8>>| {
            let mut top = TopK::new(limit);
            let mut stream = map.search(Str::new(prefix).starts_with()).into_stream();
            while let Some((key, v)) = stream.next() {
                if key.len() > prefix.len() {
                    top.offer(Reverse(order_count(v, order)), key, v);
                }
            }
            top
        };
        let top = py.detach(|| {
            let top = scan(&self.heads[order]);
            if top.is_full() {
                top
            } else {
                scan(&self.map)
            }
        });
        Ok(top.into_sorted().into_iter().map(|(_, w, v)| (w, unpack(v))).collect())
    }

    /// Words within `max_edits` of `word` (not `word` itself) that start with its first
    /// `prefix_length` characters, by distance, then summed counts descending, then word.
    #[pyo3(signature = (word, max_edits, prefix_length=0, limit=1000))]
    fn within(
        &self,
        py: Python<'_>,
        word: &str,
        max_edits: u32,
        prefix_length: usize,
        limit: usize,
    ) -> PyResult<Vec<(String, u8, Counts)>> {
        let max = check_edits(max_edits)?;
        let top = py.detach(|| {
            let head: String = word.chars().take(prefix_length).collect();
            let osa = Osa::new(word, max, false);
            let mut top = TopK::new(limit);
            let aut = (&osa).intersection(Str::new(&head).starts_with());
            rank_matches(&self.map, aut, &osa, SUM, &mut top, |key, _| key != word.as_bytes());
            top.into_sorted()
        });
        Ok(with_distance(top))
    }

    /// Words that start with something within `max_edits` of `prefix` (a typo in a word still being
    /// typed), at that smallest distance; by distance, then counts[field] (or sum) descending, then word.
    #[pyo3(signature = (prefix, max_edits, limit=50, field=None))]
    fn prefix_within(
        &self,
        py: Python<'_>,
        prefix: &str,
        max_edits: u32,
        limit: usize,
        field: Option<i64>,
    ) -> PyResult<Vec<(String, u8, Counts)>> {
        let max = check_edits(max_edits)?;
        let order = check_field(field)?;
        let top = py.detach(|| {
            // A short prefix is within an edit or two of much of the vocabulary, but usually has
            // `limit` matches at fewer edits: deepen one edit at a time. `closer` holds every
            // match at fewer than `edits` edits (fewer than `limit` of them).
            let mut closer = TopK::new(limit);
            for edits in 0..=max {
                let osa = Osa::new(prefix, edits, true);
                // Head words at exactly `edits` outrank every other word at `edits`: if they
                // complete the list, the whole vocabulary need not be walked.
                let mut top = TopK::new(limit - closer.heap.len());
                rank_matches(&self.heads[order], &osa, &osa, order, &mut top, |_, d| d == edits);
                if top.is_full() {
                    return closer.into_sorted().into_iter().chain(top.into_sorted()).collect();
                }
                let mut all = TopK::new(limit);
                rank_matches(&self.map, &osa, &osa, order, &mut all, |_, _| true);
                if all.is_full() || edits == max {
                    return all.into_sorted();
                }
                closer = all;
            }
            unreachable!("the last pass returns")
        });
        Ok(with_distance(top))
    }
}

#[pymodule]
fn lexicon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Lexicon>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn osa(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                d[i][j] = if i == 0 || j == 0 {
                    i + j
                } else {
                    let mut v = (d[i - 1][j] + 1)
                        .min(d[i][j - 1] + 1)
                        .min(d[i - 1][j - 1] + (a[i - 1] != b[j - 1]) as usize);
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        v = v.min(d[i - 2][j - 2] + 1);
                    }
                    v
                };
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn automaton_agrees_with_reference() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "ca", "abcd", "éß", "ßé", "😀a", "a😀", "firefox", "firfox", "fierfox",
        ];
        for q in words {
            for max in 0..=2u8 {
                let whole = Osa::new(q, max, false);
                let pre = Osa::new(q, max, true);
                for w in words {
                    let d = osa(w, q);
                    let s = whole.run(w.as_bytes());
                    assert_eq!(whole.is_match(&s), d <= max as usize, "{w} vs {q} at {max}");
                    if d <= max as usize {
                        assert_eq!(whole.distance(&s) as usize, d);
                    }
                    let pd = (0..=w.chars().count())
                        .map(|n| osa(&w.chars().take(n).collect::<String>(), q))
                        .min()
                        .unwrap();
                    let s = pre.run(w.as_bytes());
                    assert_eq!(pre.is_match(&s), pd <= max as usize, "prefix {w} vs {q} at {max}");
                    if pd <= max as usize {
                        assert_eq!(pre.distance(&s) as usize, pd);
                    }
                }
            }
        }
    }

    #[test]
    fn pack_saturates() {
        assert_eq!(unpack(pack([1, MAX_COUNT + 5, 7])), (1, MAX_COUNT, 7));
    }
}
