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
        volatile boolean started;
        volatile boolean cancelled;

        Taken(int partition) {
            this.partition = partition;
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
        Taken state = new Taken(call.partition());
        taken.put(call.key(), state);
        CompletableFuture<Void> next = sessionTails.compute(call.sessionId(), (session, tail) ->
                (tail == null ? CompletableFuture.<Void>completedFuture(null) : tail)
                        .thenRunAsync(() -> run(call, state), threads));
        next.whenComplete((ok, error) -> sessionTails.remove(call.sessionId(), next));
    }

    private void run(TakenCall call, Taken state) {
        slots.acquireUninterruptibly();
        try {
            if (state.cancelled) {
                finished.add(FinishedCall.notRun(call));
            } else {
                state.started = true;
                finished.add(work.run(call));
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
