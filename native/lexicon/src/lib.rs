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
/// Levenshtein distance between `query` and the key being walked, counted in characters, up to
/// `M` edits.
///
/// Whole-word mode (`within`) matches a key whose distance is within `M`; prefix mode
/// (`prefix_within`) matches a key once any of its prefixes came within `M` of the query, and
/// reports the smallest such distance. Built by hand because `levenshtein_automata`'s prefix DFA
/// misses some distance-2 matches.
///
/// The state stands for the DP row of the key's characters so far, cells capped at `M + 1`:
/// beyond that only "too far" matters. A cell `d[i][j]` (the key's first `i` characters against
/// the query's first `j`) is at least `|i - j|`, so only the `2M + 1` cells of the band
/// `i - M <= j <= i + M` can be below the cap, and the state keeps just those, for the current row
/// and the one before (a transposition reads two rows back): a few bytes, copied rather than
/// allocated on every step.
struct Band<const M: usize> {
    /// The query's characters, after `M + 2` and before `2M + 8` `PAD`s: `window` needs no bounds.
    padded: Vec<u32>,
    len: usize,
    prefix: bool,
}

/// Stands for a query character out of range: equals no character and not `NO_CHAR` either.
const PAD: u32 = u32::MAX - 1;
/// `BandState::last` before the key's first character.
const NO_CHAR: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct BandState {
    /// Characters of the key read so far: the row.
    i: u32,
    /// The last of them (a transposition's other half), or `NO_CHAR`.
    last: u32,
    /// `row[k] = d[i][i - M + k]` for `k < 2M + 1` (the cap off the table); `prev` the same for
    /// row `i - 1`.
    row: [u8; 5],
    prev: [u8; 5],
    /// fst feeds bytes: a multi-byte character waits here until it is whole.
    pending: [u8; 4],
    pending_len: u8,
    /// The length of the pending character (0: none pending).
    need: u8,
    /// Prefix mode: the smallest `d[i][len]` so far (distance of the best prefix).
    best: u8,
    /// Prefix mode: a prefix matched at `best` and nothing longer can do better, so every
    /// continuation matches at it and the walk steps no more.
    settled: bool,
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

impl<const M: usize> Band<M> {
    const WIDTH: usize = 2 * M + 1;
    const CAP: u8 = M as u8 + 1;
    const BEFORE: usize = M + 2;

    fn new(query: &str, prefix: bool) -> Self {
        let mut padded = vec![PAD; Self::BEFORE];
        padded.extend(query.chars().map(u32::from));
        let len = padded.len() - Self::BEFORE;
        padded.resize(padded.len() + 2 * M + 8, PAD);
        Band { padded, len, prefix }
    }

    fn start(&self) -> BandState {
        let mut row = [Self::CAP; 5];
        for (k, cell) in row.iter_mut().enumerate().take(Self::WIDTH) {
            // d[0][j] = j
            if let Some(j) = k.checked_sub(M).filter(|&j| j <= self.len) {
                *cell = (j as u8).min(Self::CAP);
            }
        }
        let state = BandState {
            i: 0,
            last: NO_CHAR,
            row,
            prev: [Self::CAP; 5],
            pending: [0; 4],
            pending_len: 0,
            need: 0,
            best: Self::CAP,
            settled: false,
        };
        // The empty prefix is already query.len() edits away.
        self.judge(state, 0).expect("d[0][0] = 0")
    }

    /// `d[i][len]`, the distance of the key so far to the whole query.
    #[inline(always)]
    fn last_cell(&self, s: &BandState) -> u8 {
        let k = (self.len + M).checked_sub(s.i as usize).filter(|&k| k < Self::WIDTH);
        k.map_or(Self::CAP, |k| s.row[k])
    }

    /// Settles, kills (`None`) or keeps a fresh row whose smallest cell is `low`.
    #[inline(always)]
    fn judge(&self, mut s: BandState, low: u8) -> Option<BandState> {
        let max = M as u8;
        if self.prefix {
            s.best = s.best.min(self.last_cell(&s));
            if s.best <= max && low >= s.best {
                // A row's minimum never decreases as the key grows, so no longer prefix beats `best`.
                s.settled = true;
                return Some(s);
            }
        }
        if low > max && !(self.prefix && s.best <= max) {
            // Sound with transpositions too: a cell two rows back at d puts d + 1 on the
            // diagonal of the row between, so that row's minimum would already be <= max.
            return None;
        }
        Some(s)
    }

    /// The query's characters `i - M - 2 .. i + M` (or `PAD`): for cell `k` of row `i`, that is
    /// column `j = i - M + k`, `window[k + 1]` is `query[j - 1]` and `window[k]` is `query[j - 2]`.
    /// In range: a row that is live and not settled has a cell `j <= len` within `M` in its band,
    /// so `i <= len + M + 1` here.
    #[inline(always)]
    fn window(&self, i: usize) -> &[u32; 6] {
        self.padded[i..i + 6].try_into().expect("six characters")
    }

    /// The next row: `d[i][j]` is the least of `d[i - 1][j] + 1`, `d[i][j - 1] + 1`,
    /// `d[i - 1][j - 1]` (+ 1 unless the characters are equal) and, where the last two characters
    /// of each are swapped, `d[i - 2][j - 2] + 1`. Off the band, every cell is at the cap.
    #[inline(always)]
    fn step_char(&self, s: &BandState, ch: u32) -> Option<BandState> {
        let cap = Self::CAP;
        let i = s.i as usize + 1;
        let window = self.window(i);
        // Cells past the query's end (j > len) are no cells: kept at the cap.
        let last_col = (self.len + M).checked_sub(i);
        let mut row = [cap; 5];
        let mut left = cap; // d[i][j - 1]: the cap left of the band
        let mut low = cap;
        for k in 0..Self::WIDTH {
            let diag = s.row[k] + (window[k + 1] != ch) as u8;
            let up = if k + 1 < Self::WIDTH { s.row[k + 1] } else { cap };
            let swapped = window[k] == ch && window[k + 1] == s.last;
            let swap = if swapped { s.prev[k] + 1 } else { cap };
            let mut v = (up.min(left) + 1).min(diag).min(swap).min(cap);
            if last_col.is_none_or(|last| k > last) {
                v = cap;
            }
            row[k] = v;
            left = v;
            low = low.min(v);
        }
        let next = BandState {
            i: i as u32,
            last: ch,
            row,
            prev: s.row,
            pending: [0; 4],
            pending_len: 0,
            need: 0,
            ..*s
        };
        self.judge(next, low)
    }

    /// Reads one byte of the key; `None` where no continuation can match (or the key is not UTF-8,
    /// which no key built by `Lexicon.build` is).
    #[inline(always)]
    fn step(&self, s: &BandState, byte: u8) -> Option<BandState> {
        if s.settled {
            return Some(*s);
        }
        if s.need == 0 && byte < 0x80 {
            return self.step_char(s, u32::from(byte));
        }
        let mut t = *s;
        if s.need == 0 {
            t.need = utf8_len(byte) as u8;
            if t.need < 2 {
                return None;
            }
        }
        t.pending[t.pending_len as usize] = byte;
        t.pending_len += 1;
        if t.pending_len < t.need {
            return Some(t);
        }
        let ch = std::str::from_utf8(&t.pending[..t.pending_len as usize]).ok()?.chars().next()?;
        self.step_char(s, u32::from(ch))
    }

    /// The distance at which the key read so far matches, if it does.
    #[inline(always)]
    fn distance(&self, s: &BandState) -> Option<u8> {
        if s.settled {
            return Some(s.best);
        }
        let d = if self.prefix { s.best } else { self.last_cell(s) };
        Some(d).filter(|&d| d <= M as u8 && s.need == 0)
    }

    /// Fills `out` with the first bytes, ascending, of the only characters that can keep `s` alive,
    /// and says how many; `None` when any character can. Where no cell is below `M` (and, in prefix
    /// mode, no prefix matched yet), a step keeps a cell within `M` only by a match on the diagonal
    /// from a cell at `M`, or by a transposition: up and left add an edit to at least `M`. A
    /// transposition into `d[i][j]` reads the character `query[j - 2]` from `d[i - 2][j - 2] < M`,
    /// and then `d[i - 1][j - 2] <= M` (one more key character), whose diagonal match reads that
    /// same character: it is a candidate already.
    #[inline(always)]
    fn candidates(&self, s: &BandState, out: &mut [u8; 8]) -> Option<usize> {
        let max = M as u8;
        if s.settled || s.need != 0 || (self.prefix && s.best <= max) || s.row[..Self::WIDTH].iter().any(|&v| v < max) {
            return None;
        }
        let window = self.window(s.i as usize + 1);
        let mut n = 0;
        for k in 0..Self::WIDTH {
            if s.row[k] <= max {
                if let Some(ch) = char::from_u32(window[k + 1]) {
                    out[n] = ch.encode_utf8(&mut [0; 4]).as_bytes()[0];
                    n += 1;
                }
            }
        }
        let out = &mut out[..n];
        out.sort_unstable();
        let mut kept = 0;
        for x in 0..n {
            if kept == 0 || out[kept - 1] != out[x] {
                out[kept] = out[x];
                kept += 1;
            }
        }
        Some(kept)
    }
}

/// Calls `found(key, value, distance)` for every key that starts with `head` and that `band`
/// matches, in key order (as an fst stream would).
///
/// A hand-written depth-first walk rather than `Map::search`: a stream decodes the node behind
/// every transition it tries, live or not, and tries every transition. This walk steps the
/// automaton first, and where only a few characters can keep the state alive it looks those up
/// (`Node::find_input`) instead of trying every transition of the node.
fn walk<'f, const M: usize>(fst: &'f fst::raw::Fst<Vec<u8>>, band: &Band<M>, head: &str, mut found: impl FnMut(&[u8], u64, u8)) {
    use fst::raw::{Node, Output};

    struct Frame<'f> {
        node: Node<'f>,
        out: Output,
        state: BandState,
        /// The next transition to try, or the next of `cands`.
        next: u16,
        /// `u16::MAX`: try every transition; else look up the first `ncands` of `cands`.
        ncands: u16,
        cands: [u8; 8],
    }

    let frame = |node: Node<'f>, out: Output, state: BandState| -> Frame<'f> {
        let mut cands = [0; 8];
        let ncands = match band.candidates(&state, &mut cands) {
            Some(n) if n < node.len() => n as u16,
            _ => u16::MAX,
        };
        Frame {
            node,
            out,
            state,
            next: 0,
            ncands,
            cands,
        }
    };

    // Down `head`, which every key must start with.
    let mut node = fst.root();
    let mut out = Output::zero();
    let mut state = band.start();
    let mut key = Vec::with_capacity(64);
    for &b in head.as_bytes() {
        let Some(t) = node.find_input(b).map(|i| node.transition(i)) else {
            return;
        };
        let Some(s) = band.step(&state, b) else { return };
        (state, out, node) = (s, out.cat(t.out), fst.node(t.addr));
        key.push(b);
    }
    if node.is_final() {
        if let Some(d) = band.distance(&state) {
            found(&key, out.cat(node.final_output()).value(), d);
        }
    }

    let mut stack = vec![frame(node, out, state)];
    while let Some(top) = stack.last_mut() {
        let trans = if top.ncands == u16::MAX {
            let i = top.next as usize;
            top.next += 1;
            (i < top.node.len()).then_some(i)
        } else {
            let mut hit = None;
            while hit.is_none() && top.next < top.ncands {
                hit = top.node.find_input(top.cands[top.next as usize]);
                top.next += 1;
            }
            hit
        };
        let Some(trans) = trans else {
            stack.pop();
            key.pop(); // the byte that led here (for the first frame, the walk is over anyway)
            continue;
        };
        let t = top.node.transition(trans);
        let Some(state) = band.step(&top.state, t.inp) else { continue };
        let out = top.out.cat(t.out);
        let node = fst.node(t.addr);
        key.push(t.inp);
        if node.is_final() {
            if let Some(d) = band.distance(&state) {
                found(&key, out.cat(node.final_output()).value(), d);
            }
        }
        stack.push(frame(node, out, state));
    }
}

