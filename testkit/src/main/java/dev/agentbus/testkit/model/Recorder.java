package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * What the scripted model server was asked and how its answers ended: chat request bodies and their
 * {@code Authorization} headers, counts per route, answers finished and answers hung up on. Tests assert on it and
 * wait on it ({@code await…}) when the caller runs in another thread or process.
 *
 * <p>Guarded by the server's lock, the same one {@link Script} uses; every change notifies the waiters.
 */
final class Recorder {

    private final Object lock;
    private final List<JsonNode> requests = new ArrayList<>();
    private final List<String> authorizations = new ArrayList<>();
    /** Chat requests so far, whether or not their bodies are kept. */
    private int chatRequests;
    private JsonNode lastRequest;
    /**
     * Off for long benchmarks: every request carries the whole conversation, so keeping them all grows with the
     * square of a session's length (a 10-minute soak of 200 sessions filled a 4 GiB heap with them).
     */
    private boolean keepBodies = true;
    private int modelListRequests;
    /** Chat requests fully answered (the response body sent and closed), or given up on. */
    private int chatRequestsFinished;
    private int hangUps;
    private int embeddingRequests;
    private int embeddedTexts;

    Recorder(Object lock) {
        this.lock = lock;
    }

    /** Records one chat request; returns its number, counting from 1. */
    int chatRequest(JsonNode body, String authorization) {
        synchronized (lock) {
            lastRequest = body;
            chatRequests++;
            if (keepBodies) {
                requests.add(body);
                authorizations.add(authorization);
            }
            lock.notifyAll();
            return chatRequests;
        }
    }

    void chatAnswerFinished() {
        synchronized (lock) {
            chatRequestsFinished++;
            lock.notifyAll();
        }
    }

    void hungUp() {
        synchronized (lock) {
            hangUps++;
            lock.notifyAll();
        }
    }

    void modelListAsked() {
        synchronized (lock) {
            modelListRequests++;
        }
    }

    void embedded(int texts) {
        synchronized (lock) {
            embeddingRequests++;
            embeddedTexts += texts;
        }
    }

    List<JsonNode> requests() {
        synchronized (lock) {
            if (!keepBodies) {
                throw new IllegalStateException("this server keeps only the last request (keepOnlyTheLastRequest)");
            }
            return List.copyOf(requests);
        }
    }

    void keepOnlyTheLastRequest() {
        synchronized (lock) {
            keepBodies = false;
            requests.clear();
            authorizations.clear();
        }
    }

    List<String> authorizations() {
        synchronized (lock) {
            return new ArrayList<>(authorizations);
        }
    }

    JsonNode lastRequest() {
        synchronized (lock) {
            if (lastRequest == null) {
                throw new IllegalStateException("no chat completion request has arrived yet");
            }
            return lastRequest;
        }
    }

    int chatRequests() {
        synchronized (lock) {
            return chatRequests;
        }
    }

    int hangUps() {
        synchronized (lock) {
            return hangUps;
        }
    }

    int modelListRequests() {
        synchronized (lock) {
            return modelListRequests;
        }
    }

    int embeddingRequests() {
        synchronized (lock) {
            return embeddingRequests;
        }
    }

    int embeddedTexts() {
        synchronized (lock) {
            return embeddedTexts;
        }
    }

    boolean awaitChatRequests(int count, Duration timeout) throws InterruptedException {
        return await(() -> chatRequests, count, timeout);
    }

    boolean awaitAnswered(int count, Duration timeout) throws InterruptedException {
        return await(() -> chatRequestsFinished, count, timeout);
    }

    boolean awaitHangUps(int count, Duration timeout) throws InterruptedException {
        return await(() -> hangUps, count, timeout);
    }

    /** Waits on the lock until {@code counter} reaches {@code count}; false when the time ran out first. */
    private boolean await(IntSupplier counter, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (counter.getAsInt() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /** Forgets everything recorded; whether bodies are kept stays as it was. */
    void clear() {
        synchronized (lock) {
            hangUps = 0;
            requests.clear();
            authorizations.clear();
            chatRequests = 0;
            lastRequest = null;
            modelListRequests = 0;
            chatRequestsFinished = 0;
            embeddingRequests = 0;
            embeddedTexts = 0;
        }
    }
}
