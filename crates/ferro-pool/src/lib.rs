//! `map`: a function over a vector's items on several threads, results in the items' order,
//! the function free to borrow from the caller (as with `std::thread::scope`), but run on
//! threads kept for the life of the process instead of threads spawned for each call.
//!
//! ferro plans a wave of dependent resources at a time, and each wave's provider calls overlap
//! on up to ten threads. Spawning those threads for every wave (a 100-link chain spawns a
//! thousand, each setting up and tearing down its allocator cache) cost more than the waves'
//! own work between provider calls. A kept thread also keeps its allocator cache warm.
//!
//! The caller takes part: it runs items too, so a call made from a pool thread (nested) or
//! while every pool thread is busy still finishes. Helpers are enlisted through one shared
//! queue; the caller closes its batch when no item is left and waits only for helpers that
//! joined it, so a helper job still queued then does nothing when it runs.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, OnceLock};

thread_local! {
    /// How many [`catching`] calls this thread is inside.
    static CATCHING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Run `f`, which catches the panics in it (`catch_unwind`) and carries on, telling a panic
/// hook so ([`panic_is_caught`]): the binary's hook ends the process (and every process it
/// started) only on a panic nothing catches.
pub fn catching<R>(f: impl FnOnce() -> R) -> R {
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            CATCHING.with(|c| c.set(c.get().saturating_sub(1)));
        }
    }
    CATCHING.with(|c| c.set(c.get() + 1));
    let _leave = Leave;
    f()
}

/// Whether a panic raised on this thread now will be caught (see [`catching`]).
pub fn panic_is_caught() -> bool {
    CATCHING.with(|c| c.get() > 0)
}

/// Work handed to a pool thread.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The process's helper threads: each takes jobs from one shared queue.
struct Pool {
    jobs: mpsc::Sender<Job>,
    queue: Arc<Mutex<mpsc::Receiver<Job>>>,
    threads: Mutex<usize>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pool {
    fn get() -> &'static Pool {
        static POOL: OnceLock<Pool> = OnceLock::new();
        POOL.get_or_init(|| {
            let (jobs, queue) = mpsc::channel();
            Pool {
                jobs,
                queue: Arc::new(Mutex::new(queue)),
                threads: Mutex::new(0),
            }
        })
    }

    /// Start threads until there are at least `n`. Returns how many there are (fewer than `n`
    /// only when the system refuses a new thread).
    fn ensure(&self, n: usize) -> usize {
        let mut threads = lock(&self.threads);
        while *threads < n {
            let queue = Arc::clone(&self.queue);
            let spawned = std::thread::Builder::new()
                .name("ferro-plan".into())
                .spawn(move || loop {
                    let job = lock(&queue).recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => break,
                    }
                });
            if spawned.is_err() {
                break;
            }
            *threads += 1;
        }
        *threads
    }
}

/// One `parallel_map` call, shared by the caller and the helpers it enlisted.
struct Batch<'a, T, R> {
    state: Mutex<BatchState<T, R>>,
    idle: Condvar,
    f: &'a (dyn Fn(T) -> R + Sync),
}

struct BatchState<T, R> {
    items: std::iter::Enumerate<std::vec::IntoIter<T>>,
    results: Vec<Option<R>>,
    /// Set once the caller has stopped waiting for helpers: a helper that starts later does
    /// nothing (the batch's borrowed data may be gone by then).
    closed: bool,
    /// Threads taking items from this batch now (the caller included).
    active: usize,
    panic: Option<Box<dyn Any + Send>>,
}

