//! A real third-party JSON-RPC server for the live link's tests: jsonrpsee's server (WebSocket and
//! HTTP on one port), CORS open to any origin. Test-only code (a cargo example built from
//! dev-dependencies): nothing of it ships.
//!
//! ```text
//! cargo build --examples
//! target/debug/examples/jsonrpsee_server [--port N] [--exit-after SECS] [--tick-ms MS]
//! ```
//!
//! Binds 127.0.0.1 only (port 0, the default, picks a free one) and prints one line on stderr,
//! `jsonrpsee_server: listening on ws://127.0.0.1:PORT and http://127.0.0.1:PORT`. Stops by
//! itself after `--exit-after` seconds (default 60), or on Ctrl+C.
//!
//! Methods:
//! - `subtract` `[minuend, subtrahend]` or `{"minuend", "subtrahend"}` → the difference (integers);
//! - `echo` → its params, as sent (null without params);
//! - `fail` → always the error `{"code": -32000, "message": "deliberate failure", "data": params}`;
//! - `sleep` `[ms]` → `"slept"` after `ms` milliseconds (at most 60 000): a slow answer;
//! - `subscribe_ticks` `[ms]?` → a subscription id, then the notification `tick` with
//!   `{"subscription": id, "result": {"n": 1, 2, …}}` every `ms` (default `--tick-ms`, 100) until
//!   `unsubscribe_ticks [id]` or the connection ends (WebSocket only: HTTP has no subscriptions).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    server::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod server {
    use std::process::ExitCode;
    use std::time::Duration;

    use jsonrpsee::core::SubscriptionResult;
    use jsonrpsee::server::{RpcModule, Server};
    use jsonrpsee::types::{ErrorObject, ErrorObjectOwned, Params};
    use jsonrpsee::{PendingSubscriptionSink, SubscriptionMessage};
    use serde_json::{json, Value};
    use tower_http::cors::CorsLayer;

    struct Options {
        port: u16,
        exit_after: Duration,
        tick: Duration,
    }

    fn options() -> Result<Options, String> {
        let mut options = Options {
            port: 0,
            exit_after: Duration::from_secs(60),
            tick: Duration::from_millis(100),
        };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let value = args.next().ok_or(format!("{flag} needs a value"))?;
            let number = |v: &str| {
                v.parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or(format!("{flag}: not a number: {v}"))
            };
            match flag.as_str() {
                "--port" => {
                    options.port = value
                        .parse()
                        .map_err(|_| format!("--port: not a port: {value}"))?
                }
                "--exit-after" => options.exit_after = Duration::from_secs_f64(number(&value)?),
                "--tick-ms" => {
                    options.tick = Duration::from_millis(number(&value)?.max(1.0) as u64)
                }
                _ => return Err(format!("unknown argument {flag}")),
            }
        }
        Ok(options)
    }

    pub fn main() -> ExitCode {
        let options = match options() {
            Ok(options) => options,
            Err(e) => {
                eprintln!("jsonrpsee_server: {e}\nusage: jsonrpsee_server [--port N] [--exit-after SECS] [--tick-ms MS]");
                return ExitCode::from(2);
            }
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        match runtime.block_on(run(options)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("jsonrpsee_server: {e}");
                ExitCode::from(2)
            }
        }
    }

    async fn run(options: Options) -> Result<(), String> {
        let cors = CorsLayer::permissive().expose_headers(tower_http::cors::Any);
        let server = Server::builder()
            .set_http_middleware(tower::ServiceBuilder::new().layer(cors))
            .build(("127.0.0.1", options.port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
        let addr = server.local_addr().map_err(|e| e.to_string())?;
        let handle = server.start(module(options.tick));
        eprintln!("jsonrpsee_server: listening on ws://{addr} and http://{addr}");
        let stop = std::pin::pin!(tokio::time::sleep(options.exit_after));
        let ctrl_c = std::pin::pin!(tokio::signal::ctrl_c());
        futures_util::future::select(stop, ctrl_c).await;
        let _ = handle.stop();
        handle.stopped().await;
        eprintln!("jsonrpsee_server: stopped");
        Ok(())
    }

    fn module(tick: Duration) -> RpcModule<Duration> {
        let mut module = RpcModule::new(tick);
        module
            .register_method("subtract", |params, _, _| subtract(params))
            .unwrap();
        module
            .register_method("echo", |params, _, _| {
                params.as_str().map_or(Value::Null, |raw| {
                    serde_json::from_str(raw).unwrap_or(Value::Null)
                })
            })
            .unwrap();
        module
            .register_method("fail", |params, _, _| {
                let data: Value = params
                    .as_str()
                    .and_then(|raw| serde_json::from_str(raw).ok())
                    .unwrap_or(Value::Null);
                Err::<(), _>(ErrorObject::owned(-32000, "deliberate failure", Some(data)))
            })
            .unwrap();
        module
            .register_async_method("sleep", |params, _, _| async move {
                let [ms]: [u64; 1] = params.parse()?;
                tokio::time::sleep(Duration::from_millis(ms.min(60_000))).await;
                Ok::<_, ErrorObjectOwned>("slept")
            })
            .unwrap();
        module
            .register_subscription("subscribe_ticks", "tick", "unsubscribe_ticks", ticks)
            .unwrap();
        module
    }

    fn subtract(params: Params) -> Result<i64, ErrorObjectOwned> {
        let value: Value = params.parse()?;
        let (a, b) = match &value {
            Value::Array(items) if items.len() == 2 => (items[0].as_i64(), items[1].as_i64()),
            Value::Object(named) => (
                named.get("minuend").and_then(Value::as_i64),
                named.get("subtrahend").and_then(Value::as_i64),
            ),
            _ => (None, None),
        };
        match (a, b) {
            (Some(a), Some(b)) => Ok(a.wrapping_sub(b)),
            _ => Err(ErrorObject::owned(
                -32602,
                "Invalid params",
                Some("expected [minuend, subtrahend] or {minuend, subtrahend}, integers"),
            )),
        }
    }

    async fn ticks(
        params: Params<'static>,
        pending: PendingSubscriptionSink,
        tick: std::sync::Arc<Duration>,
        _: jsonrpsee::Extensions,
    ) -> SubscriptionResult {
        let every = match params.sequence().optional_next::<u64>() {
            Ok(ms) => ms.map_or(*tick, |ms| Duration::from_millis(ms.max(1))),
            Err(e) => {
                pending.reject(e).await;
                return Ok(());
            }
        };
        let sink = pending.accept().await?;
        let mut interval = tokio::time::interval(every);
        interval.tick().await;
        for n in 1u64.. {
            interval.tick().await;
            if sink.is_closed() {
                break;
            }
            let message: SubscriptionMessage =
                serde_json::value::to_raw_value(&json!({ "n": n }))?.into();
            if sink.send(message).await.is_err() {
                break;
            }
        }
        Ok(())
    }
}
