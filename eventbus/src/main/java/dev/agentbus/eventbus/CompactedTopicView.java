package dev.agentbus.eventbus;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The latest value per key of a (compacted) topic, kept in memory by reading the whole topic from the start and
 * then following it. Read-only: the topic's single writer lives elsewhere. Used for user memory documents.
 * Values that cannot be decoded are logged and skipped (the writer is ours; a bad value is a bug, not input).
 */
public final class CompactedTopicView<V> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicView.class);

    private final Map<String, V> values = new ConcurrentHashMap<>();
    /** Notified after every change of {@link #values}, for {@link #awaitValue}. */
    private final Object changed = new Object();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final KafkaSettings kafka;
    private final String clientId;
    private final ServiceLoop loop;
    private final String topic;
    private final Function<byte[], V> decoder;
    /** Told the key of every change, on the view's thread; must return quickly. */
    private final java.util.List<java.util.function.Consumer<String>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    public CompactedTopicView(KafkaSettings kafka, String topic, String clientId, Function<byte[], V> decoder) {
        this.topic = topic;
        this.decoder = decoder;
        this.kafka = kafka;
        this.clientId = clientId;
        this.loop = new ServiceLoop(clientId + "-view", this::run);
    }

    public CompactedTopicView<V> start() {
        loop.start();
        return this;
    }

    /**
     * Tells {@code listener} the key of every change read from now on (a reader that acts on a change, not only
     * looks values up). Called on the view's thread: it must hand long work to another.
     */
    public CompactedTopicView<V> onChange(java.util.function.Consumer<String> listener) {
        listeners.add(listener);
        return this;
    }

    public Optional<V> get(String key) {
        return key == null ? Optional.empty() : Optional.ofNullable(values.get(key));
    }

    /** Every key's latest value, as the view holds them now (for listing a small topic, such as the inbox). */
    public java.util.List<V> values() {
        return java.util.List.copyOf(values.values());
    }

    /**
     * Reads the whole topic once, up to what is committed now, and returns the latest value per key. For a
     * single writer loading its own store at start-up.
     */
    public static <V> Map<String, V> readToEnd(KafkaSettings kafka, String topic, String clientId,
                                               Function<byte[], V> decoder) {
        try (CompactedTopicView<V> view = new CompactedTopicView<>(kafka, topic, clientId, decoder).start()) {
            if (!view.awaitCaughtUp(Duration.ofSeconds(60))) {
                throw new IllegalStateException("could not read " + topic + " within 60 s");
            }
            return Map.copyOf(view.values);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + topic, e);
        }
    }

    /**
     * Waits until the key's value (empty: none) satisfies {@code until}, for a writer that answers a request once
     * its own change is visible here. Woken by each change the view reads, so it costs nothing while it waits.
     *
     * @return whether it was satisfied within the timeout
     */
    public boolean awaitValue(String key, Predicate<Optional<V>> until, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (changed) {
            while (!until.test(get(key))) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(changed, left);
            }
            return true;
        }
    }

    /**
     * The key's value once the view has it: at once when it has, else when it arrives, or empty after
     * {@code timeout}. For a value another service writes in answer to something this one saw (an image the
     * sandbox-worker reads for a model call).
     */
    public Optional<V> await(String key, Duration timeout) throws InterruptedException {
        return awaitValue(key, Optional::isPresent, timeout) ? get(key) : Optional.empty();
    }

    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void run(ServiceLoop loop) {
        Partitions.follow(loop, kafka, clientId, topic, true, this::apply, caughtUp::countDown);
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            values.remove(r.key());
        } else {
            try {
                values.put(r.key(), decoder.apply(r.value()));
            } catch (RuntimeException e) {
                LOG.warn("skipping unreadable value in {} at offset {}: {}", topic, r.offset(), e.getMessage());
                return;
            }
        }
        synchronized (changed) {
            changed.notifyAll();
        }
        for (java.util.function.Consumer<String> listener : listeners) {
            try {
                listener.accept(r.key());
            } catch (RuntimeException e) {
                LOG.warn("a listener of {} failed on a change: {}", topic, e.toString());
            }
        }
    }

    @Override
    public void close() {
        loop.close();
    }
}
