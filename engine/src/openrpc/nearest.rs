//! The document's method names nearest an unknown one (a typo's likely meaning), found within a
//! bound whatever the document and the input: a name is compared only with names of about its
//! length ([`NameIndex`], built once per document), with at most [`MAX_COMPARED_PER_NAME`] of
//! them, each comparison costs at most [`MAX_SUGGESTED_NAME`]² steps, one input (a message, a
//! batch, a transcript) spends at most [`NEAREST_BUDGET`] steps in all ([`Nearest`]), and a name
//! looked for twice in one input is looked for once.

use std::collections::HashMap;

/// The longest name (in characters) compared: a longer unknown name gets no suggestion, and a
/// longer method name is never suggested.
pub const MAX_SUGGESTED_NAME: usize = 64;
/// The most method names one unknown name is compared with (those nearest its length first).
pub const MAX_COMPARED_PER_NAME: usize = 256;
/// The most steps (cells of the edit-distance table) the suggestions of one input cost; past
/// it the input's further unknown names get none (said in the finding or the error's data).
pub const NEAREST_BUDGET: usize = 8_000_000;
/// The most suggestions given for one name.
const MAX_SUGGESTIONS: usize = 3;

/// The document's method names by their length in characters (up to [`MAX_SUGGESTED_NAME`]).
#[derive(Default)]
pub(crate) struct NameIndex {
    /// `by_length[n]`: the indices of the methods whose name has `n` characters.
    by_length: Vec<Vec<usize>>,
}

impl NameIndex {
    pub(crate) fn new<'n>(names: impl Iterator<Item = &'n str>) -> NameIndex {
        let mut by_length: Vec<Vec<usize>> = vec![Vec::new(); MAX_SUGGESTED_NAME + 1];
        for (i, name) in names.enumerate() {
            let length = name.chars().count();
            if let Some(same) = by_length.get_mut(length) {
                same.push(i);
            }
        }
        NameIndex { by_length }
    }
}

/// How far a suggestion may be from the name looked for: a third of the longer one's length,
/// and at least 2.
fn threshold(a: usize, b: usize) -> usize {
    (a.max(b) / 3).max(2)
}

/// What the suggestions of one input may still cost, and what it found already.
pub struct Nearest {
    steps_left: usize,
    /// The suggestions found for each name looked for (method indices).
    found: HashMap<String, Vec<usize>>,
}

impl Default for Nearest {
    fn default() -> Nearest {
        Nearest {
            steps_left: NEAREST_BUDGET,
            found: HashMap::new(),
        }
    }
}

/// The suggestions for one unknown name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suggestions<'d> {
    /// The nearest names, closest first (none: nothing near enough, or the name is too long).
    Found(Vec<&'d str>),
    /// The input spent its [`NEAREST_BUDGET`] before this name was looked for.
    NotSearched,
}

/// Why no name was looked for ([`Suggestions::NotSearched`]), in words.
pub fn not_searched() -> String {
    format!("nearest names not searched: this input spent its budget of {NEAREST_BUDGET} steps on earlier unknown names")
}

