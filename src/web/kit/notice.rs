//! How much a notice matters: the page shows notices, the views' module and the page's own
//! parts ask for them.

/// An error stays until it is closed; a note goes by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeLevel {
    Info,
    Error,
}
