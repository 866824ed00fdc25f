//! The API document's views in the views' module: the API panel's body ([`panel_body`]) and the
//! API's reference under the rule reference ([`reference`]). The page keeps the API's state
//! (`crate::web::page::api`).

mod panel_body;
mod reference;

pub(crate) use panel_body::ApiPanelBody;
pub(crate) use reference::ApiReference;
