//! The Rust servers of the HTTP benchmark (see `bench/http/README.md`):
//! hyper on tokio's multi-thread runtime, one child per request, its stdout
//! streamed into the response body.
//!
//! `--spawner tokio` starts the child with `tokio::process`, `--spawner
//! fastspawn` with `fastspawn::tokio`; nothing else differs. `--spawner
//! none` is a control that spawns nothing per request (the `rust-no-spawn-stream`
//! server): the workload's output, made once at start-up, is written for each
//! request into a new socketpair whose read end is streamed as the body, the
//! Rust twin of `node/no-spawn-stream.mjs`. rust-fastspawn's CPU per request
//! less this control's is what spawning and reaping the child costs the Rust
//! server (see the `http` experiment's limit line).
//!
//! ```text
//! fastspawn-http-server --port 8001 --workload cat --main-c bench/http/main.c --spawner fastspawn
//! ```
//!
//! Every option falls back to the environment: `PORT`, `WORKLOAD`, `MAIN_C`,
//! `SPAWNER`.

use std::convert::Infallible;
use std::io::{self, Write};
use std::pin::Pin;
use std::process::Stdio;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes, Frame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::net::TcpListener;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Spawner {
    Tokio,
    Fastspawn,
    /// No child: the output made once, served through a socketpair.
    None,
}

#[derive(Debug)]
struct Config {
    port: u16,
    spawner: Spawner,
    workload: String,
    program: String,
    args: Vec<String>,
    /// `--spawner none`: the workload's output, made at start-up.
    body: Vec<u8>,
}

const USAGE: &str = "usage: fastspawn-http-server --port N [--workload echo|cat] [--main-c PATH] [--spawner tokio|fastspawn|none]";

fn config(argv: &[String]) -> Result<Config, String> {
    let mut given = std::collections::HashMap::new();
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let name = arg
            .strip_prefix("--")
            .filter(|n| ["port", "workload", "main-c", "spawner"].contains(n))
            .ok_or_else(|| format!("unexpected argument {arg:?}\n{USAGE}"))?;
        let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
        given.insert(name, value.clone());
    }
    let flag = |name: &str, var: &str| -> Option<String> {
        given.get(name).cloned().or_else(|| std::env::var(var).ok())
    };
    let port = flag("port", "PORT")
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("--port (or PORT) is required\n{USAGE}"))?;
    let spawner = match flag("spawner", "SPAWNER").as_deref().unwrap_or("tokio") {
        "tokio" => Spawner::Tokio,
        "fastspawn" => Spawner::Fastspawn,
        "none" => Spawner::None,
        other => return Err(format!("unknown spawner {other:?}\n{USAGE}")),
    };
    let main_c = flag("main-c", "MAIN_C").unwrap_or_else(|| "main.c".into());
    let workload = flag("workload", "WORKLOAD").unwrap_or_else(|| "echo".into());
    let (program, args) = match workload.as_str() {
        "echo" => ("echo", vec!["hi".to_string()]),
        "cat" => ("cat", vec![main_c]),
        other => return Err(format!("unknown workload {other:?}\n{USAGE}")),
    };
    let body = if spawner == Spawner::None {
        let out = std::process::Command::new(program)
            .args(&args)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|err| format!("running {program} once for --spawner none: {err}"))?;
        if !out.status.success() {
            return Err(format!(
                "running {program} once for --spawner none: {}",
                out.status
            ));
        }
        out.stdout
    } else {
        Vec::new()
    };
    Ok(Config {
        port,
        spawner,
        workload,
        program: program.into(),
        args,
        body,
    })
}

type Stdout = Pin<Box<dyn AsyncRead + Send>>;

