//! Teaching: the quiz bank and its grading (the reference is the rule catalogue itself,
//! [`crate::rpc::catalogue`]). Pure engine code: the UI only renders it.

pub mod lessons;
pub mod progress;
pub mod quiz;
pub mod route;
