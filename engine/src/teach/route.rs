//! The page's views by URL fragment, so any static host serves every view without rewrites:
//! `#/` (or no fragment) the playground, `#/reference[/<rule-id>]`, `#/quiz`, `#/quiz/<item-id>`
//! (one question: its share id `q-…`, or an item id from older links), `#/quiz/set/<seed>` (a
//! shared set), `#/lessons[/<n>]` (1-based), `#/log` (the playground, scrolled to its log).
//! Share links (`#s=…`) are not routes: they open in the playground.

/// One view of the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Playground,
    /// The playground with its log brought into view.
    Log,
    /// The reference, scrolled to a rule when one is named.
    Reference(Option<String>),
    Quiz(QuizRoute),
    /// The lessons' list (`None`) or one lesson (0-based index).
    Lessons(Option<usize>),
}

/// What the quiz view shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuizRoute {
    /// The learner's own order, where they left off.
    Mine,
    /// One question, by item id.
    Item(String),
    /// The set of questions in the order of this seed.
    Set(u64),
}

impl Route {
    /// The route of a fragment (with or without `#`). Share links and unknown fragments are the
    /// playground; a lesson number out of range is the list.
    pub fn parse(fragment: &str) -> Route {
        Route::of_view(fragment).unwrap_or(Route::Playground)
    }

    /// The route of a fragment that names a view (`#/…`; an unknown one is the playground), or
    /// `None` when the fragment names no view: none at all, or a share link (`#s=…`), which the
    /// page opens in the playground.
    pub fn of_view(fragment: &str) -> Option<Route> {
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        let path = f.strip_prefix('/')?;
        let (head, rest) = match path.split_once('/') {
            Some((h, r)) => (h, Some(r).filter(|r| !r.is_empty())),
            None => (path, None),
        };
        Some(match head {
            "log" => Route::Log,
            "reference" => Route::Reference(rest.map(str::to_string)),
            "quiz" => Route::Quiz(match rest {
                None => QuizRoute::Mine,
                Some(r) => match r.strip_prefix("set/").map(str::parse::<u64>) {
                    Some(Ok(seed)) => QuizRoute::Set(seed),
                    Some(Err(_)) => QuizRoute::Mine,
                    None => QuizRoute::Item(r.to_string()),
                },
            }),
            "lessons" => Route::Lessons(
                rest.and_then(|r| r.parse::<usize>().ok())
                    .filter(|n| (1..=super::lessons::LESSONS.len()).contains(n))
                    .map(|n| n - 1),
            ),
            _ => Route::Playground,
        })
    }

    /// The fragment of this route, with `#`.
    pub fn fragment(&self) -> String {
        match self {
            Route::Playground => "#/".into(),
            Route::Log => "#/log".into(),
            Route::Reference(None) => "#/reference".into(),
            Route::Reference(Some(id)) => format!("#/reference/{id}"),
            Route::Quiz(QuizRoute::Mine) => "#/quiz".into(),
            Route::Quiz(QuizRoute::Item(id)) => format!("#/quiz/{id}"),
            Route::Quiz(QuizRoute::Set(seed)) => format!("#/quiz/set/{seed}"),
            Route::Lessons(None) => "#/lessons".into(),
            Route::Lessons(Some(i)) => format!("#/lessons/{}", i + 1),
        }
    }

    /// The nav bar's name of the view.
    pub fn view(&self) -> &'static str {
        match self {
            Route::Playground | Route::Log => "playground",
            Route::Reference(_) => "reference",
            Route::Quiz(_) => "quiz",
            Route::Lessons(_) => "lessons",
        }
    }

    /// Whether this route shows the playground (`#/log` does, scrolled to its log).
    pub fn is_playground(&self) -> bool {
        matches!(self, Route::Playground | Route::Log)
    }

    /// Whether both routes show the same view (the nav bar marks its current link by this).
    pub fn same_view(&self, other: &Route) -> bool {
        matches!(
            (self, other),
            (
                Route::Playground | Route::Log,
                Route::Playground | Route::Log
            ) | (Route::Reference(_), Route::Reference(_))
                | (Route::Quiz(_), Route::Quiz(_))
                | (Route::Lessons(_), Route::Lessons(_))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_name_views() {
        let cases = [
            ("", Route::Playground),
            ("#", Route::Playground),
            ("#/", Route::Playground),
            ("#s=1.abc", Route::Playground),
            ("#/nowhere", Route::Playground),
            ("#/log", Route::Log),
            ("#/reference", Route::Reference(None)),
            ("#/reference/", Route::Reference(None)),
            (
                "#/reference/jsonrpc-not-2-0",
                Route::Reference(Some("jsonrpc-not-2-0".into())),
            ),
            ("#/quiz", Route::Quiz(QuizRoute::Mine)),
            (
                "#/quiz/rule:batch-empty",
                Route::Quiz(QuizRoute::Item("rule:batch-empty".into())),
            ),
            ("#/quiz/set/42", Route::Quiz(QuizRoute::Set(42))),
            ("#/quiz/set/x", Route::Quiz(QuizRoute::Mine)),
            ("#/lessons", Route::Lessons(None)),
            ("#/lessons/1", Route::Lessons(Some(0))),
            ("#/lessons/6", Route::Lessons(Some(5))),
            ("#/lessons/16", Route::Lessons(Some(15))),
            ("#/lessons/17", Route::Lessons(None)),
            ("#/lessons/0", Route::Lessons(None)),
        ];
        for (fragment, route) in cases {
            assert_eq!(Route::parse(fragment), route, "{fragment:?}");
        }
    }

    #[test]
    fn only_view_fragments_name_a_view() {
        assert_eq!(Route::of_view(""), None);
        assert_eq!(Route::of_view("#"), None);
        assert_eq!(Route::of_view("#s=1.abc"), None);
        assert_eq!(Route::of_view("#/"), Some(Route::Playground));
        assert_eq!(Route::of_view("#/nowhere"), Some(Route::Playground));
        assert_eq!(Route::of_view("#/quiz"), Some(Route::Quiz(QuizRoute::Mine)));
    }

    #[test]
    fn same_view_ignores_what_the_view_focuses() {
        assert!(Route::Log.same_view(&Route::Playground));
        assert!(Route::Reference(Some("batch-empty".into())).same_view(&Route::Reference(None)));
        assert!(Route::Lessons(Some(2)).same_view(&Route::Lessons(None)));
        assert!(!Route::Quiz(QuizRoute::Mine).same_view(&Route::Lessons(None)));
        assert!(Route::Log.is_playground() && !Route::Reference(None).is_playground());
    }

    #[test]
    fn routes_round_trip() {
        for r in [
            Route::Playground,
            Route::Log,
            Route::Reference(None),
            Route::Reference(Some("batch-empty".into())),
            Route::Quiz(QuizRoute::Mine),
            Route::Quiz(QuizRoute::Item("own:seed-lab-1".into())),
            Route::Quiz(QuizRoute::Set(7)),
            Route::Lessons(None),
            Route::Lessons(Some(2)),
        ] {
            assert_eq!(Route::parse(&r.fragment()), r);
        }
    }
}