/// Starts the workload's child; returns its stdout. A task waits for it.
async fn spawn(cfg: &Config) -> io::Result<Stdout> {
    match cfg.spawner {
        Spawner::Tokio => {
            let mut child = tokio::process::Command::new(&cfg.program)
                .args(&cfg.args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .spawn()?;
            let stdout = child.stdout.take().expect("stdout is piped");
            tokio::spawn(async move { child.wait().await });
            Ok(Box::pin(stdout))
        }
        Spawner::Fastspawn => {
            let mut child = fastspawn::tokio::Command::new(&cfg.program)
                .args(&cfg.args)
                .stdin(fastspawn::Stdio::null())
                .stdout(fastspawn::Stdio::piped())
                .spawn()
                .await?;
            let stdout = child.stdout.take().expect("stdout is piped");
            tokio::spawn(async move { child.wait().await });
            Ok(Box::pin(stdout))
        }
        Spawner::None => {
            // The body fits in a fresh socket's send buffer (the cat
            // workload's 160 KiB too), so the blocking write returns.
            let (reader, mut writer) = std::os::unix::net::UnixStream::pair()?;
            writer.write_all(&cfg.body)?;
            drop(writer);
            reader.set_nonblocking(true)?;
            Ok(Box::pin(tokio::net::UnixStream::from_std(reader)?))
        }
    }
}

/// A response body: the child's stdout as it comes, or a message.
enum Reply {
    Child {
        stdout: Option<Stdout>,
        buf: Box<[u8]>,
    },
    Text(Option<Bytes>),
}

impl Body for Reply {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            Reply::Text(text) => Poll::Ready(text.take().map(|t| Ok(Frame::data(t)))),
            Reply::Child { stdout, buf } => {
                let Some(reader) = stdout.as_mut() else {
                    return Poll::Ready(None);
                };
                let mut read = ReadBuf::new(buf);
                match reader.as_mut().poll_read(cx, &mut read) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(Err(err)) => {
                        *stdout = None;
                        Poll::Ready(Some(Err(err)))
                    }
                    Poll::Ready(Ok(())) if read.filled().is_empty() => {
                        *stdout = None;
                        Poll::Ready(None)
                    }
                    Poll::Ready(Ok(())) => {
                        Poll::Ready(Some(Ok(Frame::data(Bytes::copy_from_slice(read.filled())))))
                    }
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Reply::Text(text) => text.is_none(),
            Reply::Child { stdout, .. } => stdout.is_none(),
        }
    }
}

async fn handle(cfg: &Config) -> Response<Reply> {
    match spawn(cfg).await {
        Ok(stdout) => Response::new(Reply::Child {
            stdout: Some(stdout),
            buf: vec![0; 64 * 1024].into_boxed_slice(),
        }),
        Err(err) => {
            let mut res = Response::new(Reply::Text(Some(Bytes::from(format!(
                "spawning {}: {err}\n",
                cfg.program
            )))));
            *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            res
        }
    }
}

async fn serve(cfg: Arc<Config>) -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", cfg.port)).await?;
    println!(
        "rust hyper + {} listening on {}, workload {}: {} {}",
        match cfg.spawner {
            Spawner::Tokio => "tokio::process",
            Spawner::Fastspawn => "fastspawn::tokio",
            Spawner::None => "no spawn (a socketpair holding the output)",
        },
        listener.local_addr()?,
        cfg.workload,
        cfg.program,
        cfg.args.join(" ")
    );
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(conn) => conn,
            Err(err) => {
                eprintln!("accept: {err}");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        stream.set_nodelay(true)?;
        let cfg = Arc::clone(&cfg);
        tokio::spawn(async move {
            let service = service_fn(move |_req: Request<Incoming>| {
                let cfg = Arc::clone(&cfg);
                async move { Ok::<_, Infallible>(handle(&cfg).await) }
            });
            // A client that closes its connection mid-request is no news.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let cfg = match config(&argv) {
        Ok(cfg) => Arc::new(cfg),
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Err(err) = runtime.block_on(serve(cfg)) {
        eprintln!("fastspawn-http-server: {err}");
        std::process::exit(1);
    }
}