/// Search results rank by distance, then the ordering's count descending (then word).
type Rank = (u8, Reverse<u64>);

/// Offers to `top` every key of `map` that starts with `head` and is within `max` edits of `query`
/// (in prefix mode: has a prefix within), and that `keep` lets through, ranked by its distance.
#[allow(clippy::too_many_arguments)]
fn rank_matches(
    map: &Map<Vec<u8>>,
    query: &str,
    head: &str,
    max: u8,
    prefix: bool,
    order: usize,
    top: &mut TopK<Rank>,
    keep: impl Fn(&[u8], u8) -> bool,
) {
    let found = |key: &[u8], v: u64, d: u8| {
        if keep(key, d) {
            top.offer((d, Reverse(order_count(v, order))), key, v);
        }
    };
    let fst = map.as_fst();
    match max {
        0 => walk(fst, &Band::<0>::new(query, prefix), head, found),
        1 => walk(fst, &Band::<1>::new(query, prefix), head, found),
        _ => walk(fst, &Band::<2>::new(query, prefix), head, found),
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
#[pyclass(frozen, module = "search._lexicon")]
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
            let mut top = TopK::new(limit);
            rank_matches(&self.map, word, &head, max, false, SUM, &mut top, |key, _| key != word.as_bytes());
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
                // Head words at exactly `edits` outrank every other word at `edits`: if they
                // complete the list, the whole vocabulary need not be walked.
                let mut top = TopK::new(limit - closer.heap.len());
                rank_matches(&self.heads[order], prefix, "", edits, true, order, &mut top, |_, d| d == edits);
                if top.is_full() {
                    return closer.into_sorted().into_iter().chain(top.into_sorted()).collect();
                }
                let mut all = TopK::new(limit);
                rank_matches(&self.map, prefix, "", edits, true, order, &mut all, |_, _| true);
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

/// Imported as `search._lexicon` (the distribution's pyproject.toml names the module).
#[pymodule]
#[pyo3(name = "_lexicon")]
fn lexicon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Lexicon>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook OSA table: `d[i][j]` is the distance between `a`'s first `i` characters and
    /// `b`'s first `j`.
    fn osa_table(a: &str, b: &str) -> Vec<Vec<usize>> {
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
        d
    }

    fn osa(a: &str, b: &str) -> usize {
        *osa_table(a, b).last().unwrap().last().unwrap()
    }

    /// The distance from `query` to the closest prefix of `word`, the empty one included.
    fn prefix_osa(word: &str, query: &str) -> usize {
        (0..=word.chars().count())
            .map(|n| osa(&word.chars().take(n).collect::<String>(), query))
            .min()
            .unwrap()
    }

    /// What `Band` should answer for `key`: its distance (prefix mode: its best prefix's) if within M.
    fn expected<const M: usize>(key: &str, query: &str, prefix: bool) -> Option<u8> {
        let d = if prefix {
            // The last column holds every prefix's distance (prefix_osa, but quadratic).
            osa_table(key, query).iter().map(|row| *row.last().unwrap()).min().unwrap()
        } else {
            osa(key, query)
        };
        (d <= M).then_some(d as u8)
    }

    /// Every string over `alphabet` of at most `max_len` characters.
    fn strings(alphabet: &str, max_len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max_len {
            last = last.iter().flat_map(|s| alphabet.chars().map(move |c| format!("{s}{c}"))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// Runs `band` over `key` a byte at a time, as `walk` does, checking at every character that
    /// `candidates` names each character of `alphabet` that keeps the state alive; then the key's
    /// distance if it matches.
    fn band_distance<const M: usize>(band: &Band<M>, key: &str, alphabet: &str) -> Option<u8> {
        let mut state = band.start();
        for ch in key.chars() {
            let mut cands = [0; 8];
            if let Some(n) = band.candidates(&state, &mut cands) {
                for c in alphabet.chars() {
                    if band.step_char(&state, u32::from(c)).is_some() {
                        let first = c.to_string().as_bytes()[0];
                        assert!(cands[..n].contains(&first), "{c} missing after a prefix of {key}");
                    }
                }
                assert!(cands[..n].windows(2).all(|w| w[0] < w[1]));
            }
            for b in ch.to_string().bytes() {
                state = band.step(&state, b)?;
            }
        }
        band.distance(&state)
    }

    fn check_band<const M: usize>(alphabet: &str, query_len: usize, key_len: usize) {
        let keys = strings(alphabet, key_len);
        for q in strings(alphabet, query_len) {
            for prefix in [false, true] {
                let band = Band::<M>::new(&q, prefix);
                for k in &keys {
                    let got = band_distance(&band, k, alphabet);
                    assert_eq!(got, expected::<M>(k, &q, prefix), "{k} vs {q} at {M}, prefix: {prefix}");
                }
            }
        }
    }

    #[test]
    fn automaton_agrees_with_reference() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "ca", "abcd", "éß", "ßé", "😀a", "a😀", "firefox", "firfox", "fierfox",
        ];
        for q in words {
            for prefix in [false, true] {
                let bands = (Band::<0>::new(q, prefix), Band::<1>::new(q, prefix), Band::<2>::new(q, prefix));
                for w in words {
                    let d = if prefix { prefix_osa(w, q) } else { osa(w, q) };
                    let alphabet = "abcdefiorxéß😀";
                    assert_eq!(band_distance(&bands.0, w, alphabet), (d == 0).then_some(0), "{w} vs {q} at 0");
                    assert_eq!(band_distance(&bands.1, w, alphabet), (d <= 1).then_some(d as u8), "{w} vs {q} at 1");
                    assert_eq!(band_distance(&bands.2, w, alphabet), (d <= 2).then_some(d as u8), "{w} vs {q} at 2");
                }
            }
        }
    }

    #[test]
    fn band_agrees_with_reference_exhaustively() {
        // Every pair of small strings: transpositions (ab/ba), repeats, 2-, 3- and 4-byte
        // characters; keys longer than queries and the other way round, past the band's width.
        check_band::<0>("abc", 4, 5);
        check_band::<1>("abc", 5, 6);
        check_band::<2>("abc", 5, 6);
        check_band::<1>("aé€😀", 3, 4);
        check_band::<2>("aé€😀", 4, 4);
        check_band::<2>("ab", 7, 8);
    }

    #[test]
    fn band_agrees_with_reference_on_swaps() {
        // Longer words (one over 64 characters), one or two swaps of neighbours, and a swap plus a
        // deletion, anywhere in the word.
        let long = format!("{}b", "a".repeat(66));
        for q in ["firefox", "transposition", "ßé😀aéß", &long] {
            let chars: Vec<char> = q.chars().collect();
            for prefix in [false, true] {
                let band = Band::<2>::new(q, prefix);
                for i in 0..chars.len() - 1 {
                    let mut once = chars.clone();
                    once.swap(i, i + 1);
                    let mut keys = vec![once.iter().collect::<String>()];
                    for j in 0..chars.len() - 1 {
                        let mut twice = once.clone();
                        twice.swap(j, j + 1);
                        keys.push(twice.iter().collect());
                        let mut shorter = once.clone();
                        shorter.remove(j);
                        keys.push(shorter.iter().collect());
                    }
                    for key in keys {
                        assert_eq!(
                            band_distance(&band, &key, q),
                            expected::<2>(&key, q, prefix),
                            "{key} vs {q}, prefix: {prefix}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn walk_agrees_with_brute_force() {
        // The empty word too: `Lexicon.build` leaves it out, but an fst from elsewhere may hold it.
        let mut words = strings("abé", 4);
        words.sort();
        let map = Map::from_iter(words.iter().enumerate().map(|(i, w)| (w.as_bytes(), i as u64))).unwrap();
        for q in strings("abé", 4) {
            for head_len in 0..3 {
                let head: String = q.chars().take(head_len).collect();
                for prefix in [false, true] {
                    for max in 0..=2usize {
                        let mut got = vec![];
                        let found = |key: &[u8], v: u64, d: u8| got.push((String::from_utf8(key.to_vec()).unwrap(), v, d as usize));
                        match max {
                            0 => walk(map.as_fst(), &Band::<0>::new(&q, prefix), &head, found),
                            1 => walk(map.as_fst(), &Band::<1>::new(&q, prefix), &head, found),
                            _ => walk(map.as_fst(), &Band::<2>::new(&q, prefix), &head, found),
                        }
                        let expect: Vec<_> = words
                            .iter()
                            .enumerate()
                            .filter(|(_, w)| w.starts_with(&head))
                            .map(|(i, w)| (w.clone(), i as u64, if prefix { prefix_osa(w, &q) } else { osa(w, &q) }))
                            .filter(|x| x.2 <= max)
                            .collect();
                        assert_eq!(got, expect, "{q} head {head} at {max}, prefix: {prefix}");
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
