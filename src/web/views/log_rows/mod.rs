//! The log pane's rows as the views' module draws them from its copy of the page's log: the
//! sequence picture, the selection in words and the list ([`rows`]), one entry ([`row`]), the
//! copy ([`copy`]). The page's host is `crate::web::page::log_rows`.

mod copy;
mod row;
mod rows;

pub use rows::LogRows;