impl Nearest {
    /// The method names (`name_of` each index of `index`) nearest `name`.
    pub(crate) fn find<'d>(
        &mut self,
        name: &str,
        index: &NameIndex,
        name_of: impl Fn(usize) -> &'d str,
    ) -> Suggestions<'d> {
        let shown = |found: &[usize]| found.iter().map(|&i| name_of(i)).collect();
        if let Some(found) = self.found.get(name) {
            return Suggestions::Found(shown(found));
        }
        let wanted: Vec<char> = name.chars().take(MAX_SUGGESTED_NAME + 1).collect();
        if wanted.len() > MAX_SUGGESTED_NAME {
            return Suggestions::Found(Vec::new());
        }
        if self.steps_left == 0 {
            return Suggestions::NotSearched;
        }
        let length = wanted.len();
        // A name whose length differs by more than the threshold cannot be near enough.
        let widest = threshold(length, MAX_SUGGESTED_NAME);
        let mut scored: Vec<(usize, usize)> = Vec::new();
        let mut compared = 0;
        let mut row = Vec::with_capacity(MAX_SUGGESTED_NAME + 1);
        'lengths: for delta in 0..=widest {
            let lengths = [length.checked_sub(delta), Some(length + delta)];
            let lengths = if delta == 0 {
                &lengths[..1]
            } else {
                &lengths[..]
            };
            for other_length in lengths.iter().flatten() {
                let Some(same) = index.by_length.get(*other_length) else {
                    continue;
                };
                let limit = threshold(length, *other_length);
                if delta > limit {
                    continue;
                }
                for &i in same {
                    let cost = (length + 1) * (other_length + 1);
                    if compared == MAX_COMPARED_PER_NAME {
                        break 'lengths;
                    }
                    if cost > self.steps_left {
                        self.steps_left = 0;
                        break 'lengths;
                    }
                    self.steps_left -= cost;
                    compared += 1;
                    let d = distance(&wanted, name_of(i), &mut row);
                    if d <= limit {
                        scored.push((d, i));
                    }
                }
            }
        }
        scored.sort_by(|a, b| (a.0, name_of(a.1)).cmp(&(b.0, name_of(b.1))));
        let found: Vec<usize> = scored
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, i)| i)
            .collect();
        let suggestions = shown(&found);
        self.found.insert(name.to_string(), found);
        Suggestions::Found(suggestions)
    }
}

/// Levenshtein distance over characters; `row` is scratch space.
fn distance(a: &[char], b: &str, row: &mut Vec<usize>) -> usize {
    let b: Vec<char> = b.chars().collect();
    row.clear();
    row.extend(0..=b.len());
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (up + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = up;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nearest<'d>(name: &str, names: &'d [String], budget: &mut Nearest) -> Suggestions<'d> {
        let index = NameIndex::new(names.iter().map(String::as_str));
        budget.find(name, &index, |i| names[i].as_str())
    }

    #[test]
    fn the_closest_names_come_first() {
        let names: Vec<String> = ["subtract", "sum", "add", "addition", "get_data"]
            .map(String::from)
            .to_vec();
        let mut budget = Nearest::default();
        assert_eq!(
            nearest("subtrac", &names, &mut budget),
            Suggestions::Found(vec!["subtract"])
        );
        assert_eq!(
            nearest("sud", &names, &mut budget),
            Suggestions::Found(vec!["sum", "add"])
        );
        assert_eq!(
            nearest(&"x".repeat(65), &names, &mut budget),
            Suggestions::Found(Vec::new())
        );
    }

    /// The steps one unknown name costs against `methods` names of its length.
    fn steps_for(methods: usize) -> usize {
        let names: Vec<String> = (0..methods).map(|i| format!("method_{i:08}")).collect();
        let mut budget = Nearest::default();
        let _ = nearest("methxd_00000001", &names, &mut budget);
        NEAREST_BUDGET - budget.steps_left
    }

    #[test]
    fn one_name_costs_the_same_against_a_thousand_or_a_hundred_thousand_methods() {
        let few = steps_for(1_000);
        let many = steps_for(100_000);
        assert!(few > 0);
        assert_eq!(
            few, many,
            "{few} steps against 1000 methods, {many} against 100000"
        );
        assert!(many <= MAX_COMPARED_PER_NAME * (MAX_SUGGESTED_NAME + 1).pow(2));
    }

    #[test]
    fn an_input_stops_looking_once_its_budget_is_spent_and_repeats_cost_nothing() {
        let names: Vec<String> = (0..10_000)
            .map(|i| format!("{}{i:08}", "m".repeat(50)))
            .collect();
        let mut budget = Nearest::default();
        let mut searched = 0;
        for n in 0..1_000 {
            match nearest(&format!("{}{n:08}x", "q".repeat(50)), &names, &mut budget) {
                Suggestions::Found(_) => searched += 1,
                Suggestions::NotSearched => break,
            }
        }
        assert!(searched < 1_000, "{searched} names searched");
        assert_eq!(budget.steps_left, 0);
        // A name already looked for is answered from what was found.
        let mut budget = Nearest::default();
        let first = nearest("m", &names, &mut budget);
        let left = budget.steps_left;
        assert_eq!(nearest("m", &names, &mut budget), first);
        assert_eq!(budget.steps_left, left);
    }
}
