//! Teaching: the quiz bank and its grading, the lessons, and their text as data ([`text`]) (the reference is the rule catalogue itself,
//! [`crate::rpc::catalogue`]). Pure engine code: the UI only renders it.

pub mod lessons;
pub mod progress;
pub mod quiz;
pub mod route;
pub mod text;
