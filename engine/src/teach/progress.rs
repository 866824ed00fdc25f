//! The quiz's saved progress (localStorage `jrpc.quiz`): which shuffled order the learner is in,
//! how far they got, and their score. Pure: the browser stores the string, this module says what
//! it is (serde: `{"v": 1, "seed", "pos", "right", "answered"}` and `{"v": 1, "done": [ids]}`).

use serde::{Deserialize, Serialize};

use crate::saved::Version;

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
        let file = ProgressFile {
            v: PROGRESS_VERSION,
            seed: self.seed,
            pos: self.pos as u64,
            right: self.right,
            answered: self.answered,
        };
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// The inverse of [`Progress::to_json`]; anything else is an error saying what is wrong.
    pub fn from_json(text: &str) -> Result<Progress, String> {
        check_version(text)?;
        let file: ProgressFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let p = Progress {
            seed: file.seed,
            pos: usize::try_from(file.pos).map_err(|_| "\"pos\" is too large".to_string())?,
            right: file.right,
            answered: file.answered,
        };
        if p.right > p.answered {
            return Err("more right answers than answers".into());
        }
        Ok(p)
    }
}

/// [`Progress`] as stored.
#[derive(Serialize, Deserialize)]
struct ProgressFile {
    v: u64,
    seed: u64,
    pos: u64,
    right: u32,
    answered: u32,
}

/// [`LessonProgress`] as stored.
#[derive(Serialize, Deserialize)]
struct LessonsFile {
    v: u64,
    done: Vec<String>,
}

/// The stored value is of the version this build reads (checked before the rest is read: another
/// version may differ in any member).
fn check_version(text: &str) -> Result<(), String> {
    let version: Version = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match version.v {
        Some(PROGRESS_VERSION) => Ok(()),
        Some(v) => Err(format!("unknown version {v}")),
        None => Err("\"v\" is missing".into()),
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
        let file = LessonsFile {
            v: PROGRESS_VERSION,
            done: self.done.clone(),
        };
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// The inverse of [`LessonProgress::to_json`]; anything else is an error saying what is wrong.
    pub fn from_json(text: &str) -> Result<LessonProgress, String> {
        check_version(text)?;
        let file: LessonsFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut p = LessonProgress::default();
        for id in &file.done {
            p.finish(id);
        }
        Ok(p)
    }
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
                .contains("integer `-1`, expected u64")
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
