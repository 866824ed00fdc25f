//! The connection under an HTTP or WebSocket link: TCP, with TLS for `https://` and `wss://`
//! (rustls with the *ring* provider; the root certificates are the system's, read by
//! rustls-native-certs, so `SSL_CERT_FILE` / `SSL_CERT_DIR` point it at others as for OpenSSL).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

use crate::probe::LinkError;

/// A byte stream both ways: plain TCP or TLS over it.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// The connection a link talks over.
pub type Stream = Box<dyn Io>;

/// Where to connect: `host` as the URL names it (an IPv6 address in brackets), `port`, and
/// whether to speak TLS; `url` names it in errors.
pub struct Endpoint<'a> {
    pub url: &'a str,
    pub host: &'a str,
    pub port: u16,
    pub tls: bool,
}

/// Connects to `to` within `timeout` (TCP, then the TLS handshake when asked).
pub async fn connect(to: &Endpoint<'_>, timeout: Duration) -> Result<Stream, LinkError> {
    let bare = to.host.trim_start_matches('[').trim_end_matches(']');
    let url = to.url;
    let within = async {
        let tcp = TcpStream::connect((bare, to.port))
            .await
            .map_err(|e| LinkError(format!("cannot connect to {url}: {e}")))?;
        if !to.tls {
            return Ok(Box::new(tcp) as Stream);
        }
        let config = client_config().map_err(|why| LinkError(format!("{url}: {why}")))?;
        let name = ServerName::try_from(bare.to_string())
            .map_err(|e| LinkError(format!("{url}: {bare:?} is not a TLS server name: {e}")))?;
        let tls = TlsConnector::from(config)
            .connect(name, tcp)
            .await
            .map_err(|e| LinkError(format!("TLS handshake with {url} failed: {e}")))?;
        Ok(Box::new(tls) as Stream)
    };
    tokio::time::timeout(timeout, within).await.map_err(|_| {
        LinkError(format!(
            "cannot connect to {url}: no answer within {timeout:?}"
        ))
    })?
}

/// The TLS client settings, built once: the system's roots, HTTP/1.1 by ALPN.
fn client_config() -> Result<Arc<ClientConfig>, String> {
    static CONFIG: OnceLock<Result<Arc<ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let found = rustls_native_certs::load_native_certs();
            let mut roots = RootCertStore::empty();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                let why = found
                    .errors
                    .first()
                    .map_or_else(|| "none installed".to_string(), ToString::to_string);
                return Err(format!(
                    "no root certificate to check the server's against ({why}); set SSL_CERT_FILE"
                ));
            }
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let mut config = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(|e| format!("TLS settings: {e}"))?
                .with_root_certificates(roots)
                .with_no_client_auth();
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Ok(Arc::new(config))
        })
        .clone()
}
