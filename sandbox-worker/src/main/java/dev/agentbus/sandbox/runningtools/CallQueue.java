package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.tools.ToolOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * The calls this worker took on and has not reported yet. Calls of different sessions run side by side on virtual
 * threads, at most {@code slots} at once; the calls of one session run one after another, in the order they were
 * taken on. A finished call waits here until the loop's thread has reported it, so a report that fails to commit is
 * made again by the next run of the loop.
 */
final class CallQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CallQueue.class);

    /** Runs one call; called on a virtual thread holding a slot. */
    @FunctionalInterface
    interface Work {
        FinishedCall run(TakenCall call);
    }

    /** A call taken on and not yet reported. */
    private static final class Taken {
        final int partition;
        final String sessionId;
        volatile boolean started;
        volatile boolean cancelled;
        /** Why a call given up before it started was not run; null: its session moved to another worker. */
        volatile String notRunReason;
        /** Stopped while it ran: its turn was cancelled. */
        volatile boolean stopped;
        /** The thread running it, while it runs; guarded by this. */
        Thread thread;

        Taken(int partition, String sessionId) {
            this.partition = partition;
            this.sessionId = sessionId;
        }
    }

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Semaphore slots;
    private final Work work;
    private final Runnable onFinished;
    /** The last call of each session, so the next one starts after it. */
    private final Map<String, CompletableFuture<Void>> sessionTails = new ConcurrentHashMap<>();
    /** By ledger key. */
    private final Map<String, Taken> taken = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<FinishedCall> finished = new LinkedBlockingQueue<>();
    private final Object finishes = new Object();

    /**
     * @param onFinished told (on the call's thread) each time a call has finished, so it can be reported at once
     */
    CallQueue(int slots, Work work, Runnable onFinished) {
        this.slots = new Semaphore(Math.max(1, slots));
        this.work = work;
        this.onFinished = onFinished;
    }

    /** Queues a call behind the earlier calls of its session. */
    void submit(TakenCall call) {
        Taken state = new Taken(call.partition(), call.sessionId());
        taken.put(call.key(), state);
        CompletableFuture<Void> next = sessionTails.compute(call.sessionId(), (session, tail) ->
                (tail == null ? CompletableFuture.<Void>completedFuture(null) : tail)
                        .thenRunAsync(() -> run(call, state), threads));
        next.whenComplete((ok, error) -> sessionTails.remove(call.sessionId(), next));
    }

    private void run(TakenCall call, Taken state) {
        slots.acquireUninterruptibly();
        try {
            boolean run;
            synchronized (state) {
                // Checked and marked at once: a stop either finds it not started (and it will not), or running.
                run = !state.cancelled;
                if (run) {
                    state.started = true;
                    state.thread = Thread.currentThread();
                }
            }
            if (!run) {
                finished.add(state.notRunReason == null ? FinishedCall.notRun(call)
                        : FinishedCall.notRun(call, state.notRunReason));
            } else {
                FinishedCall done;
                try {
                    done = work.run(call);
                } finally {
                    synchronized (state) {
                        state.thread = null;
                    }
                    // A stop that came as the call ended must not reach whatever this thread does next.
                    Thread.interrupted();
                }
                finished.add(done);
            }
        } catch (Throwable t) {
            // Never let one call break the chain of its session's later calls, or go unreported.
            LOG.error("call {} of session {} failed unexpectedly", call.request().callId(), call.sessionId(), t);
            finished.add(new FinishedCall(call, new ToolOutcome(false, "",
                    "the tool failed unexpectedly: " + t, null, false), 0, false, null));
        } finally {
            slots.release();
        }
        synchronized (finishes) {
            finishes.notifyAll();
        }
        onFinished.run();
    }

    /** True while the call with this ledger key is queued, running, or finished and not yet reported. */
    boolean holds(String key) {
        return taken.containsKey(key);
    }

    /** True while any call of the session is queued, running, or finished and not yet reported. */
    boolean holdsSession(String sessionId) {
        return taken.values().stream().anyMatch(s -> s.sessionId.equals(sessionId));
    }

    /** The finished calls not reported yet, oldest first. */
    List<FinishedCall> finished() {
        return List.copyOf(finished);
    }

    /** These calls, the oldest of {@link #finished()}, have been reported: they leave the queue. */
    void reported(List<FinishedCall> calls) {
        for (FinishedCall call : calls) {
            finished.remove(call);
            taken.remove(call.call().key());
        }
    }

    /** The calls of these partitions that have not started yet will not: they finish as "not run". */
    void giveUp(Set<Integer> partitions) {
        taken.values().stream().filter(s -> partitions.contains(s.partition) && !s.started)
                .forEach(s -> s.cancelled = true);
    }

    /**
     * The turn of a session was cancelled: its running call is interrupted (the sandbox kills the command and
     * everything it started) and its queued calls will not start. Each still finishes here once, and is reported
     * once, like any call.
     */
    void stopSession(String sessionId) {
        List<Taken> ofSession = taken.values().stream().filter(s -> s.sessionId.equals(sessionId)).toList();
        // The queued ones first: once the running one is interrupted, the next may start at once.
        for (Taken s : ofSession) {
            synchronized (s) {
                if (!s.started) {
                    s.notRunReason = "not run: the turn was cancelled before this call started";
                    s.cancelled = true;
                }
            }
        }
        for (Taken s : ofSession) {
            synchronized (s) {
                if (s.thread != null) {
                    s.stopped = true;
                    s.thread.interrupt();
                }
            }
        }
    }

    /** Whether the call with this ledger key was stopped while it ran ({@link #stopSession}). */
    boolean wasStopped(String key) {
        Taken s = taken.get(key);
        return s != null && s.stopped;
    }

    /** True while a call of these partitions is not reported yet. */
    boolean holdsCallsOf(Set<Integer> partitions) {
        return taken.values().stream().anyMatch(s -> partitions.contains(s.partition));
    }

    /** For the log: the calls of these partitions not reported yet, with whether each has started and finished. */
    String describe(Set<Integer> partitions) {
        StringBuilder b = new StringBuilder();
        taken.forEach((key, s) -> {
            if (partitions.contains(s.partition)) {
                boolean done = finished.stream().anyMatch(f -> f.call().key().equals(key));
                b.append(key).append(s.started ? " started" : " not started").append(s.cancelled ? ", given up" : "")
                        .append(done ? ", finished" : "").append("; ");
            }
        });
        return b.toString();
    }

    /** Waits until a finished call waits to be reported, at most {@code timeout}. */
    void awaitFinished(Duration timeout) throws InterruptedException {
        synchronized (finishes) {
            if (finished.isEmpty()) {
                finishes.wait(Math.max(1, timeout.toMillis()));
            }
        }
    }

    /** Waits until every call taken on has finished (reported or not), at most {@code timeout}. */
    void awaitAllFinished(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (finishes) {
            while (finished.size() < taken.size()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return;
                }
                finishes.wait(left);
            }
        }
    }

    /** Interrupts the calls still running. */
    @Override
    public void close() {
        threads.shutdownNow();
    }
}
