package dev.agentbus.eventbus;

import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * A service's long-running Kafka loop on its own thread. The body creates its clients, works until
 * {@link #running()} turns false, and closes them (try-with-resources). If it throws — the broker went away, the
 * producer was fenced — the loop logs it and runs the body again a second later with fresh clients, which is how
 * every service recovers: state is rebuilt from the log, never patched up in place.
 */
public final class ServiceLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceLoop.class);

    /** One run of the loop: create clients, work while {@link ServiceLoop#running()}, close them. */
    @FunctionalInterface
    public interface Body {
        void run(ServiceLoop loop);
    }

    private final String name;
    private final Body body;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Consumer<?, ?> consumer;

    public ServiceLoop(String name, Body body) {
        this.name = name;
        this.body = body;
        this.thread = Thread.ofPlatform().name(name).unstarted(this::runForever);
    }

    public ServiceLoop start() {
        thread.start();
        return this;
    }

    public boolean running() {
        return running;
    }

    /** The consumer the body polls; {@link #close()} wakes it so a blocked poll returns at once. */
    public void wakeOnClose(Consumer<?, ?> c) {
        this.consumer = c;
        if (!running) {
            c.wakeup();
        }
    }

    private void runForever() {
        while (running) {
            try {
                body.run(this);
            } catch (RuntimeException e) {
                // When close() woke the consumer, the WakeupException that ends the run is expected: not logged.
                if (running) {
                    LOG.error("{} failed, starting it again in 1 s: {}", name, e.toString(), e);
                    pause(Duration.ofSeconds(1));
                }
            }
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        Consumer<?, ?> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