impl<T, R> Batch<'_, T, R> {
    /// Take items and run `f` on them until none is left (or one panicked).
    fn drain(&self) {
        loop {
            let next = {
                let mut s = lock(&self.state);
                if s.panic.is_some() {
                    None
                } else {
                    s.items.next()
                }
            };
            let Some((i, item)) = next else { break };
            // Caught here and raised again in the caller, without the panic hook.
            match catching(|| catch_unwind(AssertUnwindSafe(|| (self.f)(item)))) {
                Ok(r) => lock(&self.state).results[i] = Some(r),
                Err(p) => {
                    lock(&self.state).panic.get_or_insert(p);
                }
            }
        }
    }

    /// A helper's part: join the batch unless the caller has closed it, drain, leave.
    fn help(&self) {
        {
            let mut s = lock(&self.state);
            if s.closed {
                return;
            }
            s.active += 1;
        }
        self.drain();
        let mut s = lock(&self.state);
        s.active -= 1;
        if s.active == 0 {
            self.idle.notify_all();
        }
    }
}

/// `f` over `items` on up to `threads` threads (the caller's and pool threads); results in the
/// order of `items`. A panic in `f` is raised again here, once no thread is running `f`.
pub fn map<T: Send, R: Send>(items: Vec<T>, threads: usize, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let n = items.len();
    if n <= 1 || threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let pool = Pool::get();
    let helpers = pool.ensure(threads.min(n) - 1).min(threads.min(n) - 1);
    let batch = Arc::new(Batch {
        state: Mutex::new(BatchState {
            items: items.into_iter().enumerate(),
            results: (0..n).map(|_| None).collect(),
            closed: false,
            active: 1,
            panic: None,
        }),
        idle: Condvar::new(),
        f: &f,
    });
    for _ in 0..helpers {
        let b = Arc::clone(&batch);
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || b.help());
        // SAFETY: the job borrows `f` and the items' and results' types, which live only as
        // long as this call. The job touches them only between joining the batch (which fails
        // once it is closed) and leaving it; this function closes the batch and waits until
        // no thread is in it before it returns or unwinds, and it takes the remaining items
        // and the results out first, so a job that runs (or is dropped) later only sees the
        // closed flag and frees empty containers.
        let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
        if pool.jobs.send(job).is_err() {
            break;
        }
    }
    batch.drain();
    let (results, panic) = {
        let mut s = lock(&batch.state);
        s.active -= 1;
        s.closed = true;
        while s.active > 0 {
            s = batch.idle.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        // Leave nothing of this call's types with values in the batch.
        s.items = Vec::new().into_iter().enumerate();
        (std::mem::take(&mut s.results), s.panic.take())
    };
    if let Some(p) = panic {
        resume_unwind(p);
    }
    // Every item produced its result (a panic was raised above), so each slot is filled; the
    // slots are unwrapped where they are, in the vector that holds them (a collecting
    // `flatten` would copy every result into a vector grown by doubling).
    results
        .into_iter()
        .map(|r| r.expect("every item of a batch that did not panic has its result"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::map as parallel_map;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_keep_the_order_of_the_items() {
        let out = parallel_map((0..500).collect(), 10, |i: u64| i * 2);
        assert_eq!(out, (0..500).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn borrowed_data_and_nested_calls() {
        let words: Vec<String> = (0..50).map(|i| format!("w{i}")).collect();
        let calls = AtomicUsize::new(0);
        let out = parallel_map((0..words.len()).collect(), 10, |i| {
            calls.fetch_add(1, Ordering::Relaxed);
            let inner = parallel_map(vec![1, 2, 3], 10, |k| k * i);
            format!("{}:{}", words[i], inner.iter().sum::<usize>())
        });
        assert_eq!(calls.load(Ordering::Relaxed), 50);
        assert_eq!(out[7], "w7:42");
    }

    #[test]
    fn a_panic_reaches_the_caller_and_the_pool_survives() {
        let r = std::panic::catch_unwind(|| {
            parallel_map((0..40).collect(), 10, |i: u32| {
                if i == 13 {
                    panic!("thirteen");
                }
                i
            })
        });
        assert!(r.is_err());
        let out = parallel_map((0..40).collect(), 10, |i: u32| i + 1);
        assert_eq!(out.len(), 40);
        assert_eq!(out[39], 40);
    }
}
