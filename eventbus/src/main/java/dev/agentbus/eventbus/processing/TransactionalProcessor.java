package dev.agentbus.eventbus.processing;

import dev.agentbus.eventbus.ServiceLoop;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Consume-decide-produce, exactly once, written once for every service that turns records of one topic into records
 * of others: the orchestrator (inputs into events), the sandbox-worker (tool calls into results), the memory-service
 * (commands into documents).
 *
 * <p>On its own thread it creates a transactional producer and a group consumer, fences any earlier producer with
 * the same transactional id, and subscribes. Then, per poll:
 * <ol>
 *   <li>each record is decoded; one that cannot be read is dead-lettered with the reason, or skipped with a
 *       warning, as {@link ProcessorSettings#unreadable()} says, and the consumer moves on;</li>
 *   <li>the {@link Handler} gets the decoded records and sends what they cause to an {@link Outbox}, then does the
 *       work of {@link Handler#onIteration} (writes not caused by a record);</li>
 *   <li>what was sent and the offsets past every polled record commit in ONE transaction: all of it becomes visible
 *       or none of it, so a crash can neither lose a record nor act on it twice. No transaction is opened when there
 *       is nothing to send and nothing was consumed, or when only offsets are due and the settings let them wait for
 *       a later transaction ({@link ProcessorSettings#heldOffsets()});</li>
 *   <li>the after-commit actions the handler registered run (the effects: a model call, a tool call).</li>
 * </ol>
 * A failure — a fenced producer, a broker gone, a handler that throws — aborts the transaction and ends the run; the
 * {@link ServiceLoop} starts a new one with fresh clients a second later, and the handler rebuilds its state from the
 * log as the partitions are assigned again.
 */
public final class TransactionalProcessor<T> implements AutoCloseable {
    private final ProcessorSettings settings;
    private final Clients clients;
    private final RecordDecoder<T> decoder;
    private final Handler<T> handler;
    private final ServiceLoop loop;
    private volatile Consumer<String, byte[]> consumer;

    public TransactionalProcessor(ProcessorSettings settings, Clients clients, RecordDecoder<T> decoder,
                                  Handler<T> handler) {
        this.settings = settings;
        this.clients = clients;
        this.decoder = decoder;
        this.handler = handler;
        this.loop = new ServiceLoop(settings.name(), this::run);
    }

    public TransactionalProcessor<T> start() {
        loop.start();
        return this;
    }

    /**
     * Cuts a waiting poll short, from any thread, so work for {@link Handler#onIteration} is written now rather than
     * after the poll's time-out (which would be added to the latency of every such write).
     */
    public void wake() {
        Consumer<String, byte[]> c = consumer;
        if (c != null) {
            try {
                c.wakeup();
            } catch (RuntimeException closedMeanwhile) {
                // the run ended; the next one writes the work anyway
            }
        }
    }

    private void run(ServiceLoop loop) {
        // Closed in reverse order: the consumer first, while the producer can still write what a last revocation
        // hands over.
        try (Producer<String, byte[]> producer = clients.producer();
             Consumer<String, byte[]> c = clients.consumer()) {
            loop.wakeOnClose(c);
            consumer = c;
            ProcessorRun<T> run = new ProcessorRun<>(settings, producer, c, decoder, handler, loop::running);
            run.start();
            while (loop.running()) {
                run.iteration();
            }
            run.stop();
        } finally {
            consumer = null;
        }
    }

    /** Stops the loop: a waiting poll returns at once, the handler's {@link Handler#onStop} runs, clients close. */
    @Override
    public void close() {
        loop.close();
    }
}
