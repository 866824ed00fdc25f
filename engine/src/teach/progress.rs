//! The quiz's saved progress (localStorage `jrpc.quiz`): which shuffled order the learner is in,
//! how far they got, and their score. Pure: the browser stores the string, this module says what
//! it is. Written and read with the engine's own JSON parser (no serde in the web build).

use crate::json::{self, Node};

/// The progress format this build writes (and the only one it reads).
pub const PROGRESS_VERSION: u64 = 1;

/// Where the learner is in the quiz.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The seed of the order ([`super::quiz::order`]): the same seed, the same set of questions.
    pub seed: u64,
    /// How many questions of the order are behind (the next one to show).
    pub pos: usize,
    /// Questions answered right, and answered at all.
    pub right: u32,
    pub answered: u32,
}

impl Progress {
    /// A fresh start on the order of `seed`.
    pub fn start(seed: u64) -> Self {
        Progress {
            seed,
            ..Progress::default()
        }
    }

    /// Counts one graded answer.
    pub fn record(&mut self, correct: bool) {
        self.answered += 1;
        if correct {
            self.right += 1;
        }
    }

    /// "3 / 5 right" style score.
    pub fn score(&self) -> String {
        format!("{} / {} right", self.right, self.answered)
    }

    pub fn to_json(&self) -> String {
        format!(
            "{{\"v\":{PROGRESS_VERSION},\"seed\":{},\"pos\":{},\"right\":{},\"answered\":{}}}",
            self.seed, self.pos, self.right, self.answered
        )
    }

    /// The inverse of [`Progress::to_json`]; anything else is an error saying what is wrong.
    pub fn from_json(text: &str) -> Result<Progress, String> {
        let parsed = whole_document(text)?;
        let o = &parsed.root;
        let int = |name: &str| -> Result<u64, String> {
            o.get(name)
                .and_then(Node::as_integer_text)
                .and_then(|t| t.parse::<u64>().ok())
                .ok_or_else(|| format!("\"{name}\" is missing or not a non-negative integer"))
        };
        let v = int("v")?;
        if v != PROGRESS_VERSION {
            return Err(format!("unknown version {v}"));
        }
        let small = |name: &str| {
            int(name).and_then(|n| u32::try_from(n).map_err(|_| format!("\"{name}\" is too large")))
        };
        let p = Progress {
            seed: int("seed")?,
            pos: int("pos")? as usize,
            right: small("right")?,
            answered: small("answered")?,
        };
        if p.right > p.answered {
            return Err("more right answers than answers".into());
        }
        Ok(p)
    }
}

/// Which lessons the learner has finished, their question answered right (localStorage
/// `jrpc.lessons`): the lesson list marks them and says where to go on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonProgress {
    /// Ids of the finished lessons ([`super::lessons::Lesson::id`]), in the order finished.
    pub done: Vec<String>,
}

impl LessonProgress {
    pub fn is_done(&self, id: &str) -> bool {
        self.done.iter().any(|d| d == id)
    }

    /// Marks `id` finished; false when it already was (nothing to save).
    pub fn finish(&mut self, id: &str) -> bool {
        if self.is_done(id) {
            return false;
        }
        self.done.push(id.to_string());
        true
    }

    pub fn to_json(&self) -> String {
        let done: Vec<String> = self.done.iter().map(|d| json::quote(d)).collect();
        format!("{{\"v\":{PROGRESS_VERSION},\"done\":[{}]}}", done.join(","))
    }

    /// The inverse of [`LessonProgress::to_json`]; anything else is an error saying what is wrong.
    pub fn from_json(text: &str) -> Result<LessonProgress, String> {
        let parsed = whole_document(text)?;
        let o = &parsed.root;
        match o.get("v").and_then(Node::as_integer_text) {
            Some("1") => {}
            Some(v) => return Err(format!("unknown version {v}")),
            None => return Err("\"v\" is missing or not an integer".into()),
        }
        let items = o
            .get("done")
            .and_then(Node::as_array)
            .ok_or("\"done\" is missing or not an array")?;
        let mut p = LessonProgress::default();
        for item in items {
            let id = item
                .as_str()
                .ok_or("\"done\" holds something other than a lesson id")?;
            p.finish(id);
        }
        Ok(p)
    }
}

/// `text` as exactly one JSON document (whitespace around it allowed), or what is wrong with it.
fn whole_document(text: &str) -> Result<json::Parsed<'_>, String> {
    let bytes = text.as_bytes();
    let (parsed, end) = json::parse_document(bytes, 0).map_err(|e| e.to_string())?;
    if bytes[end..].iter().any(|b| !b.is_ascii_whitespace()) {
        return Err(format!(
            "unexpected text after the JSON value at byte {end}"
        ));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_progress_round_trips_and_rejects_damage() {
        let mut p = LessonProgress::default();
        assert!(p.finish("first-request"));
        assert!(!p.finish("first-request"));
        assert!(p.finish("a \"quoted\" id"));
        assert_eq!(LessonProgress::from_json(&p.to_json()), Ok(p.clone()));
        assert!(p.is_done("first-request") && !p.is_done("other"));
        assert!(LessonProgress::from_json("").is_err());
        assert!(LessonProgress::from_json("{\"v\":2,\"done\":[]}")
            .unwrap_err()
            .contains("version"));
        assert!(LessonProgress::from_json("{\"v\":1,\"done\":[1]}").is_err());
        assert!(LessonProgress::from_json("{\"v\":1}").is_err());
    }

    #[test]
    fn progress_round_trips() {
        let mut p = Progress::start(12345678901234);
        p.pos = 3;
        p.record(true);
        p.record(false);
        assert_eq!(Progress::from_json(&p.to_json()), Ok(p));
        assert_eq!(p.score(), "1 / 2 right");
    }

    #[test]
    fn damaged_progress_is_an_error_not_a_guess() {
        assert!(Progress::from_json("").is_err());
        assert!(
            Progress::from_json("{\"v\":2,\"seed\":1,\"pos\":0,\"right\":0,\"answered\":0}")
                .unwrap_err()
                .contains("version")
        );
        assert!(
            Progress::from_json("{\"v\":1,\"seed\":1,\"pos\":-1,\"right\":0,\"answered\":0}")
                .unwrap_err()
                .contains("pos")
        );
        assert!(
            Progress::from_json("{\"v\":1,\"seed\":1,\"pos\":0,\"right\":2,\"answered\":1}")
                .is_err()
        );
        assert!(
            Progress::from_json("{\"v\":1,\"seed\":1,\"pos\":0,\"right\":0,\"answered\":0} x")
                .is_err()
        );
    }
}
