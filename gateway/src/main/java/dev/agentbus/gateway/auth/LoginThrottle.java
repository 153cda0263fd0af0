package dev.agentbus.gateway.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Slows password guessing: after {@code limit} failed logins in a minute for one username, or from one address,
 * further attempts for it get 429 until the oldest failure is a minute old. Both keys count, so neither spraying one
 * password over many names from one address nor a botnet on one name gets far.
 *
 * <p>Kept in memory: each gateway replica counts its own attempts (docs/security.md says so). Pure apart from its
 * map; the clock is a parameter, so tests step time themselves.
 */
public final class LoginThrottle {
    static final Duration WINDOW = Duration.ofMinutes(1);
    /** Enough for a real attack's keys; beyond it the oldest windows are dropped first (see {@link #prune}). */
    private static final int MAX_KEYS = 100_000;

    private final int limit;
    private final Map<String, Deque<Instant>> failures = new HashMap<>();

    public LoginThrottle(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        this.limit = limit;
    }

    /** How long to wait before trying again, or empty when an attempt may be made now. */
    public synchronized Optional<Duration> retryAfter(String username, String address, Instant now) {
        Duration wait = Duration.ZERO;
        for (String key : keys(username, address)) {
            Deque<Instant> times = failures.get(key);
            if (times == null) {
                continue;
            }
            drop(times, now);
            if (times.size() >= limit) {
                Duration w = Duration.between(now, times.peekFirst().plus(WINDOW));
                wait = w.compareTo(wait) > 0 ? w : wait;
            }
        }
        return wait.isPositive() ? Optional.of(wait) : Optional.empty();
    }

    public synchronized void failed(String username, String address, Instant now) {
        if (failures.size() >= MAX_KEYS) {
            prune(now);
        }
        for (String key : keys(username, address)) {
            Deque<Instant> times = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
            drop(times, now);
            times.addLast(now);
            // Only the newest `limit` failures can ever block, so the deque never needs more.
            while (times.size() > limit) {
                times.removeFirst();
            }
        }
    }

    /** Keys counted now (for tests of the memory bound). */
    synchronized int keys() {
        return failures.size();
    }

    private static String[] keys(String username, String address) {
        return new String[]{"user:" + (username == null ? "" : username.trim().toLowerCase()),
                "address:" + (address == null ? "" : address)};
    }

    private static void drop(Deque<Instant> times, Instant now) {
        Instant horizon = now.minus(WINDOW);
        while (!times.isEmpty() && !times.peekFirst().isAfter(horizon)) {
            times.removeFirst();
        }
    }

    private void prune(Instant now) {
        for (Iterator<Deque<Instant>> it = failures.values().iterator(); it.hasNext(); ) {
            Deque<Instant> times = it.next();
            drop(times, now);
            if (times.isEmpty()) {
                it.remove();
            }
        }
        // Still full: a flood of distinct keys within one minute. Forget half rather than grow without bound.
        if (failures.size() >= MAX_KEYS) {
            Iterator<String> it = failures.keySet().iterator();
            for (int i = 0; i < MAX_KEYS / 2 && it.hasNext(); i++) {
                it.next();
                it.remove();
            }
        }
    }
}
