//! Provider output: [`stdout`] and [`stderr`] are the writers provider code prints through.
//! Served as a plugin, what they receive goes to the host over go-plugin's `plugin.GRPCStdio`
//! stream (`StreamStdio`; PROTOCOL_FACTS §1.7), buffered (up to 1 MiB, oldest dropped first)
//! until the host subscribes; the stream ends when the plugin shuts down. The process's real
//! stdout and stderr are left alone (the handshake, crash reports). Linked in process (no plugin
//! server), the output goes to stderr when `TF_LOG` is set, as a host shows a plugin's output.

use ferro_provider::plugin::proto::goplugin::{self, stdio_data::Channel, StdioData};
use std::collections::VecDeque;
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};
use tonic::{Request, Response, Status};

/// The most output kept while nobody reads it.
const BUFFER_LIMIT: usize = 1 << 20;

/// A writer to the provider's standard output as the host sees it.
pub fn stdout() -> Output {
    Output(Channel::Stdout)
}

/// A writer to the provider's standard error as the host sees it.
pub fn stderr() -> Output {
    Output(Channel::Stderr)
}

/// See [`stdout`] and [`stderr`].
pub struct Output(Channel);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match HUB.get() {
            Some(hub) => {
                hub.push(self.0, buf);
                Ok(buf.len())
            }
            None if std::env::var_os("TF_LOG").is_some_and(|v| !v.is_empty()) => {
                std::io::stderr().write(buf)
            }
            None => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The output of the served provider (set once, by [`crate::serve`]).
static HUB: OnceLock<Arc<Hub>> = OnceLock::new();

/// Output waiting for the host, and the state of its one stream.
#[derive(Default)]
pub(crate) struct Hub {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    pending: VecDeque<StdioData>,
    bytes: usize,
    subscribed: bool,
    closed: bool,
    waker: Option<Waker>,
}

impl Hub {
    /// The hub of the served process ([`stdout`] and [`stderr`] write to it from now on).
    pub(crate) fn install() -> Arc<Hub> {
        HUB.get_or_init(|| Arc::new(Hub::default())).clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn push(&self, channel: Channel, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let mut s = self.lock();
        if s.closed {
            return;
        }
        s.bytes += data.len();
        s.pending.push_back(StdioData {
            channel: channel as i32,
            data: data.to_vec(),
        });
        while s.bytes > BUFFER_LIMIT && s.pending.len() > 1 {
            if let Some(old) = s.pending.pop_front() {
                s.bytes -= old.data.len();
            }
        }
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }

    /// End the stream (after what is pending): the plugin is shutting down.
    pub(crate) fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }

    /// The stream for a host; refused while another one is open (go-plugin calls it once).
    pub(crate) fn subscribe(self: &Arc<Hub>) -> Result<StdioStream, Status> {
        let mut s = self.lock();
        if s.subscribed {
            return Err(Status::failed_precondition(
                "StreamStdio is already being streamed to another caller",
            ));
        }
        s.subscribed = true;
        Ok(StdioStream(self.clone()))
    }
}

/// The open `StreamStdio` answer: pending output, then the end when the plugin shuts down.
pub(crate) struct StdioStream(Arc<Hub>);

impl tokio_stream::Stream for StdioStream {
    type Item = Result<StdioData, Status>;
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut s = self.0.lock();
        if let Some(d) = s.pending.pop_front() {
            s.bytes -= d.data.len();
            return Poll::Ready(Some(Ok(d)));
        }
        if s.closed {
            return Poll::Ready(None);
        }
        s.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for StdioStream {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.subscribed = false;
        s.waker = None;
    }
}

type BoxStream =
    Pin<Box<dyn tokio_stream::Stream<Item = Result<StdioData, Status>> + Send + 'static>>;

/// go-plugin's `plugin.GRPCStdio` service.
pub(crate) struct StdioService(pub(crate) Arc<Hub>);

#[tonic::async_trait]
impl goplugin::grpc_stdio_server::GrpcStdio for StdioService {
    async fn stream_stdio(
        &self,
        _: Request<goplugin::Empty>,
    ) -> Result<Response<BoxStream>, Status> {
        let stream: BoxStream = Box::pin(self.0.subscribe()?);
        Ok(Response::new(stream))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goplugin::grpc_stdio_server::GrpcStdio;
    use tokio_stream::StreamExt;

    fn data(s: &str, c: Channel) -> StdioData {
        StdioData {
            channel: c as i32,
            data: s.as_bytes().to_vec(),
        }
    }

    #[test]
    fn output_written_before_and_after_subscribing_streams_until_shutdown() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let hub = Arc::new(Hub::default());
            let service = StdioService(hub.clone());
            hub.push(Channel::Stdout, b"early\n");
            let mut stream = service
                .stream_stdio(Request::new(goplugin::Empty {}))
                .await
                .expect("the first caller gets the stream")
                .into_inner();
            let second = service.stream_stdio(Request::new(goplugin::Empty {})).await;
            assert_eq!(
                second.err().map(|e| e.code()),
                Some(tonic::Code::FailedPrecondition)
            );
            assert_eq!(
                stream.next().await.unwrap().unwrap(),
                data("early\n", Channel::Stdout)
            );
            let writer = {
                let hub = hub.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    hub.push(Channel::Stderr, b"late");
                    hub.close();
                    hub.push(Channel::Stdout, b"after shutdown");
                })
            };
            assert_eq!(
                stream.next().await.unwrap().unwrap(),
                data("late", Channel::Stderr)
            );
            assert!(stream.next().await.is_none(), "shutdown ends the stream");
            writer.await.unwrap();
            drop(stream);
            assert!(
                service
                    .stream_stdio(Request::new(goplugin::Empty {}))
                    .await
                    .is_ok(),
                "a closed stream frees the service for a new caller"
            );
        });
    }

    #[test]
    fn unread_output_is_bounded() {
        let hub = Hub::default();
        for _ in 0..3 {
            hub.push(Channel::Stdout, &vec![b'x'; BUFFER_LIMIT / 2]);
        }
        let s = hub.lock();
        assert_eq!(s.pending.len(), 2, "the oldest chunk was dropped");
        assert_eq!(s.bytes, BUFFER_LIMIT);
    }
}
