//! Sorting by integer keys, compiled once (docs/size-rules.md, 1).
//!
//! Each element type a slice is sorted by gets its own copy of the standard library's sort
//! (~2–5 KB of wasm each). The engine and the UI sort small things in a few places (violations by
//! position, underline pieces, messages waiting for a reply): they all sort `(u64, u64)` pairs
//! here, and rearrange their own values after.

/// Sorts `pairs` (ascending, by the first then the second number). Ties between equal pairs
/// cannot be seen, so "unstable" is harmless: callers that want stability put an index second.
#[inline(never)]
pub fn sort_pairs(pairs: &mut [(u64, u64)]) {
    pairs.sort_unstable();
}

/// Sorts `items` by `key`, keeping the order of items with equal keys (a stable sort).
pub fn sort_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    if items.is_sorted_by_key(&key) {
        return;
    }
    let mut pairs: Vec<(u64, u64)> = items
        .iter()
        .enumerate()
        .map(|(i, t)| (key(t), i as u64))
        .collect();
    sort_pairs(&mut pairs);
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(pairs.iter().filter_map(|&(_, i)| slots[i as usize].take()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_key_and_keeps_ties_in_order() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (3, 'a'), (3, 'c')]);
    }

    #[test]
    fn sorted_input_is_left_as_it_is() {
        let mut v = vec![1u8, 2, 2, 9];
        sort_by_key(&mut v, |&x| u64::from(x));
        assert_eq!(v, [1, 2, 2, 9]);
        let mut empty: Vec<u8> = Vec::new();
        sort_by_key(&mut empty, |&x| u64::from(x));
        assert!(empty.is_empty());
    }

    #[test]
    fn sorts_pairs_by_first_then_second() {
        let mut p = vec![(2, 1), (1, 9), (2, 0), (1, 3)];
        sort_pairs(&mut p);
        assert_eq!(p, [(1, 3), (1, 9), (2, 0), (2, 1)]);
    }
}
